import Foundation
import PrewarmLint
import PrewarmLintClassifier
import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintSessions
import PrewarmLintTesting
import Testing

/// Scenarios written as Console copies with the PID column (the layout of real-logs 03), in the
/// daemons' real message shapes (message-templates.md; real-logs 01, 08, 14, 25, 39).
func sessions(_ text: String, date: String = "2024-03-18") throws -> [LaunchSession] {
    var configuration = ReaderConfiguration(inputName: "scenario")
    configuration.timeInference.date = CivilDateTime(dateText: date)
    let outcome = ReaderVerifier.read(Array(text.utf8), configuration: configuration)
    try #require(outcome.failure == nil)
    var classifier = EventClassifier()
    var builder = LaunchSessionBuilder()
    var result: [LaunchSession] = []
    for event in outcome.events { result += builder.consume(classifier.classify(event)) }
    return result + builder.finish()
}

@Suite("LaunchSessionBuilder")
struct LaunchSessionBuilderTests {
    @Test("prewarm, didFinishLaunching while prewarmed, suspended, activated 91 minutes later")
    func prewarmThenLaunch() throws {
        let result = try sessions("""
            105\tdefault\t07:41:02.118420-0700\tdasd\tAttempting prewarm for com.example.ledger
            33\tdefault\t07:41:02.120871-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (DAS Prewarm launch)
            33\tdefault\t07:41:02.163002-0700\trunningboardd\t[app<com.example.ledger(501)>:2231] Now tracking process
            2231\tdefault\t07:41:02.366104-0700\tLedger Pro\tdidFinishLaunchingWithOptions applicationState=2
            33\tdefault\t07:41:03.010022-0700\trunningboardd\tCalculated state for app<com.example.ledger(501)>: running-suspended (role: None) (endowments: <private>)
            34\tdefault\t09:12:44.501337-0700\tSpringBoard\t[app<com.example.ledger(501)>:2231] Setting process visibility to: Foreground
            33\tdefault\t09:12:44.503120-0700\trunningboardd\tCalculated state for app<com.example.ledger(501)>: running-active (role: UserInteractiveFocal) (endowments: <private>)
            2231\tdefault\t09:12:44.640201-0700\tLedger Pro\tsceneDidBecomeActive

            """)
        try #require(result.count == 1)
        let session = result[0]
        #expect(session.app == AppIdentity(bundleID: "com.example.ledger", processName: "Ledger Pro", pid: 2231))
        #expect(session.kind == .prewarmThenLaunch)
        #expect(session.confidence == .certain)
        #expect(session.decidedBy?.line == 2)
        #expect(session.milestones.map(\.name) == [.prewarmRequest, .processStart, .suspended, .activation, .active])
        #expect(session.milestones.map(\.evidence.line) == [1, 3, 5, 6, 7])
        #expect(session.callbacksBeforeActivation.map(\.line) == [4])
        #expect(session.milliseconds(from: .prewarmRequest, to: .activation) == 5_502_382)
        #expect(session.milliseconds(from: .activation, to: .active) == 1)
        #expect(!session.evidenceIncomplete)
    }

    @Test("a plain tap with SpringBoard's 'Prewarming for launch of' is a cold launch, never a prewarm")
    func coldLaunchTrap() throws {
        let result = try sessions("""
            34\tdefault\t21:28:47.038326-0500\tSpringBoard\tBootstrapping app<com.hightowerai.MobileJarvisNative> with intent foreground-interactive
            34\tdefault\t21:28:47.039088-0500\tSpringBoard\tPrewarming for launch of com.hightowerai.MobileJarvisNative
            33\tdefault\t21:28:47.039347-0500\trunningboardd\tAcquiring assertion targeting app<com.hightowerai.MobileJarvisNative(BED36376-5A4B-42A9-9620-6AE0BC5F0283)> from originator [osservice<com.apple.SpringBoard>:34] with description <RBSAssertionDescriptor| "FBApplicationProcess" ID:33-34-2065846 target:app<com.hightowerai.MobileJarvisNative(BED36376-5A4B-42A9-9620-6AE0BC5F0283)> attributes:[
            \t<RBSDomainAttribute| domain:"com.apple.frontboard" name:"Bootstrap-Foreground" sourceEnvironment:"(null)">,
            \t<RBSDomainAttribute| domain:"com.apple.frontboard" name:"Visibility" sourceEnvironment:"(null)">
            \t]>
            33\tdefault\t21:28:47.049211-0500\trunningboardd\t[app<com.hightowerai.MobileJarvisNative(BED36376-5A4B-42A9-9620-6AE0BC5F0283)>:9964] Now tracking process
            34\tdefault\t21:28:47.412870-0500\tSpringBoard\t[app<com.hightowerai.MobileJarvisNative>:9964] Bootstrap success!

            """)
        try #require(result.count == 1)
        #expect(result[0].kind == .coldLaunch)
        #expect(result[0].confidence == .certain)
        #expect(result[0].decidedBy?.line == 1)
        #expect(result[0].app.pid == 9964)
        #expect(result[0].milestone(.prewarmRequest) == nil)
        #expect(result[0].milliseconds(from: .launchRequest, to: .activation) == 374)
    }

