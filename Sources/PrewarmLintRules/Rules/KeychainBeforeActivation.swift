import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// A prewarmed process touched the keychain before the user activated it.
public struct KeychainBeforeActivation: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `keychain-before-activation`.
    public static let touched = RuleMessage(id: "keychain-before-activation", shape: "prewarmed process touched the keychain[ ‹time› before the user activated it | and was never activated by the user | ; the log does not show the user activating it][ (the access failed: keychain locked)][; ‹n› accesses before activation]")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "keychain-before-activation",
        name: "Keychain before activation",
        defaultSeverity: .warning,
        summary: "A prewarmed process touches the keychain before the user activates it, even when the access succeeds.",
        rationale: """
        During prewarm nobody is using the app, and the device may be locked: a keychain access that \
        succeeds today fails on the next reboot (before first unlock) or for items protected \
        `WhenUnlocked`. Reading credentials at process start — in a static initializer, \
        `didFinishLaunching` or an SDK's setup — is the pattern behind phantom logouts. Move it to \
        the first scene activation, or make the code that reads it survive \
        `errSecInteractionNotAllowed`.
        """,
        messages: [Self.touched],
        decided: .atItsLine,
        triggeringExamples: [
            RuleExample("the app reads the keychain while prewarmed, and the user comes later",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.app("06:02:11.366104", "SecItemCopyMatching", marked: true) + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.activateExisting(at: "08:14:02")),
            RuleExample("a locked-keychain error from securityd for a prewarm never used",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.keychainLocked(at: "06:02:11.371990", marked: true) + "\n"
                    + ExampleLog.suspend(at: "06:02:12")),
        ],
        nonTriggeringExamples: [
            RuleExample("the same read on a cold launch, after activation",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.801422", "SecItemCopyMatching")),
            RuleExample("a prewarmed process that reads the keychain only after activation",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.activateExisting(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.640201", "SecItemCopyMatching")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard session.wasPrewarmed else { return [] }
        let touches = session.eventsBeforeActivation.events(withMeaning: .keychainAccess, .keychainFailure)
        guard let first = touches.first else { return [] }
        var evidence = [Finding.Evidence(first, label: "keychain access")]
        if let prewarm = session.evidence(.prewarmRequest, label: "prewarm request") { evidence.append(prewarm) }
        var message = "prewarmed process touched the keychain"
        if let activation = session.milestone(.activation) {
            message += " \(SpokenDuration.between(first, activation)) before the user activated it"
            if let line = session.evidence(.activation, label: "activation") { evidence.append(line) }
        } else if session.kind == .prewarmUnused {
            message += " and was never activated by the user"
        } else {
            // The log ends (or, read as it arrives, has not yet come) before any activation: not proof that none came.
            message += "; the log does not show the user activating it"
        }
        if first.meaning == .keychainFailure { message += " (the access failed: keychain locked)" }
        if touches.count > 1 { message += "; \(touches.count) accesses before activation" }
        return [context.finding(Self.touched, message, evidence: evidence)]
    }
}
