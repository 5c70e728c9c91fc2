public import PrewarmLintClassifier

/// What a rule is, for people: listed by `prewarm-lint rules`, printed by `explain`, and rendered
/// into `docs/rules/<id>.md`. Its examples are also its tests.
public struct RuleDescription: Sendable, Hashable {
    /// Stable, kebab-case; never renamed once released (`keychain-while-locked`).
    public var id: String
    /// A short human name (`Keychain read while locked`).
    public var name: String
    /// Its severity unless configured otherwise.
    public var defaultSeverity: Severity
    /// One sentence: when it fires.
    public var summary: String
    /// Why it matters, and what to do about it (Markdown).
    public var rationale: String
    /// Tunable values, with their defaults.
    public var options: [RuleOption]
    /// Logs on which the rule fires, exactly on their marked lines.
    public var triggeringExamples: [RuleExample]
    /// Logs on which it must stay silent.
    public var nonTriggeringExamples: [RuleExample]
    /// The hazard evidence it reports (`EventMeaning.isHazardEvidence`): a line of such a meaning in a
    /// session it reports on is accounted for; one that no enabled rule reports is a counted, named
    /// exclusion of the run (``Linter/unreportedHazards(in:findings:)``), never silently dropped.
    public var reportsEvidence: Set<EventMeaning>

    /// Every message the rule gives (``RuleMessage``); empty for a rule that does not declare them.
    public var messages: [RuleMessage]

    /// When its findings are decided: by their deciding line, or only by the session's end.
    public var decided: FindingDecision

    /// A description; the examples are also the rule's tests.
    public init(id: String, name: String, defaultSeverity: Severity, summary: String, rationale: String, options: [RuleOption] = [],
                reportsEvidence: Set<EventMeaning> = [], messages: [RuleMessage] = [], decided: FindingDecision = .atSessionEnd,
                triggeringExamples: [RuleExample], nonTriggeringExamples: [RuleExample]) {
        self.reportsEvidence = reportsEvidence
        self.decided = decided
        self.messages = messages
        self.id = id
        self.name = name
        self.defaultSeverity = defaultSeverity
        self.summary = summary
        self.rationale = rationale
        self.options = options
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
    }
}

/// When a rule's finding is decided, for a run that answers while the log is still arriving.
public enum FindingDecision: String, Sendable, Hashable, CaseIterable {
    /// By its deciding line: once that line has arrived, the finding's rule, app, pid and line are what the whole log
    /// gives (the tests check it on every example, the log cut right after the line). What only the session's end can
    /// say — its kind, how long before the activation — may still change the message.
    case atItsLine = "at its line"
    /// Only by the session's end: a prewarm never activated, a launch measured to its end, a state read judged by what
    /// the user did next.
    case atSessionEnd = "at the session's end"
}

/// A number a rule reads from the configuration (`slow-activation: {warning-ms: 1000}`).
public struct RuleOption: Sendable, Hashable {
    /// The option's key in `.prewarm-lint.yml` (`warning-ms`).
    public var name: String
    /// Its value unless configured.
    public var defaultValue: Double
    /// What it means, for `explain` and the docs.
    public var help: String
    /// The largest value it takes (the smallest is 0): a configuration outside is refused where it is read.
    public var maximum: Double

    /// The largest value an option takes unless it says: a day, in milliseconds.
    public static let defaultMaximum: Double = 86_400_000

    /// An option taking values from 0 to `maximum`.
    public init(name: String, defaultValue: Double, help: String, maximum: Double = RuleOption.defaultMaximum) {
        self.name = name
        self.defaultValue = defaultValue
        self.help = help
        self.maximum = maximum
    }
}
