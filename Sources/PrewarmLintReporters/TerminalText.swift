import PrewarmLintModel

/// Text made safe for a terminal: the one escaping of that output syntax, applied where text is written (the CLI's
/// standard output and error). Log text and file names can hold escape sequences (an OSC 52 clipboard write, a screen
/// clear, a cursor move, text made invisible), which must never reach the terminal raw. Control characters but tab
/// and line feed become caret notation (`^[`, `^M`, `^?`, as `cat -v` writes them), C1 controls and invisible format
/// characters (`DisplayText.isInvisibleFormat`: a right-to-left override) `<U+009B>`, `<U+202E>`. When the
/// output is coloured, the reporters' own colours (``Color``) are kept and no other sequence: an input can at most
/// colour its text with the reporters' colours, never hide or move it; uncoloured output keeps no sequence at all.
public enum TerminalText {
    /// The colours the text reporters paint with: the only escape sequences a coloured output keeps.
    public enum Color: String, CaseIterable, Sendable {
        /// Back to the terminal's own.
        case reset = "0"
        /// A classified event's tag (`events`).
        case bold = "1"
        /// Places and debug or info events.
        case dim = "2"
        /// An error event.
        case red = "31"
        /// A fault event.
        case magenta = "35"
        /// An error finding.
        case boldRed = "1;31"
        /// A warning finding.
        case boldYellow = "1;33"
        /// An info finding.
        case boldCyan = "1;36"

        /// The SGR sequence (`ESC [ code m`).
        public var sequence: String { "\u{1B}[\(rawValue)m" }

        /// `text` painted with this colour, then reset.
        public func paint(_ text: String) -> String { sequence + text + Color.reset.sequence }
    }

    /// `text` made safe; the reporters' colours kept when `colors`.
    public static func safe(_ text: String, colors: Bool) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes, colors: colors)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A byte that is not copied as it is: a control byte other than newline and tab, DEL, or the lead byte of a C1
    /// control or of an invisible format character (`DisplayText.mayLead`).
    @inline(__always) static func needsCare(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x0A && byte != 0x09 || byte == 0x7F || DisplayText.mayLead(byte)
    }

    /// The scalar of the UTF-8 sequence at `index` and its length, when it is whole and valid.
    private static func scalar(in bytes: UnsafeRawBufferPointer, at index: Int) -> (value: UInt32, length: Int)? {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        return (value, length)
    }

    /// Text of an input's on one line of a text report: a line feed as `⏎`, every other control character as ``safe(_:colors:)``
    /// shows it. The text reporters write each field through it, so that a line break cannot start a line that reads as
    /// a finding of its own, and a coloured report holds no escape sequence but its own colours.
    public static func singleLine(_ text: String) -> String {
        var text = text
        guard text.utf8.contains(UInt8(ascii: "\n")) || !text.withUTF8({ isClean(UnsafeRawBufferPointer($0)) }) else { return text }
        return safe(text.replacingAll("\n", with: "⏎"), colors: false)
    }

    /// Appends `text`'s UTF-8, made safe; the reporters' colours kept when `colors`.
    public static func append(_ text: String, to output: inout [UInt8], colors: Bool) {
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0), to: &output, colors: colors) }
    }

    /// Appends the UTF-8 `bytes`, made safe as ``append(_:to:colors:)`` makes text safe.
    public static func append(bytes: UnsafeRawBufferPointer, to output: inout [UInt8], colors: Bool) {
        // Most text has no control byte: copied as it is (found in one pass over the bytes).
        guard !isClean(bytes) else {
            // (As typed bytes: appending the raw buffer went a byte at a time.)
            output.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
            return
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if colors, byte == 0x1B, let end = colorEnd(bytes, from: index) {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index...end]))
                index = end + 1
                continue
            }
            if byte == 0x0A || byte == 0x09 || (byte >= 0x20 && byte != 0x7F && !DisplayText.mayLead(byte)) {
                output.append(byte)
            } else if byte == 0x7F {
                output.append(contentsOf: Array("^?".utf8))
            } else if byte < 0x20 {
                output.append(contentsOf: [UInt8(ascii: "^"), byte + 0x40])
            } else if let (value, length) = scalar(in: bytes, at: index),
                      (0x80...0x9F).contains(value) || DisplayText.isInvisibleFormat(value) {
                // U+0080…U+009F, the C1 controls (U+009B is a one-byte CSI), and the invisible format characters (a
                // right-to-left override shows the line reversed): `<U+202E>`.
                output.append(contentsOf: DisplayText.visible(value).utf8)
                index += length - 1
            } else {
                output.append(byte)
            }
            index += 1
        }
    }

    /// Whether no byte of `bytes` needs care. Sixteen bytes at a time: only a block that may hold a byte below 0x20, a
    /// 0x7F or a lead byte from 0xC2 up is looked at byte by byte (a newline or tab sends it there too; most blocks of a report hold
    /// none). Every byte of a text report passes here, so the common clean block costs one comparison.
    static func isClean(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        let below = SIMD16<UInt8>(repeating: 0x20), delete = SIMD16<UInt8>(repeating: 0x7F), lead = SIMD16<UInt8>(repeating: 0xC2)
        while index + 16 <= bytes.count {
            let block = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            // (Any byte from 0xC2 up sends the block to be looked at: the lead bytes that need care are among them.)
            if any(block .< below .| block .== delete .| block .>= lead) {
                for byte in UnsafeRawBufferPointer(rebasing: bytes[index..<(index + 16)]) where needsCare(byte) { return false }
            }
            index += 16
        }
        for byte in UnsafeRawBufferPointer(rebasing: bytes[index...]) where needsCare(byte) { return false }
        return true
    }

    /// The index of the `m` ending one of the reporters' colour sequences (``Color``) at `start`, if one does.
    private static func colorEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        for sequence in colorSequences {
            guard start + sequence.count <= bytes.count,
                  sequence.indices.allSatisfy({ sequence[$0] == bytes[start + $0] }) else { continue }
            return start + sequence.count - 1
        }
        return nil
    }

    /// Each colour's sequence as bytes, made once.
    private static let colorSequences = Color.allCases.map { Array($0.sequence.utf8) }

}
