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
    private(set) var statistics = DecoderStatistics()

    private var grammar: TextGrammar
    var framer: LineFramer
    private var resolver: TimestampResolver
    private let configuration: ReaderConfiguration
    /// The configured line limit, at most half of what a record head can describe (a hard-wrapped
    /// head is joined from two lines).
    private let maximumLineLength: Int

    /// What the record being read is: the decoder's state between lines.
    private enum OpenRecord: UInt8 {
        /// None (before the first record, or after an exporter's line).
        case none
        /// Built, in `pending`.
        case built
        /// Its head could not be used (an impossible time); the diagnostic is in `discarded`.
        case discarded
        /// Of a skipped process: its lines are counted, nothing else.
        case skipped
        /// Refused by the caller on its first line and kept as bytes, in `held` and `heldBytes`: skipped at its
        /// end, unless further lines came and the caller takes the whole message (or a line it cannot be shown
        /// came: then it is built at once).
        case held
    }
    private var open = OpenRecord.none

    /// The head the grammar writes each record's first line into.
    private var head = TextRecordHead.placeholder
    private var pending: LogEvent?
    private var pendingMessageBytes = 0
    private var pendingAwaitsPrefixes = false
    private var pendingMessageCut = false
    private var pendingInvalidUTF8 = false
    /// A record whose head could not be used: its continuation lines are counted against it.
    private var discarded: ReaderDiagnostic?
    /// The held record: no strings, since most records of a device's log are held and dropped.
    private var held = HeldRecord(head: .placeholder, time: nil, line: 0, byteOffset: 0, firstLineCount: 0, messageBytes: 0)
    /// The held record's first line, then each further line after a `\n`, as they came (once `heldInChunk` is copied).
    private var heldBytes = ReusedBytes()
    /// The held record's first line while it is still in the chunk being decoded, not yet copied into `heldBytes`: most
    /// held records end at the next line, with nothing more to keep, and copying each first line was a tenth of decoding
    /// a device's day. Copied before the chunk is given back (the end of ``decode(_:offers:emit:)``) or a further line comes.
    private var heldInChunk: UnsafeRawBufferPointer?
    /// The chunk ``decode(_:offers:emit:)`` is decoding: a held first line inside it may stay there until it returns.
    private var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Where each further line of the held record is in `heldBytes`, and in the input.
    private var heldFurtherLines: [(range: Range<Int>, number: Int, byteOffset: Int)] = []
    /// The most further lines a held record keeps before it is built (runningboardd's longest descriptors
    /// run to a few dozen).
    static let maximumHeldLines = 1024
    private var incompleteHead: (bytes: [UInt8], number: Int, offset: Int)?
    private var orphans: (number: Int, offset: Int, count: Int)?
    private var interner = StringInterner()
    private var processNames = ProcessNameTable()
    private var skipping: RecordSkipping
    /// Whether what the grammar guessed (``TextGrammar/guessNote``) was said: once, at the first record.
    private var guessSaid = false
    /// For columns separated by spaces (a Console copy whose tabs were lost), the process names holding a space that
    /// the input's messages show (securityd's `Ledger Pro[2231]/1#4 …`): a head whose process word and the words after
    /// it spell one is read with that whole name. Nil for every other input.
    private var spacedNames: SpacedProcessNames?
    /// In an Xcode console, dyld's launch statistics (``PreMainStatistics``), printed before each run's first line: its
    /// lines are no record's, and the record after a block names the launch it is about. Nil for every other format.
    private var preMain: PreMainStatisticsReader?

    private struct HeldRecord {
        var head: TextRecordHead
        var time: TimestampResolver.ResolvedTime?
        var line: Int
        var byteOffset: Int
        var firstLineCount: Int
        /// At least the bytes its message would have (the unread prefixes are counted).
        var messageBytes: Int
    }

    /// Whether a record is open, so that a line that starts none continues it.
    private var inRecord: Bool { open != .none }

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
            keepHeldLine()
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

    func makePrescanner() -> (any LinePrescanner)? {
        // Columns read by their shape complete a head from names the input showed before it: judged ahead, a line would
        // not know them.
        guard grammar.guessNote == nil else { return nil }
        return TextPrescanner(grammar: grammar, configuration: configuration, maximumLineLength: maximumLineLength)
    }

    /// A chunk whose lines were framed and judged ahead (`TextPrescanner`): the bytes before its first complete line
    /// end the line carried over and go through the framer, as do those after its last; each complete line is handed
    /// over from the table, and a judged one taken as judged (``startJudgedRecord(_:_:table:offers:emit:)``).
    private mutating func decodeJudged(_ bytes: UnsafeRawBufferPointer, table: TextLineTable, offers: RecordOffers,
                                       emit: (ReaderOutput) -> Void) {
        if table.firstLineStart > 0 { feedLines(bytes.slice(0, table.firstLineStart), offers: offers, emit: emit) }
        for entry in table.entries {
            let start = Int(entry.start)
            let line = framer.passLine(bytes.slice(start, start + Int(entry.length)), breakLength: Int(entry.breakLength))
            if entry.kind == .line || incompleteHead != nil {
                handle(line, truncated: false, offers: offers, emit: emit)
            } else {
                startJudgedRecord(line, entry, table: table, offers: offers, emit: emit)
            }
        }
        if table.end < bytes.count { feedLines(bytes.slice(table.end, bytes.count), offers: offers, emit: emit) }
    }

    /// A line judged to start a record of a skipped process, or one the judge refused (unless its pid is learnt by
    /// now, which is offered to the caller): what ``handle(_:truncated:offers:emit:)`` and
    /// ``startRecord(in:lines:offers:emit:)`` do with it, without classifying it, naming its process or offering it.
    private mutating func startJudgedRecord(_ line: ByteLine, _ entry: TextLineTable.Entry, table: TextLineTable,
                                            offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        statistics.lines += 1
        flushPending(offers: offers, emit: emit)
        flushOrphans(emit: emit)
        if !guessSaid { sayGuess(at: line, emit: emit) }
        let bytes = line.bytes
        let judgedTime = table.times[Int(entry.time)]
        guard let time = resolver.advance(past: judgedTime.time) else {
            discardRecord(line, timeText: Int(judgedTime.text.lowerBound)..<Int(judgedTime.text.upperBound), lines: 1)
            return
        }
        if resolver.hasNotes { reportNotes(line, emit: emit) }
        if preMain?.isOpen == true { endPreMainStatistics(at: line, head: table.heads[Int(entry.head)], time: time, emit: emit) }
        statistics.eventLines += 1
        if entry.kind == .skippedProcess {
            open = .skipped
            statistics.events += 1
            statistics.eventsSkipped += 1
            return
        }
        var learnt = false
        if entry.learntPID >= 0 {
            var question = RecordOffer.askingLearnt(Int(entry.learntPID))
            learnt = offers(&question)
        }
        if !learnt {
            // The judged head goes straight to the held record (through `head`, it was copied twice, on most lines of a
            // device's day).
            held.head = table.heads[Int(entry.head)]
            hold(line, time: time)
            return
        }
        // Learnt since it was judged: built, as the caller now takes it.
        head = table.heads[Int(entry.head)]
        var process = ""
        if let range = head.process, !range.isEmpty { process = processNames.text(for: bytes.slice(range.lowerBound, range.upperBound)) }
        buildStarted(line, time: time, process: process, invalid: false)
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
        case .built: pending.map { Self.leavesOpen($0.message.utf8) } ?? false
        case .held: heldInChunk.map { Self.leavesOpen($0) } ?? heldBytes.withUnsafeBytes { Self.leavesOpen($0) }
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

    /// Whether a line that starts no record is a line of dyld's launch statistics, taken as one: the record open ends
    /// before the block (its lines are not the record's message).
    private mutating func takesPreMainStatistics(_ line: ByteLine, offers: RecordOffers, emit: (ReaderOutput) -> Void) -> Bool {
        let (taken, ended) = preMain!.take(line.bytes, number: line.number, byteOffset: line.byteOffset)
        if let ended { emit(.preMainStatistics(ended)) }
        guard taken else { return false }
        flushPending(offers: offers, emit: emit)
        flushOrphans(emit: emit)
        statistics.eventLines += 1
        return true
    }

    /// The statistics block open ends at the record `head` starts: the launch of that record's process, before its time.
    private mutating func endPreMainStatistics(at line: ByteLine, head: TextRecordHead, time: TimestampResolver.ResolvedTime,
                                               emit: (ReaderOutput) -> Void) {
        guard var ended = preMain?.finish() else { return }
        if let pid = head.pid, let name = head.process, !name.isEmpty {
            let timestamp = time.timestamp(text: TimestampText(utf8: line.bytes.slice(head.timeText.lowerBound, head.timeText.upperBound)))
            ended.launch = PreMainStatistics.Launch(process: UTF8Text.decode(line.bytes.slice(name.lowerBound, name.upperBound)).text, pid: pid,
                                                    before: timestamp, evidence: origin(line.number, line.byteOffset))
        }
        emit(.preMainStatistics(ended))
    }

    /// Starts the record whose first line (or hard-wrapped head joined from two lines) the grammar has
    /// just written into `head`. A record not built (of a skipped process, or refused by the caller)
    /// costs no string, no timestamp text, and none of the fields the grammar left to be read.
    private mutating func startRecord(in line: ByteLine, lines: Int, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        flushPending(offers: offers, emit: emit)
        flushOrphans(emit: emit)
        if !guessSaid { sayGuess(at: line, emit: emit) }
        if spacedNames != nil { spacedNames!.read(line.bytes, head: &head) }
        let bytes = line.bytes
        guard let time = resolver.advance(past: head.packedTime) else {
            discardRecord(line, timeText: head.timeText, lines: lines)
            return
        }
        if resolver.hasNotes { reportNotes(line, emit: emit) }
        if preMain?.isOpen == true { endPreMainStatistics(at: line, head: head, time: time, emit: emit) }
        // The name's text is taken from the table only for a record that is built; the offer carries the caller's note
        // on the name, kept with it in the table.
        var entry: ProcessNameTable.Entry?
        var invalid = false
        var skipped = false
        if let range = head.process, !range.isEmpty {
            var named = processNames.entry(for: bytes.slice(range.lowerBound, range.upperBound))
            invalid = !named.isValid
            skipped = processNames.isSkipped(&named) { skipping.skips(process: $0) }
            entry = named
        } else {
            skipped = skipping.skips(process: "")
        }
        statistics.eventLines += lines
        if skipped {
            open = .skipped
            statistics.events += 1
            statistics.eventsSkipped += 1
            return
        }
        // A record whose fields are not all ASCII is always built, so that invalid UTF-8 in them is reported
        // as before. The caller is shown the message with any prefixes still unread before it: more text
        // than the message, which may only make it take more.
        if skipping.offers, !invalid, head.fieldsAreASCII(in: bytes),
           refuses(entry: &entry, name: head.process.map { bytes.slice($0.lowerBound, $0.upperBound) }, pid: head.pid,
                   message: bytes.slice(head.message.lowerBound, head.message.upperBound), offers) {
            held.head = head
            hold(line, time: time)
            return
        }
        buildStarted(line, time: time, process: entry.map { processNames.text(of: $0) } ?? "", invalid: invalid)
    }

    /// Whether the caller refuses the record of the process of `entry` (nil: a record without a process name), whose
    /// name's bytes are `name`, when offered it: the caller's note on the name goes with the offer and is kept.
    @inline(__always)
    private mutating func refuses(entry: inout ProcessNameTable.Entry?, name: UnsafeRawBufferPointer?, pid: Int?,
                                  message: UnsafeRawBufferPointer, _ offers: RecordOffers) -> Bool {
        var offer = RecordOffer(processName: name ?? UnsafeRawBufferPointer(start: nil, count: 0), pid: pid, message: message,
                                nameNote: entry?.note ?? 0)
        let taken = offers(&offer)
        if var named = entry {
            processNames.remember(note: offer.nameNote, for: &named)
            entry = named
        }
        return !taken
    }

    /// Builds the record `line` starts (its head in `head`), admitted on its first line.
    private mutating func buildStarted(_ line: ByteLine, time: TimestampResolver.ResolvedTime, process: String, invalid: Bool) {
        let bytes = line.bytes
        head.completeFields(in: bytes)
        let timestamp = time.timestamp(text: TimestampText(utf8: bytes.slice(head.timeText.lowerBound, head.timeText.upperBound)))
        build(head, from: bytes, timestamp: timestamp, origin: origin(line.number, line.byteOffset), process: process, invalid: invalid)
    }

    /// A record whose time is not a real one: its lines are counted against a diagnostic.
    private mutating func discardRecord(_ line: ByteLine, timeText range: Range<Int>, lines: Int) {
        let timeText = TimestampText(utf8: line.bytes.slice(range.lowerBound, range.upperBound))
        discarded = ReaderDiagnostic(code: .invalidTimestamp, severity: .warning,
                                     message: "'\(timeText.string)' is not a valid time; record skipped",
                                     origin: origin(line.number, line.byteOffset), lineCount: lines)
        open = .discarded
    }

    /// What the resolver inferred for the record `line` starts.
    private mutating func reportNotes(_ line: ByteLine, emit: (ReaderOutput) -> Void) {
        for note in resolver.takeNotes() {
            let diagnostic = ReaderDiagnostic(code: .inferredTime, severity: .note, message: note,
                                              origin: origin(line.number, line.byteOffset), lineCount: 0)
            statistics.count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
    }

    /// Holds the record `line` starts (its head in `held.head`), refused by the caller on its first line.
    private mutating func hold(_ line: ByteLine, time: TimestampResolver.ResolvedTime) {
        if let start = line.bytes.baseAddress, let chunkStart = chunk.baseAddress, start >= chunkStart,
           start + line.bytes.count <= chunkStart + chunk.count {
            heldInChunk = line.bytes
        } else {
            // A line carried over from the last chunk, or a head joined from two lines: its bytes are not the chunk's.
            heldInChunk = nil
            heldBytes.replace(with: line.bytes)
        }
        if !heldFurtherLines.isEmpty { heldFurtherLines.removeAll(keepingCapacity: true) }
        held.time = time
        held.line = line.number
        held.byteOffset = line.byteOffset
        held.firstLineCount = line.bytes.count
        held.messageBytes = held.head.message.count
        open = .held
    }

    /// Copies the held record's first line out of the chunk, if it is still there (``heldInChunk``).
    @inline(__always)
    private mutating func keepHeldLine() {
        guard let line = heldInChunk else { return }
        heldInChunk = nil
        heldBytes.replace(with: line)
    }

    private func origin(_ line: Int, _ byteOffset: Int) -> EventOrigin {
        EventOrigin(input: configuration.inputName, line: line, byteOffset: byteOffset)
    }

    /// Keeps a further line of the held record, to offer the whole message at the record's end:
    /// false when the caller could not be shown it, so that the record is to be built now — a line not all
    /// ASCII (its invalid UTF-8 is reported), one taking the message past its limit (which is reported
    /// as its lines come), one past ``maximumHeldLines``, or one that may hold the prefixes of a head
    /// hard-wrapped before them.
    private mutating func holdFurther(_ line: ByteLine) -> Bool {
        keepHeldLine()
        let bytes = line.bytes
        // (At most `maximumHeldLines` further lines are held, so that their places stay few whatever the
        // input: a record of more lines is built.)
        guard UTF8Text.isASCII(bytes), held.messageBytes + 1 + bytes.count <= configuration.limits.maximumMessageLength,
              heldFurtherLines.count < Self.maximumHeldLines else {
            return false
        }
        if heldFurtherLines.isEmpty, held.head.unreadPrefixes == .prefixesOrNextLine {
            var probe = held.head
            let awaitsPrefixes = heldBytes.withUnsafeBytes { held in
                probe.completeFields(in: held.slice(0, self.held.firstLineCount))
                return probe.prefixesMayFollow && probe.message.isEmpty
            }
            if awaitsPrefixes { return false }
        }
        heldBytes.append(.newline)
        let start = heldBytes.count
        heldBytes.append(bytes)
        heldFurtherLines.append((start..<heldBytes.count, line.number, line.byteOffset))
        held.messageBytes += 1 + bytes.count
        return true
    }

    /// Whether the caller refuses the held record with all its lines, offered again at its end.
    private mutating func refusesWholeHeldRecord(_ offers: RecordOffers) -> Bool {
        assert(heldInChunk == nil, "offered again only with further lines, whose first one copied the held line")
        let head = held.head
        let kept = heldBytes
        return kept.withUnsafeBytes { bytes in
            var entry: ProcessNameTable.Entry?
            var name: UnsafeRawBufferPointer?
            if let range = head.process, !range.isEmpty {
                name = bytes.slice(range.lowerBound, range.upperBound)
                entry = processNames.entry(for: name!)
            }
            return refuses(entry: &entry, name: name, pid: head.pid, message: bytes.slice(head.message.lowerBound, bytes.count), offers)
        }
    }

    /// Builds the held record as if it had never been held, its further lines included. (Its own head:
    /// `head` may already hold the next record's, when the held one is built at its end.)
    private mutating func buildHeld(emit: (ReaderOutput) -> Void) {
        assert(heldInChunk == nil, "built only after a further line came, which copied the held line")
        var head = held.head
        let kept = heldBytes
        kept.withUnsafeBytes { kept in
            let bytes = kept.slice(0, held.firstLineCount)
            // The process name again, from the same bytes.
            var process = ""
            if let range = head.process, !range.isEmpty {
                process = processNames.text(for: bytes.slice(range.lowerBound, range.upperBound))
            }
            head.completeFields(in: bytes)
            let text = TimestampText(utf8: bytes.slice(head.timeText.lowerBound, head.timeText.upperBound))
            build(head, from: bytes, timestamp: held.time!.timestamp(text: text), origin: origin(held.line, held.byteOffset),
                  process: process, invalid: false)
            for further in heldFurtherLines {
                append(kept.slice(further.range.lowerBound, further.range.upperBound), number: further.number,
                       byteOffset: further.byteOffset, emit: emit)
            }
        }
        heldFurtherLines.removeAll(keepingCapacity: true)
    }

    /// Builds the event of the record whose head is `head` (its fields complete), from its first line `bytes`.
    private mutating func build(_ head: TextRecordHead, from bytes: UnsafeRawBufferPointer, timestamp: LogTimestamp,
                                origin: EventOrigin, process: String, invalid: Bool) {
        var invalid = invalid
        func text(_ range: Range<Int>?) -> String? {
            guard let range, !range.isEmpty else { return nil }
            let decoded = UTF8Text.decode(bytes.slice(range.lowerBound, range.upperBound))
            if !decoded.isValid { invalid = true }
            return decoded.text
        }
        func interned(_ range: Range<Int>?) -> String? {
            guard let range, !range.isEmpty else { return nil }
            let decoded = interner.string(for: bytes.slice(range.lowerBound, range.upperBound))
            if !decoded.isValid { invalid = true }
            return decoded.text
        }
        let message = text(head.message) ?? ""
        pending = LogEvent(
            timestamp: timestamp,
            process: process,
            pid: head.pid,
            senderImage: interned(head.senderImage),
            subsystem: interned(head.subsystem),
            category: interned(head.category),
            type: head.type,
            threadID: head.threadID,
            activityID: head.activityID,
            message: message,
            origin: origin
        )
        open = .built
        pendingInvalidUTF8 = invalid
        pendingMessageBytes = message.utf8.count
        pendingMessageCut = false
        pendingAwaitsPrefixes = head.prefixesMayFollow && message.isEmpty
    }

    private mutating func continueRecord(_ line: ByteLine, emit: (ReaderOutput) -> Void) {
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
            if holdFurther(line) { return }
            buildHeld(emit: emit)
        case .built:
            statistics.eventLines += 1
        }
        append(line.bytes, number: line.number, byteOffset: line.byteOffset, emit: emit)
    }

    /// Appends a further line of the record being built to its message.
    private mutating func append(_ line: UnsafeRawBufferPointer, number: Int, byteOffset: Int, emit: (ReaderOutput) -> Void) {
        var bytes = line
        if pendingAwaitsPrefixes {
            pendingAwaitsPrefixes = false
            let prefixes = MessagePrefixes.parse(bytes, from: 0)
            func text(_ range: Range<Int>?) -> String? {
                guard let range, !range.isEmpty else { return nil }
                let decoded = UTF8Text.decode(bytes.slice(range.lowerBound, range.upperBound))
                if !decoded.isValid { pendingInvalidUTF8 = true }
                return decoded.text
            }
            if let image = text(prefixes.senderImage) { pending!.senderImage = image }
            if let subsystem = text(prefixes.subsystem) { pending!.subsystem = subsystem }
            if let category = text(prefixes.category) { pending!.category = category }
            bytes = bytes.slice(prefixes.messageStart, bytes.count)
            let decoded = UTF8Text.decode(bytes)
            if !decoded.isValid { pendingInvalidUTF8 = true }
            pending!.message = decoded.text
            pendingMessageBytes = bytes.count
            return
        }
        if pendingMessageCut { return }
        if pendingMessageBytes + 1 + bytes.count > configuration.limits.maximumMessageLength {
            pendingMessageCut = true
            report(.messageTooLong, .warning,
                   "message longer than \(configuration.limits.maximumMessageLength) bytes; later lines of it were not kept",
                   line: number, offset: byteOffset, lines: 0, emit: emit)
            return
        }
        let decoded = UTF8Text.decode(bytes)
        if !decoded.isValid { pendingInvalidUTF8 = true }
        pending!.message.append("\n")
        pending!.message.append(decoded.text)
        pendingMessageBytes += 1 + bytes.count
    }

    /// Ends the open record, as the next record starts (or the input ends). The usual ends are handled here, in line: no
    /// record, a skipped one, and a held one that ended at its first line (refused, counted, nothing kept) — most lines
    /// of a device's day; the rest in ``flushOpenRecord(emit:)``, so that most lines make no call with a frame for the
    /// event it may emit.
    @inline(__always)
    private mutating func flushPending(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        switch open {
        case .none:
            return
        case .skipped:
            open = .none
        case .held where heldFurtherLines.isEmpty:
            open = .none
            heldInChunk = nil  // ended at its first line: nothing of it is kept
            statistics.events += 1
            statistics.eventsSkipped += 1
        default:
            flushOpenRecord(offers: offers, emit: emit)
        }
    }

    private mutating func flushOpenRecord(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        let record = open
        open = .none
        switch record {
        case .none, .skipped:
            return
        case .held:
            guard !heldFurtherLines.isEmpty, !refusesWholeHeldRecord(offers) else {
                heldInChunk = nil  // ended at its first line: nothing of it is kept
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
        // `take()` moves the event out without copying (and retaining) its strings.
        guard var event = pending.take() else { return }
        pendingAwaitsPrefixes = false
        // Blank lines that ended a multi-line message belong to no one: trim them.
        // (Checked on the contiguous bytes: the generic `utf8.last` walks the string's index machinery.)
        while event.message.utf8.withContiguousStorageIfAvailable({ $0.last == .newline }) ?? (event.message.utf8.last == .newline) {
            event.message.removeLast()
        }
        grammar.finish(&event)
        // As in `log show`, a sender image that is the process itself is not repeated.
        if event.senderImage == event.process { event.senderImage = nil }
        if pendingInvalidUTF8 {
            report(.invalidUTF8, .warning, "bytes that are not UTF-8 were replaced with U+FFFD",
                   line: event.origin.line, offset: event.origin.byteOffset, lines: 0, emit: emit)
        }
        statistics.events += 1
        emit(.event(event))
    }

    /// Says, once, at the first record, what the grammar guessed in reading the input's lines, if anything.
    private mutating func sayGuess(at line: ByteLine, emit: (ReaderOutput) -> Void) {
        guessSaid = true
        if let note = grammar.guessNote {
            spacedNames = SpacedProcessNames()
            report(.guessedColumns, .warning, note, line: line.number, offset: line.byteOffset, lines: 0, emit: emit)
        }
    }

    /// Reports the lines before the first record, if there were any (checked before each record).
    @inline(__always)
    private mutating func flushOrphans(emit: (ReaderOutput) -> Void) {
        if orphans != nil { reportOrphans(emit: emit) }
    }

    private mutating func reportOrphans(emit: (ReaderOutput) -> Void) {
        guard let run = orphans else { return }
        orphans = nil
        let what = run.count == 1 ? "1 line" : "\(run.count) lines"
        let message = "\(what) before the first record \(run.count == 1 ? "is" : "are") not \(format.displayName) lines; skipped"
        report(.orphanLines, .warning, message, line: run.number, offset: run.offset, lines: run.count, emit: emit)
    }

    private mutating func report(_ code: DiagnosticCode, _ severity: ReaderDiagnostic.Severity, _ message: String,
                                 line: Int, offset: Int, lines: Int, emit: (ReaderOutput) -> Void) {
        let diagnostic = ReaderDiagnostic(code: code, severity: severity, message: message,
                                          origin: EventOrigin(input: configuration.inputName, line: line, byteOffset: offset),
                                          lineCount: lines)
        statistics.count(diagnostic)
        emit(.diagnostic(diagnostic))
    }
}

/// Bytes kept from line to line and reused record after record: an array that only grows, and the count of
/// its bytes in use (emptying and refilling an array were two generic calls for every record held).
struct ReusedBytes {
    private var storage: [UInt8] = []
    private(set) var count = 0

    /// Keeps `bytes` instead of what was kept.
    mutating func replace(with bytes: UnsafeRawBufferPointer) {
        count = 0
        append(bytes)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let needed = count + bytes.count
        if storage.count < needed { storage.append(contentsOf: repeatElement(0, count: max(needed, 2 * storage.count) - storage.count)) }
        let start = count
        storage.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: start).copyMemory(from: source, byteCount: bytes.count) }
        count = needed
    }

    mutating func append(_ byte: UInt8) {
        Swift.withUnsafeBytes(of: byte) { append($0) }
    }

    /// The bytes kept.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
}

