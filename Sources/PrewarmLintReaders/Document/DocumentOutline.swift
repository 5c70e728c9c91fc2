/// How the lines of a pasted document (an issue body, an e-mail, a chat paste) fall into regions, line by line: a small
/// state machine over Markdown's and e-mail's block structure as people paste logs into it.
///
/// - a fenced block: a line of three or more backticks or tildes (up to three spaces before, a language after), to the
///   closing fence of the same character at least as long, or the document's end;
/// - a `>`-quoted run (an e-mail reply, a Markdown quote; nested `>>` too): its lines with their markers taken off, read
///   as a document of their own (a reply quoting a whole issue holds its fences, tables and prose): a block inside is
///   that block, a run of plain lines a quoted block;
/// - an indented block: after a blank line (or at the start), lines indented four spaces or a tab, the four taken off;
///   a line indented right after a line of text continues that text (a log's multi-line message), as in Markdown;
/// - an HTML block: `<pre>` to `</pre>`; `<details>`, `</details>` and `<summary>…` lines are markup between regions;
/// - a table: a run of lines that start with `|` (a Console copy pasted as a Markdown table): each row's cells are
///   handed on as the Console copy's tab-separated columns (``tableRowColumns(_:)``), its delimiter row (`|---|`) is
///   markup;
/// - plain text: the runs of lines between those, read as one region each (a log pasted bare, or prose).
/// A line wrapped in backticks (`` `…` ``) inside plain text has them taken off, and so has a list item's marker (`- `,
/// `* `, `+ `, `1. `) before a log line (a log pasted as a Markdown list).
///
/// Fence, tag and quote markers are the document's structure, not content: the outline says so, and a region's content
/// lines are handed on with the markers' bytes to take off at their start and end.
struct DocumentOutline {
    /// A region's kind, as the report names it.
    enum Kind: String, Sendable, Equatable {
        case fenced = "fenced block"
        case quoted = "quoted block"
        case indented = "indented block"
        case html = "<pre> block"
        case table = "table"
        case plain = "text"
    }

    /// What a line is.
    enum Step: Equatable {
        /// Structure: a fence, a tag. When `ends`, the region open (if any) ends at it; else it goes on past it (a
        /// fence inside a quote).
        case markup(ends: Bool)
        /// A blank line between regions.
        case blank
        /// Content of a region of `kind`: its bytes but the first `prefix` and the last `suffix`. `starts`: a new region
        /// starts at this line (the one open, if any, ends before it).
        case content(kind: Kind, prefix: Int, suffix: Int, starts: Bool)
        /// A line of a tool's own output in a region of `kind` (flutter's `[  +3 ms] executing: …`): not a log line, the
        /// region going on past it. `starts`: a new region starts at this line.
        case toolOutput(kind: Kind, starts: Bool)
    }

    /// Whether the last line's device-log prefix of a tool (flutter's `[DEVICE LOG] `) was taken off with its markers.
    private(set) var tookToolPrefix = false
    /// The tool whose prefix it was.
    private(set) var prefixingTool = Tool.flutter

    private enum State: Equatable {
        /// Between blocks; `text` when a plain region is open, `afterBlank` when the last line was blank.
        case outside(text: Bool, afterBlank: Bool)
        case fenced(fence: UInt8, length: Int, indent: Int, opened: Bool)
        case quoted
        case indented
        case html(opened: Bool)
        case table
    }

    private var state = State.outside(text: false, afterBlank: true)
    /// In a quote, the outline of its lines with their markers taken off (at most one: an array, for a value type to
    /// hold one of its own).
    private var inner: [DocumentOutline] = []
    /// Whether lines indented after a blank line open an indented block: not inside a quote, where a raw log's or a
    /// JSON payload's indented lines after a blank one go on with what is quoted (replies quote fences, not indents).
    private var readsIndentedBlocks = true

