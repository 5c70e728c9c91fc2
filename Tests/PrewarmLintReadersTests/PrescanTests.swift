import PrewarmLintModel
@testable import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// `NDJSONPrescanner` and the ndjson decoder's `RecordPrescan`: a decoder told which lines were judged ahead must give
/// exactly what it gives judging every line itself — events, diagnostics, counts, and the times it resolves later from
/// what it passed over.
@Suite("ndjson lines judged ahead of the decoder")
struct PrescanTests {
    /// A caller with state, as the session pipeline is: lines of `noise` are wanted only once a line has taught their
    /// pid (`learn N`, read by the caller), lines of `quiet` never, every other line always. Its ahead judge says what
    /// holds whatever it learns.
    final class LearningCaller {
        var learnt: Set<Int> = []

        static func name(_ offer: RecordOffer) -> String { String(decoding: offer.processName, as: UTF8.self) }

        func takes(_ offer: inout RecordOffer) -> Bool {
            if let pid = offer.unlessLearnt { return learnt.contains(pid) }
            switch Self.name(offer) {
            case "quiet": return false
            case "noise": return offer.pid.map { learnt.contains($0) } ?? false
            default: return true
            }
        }

        func admission(_ offer: inout RecordOffer) -> RecordAdmission {
            switch Self.name(offer) {
            case "quiet": .refused
            case "noise": offer.pid.map { .refusedUnlessLearnt(pid: $0) } ?? .refused
            default: .admitted
            }
        }
    }

    /// Every line of an input judged at once, as the thread reading ahead would judge each of its chunks.
    final class AllJudged: RecordPrescan, @unchecked Sendable {
        var skips: [Int: PrescannedSkip] = [:]
        var table: TextLineTable?
        var count = 0
        var asked = 0, used = 0, tablesUsed = 0
        init(_ bytes: [UInt8], prescanner: some LinePrescanner) {
            var prescanner = prescanner
            let judge = LearningCaller()
            let judgement = bytes.withUnsafeBytes { prescanner.judge($0, at: 0, startsLine: true) { judge.admission(&$0) } }
            for skip in judgement.skips { skips[skip.byteOffset] = skip }
            table = judgement.lines
            count = bytes.count
        }
        func skip(_ line: ByteLine) -> PrescannedSkip? {
            asked += 1
            guard let skip = skips[line.byteOffset], skip.matches(line) else { return nil }
            used += 1
            return skip
        }
        func lineTable(at byteOffset: Int, count: Int) -> TextLineTable? {
            guard byteOffset == 0, count == self.count, let table else { return nil }
            tablesUsed += 1
            return table
        }
    }

    static func record(_ time: String, _ process: String, _ pid: Int, _ message: String) -> String {
        #"{"timestamp":"\#(time)","messageType":"Default","eventType":"logEvent","processImagePath":"\/usr\/libexec\/\#(process)","processID":\#(pid),"senderImagePath":"\/usr\/lib\/libsystem.dylib","subsystem":"com.example","category":"test","eventMessage":"\#(message)"}"#
    }

