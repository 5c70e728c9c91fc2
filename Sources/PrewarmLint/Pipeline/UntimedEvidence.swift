import PrewarmLintModel
import PrewarmLintReaders
public import PrewarmLintClassifier

/// What an input held that has no time of its own, in input order, as the stage that classified the input's records
/// kept it: dyld's launch statistics (`PreMainStatistics`, joined to sessions with the listing) and the lines read
/// alone that a signature knows (`FragmentReading`), at most ``maximumKept`` of each, the rest counted.
public struct UntimedEvidence: Sendable {
    /// dyld's launch statistics.
    public var preMainStatistics: [PreMainStatistics] = []
    /// Statistics blocks beyond ``maximumKept``, counted.
    public var preMainStatisticsNotKept = 0
    /// Lines read alone that a signature knows, classified.
    public var fragments: [FragmentReading] = []
    /// Known lines read alone beyond ``maximumKept``, counted.
    public var fragmentsNotKept = 0
    /// The most of each an input keeps.
    public static let maximumKept = 64

    /// None yet.
    public init() {}

    /// `output` kept when it is untimed evidence, a fragment when `signatures` know it (events and diagnostics go
    /// elsewhere).
    mutating func keep(_ output: ReaderOutput, classifiedBy signatures: SignatureTable) {
        switch output {
        case .preMainStatistics(let statistics):
            keep(statistics)
        case .fragment(let fragment):
            if let reading = FragmentReading(fragment, by: signatures) { keep(reading) }
        case .event, .diagnostic, .partStart:
            break
        }
    }

    private mutating func keep(_ statistics: PreMainStatistics) {
        if preMainStatistics.count < Self.maximumKept { preMainStatistics.append(statistics) } else { preMainStatisticsNotKept += 1 }
    }

    private mutating func keep(_ reading: FragmentReading) {
        if fragments.count < Self.maximumKept { fragments.append(reading) } else { fragmentsNotKept += 1 }
    }

    /// `other`'s after these (a later part of one pasted document), within the same limits.
    mutating func add(_ other: UntimedEvidence) {
        for statistics in other.preMainStatistics { keep(statistics) }
        for reading in other.fragments { keep(reading) }
        preMainStatisticsNotKept += other.preMainStatisticsNotKept
        fragmentsNotKept += other.fragmentsNotKept
    }
}