/// The process names holding a space that an input of space-separated columns shows in its messages, as
/// `Name With Space[pid]` at a message's start (securityd's `Ledger Pro[2231]/1#4 copy_matching …`), at most
/// ``capacity`` of them: a head whose process word, with the words after it, spells one of them is read with the whole
/// name, its message starting after it. A name is known from the first line that shows it: a line of the app before
/// it keeps the process's first word, as the reader's note says.
struct SpacedProcessNames {
    static let capacity = 1024
    private var names: Set<[UInt8]> = []

    /// Learns a name from the head's message, then completes the head's process with a name learnt.
    mutating func read(_ line: UnsafeRawBufferPointer, head: inout TextRecordHead) {
        let message = head.message
        if names.count < Self.capacity, let bracket = line.firstIndex(of: UInt8(ascii: "["), from: message.lowerBound), bracket < line.count,
           bracket - message.lowerBound <= 64 {
            let name = line.slice(message.lowerBound, bracket)
            if name.contains(.space), name.first != .space, name.last != .space, line.digitsFollow(at: bracket + 1) {
                names.insert(Array(name))
            }
        }
        guard !names.isEmpty, let process = head.process, process.upperBound < line.count, line[process.upperBound] == .space else { return }
        // The longest name learnt that the line spells from the process's first word on.
        var best: Int?
        for name in names where name.count > process.count && process.lowerBound + name.count <= line.count {
            let spelled = line.slice(process.lowerBound, process.lowerBound + name.count)
            guard spelled.elementsEqual(name) else { continue }
            let end = process.lowerBound + name.count
            guard end == line.count || line[end] == .space else { continue }
            if best.map({ end > $0 }) ?? true { best = end }
        }
        guard let end = best else { return }
        head.process = process.lowerBound..<end
        var start = end
        while start < line.count, line[start] == .space { start += 1 }
        head.message = start..<line.count
    }
}

extension UnsafeRawBufferPointer {
    /// Whether digits and then `]` are at `index`.
    fileprivate func digitsFollow(at index: Int) -> Bool {
        var at = index
        while at < count, self[at] &- 0x30 <= 9 { at += 1 }
        return at > index && at < count && self[at] == UInt8(ascii: "]")
    }
}
