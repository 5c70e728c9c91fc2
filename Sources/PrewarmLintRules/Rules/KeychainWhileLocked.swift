import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions

/// A keychain read by the app failed because the keychain was locked (-25308).
public struct KeychainWhileLocked: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `keychain-locked`.
    public static let locked = RuleMessage(id: "keychain-locked", shape: "keychain read failed: keychain is locked (-25308) ‹in a … session›[, ‹time› before the user activated the app | , which the user never activated][ (‹n› failures)][; this process's crash report says the device had not been unlocked since boot (wasUnlockedSinceBoot 0) | … was locked when it was written (isLocked 1) | …, written later, says the device was unlocked by then (isLocked 0)]")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "keychain-while-locked",
        name: "Keychain read while locked",
        defaultSeverity: .error,
        summary: "A keychain access by the app failed with -25308 (errSecInteractionNotAllowed, \"keychain is locked\").",
        rationale: """
        A prewarmed process can run before the first unlock after a reboot, or while the device is \
        locked; items protected `WhenUnlocked` (the default) or `AfterFirstUnlock` are then \
        unreadable and `SecItemCopyMatching` returns `errSecInteractionNotAllowed` (-25308). Code that \
        treats "no token" as "logged out" signs the user out: the phantom logout. Treat -25308 as \
        "try again later" (observe `UIApplication.protectedDataDidBecomeAvailableNotification`), never \
        as a missing item, and do not read credentials before the user activates the app. The finding \
        names the session kind, since a failure in a prewarm session is the usual cause.

        Spellings read: securityd's `App[pid]/1#4 LF=0 copy_matching … Code=-25308` (iOS 11–26) and \
        `securityd_xpc_dictionary_handler App[pid] copy_matching … -25308` (iOS 9–10, macOS), its \
        `s3dl_query_row: … (-25308)` (which names no client: counted as `unattributed-evidence`, never \
        dropped), and the app's own lines: `errSecInteractionNotAllowed`, `SecOSStatusWith error:[-25308]`, \
        `-25308`, and the error's text `User interaction is not allowed`. A failure in the app's own line \
        is reported even when no daemon line names the process (a Console copy filtered to the app): on a \
        session of kind `unknown`, evidence incomplete.

        When a crash report of the process is read with the log, its lock state when it was written \
        (`"isLocked" : 1`, `"wasUnlockedSinceBoot" : 0`) is cited as evidence: the keychain's own condition.

        `-25300` (`errSecItemNotFound`, "no matching items found") is not reported: a locked keychain \
        refuses an item that exists with -25308 — before the first unlock as after — so -25300 says the \
        query matched nothing, which the log cannot tie to the lock. It still counts as a keychain access \
        for `keychain-before-activation`.
        """,
        reportsEvidence: [.keychainFailure],
        messages: [Self.locked],
        decided: .atItsLine,
        triggeringExamples: [
            RuleExample("securityd refuses a prewarmed process's read (real-logs 03's line, in a prewarm)",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.keychainLocked(at: "06:02:11.371990", marked: true) + "\n"
                    + ExampleLog.suspend(at: "06:02:12")),
            RuleExample("the app logs errSecInteractionNotAllowed itself, on a cold launch",
                ExampleLog.coldLaunch(at: "08:14:02") + "\n"
                    + ExampleLog.app("08:14:02.690114", "SecItemCopyMatching: errSecInteractionNotAllowed (-25308)", marked: true) + "\n"
                    + ExampleLog.bootstrapSuccess(at: "08:14:02")),
        ],
        nonTriggeringExamples: [
            RuleExample("an item not found (-25300) is not a locked keychain",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + "E 06:02:11.371990 securityd[115]: Ledger Pro[2231]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25300 \"no matching items found\" UserInfo={numberOfErrorsDeep=0, NSDescription=no matching items found}\n"
                    + ExampleLog.suspend(at: "06:02:12")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        let failures = session.events(withMeaning: .keychainFailure)
        guard let first = failures.first else { return [] }
        var evidence = [Finding.Evidence(first, label: "keychain failure")]
        var message = "keychain read failed: keychain is locked (-25308)"
        message += " \(session.kindPhrase)"
        if let activation = session.milestone(.activation), activation.time.microsecondsSinceEpoch >= first.time.microsecondsSinceEpoch {
            message += ", \(SpokenDuration.between(first, activation)) before the user activated the app"
        } else if session.kind == .prewarmUnused {
            message += ", which the user never activated"
        }
        if failures.count > 1 { message += " (\(failures.count) failures)" }
        // A crash report of this process says what the keychain's condition was when it was written.
        let lockState = session.events(withMeaning: .deviceLockState).first
        if let lockState {
            if lockState.text.containsUTF8("\"wasUnlockedSinceBoot\" : 0") {
                message += "; this process's crash report says the device had not been unlocked since boot (wasUnlockedSinceBoot 0)"
            } else if lockState.text.containsUTF8("\"isLocked\" : 1") {
                message += "; this process's crash report says the device was locked when it was written (isLocked 1)"
            } else if lockState.text.containsUTF8("\"isLocked\" : 0") {
                message += "; this process's crash report, written later, says the device was unlocked by then (isLocked 0)"
            }
        }
        if let decided = session.decidedBy, let line = session.event(at: decided), line.origin != first.origin {
            evidence.append(Finding.Evidence(line, label: "session kind"))
        }
        evidence += failures.dropFirst().prefix(4).map { Finding.Evidence($0, label: "keychain failure") }
        if let lockState { evidence.append(Finding.Evidence(lockState, label: "lock state")) }
        return [context.finding(Self.locked, message, evidence: evidence)]
    }
}
