import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// A unified log exported without the strings its entries need (mandiant's `unifiedlog_iterator` on an archive copied
/// without `dsc/`): the entries whose message is the exporter's placeholder are counted by process and said, never
/// passed over as if the log held no launch.
@Suite("unified-log entries without their format string")
struct UnresolvedFormatStringTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/formats/unifiedlog-iterator-jsonl/log.jsonl")

    /// The corpus export's lines, and the first (runningboardd's launch request) as the exporter writes it when the format
    /// string is missing: `message` and `raw_message` are mandiant's placeholder (its `format_firehose_log_message`).
    static func export(placeholders: Int, every: Int = 1, process: String = "/usr/libexec/runningboardd") throws -> (bytes: [UInt8], lines: Int) {
        let lines = try String(contentsOf: corpus, encoding: .utf8).split(separator: "\n").map(String.init)
        let unresolved = lines[0]
            .replacingOccurrences(of: "\"message\":\"Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)\"",
                                  with: "\"message\":\"Unknown shared string message\"")
            .replacingOccurrences(of: "\"raw_message\":\"Executing launch request for %{public}@ (%{public}@)\"",
                                  with: "\"raw_message\":\"Unknown shared string message\"")
            .replacingOccurrences(of: "\"process\":\"/usr/libexec/runningboardd\"", with: "\"process\":\"\(process)\"")
        precondition(unresolved != lines[0])
        var text = "", count = 0
        for index in 0..<placeholders {
            text += unresolved + "\n"
            if index % every == 0 { text += lines[1...].joined(separator: "\n") + "\n"; count += lines.count - 1 }
        }
        return (Array(text.utf8), count + placeholders)
    }

    @Test("the placeholders are counted by process and said once, the same whatever the chunking")
    func countedAndSaid() throws {
        let (bytes, _) = try Self.export(placeholders: 3)
        for chunkSize in [1, 7, 4096, nil] {
            let outcome = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "export.jsonl"), format: .unifiedLogIterator,
                                              chunkSize: chunkSize)
            let said = outcome.diagnostics.filter { $0.code == .unresolvedFormatString }
            #expect(said.count == 1, "chunk \(chunkSize ?? 0)")
            #expect(said.first?.message.hasPrefix("3 entries have no format string") == true && said.first?.message.contains("runningboardd 3") == true,
                    "\(said.first?.message ?? "")")
            #expect(said.first?.origin.line == 1)
        }
    }

    @Test("a file large enough to be judged ahead on another thread: every placeholder counted, as when read alone")
    func countedWhenJudgedAhead() throws {
        // (locationd writes no launch line: its records are passed over unread ahead, unless their message is a placeholder.)
        let (bytes, _) = try Self.export(placeholders: 9_000, every: 1_000, process: "/usr/libexec/locationd")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-unresolved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.jsonl")
        try Data(bytes).write(to: file)
        #expect(bytes.count > 4 << 20, "past the four chunks a file needs to be judged ahead")
        var options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024))
        options.format = .unifiedLogIterator
        var pipeline = SessionPipeline(reader: InputReader(options: options))
        pipeline.jobs = 2
        pipeline.readAheadMinimumBytes = 0
        let result = pipeline.run(InputDiscovery.expand([file.path]).inputs, onDiagnostic: { _ in }, onSession: { $0 })
        #expect(result.summaries.map(\.linesJudgedAhead).reduce(0, +) > 0, "judged ahead")
        let said = result.diagnostics.filter { $0.code == .unresolvedFormatString }
        #expect(said.count == 1 && said.first?.message.hasPrefix("9000 entries have no format string") == true
                && said.first?.message.contains("locationd 9000") == true, "\(said.map(\.message))")
    }
}
