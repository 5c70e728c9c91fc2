import PrewarmLintModel

/// Reads any line-oriented text format: frames lines, asks the format's grammar which lines
/// start records, and joins continuation lines into multi-line messages.
///
/// Continuation lines are every line that does not start a record: RunningBoard assertion
/// descriptors and job descriptions span dozens of lines, indented with tabs or spaces or not
/// at all. Lines before the first record become one `orphan-lines` diagnostic. A record is
/// emitted when the next one starts, or at the end of input, so the output lags one record
/// behind the input.
struct TextLogDecoder: LineFramedDecoder {
    let format: LogFormat
    var statistics = DecoderStatistics()

    var grammar: TextGrammar
    var framer: LineFramer
    var resolver: TimestampResolver
    let configuration: ReaderConfiguration
    /// The configured line limit, at most half of what a record head can describe (a hard-wrapped
    /// head is joined from two lines).
    let maximumLineLength: Int

    /// What the record being read is: the decoder's state between lines.
    enum OpenRecord: UInt8 {
        /// None (before the first record, or after an exporter's line).
        case none
        /// Built, in `pending`.
        case built
        /// Its head could not be used (an impossible time); the diagnostic is in `discarded`.
        case discarded
        /// Of a skipped process: its lines are counted, nothing else.
        case skipped
        /// Refused by the caller on its first line and kept as bytes, in `held` (``HeldTextRecord``): skipped at its
        /// end, unless further lines came and the caller takes the whole message (or a line it cannot be shown
        /// came: then it is built at once).
        case held
    }
    var open = OpenRecord.none

    /// The head the grammar writes each record's first line into.
    var head = TextRecordHead.placeholder
    /// The record being built (``PendingTextRecord``).
    var pending = PendingTextRecord()
    /// A record whose head could not be used: its continuation lines are counted against it.
    var discarded: ReaderDiagnostic?
    /// The record refused on its first line, kept as bytes (``HeldTextRecord``).
    var held = HeldTextRecord()
    /// The chunk ``decode(_:offers:emit:)`` is decoding: a held first line inside it may stay there until it returns.
    var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    var incompleteHead: (bytes: [UInt8], number: Int, offset: Int)?
    var orphans: (number: Int, offset: Int, count: Int)?
    var interner = StringInterner()
    var processNames = ProcessNameTable()
    var skipping: RecordSkipping
    /// Whether what the grammar guessed (``TextGrammar/guessNote``) was said: once, at the first record.
    var guessSaid = false
    /// For columns separated by spaces (a Console copy whose tabs were lost), the process names holding a space that
    /// the input's messages show (securityd's `Ledger Pro[2231]/1#4 …`): a head whose process word and the words after
    /// it spell one is read with that whole name. Nil for every other input.
    var spacedNames: SpacedProcessNames?
    /// In an Xcode console, dyld's launch statistics (``PreMainStatistics``), printed before each run's first line: its
    /// lines are no record's, and the record after a block names the launch it is about. Nil for every other format.
    var preMain: PreMainStatisticsReader?

    /// Whether a record is open, so that a line that starts none continues it.
    var inRecord: Bool { open != .none }

    init(grammar: TextGrammar, configuration: ReaderConfiguration) {
        self.grammar = grammar
        self.format = grammar.format
        self.configuration = configuration
        self.skipping = RecordSkipping(configuration)
        // A joined hard-wrapped head is two lines long: both must fit a head's offsets.
        self.maximumLineLength = min(configuration.limits.maximumLineLength, TextRecordHead.maximumLineLength / 2)
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
        self.resolver = TimestampResolver(inference: configuration.timeInference)
        if grammar.format == .xcodeConsole { preMain = PreMainStatisticsReader(inputName: configuration.inputName) }
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        chunk = bytes
        defer {
            // The chunk goes back to the reader: a held first line still in it is copied now.
            held.keepFirstLine()
            chunk = UnsafeRawBufferPointer(start: nil, count: 0)
        }
        // (A table that starts at the chunk's start is only for a framer at a line's start, as the judge saw it.)
        if let prescan = configuration.prescan, let table = prescan.lineTable(at: framer.consumedBytes, count: bytes.count) {
            let judged = table.firstLineStart > 0 || framer.isAtLineStart
            if judged { decodeJudged(bytes, table: table, offers: offers, emit: emit) }
            // Its storage goes back to the judge, to be filled again.
            prescan.giveBack(table)
            if judged { return }
        }
        feedLines(bytes, offers: offers, emit: emit)
    }

    mutating func decodeLast(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        finishLines(offers: offers, emit: emit)
        if let head = incompleteHead {
            incompleteHead = nil
            report(.truncatedInput, .warning, "input ends inside a record head", line: head.number, offset: head.offset, lines: 1, emit: emit)
        }
        flushPending(offers: offers, emit: emit)
        flushOrphans(emit: emit)
        if let ended = preMain?.finish() { emit(.preMainStatistics(ended)) }
    }

    /// The open record ends at a pause, when the input paused at a line's end: its further lines, if any, have come.
    /// (A head cut in two by a hard wrap waits for its second line.)
    var openRecordLooksUnfinished: Bool {
        switch open {
        case .built: pending.looksUnfinished
        case .held: held.looksUnfinished
        case .none, .discarded, .skipped: false
        }
    }

    /// Whether `text` opens more `<`, `[` or `{` than it closes, or holds an odd number of `"`.
    static func leavesOpen(_ text: some Sequence<UInt8>) -> Bool {
        var angles = 0, squares = 0, braces = 0, quotes = 0
        for byte in text {
            switch byte {
            case UInt8(ascii: "<"): angles += 1
            case UInt8(ascii: ">"): angles -= 1
            case UInt8(ascii: "["): squares += 1
            case UInt8(ascii: "]"): squares -= 1
            case UInt8(ascii: "{"): braces += 1
            case UInt8(ascii: "}"): braces -= 1
            case UInt8(ascii: "\""): quotes += 1
            default: continue
            }
        }
        return angles > 0 || squares > 0 || braces > 0 || quotes % 2 == 1
    }

