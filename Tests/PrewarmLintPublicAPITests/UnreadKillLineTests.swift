import Foundation
import PrewarmLint
import Testing

/// A line that looks like an app's kill which no signature reads is never silent: counted and quoted in one
/// `unread-kill-line` warning, the same however the lines are read (a file, bytes, live, cut into several inputs).
@Suite("kill-shaped lines no signature reads")
struct UnreadKillLineTests {
    static let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024))

    /// runningboardd's lines in the shape of real ones (flutter/flutter#67116's Console copy: `[application<…>:5194] …`),
    /// with wordings of a kill no signature knows, among lines the tool reads.
    static let log = """
        default\t09:34:40.100000+0200\trunningboardd\tExecuting launch request for application<com.example.ledger> (DAS Prewarm launch)
        default\t09:34:40.200000+0200\trunningboardd\t[application<com.example.ledger>:5194] This process will be managed.
        default\t09:34:41.730362+0200\trunningboardd\t[application<com.example.ledger>:5194] Process was killed by jetsam (reason: per-process-limit)
        default\t09:34:41.730400+0200\trunningboardd\t[application<com.example.ledger>:5194] TERMINATED with SIGKILL\u{7}, code 9
        default\t09:34:41.731000+0200\trunningboardd\tXPC connection killed for a daemon: no app named
        default\t09:34:41.740000+0200\tlocationd\tClient com.example.ledger is now Terminated

        """

    static func unread(_ report: LintReport) -> [String] {
        report.diagnostics.filter { $0.code == .unreadKillLine }.map(\.message)
    }

    @Test("each line about an app that says a kill no signature reads is counted, the first quoted as one line; lines naming no app and other processes' are not")
    func countedAndQuoted() throws {
        let report = try LogAnalyzer(options: Self.options).lint(bytes: Array(Self.log.utf8), named: "device.log")
        let said = Self.unread(report)
        #expect(said.count == 1)
        let message = try #require(said.first)
        #expect(message.hasPrefix("2 lines look like a kill of an app that no signature reads"))
        #expect(message.contains("\"[application<com.example.ledger>:5194] Process was killed by jetsam (reason: per-process-limit)\" (line 3)"))
        // A control character in the quoted line is made a space: a diagnostic is one line of text.
        #expect(message.contains("TERMINATED with SIGKILL , code 9\" (line 4)"))
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
        // The session the tool does read is still there.
        #expect(report.sessions.map(\.kind) == [.prewarmOutcomeUnknown])
    }

    @Test("the same warning read as a file, as bytes, live a line at a time, and cut into two inputs merged")
    func sameAnyWayIn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unread-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("device.log")
        try Data(Self.log.utf8).write(to: whole)
        let lines = Self.log.split(separator: "\n", omittingEmptySubsequences: false)
        let parts = directory.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        try Data((lines[0..<3].joined(separator: "\n") + "\n").utf8).write(to: parts.appendingPathComponent("a.log"))
        try Data(lines[3...].joined(separator: "\n").utf8).write(to: parts.appendingPathComponent("b.log"))

        let analyzer = LogAnalyzer(options: Self.options)
        let bytes = try analyzer.lint(bytes: Array(Self.log.utf8), named: "device.log")
        var live = LiveLint(inputName: "device.log", analyzer: analyzer)
        for line in lines { try Array((line + "\n").utf8).withUnsafeBytes { try live.push($0) { _ in } } }
        let liveReport = try live.finish { _ in }
        let merged = analyzer.lint(paths: [parts.path])
        #expect(merged.inputs.count == 2)
        let counts = [analyzer.lint(paths: [whole.path]), bytes, liveReport, merged].map { Self.unread($0).first.map { String($0.prefix(7)) } }
        #expect(counts == ["2 lines", "2 lines", "2 lines", "2 lines"])
    }

    @Test("a crash report's termination of a namespace no signature names is still read as its termination, not said unread")
    func reportTermination() throws {
        let text = """
            Process:             Ledger [4410]
            Identifier:          com.example.ledger
            Date/Time:           2024-03-18 10:00:00.0000 +0100
            Exception Type:  EXC_CRASH (SIGKILL)
            Termination Reason: Namespace NEWDAEMON, Code 0xbad22222 killed for a reason not known yet

            """
        let report = try LogAnalyzer(options: Self.options).lint(bytes: Array(text.utf8), named: "report.txt")
        #expect(Self.unread(report).isEmpty)
        #expect(report.sessions.first?.milestone(.termination) != nil)
    }
}
