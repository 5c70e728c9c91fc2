public import PrewarmLintModel
@_exported public import PrewarmLintConfiguration
public import PrewarmLintSessions
public import PrewarmLintClassifier

/// A hazard check over one launch session: what built-in rules implement, and what a caller
/// implements to add its own (register it in a ``RuleRegistry``).
///
/// A rule reads the session (its kind, milestones and kept lines) and returns findings; it never
/// fires on missing evidence alone, and says so in ``Finding/missingEvidence`` when the evidence it
/// used was incomplete. ``RuleContext/finding(_:severity:evidence:)`` fills in the session, the severity from
/// the configuration and the incompleteness note.
public protocol Rule: Sendable {
    /// What the rule is: id, severity, rationale, options, examples.
    var description: RuleDescription { get }
    /// The rule's findings in one session; `context` carries the severity, options and session id.
    func check(_ session: LaunchSession, in context: RuleContext) -> [Finding]
}

/// What a rule knows while it checks one session.
public struct RuleContext: Sendable {
    /// The session being checked.
    public var session: LaunchSession
    /// Its id in the report.
    public var sessionID: String
    /// The rule's severity: its default, or what the configuration says.
    public var severity: Severity
    /// The rule's options, configured or default.
    public var options: [String: Double]
    var ruleID: String

    /// The context of one rule on one session (``Linter`` makes it).
    public init(session: LaunchSession, sessionID: String, ruleID: String, severity: Severity, options: [String: Double]) {
        self.session = session
        self.sessionID = sessionID
        self.ruleID = ruleID
        self.severity = severity
        self.options = options
    }

    /// A finding of this rule in this session; `severity` defaults to the rule's.
    public func finding(_ message: String, severity: Severity? = nil, evidence: [Finding.Evidence]) -> Finding {
        var missing: [String] = []
        if session.confidence == .guess, session.kind != .unknown { missing.append("the session's kind (\(session.kind.rawValue)) is a guess") }
        missing += session.incompleteEvidence.filter { !$0.hasPrefix("no exit line") }
        return Finding(ruleID: ruleID, severity: severity ?? self.severity, message: message, sessionID: sessionID,
                       sessionKind: session.kind, app: session.app, evidence: evidence,
                       missingEvidence: missing.isEmpty ? nil : missing.joined(separator: "; "))
    }

    /// A finding giving one of the rule's declared messages, `text` being its words for this session.
    public func finding(_ message: RuleMessage, _ text: String, severity: Severity? = nil, evidence: [Finding.Evidence]) -> Finding {
        var made = finding(text, severity: severity, evidence: evidence)
        made.messageID = message.id
        return made
    }

    /// An option's value: configured, else its default. `option` is one the rule declares in its description, as a
    /// constant of the rule's (`Self.warningMilliseconds`), so a misspelled name cannot compile; reading an option the
    /// rule does not declare is a programming error (its value could never be configured).
    public func option(_ option: RuleOption) -> Double {
        guard let value = options[option.name] else {
            assertionFailure("rule \(ruleID) reads option \(option.name), which its description does not declare")
            return option.defaultValue
        }
        return value
    }
}

extension ArraySlice where Element == SessionEvent {
    /// The lines of one of `meanings`, in order. Each line's meaning is read where the line is stored: `filter` and
    /// `first(where:)` copied every line they passed (its strings retained and released), most of what a rule cost
    /// on a session with nothing to find.
    public func events(withMeaning meanings: EventMeaning...) -> [SessionEvent] {
        var found: [SessionEvent] = []
        for index in indices where meanings.contains(self[index].meaning) { found.append(self[index]) }
        return found
    }

    /// The first line of `meaning`, looked for as ``events(withMeaning:)`` looks.
    public func firstEvent(withMeaning meaning: EventMeaning) -> SessionEvent? {
        for index in indices where self[index].meaning == meaning { return self[index] }
        return nil
    }
}

extension LaunchSession {
    /// dasd prewarmed this process (used or not).
    public var wasPrewarmed: Bool { kind == .prewarmUnused || kind == .prewarmOutcomeUnknown || kind == .prewarmThenLaunch }

    /// The user brought this process up: a cold launch, or a prewarmed process the user then activated.
    public var wasLaunchedByUser: Bool { kind == .coldLaunch || kind == .prewarmThenLaunch || kind == .debuggerLaunch }

    /// `in a prewarm-then-launch session`; for an unknown kind, `in a session whose start is not in the log`.
    public var kindPhrase: String {
        kind == .unknown ? "in a session whose start is not in the log" : "in a \(kind.rawValue) session"
    }

    /// The kept lines before the activation (all of them when there was none), in order.
    public var eventsBeforeActivation: ArraySlice<SessionEvent> {
        guard let activation = milestone(.activation) else { return events[...] }
        let cut = events.firstIndex { $0.origin == activation.evidence } ?? events.firstIndex {
            $0.time.microsecondsSinceEpoch > activation.time.microsecondsSinceEpoch
        } ?? events.endIndex
        return events[..<cut]
    }

    /// The kept line that is a milestone's evidence, as evidence.
    public func evidence(_ name: Milestone.Name, label: String) -> Finding.Evidence? {
        guard let milestone = milestone(name) else { return nil }
        if let event = event(at: milestone.evidence) { return Finding.Evidence(event, label: label) }
        return Finding.Evidence(origin: milestone.evidence, time: milestone.time, text: "", label: label)
    }
}

extension SpokenDuration {
    /// The duration from a kept line to a milestone.
    public static func between(_ start: SessionEvent, _ end: LaunchSession.Milestone) -> String {
        text(microseconds: end.time.microseconds(since: start.time))
    }
}
