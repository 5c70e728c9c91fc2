import Foundation
import PrewarmLintModel

/// Reads a binary property list (`bplist00`) of the shapes ``PlistLogDecoder`` reads.
///
/// A binary plist is a graph of objects addressed by an offset table at its *end*, so it cannot be
/// read as a stream: its bytes are held up to ``maximumSize`` and decoded at the end of input by
/// Foundation's `PropertyListSerialization`. A larger file is refused with a diagnostic that says
/// how to convert it (`plutil -convert xml1`, then it streams). Each entry dict becomes the JSON
/// object it stands for and is read by the same mapping as the JSON formats.
///
/// Binary plists have no lines: an event's `line` is its entry's number (1-based), and the
/// summary counts entries as lines.
struct BinaryPlistLogDecoder: LogDecoder {
    let format = LogFormat.binaryPlist
    private let configuration: ReaderConfiguration
    private var resolver: TimestampResolver
    private var collected = DecoderStatistics()
    private var bytes: [UInt8] = []
    private var tooLarge = false
    private var received = 0

    /// The largest binary plist read (64 MiB).
    static let maximumSize = 64 << 20

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
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
        let start = EventOrigin(input: configuration.inputName, line: 1, byteOffset: 0)
        if tooLarge {
            report(.lineTooLong, "binary property list of \(received) bytes is larger than \(Self.maximumSize) bytes, the most read whole; convert it with `plutil -convert xml1` to read it as a stream",
                   severity: .error, origin: start, emit: emit)
            return
        }
        let root: Any
        var detected = PropertyListSerialization.PropertyListFormat.binary
        do {
            root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &detected)
        } catch {
            report(.invalidRecord, "binary property list is corrupt or truncated: \(error.localizedDescription)", severity: .error, origin: start, emit: emit)
            return
        }
        // Foundation falls back to the old text format when the binary one does not parse: that is corruption here.
        guard detected == .binary else {
            report(.invalidRecord, "binary property list is corrupt or truncated (its bytes after `bplist00` are not a binary plist)", severity: .error, origin: start, emit: emit)
            return
        }
        bytes = []
        guard let entries = Self.entries(in: root) else {
            report(.invalidRecord, "this property list holds no array of log entries (dicts keyed like `log show --style json`)", origin: start, emit: emit)
            return
        }
        for (index, item) in entries.enumerated() {
            collected.lines += 1
            let origin = EventOrigin(input: configuration.inputName, line: index + 1, byteOffset: 0)
            guard let entry = item as? [String: Any] else {
                report(.invalidRecord, "plist entry \(index + 1) is not a dict", origin: origin, lines: 1, emit: emit)
                continue
            }
            var json: [UInt8] = []
            Self.appendJSON(entry, to: &json, depth: 0)
            var invalidUTF8 = false
            let outcome = json.withUnsafeBytes { bytes in
                RecordOutcome.decodeObject(bytes, what: "plist entry", origin: origin, resolver: &resolver, invalidUTF8: &invalidUTF8)
            }
            switch outcome {
            case .event(let event):
                for note in resolver.takeNotes() { report(.inferredTime, note, severity: .note, origin: origin, emit: emit) }
                collected.events += 1
                collected.eventLines += 1
                emit(.event(event))
            case .rejected(var diagnostic):
                diagnostic.lineCount = 1
                collected.count(diagnostic)
                emit(.diagnostic(diagnostic))
            }
        }
    }

    /// The entries: the root array, or the first array of dicts among the root dict's values (by key order).
    static func entries(in root: Any) -> [Any]? {
        if let array = root as? [Any] { return array }
        guard let dict = root as? [String: Any] else { return nil }
        for key in dict.keys.sorted() {
            if let array = dict[key] as? [Any], array.first is [String: Any] { return array }
        }
        return nil
    }

    /// A plist value as JSON: dates as `log show` timestamps in UTC, data as null, nesting below 32 levels as null.
    static func appendJSON(_ value: Any, to json: inout [UInt8], depth: Int) {
        guard depth < 32 else { json += Array("null".utf8); return }
        switch value {
        case let text as String:
            JSONEscaping.appendQuoted(text, to: &json)
        case let flag as Bool where type(of: value) == Bool.self:
            json += Array((flag ? "true" : "false").utf8)
        case let number as NSNumber:
            if let integer = Int64(exactly: number.doubleValue), number.doubleValue == number.doubleValue.rounded() {
                json += Array(String(integer).utf8)
            } else if number.doubleValue.isFinite {
                json += Array(String(number.doubleValue).utf8)
            } else {
                json += Array("null".utf8)
            }
        case let date as Date:
            let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
            let civil = CivilDateTime(microsecondsSinceEpoch: microseconds, utcOffsetSeconds: 0)
            let iso = civil.iso8601(utcOffsetSeconds: 0)  // 2024-03-18T23:31:49.000000+00:00
            json += Array("\"\(iso.prefix(10)) \(iso.dropFirst(11).prefix(15))+0000\"".utf8)
        case let dict as [String: Any]:
            json.append(UInt8(ascii: "{"))
            for (index, key) in dict.keys.sorted().enumerated() {
                if index > 0 { json.append(UInt8(ascii: ",")) }
                appendJSON(key, to: &json, depth: depth + 1)
                json.append(UInt8(ascii: ":"))
                appendJSON(dict[key]!, to: &json, depth: depth + 1)
            }
            json.append(UInt8(ascii: "}"))
        case let array as [Any]:
            json.append(UInt8(ascii: "["))
            for (index, item) in array.enumerated() {
                if index > 0 { json.append(UInt8(ascii: ",")) }
                appendJSON(item, to: &json, depth: depth + 1)
            }
            json.append(UInt8(ascii: "]"))
        default:
            json += Array("null".utf8)
        }
    }

    private mutating func report(_ code: DiagnosticCode, _ message: String, severity: ReaderDiagnostic.Severity = .warning,
                                 origin: EventOrigin, lines: Int = 0, emit: (ReaderOutput) -> Void) {
        let diagnostic = ReaderDiagnostic(code: code, severity: severity, message: message, origin: origin, lineCount: lines)
        collected.count(diagnostic)
        emit(.diagnostic(diagnostic))
    }
}
