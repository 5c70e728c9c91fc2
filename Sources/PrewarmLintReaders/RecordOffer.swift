import PrewarmLintModel

/// A record's head, offered by its decoder to the decoder's caller before an event is built of it
/// (``ReaderConfiguration/offersRecords``): the caller answers whether it wants the record (``RecordOffers``).
///
/// Building an event — decoding its message, interning its fields, handing it on — is most of what reading a text log
/// costs, and most records of a device's log concern no launch. The decoder knows nothing of what its caller wants: it
/// offers each record it can show from bytes and builds those the caller takes. A caller may answer no only for a
/// record it would drop without learning anything from it (the session pipeline asks its gate, `LaunchLineGate`).
///
/// When the offer is made: a text decoder offers a record on its first line, right after it has handed on every
/// earlier event, so the caller's answer may follow what it learnt from those. A refused record's bytes are kept: when
/// further lines of it follow, it is offered again at its end with the whole message (first line, `\n`, the further
/// lines) and built if the answer is then yes — or at once, unoffered, when a further line cannot be shown (not ASCII,
/// or taking the message past its limit). A JSON reader offers a record only when its message holds no escape (so the
/// bytes are its text: a multi-line message is always built). Only a record whose fields would decode without repair
/// is offered, so invalid UTF-8 is reported as before. A refused record is counted
/// (``DecoderStatistics/eventsSkipped``) and its lines accounted for, like a skipped process's.
package struct RecordOffer {
    /// The process's name, undecoded (empty: the record names none).
    package let processName: UnsafeRawBufferPointer
    /// The pid, when the format prints one.
    package let pid: Int?
    /// The bytes of the message's first line, undecoded — or the whole message, when offered at the record's end. It
    /// may hold more than the message: `log show`'s text styles put the `(image) [subsystem:category]` prefixes before
    /// it, pymobiledevice3 its labels after it. A refusal must hold whatever surrounds the message there.
    package let message: UnsafeRawBufferPointer
    /// What a thread reading ahead said of the record, when the rest was left to the caller: refused unless the
    /// caller has learnt this pid by now. Nil: not judged ahead.
    package let unlessLearnt: Int?
    /// The caller's note on the process name, for the caller alone: a decoder that remembers names keeps it with the
    /// name and hands it back with every record of that name, so that the caller works out what a name means once.
    /// 0 until the caller sets one (and always 0 from a decoder that does not remember names).
    package var nameNote: UInt8

    package init(processName: UnsafeRawBufferPointer, pid: Int?, message: UnsafeRawBufferPointer,
                 unlessLearnt: Int? = nil, nameNote: UInt8 = 0) {
        self.processName = processName
        self.pid = pid
        self.message = message
        self.unlessLearnt = unlessLearnt
        self.nameNote = nameNote
    }
}

extension RecordOffer {
    /// The offer of a record judged ahead as refused unless the caller has learnt `pid`: that question alone, no name
    /// or message.
    static func askingLearnt(_ pid: Int) -> RecordOffer {
        let nothing = UnsafeRawBufferPointer(start: nil, count: 0)
        return RecordOffer(processName: nothing, pid: pid, message: nothing, unlessLearnt: pid)
    }
}

/// The caller's answer to each offered record: true to have it built.
package typealias RecordOffers = (inout RecordOffer) -> Bool

/// What a judge on a thread reading ahead of the decoder says of an offered record (``AheadJudge``): only what holds
/// whatever the decoder's caller learns before the record is reached.
package enum RecordAdmission: Sendable, Equatable {
    /// It may be wanted: the decoder offers it to its caller as any other record.
    case admitted
    /// It cannot be wanted, whatever the caller learns.
    case refused
    /// It cannot be wanted unless the caller holds an app for `pid` when the record is reached.
    case refusedUnlessLearnt(pid: Int)
}

/// A judge for a thread reading ahead of the decoder (``LinePrescanner``), given each record's head as an offer.
package typealias AheadJudge = (inout RecordOffer) -> RecordAdmission

/// A caller that takes every record offered (a decoder read without offers is never asked).
@inline(__always) package func takesEveryRecord(_ offer: inout RecordOffer) -> Bool { true }

/// What a decoder may leave unbuilt: the records of ``ReaderConfiguration/skippedProcesses`` (whole, continuation lines
/// included). One per decoder: it remembers the answer for the process names seen lately. Whether records are offered
/// at all (``ReaderConfiguration/offersRecords``) is said here too.
struct RecordSkipping {
    private let skippedProcesses: Set<String>
    /// Whether records are offered to the caller before they are built.
    let offers: Bool
    private var skippedNames = ProcessNameCache<Bool>()

    /// `offering: false` for a decoder that holds events back before emitting them (the XML collectors emit after each
    /// parse call): a record may only be offered once every earlier event has been handed on.
    init(_ configuration: ReaderConfiguration, offering: Bool = true) {
        skippedProcesses = configuration.skippedProcesses
        offers = offering && configuration.offersRecords
    }

    /// Whether `process` is one of the skipped processes.
    mutating func skips(process: String) -> Bool {
        if skippedProcesses.isEmpty { return false }
        if let skipped = skippedNames.value(for: process) { return skipped }
        let skipped = skippedProcesses.contains(process)
        skippedNames.remember(skipped, for: process)
        return skipped
    }
}
