import PrewarmLintModel

/// Lines of an input judged ahead of its decoder, on another thread: what a decoder asks of each line it frames
/// (``ReaderConfiguration/prescan``), on the decoder's own thread.
///
/// Most of a device's day is records no launch needs: the decoder frames each line, finds its process and offers the
/// record to its caller, which says no. A thread reading a few chunks ahead can find most of those answers without the
/// caller's state (an ``AheadJudge``): an ndjson decoder then only counts such a record, a text decoder takes a chunk's
/// lines from a table and a judged head's answer instead of working them out. The decoder's output is the same
/// whatever is judged ahead and whatever is not: a line is judged only as far as nothing before it can change what the
/// decoder does with it.
package protocol RecordPrescan: AnyObject, Sendable {
    /// The judgement made of `line` ahead, if one was: the decoder then counts the line and keeps nothing of it.
    /// Nil: the decoder decodes the line itself.
    func skip(_ line: ByteLine) -> PrescannedSkip?

    /// The lines of the chunk of `count` bytes at `byteOffset` of the input, framed and judged ahead (a text decoder
    /// takes them instead of framing the chunk); nil: the decoder frames and judges the chunk itself.
    func lineTable(at byteOffset: Int, count: Int) -> TextLineTable?

    /// A table ``lineTable(at:count:)`` gave, which the decoder is done with: its storage may be filled again.
    func giveBack(_ table: consuming TextLineTable)
}

extension RecordPrescan {
    /// Drops the table.
    package func giveBack(_ table: consuming TextLineTable) {}
}

/// Judges the lines of chunks of an input, anywhere in it, the way its decoder would (``LogDecoder/makePrescanner()``):
/// for a thread reading ahead of the decoder (``RecordPrescan``).
package protocol LinePrescanner: Sendable {
    /// Judges the complete lines of `chunk`, which starts `byteOffset` bytes into the input (at the start of a line
    /// when `startsLine`), each record's head offered to `judge`.
    mutating func judge(_ chunk: UnsafeRawBufferPointer, at byteOffset: Int, startsLine: Bool, with judge: AheadJudge) -> ChunkJudgement

    /// A table this prescanner made and the decoder is done with, to fill again for the next chunk judged instead of
    /// a new one.
    mutating func reuse(_ table: TextLineTable)
}

extension LinePrescanner {
    /// Drops the table.
    package mutating func reuse(_ table: TextLineTable) {}
}

/// What a ``LinePrescanner`` found in a chunk.
package struct ChunkJudgement: Sendable {
    /// The records the decoder would only count, in order (ndjson).
    package var skips: [PrescannedSkip] = []
    /// The chunk's lines, framed and judged (text).
    package var lines: TextLineTable?
    /// How many bytes the lines judged hold: whether judging the input ahead pays.
    package var judgedBytes = 0
    /// How many lines were judged.
    package var judgedLines = 0

    /// Nothing judged.
    package init() {}
}

extension LinePrescanner {
    /// Each line of `chunk` that begins and ends in it (the first only when `startsLine`), as the decoder's framer hands
    /// it over (without `\n` and a `\r` before it), lines longer than `maximumLineLength` left out.
    static func forEachLine(in chunk: UnsafeRawBufferPointer, at byteOffset: Int, startsLine: Bool, maximumLineLength: Int,
                            _ body: (ByteLine, _ bytesWithBreak: Int) -> Void) {
        var start = 0
        if !startsLine {
            guard let newline = chunk.firstIndex(of: .newline, from: 0) else { return }
            start = newline + 1
        }
        while start < chunk.count, let newline = chunk.firstIndex(of: .newline, from: start) {
            var end = newline
            if end > start, chunk[end - 1] == .carriageReturn { end -= 1 }
            if end - start <= maximumLineLength {
                // (The line number is the decoder's to give; nothing judged here depends on it.)
                body(ByteLine(bytes: chunk.slice(start, end), number: 0, byteOffset: byteOffset + start), newline + 1 - start)
            }
            start = newline + 1
        }
    }
}

/// A line judged ahead (``LinePrescanner``): a record the decoder would count and not keep.
package struct PrescannedSkip: Sendable {
    /// Where the line starts in the input.
    package let byteOffset: Int
    /// Its first and last eight bytes (the line's own when shorter, zero-filled): with the offset and the length, what
    /// makes sure the decoder's line is the one judged.
    private let head: UInt64
    private let tail: UInt64
    /// The record's written time, which the decoder's resolver passes over as it would have.
    let timestamp: PackedTimestamp
    /// Its length, without the line break.
    private let length: Int32
    /// The pid whose record is refused only while the caller has not learnt it (`RecordAdmission.refusedUnlessLearnt`);
    /// -1: refused (or its process skipped) whatever the caller learns.
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

    /// The pid whose record is refused only while the caller has not learnt it; nil: refused whatever it learns.
    var unlessLearnt: Int? { learntPID < 0 ? nil : Int(learntPID) }

    /// Whether the record is refused now: whatever the caller learnt, or unless it has learnt the pid, which is then
    /// offered to it (an offer that holds that question alone: ``RecordOffer/unlessLearnt``).
    func isRefused(offers: RecordOffers) -> Bool {
        guard let pid = unlessLearnt else { return true }
        var offer = RecordOffer.askingLearnt(pid)
        return !offers(&offer)
    }

    /// Whether `line` is the line judged: the same offset, length and ends.
    package func matches(_ line: ByteLine) -> Bool {
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
