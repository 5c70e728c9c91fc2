import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions
public import PrewarmLintConfiguration

/// A span of a launch between two points, measured in every session that has both.
public struct LaunchPhase: Sendable, Hashable {
    /// `activation → first-frame`, or `did-finish-launching (reported)` for a value the app logged.
    public var name: String
    /// The point the phase starts at.
    public var from: String
    /// The point it ends at.
    public var to: String
    /// What the user waited for: from the activation (the tap) on.
    public var userPerceived: Bool
    /// Measured from the process start (or the app's own start): for a prewarmed session it includes
    /// the hours the process waited suspended, so it is not a launch time.
    public var startsAtProcessStart: Bool
    /// The user-perceived launch itself (`LaunchSession.userPerceivedLaunch`: tap → first screen, else the
    /// named stand-ins), whatever points a session has for it.
    public var isLaunch: Bool

    /// A phase from `from` to `to`.
    public init(from: String, to: String, name: String? = nil, userPerceived: Bool, startsAtProcessStart: Bool, isLaunch: Bool = false) {
        self.from = from
        self.to = to
        self.name = name ?? "\(from) → \(to)"
        self.userPerceived = userPerceived
        self.startsAtProcessStart = startsAtProcessStart
        self.isLaunch = isLaunch
    }

    /// Whether it is a part of dyld's launch statistics (``preMain``), not measured from the system's lines.
    public var isPreMainStatistics: Bool { from == "dyld" }

    /// The user-perceived launch: what `stats` leads with and `compare` tests first.
    public static let launch = LaunchPhase(from: "tap", to: "first-screen", name: "launch", userPerceived: true, startsAtProcessStart: false,
                                           isLaunch: true)

    /// The phases `stats` reports: the user-perceived launch, the phases between its points (tap → launch request →
    /// process start → first screen; the activation of a process already there → first screen), the app's
    /// markers, then what follows the first screen, then the process-start-based numbers.
    public static func standard(markerNames: [String] = [], reportingMarkers: [String] = []) -> [LaunchPhase] {
        var phases = [
            launch,
            LaunchPhase(from: "tap", to: "launch-request", userPerceived: true, startsAtProcessStart: false),
            LaunchPhase(from: "launch-request", to: "process-start", userPerceived: true, startsAtProcessStart: false),
            LaunchPhase(from: "process-start", to: "first-screen", userPerceived: true, startsAtProcessStart: true),
            LaunchPhase(from: "tap", to: "activation", userPerceived: true, startsAtProcessStart: false),
            LaunchPhase(from: "activation", to: "first-screen", userPerceived: true, startsAtProcessStart: false),
            LaunchPhase(from: "activation", to: "first-frame", userPerceived: true, startsAtProcessStart: false),
            LaunchPhase(from: "activation", to: "active", userPerceived: true, startsAtProcessStart: false),
        ]
        phases += markerNames.map { LaunchPhase(from: "activation", to: $0, userPerceived: true, startsAtProcessStart: false) }
        phases.append(LaunchPhase(from: "first-screen", to: "launch-complete", userPerceived: false, startsAtProcessStart: false))
        phases += [
            LaunchPhase(from: "process-start", to: "main", userPerceived: false, startsAtProcessStart: true),
            LaunchPhase(from: "process-start", to: "did-finish-launching", userPerceived: false, startsAtProcessStart: true),
            LaunchPhase(from: "process-start", to: "activation", userPerceived: false, startsAtProcessStart: true),
            LaunchPhase(from: "process-start", to: "active", userPerceived: false, startsAtProcessStart: true),
            LaunchPhase(from: "process-start", to: "first-frame", userPerceived: false, startsAtProcessStart: true),
        ]
        phases += markerNames.map { LaunchPhase(from: "process-start", to: $0, userPerceived: false, startsAtProcessStart: true) }
        phases += reportingMarkers.map { LaunchPhase(from: "app start", to: $0, name: "\($0) (reported by the app)", userPerceived: false, startsAtProcessStart: true) }
        phases.append(LaunchPhase(from: "prewarm", to: "activation", userPerceived: false, startsAtProcessStart: false))
        return phases + preMain
    }

    /// The pre-main phase as dyld's launch statistics give it (`PreMainStatistics`), whole and by part: beside the
    /// phases the system's lines measure, for the launches whose statistics were pasted with them.
    public static let preMain: [LaunchPhase] = [LaunchPhase(from: "dyld", to: "main", name: "pre-main (dyld)", userPerceived: true, startsAtProcessStart: true)]
        + [PreMainStatistics.Phase.dylibLoading, .rebaseBinding, .objcSetup, .initializers].map {
            LaunchPhase(from: "dyld", to: "main", name: "\($0.label) (dyld)", userPerceived: false, startsAtProcessStart: true)
        }

