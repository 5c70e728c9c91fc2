import Foundation
import PrewarmLintTesting
import Testing

/// Memory bounds, measured on the `prewarm-lint` binary as a child process (its own peak RSS from
/// `wait4`): the test process runs other tests in parallel, so its own peak says nothing about one input.
/// Big inputs are generated and piped in, never written to disk. A soak: run in CI's stage after the tests
/// (`PREWARM_LINT_SOAK=1`), with fuzzing and the allocation gate, not in the suite's five minutes.
@Suite("memory bounds of the binary",
       .enabled(if: ProcessInfo.processInfo.environment["PREWARM_LINT_SOAK"] == "1",
                "a soak, run with PREWARM_LINT_SOAK=1 (CI's stage after the tests: PREWARM_LINT_SOAK=1 scripts/test --filter MemoryBoundTests)"))
struct MemoryBoundTests {
    static let limitKilobytes = 64 * 1024
    static let megabyteOfX = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    static let prewarmLine = "2024-03-18 07:41:02.120871-0700 0x2b07     Default     0x0                  33     0    runningboardd: Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)\n"

    @Test("a 200 MB plist text node piped in: the entry skipped with one diagnostic, the next read, peak RSS under 64 MB")
    func hugeTextNode() throws {
        let run = try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["events", "--format", "ndjson", "-"]) { write in
            try write(Array("<?xml version=\"1.0\"?>\n<plist><array><dict><key>eventMessage</key><string>".utf8))
            for _ in 0..<200 { try write(Self.megabyteOfX) }
            try write(Array("</string></dict>\n<dict><key>timestamp</key><string>2024-03-18 07:41:02.120871-0700</string><key>processImagePath</key><string>/usr/libexec/dasd</string><key>processID</key><integer>118</integer><key>eventMessage</key><string>Attempting prewarm for com.example.ledger</string></dict>\n</array></plist>\n".utf8))
        }
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("-:2: warning: plist entry longer than 4194304 bytes"))
        #expect(run.standardError.contains("-: plist, 1 event from"))
        #expect(run.peakResidentKilobytes < Self.limitKilobytes, "peak RSS \(run.peakResidentKilobytes / 1024) MB")
    }

    @Test("a 200 MB line with no newline piped in after two good lines: both read, one diagnostic, peak RSS under 64 MB")
    func hugeLine() throws {
        let run = try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["events", "--format", "ndjson", "-"]) { write in
            try write(Array((Self.prewarmLine + Self.prewarmLine).utf8))
            for _ in 0..<200 { try write(Self.megabyteOfX) }
        }
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("[line-too-long]"))
        #expect(run.standardError.contains("-: log-show, 2 events from 3 lines"))
        #expect(run.peakResidentKilobytes < Self.limitKilobytes, "peak RSS \(run.peakResidentKilobytes / 1024) MB")
    }

    @Test("a million bad ndjson lines piped in after a good one: counted, a hundred kept, the rest summed up; the JSON report small, peak RSS under 64 MB")
    func boundedDiagnostics() throws {
        let good = "{\"timestamp\":\"2024-03-18 07:41:02.120871-0700\",\"processImagePath\":\"/usr/libexec/runningboardd\",\"processID\":33,\"messageType\":\"Default\",\"eventMessage\":\"Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)\"}\n"
        let bad = [UInt8](String(repeating: "{\"this is\": not json\n", count: 50_000).utf8)
        let folder = try TemporaryFolder("prewarm-lint-diagnostics")
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("report.json").path
        let run = try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["--output", "json=\(path)", "-"]) { write in
            try write(Array(good.utf8))
            for _ in 0..<20 { try write(bad) }
        }
        #expect(run.status == 0, "\(run.standardError)")
        let json = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        let invalid = diagnostics.filter { $0["code"] as? String == "invalid-record" }
        #expect(invalid.count == 101)
        #expect((invalid.last?["message"] as? String)?.hasPrefix("999900 more invalid-record diagnostics were counted and not kept (1000000 in all") == true)
        #expect((report["inputs"] as? [[String: Any]])?.first?["diagnostics"] as? Int == 1_000_000)
        #expect(json.count < 100_000)
        #expect(run.peakResidentKilobytes < Self.limitKilobytes, "peak RSS \(run.peakResidentKilobytes / 1024) MB")
    }

    /// A launch line whose message is 900 KB: a hundred and twenty of them are 108 MB of messages, which the reorder
    /// window held whole (it is bounded in lines: 1,024) until its byte budget.
    static func heavyLaunchLines(_ write: ([UInt8]) throws -> Void) throws {
        let pad = [UInt8](repeating: UInt8(ascii: "x"), count: 900_000)
        try write(Array(Self.prewarmLine.utf8))
        for index in 0..<120 {
            let head = String(format: "2024-03-18 07:42:%02d.%06d-0700 0x2b07     Default     0x0                  33     0    runningboardd: Executing launch request for app<com.example.app%d(501)> (DAS Prewarm launch) ", index % 60, index, index)
            try write(Array(head.utf8) + pad + [UInt8(ascii: "\n")])
        }
    }

    @Test("120 launch lines of 900 KB each, piped in and as a file read ahead on a second thread: 121 sessions, peak RSS under 64 MB")
    func heavyLaunchMessages() throws {
        let piped = try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["--format", "json", "--fail-on", "never", "-"]) { write in
            try Self.heavyLaunchLines(write)
        }
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(piped.peakResidentKilobytes < Self.limitKilobytes, "piped: peak RSS \(piped.peakResidentKilobytes / 1024) MB")
        let folder = try TemporaryFolder("prewarm-lint-heavy-lines")
        defer { folder.remove() }
        var bytes: [UInt8] = []
        try Self.heavyLaunchLines { bytes += $0 }
        let path = try folder.write(bytes, named: "heavy.log")
        bytes = []
        let report = folder.url.appendingPathComponent("report.json").path
        let read = try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["--jobs", "2", "--fail-on", "never", "--output", "json=\(report)", path]) { _ in }
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.peakResidentKilobytes < Self.limitKilobytes, "read ahead: peak RSS \(read.peakResidentKilobytes / 1024) MB")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect((object["sessions"] as? [Any])?.count == 121)
    }

    @Test("10,000 apps with a live process, each sent 4 or then 24 pid-less launch requests: the held lines stay in the budget, memory flat in their number")
    func heldLinesFlat() throws {
        // runningboardd's shapes (`Now tracking process: [app<…>:pid]`, `Executing launch request for app<…> (DAS Prewarm
        // launch)`), as `log show --style compact`: every request is held until a line says which process it starts.
        func run(rounds: Int) throws -> MeasuredChildProcess.Outcome {
            try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["--fail-on", "never", "--no-color", "-"]) { write in
                let prefix = "Df runningboardd[33:2b28] [com.apple.runningboard:process] "
                var text = "Timestamp               Ty Process[PID:TID]\n"
                var second = 0
                func stamp() -> String {
                    second += 1
                    let (hours, rest) = (second / 3600, second % 3600)
                    return "2024-03-\(String(format: "%02d", 1 + hours / 24)) \(String(format: "%02d:%02d:%02d", hours % 24, rest / 60, rest % 60)).000"
                }
                for app in 0..<10_000 { text += "\(stamp()) \(prefix)Now tracking process: [app<com.adversary.app\(app)(501)>:\(1_000 + app)]\n" }
                try write(Array(text.utf8))
                for _ in 0..<rounds {
                    text = ""
                    for app in 0..<10_000 {
                        text += "\(stamp()) \(prefix)Executing launch request for app<com.adversary.app\(app)(501)> (DAS Prewarm launch) \(String(repeating: "x", count: 40))\n"
                    }
                    try write(Array(text.utf8))
                }
            }
        }
        let few = try run(rounds: 4), many = try run(rounds: 24)
        #expect(few.status == 0 && many.status == 0, "\(many.standardError)")
        for result in [few, many] {
            #expect(result.standardError.contains("launch lines were counted but not kept: the open sessions already held 16 MiB of lines"), "\(result.standardError)")
        }
        #expect(many.peakResidentKilobytes < few.peakResidentKilobytes + 8 * 1024,
                "peak RSS \(few.peakResidentKilobytes / 1024) MB with 40,000 requests, \(many.peakResidentKilobytes / 1024) MB with 240,000")
    }

    @Test("a file of 24 MB of blank and one-byte lines between log lines, judged ahead on a third thread: peak RSS under 64 MB")
    func shortLinesJudgedAhead() throws {
        // A chunk's table of lines is 24 bytes a line: a chunk of such lines would make tables several times the size
        // of the chunks (97 MB for this file before the judge left such chunks to the decoder).
        let folder = try TemporaryFolder("prewarm-lint-short-lines")
        defer { folder.remove() }
        var bytes = Array("Timestamp                       Thread     Type        Activity             PID    TTL  \n".utf8)
        let lines = Array(String(repeating: Self.prewarmLine, count: 2_000).utf8)
        bytes += lines
        bytes += [UInt8](repeating: 0x0A, count: 12 << 20)
        bytes += lines
        bytes += Array(String(repeating: "x\n", count: 6 << 20).utf8)
        let path = try folder.write(bytes, named: "short-lines.log")
        bytes = []
        let run = try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["--jobs", "2", "--fail-on", "never", "--format", "json", path]) { _ in }
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.peakResidentKilobytes < Self.limitKilobytes, "peak RSS \(run.peakResidentKilobytes / 1024) MB")
    }

    /// 100,500 launches of two apps: runningboardd's `Now tracking process: [app<…>:pid]` (real excerpts 44–46), as `log
    /// show --style compact`; each new pid of an app is a new process, so a session of its own.
    static func manyLaunches(_ write: ([UInt8]) throws -> Void) throws {
        var text = "Timestamp               Ty Process[PID:TID]\n"
        for index in 0..<100_500 {
            let (hours, rest) = (index / 3600, index % 3600)
            let time = "2024-03-\(String(format: "%02d", 1 + hours / 24)) \(String(format: "%02d:%02d:%02d", hours % 24, rest / 60, rest % 60)).000"
            text += "\(time) Df runningboardd[33:2b28] [com.apple.runningboard:process] Now tracking process: [app<com.example.app\(index % 2)(501)>:\(10_000 + index)]\n"
            if text.utf8.count > 1 << 20 {
                try write(Array(text.utf8))
                text = ""
            }
        }
        try write(Array(text.utf8))
    }

    @Test("100,500 launches piped in, as an HTML page: every listed session on it, grouped by app, peak RSS under 64 MB")
    func htmlOfManySessions() throws {
        // The page held every listed session in memory (145 MB for these), to group them by app.
        let folder = try TemporaryFolder("prewarm-lint-html-many")
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("report.html").path
        let run = try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["--output", "html=\(path)", "--fail-on", "never", "-"]) { write in
            try Self.manyLaunches(write)
        }
        #expect(run.status == 0, "\(run.standardError)")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.components(separatedBy: "<article class=\"session\"").count - 1 == 100_000, "the listed sessions")
        for app in ["com.example.app0", "com.example.app1"] {
            #expect(page.contains("<span class=\"app-name\">\(app)</span> <span class=\"muted\">50000 sessions (50000 unknown)</span>"))
        }
        #expect(page.contains("<span class=\"swatch kind-unknown\"></span>unknown</td><td class=\"number\">100500</td>"), "every session checked")
        #expect(page.hasSuffix("</body></html>\n"))
        #expect(run.peakResidentKilobytes < Self.limitKilobytes, "peak RSS \(run.peakResidentKilobytes / 1024) MB")
    }

    @Test("100,500 launches piped in, the sessions of one app asked for: its 50,250 listed from the temporary file, peak RSS under 64 MB")
    func sessionsOfOneApp() throws {
        // The selected sessions were gathered into an array (90 MB for these).
        let run = try MeasuredChildProcess.run(EventsCommandTests.binary.path, ["sessions", "--app", "com.example.app0", "-"]) { write in
            try Self.manyLaunches(write)
        }
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.hasSuffix("50250 sessions from 1 input: 50250 unknown\n"), "\(run.standardError.suffix(200))")
        #expect(run.peakResidentKilobytes < Self.limitKilobytes, "peak RSS \(run.peakResidentKilobytes / 1024) MB")
    }

    @Test("a 128 MB chunk pushed to LiveLint at once is consumed where it lies: the push adds well under half its size to the peak")
    func hugeLiveChunk() throws {
        let benchmark = EventsCommandTests.binary.deletingLastPathComponent().appendingPathComponent("prewarm-lint-benchmark")
        let folder = try LintCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("day.ndjson").path
        let generate = try EventsCommandTests.run(["generate-day", "log-show-ndjson", "128", path], executable: benchmark)
        #expect(generate.status == 0, "\(generate.stderr)")
        let process = Process()
        process.executableURL = benchmark
        process.arguments = ["live-chunk", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        // `chunk 128.0 MB: peak RSS 9.1 MB before the push, 160.3 MB after; …` (the mapped file's pages touched count too)
        let numbers = text.split(whereSeparator: { !$0.isNumber && $0 != "." }).compactMap { Double($0) }
        try #require(numbers.count >= 3, "\(text)")
        let (chunk, before, after) = (numbers[0], numbers[1], numbers[2])
        #expect(after - before < chunk * 1.5, "\(text)")
    }
}

