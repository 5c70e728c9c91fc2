import PrewarmLintModel

/// Lines of an input judged ahead of its decoder, on another thread: what a decoder asks of each line it frames
/// (``ReaderConfiguration/prescan``), on the decoder's own thread.
///
/// Most of a device's ndjson day is records no launch needs: the decoder scans each, finds its process and asks the
/// record filter, which says no. A thread reading a few chunks ahead can find most of those answers without the
/// consumer's state (``RecordFilter/makeAheadFilter()``), so that the decoder only counts such a line. The decoder's
/// output is the same whatever is judged ahead and whatever is not: a line is judged only when the decoder would,
/// after any lines before it, do nothing but count it.
public protocol RecordPrescan: AnyObject, Sendable {
    /// The judgement made of `line` ahead, if one was: the decoder then counts the line and keeps nothing of it.
    /// Nil: the decoder decodes the line itself.
    func skip(_ line: ByteLine) -> PrescannedSkip?
}

/// A line judged ahead: a record the decoder would count and not keep (``NDJSONPrescanner``). 72 bytes: a chunk's
/// judgements are a few thousand.
public struct PrescannedSkip: Sendable {
    /// Where the line starts in the input.
    public let byteOffset: Int
    /// Its first and last eight bytes (the line's own when shorter, zero-filled): with the offset and the length, what
    /// makes sure the decoder's line is the one judged.
    private let head: UInt64
    private let tail: UInt64
    /// The record's written time, which the decoder's resolver passes over as it would have.
    let timestamp: PackedTimestamp
    /// Its length, without the line break.
    private let length: Int32
    /// The pid whose record is refused only while the filter has not learnt it (`AheadJudgement.refusedUnlessLearnt`);
    /// -1: refused (or its process skipped) whatever the filter learns.
    private let learntPID: Int32
    /// Whether ``timestamp`` is passed to the resolver (not for a time in epoch nanoseconds, which is not resolved).
    let resolvesTime: Bool

    /// A line's judgement; nil when it cannot be held (a line or a pid past 2³¹).
    init?(_ line: ByteLine, timestamp: PackedTimestamp?, unlessLearnt: Int?) {
        guard let length = Int32(exactly: line.count) else { return nil }
        if let unlessLearnt {
            guard let pid = Int32(exactly: unlessLearnt), pid >= 0 else { return nil }
            learntPID = pid
        } else {
            learntPID = -1
        }
        byteOffset = line.byteOffset
        self.length = length
        (head, tail) = Self.ends(of: line.bytes)
        self.timestamp = timestamp ?? PackedTimestamp(year: PackedTimestamp.none, month: PackedTimestamp.none, day: PackedTimestamp.none,
                                                      hour: 0, minute: 0, second: 0, microsecond: 0, offset: PackedTimestamp.none)
        resolvesTime = timestamp != nil
    }

    /// The pid whose record is refused only while the filter has not learnt it; nil: refused whatever it learns.
    var unlessLearnt: Int? { learntPID < 0 ? nil : Int(learntPID) }

    /// Whether `line` is the line judged: the same offset, length and ends.
    public func matches(_ line: ByteLine) -> Bool {
        guard line.byteOffset == byteOffset, line.count == Int(length) else { return false }
        let (head, tail) = Self.ends(of: line.bytes)
        return head == self.head && tail == self.tail
    }

