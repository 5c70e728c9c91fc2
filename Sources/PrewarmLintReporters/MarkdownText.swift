import PrewarmLintModel

/// Text of an input in a Markdown report, for each place Markdown holds text — escaped once, here, for the
/// place it goes: no text of a log can open a tag, a link, an image, a heading, a code span or a fence of its own.
enum MarkdownText {
    /// Text in a paragraph, a list item or a table cell: the characters that start inline markup (emphasis, code,
    /// links, images, raw HTML, entities, strikethrough, table cells) backslash-escaped, one that would start a block
    /// at the start of the text too, line breaks as `⏎` and other control characters as `\xNN`. Spaces it starts with are
    /// dropped: Markdown shows none of them, and four would start a code block, fewer hide a block marker after them.
    ///
    /// GitHub's Markdown also links a URL (`https://`, `ftp://`), a `www.` name and an e-mail address found in plain text
    /// (cmark-gfm's autolinks), backslash escapes or not: the `:` before `//` and the `.` after `www` are escaped (which
    /// ends the match), and an `@` before an address's characters is written as a code span (text on both sides of an
    /// escape is one text to the autolinker, so nothing less separates them).
    static func inline(_ text: String) -> String {
        var out = ""
        let characters = Array(DisplayText.singleLine(text).replacingAll("\t", with: " ").drop(while: { $0 == " " }))
        for (index, character) in characters.enumerated() {
            if character == "@", index + 1 < characters.count, isAddressCharacter(characters[index + 1]) {
                out += "`@`"
                continue
            }
            if "\\`*_[]<>|&~!".contains(character)
                || (character == ":" && index + 2 < characters.count && characters[index + 1] == "/" && characters[index + 2] == "/")
                || (character == "." && index >= 3 && String(characters[(index - 3)..<index]).lowercased() == "www") {
                out.append("\\")
            }
            out.append(character)
        }
        // A block's marker at the start: `#`, `>`, `-`, `+`, `=` or `1.` / `1)` (a list).
        if let first = out.first, "#-+=".contains(first) {
            out.insert("\\", at: out.startIndex)
        } else if let end = out.firstIndex(where: { !$0.isASCII || !$0.isNumber }), end != out.startIndex, out[end] == "." || out[end] == ")" {
            out.insert("\\", at: end)
        }
        return out
    }

    /// A character an e-mail address may hold after its `@`, to cmark-gfm's autolinker.
    private static func isAddressCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || ".+-_".contains(character))
    }

    /// Text as an inline code span: fenced by one backtick more than its longest run of them (padded with a space
    /// when it starts or ends with one), on one line. A table cell escapes its `|` itself (``MarkdownReporter``).
    static func code(_ text: String) -> String {
        let line = DisplayText.singleLine(text).replacingAll("\t", with: " ")
        var longest = 0, run = 0
        for character in line {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padding = line.hasPrefix("`") || line.hasSuffix("`") ? " " : ""
        return fence + padding + line + padding + fence
    }

    /// Lines in a fenced code block: fenced by tildes, one more than the longest run of them any line starts with
    /// (at least four), so no line closes it; control characters but tab as `\xNN` (a carriage return is a line
    /// break to Markdown). Each line of `lines` may hold line feeds: each is a line of the block.
    static func fenced(_ lines: [String], info: String = "text") -> String {
        var body = ""
        var longest = 3
        for line in lines {
            for part in line.split(separator: "\n", omittingEmptySubsequences: false) {
                let shown = DisplayText.name(String(part).replacingAll("\t", with: "    "))
                let run = shown.drop { $0 == " " }.prefix { $0 == "~" }.count
                longest = max(longest, run)
                body += shown + "\n"
            }
        }
        let fence = String(repeating: "~", count: longest + 1)
        return fence + info + "\n" + body + fence + "\n"
    }

    /// A name in a Mermaid gantt (a section or a task): letters, digits, spaces and `.-_()/+,'→` kept, anything
    /// else — `:`, `#` and `;`, which mean something to Mermaid, a line break, markup — as a space.
    static func mermaid(_ text: String) -> String {
        // (An invisible format character shown first: one joined to a letter is one `Character` with it.)
        String(DisplayText.invisibleShown(text).map { character in
            character.isLetter || character.isNumber || " .-_()/+,'→".contains(character) ? character : " "
        })
    }
}
