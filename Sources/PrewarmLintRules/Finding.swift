public import PrewarmLintModel
public import PrewarmLintClassifier
public import PrewarmLintSessions

/// One hazard a rule found in one session, with the lines that prove it.
public struct Finding: Sendable, Hashable {
    /// One quoted log line.
    public struct Evidence: Sendable, Hashable {
        /// Where the line is.
        public var origin: EventOrigin
        /// When it was logged.
        public var time: LogTimestamp
        /// `process[pid]: message` (first line of the message).
        public var text: String
        /// What this line shows (`keychain failure`, `activation`).
        public var label: String

        /// Evidence of a line.
        public init(origin: EventOrigin, time: LogTimestamp, text: String, label: String) {
            self.origin = origin
            self.time = time
            self.text = text
            self.label = label
        }

        /// A session line as evidence.
        public init(_ event: SessionEvent, label: String) {
            self.init(origin: event.origin, time: event.time, text: event.quoted, label: label)
        }
    }

    /// The rule that found it (`keychain-while-locked`).
    public var ruleID: String
    /// How serious, after configuration.
    public var severity: Severity
    /// One line, compiler-style, quoting the decisive value.
    public var message: String
    /// The session's id (`com.example.ledger#2`, see `LintReport.sessionIDs`).
    public var sessionID: String
    /// The kind of that session.
    public var sessionKind: LaunchSession.Kind
    /// The app, as the log names it.
    public var app: AppIdentity
    /// The decisive line first, then the lines that put it in context.
    public var evidence: [Evidence]
    /// What the log did not show (a guessed kind, a log that begins mid-session), when something was missing.
    public var missingEvidence: String?
    /// Which of its rule's messages this is (``RuleMessage/id``); nil for a rule that declares none.
    public var messageID: String?

    /// A finding; rules make them through `RuleContext.finding(_:severity:evidence:)`.
    public init(ruleID: String, severity: Severity, message: String, sessionID: String, sessionKind: LaunchSession.Kind,
                app: AppIdentity, evidence: [Evidence], missingEvidence: String? = nil) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.sessionID = sessionID
        self.sessionKind = sessionKind
        self.app = app
        self.evidence = evidence
        self.missingEvidence = missingEvidence
    }

    /// The line a compiler-style report points at: the decisive evidence.
    public var location: EventOrigin? { evidence.first?.origin }

    /// The app as reports name it: bundle id, else process name.
    public var appName: String { app.bundleID ?? app.processName ?? "unknown app" }

    /// What a baseline remembers: rule, app and message with its numbers (durations, pids, line
    /// numbers) blanked, so the same hazard in the next run of the same logs matches.
    public var baselineKey: String {
        var normalized = ""
        var inNumber = false
        for scalar in message.unicodeScalars {
            if scalar.properties.numericType != nil {
                if !inNumber { normalized.append("#") }
                inNumber = true
            } else {
                if !(inNumber && scalar == ".") { inNumber = false }
                normalized.unicodeScalars.append(scalar)
            }
        }
        return "\(ruleID)|\(appName)|\(normalized)"
    }
}
