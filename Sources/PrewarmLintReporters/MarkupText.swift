import PrewarmLintModel

/// Text inside XML or HTML, for the JUnit and HTML reports.
enum MarkupText {
    /// Text and attribute escaping (`&`, `<`, `>`, `"`, and line breaks and tabs as character references, so an
    /// attribute keeps them); characters XML 1.0 cannot hold become U+FFFD; an invisible format character (a right-to-left
    /// override) is shown as `<U+202E>`.
    static func escape<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 || (scalar.value >= 0xFFFE && scalar.value <= 0xFFFF) || (0xD800...0xDFFF).contains(scalar.value) {
                    out.unicodeScalars.append("\u{FFFD}")
                } else if DisplayText.isInvisibleFormat(scalar.value) {
                    // Shown, not obeyed: a character reference would still reverse the line.
                    out += "&lt;U+" + DisplayText.visible(scalar.value).dropFirst(3).dropLast() + "&gt;"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
