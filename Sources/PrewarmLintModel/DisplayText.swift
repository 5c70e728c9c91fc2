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

    /// Whether a scalar is an invisible format character that changes how the text around it shows: a bidirectional
    /// control (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069: a right-to-left override shows a line reversed), a
    /// zero-width space or word joiner (U+200B, U+2060–U+2064), the byte order mark (U+FEFF), a soft hyphen (U+00AD),
    /// a Mongolian vowel separator (U+180E), the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the interlinear
    /// annotation marks (U+FFF9–U+FFFB) or a tag (U+E0000–U+E007F). The zero-width joiner and non-joiner are not: emoji
    /// and scripts need them, and they hide nothing.
    @inline(__always) public static func isInvisibleFormat(_ value: UInt32) -> Bool {
        switch value {
        case 0x00AD, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069,
             0x3164, 0xFEFF, 0xFFA0, 0xFFF9...0xFFFB, 0xE0000...0xE007F:
            true
        default:
            false
        }
    }

    /// An invisible format character (``isInvisibleFormat(_:)``) as people see it: `<U+202E>`.
    public static func visible(_ value: UInt32) -> String { "<U+" + hex(value, digits: 4) + ">" }

    /// `text` with each invisible format character shown as ``visible(_:)``; anything else as it is.
    public static func invisibleShown(_ text: String) -> String {
        guard mayHoldInvisibleFormat(text), text.unicodeScalars.contains(where: { isInvisibleFormat($0.value) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isInvisibleFormat(scalar.value) { result += visible(scalar.value) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// A name (a path, an archive entry's path) for people: each control character as `\xNN` (`\u{NNNN}` past
    /// U+00FF), the way non-UTF-8 bytes of a path are shown, each invisible format character as `<U+NNNN>`. A name has
    /// no line breaks of its own to keep.
    public static func name(_ text: String) -> String {
        guard mayHoldControl(text),
              text.unicodeScalars.contains(where: { isControl($0.value) || isInvisibleFormat($0.value) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar.value) {
                result += scalar.value <= 0xFF ? "\\x" + hex(scalar.value, digits: 2) : "\\u{" + hex(scalar.value, digits: 4) + "}"
            } else if isInvisibleFormat(scalar.value) {
                result += visible(scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text kept on one line: a line feed as `⏎`, every other control character but tab as `\xNN`, an invisible format
    /// character as `<U+NNNN>` (as ``name(_:)``).
    public static func singleLine(_ text: String) -> String {
        guard mayHoldControl(text),
              text.unicodeScalars.contains(where: { (isControl($0.value) && $0 != "\t") || isInvisibleFormat($0.value) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                result += "⏎"
            } else if scalar != "\t", isControl(scalar.value) || isInvisibleFormat(scalar.value) {
                result += name(String(scalar))
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` may hold a control or an invisible format character, from its UTF-8 alone: a byte below 0x20,
    /// DEL, or a lead byte of one (``mayLead(_:)``). Nearly all text holds none, and is passed by this scan.
    @inline(__always) static func mayHoldControl(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || mayLead($0) }
    }

    /// Whether `text` may hold an invisible format character, from its UTF-8 alone.
    @inline(__always) static func mayHoldInvisibleFormat(_ text: String) -> Bool { text.utf8.contains(where: mayLead) }

    /// Whether `byte` is the lead byte of a C1 control (0xC2), of the line and paragraph separators (0xE2) or of an
    /// invisible format character (0xC2, 0xD8, 0xE1, 0xE2, 0xE3, 0xEF, 0xF3).
    @inline(__always) public static func mayLead(_ byte: UInt8) -> Bool {
        switch byte {
        case 0xC2, 0xD8, 0xE1, 0xE2, 0xE3, 0xEF, 0xF3: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
