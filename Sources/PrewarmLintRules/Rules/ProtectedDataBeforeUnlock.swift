import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// A file, defaults or database error that means data protection, before activation.
public struct ProtectedDataBeforeUnlock: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `protected-data-unavailable`.
    public static let unavailable = RuleMessage(id: "protected-data-unavailable", shape: "protected data unavailable (‹error›) ‹in a … session›[, ‹time› before the user activated the app | before any activation][ (‹n› errors)]")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "protected-data-before-unlock",
        name: "Protected data before unlock",
        defaultSeverity: .error,
        summary: "A file, defaults or database error that means data protection (Operation not permitted, NSCocoaErrorDomain 257, protected data unavailable) before the user activates the app.",
        rationale: """
        Files with `NSFileProtectionComplete` (or `…UnlessOpen` once closed), and everything before the \
        first unlock after a reboot, cannot be read while the device is locked. A prewarmed or \
        background-launched process that opens its database or preferences then gets \
        `Operation not permitted` or `NSCocoaErrorDomain Code=257`, and may overwrite settings with \
        defaults or "repair" a database it thinks is corrupt. Check \
        `UIApplication.isProtectedDataAvailable` and defer the work until \
        `protectedDataDidBecomeAvailable`, or store launch-time data with \
        `completeUntilFirstUserAuthentication`.
        """,
        reportsEvidence: [.dataProtectionFailure],
        messages: [Self.unavailable],
        decided: .atItsLine,
        triggeringExamples: [
            RuleExample("a prewarmed process cannot open its store",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.app("06:02:11.380552", "CoreData: error: Error Domain=NSCocoaErrorDomain Code=257 \"The file “store.sqlite” couldn’t be opened because you don’t have permission to view it.\"", marked: true) + "\n"
                    + ExampleLog.suspend(at: "06:02:12")),
        ],
        nonTriggeringExamples: [
            RuleExample("the same error after the user activated the app is a different problem",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:03.120000", "CoreData: error: Error Domain=NSCocoaErrorDomain Code=257 \"The file “store.sqlite” couldn’t be opened because you don’t have permission to view it.\"")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        let failures = session.eventsBeforeActivation.events(withMeaning: .dataProtectionFailure)
        guard let first = failures.first else { return [] }
        var evidence = [Finding.Evidence(first, label: "data protection error")]
        if let decided = session.decidedBy, let line = session.event(at: decided) { evidence.append(Finding.Evidence(line, label: "session kind")) }
        var message = "protected data unavailable (\(first.detail ?? "data protection error")) \(session.kindPhrase)"
        if let activation = session.milestone(.activation) {
            message += ", \(SpokenDuration.between(first, activation)) before the user activated the app"
        } else if session.kind != .unknown {
            // (A session whose start is not in the log may have been activated before it began.)
            message += " before any activation"
        }
        if failures.count > 1 { message += " (\(failures.count) errors)" }
        return [context.finding(Self.unavailable, message, evidence: evidence)]
    }
}
