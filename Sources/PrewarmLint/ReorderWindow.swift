import PrewarmLintModel
import PrewarmLintClassifier

/// Puts a nearly time-ordered stream in time order with bounded memory: the one reorder window of the pipeline
/// (a single input's classified events in `SessionStream`, each merged input's events in `SessionPipeline`).
///
/// Elements go in in input order and are inserted by their instant (stable: after those of the same instant
/// already in). When the window holds twice ``size``, its earlier half is handed on at once: every element then
/// had at least `size` later lines in which an earlier-stamped line could still arrive, and the shift is paid
/// once per half. ``drain(_:)`` hands on the rest at the end of the input.
struct ReorderWindow<Element: TimeOrdered>: Sendable where Element: Sendable {
    /// Elements an out-of-order line may be late by.
    let size: Int
    private var elements: [Element] = []

    /// A window of `size`.
    init(size: Int) {
        self.size = size
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
        // Moved in, not copied (a copy retains and releases each of the event's strings).
        if index == elements.count { elements.append(element) } else { elements.insert(element, at: index) }
        guard elements.count >= 2 * size else { return }
        elements.withUnsafeBufferPointer { held in release(UnsafeBufferPointer(rebasing: held[0..<size])) }
        elements.removeFirst(size)
    }

    /// Hands on everything still held, in order.
    mutating func drain(_ release: (UnsafeBufferPointer<Element>) -> Void) {
        elements.withUnsafeBufferPointer { release($0) }
        elements.removeAll()
    }
}

/// What a reorder window orders by: the instant of the line.
protocol TimeOrdered {
    var orderingInstant: Int64 { get }
}

extension LogEvent: TimeOrdered {
    var orderingInstant: Int64 { timestamp.microsecondsSinceEpoch }
}

extension ClassifiedEvent: TimeOrdered {
    var orderingInstant: Int64 { event.timestamp.microsecondsSinceEpoch }
}
