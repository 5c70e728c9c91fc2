import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// App launch callbacks or app work ran in a prewarm session before the user came.
public struct LaunchWorkDuringPrewarm: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `work-during-prewarm`.
    public static let ranDuringPrewarm = RuleMessage(id: "work-during-prewarm", shape: "‹work› ran during prewarm[, ‹time› before the user activated the app | ; the user never activated this process | ; the log does not show the user activating it]")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "launch-work-during-prewarm",
        name: "Launch work during prewarm",
        defaultSeverity: .warning,
        summary: "App launch callbacks or app work (didFinishLaunching, analytics, network, session start) run in a prewarm session before activation.",
        rationale: """
        Since iOS 15 a prewarmed scene-based app runs `application(_:didFinishLaunchingWithOptions:)` \
        with nobody there. Work placed there on the assumption that the user just tapped — an \
        "app opened" analytics event, a session start, network refreshes, timers — then happens \
        hours early or for a launch that never comes: inflated session counts, stale data at the real \
        launch, wasted battery. Start such work from `sceneWillEnterForeground`/`sceneDidBecomeActive`, \
        or check `ProcessInfo.processInfo.environment["ActivePrewarm"] == "1"` in \
        `didFinishLaunching`. The finding points at the first piece of app work when the log shows \
        one, else at the first launch callback.
        """,
        messages: [Self.ranDuringPrewarm],
        decided: .atItsLine,
        triggeringExamples: [
            RuleExample("an analytics SDK starts a session in a prewarmed process",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.app("06:02:11.366104", "didFinishLaunchingWithOptions") + "\n"
                    + ExampleLog.app("06:02:11.402311", "10.24.0 - [FirebaseAnalytics][I-ACS023007] Analytics v.10.24.0 started", marked: true) + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.activateExisting(at: "08:14:02")),
            RuleExample("didFinishLaunching in a prewarm that is never used",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.app("06:02:11.366104", "application(_:didFinishLaunchingWithOptions:)", marked: true) + "\n"
                    + ExampleLog.suspend(at: "06:02:12")),
        ],
        nonTriggeringExamples: [
            RuleExample("the same work on a cold launch",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.690114", "didFinishLaunchingWithOptions") + "\n"
                    + ExampleLog.app("08:14:02.691020", "10.24.0 - [FirebaseAnalytics][I-ACS023007] Analytics v.10.24.0 started") + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02")),
            RuleExample("a prewarmed app that waits for activation",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.activateExisting(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.640201", "sceneDidBecomeActive") + "\n"
                    + ExampleLog.app("08:14:02.641020", "10.24.0 - [FirebaseAnalytics][I-ACS023007] Analytics v.10.24.0 started")),
        ]
    )

    /// Callbacks that mean launch work ran (not the scene's activation callbacks).
    static let launchCallbacks = ["willFinishLaunching", "didFinishLaunching", "UIApplicationMain", "ActivePrewarm"]

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard session.wasPrewarmed else { return [] }
        let before = session.eventsBeforeActivation
        let work = before.firstEvent(withMeaning: .appWork)
        let callback = before.events(withMeaning: .appLifecycle).first { event in
            Self.launchCallbacks.contains { event.text.containsUTF8($0) }
        }
        guard let decisive = work ?? callback else { return [] }
        var evidence = [Finding.Evidence(decisive, label: work != nil ? "app work" : "launch callback")]
        if work != nil, let callback { evidence.append(Finding.Evidence(callback, label: "launch callback")) }
        if let prewarm = session.evidence(.prewarmRequest, label: "prewarm request") { evidence.append(prewarm) }
        let what = work != nil ? "app work (\(decisive.detail ?? "network request"))" : "launch callback \(decisive.detail ?? "")"
        var message = "\(what.trimmingTrailingSpace) ran during prewarm"
        if let activation = session.milestone(.activation) {
            message += ", \(SpokenDuration.between(decisive, activation)) before the user activated the app"
            if let line = session.evidence(.activation, label: "activation") { evidence.append(line) }
        } else if session.kind == .prewarmUnused {
            message += "; the user never activated this process"
        } else {
            // The log ends (or, read as it arrives, has not yet come) before any activation: not proof that none came.
            message += "; the log does not show the user activating it"
        }
        return [context.finding(Self.ranDuringPrewarm, message, evidence: evidence)]
    }
}

extension String {
    var trimmingTrailingSpace: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
