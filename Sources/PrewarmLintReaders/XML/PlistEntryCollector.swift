import PrewarmLintModel

/// Reads an XML property list of log entries: a top-level `<array>` of `<dict>`s keyed like
/// `log show --style json` (`timestamp`, `processImagePath`, `processID`, `eventMessage`, …) or like
/// pymobiledevice3's JSON (`timestamp`, `filename`, `pid`, `message`, `label` {…}), or a top-level
/// `<dict>` one of whose values is such an array.
///
/// libxml2 parses the bytes as they come (``XMLPushParser``); each entry `<dict>` is rewritten as
/// the JSON object it stands for and read by the same ``JSONLogRecord`` mapping as the JSON
/// formats, so a plist and an ndjson rendering of one log give the same events. `<date>` becomes a
/// timestamp in UTC, `<integer>`/`<real>` numbers, `<true/>`/`<false/>` booleans; `<data>` is
/// dropped; nested dicts and arrays are carried (pymobiledevice3's `label`) and ignored unless
/// known. Only the entry being read is held, up to ``ReaderLimits/maximumRecordLength``.
///
/// A state machine over plist elements that turns each entry into JSON bytes and then into an event.
final class PlistEntryCollector: XMLRecordCollector {
    override var openRecordLine: Int? { machine.pointee.inEntry ? entryStart.line : nil }

    override var noRecordsMessage: String {
        "this property list holds no array of log entries (dicts keyed like `log show --style json`)"
    }

    /// All per-element state lives in one struct behind a pointer the collector owns: state in class
    /// properties costs a dynamic exclusivity check on every touch, millions of times per file.
    private let machine: UnsafeMutablePointer<PlistMachine>
    private var entryStart = XMLPosition(line: 0, column: 0, byteOffset: 0)

    override init(configuration: ReaderConfiguration) {
        machine = .allocate(capacity: 1)
        machine.initialize(to: PlistMachine(maximumRecordLength: configuration.limits.maximumRecordLength,
                                            maximumValueLength: configuration.limits.maximumMessageLength))
        super.init(configuration: configuration)
    }

    deinit {
        machine.deinitialize(count: 1)
        machine.deallocate()
    }

    override func startElement(_ name: UnsafeRawBufferPointer, attributes: XMLAttributes, at location: XMLLocation) {
        if machine.pointee.start(name) {
            sawRecords = true
            entryStart = location.position
        }
    }

    override func endElement(_ name: UnsafeRawBufferPointer, at location: XMLLocation) {
        if machine.pointee.end() { finishEntry(end: location.position) }
    }

    override func characters(_ bytes: UnsafeRawBufferPointer) {
        machine.pointee.characters(bytes)
    }

    private func finishEntry(end: XMLPosition) {
        let spanned = span(from: entryStart.line, to: end.line)
        let origin = EventOrigin(input: configuration.inputName, line: entryStart.line, byteOffset: entryStart.byteOffset)
        if machine.pointee.entryTooLong {
            reject(ReaderDiagnostic(code: .lineTooLong, severity: .warning,
                                    message: "plist entry longer than \(configuration.limits.maximumRecordLength) bytes (or a value longer than \(configuration.limits.maximumMessageLength)); skipped",
                                    origin: origin), lines: spanned)
            return
        }
        var invalidUTF8 = false
        let outcome = machine.pointee.json.withUnsafeBytes { bytes in
            RecordOutcome.decodeObject(bytes, what: "plist entry", origin: origin, resolver: &resolver, interner: &interner,
                                       skipping: &skipping, offers: takesEveryRecord, invalidUTF8: &invalidUTF8)
        }
        switch outcome {
        case .accepted(let event): accept(event, lines: spanned, invalidUTF8: invalidUTF8, origin: origin)
        case .rejected(let diagnostic): reject(diagnostic, lines: spanned)
        }
    }
}

/// The plist grammar, element by element: where the entries array is, where an entry starts and
/// ends, and the entry's JSON as it is built.
struct PlistMachine {
    enum Kind: UInt8 { case plist, array, dict, key, string, integer, real, date, data, trueValue, falseValue, other }

    let maximumRecordLength: Int
    let maximumValueLength: Int

    /// Element depth: 1 is `<plist>`.
    private var depth = 0
    private var rootIsDict = false
    private var rootKeyPending = false
    /// The depth of the array whose dicts are entries.
    private var entriesDepth = -1
    /// The depth of the entry dict, while one is open.
    private var entryDepth = -1
    /// Containers open inside the entry (`dict`/`array`), and whether each needs a comma next.
    private var containers: [(kind: Kind, needsComma: Bool)] = []
    private var afterKey = false
    /// The scalar or key being read.
    private var leaf: Kind?
    private var text: [UInt8] = []
    private(set) var json: [UInt8] = []
    private(set) var entryTooLong = false

    init(maximumRecordLength: Int, maximumValueLength: Int) {
        self.maximumRecordLength = maximumRecordLength
        self.maximumValueLength = maximumValueLength
        json.reserveCapacity(4096)
        text.reserveCapacity(1024)
    }

    var inEntry: Bool { entryDepth >= 0 }

    static func kind(_ name: UnsafeRawBufferPointer) -> Kind {
        switch name.count {
        case 3: return name.equals("key") ? .key : .other
        case 4:
            if name.equals("dict") { return .dict }
            if name.equals("date") { return .date }
            if name.equals("data") { return .data }
            if name.equals("true") { return .trueValue }
            if name.equals("real") { return .real }
            return .other
        case 5:
            if name.equals("array") { return .array }
            if name.equals("plist") { return .plist }
            if name.equals("false") { return .falseValue }
            return .other
        case 6: return name.equals("string") ? .string : .other
        case 7: return name.equals("integer") ? .integer : .other
        default: return .other
        }
    }

