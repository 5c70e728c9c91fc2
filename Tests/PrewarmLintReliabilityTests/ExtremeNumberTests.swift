import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// Numbers at their limits in every field that carries a time: refused where they are read, said as such, and never a
/// trap afterwards — the other inputs' answers kept.
@Suite("extreme numbers")
struct ExtremeNumberTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scene = root.appendingPathComponent("Corpus/scenarios/prewarm-then-launch-scene-app")

    /// The scenario's log show ndjson records rewritten as `unifiedlog_iterator -f jsonl` records (the field names of
    /// `Corpus/formats/unifiedlog-iterator-jsonl`), the first half at `low` nanoseconds and the rest at `high`.
    static func unifiedLogIterator(low: String, high: String) throws -> [UInt8] {
        let text = try String(contentsOf: scene.appendingPathComponent("log.ndjson"), encoding: .utf8)
        let records = text.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["processID"] != nil else { return nil }
            return object
        }
        var out = ""
        for (index, record) in records.enumerated() {
            let fields: [String: Any] = ["pid": record["processID"]!, "process": record["processImagePath"]!,
                                         "library": record["senderImagePath"] ?? "", "subsystem": record["subsystem"] ?? "",
                                         "category": record["category"] ?? "", "event_type": "Log", "log_type": "Default",
                                         "message": record["eventMessage"]!, "time": 0]
            let json = String(decoding: try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
            out += json.replacingOccurrences(of: "\"time\":0", with: "\"time\":\(index < records.count / 2 ? low : high)") + "\n"
        }
        return Array(out.utf8)
    }

    @Test("unifiedlog_iterator times near ±9.2e21 ns: each record refused as a time outside 1970–2100, no trap",
          arguments: [("-9.1e21", "9.1e21"), ("-9223372036854775808", "9223372036854775807"), ("1e300", "18446744073709551615"),
                      ("-86400001000000000", "4134067201000000000")])
    func unifiedLogIteratorTimes(low: String, high: String) throws {
        let bytes = try Self.unifiedLogIterator(low: low, high: high)
        let report = try LogAnalyzer().lint(bytes: bytes, named: "extreme.jsonl")
        #expect(report.sessions.isEmpty)
        #expect(report.findings.isEmpty)
        let refused = report.diagnostics.filter { $0.code == .invalidTimestamp }
        #expect(refused.count == 13, "every record's time refused: \(report.diagnostics.map(\.message))")
        #expect(refused.allSatisfy { $0.message.contains("is not a time between 1970 and 2100") })
    }

    @Test("a file of extreme times beside a good log, linted separately: the good log's four findings are kept")
    func extremeBesideGood() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("extreme-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.unifiedLogIterator(low: "-9.1e21", high: "9.1e21")).write(to: folder.appendingPathComponent("extreme.jsonl"))
        try FileManager.default.copyItem(at: Self.scene.appendingPathComponent("log.txt"), to: folder.appendingPathComponent("good.txt"))
        let report = LogAnalyzer().lint(paths: [folder.path], separately: true)
        #expect(report.findings.count == 4)
        #expect(report.sessions.map(\.kind) == [.prewarmThenLaunch])
    }

    @Test("times in text outside 1970–2100 are refused with the same words; times within it going backwards still build a session")
    func textTimes() throws {
        let lines = [
            "9999-12-31 23:59:59.999999+1400 0x2b07     Default     0x0                  33     0    runningboardd: Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)",
            "1969-07-20 20:17:40.000000+0000 0x2b07     Default     0x0                  33     0    runningboardd: Now tracking process: [app<com.example.ledger(501)>:2231]",
            "2101-01-03 00:00:00.000000+0000 0x2b07     Default     0x0                  34     0    SpringBoard: [app<com.example.ledger>:2231] Setting process visibility to: Foreground",
            "2100-12-31 23:59:59.999999+0000 0x2b07     Default     0x0                  33     0    runningboardd: Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)",
            "1970-01-01 00:00:00.000000+0000 0x2b07     Default     0x0                  33     0    runningboardd: Now tracking process: [app<com.example.ledger(501)>:2231]",
        ]
        let outcome = ReaderVerifier.read(Array((lines.joined(separator: "\n") + "\n").utf8),
                                          configuration: ReaderConfiguration(inputName: "hostile"), format: nil, chunkSize: nil)
        #expect(outcome.events.map(\.timestamp.iso8601) == ["2100-12-31T23:59:59.999999+00:00", "1970-01-01T00:00:00.000000+00:00"])
        #expect(outcome.diagnostics.filter { $0.code == .invalidTimestamp }.map(\.origin.line) == [1, 2, 3])
        var classifier = EventClassifier()
        var builder = LaunchSessionBuilder()
        var sessions: [LaunchSession] = []
        for event in outcome.events { sessions += builder.consume(classifier.classify(event)) }
        sessions += builder.finish()
        #expect(!sessions.isEmpty)
        for session in sessions {
            #expect(session.milestones.map(\.time.microsecondsSinceEpoch) == session.milestones.map(\.time.microsecondsSinceEpoch).sorted())
        }
    }

    @Test("sessions a library caller builds from instants at Int64's ends: rules and every report format saturate, never trap")
    func libraryInstantsAtTheLimits() throws {
        func event(_ microseconds: Int64, _ process: String, _ pid: Int, _ message: String) -> LogEvent {
            LogEvent(timestamp: LogTimestamp(microsecondsSinceEpoch: microseconds, utcOffsetSeconds: 50_400, text: "t"),
                     process: process, pid: pid, message: message, origin: EventOrigin(input: "library", line: 1, byteOffset: 0))
        }
        let low = Int64.min + 1, high = Int64.max - 1
        let events = [
            event(low, "runningboardd", 33, "Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)"),
            event(low, "runningboardd", 33, "Now tracking process: [app<com.example.ledger(501)>:2231]"),
            event(low, "Ledger Pro", 2231, "didFinishLaunchingWithOptions applicationState=2 ActivePrewarm=1"),
            event(low, "securityd", 115, "Ledger Pro[2231]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308 \"ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.\""),
            event(high, "SpringBoard", 34, "[app<com.example.ledger>:2231] Setting process visibility to: Foreground"),
            event(high, "runningboardd", 33, "Calculated state for app<com.example.ledger(501)>: running-active (role: UserInteractiveFocal) (endowments: <private>)"),
            event(high, "Ledger Pro", 2231, "sceneDidBecomeActive"),
        ]
        var classifier = EventClassifier()
        var builder = LaunchSessionBuilder()
        var sessions: [LaunchSession] = []
        for event in events { sessions += builder.consume(classifier.classify(event)) }
        sessions += builder.finish()
        #expect(sessions.map(\.kind) == [.prewarmThenLaunch])
        let findings = Linter().findings(in: sessions, ids: sessions.map { _ in "com.example.ledger#1" })
        #expect(findings.contains { $0.ruleID == "keychain-while-locked" && $0.message.contains("before the user activated the app") })
        let report = LintReport(toolVersion: "test", inputs: [LintReport.Input(path: "library", format: nil, events: events.count, diagnostics: 0)],
                                sessions: sessions, findings: findings, diagnostics: [])
        for renderer in ReportRenderers.builtIn(rules: RuleRegistry.builtIn.rules.map(\.description)) {
            #expect(!renderer.render(report).isEmpty, "\(renderer.formatName)")
        }
    }
}

