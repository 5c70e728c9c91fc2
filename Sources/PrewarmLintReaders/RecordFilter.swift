/// Tells a decoder, before it builds an event, whether the consumer could want a record at all.
///
/// Building an event — decoding its message, interning its fields, handing it on — is most of
/// what reading a text log costs, and most records of a device's log concern no launch. A consumer
/// that knows which records it will drop unread (the session pipeline: lines of processes that are
/// neither a launch daemon nor an app it has learnt of, and name no app) answers here, from bytes.
///
/// The contract: ``admits(process:pid:firstLine:)`` may answer `false` only for a record its consumer
/// would drop without learning anything from it. A decoder asks once per record, on the record's
/// first line, right after it has handed on every earlier event, so a filter may follow what the
/// consumer learnt from those; and since it saw the first line only, a decoder builds a refused
/// record anyway when further lines of it follow. A refused record is counted
/// (``DecoderStatistics/eventsSkipped``) and its lines accounted for, like a skipped process's.
///
/// A filter is asked on the thread that reads its input and is given to one input's decoder only;
/// it may keep state that the consumer updates on that same thread.
public protocol RecordFilter: AnyObject, Sendable {
    /// Whether the record of `process` (pid `pid`, when the format prints one) whose message starts
    /// with `firstLine` (the message's bytes on the record's first line, undecoded) may be wanted.
    func admits(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool
}