    @Test("a prewarm never used, then killed by jetsam: prewarm-unused with the exit status")
    func prewarmUnusedJetsam() throws {
        let result = try sessions("""
            33\tdefault\t03:02:10.000100-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (DAS Prewarm launch)
            33\tdefault\t03:02:10.051000-0700\trunningboardd\t[app<com.example.ledger(501)>:2231] Now tracking process
            33\tdefault\t03:02:11.200000-0700\trunningboardd\tCalculated state for app<com.example.ledger(501)>: running-suspended (role: None)
            34\tdefault\t05:40:00.048506-0700\tSpringBoard\t[app<com.example.ledger(501)>:2231] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(7)>>.
            34\tdefault\t05:40:00.050817-0700\tSpringBoard\t[app<com.example.ledger(501)>:2231] Setting process task state to: Not Running

            """)
        try #require(result.count == 1)
        #expect(result[0].kind == .prewarmUnused)
        #expect(result[0].confidence == .certain)
        #expect(result[0].milestone(.termination)?.detail == "domain:jetsam(1) code:per-process-limit(7)")
        #expect(result[0].milestone(.termination)?.evidence.line == 4)
    }

    @Test("the same app launched again with a new pid after an exit is a second session")
    func relaunch() throws {
        let result = try sessions("""
            34\tdefault\t10:00:00.000000-0700\tSpringBoard\tBootstrapping app<com.example.ledger> with intent foreground-interactive
            34\tdefault\t10:00:00.300000-0700\tSpringBoard\t[app<com.example.ledger>:2231] Bootstrap success!
            33\tdefault\t10:05:00.000000-0700\trunningboardd\t[app<com.example.ledger(501)>:2231] termination reported by launchd (2, 9, 9)
            34\tdefault\t10:05:00.001000-0700\tSpringBoard\t[app<com.example.ledger>:2231] Setting process task state to: Not Running
            34\tdefault\t10:06:00.000000-0700\tSpringBoard\tBootstrapping app<com.example.ledger> with intent foreground-interactive
            34\tdefault\t10:06:00.250000-0700\tSpringBoard\t[app<com.example.ledger>:2240] Bootstrap success!

            """)
        #expect(result.map(\.kind) == [.coldLaunch, .coldLaunch])
        #expect(result.map(\.app.pid) == [2231, 2240])
        #expect(result[0].milestone(.termination)?.detail == "(2, 9, 9)")
        #expect(result[1].milestone(.termination) == nil)
    }

    @Test("a prewarm's next prewarm, the first process's end not in the log: each process has its own request (the shape of scripts/bench/launches.py)")
    func prewarmAfterPrewarm() throws {
        let result = try sessions("""
            33\tdefault\t00:00:00.000000-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (DAS Prewarm launch)
            33\tdefault\t00:00:00.013000-0700\trunningboardd\tNow tracking process: [app<com.example.ledger(501)>:1000]
            33\tdefault\t00:00:00.026000-0700\trunningboardd\t[app<com.example.ledger(501)>:1000] Suspending task.
            33\tdefault\t00:10:00.000000-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (DAS Prewarm launch)
            33\tdefault\t00:10:00.013000-0700\trunningboardd\tNow tracking process: [app<com.example.ledger(501)>:1100]
            33\tdefault\t00:10:00.026000-0700\trunningboardd\t[app<com.example.ledger(501)>:1100] Suspending task.

            """)
        #expect(result.map(\.app.pid) == [1000, 1100])
        #expect(result.map(\.kind) == [.prewarmUnused, .prewarmOutcomeUnknown])
        #expect(result.map(\.decidedBy?.line) == [1, 4])
        #expect(result.map { $0.milestones.map(\.evidence.line) } == [[1, 2, 3], [4, 5, 6]])
        #expect(result[0].incompleteEvidence == ["no exit line before the next process of this app: when and why the prewarmed process ended is not in the log"])
    }