    /// Whether an outline that starts at `line` (the next line) reads it, and so the lines after it, as this one does: it
    /// is between regions, and either in the state an outline starts in, or `line` opens a fence, a tag or a quote
    /// (which they do whatever came before). A document may be cut there (``DocumentPartition``).
    func readsAsAtStart(_ line: UnsafeRawBufferPointer) -> Bool {
        if case .quoted = state, let prefix = Self.quotePrefix(line), let quote = inner.first {
            // Inside a quote, between its blocks, where a new quote would open the same block.
            return quote.isBetweenRegionsAtStart && (quote.readsAsAtStart(line.slice(prefix, line.count)) || Self.opensFence(line.slice(prefix, line.count)) != nil)
        }
        guard case .outside(let text, let afterBlank) = state else { return false }
        if !text && (afterBlank || Self.indentedBlockPrefix(line) == nil) { return true }
        return Self.opensFence(line) != nil || Self.isTag(line, "<pre>") || Self.isTag(line, "<details>") || Self.isTag(line, "</details>")
            || Self.startsTag(line, "<summary") || Self.quotePrefix(line) != nil
    }

    /// Whether the outline is between regions as it is at its start (no text open, after a blank line).
    private var isBetweenRegionsAtStart: Bool {
        if case .outside(false, true) = state { return true }
        return false
    }

    /// The step of the next line (without its line break). A content line that a tool printing device logs prefixed
    /// (flutter's `[   +1 ms] [DEVICE LOG] `) has that prefix taken off with the block's markers; a line of the tool's own
    /// output is said to be one.
    mutating func take(_ line: UnsafeRawBufferPointer) -> Step {
        let step = blockStep(line)
        tookToolPrefix = false
        guard case .content(let kind, let prefix, let suffix, let starts) = step, prefix < line.count else { return step }
        switch Self.toolPrefix(line.slice(prefix, line.count)) {
        case nil:
            return step
        case .deviceLine(let length, let tool):
            tookToolPrefix = true
            prefixingTool = tool
            return .content(kind: kind, prefix: prefix + length, suffix: suffix, starts: starts)
        case .toolOutput:
            return .toolOutput(kind: kind, starts: starts)
        }
    }

    /// What a line's start says of the tool that printed it.
    enum ToolPrefix: Equatable {
        /// A device's log line, after this many bytes of the tool's prefix.
        case deviceLine(Int, Tool)
        /// The tool's own output.
        case toolOutput
    }

    /// A tool that prints a device's log lines behind a prefix of its own.
    enum Tool: String, Sendable, Equatable {
        /// `flutter run -v`: `[   +1 ms] [DEVICE LOG] `.
        case flutter
        /// Appium's server log: `2022-03-10 10:11:22:722 - [IOSDeviceLog] `, `info: [IOS_SYSLOG_ROW ] `.
        case appium

        /// The prefix as a note names it.
        var prefixName: String {
            switch self {
            case .flutter: "flutter's `[DEVICE LOG]`"
            case .appium: "Appium's `[IOSDeviceLog]`"
            }
        }
    }

    /// What a device-log line's prefix says, from the tools that print one:
    /// - flutter's verbose output (`flutter run -v`, flutter_tools' `printTrace`): each line opens with the time since the
    ///   last one, `[   +1 ms] ` or `[        ] `, and a device's log line with `[DEVICE LOG] ` after it (its
    ///   `_onDeviceLine`, as flutter/flutter#50949's paste shows: `[   +1 ms] [DEVICE LOG] 2020-02-18 15:43:28.708807+0700
    ///   localhost Runner[76917]: …`);
    /// - Appium's server log with `--show-ios-log`: its own time (`2022-03-10 10:11:22:722 - `, optional), a level
    ///   (`info: `, optional), then `[IOSDeviceLog] ` (appium/WebDriverAgent#571), `[iOSLog] [IOS_SYSLOG_ROW] `
    ///   (appium/appium#6595) or `[IOS_SYSLOG_ROW ] ` (appium/appium#5271) before the device's syslog line; a line with
    ///   Appium's time and no such tag is the server's own.
    /// Nil for any other line.
    static func toolPrefix(_ line: UnsafeRawBufferPointer) -> ToolPrefix? {
        if let appium = appiumPrefix(line) { return appium }
        var at = 0, timed = false
        if line.count > 2, line[0] == UInt8(ascii: "[") {
            var end = 1
            while end < line.count, end <= 14, line[end] == .space || line[end] == UInt8(ascii: "+") || line[end] == UInt8(ascii: "m")
                    || line[end] == UInt8(ascii: "s") || (line[end] >= UInt8(ascii: "0") && line[end] <= UInt8(ascii: "9")) {
                end += 1
            }
            if end > 1, end + 1 < line.count, line[end] == UInt8(ascii: "]"), line[end + 1] == .space {
                at = end + 2
                timed = true
            }
        }
        if startsWith(line, at, "[DEVICE LOG] ") { return .deviceLine(at + 13, .flutter) }
        return timed ? .toolOutput : nil
    }

