import PrewarmLintModel
import PrewarmLintClassifier

/// Puts a nearly time-ordered stream in time order with bounded memory: the one reorder window of the pipeline
/// (a single input's classified events in `SessionStream`, each merged input's events in `SessionPipeline`).
///
/// Elements go in in input order and are inserted by their instant (stable: after those of the same instant
/// already in). When the window holds twice ``size``, its earlier half is handed on at once: every element then
/// had at least `size` later lines in which an earlier-stamped line could still arrive. ``drain(_:)`` hands on the
/// rest at the end of the input.
///
/// The window is bounded in bytes too: once its elements' messages hold more than ``byteBudget``, its earlier half
/// is handed on at once, however few they are. A message may be 4 MiB long, so a thousand such launch lines would hold
/// 4 GiB; ordinary lines (a few hundred bytes) never come near the budget, so their order is as before.
struct ReorderWindow<Element: TimeOrdered>: Sendable where Element: Sendable {
    /// Elements an out-of-order line may be late by.
    let size: Int
    /// The message bytes held before the earlier half is handed on early.
    let byteBudget: Int
    private var storage: Storage
    private var heldBytes = 0

    /// A window of `size`, holding at most about `byteBudget` bytes of messages.
    init(size: Int, byteBudget: Int = ReorderWindowBytes.budget) {
        // At least 1: a window of 0 would never hand anything on, and its storage holds twice its size.
        self.size = max(1, size)
        self.byteBudget = byteBudget
        storage = Storage(capacity: 2 * self.size)
    }

    /// Inserts `element`; when the window is full, hands its earlier half to `release`, one element at a time, in
    /// order, each moved out of the window: not copied (a copy retains each of an event's strings, and the window's
    /// own is then released; on another thread than the one that made them, each of those waits for the other
    /// core's cache).
    @inline(__always)
    mutating func insert(_ element: consuming Element, release: (consuming Element) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let held = storage
        let key = element.orderingInstant
        // Compared in place (an element read out would be a copy of the whole event).
        var index = held.count
        while index > 0, held.element(index - 1).pointee.orderingInstant > key { index -= 1 }
        heldBytes += element.messageBytes
        // Moved in, not copied. (The earlier half leaves at twice the size, so there is always room.)
        precondition(held.count < held.capacity, "ReorderWindow: full")
        // The later elements move up one place (a line out of order: rare), one at a time, as the ring may wrap.
        var place = held.count
        while place > index {
            held.element(place).moveInitialize(from: held.element(place - 1), count: 1)
            place -= 1
        }
        held.element(index).initialize(to: element)
        held.count += 1
        let count: Int
        if held.count >= 2 * size {
            count = size
        } else if heldBytes > byteBudget {
            count = (held.count + 1) / 2
        } else {
            return
        }
        heldBytes -= held.moveOut(count, to: release)
    }

    /// Hands on, in order, the elements stamped before `instant` (each moved out); the later ones stay.
    mutating func release(before instant: Int64, _ release: (consuming Element) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        var count = 0
        while count < storage.count, storage.element(count).pointee.orderingInstant < instant { count += 1 }
        if count > 0 { heldBytes -= storage.moveOut(count, to: release) }
    }

    /// Hands on everything still held, in order, each moved out.
    mutating func drain(_ release: (consuming Element) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        _ = storage.moveOut(storage.count, to: release)
        heldBytes = 0
    }

    /// The window's elements, in order, in a ring of memory of its own: the earlier half leaves from the front without
    /// the later half moving down (moving it down was one more move of every element, a `memmove` of half the
    /// window each time, on the building thread). Shared by copies of the window until one of them changes (copy on
    /// write).
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<Element>
        let capacity: Int
        /// Where the first element is.
        private var first = 0
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit {
            for index in 0..<count { element(index).deinitialize(count: 1) }
            base.deallocate()
        }

        /// The `index`-th element's place (`index` up to `count`, the place after the last).
        @inline(__always) func element(_ index: Int) -> UnsafeMutablePointer<Element> {
            let place = first &+ index
            return base + (place < capacity ? place : place &- capacity)
        }

        /// A storage of its own holding copies of these elements.
        func copy() -> Storage {
            let copy = Storage(capacity: capacity)
            for index in 0..<count { (copy.base + index).initialize(to: element(index).pointee) }
            copy.count = count
            return copy
        }

        /// Moves the first `moved` elements to `release`, in order; returns their message bytes.
        func moveOut(_ moved: Int, to release: (consuming Element) -> Void) -> Int {
            var bytes = 0
            for _ in 0..<moved {
                let front = element(0)
                bytes += front.pointee.messageBytes
                first = first &+ 1 == capacity ? 0 : first &+ 1
                count -= 1
                release(front.move())
            }
            return bytes
        }
    }
}

/// The byte budget of every reorder window of a run.
enum ReorderWindowBytes {
    /// 8 MiB: with the read-ahead queue's few MiB and the builder's kept lines (16 MiB), within the 64 MB a run may take.
    static let budget = 8 << 20
}

/// What a reorder window orders by: the instant of the line; and what it holds of it, in bytes.
protocol TimeOrdered {
    var orderingInstant: Int64 { get }
    /// The bytes of the line's message (what makes one line heavier than another).
    var messageBytes: Int { get }
}

extension LogEvent: TimeOrdered {
    var orderingInstant: Int64 { timestamp.microsecondsSinceEpoch }
    var messageBytes: Int { message.utf8.count }
}

extension ClassifiedEvent: TimeOrdered {
    var orderingInstant: Int64 { event.timestamp.microsecondsSinceEpoch }
    var messageBytes: Int { event.message.utf8.count }
}
