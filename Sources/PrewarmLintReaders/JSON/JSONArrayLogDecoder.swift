import PrewarmLintModel

/// Reads `log show --style json`: one array of pretty-printed objects, `"key" : value`, with
/// `\/`-escaped slashes (formats.md §1.5). Objects are not one per line, so records are framed
/// by brace depth (aware of strings and escapes), each kept only until it is decoded.
///
/// Bytes outside any object that are not array punctuation become a `malformed-line`
/// diagnostic up to the end of their line; an input that ends inside an object or before the
/// closing `]` gets a `truncated-input` diagnostic, and every complete object before it is kept.
struct JSONArrayLogDecoder: LogDecoder {
    let format = LogFormat.logShowJSON
    private var collected = DecoderStatistics()
    private let configuration: ReaderConfiguration
    private var resolver: TimestampResolver
    /// Reuses the strings of process names, subsystems and categories from record to record.
    private var interner = StringInterner()
    private var skipping: RecordSkipping

    private enum State { case between, record, skippingRecord, garbage }
    private var state = State.between
    private var insideArray = false
    private var record: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var recordLine = 1
    private var recordOffset = 0
    private var line = 1
    private var lineHasBytes = false
    private var consumed = 0
    private var lastCountedLine = 0

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
        self.skipping = RecordSkipping(configuration)
        self.resolver = TimestampResolver(inference: configuration.timeInference)
    }

    var statistics: DecoderStatistics {
        var result = collected
        result.lines = line - (lineHasBytes ? 0 : 1)
        let rest = result.lines - result.eventLines - result.diagnosedLines - (result.skipped[.structure] ?? 0)
        if rest > 0 { result.skip(.structure, lines: rest) }
        return result
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        decode(bytes, offers: takesEveryRecord, emit: emit)
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        var index = 0
        let chunkOffset = consumed
        consumed += bytes.count
        while index < bytes.count {
            switch state {
            case .between:
                let byte = bytes[index]
                index += 1
                switch byte {
                case .newline: line += 1; lineHasBytes = false
                case .space, .tab, .carriageReturn: lineHasBytes = true
                case UInt8(ascii: "[") where !insideArray: insideArray = true; lineHasBytes = true
                case UInt8(ascii: ","), UInt8(ascii: "]"):
                    guard insideArray else { fallthrough }
                    if byte == UInt8(ascii: "]") { insideArray = false }
                    lineHasBytes = true
                case UInt8(ascii: "{"):
                    state = .record
                    record.removeAll(keepingCapacity: true)
                    record.append(byte)
                    depth = 1
                    inString = false
                    escaped = false
                    recordLine = line
                    recordOffset = chunkOffset + index - 1
                    lineHasBytes = true
                default:
                    // The line may already be counted: an object that ended on it (`}x`).
                    report(.malformedLine, "text outside the JSON array's objects; skipped to the end of the line",
                           line: line, offset: chunkOffset + index - 1, lines: lastCountedLine == line ? 0 : 1, emit: emit)
                    lastCountedLine = line
                    lineHasBytes = true
                    state = .garbage
                }
            case .garbage:
                guard let newline = bytes.firstIndex(of: .newline, from: index) else { index = bytes.count; continue }
                index = newline + 1
                line += 1
                lineHasBytes = false
                state = .between
            case .record, .skippingRecord:
                let start = index
                var finished = false
                while index < bytes.count {
                    let byte = bytes[index]
                    index += 1
                    if byte == .newline { line += 1; lineHasBytes = false; continue }
                    lineHasBytes = true
                    if inString {
                        if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                        continue
                    }
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { finished = true }
                    default: break
                    }
                    if finished { break }
                }
                if state == .record {
                    record.append(contentsOf: bytes.slice(start, index))
                    if record.count > configuration.limits.maximumRecordLength {
                        state = .skippingRecord
                        record.removeAll()
                    }
                }
                if finished {
                    finishRecord(offers: offers, emit: emit)
                    state = .between
                }
            }
        }
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        switch state {
        case .record, .skippingRecord:
            report(.truncatedInput, "input ends inside a JSON object", line: recordLine, offset: recordOffset,
                   lines: max(0, line - max(recordLine, lastCountedLine + 1) + (lineHasBytes ? 1 : 0)), emit: emit)
            lastCountedLine = line
        case .between where insideArray:
            report(.truncatedInput, "input ends before the JSON array is closed", line: line, offset: consumed, lines: 0, emit: emit)
        default:
            break
        }
        state = .between
    }

    private mutating func finishRecord(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        let spanned = line - max(recordLine, lastCountedLine + 1) + 1
        lastCountedLine = line
        let origin = EventOrigin(input: configuration.inputName, line: recordLine, byteOffset: recordOffset)
        if state == .skippingRecord {
            report(.lineTooLong, "JSON object longer than \(configuration.limits.maximumRecordLength) bytes; skipped",
                   line: recordLine, offset: recordOffset, lines: spanned, emit: emit)
            return
        }
        var invalidUTF8 = false
        let result = record.withUnsafeBytes { bytes in
            RecordOutcome.decodeObject(bytes, what: "JSON object", origin: origin, resolver: &resolver, interner: &interner,
                                       skipping: &skipping, offers: offers, invalidUTF8: &invalidUTF8)
        }
        switch result {
        case .accepted(let event):
            collected.accept(event, lines: max(spanned, 0), origin: origin, notes: resolver.takeNotes(), invalidUTF8: invalidUTF8, emit: emit)
        case .rejected(var diagnostic):
            diagnostic.lineCount = max(spanned, 0)
            collected.count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
    }

    private mutating func report(_ code: DiagnosticCode, _ message: String, severity: ReaderDiagnostic.Severity = .warning,
                                 line: Int, offset: Int, lines: Int, emit: (ReaderOutput) -> Void) {
        let diagnostic = ReaderDiagnostic(code: code, severity: severity, message: message,
                                          origin: EventOrigin(input: configuration.inputName, line: line, byteOffset: offset), lineCount: lines)
        collected.count(diagnostic)
        emit(.diagnostic(diagnostic))
    }
}
