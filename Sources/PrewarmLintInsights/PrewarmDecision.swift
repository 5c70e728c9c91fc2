public import PrewarmLintModel

/// One prewarm decision a log shows, and what it means: why an app was, or was not, prewarmed.
///
/// From dasd's templates (`../shared/research/message-templates.md`, dasd; `formats.md` §5): an
/// attempt and its success, the developer's opt-out, `Prewarm not yet allowed.` (dasd's candidate
/// selection: before the first unlock, in Low Power Mode, during a migration — the line does not say
/// which), `Class C not yet available.` (before the first unlock), an app already running, a failed
/// prelaunch, a lost assertion, a termination, prewarm disabled on the device.
public struct PrewarmDecision: Sendable, Hashable {
    /// What dasd decided.
    public enum Reason: String, Sendable, Hashable, CaseIterable, Codable {
        /// dasd attempted a prewarm.
        case attempted
        /// The prewarm succeeded.
        case succeeded
        /// The app opted out (`SBPrefersUnoptimizedLaunch`, or `UIBackgroundModes` containing `continuous`).
        case developerOptOut = "developer-opt-out"
        /// dasd's candidate selection did not allow prewarming yet.
        case notYetAllowed = "not-yet-allowed"
        /// Class C data was not available: the device had not been unlocked since boot.
        case beforeFirstUnlock = "before-first-unlock"
        /// The app was already running, so it was skipped.
        case alreadyRunning = "already-running"
        /// The prewarm launch failed.
        case attemptFailed = "attempt-failed"
        /// dasd lost the prewarm's assertion (the process may be killed).
        case assertionLost = "assertion-lost"
        /// dasd ended the prewarm (termination requested or done).
        case terminated
        /// Prewarming is disabled on this device (a Trial setting).
        case disabled

        /// One sentence for reports.
        public var explanation: String {
            switch self {
            case .attempted: "dasd attempted to prewarm the app"
            case .succeeded: "the prewarm launch succeeded"
            case .developerOptOut: "not prewarmed: the app opted out (SBPrefersUnoptimizedLaunch, or UIBackgroundModes with continuous)"
            case .notYetAllowed: "not prewarmed: dasd did not allow prewarming yet (before first unlock, Low Power Mode or a migration; the line does not say which)"
            case .beforeFirstUnlock: "not prewarmed: Class C data was not available yet — the device had not been unlocked since it booted"
            case .alreadyRunning: "not prewarmed: the app was already running"
            case .attemptFailed: "the prewarm launch failed"
            case .assertionLost: "the prewarm's assertion was lost: the process could be suspended or killed before the user came"
            case .terminated: "dasd ended the prewarmed process"
            case .disabled: "not prewarmed: prewarming is disabled on this device (a Trial experiment setting)"
            }
        }

    /// The decision a dasd line states, from the id of the signature it matched
    /// (`SignatureTable.builtIn` holds one per decision); nil for any other signature.
    ///
    /// ```swift
    /// var classifier = EventClassifier()
    /// _ = classifier.classifyIfMeaningful(event)
    /// if let id = classifier.lastSignatureID, let reason = PrewarmDecision.Reason(signatureID: id) { … }
    /// ```
        public init?(signatureID: String) {
            // Asked of every classified line: most are not dasd's, and one prefix rules them out before ten comparisons.
            guard signatureID.utf8.starts(with: "dasd-prewarm-".utf8) else { return nil }
            switch signatureID {
            case "dasd-prewarm-attempt": self = .attempted
            case "dasd-prewarm-success": self = .succeeded
            case "dasd-prewarm-developer-opt-out": self = .developerOptOut
            case "dasd-prewarm-not-yet-allowed": self = .notYetAllowed
            case "dasd-prewarm-class-c-unavailable": self = .beforeFirstUnlock
            case "dasd-prewarm-already-running": self = .alreadyRunning
            case "dasd-prewarm-launch-error": self = .attemptFailed
            case "dasd-prewarm-assertion-lost": self = .assertionLost
            case "dasd-prewarm-terminated": self = .terminated
            case "dasd-prewarm-disabled": self = .disabled
            default: return nil
            }
        }
    }

    /// What dasd decided.
    public var reason: Reason
    /// The app the line names; nil for a device-wide decision (`Prewarm not yet allowed.`).
    public var app: String?
    /// When.
    public var time: LogTimestamp
    /// The line that says it.
    public var evidence: EventOrigin
    /// The line, as logged.
    public var text: String

    /// A decision.
    public init(reason: Reason, app: String?, time: LogTimestamp, evidence: EventOrigin, text: String) {
        self.reason = reason
        self.app = app
        self.time = time
        self.evidence = evidence
        self.text = text
    }
}
