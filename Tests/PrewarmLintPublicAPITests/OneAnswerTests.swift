import Foundation
import PrewarmLint
import Testing

/// The report is assembled in one place, so the way the bytes came in changes nothing of it.
@Suite("one answer, any way in")
struct OneAnswerTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus")

    /// A device's log dated by the caller, so that a file's modification time plays no part.
    static func analyzer(maximumOpenSessions: Int = 10_000) -> LogAnalyzer {
        LogAnalyzer(options: ReadOptions(timeInference: TimeInference(
            date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024, utcOffsetSeconds: 0, referenceInstant: 1_710_720_000_000_000)),
            maximumOpenSessions: maximumOpenSessions)
    }

    /// Whether a line starts a record in the text formats the corpus holds: a date (`2024-03-18 …`), a syslog month
    /// (`Mar 18 …`) or a JSON object — where a writer that sends whole records may fall quiet.
    static func startsRecord(_ line: ArraySlice<UInt8>) -> Bool {
        let head = Array(line.prefix(5))
        if head.first == UInt8(ascii: "{") { return true }
        if head.count == 5, head[0..<4].allSatisfy({ (0x30...0x39).contains($0) }), head[4] == UInt8(ascii: "-") { return true }
        let months = ["Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ", "Dec "]
        return months.contains { head.starts(with: $0.utf8) }
    }

    /// `bytes` fed to a live run a line at a time, pausing before each line that starts a record when `pausing`.
    static func live(_ bytes: [UInt8], named name: String, analyzer: LogAnalyzer, pausing: Bool) throws -> LintReport {
        var live = LiveLint(inputName: name, analyzer: analyzer)
        var start = 0
        while start < bytes.count {
            let end = (bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 }) ?? bytes.count
            if pausing, Self.startsRecord(bytes[start..<end]) { try live.pause(quietFor: 300_000) { _ in } }
            try bytes[start..<end].withUnsafeBytes { try live.push($0) { _ in } }
            start = end
        }
        return try live.finish { _ in }
    }

    /// The three ways one log comes in: a file named on the command line, bytes in memory, and a live run fed line by
    /// line; their JSON reports, byte for byte.
    static func reports(of path: String, analyzer: LogAnalyzer, pausing: Bool) throws -> (file: String, bytes: String, live: String)? {
        guard let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
              let inMemory = try? analyzer.lint(bytes: bytes, named: path) else { return nil }
        let file = analyzer.lint(paths: [path])
        let live = try Self.live(bytes, named: path, analyzer: analyzer, pausing: pausing)
        return (file.render(), inMemory.render(), live.render())
    }

    @Test("every corpus log gives the same JSON report as a file, as bytes in memory and fed live line by line", arguments: [false, true])
    func sameReportEveryWayIn(pausing: Bool) throws {
        var compared = 0, differing: [String] = []
        for input in InputDiscovery.expand([Self.corpus.path]).inputs {
            guard case .file(let path) = input.input, let reports = try Self.reports(of: path, analyzer: Self.analyzer(), pausing: pausing) else { continue }
            compared += 1
            // A paste holding the crash report of a process another block names: a live run reads its blocks as they
            // come, not merged by time (a stream is not cut), and says so; the file and the bytes read whole agree.
            if reports.live.contains("read as the paste came, the blocks were not merged by time") {
                #expect(reports.bytes == reports.file, "\(path)")
                continue
            }
            if reports.file != reports.bytes || reports.file != reports.live {
                differing.append(path)
                let which = reports.file != reports.bytes ? "bytes" : "live"
                let other = which == "bytes" ? reports.bytes : reports.live
                Issue.record("\(path): the \(which) report differs from the file's: \(Self.difference(reports.file, other))")
            }
        }
        #expect(compared > 60)
        print("one answer: \(compared) corpus logs compared, \(differing.count) differ (pausing \(pausing))")
    }

    /// Where two reports first differ, with some of each around it.
    static func difference(_ a: String, _ b: String) -> String {
        let a = Array(a.utf8), b = Array(b.utf8)
        let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, first - 80)..<min(bytes.count, first + 160)], as: UTF8.self)
        }
        return "at byte \(first): \(around(a)) | \(around(b))"
    }

    @Test("sessions closed early for the open-session bound are said the same way as a file, in memory and live")
    func sessionLimitSaidEveryWayIn() throws {
        let path = Self.corpus.appendingPathComponent("scenarios/two-apps-interleaved/log.txt").path
        let analyzer = Self.analyzer(maximumOpenSessions: 1)
        let reports = try #require(try Self.reports(of: path, analyzer: analyzer, pausing: false))
        #expect(reports.file.contains("were closed early"))
        #expect(reports.bytes == reports.file)
        #expect(reports.live == reports.file)
    }
}
