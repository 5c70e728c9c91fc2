import PrewarmLintModel

/// Writes JSON text by hand, with keys in the order given, so output is byte-stable and fast.
///
/// The text is kept as UTF-8 bytes and made a `String` only when handed over: appending bytes is a
/// copy, where appending to a `String` checks and counts what it appends (rendering a report was
/// half string appends).
public struct JSONTextWriter {
    private var bytes = JSONBytes()
    /// Whether the open object or array has a member already, so the next one needs a comma.
    private var needsComma = false
    /// ``needsComma`` of the (up to) 64 nearest enclosing levels, the innermost in bit 0.
    private var enclosing: UInt64 = 0
    /// How many levels enclose the open one.
    private var depth = 0
    /// ``needsComma`` of levels enclosing more than 64 deep, outermost first.
    private var deeper: [Bool] = []

    /// An empty writer.
    public init() {}

    /// The JSON written so far.
    public var text: String { bytes.withBytes { String(decoding: $0, as: UTF8.self) } }

    /// How many bytes of JSON are written and not yet handed over.
    public var byteCount: Int { bytes.count }

    /// The JSON written since the last call, handed over and forgotten: what streams a long document
    /// out in pieces, so it is never whole in memory. The writer goes on where it stopped.
    public mutating func takeText() -> String {
        defer { bytes.removeAll() }
        return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The JSON written since the last call, handed to `body` as UTF-8 (valid only during the call) and forgotten:
    /// ``takeText()`` without making a `String` of it. The writer goes on where it stopped.
    public mutating func takeBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        bytes.withBytes { body($0) }
        bytes.removeAll()
    }

    /// A line break, outside any value (the end of a line of JSON).
    mutating func appendLineBreak() { bytes.append(UInt8(ascii: "\n")) }

