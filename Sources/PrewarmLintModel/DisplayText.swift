/// Text from an input shown on one line of a line-oriented output — a diagnostic on standard error, a file or archive
/// entry's name, a finding's heading — where a line break of the input's would start a line of its own (a GitHub
/// Actions workflow command such as `::stop-commands::` is obeyed only at the start of a line) and a control
/// character could drive a terminal.
public enum DisplayText {
    /// Whether a scalar is a control character: C0 (tab, line feed and carriage return included), DEL, C1, and the
    /// line and paragraph separators.
    @inline(__always) public static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }

    /// A name (a path, an archive entry's path) for people: each control character as `\xNN` (`\u{NNNN}` past
    /// U+00FF), the way non-UTF-8 bytes of a path are shown. A name has no line breaks of its own to keep.
    public static func name(_ text: String) -> String {
        guard mayHoldControl(text), text.unicodeScalars.contains(where: { isControl($0.value) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar.value) {
                result += scalar.value <= 0xFF ? "\\x" + hex(scalar.value, digits: 2) : "\\u{" + hex(scalar.value, digits: 4) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text kept on one line: a line feed as `⏎`, every other control character but tab as `\xNN` (as ``name(_:)``).
    public static func singleLine(_ text: String) -> String {
        guard mayHoldControl(text), text.unicodeScalars.contains(where: { isControl($0.value) && $0 != "\t" }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                result += "⏎"
            } else if scalar != "\t", isControl(scalar.value) {
                result += name(String(scalar))
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` may hold a control character, from its UTF-8 alone: a byte below 0x20, DEL, or the lead byte of
    /// C1 (0xC2) or of the line and paragraph separators (0xE2). Nearly all text holds none, and is passed by this scan.
    @inline(__always) static func mayHoldControl(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
