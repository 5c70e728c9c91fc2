public import PrewarmLintSessions
public import PrewarmLintClassifier
public import PrewarmLintModel

/// The rules a run uses: a value the caller can filter or extend.
public struct RuleRegistry: Sendable {
    /// The rules, in the order they run.
    public private(set) var rules: [any Rule]

    /// A registry of these rules, in this order.
    public init(rules: [any Rule]) {
        self.rules = rules
    }

    /// Every built-in rule, in documentation order.
    public static let builtIn = RuleRegistry(rules: [
        KeychainWhileLocked(),
        KeychainBeforeActivation(),
        ProtectedDataBeforeUnlock(),
        LaunchWorkDuringPrewarm(),
        LaunchTimerIncludesPrewarm(),
        StateAssumedAtLaunch(),
        LaunchWatchdog(),
        PrewarmWasted(),
        SlowActivation(),
        BlockingCallBeforeFirstFrame(),
    ])

    /// The rule with this id.
    public func rule(id: String) -> (any Rule)? { rules.first { $0.description.id == id } }

    /// Only the rules `keep` accepts.
    public func filter(_ keep: (RuleDescription) -> Bool) -> RuleRegistry {
        RuleRegistry(rules: rules.filter { keep($0.description) })
    }

    /// This registry and another rule.
    public func adding(_ rule: any Rule) -> RuleRegistry { RuleRegistry(rules: rules + [rule]) }

    /// The rules' ids, in order.
    public var ids: [String] { rules.map(\.description.id) }
}

/// Runs the rules of a registry over sessions, as a configuration says.
public struct Linter: Sendable {
    /// The rules to run.
    public var registry: RuleRegistry { didSet { settle() } }
    /// How they are configured.
    public var configuration: LintConfiguration { didSet { settle() } }

    /// One enabled rule with its id, severity and options as the configuration settles them.
    private struct SettledRule: Sendable {
        var rule: any Rule
        var id: String
        var severity: Severity
        var forced: Severity?
        var options: [String: Double]
    }

    /// The enabled rules, settled when the registry or the configuration is set, not for every session (the
    /// pipeline lints each session as it closes: building the rules' descriptions per session cost more than
    /// most rules' checks).
    private var enabled: [SettledRule] = []

    /// A linter; the built-in rules with no configuration by default.
    public init(registry: RuleRegistry = .builtIn, configuration: LintConfiguration = LintConfiguration()) {
        self.registry = registry
        self.configuration = configuration
        settle()
    }

    private mutating func settle() {
        enabled = registry.rules.compactMap { rule -> SettledRule? in
            let description = rule.description
            let settings = configuration.rules[description.id]
            if settings?.enabled == false { return nil }
            var options: [String: Double] = [:]
            for option in description.options { options[option.name] = settings?.options[option.name] ?? option.defaultValue }
            return SettledRule(rule: rule, id: description.id, severity: settings?.severity ?? description.defaultSeverity,
                               forced: settings?.severity, options: options)
        }
    }

    /// The ids of the rules that run, in order.
    public var enabledRuleIDs: [String] { enabled.map(\.id) }

    /// The configuration's rule ids that no rule has: a typo the user must hear about.
    public var unknownRuleIDs: [String] {
        let known = Set(registry.ids)
        return configuration.rules.keys.filter { !known.contains($0) }.sorted()
    }

    /// The findings of one session checked as it closes, before the report lists it: their ``Finding/sessionID`` is
    /// empty until the listing names the session (`LintRun` does, in the order every report uses).
    public func findings(inUnlisted session: LaunchSession) -> [Finding] {
        // (Checked where it is: wrapped in an array, the session was copied twice more.)
        findings(of: session, id: "", apps: Set(configuration.apps))
    }

    /// Findings for `sessions` (whose ids are `ids`), ordered by session, then time of the decisive
    /// line, then rule id: the same sessions give the same findings in the same order.
    public func findings(in sessions: [LaunchSession], ids: [String]) -> [Finding] {
        var result: [Finding] = []
        let apps = Set(configuration.apps)
        for index in 0..<min(sessions.count, ids.count) {
            result += findings(of: sessions[index], id: ids[index], apps: apps)
        }
        return result
    }

    /// The findings of one session, ordered by the time of the decisive line, then rule id.
    private func findings(of session: LaunchSession, id: String, apps: Set<String>) -> [Finding] {
        guard session.app.isSelected(by: apps) else { return [] }
        var ofSession: [Finding] = []
        // One context per session, its rule's fields changed from rule to rule: a context per rule was a
        // copy of the session each (every string and array of it retained, then released).
        var context = RuleContext(session: session, sessionID: id, ruleID: "", severity: .info, options: [:])
        for index in enabled.indices {
            context.ruleID = enabled[index].id
            context.severity = enabled[index].severity
            context.options = enabled[index].options
            var found = enabled[index].rule.check(session, in: context)
            // (Most rules find nothing; appending nothing still reallocated the session's list.)
            if found.isEmpty { continue }
            if let forced = enabled[index].forced {
                for index in found.indices { found[index].severity = forced }
            }
            if configuration.severityPolicy != .asConfigured {
                for index in found.indices { found[index].severity = configuration.severityPolicy.apply(to: found[index].severity) }
            }
            ofSession += found
        }
        ofSession.sort { lhs, rhs in
            let a = lhs.evidence.first?.time.microsecondsSinceEpoch ?? 0, b = rhs.evidence.first?.time.microsecondsSinceEpoch ?? 0
            return a != b ? a < b : lhs.ruleID < rhs.ruleID
        }
        return ofSession
    }
}

