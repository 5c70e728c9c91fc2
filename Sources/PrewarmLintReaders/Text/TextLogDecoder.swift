import PrewarmLintModel

/// Reads any line-oriented text format: frames lines, asks the format's grammar which lines
/// start records, and joins continuation lines into multi-line messages.
///
/// Continuation lines are every line that does not start a record: RunningBoard assertion
/// descriptors and job descriptions span dozens of lines, indented with tabs or spaces or not
/// at all. Lines before the first record become one `orphan-lines` diagnostic. A record is
/// emitted when the next one starts, or at the end of input, so the output lags one record
/// behind the input.
struct TextLogDecoder: LogDecoder {
    let format: LogFormat
    private(set) var statistics = DecoderStatistics()

    private var grammar: TextGrammar
    private var framer: LineFramer
    private var resolver: TimestampResolver
    private let configuration: ReaderConfiguration
    /// The configured line limit, at most half of what a record head can describe (a hard-wrapped
    /// head is joined from two lines).
    private let maximumLineLength: Int

    private var pending: LogEvent?
    private var pendingMessageBytes = 0
    private var pendingAwaitsPrefixes = false
    private var pendingMessageCut = false
    private var pendingInvalidUTF8 = false
    /// The record being read is of a skipped process: its lines are counted, nothing else.
    private var skippingRecord = false
    /// A record whose head could not be used (an impossible time): its continuation lines are counted against it.
    private var discarded: ReaderDiagnostic?
    /// A record the ``RecordFilter`` refused on its first line, kept as bytes (in `heldLine`) until the
    /// next line tells whether it has more lines: then it is built after all; else it is skipped.
    private var held: HeldRecord?
    private var heldLine: [UInt8] = []
    private var incompleteHead: (bytes: [UInt8], number: Int, offset: Int)?
    private var orphans: (number: Int, offset: Int, count: Int)?
    private var interner = StringInterner()
    private var skipping: RecordSkipping

    /// No strings: most records of a device's log are held and dropped, so none is retained for them.
    private struct HeldRecord {
        var head: TextRecordHead
        var timestamp: LogTimestamp
        var line: Int
        var byteOffset: Int
    }

    /// Whether a record is open, so that a line that starts none continues it.
    private var inRecord: Bool { pending != nil || discarded != nil || skippingRecord || held != nil }

    init(grammar: TextGrammar, configuration: ReaderConfiguration) {
        self.grammar = grammar
        self.format = grammar.format
        self.configuration = configuration
        self.skipping = RecordSkipping(configuration)
        // A joined hard-wrapped head is two lines long: both must fit a head's offsets.
        self.maximumLineLength = min(configuration.limits.maximumLineLength, TextRecordHead.maximumLineLength / 2)
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
        self.resolver = TimestampResolver(inference: configuration.timeInference)
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        var framer = self.framer
        framer.feed(bytes) { line, truncated in handle(line, truncated: truncated, emit: emit) }
        self.framer = framer
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        var framer = self.framer
        framer.finish { line, truncated in handle(line, truncated: truncated, emit: emit) }
        self.framer = framer
        if let head = incompleteHead {
            incompleteHead = nil
            report(.truncatedInput, .warning, "input ends inside a record head", line: head.number, offset: head.offset, lines: 1, emit: emit)
        }
        flushPending(emit: emit)
        flushOrphans(emit: emit)
    }

    // MARK: - Lines