    /// An element starts; true when it starts an entry.
    mutating func start(_ name: UnsafeRawBufferPointer) -> Bool {
        depth += 1
        let kind = Self.kind(name)
        if inEntry {
            switch kind {
            case .dict, .array:
                separate()
                json.append(kind == .dict ? UInt8(ascii: "{") : UInt8(ascii: "["))
                containers.append((kind, false))
            case .other, .plist:
                break
            default:
                leaf = kind
                text.removeAll(keepingCapacity: true)
            }
            return false
        }
        if depth == 3, rootIsDict { rootChildKind = kind }
        switch kind {
        case .dict where depth == 2:
            rootIsDict = true
        case .dict where depth == entriesDepth + 1:
            entryDepth = depth
            json.removeAll(keepingCapacity: true)
            json.append(UInt8(ascii: "{"))
            containers.removeAll(keepingCapacity: true)
            containers.append((.dict, false))
            afterKey = false
            entryTooLong = false
            return true
        case .array where depth == 2 || (depth == 3 && rootIsDict && rootKeyPending):
            entriesDepth = depth
        default:
            break
        }
        return false
    }

    /// An element ends; true when it ends an entry.
    mutating func end() -> Bool {
        defer { depth -= 1 }
        if inEntry {
            if depth == entryDepth {
                json.append(UInt8(ascii: "}"))
                entryDepth = -1
                return true
            }
            if let kind = leaf {
                leaf = nil
                if kind == .key {
                    separate()
                    appendQuoted()
                    json.append(UInt8(ascii: ":"))
                    afterKey = true
                } else {
                    appendValue(kind)
                }
            } else if containers.count > 1, depth == entryDepth + containers.count - 1 {
                let closed = containers.removeLast()
                json.append(closed.kind == .dict ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
            if json.count > maximumRecordLength {
                entryTooLong = true
                json.removeAll(keepingCapacity: true)
            }
            return false
        }
        if depth == entriesDepth { entriesDepth = -1 }
        if rootIsDict, depth == 3 {
            // A root key names the value after it; any other element is that value, and consumes the key.
            rootKeyPending = rootChildKind == .key
        }
        return false
    }

    /// The kind of the root dict's child being read (depth 3).
    private var rootChildKind: Kind = .other

    mutating func characters(_ bytes: UnsafeRawBufferPointer) {
        guard inEntry, leaf != nil, !entryTooLong else { return }
        if text.count + bytes.count > maximumValueLength {
            entryTooLong = true
            text.removeAll()
            return
        }
        // As typed bytes: a raw buffer would be appended byte by byte.
        text.append(contentsOf: bytes.bindMemory(to: UInt8.self))
    }

    private mutating func separate() {
        if afterKey { afterKey = false; return }
        if containers[containers.count - 1].needsComma { json.append(UInt8(ascii: ",")) }
        containers[containers.count - 1].needsComma = true
    }

    private mutating func appendQuoted() {
        text.withUnsafeBytes { JSONEscaping.appendQuoted($0, to: &json) }
    }

    private mutating func appendValue(_ kind: Kind) {
        guard !entryTooLong else { return }
        separate()
        switch kind {
        case .string:
            appendQuoted()
        case .integer, .real:
            let number = text.trimmingASCIISpaces()
            if PlistMachine.isJSONNumber(number) { json.append(contentsOf: number) } else { json.append(contentsOf: Self.null) }
        case .date:
            // `2024-03-18T23:31:49Z` (plist dates are UTC, whole seconds) → `2024-03-18 23:31:49.000000+0000`.
            let date = text.trimmingASCIISpaces()
            if date.count == 20, date[date.startIndex + 10] == UInt8(ascii: "T"), date[date.startIndex + 19] == UInt8(ascii: "Z") {
                var rewritten = Array(date.prefix(10))
                rewritten.append(UInt8(ascii: " "))
                rewritten.append(contentsOf: date.dropFirst(11).prefix(8))
                rewritten.append(contentsOf: Array(".000000+0000".utf8))
                rewritten.withUnsafeBytes { JSONEscaping.appendQuoted($0, to: &json) }
            } else {
                Array(date).withUnsafeBytes { JSONEscaping.appendQuoted($0, to: &json) }
            }
        case .trueValue:
            json.append(contentsOf: Self.trueText)
        case .falseValue:
            json.append(contentsOf: Self.falseText)
        default:
            json.append(contentsOf: Self.null)
        }
    }

    private static let null = Array("null".utf8)
    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    static func isJSONNumber(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var index = bytes.startIndex
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; digits += 1 }
        guard digits > 0 else { return false }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var fraction = 0
            while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; fraction += 1 }
            guard fraction > 0 else { return false }
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            var exponent = 0
            while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; exponent += 1 }
            guard exponent > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}

extension Array where Element == UInt8 {
    /// The bytes without leading and trailing ASCII spaces, tabs and line breaks.
    func trimmingASCIISpaces() -> ArraySlice<UInt8> {
        var start = startIndex, end = endIndex
        while start < end, self[start] == .space || self[start] == .tab || self[start] == .newline || self[start] == .carriageReturn { start += 1 }
        while end > start, self[end - 1] == .space || self[end - 1] == .tab || self[end - 1] == .newline || self[end - 1] == .carriageReturn { end -= 1 }
        return self[start..<end]
    }
}