    /// Appium's prefix (``toolPrefix(_:)``), or nil.
    private static func appiumPrefix(_ line: UnsafeRawBufferPointer) -> ToolPrefix? {
        var at = 0
        // `2022-03-10 10:11:22:722 - `: digits where digits are, the separators where they are.
        let time = "dddd-dd-dd dd:dd:dd:ddd - "
        var timed = line.count >= time.utf8.count
        if timed {
            for (index, shape) in time.utf8.enumerated() {
                let byte = line[index]
                if shape == UInt8(ascii: "d") ? !(0x30...0x39).contains(byte) : byte != shape { timed = false; break }
            }
        }
        if timed { at = time.utf8.count }
        for level in ["info: ", "debug: ", "[debug] "] where startsWith(line, at, level) {
            at += level.utf8.count
            break
        }
        for tag in ["[IOSDeviceLog] ", "[iOSLog] [IOS_SYSLOG_ROW] ", "[IOS_SYSLOG_ROW ] ", "[IOS_SYSLOG_ROW] ", "[IOSSimulatorLog] "]
        where startsWith(line, at, tag) {
            return .deviceLine(at + tag.utf8.count, .appium)
        }
        return timed ? .toolOutput : nil
    }

    /// Whether `line` holds `text` at `offset`.
    private static func startsWith(_ line: UnsafeRawBufferPointer, _ offset: Int, _ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard line.count - offset >= length else { return false }
        return (0..<length).allSatisfy { line[offset + $0] == text.utf8Start[$0] }
    }

    /// Whether `line` holds `text` at `offset`.
    private static func startsWith(_ line: UnsafeRawBufferPointer, _ offset: Int, _ text: String) -> Bool {
        let utf8 = text.utf8
        guard line.count - offset >= utf8.count else { return false }
        return utf8.enumerated().allSatisfy { line[offset + $0.offset] == $0.element }
    }

    private mutating func blockStep(_ line: UnsafeRawBufferPointer) -> Step {
        switch state {
        case .fenced(let fence, let length, let indent, let opened):
            if Self.closesFence(line, fence: fence, length: length) {
                state = .outside(text: false, afterBlank: true)
                return .markup(ends: true)
            }
            state = .fenced(fence: fence, length: length, indent: indent, opened: true)
            return .content(kind: .fenced, prefix: min(indent, Self.leadingSpaces(line)), suffix: 0, starts: !opened)
        case .html(let opened):
            if Self.isTag(line, "</pre>") {
                state = .outside(text: false, afterBlank: true)
                return .markup(ends: true)
            }
            state = .html(opened: true)
            return .content(kind: .html, prefix: 0, suffix: 0, starts: !opened)
        case .quoted:
            if let prefix = Self.quotePrefix(line) { return quotedContent(line, prefix: prefix, starts: false) }
            state = .outside(text: false, afterBlank: true)
            inner = []
            return outside(line, text: false, afterBlank: true)
        case .indented:
            if Self.isBlank(line) { return .content(kind: .indented, prefix: min(4, line.count), suffix: 0, starts: false) }
            if let indent = Self.indentedBlockPrefix(line) { return .content(kind: .indented, prefix: indent, suffix: 0, starts: false) }
            state = .outside(text: false, afterBlank: false)
            return outside(line, text: false, afterBlank: false)
        case .table:
            if Self.isTableRow(line) { return Self.isTableDelimiterRow(line) ? .markup(ends: false) : .content(kind: .table, prefix: 0, suffix: 0, starts: false) }
            state = .outside(text: false, afterBlank: false)
            return outside(line, text: false, afterBlank: false)
        case .outside(let text, let afterBlank):
            return outside(line, text: text, afterBlank: afterBlank)
        }
    }

