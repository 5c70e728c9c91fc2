import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// The launch the user waited for (tap → first screen, else the best proxy) took longer than a threshold.
public struct SlowActivation: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `slow-launch`.
    public static let slowLaunch = RuleMessage(id: "slow-launch", shape: "launch took ‹time› (‹from› → ‹to›[; no first-screen line]), more than ‹limit› ms")

    /// A launch this long is a warning.
    static let warningMilliseconds = RuleOption(name: "warning-ms", defaultValue: 1000, help: "A warning from this many milliseconds.")
    /// A launch this long is an error.
    static let errorMilliseconds = RuleOption(name: "error-ms", defaultValue: 5000, help: "An error from this many milliseconds.")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "slow-activation",
        name: "Slow launch",
        defaultSeverity: .warning,
        summary: "The launch the user waited for — from the tap to the first screen, as the system logs them — took longer than a threshold: a warning at 1 s, an error at 5 s.",
        rationale: """
        What the user feels is the time from the tap on the icon to the first screen; under 400 ms is \
        excellent. The system logs both: SpringBoard's tap (`SBIconView touches began`, `Icon tapped`) and \
        FrontBoard's `scene content state changed: ready` for the app's scene. Without a tap line the launch \
        starts at the launch request of a cold launch, or at the activation of a prewarmed or suspended \
        process (so the hours a prewarmed process waited never count); without a first-screen line it ends at \
        the best later point, named in the finding: the app's `first-frame` marker, SpringBoard's `Dropping \
        launch assertion.`, runningboardd's `running-active` (which comes before anything is drawn). Long \
        launches come from work on the main thread before the first screen: synchronous network, keychain, \
        database migrations. (The id is the rule's first name; it measured activation → active, which on a \
        real cold launch is 0 ms.)
        """,
        options: [Self.warningMilliseconds, Self.errorMilliseconds],
        messages: [Self.slowLaunch],
        triggeringExamples: [
            RuleExample("an iOS 26 cold launch whose first screen comes 1.6 s after the tap (the lines of real-logs 44, slower)",
                "08:14:01.944116 SpringBoard[34]: SBIconView touches began with event: <UITouchesEvent: 0x865746a00> timestamp: 2.93768e+06 touches: {(\n"
                    + "08:14:02.038326 SpringBoard[34]: Bootstrapping app<com.example.ledger> with intent foreground-interactive\n"
                    + "08:14:02.047372 runningboardd[33]: Now tracking process: [app<com.example.ledger(501)>:2231]\n"
                    + "08:14:02.047602 runningboardd[33]: Calculated state for app<com.example.ledger(501)>: running-active (role: UserInteractiveFocal) (endowments: <private>)\n"
                    + "08:14:02.052558 SpringBoard[34]: [app<com.example.ledger>:2231] Bootstrap success!\n"
                    + "▶ 08:14:03.572636 SpringBoard[34]: [(FBSceneManager):sceneID:com.example.ledger-default] scene content state changed: ready\n"
                    + "08:14:04.537834 SpringBoard[34]: [app<com.example.ledger>:2231] Dropping launch assertion."),
            RuleExample("a cold launch whose first frame (the app's marker; no first-screen line) comes 2.7 s after the tap",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:05.103000", "First frame rendered", marked: true)),
        ],
        nonTriggeringExamples: [
            RuleExample("a prewarmed launch active 2 ms after activation (the hours of prewarm do not count)",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.activateExisting(at: "08:14:02")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard let launch = session.userPerceivedLaunch,
              let endLine = session.evidence(launch.end.name, label: UserPerceivedLaunch.spoken(launch.end.name)) else { return [] }
        let elapsed = launch.microseconds
        let milliseconds = Double(elapsed) / 1000
        let severity: Severity
        if milliseconds >= context.option(Self.errorMilliseconds) {
            severity = .error
        } else if milliseconds >= context.option(Self.warningMilliseconds) {
            severity = .warning
        } else {
            return []
        }
        let limit = severity == .error ? context.option(Self.errorMilliseconds) : context.option(Self.warningMilliseconds)
        let message = "launch took \(SpokenDuration.text(microseconds: elapsed)) (\(launch.label)), more than \(Int(limit)) ms"
        return [context.finding(Self.slowLaunch, message, severity: severity,
                                evidence: [endLine] + [session.evidence(launch.start.name, label: UserPerceivedLaunch.spoken(launch.start.name))].compactMap { $0 })]
    }
}
