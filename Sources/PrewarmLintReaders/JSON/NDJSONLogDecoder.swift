import PrewarmLintModel

/// Reads NDJSON logs: `log show --style ndjson`, pymobiledevice3 `--format json` and
/// mandiant `unifiedlog_iterator` JSONL — one object per line.
///
/// ```
/// Filtering the log data using "process == "runningboardd""
/// {"timestamp":"2026-10-02 22:17:19.553250+0930","processImagePath":"\/Applications\/PosterBoard.app\/PosterBoard",…}
/// {"count":1,"finished":1}
/// ```
/// The preamble and the trailer are counted as such. A line that is not a JSON object, or an
/// object that is not a log record, becomes a diagnostic and reading goes on with the next line.
struct NDJSONLogDecoder: LineFramedDecoder {
    let format: LogFormat
    private(set) var statistics = DecoderStatistics()
    var framer: LineFramer
    private var resolver: TimestampResolver
    /// Reuses the strings of process names, subsystems and categories from record to record.
    private var interner = StringInterner()
    private var skipping: RecordSkipping
    private let configuration: ReaderConfiguration
    /// A run of consecutive lines that are not JSON, reported as one diagnostic when it ends.
    private var nonJSONRun: (origin: EventOrigin, count: Int)?
    /// Unified-log entries whose format string the exporter could not find.
    private var unresolved = UnresolvedFormatStrings()

    init(format: LogFormat, configuration: ReaderConfiguration) {
        self.format = format
        self.configuration = configuration
        self.skipping = RecordSkipping(configuration)
        self.framer = LineFramer(maximumLineLength: configuration.limits.maximumRecordLength)
        self.resolver = TimestampResolver(inference: configuration.timeInference)
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        feedLines(bytes, offers: offers, emit: emit)
    }

    mutating func decodeLast(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        finishLines(offers: offers, emit: emit)
        flushNonJSONRun(emit: emit)
        if let said = unresolved.diagnostic() { report(said, emit: emit) }
    }

    func makePrescanner() -> (any LinePrescanner)? {
        NDJSONPrescanner(format: format, configuration: configuration)
    }

    private mutating func flushNonJSONRun(emit: (ReaderOutput) -> Void) {
        guard let run = nonJSONRun else { return }
        nonJSONRun = nil
        let what = run.count == 1 ? "line is not a JSON object" : "\(run.count) lines are not JSON objects"
        report(ReaderDiagnostic(code: .malformedLine, severity: .warning, message: "\(what); skipped", origin: run.origin, lineCount: run.count), emit: emit)
    }

    mutating func handle(_ line: ByteLine, truncated: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        statistics.lines += 1
        let origin = EventOrigin(input: configuration.inputName, line: line.number, byteOffset: line.byteOffset)
        if truncated {
            flushNonJSONRun(emit: emit)
            report(ReaderDiagnostic(code: .lineTooLong, severity: .warning,
                                    message: "record longer than \(configuration.limits.maximumRecordLength) bytes; skipped",
                                    origin: origin), emit: emit)
            return
        }
        // Judged ahead on another thread (`RecordPrescan`): a record that would be counted and not kept is counted here
        // as below, its time passed over, without being scanned again (one refused unless a pid is learnt is offered
        // with that question alone).
        if let prescan = configuration.prescan, let skipped = prescan.skip(line), skipped.isRefused(offers: offers) {
            flushNonJSONRun(emit: emit)
            if skipped.resolvesTime { _ = resolver.advance(past: skipped.timestamp) }
            statistics.accept(nil, lines: 1, origin: origin, notes: resolver.takeNotes(), invalidUTF8: false, emit: emit)
            return
        }
        let bytes = line.bytes
        // A byte order mark before the object (a file's first line, or every line of `cat`-joined files) is not content.
        let start = bytes.skippingSpaces(from: bytes.skippingByteOrderMark(from: bytes.skippingSpaces(from: 0)))
        if start == bytes.count {
            flushNonJSONRun(emit: emit)
            statistics.skip(.blank)
            return
        }
        guard bytes[start] == UInt8(ascii: "{") else {
            if let chrome = ExporterChrome.classify(UnsafeRawBufferPointer(rebasing: bytes[bytes.skippingByteOrderMark(from: 0)...])) {
                flushNonJSONRun(emit: emit)
                statistics.skip(chrome)
            } else if nonJSONRun != nil {
                nonJSONRun!.count += 1
            } else {
                nonJSONRun = (origin, 1)
            }
            return
        }
        flushNonJSONRun(emit: emit)
        var record = JSONLogRecord()
        do throws(JSONSyntaxError) {
            let end = try record.scan(bytes, from: start)
            guard JSONObjectScanner.skipWhitespace(bytes, end) == bytes.count else {
                throw JSONSyntaxError(position: end, reason: "text after the object")
            }
        } catch {
            let what = error.position >= bytes.count ? "record is cut short (\(error.reason))" : "invalid JSON at column \(error.position + 1): \(error.reason)"
            report(ReaderDiagnostic(code: .invalidRecord, severity: .warning, message: what, origin: origin), emit: emit)
            return
        }
        guard let schema = record.schema else {
            report(ReaderDiagnostic(code: .invalidRecord, severity: .warning,
                                    message: "JSON object has none of the keys of a log record", origin: origin), emit: emit)
            return
        }
        if schema == .trailer {
            statistics.skip(.trailer)
            return
        }
        if schema == .unifiedLogIterator, let message = record.message, message.kind == .string,
           UnresolvedFormatStrings.isPlaceholder(bytes.slice(message.range.lowerBound, message.range.upperBound)) {
            let process = record.process.map { String(decoding: bytes.slice($0.range.lowerBound, $0.range.upperBound).lastPathComponent(), as: UTF8.self) }
            unresolved.count(process: process ?? "", at: origin)
            statistics.eventsUnworded += 1
        }
        var invalidUTF8 = false
        var event: LogEvent?
        switch record.makeEvent(schema: schema, bytes: bytes, origin: origin, resolver: &resolver, interner: &interner,
                                skipping: &skipping, offers: offers, invalidUTF8: &invalidUTF8, into: &event) {
        case .built:
            statistics.accept(event, lines: 1, origin: origin, notes: resolver.takeNotes(), invalidUTF8: invalidUTF8, emit: emit)
        case .notKept:
            statistics.accept(nil, lines: 1, origin: origin, notes: resolver.takeNotes(), invalidUTF8: invalidUTF8, emit: emit)
        case .rejected(let diagnostic):
            report(diagnostic, emit: emit)
        }
    }