    private mutating func outside(_ line: UnsafeRawBufferPointer, text: Bool, afterBlank: Bool) -> Step {
        if let (fence, length, indent) = Self.opensFence(line) {
            state = .fenced(fence: fence, length: length, indent: indent, opened: false)
            return .markup(ends: true)
        }
        if Self.isTag(line, "<pre>") {
            state = .html(opened: false)
            return .markup(ends: true)
        }
        if Self.isTag(line, "<details>") || Self.isTag(line, "</details>") || Self.startsTag(line, "<summary") {
            state = .outside(text: false, afterBlank: true)
            return .markup(ends: true)
        }
        if let prefix = Self.quotePrefix(line) {
            state = .quoted
            var quote = DocumentOutline()
            quote.readsIndentedBlocks = false
            inner = [quote]
            return quotedContent(line, prefix: prefix, starts: true)
        }
        if Self.isTableRow(line), !Self.isTableDelimiterRow(line) {
            state = .table
            return .content(kind: .table, prefix: 0, suffix: 0, starts: true)
        }
        if readsIndentedBlocks, afterBlank, !Self.isBlank(line), let indent = Self.indentedBlockPrefix(line) {
            state = .indented
            return .content(kind: .indented, prefix: indent, suffix: 0, starts: true)
        }
        let blank = Self.isBlank(line)
        // A blank line opens nothing: between regions it is a blank line; inside text, part of it (a log's blank line).
        state = .outside(text: text || !blank, afterBlank: blank)
        if blank && !text { return .blank }
        let (prefix, suffix) = Self.plainWrap(line)
        return .content(kind: .plain, prefix: prefix, suffix: suffix, starts: !text)
    }

    /// A quoted line, its markers taken off and read by the quote's own outline: a fence, a table, an indented block or
    /// a `<pre>` inside the quote is that block; a run of plain lines is a quoted block (a line wrapped in backticks has
    /// them taken off).
    private mutating func quotedContent(_ line: UnsafeRawBufferPointer, prefix: Int, starts: Bool) -> Step {
        let rest = line.slice(prefix, line.count)
        guard var quote = inner.popLast() else { return .markup(ends: starts) }
        let step = quote.blockStep(rest)
        inner.append(quote)  // (the array's room is kept: no allocation per quoted line)
        switch step {
        case .markup(let ends):
            return .markup(ends: ends || starts)
        case .blank:
            // A blank quoted line between the quote's blocks: its markers are structure.
            return starts ? .markup(ends: true) : .blank
        case .content(let kind, let innerPrefix, let suffix, let innerStarts):
            if kind == .plain {
                let (wrapPrefix, wrapSuffix) = Self.backtickWrap(rest)
                return .content(kind: .quoted, prefix: prefix + wrapPrefix, suffix: wrapSuffix, starts: starts || innerStarts)
            }
            return .content(kind: kind, prefix: prefix + innerPrefix, suffix: suffix, starts: starts || innerStarts)
        case .toolOutput(let kind, let innerStarts):
            return .toolOutput(kind: kind == .plain ? .quoted : kind, starts: starts || innerStarts)
        }
    }

    // MARK: - Line shapes

    static func leadingSpaces(_ line: UnsafeRawBufferPointer) -> Int {
        var count = 0
        while count < line.count, line[count] == .space { count += 1 }
        return count
    }

