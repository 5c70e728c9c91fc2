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
    static func map<T: Sendable>(count: Int, jobs: Int, threads: ThreadStarter, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        guard jobs > 1, count > 1 else { return (0..<count).map(body) }
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
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                slots.buffer[index] = body(index)
            }
        }
        return slots.buffer.map { $0! }
    }
}
