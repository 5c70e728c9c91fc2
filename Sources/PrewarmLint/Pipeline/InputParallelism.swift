import PrewarmLintModel
import Synchronization

/// Work on several inputs at once, results in input order: the same output whatever the number of
/// threads or which input finishes first.
enum InputParallelism {
    /// Result slots written by the workers: each index by exactly one worker, read only after all
    /// have finished (`runSharing` returns when every call has).
    private struct Slots<T>: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<T?>
    }

    /// `body(i)` for every `i` in `0..<count`, on up to `jobs` threads (fewer when the system refuses some, down to the
    /// calling thread alone); the results in index order.
    ///
    /// With `sizes` (one per index), the largest are started first (ties in index order): the last input taken is then
    /// a small one, and a big one named last no longer runs alone at the end while the other threads wait. Which
    /// thread takes which input changes nothing in the results.
    static func map<T: Sendable>(count: Int, jobs: Int, threads: ThreadStarter, sizes: [Int]? = nil,
                                 _ body: @escaping @Sendable (Int) -> T) -> [T] {
        guard jobs > 1, count > 1 else { return (0..<count).map(body) }
        let order = startingOrder(count: count, sizes: sizes)
        let slots = Slots<T>(buffer: .allocate(capacity: count))
        slots.buffer.initialize(repeating: nil)
        defer {
            slots.buffer.deinitialize()
            slots.buffer.deallocate()
        }
        let next = Atomic<Int>(0)
        // Each worker takes the next input until none is left: a big input does not hold up the rest, and the calling
        // thread alone reads them all when no other thread could be started.
        threads.runSharing(helpers: min(jobs, count) - 1) {
            while true {
                let taken = next.add(1, ordering: .relaxed).oldValue
                guard taken < count else { return }
                let index = order[taken]
                slots.buffer[index] = body(index)
            }
        }
        return slots.buffer.map { $0! }
    }

    /// The indices in the order they are started: the largest of `sizes` first, ties (and all, without sizes) in index
    /// order.
    static func startingOrder(count: Int, sizes: [Int]?) -> [Int] {
        guard let sizes, sizes.count == count else { return Array(0..<count) }
        return (0..<count).sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    }

    /// Each input's size in bytes as it lies on disk (a `.gz` compressed), for ``map(count:jobs:threads:sizes:_:)``: 0
    /// for standard input, a log archive, or a file that cannot be stat'ed (which is then reported when read).
    static func sizes(of inputs: [DiscoveredInput]) -> [Int] {
        inputs.map { $0.input.regularFileSize ?? 0 }
    }
}
