/// Writes JSON text by hand, with keys in the order given, so output is byte-stable and fast.
public struct JSONTextWriter {
    /// The JSON written so far.
    public private(set) var text = ""
    private var needsComma: [Bool] = [false]

    /// An empty writer.
    public init() {}

    /// The JSON written since the last call, handed over and forgotten: what streams a long document
    /// out in pieces, so it is never whole in memory. The writer goes on where it stopped.
    public mutating func takeText() -> String {
        defer { text = "" }
        return text
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
        text.append(elements)
    }

    /// Opens an object.
    public mutating func beginObject() { separate(); text.append("{"); needsComma.append(false) }
    /// Closes the open object.
    public mutating func endObject() { needsComma.removeLast(); text.append("}") }
    /// Opens an array.
    public mutating func beginArray() { separate(); text.append("["); needsComma.append(false) }
    /// Closes the open array.
    public mutating func endArray() { needsComma.removeLast(); text.append("]") }

    /// Writes a member's key; its value comes next.
    public mutating func key(_ name: String) {
        separate()
        JSONTextWriter.appendQuoted(name, to: &text)
        text.append(":")
        needsComma[needsComma.count - 1] = false
    }

    /// Writes a string, or null.
    public mutating func string(_ value: String?) {
        separate()
        if let value { JSONTextWriter.appendQuoted(value, to: &text) } else { text.append("null") }
    }

    /// Writes an integer, or null.
    public mutating func integer<T: BinaryInteger>(_ value: T?) {
        separate()
        if let value { text.append(String(value)) } else { text.append("null") }
    }

    /// Writes a number: integral values without a fraction, others with at most three decimals; null when not finite.
    public mutating func number(_ value: Double) {
        separate()
        text.append(value.isFinite ? Self.numberText(value) : "null")
    }

    /// A finite number as JSON writes it here (`12`, `12.5`, `0.001`).
    public static func numberText(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) { separate(); text.append(value ? "true" : "false") }

    /// Writes a member with a string (or null) value.
    public mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    /// Writes a member with an integer (or null) value.
    public mutating func field<T: BinaryInteger>(_ name: String, _ value: T?) { key(name); integer(value) }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text.append(",") }
        needsComma[needsComma.count - 1] = true
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