    /// A certain prewarm of pid 2231, suspended at 03:02 (lines 1–3), its end not in the log: what the scenarios below follow.
    static let suspendedPrewarm = """
            33\tdefault\t03:02:10.000100-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (DAS Prewarm launch)
            33\tdefault\t03:02:10.051000-0700\trunningboardd\tNow tracking process: [app<com.example.ledger(501)>:2231]
            33\tdefault\t03:02:11.200000-0700\trunningboardd\tCalculated state for app<com.example.ledger(501)>: running-suspended (role: None) (endowments: <private>)

            """

    @Test("a launch request while the process is there, then a line of that process: the request is its line, as is one the log ends on")
    func requestForLiveProcess() throws {
        let result = try sessions(Self.suspendedPrewarm + """
            33\tdefault\t09:12:44.400000-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (FBApplicationProcess)
            33\tdefault\t09:12:44.400200-0700\trunningboardd\tapp<com.example.ledger(501)> is already running as [app<com.example.ledger(501)>:2231]
            34\tdefault\t09:12:44.501337-0700\tSpringBoard\t[app<com.example.ledger(501)>:2231] Setting process visibility to: Foreground
            33\tdefault\t09:12:44.503120-0700\trunningboardd\tCalculated state for app<com.example.ledger(501)>: running-active (role: UserInteractiveFocal) (endowments: <private>)
            33\tdefault\t11:00:00.000000-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (FBApplicationProcess)

            """)
        try #require(result.count == 1)
        #expect(result[0].app.pid == 2231)
        #expect(result[0].kind == .prewarmThenLaunch && result[0].confidence == .certain)
        #expect(result[0].milestones.map(\.name) == [.prewarmRequest, .processStart, .suspended, .launchRequest, .activation, .active])
        #expect(result[0].milestone(.launchRequest)?.evidence.line == 4)
        #expect(result[0].events.map(\.origin.line) == [1, 2, 3, 4, 6, 7, 8])
    }

    @Test("a prewarmed process ended with no exit line, then the user's tap bootstraps a new one: a cold launch with its request and job, not the old process's")
    func coldLaunchAfterUnloggedEnd() throws {
        let result = try sessions(Self.suspendedPrewarm + """
            34\tdefault\t09:12:44.401000-0700\tSpringBoard\tBootstrapping app<com.example.ledger> with intent foreground-interactive
            34\tdefault\t09:12:44.402000-0700\tSpringBoard\tPrewarming for launch of com.example.ledger
            33\tdefault\t09:12:44.404500-0700\trunningboardd\tCreating and launching job for: app<com.example.ledger(501)>
            33\tdefault\t09:12:44.410700-0700\trunningboardd\tNow tracking process: [app<com.example.ledger(501)>:2240]
            34\tdefault\t09:12:44.730000-0700\tSpringBoard\t[app<com.example.ledger>:2240] Bootstrap success!

            """)
        #expect(result.map(\.app.pid) == [2231, 2240])
        #expect(result.map(\.kind) == [.prewarmUnused, .coldLaunch])
        #expect(result[0].events.map(\.origin.line) == [1, 2, 3])
        #expect(result[1].confidence == .certain && result[1].decidedBy?.line == 4)
        #expect(result[1].milestones.map(\.evidence.line) == [4, 6, 8])
        #expect(result[1].milliseconds(from: .launchRequest, to: .activation) == 329)
    }

