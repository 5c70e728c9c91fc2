import PrewarmLintModel
import PrewarmLintClassifier

/// Puts a nearly time-ordered stream in time order with bounded memory: the one reorder window of the pipeline
/// (a single input's classified events in `SessionStream`, each merged input's events in `SessionPipeline`).
///
/// Elements go in in input order and are inserted by their instant (stable: after those of the same instant
/// already in). When the window holds twice ``size``, its earlier half is handed on at once: every element then
/// had at least `size` later lines in which an earlier-stamped line could still arrive, and the shift is paid
/// once per half. ``drain(_:)`` hands on the rest at the end of the input.
///
/// The window is bounded in bytes too: once its elements' messages hold more than ``byteBudget``, its earlier half
/// is handed on at once, however few they are. A message may be 4 MiB long, and a thousand such launch lines held
/// here were 4 GiB; ordinary lines (a few hundred bytes) never come near the budget, so their order is as before.
struct ReorderWindow<Element: TimeOrdered>: Sendable where Element: Sendable {
    /// Elements an out-of-order line may be late by.
    let size: Int
    /// The message bytes held before the earlier half is handed on early.
    let byteBudget: Int
    private var elements: [Element] = []
    private var heldBytes = 0

    /// A window of `size`, holding at most about `byteBudget` bytes of messages.
    init(size: Int, byteBudget: Int = ReorderWindowBytes.budget) {
        self.size = size
        self.byteBudget = byteBudget
        elements.reserveCapacity(2 * size)
    }

    /// Inserts `element`; when the window is full, hands its earlier half to `release` (in place, not copied).
    @inline(__always)
    mutating func insert(_ element: consuming Element, release: (UnsafeBufferPointer<Element>) -> Void) {
        let key = element.orderingInstant
        // Compared in place (an element read out of the array would be a copy of the whole event).
        let index = elements.withUnsafeBufferPointer { held in
            var index = held.count
            while index > 0, held.baseAddress.unsafelyUnwrapped[index - 1].orderingInstant > key { index -= 1 }
            return index
        }
        heldBytes += element.messageBytes
        // Moved in, not copied (a copy retains and releases each of the event's strings).
        if index == elements.count { elements.append(element) } else { elements.insert(element, at: index) }
        let count: Int
        if elements.count >= 2 * size {
            count = size
        } else if heldBytes > byteBudget {
            count = (elements.count + 1) / 2
        } else {
            return
        }
        elements.withUnsafeBufferPointer { held in
            for index in 0..<count { heldBytes -= held.baseAddress.unsafelyUnwrapped[index].messageBytes }
            release(UnsafeBufferPointer(rebasing: held[0..<count]))
        }
        elements.removeFirst(count)
    }

    /// Hands on everything still held, in order.
    mutating func drain(_ release: (UnsafeBufferPointer<Element>) -> Void) {
        elements.withUnsafeBufferPointer { release($0) }
        elements.removeAll()
        heldBytes = 0
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
