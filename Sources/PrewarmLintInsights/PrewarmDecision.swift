public import PrewarmLintModel
public import PrewarmLintClassifier

/// One prewarm decision a log shows, and what it means: why an app was, or was not, prewarmed.
///
/// From dasd's templates (`docs/research/message-templates.md`, dasd; `formats.md` §5): an
/// attempt and its success, the developer's opt-out, `Prewarm not yet allowed.` (dasd's candidate
/// selection: before the first unlock, in Low Power Mode, during a migration — the line does not say
/// which), `Class C not yet available.` (before the first unlock), an app already running, a failed
/// prelaunch, a lost assertion, a termination, prewarm disabled on the device.
public struct PrewarmDecision: Sendable, Hashable {
    /// What dasd decided (`PrewarmDecisionReason`: a typed property of the dasd signatures, in the classifier).
    public typealias Reason = PrewarmDecisionReason

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

extension PrewarmDecisionReason {
    /// The decision of the built-in signature with this id (`MessageSignature.decision`); nil for any other.
    ///
    /// ```swift
    /// var classifier = EventClassifier()
    /// _ = classifier.classifyIfMeaningful(event)
    /// if let reason = classifier.lastDecision { … }   // what the pipeline does
    /// ```
    public init?(signatureID: String) {
        guard let reason = SignatureTable.builtIn.signatures.first(where: { $0.id == signatureID })?.decision else { return nil }
        self = reason
    }
}