    /// The samples of ``preMain``'s phases that `statistics` give, by phase name.
    static func preMainSamples(_ statistics: PreMainStatistics) -> [(String, Double)] {
        var samples: [(String, Double)] = []
        if let total = statistics.milliseconds { samples.append((preMain[0].name, total)) }
        for phase in [PreMainStatistics.Phase.dylibLoading, .rebaseBinding, .objcSetup, .initializers] {
            if let value = statistics.time(of: phase)?.milliseconds { samples.append(("\(phase.label) (dyld)", value)) }
        }
        return samples
    }
}

/// Count, extremes, median, 90th and 95th percentiles (nearest rank) and a histogram of samples in milliseconds.
public struct PhaseSummary: Sendable, Hashable {
    /// How many samples.
    public var count: Int
    /// The smallest, in milliseconds.
    public var minimum: Double
    /// The median, in milliseconds.
    public var median: Double
    /// The 90th percentile, in milliseconds.
    public var p90: Double
    /// The 95th percentile, in milliseconds.
    public var p95: Double
    /// The largest, in milliseconds.
    public var maximum: Double
    /// Counts per bucket: bucket `i` holds samples in [``bucketEdges``[i], ``bucketEdges``[i+1]).
    public var histogram: [Int]
    /// Bucket edges in milliseconds, powers of two from below the minimum to above the maximum.
    public var bucketEdges: [Double]
    /// The samples, sorted.
    public var samples: [Double]

    /// The summary of `samples` (at least one).
    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        self.samples = sorted
        count = sorted.count
        minimum = sorted.first ?? 0
        maximum = sorted.last ?? 0
        median = Self.percentile(sorted, 50)
        p90 = Self.percentile(sorted, 90)
        p95 = Self.percentile(sorted, 95)
        var low = 1.0
        while low > max(minimum, 0.001) { low /= 2 }
        while low * 2 <= max(minimum, 0.001) { low *= 2 }
        var edges = [low]
        while edges.last! <= maximum { edges.append(edges.last! * 2) }
        if edges.count < 2 { edges.append(low * 2) }
        bucketEdges = edges
        var counts = [Int](repeating: 0, count: edges.count - 1)
        for sample in sorted {
            var bucket = 0
            while bucket < counts.count - 1, sample >= edges[bucket + 1] { bucket += 1 }
            counts[bucket] += 1
        }
        histogram = counts
    }

    /// The nearest-rank percentile of sorted samples.
    public static func percentile(_ sorted: [Double], _ percent: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The histogram as one line of block characters, with its range: `▁▃█▅▂ 8 ms … 256 ms`.
    public var sparkline: String {
        let blocks = Array(" ▁▂▃▄▅▆▇█")
        let top = histogram.max() ?? 1
        let bars = histogram.map { count in count == 0 ? "·" : String(blocks[max(1, Int((Double(count) / Double(max(top, 1)) * 8).rounded()))]) }
        return bars.joined() + " \(Self.duration(bucketEdges.first ?? 0)) … \(Self.duration(bucketEdges.last ?? 0))"
    }

    /// `845 ms`, `3.2 s`, `1 h 31 min`: `SpokenDuration.text(milliseconds:)`.
    public static func duration(_ milliseconds: Double) -> String { SpokenDuration.text(milliseconds: milliseconds) }
}

/// Launch statistics per app and session kind: what `prewarm-lint stats` prints.
public struct LaunchStatistics: Sendable {
    /// One app's sessions of one kind.
    public struct Group: Sendable {
        /// The app (bundle id, else process name).
        public var app: String
        /// The session kind.
        public var kind: LaunchSession.Kind
        /// How many sessions of that kind.
        public var sessions: Int
        /// The phases measured in at least one session, in ``LaunchPhase/standard(markerNames:reportingMarkers:)`` order.
        public var phases: [(phase: LaunchPhase, summary: PhaseSummary)]

        /// The phases whose span included a suspension in some session: measured across the time a
        /// prewarmed process waited for its user, their numbers are not launch times.
        public var suspensionPhases: Set<String>

        /// Whether a phase's numbers must not be read as launch times.
        public func includesSuspension(_ phase: LaunchPhase) -> Bool { suspensionPhases.contains(phase.name) }

        /// How the sessions' user-perceived launches were measured (`tap → first screen`, `launch request →
        /// active; no first-screen line`), with how many sessions each, most used first.
        public var launchDefinitions: [(label: String, sessions: Int)] = []
    }

    /// Groups ordered by app, then kind (in `LaunchSession.Kind` order).
    public var groups: [Group]
    /// Prewarm decisions the logs show, per app (device-wide ones under the empty app name).
    public var decisions: [PrewarmDecision]
    /// True when the run that read the logs was interrupted: the numbers cover what was read until then.
    public var partial = false
    /// Apple's launch measures from MetricKit metric payloads read with the logs, per app version.
    public var metricKit: [MetricKitLaunchSummary] = []
    /// The app of the group of dyld's launch statistics that no line names the process of.
    public static let unattributedPreMain = "(dyld's statistics of no named app)"
    /// MetricKit histogram buckets that could not be read (a localized value with a comma, an unknown unit).
    public var metricKitUnreadableBuckets = 0

