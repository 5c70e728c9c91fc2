import PrewarmLintModel

/// Reads a binary property list (`bplist00`) of the shapes ``PlistLogDecoder`` reads.
///
/// A binary plist is a graph of objects addressed by an offset table at its *end*, so it cannot be
/// read as a stream: its bytes are held up to ``maximumSize`` and decoded at the end of input by
/// ``BinaryPlist``, a strict reader of the `bplist00` layout (every offset, length and reference
/// checked; a corrupt file is an error, never a guess). A larger file is refused with a diagnostic
/// that says how to convert it (`plutil -convert xml1`, then it streams). Each entry dict becomes
/// the JSON object it stands for and is read by the same mapping as the JSON formats.
///
/// Binary plists have no lines: an event's `line` is its entry's number (1-based), and the
/// summary counts entries as lines.
struct BinaryPlistLogDecoder: LogDecoder {
    let format = LogFormat.binaryPlist
    private let configuration: ReaderConfiguration
    private var resolver: TimestampResolver
    /// Reuses the strings of process names, subsystems and categories from record to record.
    private var interner = StringInterner()
    private var skipping: RecordSkipping
    private var collected = DecoderStatistics()
    private var bytes: [UInt8] = []
    private var tooLarge = false
    private var received = 0

    /// The largest binary plist read (64 MiB).
    static let maximumSize = 64 << 20

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
        self.skipping = RecordSkipping(configuration)
        self.resolver = TimestampResolver(inference: configuration.timeInference)
    }

    var statistics: DecoderStatistics { collected }

    mutating func decode(_ chunk: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        received += chunk.count
        guard !tooLarge else { return }
        if bytes.count + chunk.count > Self.maximumSize {
            tooLarge = true
            bytes = []
            return
        }
        bytes.append(contentsOf: chunk)
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        decodeLast(offers: takesEveryRecord, emit: emit)
    }

    mutating func decodeLast(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        let start = EventOrigin(input: configuration.inputName, line: 1, byteOffset: 0)
        if tooLarge {
            report(.lineTooLong, "binary property list of \(received) bytes is larger than \(Self.maximumSize) bytes, the most read whole; convert it with `plutil -convert xml1` to read it as a stream",
                   severity: .error, origin: start, emit: emit)
            return
        }
        let held = bytes
        bytes = []
        held.withUnsafeBytes { raw in
            let document: BinaryPlist
            let entries: [Int]
            do throws(BinaryPlist.Corrupt) {
                document = try BinaryPlist(raw)
                guard let found = try document.entries() else {
                    report(.invalidRecord, "this property list holds no array of log entries (dicts keyed like `log show --style json`)", origin: start, emit: emit)
                    return
                }
                entries = found
            } catch {
                report(.invalidRecord, "binary property list is corrupt or truncated: \(error.reason)", severity: .error, origin: start, emit: emit)
                return
            }
            var json: [UInt8] = []
            for (index, object) in entries.enumerated() {
                collected.lines += 1
                let origin = EventOrigin(input: configuration.inputName, line: index + 1, byteOffset: document.offset(of: object) ?? 0)
                json.removeAll(keepingCapacity: true)
                do throws(BinaryPlist.Corrupt) {
                    guard try document.isDict(object) else {
                        report(.invalidRecord, "plist entry \(index + 1) is not a dict", origin: origin, lines: 1, emit: emit)
                        continue
                    }
                    try document.appendJSON(object, to: &json, limit: configuration.limits.maximumRecordLength)
                } catch {
                    report(.invalidRecord, "plist entry \(index + 1) is corrupt: \(error.reason)", origin: origin, lines: 1, emit: emit)
                    continue
                }
                var invalidUTF8 = false
                let outcome = json.withUnsafeBytes { bytes in
                    RecordOutcome.decodeObject(bytes, what: "plist entry", origin: origin, resolver: &resolver, interner: &interner,
                                               skipping: &skipping, offers: offers, invalidUTF8: &invalidUTF8)
                }
                switch outcome {
                case .accepted(let event):
                    collected.accept(event, lines: 1, origin: origin, notes: resolver.takeNotes(), invalidUTF8: invalidUTF8, emit: emit)
                case .rejected(var diagnostic):
                    diagnostic.lineCount = 1
                    collected.count(diagnostic)
                    emit(.diagnostic(diagnostic))
                }
            }
        }
    }

    private mutating func report(_ code: DiagnosticCode, _ message: String, severity: ReaderDiagnostic.Severity = .warning,
                                 origin: EventOrigin, lines: Int = 0, emit: (ReaderOutput) -> Void) {
        let diagnostic = ReaderDiagnostic(code: code, severity: severity, message: message, origin: origin, lineCount: lines)
        collected.count(diagnostic)
        emit(.diagnostic(diagnostic))
    }
}
