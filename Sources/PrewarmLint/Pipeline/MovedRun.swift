/// Elements put in at one end and moved out at the other, each once, in order: a batch handed from one thread to
/// another without copying its elements.
///
/// An array cannot give up an element without copying it (retaining each of its strings, then releasing them) unless
/// it is taken from the end; reversing the array first, to take the elements from the end, copied each of them once
/// more. Here an element is moved in by ``append(_:)`` and moved out by ``takeFirst()``; what is never taken is
/// destroyed with the run. One thread owns a run at a time (it is handed over through a ``BatchQueue``).
final class MovedRun<Element>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    /// The room for elements.
    let capacity: Int
    /// Elements put in.
    private(set) var count = 0
    /// Elements moved out (the first `taken` of them).
    private(set) var taken = 0

    /// A run with room for `capacity` elements.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        (storage + taken).deinitialize(count: count - taken)
        storage.deallocate()
    }

    /// Whether the run is full.
    var isFull: Bool { count == capacity }
    /// Whether nothing is left to take.
    var isExhausted: Bool { taken == count }

    /// Moves `element` in at the end; the run must not be full.
    func append(_ element: consuming Element) {
        precondition(count < capacity, "MovedRun: full")
        (storage + count).initialize(to: element)
        count += 1
    }

    /// What `read` says of the first element not yet taken, read in place; nil when all have been taken.
    func peekFirst<Result>(_ read: (borrowing Element) -> Result) -> Result? {
        guard taken < count else { return nil }
        return read((storage + taken).pointee)
    }

    /// Moves the first element not yet taken out, or nil when all have been.
    func takeFirst() -> Element? {
        guard taken < count else { return nil }
        taken += 1
        return (storage + taken - 1).move()
    }
}