    private mutating func handle(_ line: ByteLine, truncated: Bool, emit: (ReaderOutput) -> Void) {
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
                if case .head(let parsed) = grammar.classify(bytes) {
                    startRecord(parsed, in: ByteLine(bytes: bytes, number: head.number, byteOffset: head.offset), lines: 2, emit: emit)
                    return true
                }
                return false
            }
            if handled { return }
            report(.malformedLine, .warning, "record head is cut short and the next line does not complete it",
                   line: head.number, offset: head.offset, lines: 1, emit: emit)
        }

        switch grammar.classify(line.bytes) {
        case .head(let head):
            startRecord(head, in: line, lines: 1, emit: emit)
        case .incompleteHead:
            flushPending(emit: emit)
            flushOrphans(emit: emit)
            incompleteHead = (Array(line.bytes), line.number, line.byteOffset)
        case .skipped(let reason):
            if reason == .blank, inRecord {
                continueRecord(line, emit: emit)
            } else {
                flushPending(emit: emit)
                if reason == .blank, orphans != nil {
                    orphans!.count += 1
                } else {
                    statistics.skip(reason)
                }
            }
        case .other:
            if inRecord {
                continueRecord(line, emit: emit)
            } else if orphans == nil {
                orphans = (line.number, line.byteOffset, 1)
            } else {
                orphans!.count += 1
            }
        }
    }

    private mutating func startRecord(_ head: TextRecordHead, in line: ByteLine, lines: Int, emit: (ReaderOutput) -> Void) {
        flushPending(emit: emit)
        flushOrphans(emit: emit)
        let bytes = line.bytes
        let timeText = TimestampText(utf8: bytes.slice(head.timeText.lowerBound, head.timeText.upperBound))
        guard let timestamp = resolver.resolve(head.time, text: timeText) else {
            discarded = ReaderDiagnostic(code: .invalidTimestamp, severity: .warning,
                                         message: "'\(timeText.string)' is not a valid time; record skipped",
                                         origin: origin(line.number, line.byteOffset), lineCount: lines)
            return
        }
        for note in resolver.takeNotes() {
            let diagnostic = ReaderDiagnostic(code: .inferredTime, severity: .note, message: note,
                                              origin: origin(line.number, line.byteOffset), lineCount: 0)
            statistics.count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
        var invalid = false
        var process = ""
        if let range = head.process, !range.isEmpty {
            let decoded = interner.string(for: bytes.slice(range.lowerBound, range.upperBound))
            invalid = !decoded.isValid
            process = decoded.text
        }
        statistics.eventLines += lines
        if skipping.skips(process: process) {
            skippingRecord = true
            statistics.events += 1
            statistics.eventsSkipped += 1
            return
        }
        // A line that is not all ASCII is always built, so that its invalid UTF-8 is reported as before.
        if skipping.filters, UTF8Text.isASCII(bytes),
           skipping.refuses(process: process, pid: head.pid, firstLine: bytes.slice(head.message.lowerBound, head.message.upperBound)) {
            heldLine.removeAll(keepingCapacity: true)
            heldLine.append(contentsOf: bytes)
            held = HeldRecord(head: head, timestamp: timestamp, line: line.number, byteOffset: line.byteOffset)
            return
        }
        build(head, from: bytes, timestamp: timestamp, origin: origin(line.number, line.byteOffset), process: process, invalid: invalid)
    }

    private func origin(_ line: Int, _ byteOffset: Int) -> EventOrigin {
        EventOrigin(input: configuration.inputName, line: line, byteOffset: byteOffset)
    }

    /// The held record has a further line: build it as if it had never been held.
    private mutating func buildHeld() {
        guard let record = held.take() else { return }
        let line = heldLine
        line.withUnsafeBytes { bytes in
            // The process name again, from the same bytes.
            var process = ""
            if let range = record.head.process, !range.isEmpty {
                process = interner.string(for: bytes.slice(range.lowerBound, range.upperBound)).text
            }
            build(record.head, from: bytes, timestamp: record.timestamp, origin: origin(record.line, record.byteOffset),
                  process: process, invalid: false)
        }
    }

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
        pendingInvalidUTF8 = invalid
        pendingMessageBytes = message.utf8.count
        pendingMessageCut = false
        pendingAwaitsPrefixes = head.prefixesMayFollow && message.isEmpty
    }

    private mutating func continueRecord(_ line: ByteLine, emit: (ReaderOutput) -> Void) {
        if discarded != nil {
            discarded!.lineCount += 1
            return
        }
        statistics.eventLines += 1
        if skippingRecord { return }
        if held != nil { buildHeld() }
        var bytes = line.bytes
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
                   line: line.number, offset: line.byteOffset, lines: 0, emit: emit)
            return
        }
        let decoded = UTF8Text.decode(bytes)
        if !decoded.isValid { pendingInvalidUTF8 = true }
        pending!.message.append("\n")
        pending!.message.append(decoded.text)
        pendingMessageBytes += 1 + bytes.count
    }

    private mutating func flushPending(emit: (ReaderOutput) -> Void) {
        skippingRecord = false
        if held != nil {
            held = nil
            statistics.events += 1
            statistics.eventsSkipped += 1
        }
        if let diagnostic = discarded {
            discarded = nil
            statistics.count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
        // `take()` moves the event out without copying (and retaining) its strings.
        guard var event = pending.take() else { return }
        pendingAwaitsPrefixes = false
        // Blank lines that ended a multi-line message belong to no one: trim them.
        // (Checked on the contiguous bytes: the generic `utf8.last` was ~2% of reading a text log.)
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

    private mutating func flushOrphans(emit: (ReaderOutput) -> Void) {
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
