import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// Keychain, pasteboard, contacts, permission checks between activation and the first frame.
public struct BlockingCallBeforeFirstFrame: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `blocking-call-before-first-screen`.
    public static let blockingCall = RuleMessage(id: "blocking-call-before-first-screen", shape: "‹call› called ‹time› after activation, before the ‹first frame | app was active›[ (‹n› blocking calls in that window)]")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "blocking-call-before-first-frame",
        name: "Blocking call before first frame",
        defaultSeverity: .info,
        summary: "Keychain, pasteboard, contacts, permission checks or other blocking calls between the activation and the first frame.",
        rationale: """
        Calls that can block the main thread — keychain reads, `UIPasteboard`, `CNContactStore`, \
        permission status and requests, biometrics — delay the first frame the user is waiting for, \
        and some show a system prompt over a launch that has not drawn yet. Defer them until after \
        the first frame, or do them off the main thread. The window ends at the app's `first-frame` \
        marker, else at runningboardd's `running-active` state; with neither in the log the rule \
        stays silent.
        """,
        messages: [Self.blockingCall],
        triggeringExamples: [
            RuleExample("the pasteboard read before the first frame",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.750021", "UIPasteboard general: reading items", marked: true) + "\n"
                    + ExampleLog.app("08:14:02.901000", "First frame rendered")),
        ],
        nonTriggeringExamples: [
            RuleExample("the same read after the first frame",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.901000", "First frame rendered") + "\n"
                    + ExampleLog.app("08:14:02.950021", "UIPasteboard general: reading items")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard let activation = session.milestone(.activation),
              let end = session.milestone(.firstFrame) ?? session.milestone(.active) else { return [] }
        let from = activation.time.microsecondsSinceEpoch, to = end.time.microsecondsSinceEpoch
        let calls = session.events.filter {
            ($0.meaning == .blockingCall || $0.meaning == .keychainAccess || $0.meaning == .keychainFailure)
                && $0.time.microsecondsSinceEpoch >= from && $0.time.microsecondsSinceEpoch <= to
        }
        guard let first = calls.first else { return [] }
        let what = first.detail ?? (first.meaning == .blockingCall ? "blocking call" : "keychain access")
        var message = "\(what) called \(SpokenDuration.text(microseconds: LogTimestamp.microseconds(from: from, to: first.time.microsecondsSinceEpoch))) after activation, before the \(session.milestone(.firstFrame) != nil ? "first frame" : "app was active")"
        if calls.count > 1 { message += " (\(calls.count) blocking calls in that window)" }
        var evidence = [Finding.Evidence(first, label: "blocking call")]
        if let line = session.evidence(.activation, label: "activation") { evidence.append(line) }
        return [context.finding(Self.blockingCall, message, evidence: evidence)]
    }
}
