import Foundation
import PrewarmLint
import Testing

@Suite("sessions of ../shared/real-logs")
struct RealLogSessionsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/real-logs")
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()

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