/// The unified-log reader's strings, bounded whatever sizes and counts an archive's files claim.
@Suite("memory bounds of an archive's strings",
       .enabled(if: ProcessInfo.processInfo.environment["PREWARM_LINT_SOAK"] == "1", "a soak, run with PREWARM_LINT_SOAK=1"))
struct ArchiveStringsMemoryBoundTests {
    /// The real macOS Persist file as a `.logarchive` with the samples' four uuidtext files, each grown to `grown`
    /// bytes of trailing zeros (after its image path's NUL: the same file to a reader), and when `hugeCache`, a shared
    /// cache under the file's own UUID claiming 2^20 ranges and 2^15 images, all there (zeros).
    static func archive(grown: Int, hugeCache: Bool) throws -> URL {
        let samples = EventsCommandTests.repositoryRoot.appendingPathComponent("Tests/PrewarmLintReadersTests/UnifiedLogSamples/macos12")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("strings-\(UUID().uuidString)/a.logarchive")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Persist"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: samples.appendingPathComponent("Persist/0000000000000001.tracev3"),
                                         to: root.appendingPathComponent("Persist/0000000000000001.tracev3"))
        let uuidtext = samples.appendingPathComponent("uuidtext")
        for folder in try FileManager.default.contentsOfDirectory(atPath: uuidtext.path) {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: uuidtext.appendingPathComponent(folder).path) {
                let target = root.appendingPathComponent(folder + "/" + name)
                try FileManager.default.copyItem(at: uuidtext.appendingPathComponent(folder + "/" + name), to: target)
                let handle = try FileHandle(forWritingTo: target)
                try handle.truncate(atOffset: UInt64(max(grown, Int(try handle.seekToEnd()))))
                try handle.close()
            }
        }
        if hugeCache {
            // The Persist file's shared cache (its catalogs name it; the samples lack it).
            let cache = root.appendingPathComponent("dsc/BE7FE6AD45603AE2883E432F78B45062")
            try FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
            let header: [UInt8] = [0x68, 0x63, 0x73, 0x64, 2, 0, 0, 0, 0x00, 0x00, 0x10, 0x00, 0x00, 0x80, 0x00, 0x00]
            try Data(header).write(to: cache)
            let handle = try FileHandle(forWritingTo: cache)
            let size: UInt64 = 16 + 24 << 20 + 32 << 15
            try handle.truncate(atOffset: size)
            try handle.close()
        }
        return root
    }

    @Test("an archive whose uuidtext files are 60 MiB each and whose shared cache claims a million ranges: read in pieces, peak RSS within 48 MB of the plain archive's")
    func stringsReadInPieces() throws {
        let plain = try Self.archive(grown: 0, hugeCache: false)
        let huge = try Self.archive(grown: 60 << 20, hugeCache: true)
        defer {
            try? FileManager.default.removeItem(at: plain.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: huge.deletingLastPathComponent())
        }
        let base = try MeasuredChildProcess.run(EventsCommandTests.binary.path, [plain.path]) { _ in }
        let run = try MeasuredChildProcess.run(EventsCommandTests.binary.path, [huge.path]) { _ in }
        // The same strings read: the same words, whatever the files' sizes.
        #expect(run.standardError.contains("64046 log entries whose format string the archive lacks"), "\(run.standardError)")
        #expect(base.standardError.contains("64046 log entries whose format string the archive lacks"), "\(base.standardError)")
        #expect(run.peakResidentKilobytes < base.peakResidentKilobytes + 48 * 1024,
                "peak RSS \(run.peakResidentKilobytes / 1024) MB, plain archive \(base.peakResidentKilobytes / 1024) MB")
    }
}
