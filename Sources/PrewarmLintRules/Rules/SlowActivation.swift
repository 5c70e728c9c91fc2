import PrewarmLintClassifier
public import PrewarmLintSessions

/// Activation → first frame (or active) took longer than a threshold.
public struct SlowActivation: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "slow-activation",
        name: "Slow activation",
        defaultSeverity: .warning,
        summary: "From the activation to the app's first frame (or runningboardd's active state) took longer than a threshold: a warning at 1 s, an error at 5 s.",
        rationale: """
        What the user feels is the time from the tap to the first frame; under 400 ms is excellent. \
        This is the honest launch number for a prewarmed launch too, since it starts at the \
        activation and not at process start. Long activations come from work on the main thread \
        between the scene's connection and its first frame: synchronous network, keychain, database \
        migrations. The end is the app's `first-frame` marker when it logs one, else runningboardd's \
        `running-active` state.
        """,
        options: [
            RuleOption(name: "warning-ms", defaultValue: 1000, help: "A warning from this many milliseconds."),
            RuleOption(name: "error-ms", defaultValue: 5000, help: "An error from this many milliseconds."),
        ],
        triggeringExamples: [
            RuleExample("a cold launch whose first frame comes 2.4 s after Bootstrap success",
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
        guard let activation = session.milestone(.activation) else { return [] }
        let endName: LaunchSession.Milestone.Name = session.milestone(.firstFrame) != nil ? .firstFrame : .active
        guard let end = session.milestone(endName), let endLine = session.evidence(endName, label: endName == .firstFrame ? "first frame" : "active")
        else { return [] }
        let elapsed = end.time.microsecondsSinceEpoch - activation.time.microsecondsSinceEpoch
        let milliseconds = Double(elapsed) / 1000
        let severity: Severity
        if milliseconds >= context.option("error-ms") {
            severity = .error
        } else if milliseconds >= context.option("warning-ms") {
            severity = .warning
        } else {
            return []
        }
        let limit = severity == .error ? context.option("error-ms") : context.option("warning-ms")
        let message = "activation to \(endName == .firstFrame ? "first frame" : "active") took \(SpokenDuration.text(microseconds: elapsed)), more than \(Int(limit)) ms"
        return [context.finding(message, severity: severity,
                                evidence: [endLine] + [session.evidence(.activation, label: "activation")].compactMap { $0 })]
    }
}
