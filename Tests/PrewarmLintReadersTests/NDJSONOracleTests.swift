import PrewarmLintModel
import Foundation
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// The streaming ndjson reader against an oracle: the standard library splits the lines and
/// Foundation's JSONDecoder decodes each one.
@Suite("ndjson against a JSONDecoder oracle")
struct NDJSONOracleTests {
    struct Record: Codable {
        var timestamp: String
        var processImagePath: String
        var processID: Int
        var subsystem: String
        var category: String
        var messageType: String
        var threadID: UInt64
        var eventMessage: String
    }

    /// Deterministic pseudo-random records with escapes, unicode and slashes.
    static func records(count: Int, seed: UInt64) -> [Record] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        let pieces = ["Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)", "tab\there", "quote \"x\"",
                      "back\\slash", "slash /a/b", "line\nbreak", "café ☕️", "\u{1F600} emoji", "control \u{01}", "<private>", ""]
        let processes = ["/usr/libexec/runningboardd", "/usr/libexec/dasd", "/System/Library/CoreServices/SpringBoard.app/SpringBoard",
                         "/private/var/containers/Bundle/Application/X/Ledger Pro.app/Ledger Pro"]
        return (0..<count).map { index in
            let second = index % 60
            return Record(
                timestamp: String(format: "2024-03-18 07:%02d:%02d.%06d-0700", (index / 60) % 60, second, Int(next() % 1_000_000)),
                processImagePath: processes[Int(next() % UInt64(processes.count))],
                processID: Int(next() % 99_999),
                subsystem: ["com.apple.runningboard", "", "com.example.ledger"][Int(next() % 3)],
                category: ["job", "", "lifecycle"][Int(next() % 3)],
                messageType: ["Default", "Info", "Debug", "Error", "Fault"][Int(next() % 5)],
                threadID: next(),
                eventMessage: (0..<Int(next() % 4 + 1)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined(separator: " ")
            )
        }
    }

    @Test("every record decodes to the oracle's fields", arguments: [UInt64(1), 2, 3])
    func matchesOracle(seed: UInt64) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = seed % 2 == 0 ? [] : [.withoutEscapingSlashes]  // even seeds write `log show`'s \/ escapes
        let text = try Self.records(count: 400, seed: seed).map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            .joined(separator: "\n") + "\n"
        let bytes = Array(text.utf8)
        let outcome = try ReaderVerifier.verify(bytes, configuration: ReaderConfiguration(inputName: "oracle.ndjson"))
        let oracle = try text.split(separator: "\n").map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
        #expect(outcome.format == .logShowNDJSON)
        #expect(outcome.diagnostics.isEmpty)
        try #require(outcome.events.count == oracle.count)
        for (event, record) in zip(outcome.events, oracle) {
            #expect(event.message == record.eventMessage)
            #expect(event.process == String(record.processImagePath.split(separator: "/").last!))
            #expect(event.pid == record.processID)
            #expect(event.subsystem == (record.subsystem.isEmpty ? nil : record.subsystem))
            #expect(event.category == (record.category.isEmpty ? nil : record.category))
            #expect(event.type.rawValue == record.messageType.lowercased())
            #expect(event.threadID == record.threadID)
            #expect(event.timestamp.text == record.timestamp)
            #expect(event.timestamp.inferred.isEmpty)
        }
    }
}