    /// The judgement of a thread reading ahead (``NDJSONPrescanner``): the line's skip when ``handle(_:truncated:offers:emit:)``
    /// would, whatever it had decoded before, only count it — an object of a log record, alone on its line, whose
    /// process is skipped or which `judge` refuses when offered it, with fields that decode cleanly and a valid time
    /// whose validity needs nothing the lines before told (a date with its year, or epoch nanoseconds). Nil for anything
    /// else, which the decoder then judges itself.
    mutating func prescan(_ line: ByteLine, judge: AheadJudge) -> PrescannedSkip? {
        let bytes = line.bytes
        let start = bytes.skippingSpaces(from: bytes.skippingByteOrderMark(from: bytes.skippingSpaces(from: 0)))
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var record = JSONLogRecord()
        do throws(JSONSyntaxError) {
            let end = try record.scan(bytes, from: start)
            guard JSONObjectScanner.skipWhitespace(bytes, end) == bytes.count else { return nil }
        } catch {
            return nil
        }
        guard let schema = record.schema, schema != .trailer else { return nil }
        // An entry whose format string was not found is counted by the decoder itself.
        if schema == .unifiedLogIterator, let message = record.message, message.kind == .string,
           UnresolvedFormatStrings.isPlaceholder(bytes.slice(message.range.lowerBound, message.range.upperBound)) {
            return nil
        }
        let timestamp: PackedTimestamp?
        switch schema {
        case .logShow, .pymobiledevice3:
            // A time with its date is valid or not whatever came before (a year inferred may make a 29 February
            // invalid): the decoder's resolver then passes over it as it would have, notes and all. A missing offset is
            // taken from the options or the lines before, which only the decoder's resolver knows, and it does.
            guard let partial = record.writtenTimestamp(in: bytes), partial.year != nil, partial.month != nil, partial.day != nil
            else { return nil }
            let packed = PackedTimestamp(partial)
            guard packed.partial == partial else { return nil }
            timestamp = packed
        case .unifiedLogIterator, .trailer:
            timestamp = nil
        }
        var invalidUTF8 = false
        var event: LogEvent?
        let origin = EventOrigin(input: configuration.inputName, line: line.number, byteOffset: line.byteOffset)
        // The judge's refusal, and the pid it depends on, if any.
        var unlessLearnt: Int?
        let refusing: RecordOffers = { offer in
            switch judge(&offer) {
            case .admitted: return true
            case .refused: return false
            case .refusedUnlessLearnt(let pid):
                unlessLearnt = pid
                return false
            }
        }
        guard case .notKept = record.makeEvent(schema: schema, bytes: bytes, origin: origin, resolver: &resolver, interner: &interner,
                                               skipping: &skipping, offers: refusing, invalidUTF8: &invalidUTF8, into: &event),
              !invalidUTF8, event == nil else { return nil }
        // (The notes of this resolver are said by the decoder's, which passes over the same times.)
        _ = resolver.takeNotes()
        return PrescannedSkip(line, timestamp: timestamp, unlessLearnt: unlessLearnt)
    }

    private mutating func report(_ diagnostic: ReaderDiagnostic, emit: (ReaderOutput) -> Void) {
        statistics.count(diagnostic)
        emit(.diagnostic(diagnostic))
    }
}
