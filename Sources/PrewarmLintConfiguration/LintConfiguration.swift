public import PrewarmLintClassifier

/// How a team tunes the rules: which run, at which severity, with which thresholds, for which
/// apps, and which of the app's own log lines mean what. A plain value: the CLI fills it from
/// `.prewarm-lint.yml`; a library caller builds it in code.
public struct LintConfiguration: Sendable, Hashable {
    /// One rule's settings.
    public struct RuleSettings: Sendable, Hashable {
        /// `false` turns the rule off; `nil` keeps the default (on).
        public var enabled: Bool?
        /// Replaces the rule's severity for every finding.
        public var severity: Severity?
        /// Option values by name (`warning-ms`).
        public var options: [String: Double]

        /// Settings; nil keeps each default.
        public init(enabled: Bool? = nil, severity: Severity? = nil, options: [String: Double] = [:]) {
            self.enabled = enabled
            self.severity = severity
            self.options = options
        }
    }

    /// A text in the app's own lines (any process the log shows to be an app) and what it means
    /// (`"token missing"` → `keychain-failure`).
    public struct Marker: Sendable, Hashable {
        /// Text that must appear in the message (case-sensitive).
        public var text: String
        /// What a line with ``text`` means.
        public var meaning: EventMeaning
        /// The marker's name on session timelines and in `stats` (`did-finish-launching`); nil for a
        /// marker that only feeds the rules.
        public var name: String?
        /// Whether the line carries the app's own elapsed time (`did finish launching 295 250`: the
        /// first number after ``text``, in milliseconds since the app's start).
        public var carriesElapsed: Bool

        /// A marker: lines containing `text` mean `meaning`; a named marker is a point of the launch.
        public init(text: String, meaning: EventMeaning = .launchMarker, name: String? = nil, carriesElapsed: Bool = false) {
            self.text = text
            self.meaning = meaning
            self.name = name
            self.carriesElapsed = carriesElapsed
        }
    }

    /// A rewrite of every finding's severity after the rules' own settings: the `--strict` and `--lenient` of the CLI,
    /// as SwiftLint has them.
    public enum SeverityPolicy: String, Sendable, Hashable, CaseIterable {
        /// Each finding at its rule's severity.
        case asConfigured
        /// Warnings reported as errors (`--strict`).
        case warningsAsErrors
        /// Errors reported as warnings (`--lenient`).
        case errorsAsWarnings

        /// `severity` under this policy.
        public func apply(to severity: Severity) -> Severity {
            switch self {
            case .asConfigured: severity
            case .warningsAsErrors: severity == .warning ? .error : severity
            case .errorsAsWarnings: severity == .error ? .warning : severity
            }
        }
    }

    /// Settings by rule id.
    public var rules: [String: RuleSettings]
    /// Applied to every finding after its rule's severity (`.asConfigured` by default).
    public var severityPolicy: SeverityPolicy = .asConfigured
    /// When non-empty, only sessions of these apps (bundle ids or process names) are checked.
    public var apps: [String]
    /// The app's own lines, taught to the classifier.
    public var markers: [Marker]

    /// A configuration; empty by default (every rule on, default severities).
    public init(rules: [String: RuleSettings] = [:], apps: [String] = [], markers: [Marker] = []) {
        self.rules = rules
        self.apps = apps
        self.markers = markers
    }

    /// The meanings a marker may map to: those the rules read from the app's own lines.
    public static let markerMeanings: [EventMeaning] = [
        .launchMarker, .appLifecycle, .appWork, .stateQuery, .backgroundPath, .blockingCall, .launchTimerStart, .launchTimerEnd,
        .launchDuration, .firstFrame, .keychainAccess, .keychainFailure, .dataProtectionFailure,
    ]

    /// The classifier's table with the markers tried first, for app lines.
    public func signatureTable(base: SignatureTable = .builtIn) -> SignatureTable {
        guard !markers.isEmpty else { return base }
        let custom = markers.enumerated().map { index, marker in
            MessageSignature(id: "marker-\(index + 1)", roles: [.app], meaning: marker.meaning, all: [marker.text],
                             detailAfter: nil, seenOn: "this team's app", example: marker.text, source: "configuration (markers)",
                             pointName: marker.name)
        }
        return SignatureTable(signatures: custom + base.signatures)
    }
}