/// Hazard evidence a run read and did not report: counted by why, with the first line, so a report never
/// reads as clean while such lines were read (`unattributed-evidence`, `hazard-not-reported`).
public struct UnreportedHazard: Sendable, Hashable {
    /// What the lines mean (`keychain-failure`, `data-protection-failure`, `watchdog`).
    public var meaning: EventMeaning
    /// Why no finding holds such a line.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The rules that report it are turned off in this run.
        case ruleOff([String])
        /// No rule of this run's registry reports it.
        case noRule
        /// The session is of an app the configuration leaves out.
        case appLeftOut
        /// The line came after the user's activation, where these rules do not look.
        case afterActivation([String])
        /// These rules did not report on the session (see their documentation).
        case notReportedInSession([String])
        /// A watchdog kill that guards no launch (`process-exit`, `scene-update`): a kill, not a launch hazard.
        case notALaunchWatchdog(String)
        /// A line read alone (a `FragmentReading`): no log around it places it in a session, so no rule can check it.
        case readAlone

        /// Left out by the user's own choice (a rule off, an app not selected): a note, not a warning.
        public var isUsersChoice: Bool {
            switch self {
            case .ruleOff, .noRule, .appLeftOut: true
            case .afterActivation, .notReportedInSession, .notALaunchWatchdog, .readAlone: false
            }
        }

        /// The reason in a few words.
        public var description: String {
            switch self {
            case .ruleOff(let rules): "its rule is off (\(rules.joined(separator: ", ")))"
            case .noRule: "no rule of this run reports it"
            case .appLeftOut: "of an app the configuration leaves out"
            case .afterActivation(let rules): "after the user's activation, where \(rules.joined(separator: ", ")) does not look (see the rule's documentation)"
            case .notReportedInSession(let rules): "in a session \(rules.joined(separator: ", ")) does not report on (see the rule's documentation)"
            case .notALaunchWatchdog(let event): "a \(event) watchdog kill, which guards no launch (launch-watchdog reports scene-create and process-launch)"
            case .readAlone: "read alone, a fragment no log around it places in a session"
            }
        }
    }
    /// Why no finding holds them.
    public var reason: Reason
    /// The first such line.
    public var first: EventOrigin
    /// How many.
    public var count: Int

    /// An account of unreported lines.
    public init(meaning: EventMeaning, reason: Reason, first: EventOrigin, count: Int) {
        self.meaning = meaning
        self.reason = reason
        self.first = first
        self.count = count
    }
}

extension Linter {
    /// The hazard lines of `session` (its kept lines of a hazard meaning) that none of `findings` reports:
    /// each meaning is reported when a finding of the session comes from a rule whose description lists it
    /// in ``RuleDescription/reportsEvidence``. Grouped by meaning and reason.
    public func unreportedHazards(in session: LaunchSession, findings: [Finding]) -> [UnreportedHazard] {
        var reported: Set<EventMeaning> = []
        for finding in findings {
            if let rule = registry.rule(id: finding.ruleID) { reported.formUnion(rule.description.reportsEvidence) }
        }
        var result: [UnreportedHazard] = []
        for index in session.events.indices {
            let meaning = session.events[index].meaning
            guard meaning.isHazardEvidence, !reported.contains(meaning) else { continue }
            var reason = unreportedReason(meaning, at: session.events[index].time, in: session)
            if meaning == .watchdog, case .notReportedInSession = reason {
                let watchdog = WatchdogTermination(text: session.events[index].text)
                if !watchdog.guardsLaunch { reason = .notALaunchWatchdog(watchdog.event ?? "non-launch") }
            }
            if let at = result.firstIndex(where: { $0.meaning == meaning && $0.reason == reason }) {
                result[at].count += 1
            } else {
                result.append(UnreportedHazard(meaning: meaning, reason: reason, first: session.events[index].origin, count: 1))
            }
        }
        return result
    }

    /// The hazard lines read alone, in `fragments` (each a line no log around it places in a session), as the
    /// session's are accounted: grouped by meaning and reason, `readAlone` when a rule of this run would report the
    /// meaning, the user's choice (a rule off) when none would.
    public func unreportedHazards(readAlone fragments: [FragmentReading]) -> [UnreportedHazard] {
        var result: [UnreportedHazard] = []
        for reading in fragments where reading.meaning.isHazardEvidence {
            let reason = ruleChoice(for: reading.meaning) ?? .readAlone
            if let at = result.firstIndex(where: { $0.meaning == reading.meaning && $0.reason == reason }) {
                result[at].count += 1
            } else {
                result.append(UnreportedHazard(meaning: reading.meaning, reason: reason, first: reading.fragment.origin, count: 1))
            }
        }
        return result
    }

    /// Why no rule of this run can report `meaning`, when that is the user's choice or the registry's: nil when a rule
    /// that reports it is on.
    private func ruleChoice(for meaning: EventMeaning) -> UnreportedHazard.Reason? {
        let reporting = registry.rules.map(\.description).filter { $0.reportsEvidence.contains(meaning) }.map(\.id)
        let enabled = Set(enabledRuleIDs)
        if reporting.contains(where: enabled.contains) { return nil }
        return reporting.isEmpty ? .noRule : .ruleOff(reporting)
    }

    private func unreportedReason(_ meaning: EventMeaning, at time: LogTimestamp, in session: LaunchSession) -> UnreportedHazard.Reason {
        if !session.app.isSelected(by: Set(configuration.apps)) { return .appLeftOut }
        if let choice = ruleChoice(for: meaning) { return choice }
        let on = registry.rules.map(\.description).filter { $0.reportsEvidence.contains(meaning) }.map(\.id).filter(Set(enabledRuleIDs).contains)
        if let activation = session.milestone(.activation), time.microsecondsSinceEpoch >= activation.time.microsecondsSinceEpoch {
            return .afterActivation(on)
        }
        return .notReportedInSession(on)
    }
}
