/// A chunk of a text log framed and judged ahead of its decoder (`TextPrescanner`): its complete lines, each with
/// what the decoder may take instead of working it out — that it starts a record of a skipped process, or one the
/// judge refuses (whatever the caller learns, or unless a pid is learnt), with the record's head.
///
/// Public only as an opaque value that a thread judging lines ahead hands to the decoder (``RecordPrescan``).
package struct TextLineTable: Sendable {
    enum Kind: UInt8 {
        /// Decoded as any line.
        case line
        /// Starts a record of a skipped process (`ReaderConfiguration.skippedProcesses`).
        case skippedProcess
        /// Starts a record the judge refuses, unless ``Entry/learntPID`` is learnt; its head is in ``heads``.
        case refused
    }

    /// A line: 24 bytes, since a chunk has thousands.
    struct Entry {
        /// Where the line starts in the chunk, its length without its break, and the break's (1 or 2).
        var start: Int32
        var length: Int32
        var breakLength: UInt8
        var kind: Kind
        /// The pid a refusal depends on; -1: none.
        var learntPID: Int32 = -1
        /// The record's time in ``times`` (a judged line's).
        var time: Int32 = -1
        /// The record's head in ``heads`` (a refused line's).
        var head: Int32 = -1
    }

    /// A judged record's time, and where its text is in the line.
    struct Time {
        var time: PackedTimestamp
        var text: Range<Int32>
    }

    /// Where the first complete line starts in the chunk: after the chunk's first line break, or 0 when the chunk
    /// starts a line.
    private(set) var firstLineStart: Int
    /// Where the last complete line's break ends.
    private(set) var end: Int
    var entries: [Entry] = []
    var times: [Time] = []
    var heads: [TextRecordHead] = []

    init(firstLineStart: Int, end: Int) {
        self.firstLineStart = firstLineStart
        self.end = end
    }

    /// This table emptied for another chunk, its arrays' storage kept: a table is a few hundred kilobytes, and a new one
    /// for each chunk would be fresh pages from the system each time, zeroed on first touch.
    mutating func reuse(firstLineStart: Int, end: Int) {
        self.firstLineStart = firstLineStart
        self.end = end
        entries.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        heads.removeAll(keepingCapacity: true)
    }
}

/// Frames and judges the lines of a chunk of a text log (`log show` in each style, a Console copy, idevicesyslog, …)
/// for a thread reading ahead of its decoder (``LinePrescanner``): the chunk's complete lines, each a start and a
/// length, and for each line that starts a record of a skipped process, or one the judge (``AheadJudge``) refuses, its
/// head. The decoder takes the lines instead of searching for their breaks, and a judged line's head and answer
/// instead of classifying it, naming its process and offering it — most of its work on a line of a device's day — and
/// goes on as it would have: it resolves the time, counts the record, and holds a refused one, so that further lines
/// of it and a caller that takes the whole message are handled as ever (`TextLogDecoder`).
///
/// Made by the decoder once its grammar is settled (`TextGrammar.isSettled`): a line's head then depends on the line
/// alone. A line whose process name is not valid UTF-8 or whose fields are not ASCII is left to the decoder, which
/// reports or builds it; a chunk with a line longer than the decoder's limit is left to it whole (it cuts such a
/// line).
///
/// Unchecked `Sendable`: made on the decoder's thread and then used by the judging thread alone.
struct TextPrescanner: LinePrescanner, @unchecked Sendable {
    private var grammar: TextGrammar
    private var skipping: RecordSkipping
    private let maximumLineLength: Int
    private var head = TextRecordHead.placeholder
    private var processNames = ProcessNameTable()
    /// A table the decoder is done with, to be filled again (``LinePrescanner/reuse(_:)``).
    private var spare: TextLineTable?

    /// A prescanner for a decoder with `grammar` (settled) and `configuration`, whose framer keeps lines of up to
    /// `maximumLineLength` bytes; nil when the grammar is not settled or the configuration offers no record.
    init?(grammar: TextGrammar, configuration: ReaderConfiguration, maximumLineLength: Int) {
        guard grammar.isSettled, configuration.offersRecords else { return nil }
        self.grammar = grammar
        var own = configuration
        own.offersRecords = false
        own.prescan = nil
        own.archiveEntryExtractor = nil
        skipping = RecordSkipping(own)
        self.maximumLineLength = LineFramer(maximumLineLength: maximumLineLength).maximumLineLength
    }

