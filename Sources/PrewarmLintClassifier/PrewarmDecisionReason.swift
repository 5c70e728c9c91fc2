/// What dasd decided about prewarming an app, as one of its lines states it (a signature's ``MessageSignature/decision``).
public enum PrewarmDecisionReason: String, Sendable, Hashable, CaseIterable, Codable {
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
}