/// One session fed far more lines than it keeps: what it keeps, its report and its findings stay the same size.
@Suite("bounded sessions")
struct BoundedSessionTests {
    /// The prewarm scenario with `count` copies of its `didFinishLaunching` line between the process start and the
    /// keychain failure (the shape of the attack: one prewarm session with 300,000 callback lines).
    static func floodedScene(count: Int) throws -> [UInt8] {
        let lines = try String(contentsOf: ExtremeNumberTests.scene.appendingPathComponent("log.txt"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let callback = lines[6]
        precondition(callback.contains("didFinishLaunchingWithOptions"))
        var text = lines[..<6].joined(separator: "\n") + "\n"
        text.reserveCapacity(text.utf8.count + count * (callback.utf8.count + 1))
        for _ in 0..<count { text += callback + "\n" }
        text += lines[6...].joined(separator: "\n")
        return Array(text.utf8)
    }

    @Test("200,000 callback lines in one prewarm session: 64 named and the rest counted, the keychain failure after them still found")
    func callbackFlood() throws {
        var options = ReadOptions()
        options.timeInference.date = CivilDateTime(dateText: "2024-03-18")
        let report = try LogAnalyzer(options: options).lint(bytes: Self.floodedScene(count: 200_000), named: "flood.txt")
        let sessions = Array(report.sessions)
        #expect(sessions.count == 1)
        guard let session = sessions.first else { return }
        #expect(session.callbacksBeforeActivation.count == LaunchSession.callbackLimit)
        #expect(session.callbacksBeforeActivation.count + session.callbacksBeforeActivationNotKept == 200_001)
        #expect(session.events.count <= LaunchSession.eventLimit + LaunchSession.linesKeptOfEachMeaning * EventMeaning.allCases.count)
        #expect(report.findings.map(\.ruleID).sorted() == ["keychain-before-activation", "keychain-while-locked",
                                                            "launch-work-during-prewarm", "state-assumed-at-launch"])
        let json = report.render()
        #expect(json.utf8.count < 64 << 10, "the JSON report is \(json.utf8.count) bytes")
        #expect(json.contains("\"callbacksBeforeActivationNotKept\":199937"))
        let text = FindingTextReporter(color: false).render(report)
        #expect(text.split(separator: "\n").allSatisfy { $0.utf8.count < 8 << 10 }, "no line of the text report grows with the session")
        #expect(text.contains("and 199937 more"))
    }
}
