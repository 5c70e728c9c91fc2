import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// A prewarmed process ended without ever being activated.
public struct PrewarmWasted: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `prewarm-terminated-unused`.
    public static let terminatedUnused = RuleMessage(id: "prewarm-terminated-unused", shape: "prewarmed process[ ‹pid›] was terminated[ (‹reason›)][ ‹time› after the prewarm] without ever being activated")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "prewarm-wasted",
        name: "Prewarm wasted",
        defaultSeverity: .info,
        summary: "A prewarmed process was terminated without ever being activated.",
        rationale: """
        dasd prewarms apps it predicts the user will open; when the process is killed first (jetsam \
        under memory pressure, a watchdog, a crash) the prewarm bought nothing, and whatever \
        `didFinishLaunching` did ran for no user. A few are normal; many suggest the app is too big \
        to stay resident while suspended (reduce its memory footprint after launch) or that launch \
        work in prewarm crashes. Informational: it explains a cold launch that follows.
        """,
        messages: [Self.terminatedUnused],
        triggeringExamples: [
            RuleExample("prewarmed, suspended, killed by jetsam two hours later (real-logs 39's exit line)",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.jetsam(at: "08:03:40", marked: true)),
        ],
        nonTriggeringExamples: [
            RuleExample("a prewarm the user used, then the process exits",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.activateExisting(at: "08:14:02") + "\n"
                    + ExampleLog.jetsam(at: "09:30:00")),
            RuleExample("a prewarm still suspended when the log ends",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard session.kind == .prewarmUnused, let end = session.milestone(.termination),
              let termination = session.evidence(.termination, label: "termination") else { return [] }
        var evidence = [termination]
        var message = "prewarmed process"
        if let pid = session.app.pid { message += " \(pid)" }
        message += " was terminated"
        if let reason = end.detail { message += " (\(reason.trimmingCharacters(in: " ")))" }
        if let prewarm = session.milestone(.prewarmRequest) {
            message += " \(SpokenDuration.text(microseconds: end.time.microseconds(since: prewarm.time))) after the prewarm"
            if let line = session.evidence(.prewarmRequest, label: "prewarm request") { evidence.append(line) }
        }
        message += " without ever being activated"
        return [context.finding(Self.terminatedUnused, message, evidence: evidence)]
    }
}