    private static func ends(of bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        if bytes.count >= 8 {
            return (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
        var word: UInt64 = 0
        for (index, byte) in bytes.enumerated() { word |= UInt64(byte) << (8 * UInt64(index)) }
        return (word, word)
    }
}

/// Judges the lines of a chunk of an ndjson input (`log show --style ndjson`, pymobiledevice3 json, unifiedlog
/// iterator jsonl) the way its decoder would, for a thread reading ahead of it: each complete line the decoder would
/// only count becomes a ``PrescannedSkip``.
///
/// Chunks are judged independently, at any offset: only the lines that begin and end inside a chunk are judged
/// (the first is judged only when the chunk starts a line), each as the decoder's framer would hand it over (without
/// `\n` and a `\r` before it; a line longer than the decoder's limit is never judged). The decoder's state is not
/// needed: what may depend on it leaves the line unjudged (a year to infer, invalid UTF-8 to report, a filter's
/// answer that follows the consumer — unless it depends only on whether a pid is learnt, which the decoder asks when it
/// reaches the line), and what the decoder's resolver infers of a judged line's time it infers when it passes over it.
///
/// Unchecked `Sendable`: made on the decoder's thread and then used by the judging thread alone.
public struct NDJSONPrescanner: @unchecked Sendable {
    private var decoder: NDJSONLogDecoder
    private let maximumLineLength: Int

    /// A prescanner for `format`'s decoder with `configuration` (the decoder's own), judging with its record filter's
    /// ahead filter (``RecordFilter/makeAheadFilter()``); nil for a format that is not ndjson, or a configuration
    /// without such a filter.
    public init?(format: LogFormat, configuration: ReaderConfiguration) {
        switch format {
        case .logShowNDJSON, .pymobiledevice3JSON, .unifiedLogIterator: break
        default: return nil
        }
        guard let ahead = configuration.recordFilter?.makeAheadFilter() else { return nil }
        var own = configuration
        own.prescan = nil
        own.archiveEntryExtractor = nil
        own.recordFilter = AheadRefusals(ahead)
        decoder = NDJSONLogDecoder(format: format, configuration: own)
        // The decoder's framer keeps this many bytes of a line whole.
        maximumLineLength = LineFramer(maximumLineLength: configuration.limits.maximumRecordLength).maximumLineLength
    }

    /// Judges the complete lines of `chunk`, which starts `byteOffset` bytes into the input (at the start of a line when
    /// `startsLine`), and appends those the decoder would only count to `skips`, in order. Returns how many bytes the
    /// lines judged skippable hold.
    @discardableResult
    public mutating func judge(_ chunk: UnsafeRawBufferPointer, at byteOffset: Int, startsLine: Bool,
                               into skips: inout [PrescannedSkip]) -> Int {
        var start = 0
        var skippedBytes = 0
        if !startsLine {
            guard let newline = chunk.firstIndex(of: .newline, from: 0) else { return 0 }
            start = newline + 1
        }
        while start < chunk.count, let newline = chunk.firstIndex(of: .newline, from: start) {
            var end = newline
            if end > start, chunk[end - 1] == .carriageReturn { end -= 1 }
            if end - start <= maximumLineLength {
                // (The line number is the decoder's to give; nothing judged here depends on it.)
                let line = ByteLine(bytes: chunk.slice(start, end), number: 0, byteOffset: byteOffset + start)
                if let skip = decoder.prescan(line) {
                    skips.append(skip)
                    skippedBytes += newline + 1 - start
                }
            }
            start = newline + 1
        }
        return skippedBytes
    }
}

/// The record filter of a prescanner's own decoder: it asks the ahead filter, refuses what the ahead filter says
/// is refused (whatever is learnt, or unless a pid is learnt), and remembers, for the line being judged, on which
/// pid its refusal depends.
final class AheadRefusals: RecordFilter, @unchecked Sendable {
    private let ahead: any AheadRecordFilter
    /// The pid the last refusal depends on, since ``reset()``.
    private(set) var unlessLearnt: Int?

    init(_ ahead: any AheadRecordFilter) {
        self.ahead = ahead
    }

    func reset() {
        unlessLearnt = nil
    }

    func admits(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        switch ahead.judge(process: process, pid: pid, firstLine: firstLine) {
        case .admitted:
            return true
        case .refused:
            return false
        case .refusedUnlessLearnt(let pid):
            unlessLearnt = pid
            return false
        }
    }
}
