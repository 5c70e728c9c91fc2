import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// `compare` on the user-perceived launch: cold launches drawn from a seeded model of the real ones
/// (real-logs 44–46: tap → bootstrap 94–118 ms, bootstrap → process start 3 ms, process start → first
/// screen 99–131 ms, first screen → launch complete ~1 s). A +250 ms shift placed in any phase between the
/// tap and the first screen is found, in the launch and in that phase; two samples of one distribution
/// are told apart rarely (the rate is measured and stated in docs/insights.md).
@Suite("compare: power and false alarms on the user-perceived launch")
struct LaunchComparisonPowerTests {
    /// Normal draws by Box–Muller from a seeded generator.
    struct Draws {
        var generator: SeededGenerator
        init(state seed: UInt64) { generator = SeededGenerator(seed: seed) }
        mutating func normal(_ mean: Double, _ spread: Double, atLeast floor: Double) -> Double {
            let u = max(generator.nextUnit(), 1e-12), v = generator.nextUnit()
            return max(floor, mean + spread * (-2 * log(u)).squareRoot() * cos(2 * .pi * v))
        }
    }

    /// The phases a shift may be placed in: tap → launch request, launch request → process start, process start → first screen.
    static let shiftable = ["tap → launch-request", "launch-request → process-start", "process-start → first-screen"]

    /// `count` cold launches of one app; `shift` adds 250 ms to one of ``shiftable``.
    static func coldLaunches(_ count: Int, seed: UInt64, shift: Int? = nil) -> [LaunchSession] {
        var draws = Draws(state: seed)
        return (0..<count).map { index in
            var time = Int64(1_710_000_000_000_000) + Int64(index) * 60_000_000
            var milestones: [LaunchSession.Milestone] = []
            func point(_ name: LaunchSession.Milestone.Name, after milliseconds: Double) {
                time += Int64(milliseconds * 1000)
                milestones.append(LaunchSession.Milestone(name: name, time: LogTimestamp(microsecondsSinceEpoch: time, utcOffsetSeconds: 0, text: ""),
                                                          evidence: EventOrigin(input: "model", line: milestones.count + 1, byteOffset: 0)))
            }
            point(.tap, after: 0)
            point(.launchRequest, after: draws.normal(110, 20, atLeast: 40) + (shift == 0 ? 250 : 0))
            point(.processStart, after: draws.normal(4, 1, atLeast: 1) + (shift == 1 ? 250 : 0))
            let toScreen = draws.normal(110, 25, atLeast: 40) + (shift == 2 ? 250 : 0)
            point(.activation, after: draws.normal(6, 1, atLeast: 1))
            point(.active, after: 0.3)
            point(.firstScreen, after: toScreen - 6.3)
            point(.launchComplete, after: draws.normal(1000, 100, atLeast: 300))
            return LaunchSession(app: AppIdentity(bundleID: "com.example.ledger", pid: 2000 + index), kind: .coldLaunch, confidence: .certain,
                                 milestones: milestones)
        }
    }

    static func compare(_ baseline: [LaunchSession], _ candidate: [LaunchSession]) -> LaunchComparison {
        LaunchComparison(baseline: LaunchStatistics(sessions: baseline), candidate: LaunchStatistics(sessions: candidate))
    }

    @Test("a +250 ms shift anywhere between the tap and the first screen is a regression of the launch and of that phase",
          arguments: 0..<3)
    func shiftFound(phase: Int) throws {
        for seed in UInt64(1)...5 {
            let comparison = Self.compare(Self.coldLaunches(40, seed: seed * 1000), Self.coldLaunches(40, seed: seed * 1000 + 1, shift: phase))
            #expect(comparison.regressed)
            let launch = try #require(comparison.rows.first { $0.phase.isLaunch })
            #expect(launch.verdict == .regression, "seed \(seed): launch \(launch.medianDifference) ms, p=\(launch.p)")
            #expect(launch.medianDifference > 200 && launch.medianDifference < 300)
            let shifted = try #require(comparison.rows.first { $0.phase.name == Self.shiftable[phase] })
            #expect(shifted.verdict == .regression, "seed \(seed): \(shifted.phase.name) \(shifted.medianDifference) ms")
            // The phases after the first screen are not the launch: never a verdict on them.
            #expect(!comparison.rows.contains { $0.phase.name == "first-screen → launch-complete" })
        }
    }

    /// How many of 200 seeded pairs drawn from one distribution `compare` calls a regression.
    static func falseAlarms() -> Int {
        (UInt64(1)...200).filter { seed in Self.compare(Self.coldLaunches(40, seed: seed * 7919), Self.coldLaunches(40, seed: seed * 7919 + 3)).regressed }.count
    }

    @Test("two samples of one distribution: false alarms in at most 5% of 200 seeded pairs (4, 2.0%, measured: docs/insights.md)")
    func falseAlarmRate() {
        let alarms = Self.falseAlarms()
        #expect(alarms <= 10, "\(alarms) of 200 pairs called a regression")
    }

    @Test("a phase across a prewarmed process's suspension gets no verdict")
    func suspensionPhasesNoVerdict() throws {
        func prewarmed(_ seed: UInt64) -> [LaunchSession] {
            Self.coldLaunches(10, seed: seed).map { cold in
                var session = cold
                session.kind = .prewarmThenLaunch
                // Suspended between the process start and the tap: the start happened an hour earlier.
                let start = cold.milestone(.processStart)!
                session.milestones = cold.milestones.filter { $0.name != .launchRequest && $0.name != .processStart }
                session.milestones.insert(LaunchSession.Milestone(name: .processStart, time: LogTimestamp(microsecondsSinceEpoch: start.time.microsecondsSinceEpoch - 3_600_000_000, utcOffsetSeconds: 0, text: ""), evidence: start.evidence), at: 0)
                session.milestones.insert(LaunchSession.Milestone(name: .suspended, time: LogTimestamp(microsecondsSinceEpoch: start.time.microsecondsSinceEpoch - 3_500_000_000, utcOffsetSeconds: 0, text: ""), evidence: start.evidence), at: 1)
                return session
            }
        }
        let comparison = Self.compare(prewarmed(11), prewarmed(12))
        #expect(comparison.rows.contains { $0.phase.isLaunch })
        #expect(!comparison.rows.contains { $0.phase.name == "process-start → first-screen" })
    }
}