    /// Statistics of `sessions`; `markers` name the app's own points. dyld's launch statistics (`preMain`) count in the
    /// group of the session a line joins them to (`LaunchSession.isLaunch(of:)`); the others in a group of their own,
    /// of the process their next line names, or of none (``unattributedPreMain``), of kind `unknown`.
    public init(sessions: some Sequence<LaunchSession>, markers: [LintConfiguration.Marker] = [], decisions: [PrewarmDecision] = [],
                preMain: [PreMainStatistics] = []) {
        let named = markers.compactMap(\.name)
        let reporting = markers.filter(\.carriesElapsed).compactMap(\.name)
        let phases = LaunchPhase.standard(markerNames: named, reportingMarkers: reporting)
        var samples: [String: [LaunchSession.Kind: [String: [Double]]]] = [:]
        var counts: [String: [LaunchSession.Kind: Int]] = [:]
        var spanning: [String: [LaunchSession.Kind: Set<String>]] = [:]
        var definitions: [String: [LaunchSession.Kind: [String: Int]]] = [:]
        // Each statistics block with a launch, and the session it is of so far (the latest start before its line).
        let launches = preMain.indices.filter { preMain[$0].launch != nil }
        var joined: [Int: (start: Int64, app: String, kind: LaunchSession.Kind)] = [:]
        for session in sessions {
            let app = session.app.bundleID ?? session.app.processName ?? "unknown"
            counts[app, default: [:]][session.kind, default: 0] += 1
            if !launches.isEmpty, let start = session.start?.microsecondsSinceEpoch {
                for block in launches where session.isLaunch(of: preMain[block].launch!) && start >= joined[block]?.start ?? .min {
                    joined[block] = (start, app, session.kind)
                }
            }
            if let launch = session.userPerceivedLaunch {
                samples[app, default: [:]][session.kind, default: [:]][LaunchPhase.launch.name, default: []].append(Double(launch.microseconds) / 1000)
                definitions[app, default: [:]][session.kind, default: [:]][launch.label, default: 0] += 1
            }
            let points = LaunchPoints.of(session, markers: markers)
            var at: [String: Int64] = [:]
            for point in points { at[point.name] = point.time.microsecondsSinceEpoch }
            let suspended = at["suspended"]
            for phase in phases where !phase.isLaunch {
                if phase.from == "app start" {
                    guard let point = points.first(where: { $0.name == phase.to }), let value = point.reportedMilliseconds else { continue }
                    samples[app, default: [:]][session.kind, default: [:]][phase.name, default: []].append(value)
                    // The app's own clock started with the process: a value logged after a suspension spans it.
                    if let suspended, point.time.microsecondsSinceEpoch > suspended {
                        spanning[app, default: [:]][session.kind, default: []].insert(phase.name)
                    }
                    continue
                }
                guard let start = at[phase.from], let end = at[phase.to], end >= start else { continue }
                samples[app, default: [:]][session.kind, default: [:]][phase.name, default: []].append(Double(LogTimestamp.microseconds(from: start, to: end)) / 1000)
                if let suspended, start <= suspended, suspended < end {
                    spanning[app, default: [:]][session.kind, default: []].insert(phase.name)
                }
            }
        }
        for (index, statistics) in preMain.enumerated() {
            let (app, kind) = joined[index].map { ($0.app, $0.kind) } ?? (statistics.launch?.process ?? Self.unattributedPreMain, .unknown)
            if joined[index] == nil { counts[app, default: [:]][kind, default: 0] += 0 }
            for (phase, value) in LaunchPhase.preMainSamples(statistics) { samples[app, default: [:]][kind, default: [:]][phase, default: []].append(value) }
        }
        var groups: [Group] = []
        for app in counts.keys.sorted() {
            for kind in LaunchSession.Kind.allCases {
                guard let sessionCount = counts[app]?[kind] else { continue }
                let measured = phases.compactMap { phase -> (LaunchPhase, PhaseSummary)? in
                    guard let values = samples[app]?[kind]?[phase.name], !values.isEmpty else { return nil }
                    return (phase, PhaseSummary(values))
                }
                var group = Group(app: app, kind: kind, sessions: sessionCount, phases: measured, suspensionPhases: spanning[app]?[kind] ?? [])
                group.launchDefinitions = (definitions[app]?[kind] ?? [:]).sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    .map { ($0.key, $0.value) }
                groups.append(group)
            }
        }
        self.groups = groups
        self.decisions = decisions
    }
}
