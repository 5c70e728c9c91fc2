import PrewarmLintModel

/// Reads XML inputs through libxml2 (``XMLPushParser``), fed as the bytes come; a collector turns
/// the SAX events of one XML vocabulary into events.
///
/// Line accounting (both collectors): lines inside a record count as event lines (or as diagnosed,
/// when the record is rejected); the rest is XML structure. Malformed XML stops the parse with a
/// diagnostic at its line and column; records before it stand and the remaining lines are counted
/// as diagnosed.
struct XMLLogDecoder: LogDecoder {
    let format: LogFormat
    private let collector: XMLRecordCollector
    private let parser: XMLPushParser
    private var lines = LineCounter()

    /// A plist of log entries (``PlistEntryCollector``).
    static func plist(configuration: ReaderConfiguration) -> XMLLogDecoder {
        XMLLogDecoder(format: .plist, collector: PlistEntryCollector(configuration: configuration))
    }

    /// An `xctrace export` table (``XctraceRowCollector``).
    static func xctrace(configuration: ReaderConfiguration) -> XMLLogDecoder {
        XMLLogDecoder(format: .xctrace, collector: XctraceRowCollector(configuration: configuration))
    }

    init(format: LogFormat, collector: XMLRecordCollector) {
        self.format = format
        self.collector = collector
        parser = XMLPushParser(handler: collector)
    }

    var statistics: DecoderStatistics { collector.statistics(lines: lines.count) }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        lines.count(bytes)
        parser.parse(bytes, isLast: false)
        collector.flush(emit)
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        parser.parse(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true)
        collector.finish(failure: parser.failure, totalLines: lines.count)
        collector.flush(emit)
    }
}

/// Counts lines as bytes go by: newlines, plus a last line without one.
struct LineCounter {
    private var newlines = 0
    private var pendingBytes = false

    mutating func count(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        newlines += bytes.count(of: .newline)
        pendingBytes = bytes[bytes.count - 1] != .newline
    }

    var count: Int { newlines + (pendingBytes ? 1 : 0) }
}

/// What the XML collectors share: outputs held until the parse call returns, statistics, the span
/// of a record in lines, and the end of input (a parse failure, or no records at all).
class XMLRecordCollector: XMLEventHandler {
    let configuration: ReaderConfiguration
    var resolver: TimestampResolver
    /// Reuses the strings of process names, subsystems and categories from record to record.
    var interner = StringInterner()
    /// Skipped processes only: outputs are held until the parse call returns, so a record would be
    /// offered before the events ahead of it were classified.
    var skipping: RecordSkipping
    var collected = DecoderStatistics()
    private var pending: [ReaderOutput] = []
    private var lastCountedLine = 0
    /// Set by a subclass when the document had what it reads (entries, rows).
    var sawRecords = false
    /// Where the record being read started, while one is open: a parse failure inside it accounts
    /// for its lines too.
    var openRecordLine: Int? { nil }
    /// What the document should have held, for the diagnostic when it held none.
    var noRecordsMessage: String { "no records" }

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
        self.resolver = TimestampResolver(inference: configuration.timeInference)
        self.skipping = RecordSkipping(configuration, offering: false)
    }

    func startElement(_ name: UnsafeRawBufferPointer, attributes: XMLAttributes, at location: XMLLocation) {}
    func endElement(_ name: UnsafeRawBufferPointer, at location: XMLLocation) {}
    func characters(_ bytes: UnsafeRawBufferPointer) {}

    func flush(_ emit: (ReaderOutput) -> Void) {
        for output in pending { emit(output) }
        pending.removeAll(keepingCapacity: true)
    }

    func statistics(lines: Int) -> DecoderStatistics {
        var result = collected
        result.lines = lines
        let rest = lines - result.eventLines - result.diagnosedLines
        if rest > 0 { result.skip(.structure, lines: rest) }
        return result
    }

    /// The lines of a record from `start` to `end` not yet counted for an earlier record.
    func span(from start: Int, to end: Int) -> Int {
        let spanned = max(0, end - max(start, lastCountedLine + 1) + 1)
        lastCountedLine = max(lastCountedLine, end)
        return spanned
    }

    /// Hands on an event with the notes its timestamp needed.
    /// Counts a record read; `event` is nil for a record of a skipped process, which is counted, not emitted.
    func accept(_ event: LogEvent?, lines: Int, invalidUTF8: Bool, origin: EventOrigin? = nil) {
        let origin = event?.origin ?? origin ?? EventOrigin(input: configuration.inputName, line: 0, byteOffset: 0)
        collected.accept(event, lines: lines, origin: origin, notes: resolver.takeNotes(), invalidUTF8: invalidUTF8) { pending.append($0) }
    }

    func reject(_ diagnostic: ReaderDiagnostic, lines: Int) {
        var diagnostic = diagnostic
        diagnostic.lineCount = lines
        collected.count(diagnostic)
        pending.append(.diagnostic(diagnostic))
    }

    /// The end of the input: the parser's failure, if any, and what was never found.
    func finish(failure: XMLFailure?, totalLines: Int) {
        if let failure {
            let origin = EventOrigin(input: configuration.inputName, line: failure.position.line, byteOffset: failure.position.byteOffset)
            let rest = span(from: min(openRecordLine ?? failure.position.line, failure.position.line), to: totalLines)
            if failure.refused {
                report(.refusedInput, "\(failure.message) (column \(failure.position.column))", severity: .error,
                       origin: origin, lines: rest)
            } else {
                report(.malformedXML, "malformed XML (column \(failure.position.column)): \(failure.message); the rest of the input is not read",
                       severity: .error, origin: origin, lines: rest)
            }
        } else if !sawRecords {
            report(.invalidRecord, noRecordsMessage, origin: EventOrigin(input: configuration.inputName, line: 1, byteOffset: 0), lines: 0)
        }
    }

    func report(_ code: DiagnosticCode, _ message: String, severity: ReaderDiagnostic.Severity = .warning, origin: EventOrigin, lines: Int) {
        let diagnostic = ReaderDiagnostic(code: code, severity: severity, message: message, origin: origin, lineCount: lines)
        collected.count(diagnostic)
        pending.append(.diagnostic(diagnostic))
    }
}
