@testable import PrewarmLint
import Synchronization
import Testing

/// `MovedRun`, the read-ahead's batch of events: elements come out in the order they went in, each exactly once,
/// and whatever was not taken is destroyed with the run: nothing leaks, nothing is destroyed twice.
@Suite("MovedRun", .serialized)
struct MovedRunTests {
    /// Counts the instances alive.
    final class Tracked: Sendable {
        static let alive = Atomic<Int>(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive.add(1, ordering: .relaxed)
        }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    @Test("in order, each once; the untaken destroyed with the run", arguments: [0, 1, 5, 8])
    func order(takenBeforeEnd: Int) {
        let before = Tracked.alive.load(ordering: .relaxed)
        do {
            let run = MovedRun<Tracked>(capacity: 8)
            for value in 0..<8 { run.append(Tracked(value)) }
            #expect(run.isFull)
            #expect(Tracked.alive.load(ordering: .relaxed) == before + 8)
            var seen: [Int] = []
            for _ in 0..<takenBeforeEnd {
                let peeked = run.peekFirst { $0.value }
                if let element = run.takeFirst() { seen.append(element.value) }
                #expect(peeked == seen.last)
            }
            #expect(run.peekFirst { $0.value } == (takenBeforeEnd < 8 ? takenBeforeEnd : nil))
            #expect(seen == Array(0..<takenBeforeEnd))
            #expect(run.taken == takenBeforeEnd)
            // Taken elements are gone once their last reference is.
            #expect(Tracked.alive.load(ordering: .relaxed) == before + 8 - takenBeforeEnd)
            #expect(run.isExhausted == (takenBeforeEnd == 8))
            if takenBeforeEnd == 8 { #expect(run.takeFirst() == nil) }
        }
        #expect(Tracked.alive.load(ordering: .relaxed) == before)
    }
}