    @Test("more launch lines than are held at once: the oldest go to the live process, the latest to the new one, none is dropped")
    func heldLinesBounded() throws {
        let count = LaunchSessionBuilder.maximumHeldLines + 4
        var text = """
            33\tdefault\t03:02:10.000100-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (DAS Prewarm launch)
            33\tdefault\t03:02:10.051000-0700\trunningboardd\tNow tracking process: [app<com.example.ledger(501)>:2231]

            """
        for second in 0..<count {
            text += "33\tdefault\t04:00:\(second + 10).000000-0700\trunningboardd\tExecuting launch request for app<com.example.ledger(501)> (DAS Prewarm launch)\n"
        }
        text += "33\tdefault\t04:01:00.000000-0700\trunningboardd\tNow tracking process: [app<com.example.ledger(501)>:2240]\n"
        let result = try sessions(text)
        #expect(result.map(\.app.pid) == [2231, 2240])
        #expect(result.map(\.events.count) == [2 + count - LaunchSessionBuilder.maximumHeldLines, LaunchSessionBuilder.maximumHeldLines + 1])
        #expect(result[1].milestone(.prewarmRequest)?.evidence.line == 3 + count - LaunchSessionBuilder.maximumHeldLines)
    }

    @Test("real excerpt 25: a background push launch")
    func backgroundLaunch() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/real-logs/25-flutterfire5702-ios14-background-push-launch.log")
        let result = try sessions(String(decoding: try Data(contentsOf: url), as: UTF8.self), date: "2021-04-28")
        try #require(result.count == 1)
        #expect(result[0].kind == .backgroundLaunch)
        #expect(result[0].confidence == .certain)
        #expect(result[0].app == AppIdentity(bundleID: "com.elsystm.elsystm", pid: 1957))
        #expect(result[0].decidedBy?.line == 8)
    }

    @Test("an iOS 26 tap names no app: the launch right after it claims it; a tap the next launch event does not claim is dropped, never given to a later launch")
    func tapClaims() throws {
        let result = try sessions("""
            34\tdefault\t09:00:00.000000-0700\tSpringBoard\tSBIconView touches began with event: <UITouchesEvent: 0x865746a00> timestamp: 2.93768e+06 touches: {(
            34\tdefault\t09:00:00.094000-0700\tSpringBoard\tBootstrapping app<com.example.ledger> with intent foreground-interactive
            33\tdefault\t09:00:00.103000-0700\trunningboardd\tNow tracking process: [app<com.example.ledger(501)>:2231]
            34\tdefault\t09:00:00.110000-0700\tSpringBoard\t[app<com.example.ledger>:2231] Bootstrap success!
            34\tdefault\t09:00:00.322000-0700\tSpringBoard\t[(FBSceneManager):sceneID:com.example.ledger-default] scene content state changed: ready
            34\tdefault\t09:00:05.000000-0700\tSpringBoard\tSBIconView touches began with event: <UITouchesEvent: 0x865746a00> timestamp: 2.93769e+06 touches: {(
            34\tdefault\t09:00:05.100000-0700\tSpringBoard\t[app<com.example.ledger>:2231] Setting process visibility to: Foreground
            34\tdefault\t09:00:05.900000-0700\tSpringBoard\tBootstrapping app<com.example.notes> with intent foreground-interactive
            33\tdefault\t09:00:05.910000-0700\trunningboardd\tNow tracking process: [app<com.example.notes(501)>:2232]
            34\tdefault\t09:00:05.990000-0700\tSpringBoard\t[app<com.example.notes>:2232] Bootstrap success!
            """)
        try #require(result.count == 2)
        let ledger = try #require(result.first { $0.app.bundleID == "com.example.ledger" })
        #expect(ledger.milestone(.tap)?.evidence.line == 1)
        #expect(ledger.userPerceivedLaunch?.microseconds == 322_000)
        // The second tap went to Ledger's return to the foreground: Notes, 0.9 s later, has no tap.
        let notes = try #require(result.first { $0.app.bundleID == "com.example.notes" })
        #expect(notes.milestone(.tap) == nil)
        #expect(notes.milestones.first?.name == .launchRequest)
    }

    @Test("real excerpt 01: a certain prewarm; that it went unused is not in the log (it ends first)")
    func lyft() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/real-logs/01-lyft-das-prewarm-launch-line.log")
        let result = try sessions(String(decoding: try Data(contentsOf: url), as: UTF8.self), date: "2022-06-08")
        try #require(result.count == 1)
        #expect(result[0].kind == .prewarmOutcomeUnknown)
        #expect(result[0].confidence == .certain)
        #expect(result[0].app.bundleID == "com.xyz")
    }

    @Test("a log that begins with the activation: unknown, and the evidence says it is incomplete")
    func midSession() throws {
        let result = try sessions("""
            34\tdefault\t10:00:00.300000-0700\tSpringBoard\t[app<com.example.ledger>:2231] Setting process visibility to: Foreground

            """)
        try #require(result.count == 1)
        #expect(result[0].kind == .unknown)
        #expect(result[0].incompleteEvidence == ["the log does not show how this process started"])
    }

    @Test("a suspended, not visible process activated with no request in the log is a prewarm, but only a guess")
    func guessedPrewarm() throws {
        let result = try sessions("""
            2231\tdefault\t07:41:03.010022-0700\tLedger Pro\tReceived state update for 2231 (app<com.example.ledger(501)>, running-suspended-NotVisible
            34\tdefault\t09:12:44.501337-0700\tSpringBoard\t[app<com.example.ledger(501)>:2231] Setting process visibility to: Foreground

            """)
        try #require(result.count == 1)
        #expect(result[0].kind == .prewarmThenLaunch)
        #expect(result[0].confidence == .guess)
        #expect(result[0].decidedBy?.line == 1)
        #expect(result[0].evidenceIncomplete)
    }
}

