public import PrewarmLintSessions

/// Two sets of logs compared phase by phase: `prewarm-lint compare BASELINE… -- CANDIDATE…`.
///
/// A phase regressed when the candidate's median is slower by more than the threshold (an absolute
/// `thresholdMilliseconds` and a relative `thresholdPercent`, both) *and* the rank test says the
/// difference is not noise (p below `alpha`). Each row also says how many runs per side would
/// resolve a difference of the threshold, and would pin the median within ±`errorMilliseconds`.
public struct LaunchComparison: Sendable {
    /// What a row concludes.
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// Slower beyond the threshold, and not noise.
        case regression
        /// Faster beyond the threshold, and not noise.
        case improvement
        /// A difference the test cannot tell from noise, or smaller than the threshold.
        case noSignificantChange = "no-significant-change"
        /// Fewer than ``minimumRuns`` on a side.
        case tooFewRuns = "too-few-runs"
    }

    /// One phase of one app and kind in both sets.
    public struct Row: Sendable {
        /// The app.
        public var app: String
        /// The session kind.
        public var kind: LaunchSession.Kind
        /// The phase.
        public var phase: LaunchPhase
        /// The baseline's numbers.
        public var baseline: PhaseSummary
        /// The candidate's numbers.
        public var candidate: PhaseSummary
        /// Candidate median minus baseline median, in milliseconds (positive: slower).
        public var medianDifference: Double
        /// The two-sided p-value of the rank test.
        public var p: Double
        /// What the row concludes.
        public var verdict: Verdict
        /// Runs per side to detect a shift of the threshold with 80% power.
        public var runsToDetectThreshold: Int?
        /// Runs to know the median within ±`errorMilliseconds`.
        public var runsForError: Int?
    }

    /// Runs per side below which no verdict is given.
    public static let minimumRuns = 5

    /// One row per phase, app and kind measured in both sets.
    public var rows: [Row]
    /// The smallest slowdown called a regression, in milliseconds.
    public var thresholdMilliseconds: Double
    /// The smallest slowdown called a regression, as a share of the baseline median.
    public var thresholdPercent: Double
    /// The significance level.
    public var alpha: Double
    /// The margin the runs-needed figure is for.
    public var errorMilliseconds: Double

    /// Compares the phases present in both: the user-perceived launch and every phase of it, for every kind
    /// (all phases with `allPhases`); a phase spanning a prewarmed process's suspension only with `allPhases`.
    public init(baseline: LaunchStatistics, candidate: LaunchStatistics, thresholdMilliseconds: Double = 20, thresholdPercent: Double = 5,
                alpha: Double = 0.05, errorMilliseconds: Double = 20, allPhases: Bool = false) {
        self.thresholdMilliseconds = thresholdMilliseconds
        self.thresholdPercent = thresholdPercent
        self.alpha = alpha
        self.errorMilliseconds = errorMilliseconds
        var rows: [Row] = []
        for group in baseline.groups {
            guard let other = candidate.groups.first(where: { $0.app == group.app && $0.kind == group.kind }) else { continue }
            for (phase, before) in group.phases where allPhases || phase.userPerceived {
                guard let after = other.phases.first(where: { $0.phase.name == phase.name })?.summary else { continue }
                // A phase across a prewarmed process's suspension measures the wait, not the launch: no verdict.
                if !allPhases, group.includesSuspension(phase) || other.includesSuspension(phase) { continue }
                let difference = after.median - before.median
                let (_, p) = RankTest.mannWhitney(before.samples, after.samples)
                let threshold = max(thresholdMilliseconds, before.median * thresholdPercent / 100)
                let verdict: Verdict
                if before.count < Self.minimumRuns || after.count < Self.minimumRuns {
                    verdict = .tooFewRuns
                } else if p < alpha, difference > threshold {
                    verdict = .regression
                } else if p < alpha, difference < -threshold {
                    verdict = .improvement
                } else {
                    verdict = .noSignificantChange
                }
                let spread = RankTest.spread(before.samples + after.samples.map { $0 - difference })
                rows.append(Row(app: group.app, kind: group.kind, phase: phase, baseline: before, candidate: after, medianDifference: difference,
                                p: p, verdict: verdict, runsToDetectThreshold: RankTest.runsToDetect(difference: threshold, spread: spread),
                                runsForError: RankTest.runsForMedian(within: errorMilliseconds, spread: spread)))
            }
        }
        self.rows = rows
        baselinePartial = baseline.partial
        candidatePartial = candidate.partial
    }

    /// Whether any phase regressed.
    public var regressed: Bool { rows.contains { $0.verdict == .regression } }

    /// True when either set was read by an interrupted run: no verdict then stands for the whole sets.
    public var partial: Bool { baselinePartial || candidatePartial }
    private var baselinePartial = false
    private var candidatePartial = false
}