    /// The most lines a chunk's table holds: one per 32 bytes, so that a table is at most three quarters of its chunk.
    static func maximumEntries(_ chunkBytes: Int) -> Int { chunkBytes / 32 + 1 }

    mutating func reuse(_ table: TextLineTable) { spare = table }

    mutating func judge(_ chunk: UnsafeRawBufferPointer, at byteOffset: Int, startsLine: Bool, with judge: AheadJudge) -> ChunkJudgement {
        var judgement = ChunkJudgement()
        guard chunk.count < Int32.max else { return judgement }
        var start = 0
        if !startsLine {
            guard let newline = chunk.firstIndex(of: .newline, from: 0) else { return judgement }
            start = newline + 1
        }
        let end = chunk.lastIndex(of: .newline).map { $0 + 1 } ?? start
        var table: TextLineTable
        if var spare = spare.take() {
            spare.reuse(firstLineStart: start, end: end)
            table = spare
        } else {
            table = TextLineTable(firstLineStart: start, end: end)
        }
        table.entries.reserveCapacity(min(chunk.count / 128, Self.maximumEntries(chunk.count)))
        while start < table.end, let newline = chunk.firstIndex(of: .newline, from: start) {
            var end = newline
            if end > start, chunk[end - 1] == .carriageReturn { end -= 1 }
            // A line the decoder's framer would cut: the chunk is the decoder's to frame. So is a chunk of lines shorter
            // than 32 bytes on average (blank lines, garbage): a table of them would take more memory than the chunk
            // (an entry is 24 bytes), a few chunks ahead.
            guard end - start <= maximumLineLength, table.entries.count < Self.maximumEntries(chunk.count) else { return ChunkJudgement() }
            let line = chunk.slice(start, end)
            var entry = TextLineTable.Entry(start: Int32(start), length: Int32(end - start), breakLength: UInt8(newline + 1 - end),
                                            kind: .line)
            if case .head = grammar.classify(line, into: &head), let kind = self.judge(line, &entry, with: judge) {
                entry.kind = kind
                entry.time = Int32(table.times.count)
                let text = head.timeText
                table.times.append(TextLineTable.Time(time: head.packedTime, text: Int32(text.lowerBound)..<Int32(text.upperBound)))
                if kind == .refused {
                    entry.head = Int32(table.heads.count)
                    table.heads.append(head)
                }
                judgement.judgedBytes += newline + 1 - start
                judgement.judgedLines += 1
            }
            table.entries.append(entry)
            start = newline + 1
        }
        judgement.lines = table
        return judgement
    }

    /// What the decoder would do with the record the line starts (its head in `head`), as far as it holds whatever the
    /// caller learns first: nil when the decoder is to judge it itself.
    private mutating func judge(_ line: UnsafeRawBufferPointer, _ entry: inout TextLineTable.Entry, with judge: AheadJudge) -> TextLineTable.Kind? {
        // As the decoder does: the name's skipping and the judge's note on it are remembered with it.
        let admission: RecordAdmission
        let message = line.slice(head.message.lowerBound, head.message.upperBound)
        if let range = head.process, !range.isEmpty {
            let nameBytes = line.slice(range.lowerBound, range.upperBound)
            var name = processNames.entry(for: nameBytes)
            guard name.isValid else { return nil }
            if processNames.isSkipped(&name, by: { skipping.skips(process: $0) }) { return .skippedProcess }
            guard head.fieldsAreASCII(in: line) else { return nil }
            var offer = RecordOffer(processName: nameBytes, pid: head.pid, message: message, nameNote: name.note)
            admission = judge(&offer)
            processNames.remember(note: offer.nameNote, for: &name)
        } else {
            if skipping.skips(process: "") { return .skippedProcess }
            guard head.fieldsAreASCII(in: line) else { return nil }
            var offer = RecordOffer(processName: UnsafeRawBufferPointer(start: nil, count: 0), pid: head.pid, message: message)
            admission = judge(&offer)
        }
        switch admission {
        case .admitted:
            return nil
        case .refused:
            return .refused
        case .refusedUnlessLearnt(let pid):
            guard let pid = Int32(exactly: pid), pid >= 0 else { return nil }
            entry.learntPID = pid
            return .refused
        }
    }
}
