import Synchronization

/// A flag a signal handler can raise (Ctrl-C) and readers check between chunks: reading stops, and
/// what was read so far becomes a report marked partial. Lock-free, so safe to raise from a signal
/// handler; shared by reference, so one flag reaches every reader of a run.
public final class Interruption: Sendable {
    private let raised = Atomic<Bool>(false)
    /// A flag whose raising raises this one too (the run's Ctrl-C, for a flag that stops one part of it).
    private let parent: Interruption?

    /// A flag not raised yet.
    public init() { parent = nil }

    /// A flag not raised yet, also raised whenever `parent` is: it stops what `parent` stops, and can stop less.
    public init(parent: Interruption?) { self.parent = parent }

    /// Asks every reader using this flag to stop at its next chunk.
    public func raise() { raised.store(true, ordering: .relaxed) }

    /// Whether ``raise()`` was called.
    public var isRaised: Bool { raised.load(ordering: .relaxed) || parent?.isRaised == true }
}
