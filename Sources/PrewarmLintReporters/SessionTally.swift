public import PrewarmLintSessions

/// What a summary says of a report's sessions — how many of each kind, the user-perceived launches, how many lack
/// evidence — gathered in **one** pass. A spooled report decodes its sessions a page at a time, so each pass over
/// them is a full decode, and the kinds, the launches and the incomplete evidence would otherwise be three.
public struct SessionTally: Sendable {
    /// Sessions of each kind.
    public private(set) var byKind: [LaunchSession.Kind: Int] = [:]
    /// Every user-perceived launch, in microseconds, sorted (eight bytes a launch, not the session).
    public private(set) var launches: [Int64] = []
    /// The first session's user-perceived launch, in the report's order (what a single launch is worded from).
    public private(set) var firstLaunch: UserPerceivedLaunch?
    /// Sessions whose evidence is incomplete.
    public private(set) var incomplete = 0
    /// Sessions counted.
    public private(set) var count = 0

    /// The tally of `sessions`, read once.
    public init(_ sessions: some Sequence<LaunchSession>) {
        for session in sessions {
            count += 1
            byKind[session.kind, default: 0] += 1
            if session.evidenceIncomplete { incomplete += 1 }
            if let launch = session.userPerceivedLaunch {
                if firstLaunch == nil { firstLaunch = launch }
                launches.append(launch.microseconds)
            }
        }
        launches.sort()
    }

    /// `2 cold, 1 prewarm-unused`: how many sessions of each kind, in the kinds' order.
    public var kindCounts: String { Self.kindCounts(byKind) }

    /// `2 cold, 1 prewarm-unused` of these counts, in the kinds' order.
    public static func kindCounts(_ byKind: [LaunchSession.Kind: Int]) -> String {
        LaunchSession.Kind.allCases.compactMap { kind in byKind[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ")
    }

    /// Sessions of each kind, with those a report checked and did not list (`unlisted`).
    public func byKind(with unlisted: UnlistedSessions) -> [LaunchSession.Kind: Int] {
        byKind.merging(unlisted.byKind, uniquingKeysWith: +)
    }

    /// The median launch (the lower of the two middle ones), if any.
    public var medianLaunch: Int64? { launches.isEmpty ? nil : launches[(launches.count - 1) / 2] }

    /// The 90th-percentile launch (nearest rank, rounded down), if any.
    public var p90Launch: Int64? { launches.isEmpty ? nil : launches[(launches.count - 1) * 9 / 10] }
}
