import Foundation
import PrewarmLint
import Testing

/// Real excerpts found in public issues (Corpus/real-logs 61–95), each judged by reading its lines before the tool ran
/// (its `# judged:` header): the sessions and findings the lines prove. The excerpts the tool still reads wrong are in
/// the corpus too, without a verdict here; their `# judged:` line says what is right.
@Suite("real excerpts, judged before the tool ran")
struct RealExcerptVerdictTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/real-logs")
    static let analyzer = LogAnalyzer(options: ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2020, month: 1, day: 1), year: 2020)))

    /// Each excerpt's judged verdict: the kinds of its sessions and the rules of its findings, sorted.
    static let verdicts: [(prefix: String, kinds: [LaunchSession.Kind], rules: [String])] = [
        ("61-", [.coldLaunch], []),                  // libimobiledevice#1333: bootstrap with intent foreground-interactive
        ("62-", [.coldLaunch], []),                  // vscode-dotnettools#1282: FrontBoard bootstraps a new process, activated 13 ms on
        ("63-", [.coldLaunch], ["launch-watchdog"]), // facebook-sdk-for-unity#460: process-launch watchdog, Foreground
        ("64-", [.unknown], []),                     // firebase-ios-sdk#3759: a scene-update kill 25 min in is no launch's
        ("65-", [.unknown], ["keychain-while-locked"]),  // SalesforceMobileSDK-iOS#1219: -25308 while locked, iOS 9
        ("66-", [], []),                             // flutterfire#12493: dasd's state updates, no launch
        ("68-", [], []),                             // awesome_notifications_fcm#8: German Console copy, a push handed to dasd
        ("69-", [.unknown], []),                     // appium#7535: a launch by DTServiceHub, its watchdog only armed
        ("70-", [.unknown], []),                     // phonegap-plugin-push#1677: blockquoted syslog, a launch from a notification
        ("71-", [], []),                             // e-mission-phone#290: dasd decided "Must Not Proceed"
        ("72-", [.unknown], ["launch-watchdog"]),    // carp flutter-plugins#1029: scene-create watchdog, Foreground
        ("73-", [.coldLaunch], []),                  // Adobe-Runtime-Support#2734: iOS 12, assertiond tracks pid 893
        ("74-", [], []),                             // Adobe-Runtime-Support#3455: spaces for tabs, no launch
        ("75-", [.unknown], []),                     // ms-intune-app-sdk-ios#137: a job launched, every line twice
        ("76-", [.unknown], []),                     // ms-intune-app-sdk-ios#137: its end, a crash reported by launchd
        ("77-", [.unknown], []),                     // ms-intune-app-sdk-ios#137: the .ips old form, SIGBUS 0.5 s in
        ("78-", [.unknown], []),                     // clevertap-ios-sdk#211: a scene-update kill 98 s in is no launch's
        ("79-", [.unknown], []),                     // deltachat-ios#2402: .ips metadata pretty-printed, body cut
        ("80-", [.unknown], []),                     // deltachat-ios#2314: an .ips cut before its termination
        ("81-", [.unknown], ["launch-watchdog"]),    // yalu102#69: the .ips old form, SPRINGBOARD 0x8badf00d 20 s in
        ("82-", [.unknown], ["launch-watchdog"]),    // dotnet/macios#10086: "watchdog provision violated", no event named
        ("83-", [], []),                             // react-native-firebase#253: foreground-running, no launch line
        ("85-", [.unknown], ["keychain-while-locked"]),  // SalesforceMobileSDK-iOS#3437: -25308 behind a PID column
        ("86-", [], []),                             // SalesforceMobileSDK-iOS#3437: the app's own lines only
        ("87-", [], []),                             // react-native-code-push#1858: a scene assertion, no pid, no launch
        ("88-", [], []),                             // react-native-code-push#1858: powerd's FBApplicationProcess only
        ("89-", [.unknown], []),                     // NativeScript#8920: indented syslog, assertiond tracks pid 867
        ("90-", [.unknown], []),                     // dotnet/maui#1175: each line three times
        ("91-", [.unknown], ["launch-watchdog"]),    // firebase-ios-sdk#5463: scene-create watchdog, Foreground
        ("92-", [.unknown], []),                     // mobile-services#352: a watchOS extension's SIGKILL
        ("93-", [], []),                             // mixpanel-swift#601: RUNNINGBOARD 0xdead10cc, no identity
        ("94-", [], []),                             // NativeScript#8920: ReportCrash's corpse, no identity
        ("95-", [.unknown], []),                     // flutter#67116: Library column, not Process: FrontBoard, RunningBoard
    ]

    @Test("each judged excerpt gives exactly the sessions and findings its lines prove", arguments: verdicts.map(\.prefix))
    func judged(prefix: String) throws {
        let verdict = try #require(Self.verdicts.first { $0.prefix == prefix })
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).first { $0.hasPrefix(prefix) })
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let report = try Self.analyzer.lint(bytes: bytes, named: name)
        #expect(report.sessions.map(\.kind).sorted { $0.rawValue < $1.rawValue } == verdict.kinds, "\(name)")
        #expect(report.findings.map(\.ruleID).sorted() == verdict.rules, "\(name)")
    }

    @Test("iOS 12's assertiond names the process it tracks by BackBoard's description: the launch has its pid and start (real-logs 73)")
    func trackedProcessPID() throws {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).first { $0.hasPrefix("73-") })
        let report = try Self.analyzer.lint(bytes: [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name))), named: name)
        let session = try #require(report.sessions.first)
        #expect(session.app.pid == 893 && session.app.processName == "Appname" && session.app.bundleID == "com.company.appname")
        #expect(session.milestone(.processStart)?.evidence.line == 11)
    }
}
