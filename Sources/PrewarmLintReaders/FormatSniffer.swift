/// Decides an input's format from its first bytes, never from its name.
///
/// Each candidate grammar votes with the number of sample lines it recognises as record heads
/// (or as its own column header); the most votes win, ties going to the earlier format in
/// `LogFormat.allCases`. Lines before the records (a pasted preamble, the `# ` provenance
/// header of a corpus excerpt) cost nothing: they simply vote for no one.
public enum FormatSniffer {
    /// How many bytes the sniffer looks at.
    public static let sampleSize = 64 * 1024
    /// How many non-blank lines it looks at.
    public static let sampleLines = 200

    /// Whether an input starting with `sample` is a binary format (a binary property list, a tar archive): one whose
    /// bytes are not lines.
    public static func isBinary(_ sample: UnsafeRawBufferPointer) -> Bool {
        var bytes = sample
        if bytes.hasPrefix("\u{FEFF}") { bytes = bytes.slice(3, bytes.count) }
        if bytes.hasPrefix("bplist00") { return true }
        guard bytes.count >= TarArchiveDecoder.blockSize else { return false }
        let header = Array(bytes.slice(0, TarArchiveDecoder.blockSize))
        return header[257..<262].elementsEqual("ustar".utf8) || (header[0] != 0 && TarArchiveDecoder.checksumMatches(header))
    }

    /// Whether `bytes` begin as a tracev3 file does: its header chunk's preamble (tag 0x1000, subtag 0x11, 208 bytes),
    /// as every real file begins.
    public static func isUnifiedLog(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 16 && bytes.prefix(16).elementsEqual([0x00, 0x10, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0xD0, 0, 0, 0, 0, 0, 0, 0])
    }

    /// The most likely format of an input starting with `sample`, or nil when no line of it
    /// looks like any supported format. `isComplete` says the sample is the whole input, so its
    /// last line is complete too.
    /// `allowsDocument`: whether the input may be a pasted document (not for a region of one). `fragmentsDecide`:
    /// whether text no format takes but whose lines show what a log line shows is a document now; a log still arriving
    /// sniffed at a pause passes false, since its next lines may be a format's (a wrapped log's head comes after its
    /// continuation lines), and decides that at its end or once the sample is full, as a file does.
    public static func sniff(_ sample: UnsafeRawBufferPointer, isComplete: Bool, allowsDocument: Bool = true,
                             fragmentsDecide: Bool = true) -> LogFormat? {
        var bytes = sample
        if bytes.hasPrefix("\u{FEFF}") { bytes = bytes.slice(3, bytes.count) }
        if bytes.hasPrefix("bplist00") { return .binaryPlist }
        if isUnifiedLog(bytes) { return .unifiedLog }
        // A tar archive: `ustar` at byte 257 of its first header, or (old tar) a first header whose checksum holds.
        if isBinary(bytes) { return .tarArchive }
        let first = JSONObjectScanner.skipWhitespace(bytes, 0)
        if first < bytes.count, bytes[first] == UInt8(ascii: "<") {
            // XML: by its root element, looked for in the prolog (declaration, DOCTYPE, comments).
            let prolog = bytes.slice(first, min(bytes.count, first + 4096))
            if prolog.firstIndex(of: "<plist", from: 0) != nil { return .plist }
            if prolog.firstIndex(of: "<trace-query-result", from: 0) != nil || prolog.firstIndex(of: "<trace-toc", from: 0) != nil {
                return .xctrace
            }
            if prolog.hasPrefix("<?xml") || prolog.hasPrefix("<!DOCTYPE") { return nil }
        }
        // A pasted document, once an archive and XML are ruled out (a tar's headers and an XML file may hold any line).
        if allowsDocument, isDocument(bytes, isComplete: isComplete) { return .document }
        if isIPSReport(bytes) { return .crashReport }
        if first < bytes.count, bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "["), isMetricKit(bytes.slice(first, bytes.count)) {
            return .metricKit
        }
        if first < bytes.count, bytes[first] == UInt8(ascii: "[") {
            let next = JSONObjectScanner.skipWhitespace(bytes, first + 1)
            // An empty array is what `log show --style json` prints for no match.
            if next < bytes.count, bytes[next] == UInt8(ascii: "]") { return .logShowJSON }
            if next < bytes.count, bytes[next] == UInt8(ascii: "{") {
                // The first object must be a log record: by its keys when it is whole in the sample,
                // else by the keys its start shows.
                var record = JSONLogRecord()
                if (try? record.scan(bytes, from: next)) != nil {
                    return record.schema == .logShow ? .logShowJSON : nil
                }
                let start = bytes.slice(next, bytes.count)
                if start.firstIndex(of: "\"eventMessage\"", from: 0) != nil || start.firstIndex(of: "\"processImagePath\"", from: 0) != nil {
                    return .logShowJSON
                }
                return nil
            }
        }



