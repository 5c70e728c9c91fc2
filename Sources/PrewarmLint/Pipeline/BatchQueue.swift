import Dispatch
import Synchronization

/// A bounded queue of batches between one producing thread and one consuming thread: the producer waits while
/// it is full, the consumer while it is empty; `nil` ends it. Two semaphores and a lock, as in any textbook.
///
/// Used between each merged input's reading thread and the merge, and between a single input's read-ahead thread
/// and the session builder (`SessionPipeline`). Memory holds at most `capacity` batches.
final class BatchQueue<Batch: Sendable>: Sendable {
    private let spaces: DispatchSemaphore
    private let items = DispatchSemaphore(value: 0)
    private let batches = Mutex<[Batch?]>([])

    /// A queue of at most `capacity` batches.
    init(capacity: Int) {
        spaces = DispatchSemaphore(value: capacity)
    }

    /// Adds a batch (nil: the end), waiting for room.
    func push(_ batch: Batch?) {
        spaces.wait()
        batches.withLock { $0.append(batch) }
        items.signal()
    }

    /// The next batch (nil: the end), waiting for one.
    func pop() -> Batch? {
        items.wait()
        let batch = batches.withLock { $0.removeFirst() }
        spaces.signal()
        return batch
    }
}
