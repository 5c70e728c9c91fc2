/// Writes JSON text by hand, with keys in the order given, so output is byte-stable and fast.
///
/// The text is kept as UTF-8 bytes and made a `String` only when handed over: appending bytes is a
/// copy, where appending to a `String` checks and counts what it appends (rendering a report was
/// half string appends).
public struct JSONTextWriter {
    private var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    /// An empty writer.
    public init() {}

    /// The JSON written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// How many bytes of JSON are written and not yet handed over.
    public var byteCount: Int { bytes.count }

    /// The JSON written since the last call, handed over and forgotten: what streams a long document
    /// out in pieces, so it is never whole in memory. The writer goes on where it stopped.
    public mutating func takeText() -> String {
        defer { bytes.removeAll(keepingCapacity: true) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A writer for elements of an array opened elsewhere: its text is the elements, separated by
    /// commas, for ``appendElements(_:)`` of that array's writer.
    public static func elements() -> JSONTextWriter {
        var writer = JSONTextWriter()
        writer.needsComma.append(false)
        return writer
    }

    /// Appends elements written by an ``elements()`` writer to the open array.
    public mutating func appendElements(_ elements: String) {
        guard !elements.isEmpty else { return }
        separate()
        append(elements)
    }

    /// Opens an object.
    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    /// Closes the open object.
    public mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    /// Opens an array.
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    /// Closes the open array.
    public mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// Writes a member's key; its value comes next.
    public mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    /// Writes a string, or null.
    public mutating func string(_ value: String?) {
        separate()
        if let value { Self.appendQuoted(value, to: &bytes) } else { append("null") }
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

    private mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `value` in decimal, without making a `String`.
    private static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
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
    public mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    /// Writes a member with an integer (or null) value.
    public mutating func field<T: BinaryInteger>(_ name: String, _ value: T?) { key(name); integer(value) }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
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
        return (control | equal(UInt8(ascii: "\"")) | equal(UInt8(ascii: "\\"))) & ~word & high != 0
    }

    /// `appendQuoted(_:to:)` into bytes: the same text.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            // Runs of bytes that need no escape (most text) are passed eight at a time.
            var clean = 0
            if let base = utf8.baseAddress {
                while clean + 8 <= utf8.count,
                      !mayNeedEscape(UInt64(littleEndian: UnsafeRawPointer(base + clean).loadUnaligned(as: UInt64.self))) {
                    clean += 8
                }
            }
            if clean == utf8.count {
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return
            }
            var runStart = 0
            for (index, byte) in utf8.enumerated().dropFirst(clean) where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
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
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Appends `value` as a JSON string: `"`, `\`, and control characters escaped; `/` left alone.
    public static func appendQuoted(_ value: String, to text: inout String) {
        text.append("\"")
        var needsEscape = false
        for byte in value.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
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
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        text.append("\"")
    }
}
