import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// An app-reported launch duration that includes the time the process spent prewarmed.
public struct LaunchTimerIncludesPrewarm: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `timer-spans-prewarm`.
    public static let timerSpansPrewarm = RuleMessage(id: "timer-spans-prewarm", shape: "launch timer ran ‹time› from a start marker during prewarm; the user waited ‹time› after activation")
    /// The message it gives: `reported-launch-includes-prewarm`.
    public static let reportedTooLong = RuleMessage(id: "reported-launch-includes-prewarm", shape: "app reported a launch of ‹time›; only ‹time› passed since the user activated the prewarmed process")

    /// How much a reported duration may exceed the time since activation.
    static let toleranceMilliseconds = RuleOption(name: "tolerance-ms", defaultValue: 1000,
                                                  help: "How much a reported duration may exceed the time since activation.")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "launch-timer-includes-prewarm",
        name: "Launch timer includes prewarm",
        defaultSeverity: .warning,
        summary: "The app reports a launch duration longer than the time since the user activated it, or its launch-start marker ran during prewarm and its end after activation.",
        rationale: """
        A launch timer started at process start, in a static initializer or in `didFinishLaunching` \
        starts during prewarm, so for a prewarmed launch it measures hours of suspension: launch \
        metrics of "over 1 minute" or "1 day" that nobody can reproduce. Start the timer at the \
        scene's activation (or read `ActivePrewarm` and discard prewarmed samples), and measure \
        user-perceived launch with MetricKit's `MXAppLaunchMetric`. The check: a reported duration \
        exceeds the time between the activation and the line reporting it by more than \
        `tolerance-ms`.
        """,
        options: [Self.toleranceMilliseconds],
        messages: [Self.timerSpansPrewarm, Self.reportedTooLong],
        decided: .atItsLine,
        triggeringExamples: [
            RuleExample("the app logs a launch of 2 hours",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.activateExisting(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.802000", "App launch took 7911684 ms", marked: true)),
        ],
        nonTriggeringExamples: [
            RuleExample("a launch time that fits after the activation",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.activateExisting(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.802000", "App launch took 301 ms")),
            RuleExample("a cold launch's duration",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.820000", "App launch took 418 ms")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard session.kind == .prewarmThenLaunch, let activation = session.milestone(.activation) else { return [] }
        let activationLine = session.evidence(.activation, label: "activation")
        // An end marker after activation whose start marker ran before it.
        let start = session.eventsBeforeActivation.firstEvent(withMeaning: .launchTimerStart)
        if let start, let end = session.events.first(where: {
            $0.meaning == .launchTimerEnd && $0.time.microsecondsSinceEpoch >= activation.time.microsecondsSinceEpoch
        }) {
            let measured = SpokenDuration.text(microseconds: end.time.microseconds(since: start.time))
            let real = SpokenDuration.text(microseconds: end.time.microseconds(since: activation.time))
            return [context.finding(Self.timerSpansPrewarm, "launch timer ran \(measured) from a start marker during prewarm; the user waited \(real) after activation",
                                    evidence: [Finding.Evidence(end, label: "timer end"), Finding.Evidence(start, label: "timer start")]
                                        + [activationLine].compactMap { $0 })]
        }
        // (Validated when configured; clamped here too, so a library caller's value cannot trap.)
        let tolerance = Int64(min(max(context.option(Self.toleranceMilliseconds), 0), RuleOption.defaultMaximum) * 1000)
        for line in session.events where line.meaning == .launchDuration && line.time.microsecondsSinceEpoch >= activation.time.microsecondsSinceEpoch {
            guard let reported = ReportedDuration.microseconds(in: line.text) else { continue }
            let sinceActivation = line.time.microseconds(since: activation.time)
            guard reported > sinceActivation + tolerance else { continue }
            var evidence = [Finding.Evidence(line, label: "reported launch duration")] + [activationLine].compactMap { $0 }
            if let prewarm = session.evidence(.prewarmRequest, label: "prewarm request") { evidence.append(prewarm) }
            return [context.finding(Self.reportedTooLong, "app reported a launch of \(SpokenDuration.text(microseconds: reported)); only \(SpokenDuration.text(microseconds: sinceActivation)) passed since the user activated the prewarmed process",
                                    evidence: evidence)]
        }
        return []
    }
}
