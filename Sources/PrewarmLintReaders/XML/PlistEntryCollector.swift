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
    override var openRecordLine: Int? { inEntry ? entryStart.line : nil }

    override var noRecordsMessage: String {
        "this property list holds no array of log entries (dicts keyed like `log show --style json`)"
    }

    /// The open plist elements, outermost first.
    private var stack: [Element] = []
    private enum Element: Equatable {
        case plist, array(isEntries: Bool), dict(isEntry: Bool), key, scalar(Scalar), other
    }
    private enum Scalar: Equatable { case string, integer, real, date, data, boolean(Bool) }

    /// The root dict's key being read, and whether a root-dict value array holds entries.
    private var rootKeyPending = false

    // The entry being read.
    private var entryDepth = 0
    private var json: [UInt8] = []
    private var needsComma: [Bool] = []
    private var afterKey = false
    private var text: [UInt8] = []
    private var entryStart = XMLPosition(line: 0, column: 0, byteOffset: 0)
    private var entryTooLong = false

    private var inEntry: Bool { entryDepth > 0 }

    // MARK: SAX

    override func startElement(_ name: UnsafeRawBufferPointer, attributes: XMLAttributes, position: XMLPosition) {
        let element: Element
        if name.equals("dict") {
            let parentIsEntries: Bool
            if case .array(let isEntries)? = stack.last { parentIsEntries = isEntries } else { parentIsEntries = false }
            element = .dict(isEntry: parentIsEntries && !inEntry)
        } else if name.equals("array") {
            // The entries array: the root's, or a value of the root dict.
            let isEntries = !inEntry && (stack == [.plist] || stack == [.plist, .dict(isEntry: false)] && rootKeyPending)
            element = .array(isEntries: isEntries)
        } else if name.equals("key") {
            element = .key
        } else if name.equals("string") {
            element = .scalar(.string)
        } else if name.equals("integer") {
            element = .scalar(.integer)
        } else if name.equals("real") {
            element = .scalar(.real)
        } else if name.equals("date") {
            element = .scalar(.date)
        } else if name.equals("data") {
            element = .scalar(.data)
        } else if name.equals("true") {
            element = .scalar(.boolean(true))
        } else if name.equals("false") {
            element = .scalar(.boolean(false))
        } else if name.equals("plist") {
            element = .plist
        } else {
            element = .other
        }
        stack.append(element)
        switch element {
        case .dict(isEntry: true):
            sawRecords = true
            entryDepth = 1
            json.removeAll(keepingCapacity: true)
            needsComma = [false]
            afterKey = false
            entryTooLong = false
            entryStart = position
            json.append(UInt8(ascii: "{"))
        case .dict, .array:
            if inEntry {
                entryDepth += 1
                separate()
                json.append(element == .dict(isEntry: false) ? UInt8(ascii: "{") : UInt8(ascii: "["))
                needsComma.append(false)
            }
        case .key, .scalar:
            text.removeAll(keepingCapacity: true)
        default:
            break
        }
    }

    override func endElement(_ name: UnsafeRawBufferPointer, position: XMLPosition) {
        guard let element = stack.popLast() else { return }
        switch element {
        case .dict(isEntry: true):
            json.append(UInt8(ascii: "}"))
            entryDepth = 0
            finishEntry(end: position)
        case .dict, .array:
            if inEntry {
                entryDepth -= 1
                needsComma.removeLast()
                json.append(element == .dict(isEntry: false) ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
            if stack == [.plist, .dict(isEntry: false)] { rootKeyPending = false }
        case .key:
            if inEntry {
                separate()
                appendQuoted(text)
                json.append(UInt8(ascii: ":"))
                afterKey = true
            } else if stack == [.plist, .dict(isEntry: false)] {
                rootKeyPending = true
            }
        case .scalar(let scalar):
            if inEntry { appendValue(scalar) }
            if stack == [.plist, .dict(isEntry: false)] { rootKeyPending = false }
        case .plist, .other:
            break
        }
        if inEntry, json.count > configuration.limits.maximumRecordLength { entryTooLong = true; json.removeAll(keepingCapacity: true) }
    }

    override func characters(_ bytes: UnsafeRawBufferPointer) {
        guard inEntry, case .scalar? = stack.last ?? nil else {
            if case .key? = stack.last, inEntry { append(text: bytes) }
            return
        }
        append(text: bytes)
    }

    private func append(text bytes: UnsafeRawBufferPointer) {
        guard !entryTooLong else { return }
        if text.count + bytes.count > configuration.limits.maximumMessageLength {
            entryTooLong = true
            text.removeAll()
            return
        }
        text.append(contentsOf: bytes)
    }

    // MARK: JSON

    private func separate() {
        if afterKey { afterKey = false; return }
        if needsComma[needsComma.count - 1] { json.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private func appendValue(_ scalar: Scalar) {
        guard !entryTooLong else { return }
        separate()
        switch scalar {
        case .string:
            appendQuoted(text)
        case .integer, .real:
            let number = text.trimmingASCIISpaces()
            if Self.isJSONNumber(number) { json.append(contentsOf: number) } else { json.append(contentsOf: Array("null".utf8)) }
        case .date:
            // `2024-03-18T23:31:49Z` (plist dates are UTC, whole seconds) → `2024-03-18 23:31:49.000000+0000`.
            let date = text.trimmingASCIISpaces()
            if date.count == 20, date[10] == UInt8(ascii: "T"), date[19] == UInt8(ascii: "Z") {
                var rewritten = Array(date[0..<10])
                rewritten.append(UInt8(ascii: " "))
                rewritten.append(contentsOf: date[11..<19])
                rewritten.append(contentsOf: Array(".000000+0000".utf8))
                appendQuoted(rewritten)
            } else {
                appendQuoted(date)
            }
        case .data:
            json.append(contentsOf: Array("null".utf8))
        case .boolean(let value):
            json.append(contentsOf: Array((value ? "true" : "false").utf8))
        }
    }

    private func appendQuoted(_ bytes: some Sequence<UInt8>) { JSONEscaping.appendQuoted(bytes, to: &json) }

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

    // MARK: entries

    private func finishEntry(end: XMLPosition) {
        let spanned = span(from: entryStart.line, to: end.line)
        let origin = EventOrigin(input: configuration.inputName, line: entryStart.line, byteOffset: entryStart.byteOffset)
        if entryTooLong {
            reject(ReaderDiagnostic(code: .lineTooLong, severity: .warning,
                                    message: "plist entry longer than \(configuration.limits.maximumRecordLength) bytes (or a value longer than \(configuration.limits.maximumMessageLength)); skipped",
                                    origin: origin), lines: spanned)
            return
        }
        var invalidUTF8 = false
        let outcome = json.withUnsafeBytes { bytes in
            RecordOutcome.decodeObject(bytes, what: "plist entry", origin: origin, resolver: &resolver, invalidUTF8: &invalidUTF8)
        }
        switch outcome {
        case .event(let event): accept(event, lines: spanned, invalidUTF8: invalidUTF8)
        case .rejected(let diagnostic): reject(diagnostic, lines: spanned)
        }
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