@Suite("SessionPipeline")
struct SessionPipelineTests {
    @Test("a long log overflows the reorder window many times and still yields every session, in order")
    func longLog() throws {
        // 3,000 cold launches of 3 apps, each with an exit: far more events than the reorder window holds.
        var lines: [String] = []
        var second = 0
        for index in 0..<3000 {
            let bundle = ["com.example.ledger", "com.example.notes", "com.acme.chat"][index % 3]
            let pid = 1000 + index
            func stamp(_ offset: Int) -> String {
                let total = second + offset
                return String(format: "%02d:%02d:%02d.000000-0700", total / 3600 % 24, total / 60 % 60, total % 60)
            }
            lines.append("34\tdefault\t\(stamp(0))\tSpringBoard\tBootstrapping app<\(bundle)> with intent foreground-interactive")
            lines.append("34\tdefault\t\(stamp(1))\tSpringBoard\t[app<\(bundle)>:\(pid)] Bootstrap success!")
            lines.append("33\tdefault\t\(stamp(2))\trunningboardd\t[app<\(bundle)(501)>:\(pid)] termination reported by launchd (2, 9, 9)")
            second += 3
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-long-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18)))
        let result = SessionPipeline(reader: InputReader(options: options)).run([DiscoveredInput(input: .file(url.path), foundInDirectory: false)])
        #expect(result.sessions.count == 3000)
        #expect(result.sessions.allSatisfy { $0.kind == .coldLaunch && $0.milestone(.termination)?.detail == "(2, 9, 9)" })
        #expect(result.sessions.map { $0.app.pid! } == Array(1000..<4000))
    }
}

/// `SessionEvent.firstLine` is read from bytes: it must cut where comparing characters with "\n" and "\r" does.
@Suite("a kept line's first line")
struct SessionEventFirstLineTests {
    static func event(_ text: String) -> SessionEvent {
        SessionEvent(origin: EventOrigin(input: "x", line: 1, byteOffset: 0), time: LogTimestamp(microsecondsSinceEpoch: 0, utcOffsetSeconds: 0, text: "t"),
                     process: "Ledger", pid: 1, role: .app, meaning: .appLifecycle, text: text)
    }

    @Test("the same cut as by characters: LF, lone CR, CR LF (one character), combining marks, emoji, none")
    func sameAsCharacters() {
        let samples = ["one line", "first\nsecond", "first\rsecond", "a\r\nb\nc", "a\r\nb", "\n", "\r", "\r\n", "",
                       "e\u{301}\u{301}\nx", "👩‍👩‍👧 family\r\n\rthen", "tab\there\u{2028}not a break\nyes", "…\u{0085}next"]
        for sample in samples {
            let expected = sample.firstIndex(where: { $0 == "\n" || $0 == "\r" }).map { sample[..<$0] } ?? Substring(sample)
            #expect(Self.event(sample).firstLine == expected, "\(sample.debugDescription)")
        }
    }
}