    /// Lines in the shape of `log show --style ndjson` records (the keys and spellings of `Corpus/formats`' ndjson case).
    static let log: [UInt8] = {
        var lines: [String] = ["Filtering the log data using \"process == \\\"noise\\\"\""]
        lines.append(record("2024-03-18 10:00:00.000000-0700", "app", 10, "started"))
        for second in 1...20 { lines.append(record("2024-03-18 10:00:\(second < 10 ? "0" : "")\(second).000000-0700", "noise", 77, "tick \(second)")) }
        lines.append(record("2024-03-18 10:00:30.000000-0700", "app", 10, "learn 77"))
        for second in 31...40 { lines.append(record("2024-03-18 10:00:\(second).000000-0700", "noise", 77, "tick \(second)")) }
        // The offset changes on lines never built; the next line without one takes theirs.
        for second in 41...45 { lines.append(record("2024-03-19 03:30:\(second).000000+0930", "quiet", 5, "elsewhere \(second)")) }
        lines.append(record("2024-03-19 03:30:46.000000", "app", 10, "offset from the lines before"))
        lines.append(record("2024-03-19 03:30:47.000000", "quiet", 5, "no offset, passed over"))
        lines.append(record("2024-03-18 10:00:48", "quiet", 5, "no fraction"))
        // A year to infer (refused, never judged), CRLF, escapes, a cut object, a trailer, a blank line.
        lines.append(record("03-18 10:00:49.000000-0700", "quiet", 5, "no year"))
        lines.append(record("2024-03-18 10:00:50.000000-0700", "quiet", 5, "crlf") + "\r")
        lines.append(record("2024-03-18 10:00:51.000000-0700", "quiet", 5, #"a \/ path \u00e9"#))
        lines.append(String(record("2024-03-18 10:00:52.000000-0700", "quiet", 5, "cut").dropLast(3)))
        lines.append(record("2024-02-30 10:00:53.000000-0700", "quiet", 5, "no such day"))
        lines.append("")
        lines.append(#"{"count":41,"finished":1}"#)
        var bytes = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        // Invalid UTF-8 in a refused line's message: still reported.
        bytes += Array(record("2024-03-18 10:00:54.000000-0700", "quiet", 5, "bad ").utf8).dropLast(2) + [0xFF, 0x22, 0x7D, 0x0A]
        return bytes
    }()

    struct Outcome: Equatable {
        var events: [LogEvent] = []
        var diagnostics: [ReaderDiagnostic] = []
        var preMainStatistics: [PreMainStatistics] = []
        var statistics = DecoderStatistics()
    }

    static func read(_ bytes: [UInt8], format: LogFormat = .logShowNDJSON, prescan: AllJudged?, caller: LearningCaller,
                     skipping skippedProcesses: Set<String> = [], chunkSize: Int?) -> Outcome {
        var configuration = ReaderConfiguration(inputName: "log", offersRecords: true)
        configuration.skippedProcesses = skippedProcesses
        configuration.prescan = prescan
        var outcome = Outcome()
        var reader = LogStreamReader(configuration: configuration, format: format)
        let emit: (ReaderOutput) -> Void = { output in
            switch output {
            case .event(let event):
                // The consumer learns as it reads, as the session pipeline's classifier does.
                if event.message.hasPrefix("learn "), let pid = Int(event.message.dropFirst(6)) { caller.learnt.insert(pid) }
                outcome.events.append(event)
            case .diagnostic(let diagnostic):
                outcome.diagnostics.append(diagnostic)
            case .preMainStatistics(let statistics):
                outcome.preMainStatistics.append(statistics)
            case .fragment, .partStart:
                Issue.record("no fragment or part in a log")
            }
        }
        bytes.withUnsafeBytes { all in
            let size = chunkSize ?? all.count
            var start = 0
            while start < all.count {
                let end = min(all.count, start + size)
                try? reader.read(UnsafeRawBufferPointer(rebasing: all[start..<end]), offers: { caller.takes(&$0) }, emit: emit)
                start = end
            }
            try? reader.finish(offers: { caller.takes(&$0) }, emit: emit)
        }
        outcome.statistics = reader.statistics
        return outcome
    }

    @Test("the same events, diagnostics and counts as judging every line in the decoder", arguments: [nil, 1, 7, 300] as [Int?])
    func sameOutcome(chunkSize: Int?) throws {
        let plain = Self.read(Self.log, prescan: nil, caller: LearningCaller(), chunkSize: chunkSize)
        let prescanner = try #require(NDJSONPrescanner(format: .logShowNDJSON, configuration: ReaderConfiguration(inputName: "log", offersRecords: true)))
        let ahead = AllJudged(Self.log, prescanner: prescanner)
        let judged = Self.read(Self.log, prescan: ahead, caller: LearningCaller(), chunkSize: chunkSize)
        #expect(plain == judged)
        // What the comparison rests on: noise before its pid was learnt is skipped, after it is built; the line
        // without an offset takes the +09:30 of the quiet lines passed over before it.
        #expect(plain.events.filter { $0.process == "noise" }.map(\.message) == (31...40).map { "tick \($0)" })
        let inferred = try #require(plain.events.first { $0.message == "offset from the lines before" })
        #expect(inferred.timestamp.utcOffsetSeconds == 34_200)
        #expect(plain.diagnostics.contains { $0.code == .invalidUTF8 })
        // Judged ahead: the noise lines (30, those after the pid was learnt then decoded) and the clean quiet lines.
        #expect(ahead.skips.count >= 30 + 7)
        #expect(ahead.used >= 20 + 7)
    }

    static func textLine(_ time: String, _ process: String, _ pid: Int, _ message: String) -> String {
        let pidColumn = String(pid) + String(repeating: " ", count: max(0, 7 - String(pid).count))
        return "\(time) 0x9461c    Default     0x0                  \(pidColumn)0    \(process): (libsystem) [com.example:test] \(message)"
    }

    /// Lines in the shape of `log show`'s default style (the columns of the generated device day, `DeviceLogWriter`),
    /// with records of several lines, CRLF, an impossible date and a process name that is not UTF-8.
    static let textLog: [UInt8] = {
        var lines = ["Timestamp                       Thread     Type        Activity             PID    TTL  "]
        func at(_ second: Int, _ offset: String = "-0700") -> String { "2024-03-18 10:00:\(second < 10 ? "0" : "")\(second).000000\(offset)" }
        lines.append(textLine(at(0), "app", 10, "started"))
        for second in 1...10 { lines.append(textLine(at(second), "noise", 77, "tick \(second)")) }
        lines.append(textLine(at(11), "quiet", 5, "descriptor {"))
        lines.append("\tdomain: 4")
        lines.append("}")
        lines.append(textLine(at(12), "skipme", 6, "skipped, with a further line"))
        lines.append("    more of it")
        lines.append(textLine(at(13), "app", 10, "learn 77"))
        for second in 14...20 { lines.append(textLine(at(second), "noise", 77, "tick \(second)")) }
        lines.append(textLine(at(21), "noise", 77, "two lines"))
        lines.append("\tsecond")
        lines.append(textLine(at(22), "quiet", 5, "crlf") + "\r")
        lines.append(textLine("2024-02-30 10:00:23.000000-0700", "quiet", 5, "no such day"))
        lines.append("  a further line of a discarded record")
        for second in 24...30 { lines.append(textLine(at(second, "+0930"), "quiet", 5, "elsewhere \(second)")) }
        lines.append(textLine(at(31), "app", 10, "ended"))
        var bytes = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        bytes += Array(textLine(at(32), "qu", 5, "name not UTF-8").utf8).map { $0 == UInt8(ascii: "u") ? 0xFF : $0 } + [0x0A]
        bytes += Array(textLine(at(33), "quiet", 5, "last, no break").utf8)
        return bytes
    }()

    @Test("text: the same events, diagnostics and counts with the chunk's lines framed and judged ahead")
    func sameTextOutcome() throws {
        let skipped: Set<String> = ["skipme"]
        let plain = Self.read(Self.textLog, format: .logShow, prescan: nil, caller: LearningCaller(), skipping: skipped, chunkSize: nil)
        var configuration = ReaderConfiguration(inputName: "log", offersRecords: true)
        configuration.skippedProcesses = skipped
        let prescanner = try #require(TextPrescanner(grammar: .logShow(LogShowGrammar()), configuration: configuration,
                                                     maximumLineLength: 1 << 20))
        let ahead = AllJudged(Self.textLog, prescanner: prescanner)
        let judged = Self.read(Self.textLog, format: .logShow, prescan: ahead, caller: LearningCaller(), skipping: skipped, chunkSize: nil)
        #expect(plain == judged)
        #expect(ahead.tablesUsed == 1)
        // What the comparison rests on: noise before its pid was learnt is refused, after it is built, its further
        // line joined; the quiet record of three lines and the skipped one are counted, not built.
        #expect(plain.events.filter { $0.process == "noise" }.map(\.message) == (14...20).map { "tick \($0)" } + ["two lines\n\tsecond"])
        #expect(!plain.events.contains { $0.process == "quiet" || $0.process == "skipme" })
        #expect(plain.diagnostics.contains { $0.code == .invalidTimestamp })
        // Judged: the noise, quiet and skipped heads (not the line whose process name is not UTF-8, nor the last, which
        // has no line break).
        let table = try #require(ahead.table)
        #expect(table.entries.filter { $0.kind != .line }.count == 10 + 1 + 1 + 7 + 1 + 1 + 1 + 7)
    }

    @Test("an Xcode console: dyld's statistics between two runs end at the next run's first line, judged ahead or not")
    func xcodeConsoleStatistics() throws {
        // The line shape of Corpus/real-logs/40 (fl_umeng#16); the block is trustwallet#812's summary, cut to three lines.
        var lines = (0..<20).map { "2022-05-08 00:27:\(10 + $0).000000+0800 quiet[25951:23399161] [Reporter] tick \($0)" }
        lines += ["Total pre-main time: 722.04 milliseconds (100.0%)", "         dylib loading time: 192.04 milliseconds (26.5%)",
                  "           initializer time:  74.63 milliseconds (10.3%)"]
        lines += (0..<3).map { "2022-05-08 00:28:\(10 + $0).000000+0800 quiet[26001:23400001] [Reporter] tick \($0)" }
        let log = Array((lines.joined(separator: "\n") + "\n").utf8)
        let plain = Self.read(log, format: .xcodeConsole, prescan: nil, caller: LearningCaller(), chunkSize: nil)
        let configuration = ReaderConfiguration(inputName: "log", offersRecords: true)
        let prescanner = try #require(TextPrescanner(grammar: .xcodeConsole(XcodeConsoleGrammar()), configuration: configuration,
                                                     maximumLineLength: 1 << 20))
        let ahead = AllJudged(log, prescanner: prescanner)
        let judged = Self.read(log, format: .xcodeConsole, prescan: ahead, caller: LearningCaller(), chunkSize: nil)
        #expect(plain == judged)
        #expect(ahead.tablesUsed == 1)
        let statistics = try #require(plain.preMainStatistics.first)
        #expect(statistics.origin.line == 21 && statistics.lineCount == 3)
        #expect(statistics.launch?.pid == 26001 && statistics.launch?.evidence.line == 24)
        // The heads were judged ahead (refused: the caller never takes `quiet`), the next run's first among them.
        let judgedHeads = try #require(ahead.table).entries.filter { $0.kind != .line }.count
        #expect(judgedHeads == 23, "\(judgedHeads) heads judged")
    }
}
