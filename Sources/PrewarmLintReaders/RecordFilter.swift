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
package protocol RecordFilter: AnyObject, Sendable {
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

    /// What the filter makes of a process name, the same for every record of it: a class of its own, which a decoder
    /// works out once for each name it remembers and hands back with each record of the name
    /// (``admits(processClass:pid:firstLine:)``), so that no record costs a lookup of its name. Nil (the default):
    /// the decoder asks ``admits(process:pid:firstLine:)``.
    func processClass(of process: String) -> RecordFilterProcessClass?

    /// ``admits(process:pid:firstLine:)`` for a record of a process whose class (``processClass(of:)``) is
    /// `processClass`. True by default (a filter without classes is never asked).
    func admits(processClass: RecordFilterProcessClass, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool
}

extension RecordFilter {
    /// None: a filter that keeps state judges no record ahead.
    package func makeAheadFilter() -> (any AheadRecordFilter)? { nil }

    /// Every pid (a filter without an ahead filter is never asked).
    package func admitsLearnt(pid: Int) -> Bool { true }

    /// None: the filter is asked by name.
    package func processClass(of process: String) -> RecordFilterProcessClass? { nil }

    /// Every record (a filter without classes is never asked).
    package func admits(processClass: RecordFilterProcessClass, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool { true }
}

/// A record filter's class of a process name (``RecordFilter/processClass(of:)``, ``AheadRecordFilter/judgingClass(of:)``):
/// what the filter makes of the name, the same for every record of it. Opaque to a decoder, which remembers it with the
/// name (`ProcessNameTable`).
package struct RecordFilterProcessClass: Sendable, Hashable {
    /// The filter's own code.
    package let rawValue: UInt8

    /// The class of code `rawValue`.
    package init(rawValue: UInt8) { self.rawValue = rawValue }
}

/// A ``RecordFilter``'s judge for a thread that reads ahead of the consumer: what can be said of a record without the
/// consumer's state. Made by ``RecordFilter/makeAheadFilter()`` for one thread, which alone asks it.
package protocol AheadRecordFilter: AnyObject, Sendable {
    /// The filter's answer for the record, as far as it holds whatever the consumer learns first (the arguments are
    /// ``RecordFilter/admits(process:pid:firstLine:)``'s).
    func judge(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> AheadJudgement

    /// What the ahead filter makes of a process name, as ``RecordFilter/processClass(of:)`` (named apart, so that one
    /// class may be both filters, each with its default). Nil (the default): it is asked by name.
    func judgingClass(of process: String) -> RecordFilterProcessClass?

    /// ``judge(process:pid:firstLine:)`` for a record of a process whose class (``judgingClass(of:)``) is
    /// `judgingClass`. Admitted by default (an ahead filter without classes is never asked).
    func judge(judgingClass: RecordFilterProcessClass, pid: Int?, firstLine: UnsafeRawBufferPointer) -> AheadJudgement
}

extension AheadRecordFilter {
    /// None: the ahead filter is asked by name.
    package func judgingClass(of process: String) -> RecordFilterProcessClass? { nil }

    /// Admitted (an ahead filter without classes is never asked).
    package func judge(judgingClass: RecordFilterProcessClass, pid: Int?, firstLine: UnsafeRawBufferPointer) -> AheadJudgement {
        .admitted
    }
}

/// What an ``AheadRecordFilter`` says of a record.
package enum AheadJudgement: Sendable, Equatable {
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

    /// The filter's class of `process` (``RecordFilter/processClass(of:)``); nil without a filter or classes.
    func processClass(of process: String) -> RecordFilterProcessClass? {
        filter?.processClass(of: process)
    }

    /// Whether the filter refuses the record of a process of class `processClass` (never without a filter).
    func refuses(processClass: RecordFilterProcessClass, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        guard let filter else { return false }
        return !filter.admits(processClass: processClass, pid: pid, firstLine: firstLine)
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