    /// Ends a line of JSON Lines (NDJSON): a line break after a value written at the top, the next value starting a
    /// line of its own, with no comma before it.
    mutating func endJSONLine() {
        precondition(depth == 0, "a JSON line ends outside any object or array")
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// A writer for elements of an array opened elsewhere: its text is the elements, separated by
    /// commas, for ``appendElements(_:)`` of that array's writer.
    public static func elements() -> JSONTextWriter {
        var writer = JSONTextWriter()
        writer.enter()
        return writer
    }

    /// Appends elements written by an ``elements()`` writer to the open array.
    public mutating func appendElements(_ elements: String) {
        guard !elements.isEmpty else { return }
        separate()
        append(elements)
    }

    /// Appends what an ``elements()`` writer wrote to the open array, as ``appendElements(_:)`` does, byte for byte.
    mutating func appendElements(of elements: JSONTextWriter) {
        guard elements.byteCount > 0 else { return }
        separate()
        elements.bytes.withBytes { bytes.append(contentsOf: $0) }
    }

    private mutating func enter() {
        if depth >= 64 { deeper.append(enclosing >> 63 != 0) }
        enclosing = enclosing << 1 | (needsComma ? 1 : 0)
        depth += 1
        needsComma = false
    }

    private mutating func leave() {
        guard depth > 0 else { return }
        needsComma = enclosing & 1 != 0
        enclosing >>= 1
        depth -= 1
        if depth >= 64, deeper.removeLast() { enclosing |= 1 << 63 }
    }

    /// Opens an object.
    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); enter() }
    /// Closes the open object.
    public mutating func endObject() { leave(); bytes.append(UInt8(ascii: "}")) }
    /// Opens an array.
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); enter() }
    /// Closes the open array.
    public mutating func endArray() { leave(); bytes.append(UInt8(ascii: "]")) }

    /// Writes a member's key; its value comes next.
    @_disfavoredOverload
    public mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member's key written as a literal (`key("id")`): its bytes are copied as they are when none needs an
    /// escape, with no `String` made. A report writes a few dozen keys per session, and a literal passed as a `String`
    /// is built and checked each time; the `String` forms are disfavoured, so that a literal comes here.
    public mutating func key(_ name: StaticString) {
        // (A one-character literal is held as a scalar, not as bytes: it takes the general way.)
        if name.hasPointerRepresentation {
            let raw = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            // A key of a word or less, as most are, is checked byte by byte: filling out a word for the check was a
            // `memcpy` of its own.
            if raw.count <= 8 ? Self.isClean(short: raw) : Self.cleanLength(of: raw) == raw.count {
                // The comma, the quoted key and the colon in one reservation.
                bytes.appendKey(raw, afterComma: needsComma)
                needsComma = false
                return
            }
        }
        separate()
        needsComma = false
        Self.appendQuoted(name.description, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a string, or null.
    public mutating func string(_ value: String?) {
        separate()
        if let value { Self.appendQuoted(value, to: &bytes) } else { append("null") }
    }

    /// Writes a timestamp as `LogTimestamp.iso8601` does, or null, without making a `String`.
    public mutating func time(_ value: LogTimestamp?) {
        separate()
        guard let value else { return append("null") }
        CivilDateTime(microsecondsSinceEpoch: value.microsecondsSinceEpoch, utcOffsetSeconds: value.utcOffsetSeconds)
            .withISO8601Bytes(utcOffsetSeconds: value.utcOffsetSeconds) { bytes.appendQuoted($0) }
    }

    /// Writes an integer, or null.
    public mutating func integer<T: BinaryInteger>(_ value: T?) {
        separate()
        guard let value else { return append("null") }
        if let small = Int64(exactly: value) {
            Self.appendDecimal(small, to: &bytes)
        } else {
            append(String(value))
        }
    }

    @_disfavoredOverload
    private mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    /// A literal's bytes (`null`, `true`), as they are.
    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    /// `value` in decimal, without making a `String`.
    private static func appendDecimal(_ value: Int64, to bytes: inout JSONBytes) {
        DecimalText.withDigits(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Writes a number: integral values without a fraction, others with at most three decimals; null when not finite.
    public mutating func number(_ value: Double) {
        separate()
        append(value.isFinite ? Self.numberText(value) : "null")
    }

    /// A finite number as JSON writes it here (`12`, `12.5`, `0.001`).
    public static func numberText(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) { separate(); append(value ? "true" : "false") }

    /// Writes a member with a string (or null) value.
    @_disfavoredOverload
    public mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    /// Writes a member with an integer (or null) value.
    @_disfavoredOverload
    public mutating func field<T: BinaryInteger>(_ name: String, _ value: T?) { key(name); integer(value) }
    /// Writes a member with a timestamp (or null) value, as `LogTimestamp.iso8601` writes it.
    @_disfavoredOverload
    public mutating func field(_ name: String, _ value: LogTimestamp?) { key(name); time(value) }
    /// Writes a member with a string (or null) value, its key a literal (as `key("id")`).
    public mutating func field(_ name: StaticString, _ value: String?) { key(name); string(value) }
    /// Writes a member with an integer (or null) value, its key a literal.
    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T?) { key(name); integer(value) }
    /// Writes a member with a timestamp (or null) value, its key a literal.
    public mutating func field(_ name: StaticString, _ value: LogTimestamp?) { key(name); time(value) }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Whether any of the eight bytes of `word` is below 0x20, a `"` or a `\`: the bytes a JSON string escapes.
    /// (Each test on a byte's low seven bits, so no carry crosses into the next byte; bytes of 0x80 and above,
    /// which are never escaped, are masked out.)
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        let sevenBits = word & (0x7F &* ones)
        func equal(_ byte: UInt8) -> UInt64 {
            let differing = sevenBits ^ (UInt64(byte) &* ones)
            return ~((differing &+ 0x7F &* ones) | differing) & high
        }
        let control = ~(sevenBits &+ (0x80 - 0x20) &* ones) & high
        // (A byte of 0x80 and above sends the word to be looked at too: it may start an invisible format character.)
        return (control | equal(UInt8(ascii: "\"")) | equal(UInt8(ascii: "\\"))) & ~word & high != 0 || word & high != 0
    }

    /// The invisible format character (``DisplayText/isInvisibleFormat(_:)``) whose UTF-8 starts at `index`, and its
    /// length: written as `\uXXXX` (a surrogate pair past U+FFFF), so that the JSON text shows it where the value is the
    /// same.
    @inline(__always)
    private static func invisibleFormat(in text: UnsafeRawBufferPointer, at index: Int) -> (value: UInt32, length: Int)? {
        let lead = text[index]
        guard DisplayText.mayLead(lead) else { return nil }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= text.count else { return nil }
        var value = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for offset in 1..<length { value = value << 6 | UInt32(text[index + offset] & 0x3F) }
        return DisplayText.isInvisibleFormat(value) ? (value, length) : nil
    }

    /// `\uXXXX` for `value`, a surrogate pair past U+FFFF; lowercase hex, as the control characters' escapes.
    private static func unicodeEscape(_ value: UInt32) -> [UInt8] {
        let hexDigits = Array("0123456789abcdef".utf8)
        func unit(_ unit: UInt32) -> [UInt8] {
            [UInt8(ascii: "\\"), UInt8(ascii: "u")] + [12, 8, 4, 0].map { hexDigits[Int((unit >> UInt32($0)) & 0xF)] }
        }
        guard value > 0xFFFF else { return unit(value) }
        let offset = value - 0x10000
        return unit(0xD800 + (offset >> 10)) + unit(0xDC00 + (offset & 0x3FF))
    }

    /// How many of the first bytes of `text` need no escape, counted in words: all of them, or a count at or before
    /// the first byte that needs one. Runs of bytes that need no escape (most text) are passed eight at a time, and
    /// the last few bytes as one word too, filled out with a byte that needs none: short strings (keys, names) are
    /// most of those written.
    @inline(__always)
    private static func cleanLength(of text: UnsafeRawBufferPointer) -> Int {
        guard let base = text.baseAddress else { return 0 }
        var clean = 0
        while clean + 8 <= text.count, !mayNeedEscape(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: clean, as: UInt64.self))) {
            clean += 8
        }
        if clean < text.count, text.count - clean < 8 {
            var tail: UInt64 = 0x2020_2020_2020_2020
            withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: text[clean...])) }
            if !mayNeedEscape(UInt64(littleEndian: tail)) { clean = text.count }
        }
        return clean
    }

    /// Whether none of the (at most eight) bytes of `text` needs an escape.
    @inline(__always)
    private static func isClean(short text: UnsafeRawBufferPointer) -> Bool {
        for byte in text where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
        return true
    }

    /// `appendQuoted(_:to:)` into bytes: the same text.
    static func appendQuoted(_ value: String, to bytes: inout JSONBytes) {
        var value = value
        value.withUTF8 { utf8 in
            let clean = cleanLength(of: UnsafeRawBufferPointer(utf8))
            if clean == utf8.count {
                bytes.appendQuoted(UnsafeRawBufferPointer(utf8))
                return
            }
            bytes.append(UInt8(ascii: "\""))
            var runStart = 0
            let text = UnsafeRawBufferPointer(utf8)
            for index in clean..<utf8.count where index >= runStart {
                let byte = utf8[index]
                if byte >= 0x80 {
                    guard let (value, length) = invisibleFormat(in: text, at: index) else { continue }
                    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart..<index]))
                    runStart = index + length
                    unicodeEscape(value).withUnsafeBytes { bytes.append(contentsOf: $0) }
                    continue
                }
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
                default:
                    // `\u00XX`, lowercase, as the `String` version writes it.
                    let hexDigits: StaticString = "0123456789abcdef"
                    bytes.append(UInt8(ascii: "u"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
                    bytes.append(hexDigits.utf8Start[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[runStart...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Appends `value` as a JSON string: `"`, `\`, and control characters escaped; `/` left alone.
    public static func appendQuoted(_ value: String, to text: inout String) {
        text.append("\"")
        var needsEscape = false
        for byte in value.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || DisplayText.mayLead(byte) {
            needsEscape = true
            break
        }
        if !needsEscape {
            text.append(value)
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text.append("\\\"")
                case "\\": text.append("\\\\")
                case "\n": text.append("\\n")
                case "\r": text.append("\\r")
                case "\t": text.append("\\t")
                case _ where scalar.value < 0x20 || DisplayText.isInvisibleFormat(scalar.value):
                    text.append(String(decoding: unicodeEscape(scalar.value), as: UTF8.self))
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        text.append("\"")
    }
}

/// The bytes of a ``JSONTextWriter``: a buffer it grows itself, copied when a copy of the writer writes (as an
/// array would be), so that an append is a capacity check and a copy (an array append is a generic call, and a report
/// is mostly short appends).
struct JSONBytes {
    private final class Storage {
        var base: UnsafeMutableRawPointer
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(byteCount: capacity, alignment: 1)
        }

        deinit { base.deallocate() }

        func copy(capacity: Int) -> Storage {
            let copy = Storage(capacity: capacity)
            copy.base.copyMemory(from: base, byteCount: count)
            copy.count = count
            return copy
        }
    }

    private var storage = Storage(capacity: 256)

    var count: Int { storage.count }

    /// Room for `extra` more bytes in storage of this writer's own; where they go.
    @inline(__always)
    private mutating func reserve(_ extra: Int) -> UnsafeMutableRawPointer {
        let needed = storage.count + extra
        if !isKnownUniquelyReferenced(&storage) || needed > storage.capacity {
            storage = storage.copy(capacity: Swift.max(needed, storage.capacity * 2))
        }
        return storage.base + storage.count
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1).storeBytes(of: byte, as: UInt8.self)
        storage.count += 1
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count).copyMemory(from: source, byteCount: bytes.count)
        storage.count += bytes.count
    }

    /// `"`, `bytes` as they are, `"`; and `:` after them for a member's key (one reservation for all).
    @inline(__always)
    mutating func appendQuoted(_ bytes: UnsafeRawBufferPointer, asKey: Bool = false) {
        let length = bytes.count + (asKey ? 3 : 2)
        let out = reserve(length)
        out.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        if let source = bytes.baseAddress { (out + 1).copyMemory(from: source, byteCount: bytes.count) }
        (out + 1 + bytes.count).storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        if asKey { (out + 2 + bytes.count).storeBytes(of: UInt8(ascii: ":"), as: UInt8.self) }
        storage.count += length
    }

    /// `,` when `afterComma`, then `"`, `key` as it is, `"` and `:`, in one reservation; a key of up to sixteen
    /// bytes copied in two words (a `memcpy` call cost more than the rest of the key).
    @inline(__always)
    mutating func appendKey(_ key: UnsafeRawBufferPointer, afterComma: Bool) {
        let comma = afterComma ? 1 : 0
        let length = key.count + 3 + comma
        let out = reserve(length)
        out.storeBytes(of: UInt8(ascii: ","), as: UInt8.self)
        let quote = out + comma
        quote.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        if let source = key.baseAddress {
            let count = key.count
            if count >= 8, count <= 16 {
                // The first eight bytes and the last eight (overlapping when fewer than sixteen).
                (quote + 1).storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
                (quote + 1 + count - 8).storeBytes(of: source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), as: UInt64.self)
            } else if count < 8 {
                for index in 0..<count { (quote + 1 + index).storeBytes(of: source.load(fromByteOffset: index, as: UInt8.self), as: UInt8.self) }
            } else {
                (quote + 1).copyMemory(from: source, byteCount: count)
            }
        }
        (quote + 1 + key.count).storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        (quote + 2 + key.count).storeBytes(of: UInt8(ascii: ":"), as: UInt8.self)
        storage.count += length
    }

    /// Forgets the bytes, keeping the room.
    mutating func removeAll() {
        if isKnownUniquelyReferenced(&storage) { storage.count = 0 } else { storage = Storage(capacity: storage.capacity) }
    }

    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
    }
}
