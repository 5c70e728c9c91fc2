import PrewarmLintModel

/// Tells a decoder, before it builds an event, whether the consumer could want a record at all.
///
/// Building an event — decoding its message, interning its fields, handing it on — is most of
/// what reading a text log costs, and most records of a device's log concern no launch. A consumer
/// that knows which records it will drop unread (the session pipeline: lines of processes that are
/// neither a launch daemon nor an app it has learnt of, and name no app) answers here, from bytes.
///
/// The contract: ``admits(process:pid:firstLine:)`` may answer `false` only for a record its consumer
/// would drop without learning anything from it. A decoder asks on the record's first line, right
/// after it has handed on every earlier event, so a filter may follow what the consumer learnt from
/// those. A text decoder keeps a refused record's bytes: when further lines of it follow, it asks
/// again at the record's end with the whole message (first line, `\n`, the further lines) and builds
/// the record if the answer is then yes — or at once, unasked, when a further line cannot be shown
/// (not ASCII, or taking the message past its limit). A JSON reader asks only when the message holds
/// no escape (so the bytes are its text: a multi-line message is always built). Either asks only of
/// a record whose fields would decode without repair, so invalid UTF-8 is reported as before. A
/// refused record is counted (``DecoderStatistics/eventsSkipped``) and its lines accounted for, like
/// a skipped process's.
///
/// A filter is asked on the thread that reads its input and is given to one input's decoder only;
/// it may keep state that the consumer updates on that same thread.
public protocol RecordFilter: AnyObject, Sendable {
    /// Whether the record of `process` (pid `pid`, when the format prints one) whose message starts
    /// with `firstLine` (the message's bytes on the record's first line, undecoded; or its whole
    /// message, when asked again at its end) may be wanted. `firstLine` may hold more than the message:
    /// `log show`'s text styles put the `(image) [subsystem:category]` prefixes before it (read only for
    /// a record that is built), pymobiledevice3 its labels after it: a `false` must hold whatever
    /// surrounds the message there.
    func admits(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool

    /// A filter for a thread that reads ahead of the consumer (``RecordPrescan``): it needs none of the consumer's
    /// state, and answers what holds whatever the consumer learns before the record is reached. Nil (the default):
    /// records are never judged ahead.
    func makeAheadFilter() -> (any AheadRecordFilter)?

    /// The rest of an ahead filter's ``AheadJudgement/refusedUnlessLearnt(pid:)``, asked when the record is reached
    /// (where ``admits(process:pid:firstLine:)`` would be): whether the consumer has learnt what makes a record of
    /// `pid` wanted. True by default.
    func admitsLearnt(pid: Int) -> Bool
}

extension RecordFilter {
    /// None: a filter that keeps state judges no record ahead.
    public func makeAheadFilter() -> (any AheadRecordFilter)? { nil }

    /// Every pid (a filter without an ahead filter is never asked).
    public func admitsLearnt(pid: Int) -> Bool { true }
}

/// A ``RecordFilter``'s judge for a thread that reads ahead of the consumer: what can be said of a record without the
/// consumer's state. Made by ``RecordFilter/makeAheadFilter()`` for one thread, which alone asks it.
public protocol AheadRecordFilter: AnyObject, Sendable {
    /// The filter's answer for the record, as far as it holds whatever the consumer learns first (the arguments are
    /// ``RecordFilter/admits(process:pid:firstLine:)``'s).
    func judge(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> AheadJudgement
}

/// What an ``AheadRecordFilter`` says of a record.
public enum AheadJudgement: Sendable, Equatable {
    /// The filter would admit it, or might: the decoder judges the record itself.
    case admitted
    /// The filter would refuse it whatever the consumer learns.
    case refused
    /// The filter would refuse it unless, when it is reached, ``RecordFilter/admitsLearnt(pid:)`` says yes for `pid`.
    case refusedUnlessLearnt(pid: Int)
}

/// What a decoder may leave unbuilt: the records of ``ReaderConfiguration/skippedProcesses`` (whole,
/// continuation lines included) and those the ``ReaderConfiguration/recordFilter`` refuses. One per
/// decoder: it remembers the answer for the process names seen lately.
struct RecordSkipping {
    private let skippedProcesses: Set<String>
    private let filter: (any RecordFilter)?
    /// Whether there is a filter to ask.
    let filters: Bool
    private var skippedNames = ProcessNameCache<Bool>()

    /// `filtering: false` for a decoder that holds events back before emitting them (the XML
    /// collectors emit after each parse call): the filter may only be asked once every earlier event
    /// has been handed on.
    init(_ configuration: ReaderConfiguration, filtering: Bool = true) {
        skippedProcesses = configuration.skippedProcesses
        filter = filtering ? configuration.recordFilter : nil
        filters = filter != nil
    }

    /// Whether `process` is one of the skipped processes.
    mutating func skips(process: String) -> Bool {
        if skippedProcesses.isEmpty { return false }
        if let skipped = skippedNames.value(for: process) { return skipped }
        let skipped = skippedProcesses.contains(process)
        skippedNames.remember(skipped, for: process)
        return skipped
    }

    /// Whether the filter refuses the record (never without a filter).
    func refuses(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        guard let filter else { return false }
        return !filter.admits(process: process, pid: pid, firstLine: firstLine)
    }

    /// Whether the filter has learnt `pid` (``RecordFilter/admitsLearnt(pid:)``); every pid without a filter.
    func admitsLearnt(pid: Int) -> Bool {
        filter?.admitsLearnt(pid: pid) ?? true
    }

    /// Whether a record judged ahead as refused (``PrescannedSkip``) is refused now: unconditionally, or unless the
    /// filter has learnt its pid. Never without a filter.
    func refuses(_ skipped: PrescannedSkip) -> Bool {
        guard let filter else { return false }
        guard let pid = skipped.unlessLearnt else { return true }
        return !filter.admitsLearnt(pid: pid)
    }
}
