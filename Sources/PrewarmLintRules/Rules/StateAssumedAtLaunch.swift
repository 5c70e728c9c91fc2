import Foundation
import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// The app read `applicationState` during a user launch, got `.background`, and (when the log
/// shows it) took its background path.
public struct StateAssumedAtLaunch: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `background-state-at-launch`.
    public static let backgroundAtLaunch = RuleMessage(id: "background-state-at-launch", shape: "app read applicationState = background at launch, but the user was launching it (‹kind›)[, and took its background path]")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "state-assumed-at-launch",
        name: "Application state assumed at launch",
        defaultSeverity: .warning,
        summary: "The app reads application state during launch, gets background, and the user was in fact launching it.",
        rationale: """
        For a scene-based app, `UIApplication.shared.applicationState` is `.background` in \
        `didFinishLaunching` on every launch, prewarmed or tapped; the scene becomes active later. \
        Code that branches on it ("in background: skip UI setup, don't refresh, don't start the \
        session") takes the background path on the user's own launch. Decide from the scene's \
        lifecycle (`sceneWillEnterForeground`, `sceneDidBecomeActive`), not from the state at launch. \
        The finding points at the line reading the state; a line the app logs on its background path \
        (a `background-path` marker) is quoted with it.
        """,
        messages: [Self.backgroundAtLaunch],
        triggeringExamples: [
            RuleExample("didFinishLaunching reads background (2) in a prewarmed launch the user then opens",
                ExampleLog.prewarm(at: "07:41:02") + "\n"
                    + ExampleLog.app("07:41:02.366104", "didFinishLaunchingWithOptions applicationState=2 ActivePrewarm=1", marked: true) + "\n"
                    + ExampleLog.suspend(at: "07:41:03") + "\n"
                    + ExampleLog.activateExisting(at: "09:12:44")),
            RuleExample("a state check on a cold launch of a scene app",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.690114", "Checking applicationState before restoring the session: background", marked: true) + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02")),
        ],
        nonTriggeringExamples: [
            RuleExample("inactive (1) on a cold launch of an app-delegate app",
                ExampleLog.coldLaunch(at: "09:12:44") + "\n"
                    + ExampleLog.app("09:12:44.690114", "application(_:didFinishLaunchingWithOptions:) applicationState=1") + "\n"
                    + ExampleLog.bootstrapSuccess(at: "09:12:44")),
            RuleExample("background state in a prewarm nobody used is the truth",
                ExampleLog.prewarm(at: "07:41:02") + "\n"
                    + ExampleLog.app("07:41:02.366104", "didFinishLaunchingWithOptions applicationState=2 ActivePrewarm=1") + "\n"
                    + ExampleLog.suspend(at: "07:41:03")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard session.wasLaunchedByUser, session.milestone(.activation) != nil else { return [] }
        let before = session.eventsBeforeActivation
        guard let read = before.first(where: {
            ($0.meaning == .stateQuery || $0.meaning == .appLifecycle) && ApplicationStateText.readsBackground($0.text)
        }) else { return [] }
        var evidence = [Finding.Evidence(read, label: "state read")]
        var message = "app read applicationState = background at launch, but the user was launching it (\(session.kind.rawValue))"
        if let path = before.first(where: { $0.meaning == .backgroundPath && $0.time.microsecondsSinceEpoch >= read.time.microsecondsSinceEpoch }) {
            evidence.append(Finding.Evidence(path, label: "background path"))
            message += ", and took its background path"
        }
        if let activation = session.evidence(.activation, label: "activation") { evidence.append(activation) }
        return [context.finding(Self.backgroundAtLaunch, message, evidence: evidence)]
    }
}

/// Reading an application state out of an app's line.
public enum ApplicationStateText {
    /// Whether the line reports `applicationState` (or `UIApplicationState`) as background:
    /// `applicationState=2`, `applicationState: background`, `.background`, `UIApplicationStateBackground`.
    public static func readsBackground(_ text: String) -> Bool {
        if text.containsUTF8("UIApplicationStateBackground") { return true }
        guard let range = text.rangeOfUTF8("applicationState") ?? text.rangeOfUTF8("UIApplicationState") else { return false }
        // The first state word after the key decides: `=2`, `: background`, `… session: background`.
        let words = text[range.upperBound...].split { !$0.isLetter && !$0.isNumber }
        for word in words.prefix(12) {
            switch word.lowercased() {
            case "2", "background": return true
            case "0", "1", "active", "inactive": return false
            default: continue
            }
        }
        return false
    }
}