    static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy { $0 == .space || $0 == .tab }
    }

    /// A fence that opens a block: (its character, its length, its indentation).
    static func opensFence(_ line: UnsafeRawBufferPointer) -> (UInt8, Int, Int)? {
        let indent = leadingSpaces(line)
        guard indent <= 3, indent < line.count else { return nil }
        let fence = line[indent]
        guard fence == UInt8(ascii: "`") || fence == UInt8(ascii: "~") else { return nil }
        var end = indent
        while end < line.count, line[end] == fence { end += 1 }
        let length = end - indent
        guard length >= 3 else { return nil }
        // A backtick fence's info string holds no backtick (else it is inline code: ```x``` on one line).
        if fence == UInt8(ascii: "`"), line.slice(end, line.count).contains(UInt8(ascii: "`")) { return nil }
        return (fence, length, indent)
    }

    static func closesFence(_ line: UnsafeRawBufferPointer, fence: UInt8, length: Int) -> Bool {
        let indent = leadingSpaces(line)
        guard indent <= 3 else { return false }
        var end = indent
        while end < line.count, line[end] == fence { end += 1 }
        guard end - indent >= length else { return false }
        return line.slice(end, line.count).allSatisfy { $0 == .space || $0 == .tab }
    }

    /// The bytes of a line's quote markers (`> `, `>> `, `> > `), up to three spaces before the first; nil when it is
    /// not quoted.
    static func quotePrefix(_ line: UnsafeRawBufferPointer) -> Int? {
        var at = leadingSpaces(line)
        guard at <= 3, at < line.count, line[at] == UInt8(ascii: ">") else { return nil }
        while at < line.count, line[at] == UInt8(ascii: ">") {
            at += 1
            if at < line.count, line[at] == .space { at += 1 }
        }
        return at
    }

    /// The indentation an indented block takes off (four spaces or a tab); nil when the line is not so indented.
    static func indentedBlockPrefix(_ line: UnsafeRawBufferPointer) -> Int? {
        if line.count >= 1, line[0] == .tab { return 1 }
        guard leadingSpaces(line) >= 4 else { return nil }
        return 4
    }

    /// A line that is a tag alone (`<pre>`, `</details>`), spaces around it allowed, any case.
    static func isTag(_ line: UnsafeRawBufferPointer, _ tag: StaticString) -> Bool {
        var start = 0, end = line.count
        while start < end, line[start] == .space || line[start] == .tab { start += 1 }
        while end > start, line[end - 1] == .space || line[end - 1] == .tab { end -= 1 }
        return end - start == tag.utf8CodeUnitCount && startsTag(line.slice(start, end), tag)
    }

    /// A line that starts with a tag (`<summary>Crash log</summary>`), any case.
    static func startsTag(_ line: UnsafeRawBufferPointer, _ tag: StaticString) -> Bool {
        let start = leadingSpaces(line)
        let length = tag.utf8CodeUnitCount
        guard line.count - start >= length else { return false }
        for index in 0..<length {
            let byte = line[start + index], expected = tag.utf8Start[index]
            if byte != expected && byte | 0x20 != expected { return false }
        }
        return true
    }

    /// A line wrapped in one backtick at each end (inline code, as a log line pasted into a sentence's place): the
    /// bytes to take off each end.
    /// What a line of plain text has around its content: a list item's marker before a log line (`- `, `* `, `+ `,
    /// `1. `, `1) `), backticks around it (``backtickWrap(_:)``), or both.
    static func plainWrap(_ line: UnsafeRawBufferPointer) -> (prefix: Int, suffix: Int) {
        guard let marker = listMarker(line) else { return backtickWrap(line) }
        let rest = line.slice(marker, line.count)
        let (prefix, suffix) = backtickWrap(rest)
        guard FormatSniffer.isLogLine(rest.slice(prefix, rest.count - suffix)) else { return backtickWrap(line) }
        return (marker + prefix, suffix)
    }

    /// The length of a list item's marker and the space after it at the start of `line` (up to three spaces before), if
    /// it starts with one.
    static func listMarker(_ line: UnsafeRawBufferPointer) -> Int? {
        let start = leadingSpaces(line)
        guard start <= 3, start < line.count else { return nil }
        var at = start
        if line[at] == UInt8(ascii: "-") || line[at] == UInt8(ascii: "*") || line[at] == UInt8(ascii: "+") {
            at += 1
        } else {
            while at < line.count, at - start < 9, line[at] >= UInt8(ascii: "0"), line[at] <= UInt8(ascii: "9") { at += 1 }
            guard at > start, at < line.count, line[at] == UInt8(ascii: ".") || line[at] == UInt8(ascii: ")") else { return nil }
            at += 1
        }
        guard at < line.count, line[at] == .space || line[at] == .tab else { return nil }
        return at + 1
    }

    /// Whether `line` is a row of a Markdown table: it starts with `|` (up to three spaces before) and holds another.
    static func isTableRow(_ line: UnsafeRawBufferPointer) -> Bool {
        let start = leadingSpaces(line)
        guard start <= 3, start < line.count, line[start] == UInt8(ascii: "|") else { return false }
        return line.firstIndex(of: UInt8(ascii: "|"), from: start + 1) != nil
    }

    /// Whether `line` is a table's delimiter row: cells of dashes, with colons for alignment (`|---|:--:|`).
    static func isTableDelimiterRow(_ line: UnsafeRawBufferPointer) -> Bool {
        var dashes = 0
        for byte in line {
            switch byte {
            case UInt8(ascii: "-"): dashes += 1
            case UInt8(ascii: "|"), UInt8(ascii: ":"), .space, .tab: continue
            default: return false
            }
        }
        return dashes > 0
    }

    /// A table row's cells as tab-separated columns, the way Console copies its columns: each cell trimmed, `\|` as
    /// `|`, `<br>` as a space; the pipes around the row dropped.
    static func tableRowColumns(_ row: UnsafeRawBufferPointer) -> [UInt8] {
        var cells: [[UInt8]] = [[]]
        var at = leadingSpaces(row) + 1
        while at < row.count {
            let byte = row[at]
            if byte == UInt8(ascii: "\\"), at + 1 < row.count, row[at + 1] == UInt8(ascii: "|") {
                cells[cells.count - 1].append(UInt8(ascii: "|"))
                at += 2
                continue
            }
            if byte == UInt8(ascii: "|") {
                cells.append([])
            } else if byte == UInt8(ascii: "<"), at + 4 <= row.count, row.slice(at, min(row.count, at + 5)).hasPrefix("<br>") || row.slice(at, min(row.count, at + 6)).hasPrefix("<br/>") {
                let length = row[at + 3] == UInt8(ascii: ">") ? 4 : 5
                cells[cells.count - 1].append(.space)
                at += length
                continue
            } else {
                cells[cells.count - 1].append(byte)
            }
            at += 1
        }
        // The pipe that ends the row leaves an empty last cell.
        if cells.count > 1, cells[cells.count - 1].allSatisfy({ $0 == .space || $0 == .tab }) { cells.removeLast() }
        var columns: [UInt8] = []
        for (index, cell) in cells.enumerated() {
            if index > 0 { columns.append(.tab) }
            var start = 0, end = cell.count
            while start < end, cell[start] == .space || cell[start] == .tab { start += 1 }
            while end > start, cell[end - 1] == .space || cell[end - 1] == .tab { end -= 1 }
            columns.append(contentsOf: cell[start..<end])
        }
        return columns
    }

    static func backtickWrap(_ line: UnsafeRawBufferPointer) -> (prefix: Int, suffix: Int) {
        let start = leadingSpaces(line)
        var end = line.count
        while end > start, line[end - 1] == .space || line[end - 1] == .tab { end -= 1 }
        guard end - start >= 3, line[start] == UInt8(ascii: "`"), line[end - 1] == UInt8(ascii: "`"),
              line[start + 1] != UInt8(ascii: "`"), line[end - 2] != UInt8(ascii: "`") else { return (0, 0) }
        return (start + 1, line.count - end + 1)
    }
}
