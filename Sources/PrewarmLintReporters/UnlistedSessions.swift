public import PrewarmLintSessions

/// The sessions a run checked and did not list (a report lists at most `LintRun.maximumSessionsListed`): how many,
/// of each kind, and how many lack evidence. Their findings are in the report; these counts are what lets its summary
/// speak of every session checked, not of the listing alone (300,000 launches read "300000 prewarm-unused", not "the
/// first 100000 listed: 100000 prewarm-unused"). A few integers, whatever the number of sessions.
public struct UnlistedSessions: Sendable, Hashable {
    /// Sessions not listed.
    public private(set) var count = 0
    /// Of each kind.
    public private(set) var byKind: [LaunchSession.Kind: Int] = [:]
    /// Those whose evidence is incomplete.
    public private(set) var evidenceIncomplete = 0

    /// None.
    public init() {}

    /// Counts one more session, of `kind`.
    public mutating func add(kind: LaunchSession.Kind, evidenceIncomplete incomplete: Bool) {
        count += 1
        byKind[kind, default: 0] += 1
        if incomplete { evidenceIncomplete += 1 }
    }
}
