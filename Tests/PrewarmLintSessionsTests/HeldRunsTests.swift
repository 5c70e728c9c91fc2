import Foundation
@testable import PrewarmLint
import PrewarmLintModel
import Testing

/// How a unified-log archive's files' events are merged by time (`HeldRuns`): each file's events come sorted at its
/// end, and the events of files that overlap in time wait until no file still to read can come before them.
@Suite("held runs of an archive's files")
struct HeldRunsTests {
    static func event(_ microseconds: Int64, file: Int, entry: Int) -> LogEvent {
        LogEvent(timestamp: LogTimestamp(microsecondsSinceEpoch: microseconds, utcOffsetSeconds: 0, text: "t"), process: "p", pid: file,
                 message: "\(entry)", origin: EventOrigin(input: "f\(file)", line: entry, byteOffset: 0))
    }

    @Test("20,000 files overlapping in time, 5 events each: merged in time order, of one instant the earlier file's first, in well under a second per 100,000 events")
    func manyOverlappingFilesMergeInLinearithmicTime() {
        var runs = HeldRuns()
        // Every file holds the same five instants, as 20,000 copies of one file would.
        for file in 0..<20_000 {
            runs.add((0..<5).map { Self.event(1_000 + Int64($0) * 10, file: file, entry: $0) })
        }
        #expect(runs.count == 100_000)
        var out: [LogEvent] = []
        let start = ContinuousClock.now
        runs.emit(before: 1_015) { out.append($0) }  // the first two instants
        #expect(out.count == 40_000 && runs.count == 60_000)
        runs.emit(before: .max) { out.append($0) }
        let elapsed = ContinuousClock.now - start
        #expect(out.count == 100_000 && runs.count == 0)
        // Time order; within an instant, file order.
        #expect(zip(out, out.dropFirst()).allSatisfy {
            ($0.timestamp.microsecondsSinceEpoch, $0.pid ?? 0) < ($1.timestamp.microsecondsSinceEpoch, $1.pid ?? 0)
        })
        // A scan of every run per event takes minutes here; a heap well under a second. Ten times that is the bound.
        #expect(elapsed < .seconds(10), "\(elapsed)")
    }
}