    mutating func decodePause(keepsUnfinished: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        if keepsUnfinished, openRecordLooksUnfinished { return }
        guard framer.isAtLineStart, incompleteHead == nil else { return }
        flushPending(offers: offers, emit: emit)
    }

    // MARK: - Lines

    mutating func handle(_ line: ByteLine, truncated: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        statistics.lines += 1
        if truncated {
            report(.lineTooLong, .warning, "line longer than \(maximumLineLength) bytes; the rest of it was skipped",
                   line: line.number, offset: line.byteOffset, lines: 0, emit: emit)
        }
        if let head = incompleteHead {
            incompleteHead = nil
            var joined = head.bytes
            joined.append(.space)
            joined.append(contentsOf: line.bytes)
            let handled = joined.withUnsafeBytes { bytes -> Bool in
                if case .head = grammar.classify(bytes, into: &self.head) {
                    startRecord(in: ByteLine(bytes: bytes, number: head.number, byteOffset: head.offset), lines: 2, offers: offers, emit: emit)
                    return true
                }
                return false
            }
            if handled { return }
            report(.malformedLine, .warning, "record head is cut short and the next line does not complete it",
                   line: head.number, offset: head.offset, lines: 1, emit: emit)
        }

        switch grammar.classify(line.bytes, into: &head) {
        case .head:
            startRecord(in: line, lines: 1, offers: offers, emit: emit)
        case .incompleteHead:
            flushPending(offers: offers, emit: emit)
            flushOrphans(emit: emit)
            incompleteHead = (Array(line.bytes), line.number, line.byteOffset)
        case .skipped(let reason):
            if reason == .blank, preMain?.isOpen == true {
                // A blank line between dyld's summary and details: the block goes on.
                statistics.skip(.blank)
            } else if reason == .blank, inRecord {
                continueRecord(line, emit: emit)
            } else {
                flushPending(offers: offers, emit: emit)
                if reason == .blank, orphans != nil {
                    orphans!.count += 1
                } else {
                    statistics.skip(reason)
                }
            }
        case .other:
            if preMain?.mayTake(line.bytes) == true, takesPreMainStatistics(line, offers: offers, emit: emit) { return }
            if inRecord {
                continueRecord(line, emit: emit)
            } else if orphans == nil {
                orphans = (line.number, line.byteOffset, 1)
            } else {
                orphans!.count += 1
            }
        }
    }

    mutating func continueRecord(_ line: ByteLine, emit: (ReaderOutput) -> Void) {
        switch open {
        case .none: return
        case .discarded:
            discarded!.lineCount += 1
            return
        case .skipped:
            statistics.eventLines += 1
            return
        case .held:
            statistics.eventLines += 1
            if held.holdFurther(line, maximumMessageLength: configuration.limits.maximumMessageLength) { return }
            buildHeld(emit: emit)
        case .built:
            statistics.eventLines += 1
        }
        append(line.bytes, number: line.number, byteOffset: line.byteOffset, emit: emit)
    }

    /// Appends a further line of the record being built to its message (``PendingTextRecord/append(_:maximumMessageLength:)``).
    mutating func append(_ line: UnsafeRawBufferPointer, number: Int, byteOffset: Int, emit: (ReaderOutput) -> Void) {
        let limit = configuration.limits.maximumMessageLength
        if pending.append(line, maximumMessageLength: limit) {
            report(.messageTooLong, .warning, "message longer than \(limit) bytes; later lines of it were not kept",
                   line: number, offset: byteOffset, lines: 0, emit: emit)
        }
    }

    /// Ends the open record, as the next record starts (or the input ends). The usual ends are handled here, in line: no
    /// record, a skipped one, and a held one that ended at its first line (refused, counted, nothing kept) — most lines
    /// of a device's day; the rest in ``flushOpenRecord(emit:)``, so that most lines make no call with a frame for the
    /// event it may emit.
    @inline(__always)
    mutating func flushPending(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        switch open {
        case .none:
            return
        case .skipped:
            open = .none
        case .held where held.furtherLines.isEmpty:
            open = .none
            held.dropFirstLine()  // ended at its first line: nothing of it is kept
            statistics.events += 1
            statistics.eventsSkipped += 1
        default:
            flushOpenRecord(offers: offers, emit: emit)
        }
    }

    mutating func flushOpenRecord(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        let record = open
        open = .none
        switch record {
        case .none, .skipped:
            return
        case .held:
            guard !held.furtherLines.isEmpty, !refusesWholeHeldRecord(offers) else {
                held.dropFirstLine()  // ended at its first line: nothing of it is kept
                statistics.events += 1
                statistics.eventsSkipped += 1
                return
            }
            buildHeld(emit: emit)
            open = .none
        case .discarded:
            let diagnostic = discarded.take()!
            statistics.count(diagnostic)
            emit(.diagnostic(diagnostic))
            return
        case .built:
            break
        }
        guard var event = pending.take() else { return }
        grammar.finish(&event)
        // As in `log show`, a sender image that is the process itself is not repeated.
        if event.senderImage == event.process { event.senderImage = nil }
        if pending.invalidUTF8 {
            report(.invalidUTF8, .warning, "bytes that are not UTF-8 were replaced with U+FFFD",
                   line: event.origin.line, offset: event.origin.byteOffset, lines: 0, emit: emit)
        }
        statistics.events += 1
        emit(.event(event))
    }
}