        var votes: [LogFormat: Int] = [:]
        var crashReportKeys = 0
        // A termination that names a watchdog (`Termination Description: SPRINGBOARD, scene-create watchdog transgression:
        // …`) is a report on its own, pasted alone: it counts as two keys.
        var consoleSample: [UnsafeRawBufferPointer] = []
        var spacedConsoleLines = 0
        var lineStart = 0
        var linesSeen = 0
        var fragmentLines = 0
        while lineStart < bytes.count, linesSeen < sampleLines {
            guard let newline = bytes.firstIndex(of: .newline, from: lineStart) ?? (isComplete ? bytes.count : nil) else { break }
            var line = bytes.slice(lineStart, newline)
            lineStart = newline + 1
            if line.last == .carriageReturn { line = line.slice(0, line.count - 1) }
            if ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank { continue }
            linesSeen += 1
            for format in vote(for: line) { votes[format, default: 0] += 1 }
            if isCrashReportLine(line) { crashReportKeys += isWatchdogTermination(line) ? 2 : 1 }
            if allowsDocument, fragmentLines == 0, LogFragmentShape.isFragment(line) {
                fragmentLines += 1
            }
            if ConsoleColumnLayout.splitTabs(line).contains(where: ConsoleColumnLayout.isTime) {
                consoleSample.append(line)
            } else if line.firstIndex(of: .tab, from: 0) == nil, vote(for: line).isEmpty, ConsoleColumnLayout.spacedHead(line) != nil {
                // A Console copy whose tabs became spaces: its lines are no other format's.
                spacedConsoleLines += 1
            }
        }
        if !consoleSample.isEmpty, ConsoleColumnLayout.detect(lines: consoleSample) != nil {
            votes[.consoleCopy, default: 0] += consoleSample.count
        }
        votes[.consoleCopy, default: 0] += spacedConsoleLines
        var best: (format: LogFormat, votes: Int)?
        for format in LogFormat.allCases {
            guard let count = votes[format], count > 0 else { continue }
            if best == nil || count > best!.votes { best = (format, count) }
        }
        // A crash report's header (`Exception Type:`, `Termination Reason:` …) wins over a few lines that happen to
        // look like a log; a log with a report pasted into it stays a log.
        if crashReportKeys >= 2, crashReportKeys > best?.votes ?? 0 { return .crashReportText }
        // Text no format takes whose lines show what a log line shows (a process column, RunningBoard's syntax) is read
        // as a document, for those lines to be read alone (``LogFragment``).
        if best == nil, fragmentLines > 0 { return fragmentsDecide ? .document : nil }
        return best?.format
    }

    /// A pasted document rather than one export: a line of its first ``sampleLines`` opens a Markdown fence (three
    /// backticks or tildes, up to three spaces before) or is a `<details>` or `<pre>` tag, two lines in a row are quoted
    /// (`>` first, up to three spaces before: an e-mail reply, a Markdown quote), two lines carry a tool's device-log
    /// prefix (flutter's `[DEVICE LOG] `), two log lines are indented after text and a blank line or wrapped in
    /// backticks, or a line opens dyld's launch statistics (`Total pre-main time: …`, which an Xcode console shows before
    /// the app's first line) — lines no log export prints at a line's start. A log with a few stray lines (a pasted preamble) has
    /// none, and is read as that log, its stray lines said (`orphan-lines`).
    static func isDocument(_ bytes: UnsafeRawBufferPointer, isComplete: Bool) -> Bool {
        var lineStart = 0, lines = 0, quotedInARow = 0, toolLines = 0, inIndentedBlock = false, indentedLogLines = 0, backtickedLogLines = 0,
            afterBlank = false, textBefore = false, tableDelimited = false
        while lineStart < bytes.count, lines < sampleLines {
            guard let newline = bytes.firstIndex(of: .newline, from: lineStart) ?? (isComplete ? bytes.count : nil) else { break }
            var line = bytes.slice(lineStart, newline)
            lineStart = newline + 1
            lines += 1
            if line.last == .carriageReturn { line = line.slice(0, line.count - 1) }
            if DocumentOutline.opensFence(line) != nil || DocumentOutline.isTag(line, "<details>") || DocumentOutline.isTag(line, "<pre>")
                || PreMainStatisticsReader.opensBlock(line) {
                return true
            }
            quotedInARow = DocumentOutline.quotePrefix(line) == nil ? 0 : quotedInARow + 1
            if quotedInARow == 2 { return true }
            if case .deviceLine = DocumentOutline.toolPrefix(line) {
                toolLines += 1
                if toolLines == 2 { return true }
            }
            // A log pasted as Markdown's indented code (after text and a blank line, every line four spaces in) or line by
            // line in backticks: two such lines that are log lines once unwrapped. (A log's own indented lines continue a
            // record; they follow a line, not a blank one, and are no record's head. A log every line of which is
            // indented, with nothing before it, is read as that log.)
            let blank = DocumentOutline.isBlank(line)
            if !blank, let indent = DocumentOutline.indentedBlockPrefix(line), inIndentedBlock || afterBlank {
                let content = line.slice(indent, line.count)
                // A JSON document (an `.ips` report, a MetricKit payload, `log show --style json`) opening the block.
                if !inIndentedBlock, let first = content.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return true }
                inIndentedBlock = true
                if isLogLine(content) { indentedLogLines += 1 }
                if indentedLogLines == 2 { return true }
            } else if !blank {
                inIndentedBlock = false
                indentedLogLines = 0
            }
            // Or as a Markdown list, or a table: two log lines once their markers are taken off.
            let (prefix, suffix) = DocumentOutline.plainWrap(line)
            if prefix > 0 {
                if isLogLine(line.slice(prefix, line.count - suffix)) { backtickedLogLines += 1 }
                if backtickedLogLines == 2 { return true }
            } else if DocumentOutline.isTableRow(line) {
                // A table's delimiter row (`|---|`) and one row of log lines, or two rows.
                if DocumentOutline.isTableDelimiterRow(line) {
                    tableDelimited = true
                } else if DocumentOutline.tableRowColumns(line).withUnsafeBytes({ isLogLine($0) }) {
                    backtickedLogLines += 1
                    if tableDelimited { return true }
                }
                if backtickedLogLines == 2 { return true }
            } else if !blank, DocumentOutline.leadingSpaces(line) == 0, line.first != .tab {
                // (An indented line continues a list item, or a record.)
                backtickedLogLines = 0
            }
            if !blank, DocumentOutline.indentedBlockPrefix(line) == nil { textBefore = true }
            afterBlank = blank && textBefore
        }
        return false
    }

    /// The two-part `.ips` form: a first line that is a JSON object with a `bug_type`, or a body pasted alone
    /// (`{` on its own line, then the body's keys).
    static func isIPSReport(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Up to `IPSReportDecoder.maximumPreambleLines` lines of something else before it (a paste's own words).
        var start = 0
        for _ in 0...IPSReportDecoder.maximumPreambleLines {
            guard start < bytes.count else { return false }
            let end = bytes.firstIndex(of: .newline, from: start) ?? bytes.count
            let line = bytes.slice(start, end)
            switch IPSReportDecoder.kind(ofLine: line) {
            case .metadata:
                // The old form (`bug_type` 109, iOS ≤ 14): the metadata line, then the report as text — a text report.
                return !isTextReportAfter(bytes, from: end)
            case .bodyStart:
                let next = bytes.slice(min(bytes.count, end), min(bytes.count, end + 4096))
                return next.firstIndex(of: "\"procName\"", from: 0) != nil || next.firstIndex(of: "\"bug_type\"", from: 0) != nil
                    || next.firstIndex(of: "\"captureTime\"", from: 0) != nil
            case .other:
                // A log's record (an ndjson line, a text log's line) is a log, not a paste before a report.
                if line.first == UInt8(ascii: "{") || !vote(for: line).isEmpty { return false }
            }
            start = end + 1
        }
        return false
    }

    /// Whether the first line with words after `start` is a text crash report's header line (`Incident Identifier:`).
    private static func isTextReportAfter(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var start = start
        while start < bytes.count {
            let end = bytes.firstIndex(of: .newline, from: start + 1) ?? bytes.count
            let line = bytes.slice(min(start + 1, end), end)
            if line.skippingSpaces(from: 0) < line.count, !(line.count == 1 && line[0] == .carriageReturn) { return isCrashReportLine(line) }
            start = end
        }
        return false
    }

    /// MetricKit JSON: keys only its payloads have, near the start (a call-stack tree may come first, so the
    /// whole sample is looked at), and not one record per line (ndjson has a record on its first line).
    static func isMetricKit(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let keys: [StaticString] = ["\"diagnosticMetaData\"", "\"crashDiagnostics\"", "\"timeStampBegin\"", "\"applicationLaunchMetrics\"",
                                    "\"callStackTree\"", "\"hangDiagnostics\""]
        // As keys, not as text inside a string (a log message quoting them has `\"callStackTree\"`). One pass over the
        // quotes, each tried against every key whose first letter follows it, rather than searching the sample once per
        // key from every quote.
        var from = 0, isKey = false
        while !isKey, let at = bytes.firstIndex(of: UInt8(ascii: "\""), from: from) {
            from = at + 1
            guard at + 1 < bytes.count, at == 0 || bytes[at - 1] != UInt8(ascii: "\\") else { continue }
            let letter = bytes[at + 1]
            isKey = keys.contains { $0.utf8Start[1] == letter && bytes.matches($0, at: at) }
        }
        guard isKey else { return false }
        let end = bytes.firstIndex(of: .newline, from: 0) ?? bytes.count
        var record = JSONLogRecord()
        return (try? record.scan(bytes.slice(0, end), from: 0)) == nil || record.schema != .logShow
    }

    /// A line of a crash report's header, as pasted (indented, quoted with `>`).
    static func isCrashReportLine(_ line: UnsafeRawBufferPointer) -> Bool {
        var start = line.skippingSpaces(from: 0)
        while start < line.count, line[start] == UInt8(ascii: ">") { start = line.skippingSpaces(from: start + 1) }
        let text = line.slice(start, line.count)
        return text.hasPrefix("Incident Identifier:") || text.hasPrefix("Exception Type:") || text.hasPrefix("Exception Codes:")
            || text.hasPrefix("Termination Reason:") || text.hasPrefix("Termination Description:") || text.hasPrefix("Triggered by Thread:")
            || text.hasPrefix("Crashed Thread:") || text.hasPrefix("Hardware Model:") || text.hasPrefix("Report Version:")
            || text.hasPrefix("Exception Note:") || text.hasPrefix("Date/Time:") || text.hasPrefix("Launch Time:")
            || text.hasPrefix("Application Specific Information:") || text.hasPrefix("Elapsed total CPU time (seconds):")
    }

    /// A crash report's `Termination Reason:` or `Termination Description:` line that names a watchdog.
    static func isWatchdogTermination(_ line: UnsafeRawBufferPointer) -> Bool {
        var start = line.skippingSpaces(from: 0)
        while start < line.count, line[start] == UInt8(ascii: ">") { start = line.skippingSpaces(from: start + 1) }
        let text = line.slice(start, line.count)
        guard text.hasPrefix("Termination Reason:") || text.hasPrefix("Termination Description:") else { return false }
        return text.firstIndex(of: "watchdog transgression", from: 0) != nil || text.firstIndex(of: "8badf00d", from: 0) != nil
            || text.firstIndex(of: "8BADF00D", from: 0) != nil
    }

    /// A line that is a record's head in some format, or a crash report's header line.
    static func isLogLine(_ line: UnsafeRawBufferPointer) -> Bool {
        !vote(for: line).isEmpty || isCrashReportLine(line) || ConsoleColumnLayout.splitTabs(line).contains(where: ConsoleColumnLayout.isTime)
            || ConsoleColumnLayout.spacedHead(line) != nil
    }

    private static func vote(for line: UnsafeRawBufferPointer) -> [LogFormat] {
        let start = line.skippingSpaces(from: line.skippingByteOrderMark(from: line.skippingSpaces(from: 0)))
        if start < line.count, line[start] == UInt8(ascii: "{") {
            // Only a whole object on its line votes: lines of a pretty-printed document (`{…},`) do not.
            var record = JSONLogRecord()
            guard let end = try? record.scan(line, from: start), JSONObjectScanner.skipWhitespace(line, end) == line.count else { return [] }
            switch record.schema {
            case .logShow: return [.logShowNDJSON]
            case .pymobiledevice3: return [.pymobiledevice3JSON]
            case .unifiedLogIterator: return [.unifiedLogIterator]
            case .trailer: return [.logShowNDJSON]
            case nil: return []
            }
        }
        if line.hasPrefix("Timestamp ") {
            if line.firstIndex(of: "Thread", from: 0) != nil, line.firstIndex(of: "TTL", from: 0) != nil { return [.logShow] }
            if line.firstIndex(of: "Ty Process[PID:TID]", from: 0) != nil { return [.logShowCompact] }
            if line.firstIndex(of: "(process)[PID]", from: 0) != nil { return [.logShowSyslog] }
        }
        var formats: [LogFormat] = []
        var head = TextRecordHead.placeholder
        switch LogShowGrammar().classify(line, into: &head) {
        case .head, .incompleteHead: formats.append(.logShow)
        default: break
        }
        if case .head = LogShowCompactGrammar().classify(line, into: &head) { formats.append(.logShowCompact) }
        if case .head = LogShowSyslogGrammar().classify(line, into: &head) { formats.append(.logShowSyslog) }
        if case .head = IDeviceSyslogGrammar().classify(line, into: &head) { formats.append(.idevicesyslog) }
        if case .head = PyMobileDevice3Grammar().classify(line, into: &head) { formats.append(.pymobiledevice3) }
        if case .head = XcodeConsoleGrammar().classify(line, into: &head) { formats.append(.xcodeConsole) }
        return formats
    }
}
