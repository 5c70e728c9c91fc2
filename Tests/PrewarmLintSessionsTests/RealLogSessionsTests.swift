import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

@Suite("sessions of Corpus/real-logs")
struct RealLogSessionsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/real-logs")
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".log") }.sorted()

    static func sessions(_ file: String) -> [LaunchSession] {
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2022, month: 6, day: 8), year: 2022))
        let input = DiscoveredInput(input: .file(folder.appendingPathComponent(file).path), foundInDirectory: true)
        return SessionPipeline(reader: InputReader(options: options)).run([input]).sessions
    }

    @Test("no excerpt but 01 yields a prewarm; none yields a session without an app", arguments: files)
    func noInventedPrewarm(file: String) {
        for session in Self.sessions(file) {
            #expect(session.app.bundleID != nil || session.app.processName != nil)
            if !file.hasPrefix("01-") {
                #expect(![.prewarmUnused, .prewarmOutcomeUnknown, .prewarmThenLaunch].contains(session.kind), "\(file): \(session.app) \(session.kind)")
            }
        }
    }

    /// The truth read off each whole cold launch: the tap line, the `ready` line, the launch in microseconds.
    static let coldLaunches: [(file: String, tap: Int, ready: Int, microseconds: Int64, complete: Int?)] = [
        ("44-juniper-ios26-full-cold-launch-first-screen-1859bad.log", 7, 404, 228_520, 1180),
        ("45-juniper-ios26-full-cold-launch-first-screen-6cefb98.log", 7, 406, 223_541, 1080),
        // The app crashed (SIGABRT) 0.6 s after its first screen: no launch complete, an exit instead.
        ("46-juniper-ios26-full-cold-launch-first-screen-396fba1.log", 7, 380, 210_765, nil),
    ]

    @Test("excerpts 44–46: one cold launch each; the launch is tap → first screen to the microsecond of the lines",
          arguments: coldLaunches.map(\.file))
    func wholeColdLaunch(file: String) throws {
        let truth = try #require(Self.coldLaunches.first { $0.file == file })
        let sessions = Self.sessions(file)
        try #require(sessions.count == 1)
        let session = sessions[0]
        #expect(session.kind == .coldLaunch && session.confidence == .certain)
        #expect(session.milestone(.tap)?.evidence.line == truth.tap)
        #expect(session.milestone(.firstScreen)?.evidence.line == truth.ready)
        let launch = try #require(session.userPerceivedLaunch)
        #expect(launch.start.name == .tap && launch.end.name == .firstScreen && !launch.endIsProxy)
        #expect(launch.microseconds == truth.microseconds)
        #expect(session.milestone(.launchComplete)?.evidence.line == truth.complete)
        if truth.complete == nil { #expect(session.milestone(.termination) != nil) }
    }

    @Test("excerpt 46's end: SpringBoard's pending exit (line 913) ends the session; the exit status is runningboardd's line 943, cited as such and read as SIGABRT")
    func exitStatusCitesItsLine() throws {
        let file = Self.coldLaunches[2].file
        let session = try #require(Self.sessions(file).first)
        let end = try #require(session.milestone(.termination))
        // 913: `[app<…>:99896] Now flagged as pending exit for reason: workspace client connection invalidated`;
        // 943: `[app<…>:99896] termination reported by launchd (2, 6, 6)`, 14.7 ms later.
        #expect(end.evidence.line == 913)
        #expect(end.detail == "(2, 6, 6)")
        #expect(end.detailEvidence?.line == 943)
        #expect(end.detailEvidence?.input == end.evidence.input)
        // A milestone whose line says its own detail cites no other.
        #expect(session.milestones.filter { $0.name != .termination }.allSatisfy { $0.detailEvidence == nil })
        let timeline = SessionTimelineReporter().render(session, id: "46")
        let line = try #require(timeline.split(separator: "\n").first { $0.contains("termination") })
        #expect(line.hasSuffix("(2, 6, 6): signal 6 (SIGABRT), line 943"), "\(line)")
    }

    @Test("excerpt 44 after a prewarm of the same app whose end is not in the log: the tap, request and job go to the new process, a cold launch of the same 228.520 ms")
    func coldLaunchAfterSilentlyEndedPrewarm() throws {
        // Three runningboardd lines in the excerpt's own layout and the shapes of excerpt 01 (the request), 44 (`Now tracking
        // process`) and the state template (`Calculated state for …: running-suspended`), inserted after its six comment lines:
        // the prewarmed process 9001 is suspended at 19:02 and its end (a jetsam kill, say) is not in the capture.
        let text = try String(contentsOf: Self.folder.appendingPathComponent(Self.coldLaunches[0].file), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let app = "app<com.hightowerai.MobileJarvisNative(BED36376-5A4B-42A9-9620-6AE0BC5F0283)>"
        try #require(lines[5].hasPrefix("#") && !lines[6].hasPrefix("#"))
        lines.insert(contentsOf: [
            "default\t19:02:10.000100-0500\trunningboardd\tExecuting launch request for \(app) (DAS Prewarm launch)",
            "default\t19:02:10.051000-0500\trunningboardd\tNow tracking process: [\(app):9001]",
            "default\t19:02:11.200000-0500\trunningboardd\tCalculated state for \(app): running-suspended (role: None) (endowments: <private>)",
        ], at: 6)
        let folder = try TemporaryFolder("prewarm-lint-silent-end")
        defer { folder.remove() }
        let path = try folder.write(Array(lines.joined(separator: "\n").utf8), named: "prewarm-then-44.log")
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2025, month: 10, day: 8), year: 2025))
        let sessions = SessionPipeline(reader: InputReader(options: options))
            .run([DiscoveredInput(input: .file(path), foundInDirectory: false)]).sessions
        try #require(sessions.count == 2)
        let prewarm = sessions[0], launch = sessions[1]
        #expect(prewarm.app.pid == 9001 && prewarm.kind == .prewarmUnused && prewarm.confidence == .certain)
        #expect(prewarm.milestones.map(\.evidence.line) == [7, 8, 9])
        #expect(prewarm.events.map(\.origin.line) == [7, 8, 9])
        #expect(launch.app.pid == 9964 && launch.kind == .coldLaunch && launch.confidence == .certain)
        #expect(launch.decidedBy?.line == 20)  // SpringBoard's `Bootstrapping … with intent foreground-interactive`
        #expect(launch.milestone(.tap)?.evidence.line == 10)
        #expect(launch.milestone(.processStart)?.evidence.line == 27)  // `Creating and launching job for: app<…>`
        #expect(launch.milestone(.firstScreen)?.evidence.line == 407)
        #expect(launch.userPerceivedLaunch?.microseconds == 228_520)
    }

    @Test("stats over excerpts 44–46 apart: the launch's median is the middle one, 223.541 ms")
    func coldLaunchMedian() throws {
        let statistics = LaunchStatistics(sessions: Self.coldLaunches.flatMap { Self.sessions($0.file) })
        let group = try #require(statistics.groups.first)
        let launch = try #require(group.phases.first { $0.phase.isLaunch })
        #expect(launch.summary.count == 3)
        #expect(launch.summary.median == 223.541)
        #expect(group.launchDefinitions.map(\.label) == ["tap → first screen"])
    }

    @Test("excerpt 01 yields one prewarm session whose prewarm is certain, decided by its only line")
    func lyft() throws {
        let sessions = Self.sessions("01-lyft-das-prewarm-launch-line.log")
        try #require(sessions.count == 1)
        #expect(sessions[0].kind == .prewarmOutcomeUnknown)
        #expect(sessions[0].confidence == .certain)
        #expect(sessions[0].decidedBy?.line == 7)
        #expect(sessions[0].milestone(.prewarmRequest)?.evidence.line == 7)
    }

    @Test("excerpt 22: the icon tap and activation name the app <private>: no session, and a diagnostic says why")
    func redacted() throws {
        let options = ReadOptions(timeInference: TimeInference(year: 2020))
        let input = DiscoveredInput(input: .file(Self.folder.appendingPathComponent("22-nativescript8920-idevicesyslog-icon-tap-indented.log").path),
                                    foundInDirectory: false)
        let result = SessionPipeline(reader: InputReader(options: options)).run([input])
        #expect(result.sessions.isEmpty)
        let diagnostic = try #require(result.diagnostics.first { $0.code == .redactedEvidence })
        #expect(diagnostic.origin.line == 9)
        #expect(diagnostic.message == "2 launch lines name their app as <private>: joined to a session by time at best (a tap), else not at all; sessions may be incomplete")
    }

    @Test("excerpt 11: the scene reaching Foreground is the activation of com.samsara.troy")
    func sceneForeground() throws {
        let sessions = Self.sessions("11-codepush1858-scene-lifecycle-foreground.log")
        try #require(sessions.count == 1)
        #expect(sessions[0].app.bundleID == "com.samsara.troy")
        #expect(sessions[0].milestones.map(\.name) == [.activation])
        #expect(sessions[0].milestone(.activation)?.evidence.line == 15)  // the descriptor on line 7 spans three lines
        #expect(sessions[0].kind == .unknown)
    }

    @Test("excerpt 08 (Intune, iOS 14.5): the app activated, pid 432, start not in the excerpt")
    func intune() throws {
        let sessions = Self.sessions("08-intune137-ios145-process-running-foreground.log")
        try #require(sessions.count == 1)
        #expect(sessions[0].app == AppIdentity(bundleID: "com.AppCo.MyApp", pid: 432))
        #expect(sessions[0].kind == .unknown)
        #expect(sessions[0].milestones.map(\.name) == [.activation, .active])
        #expect(sessions[0].evidenceIncomplete)
    }
}
