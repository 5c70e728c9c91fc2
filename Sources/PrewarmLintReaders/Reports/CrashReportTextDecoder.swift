import PrewarmLintModel

/// Reads crash reports in the legacy text form (iOS ≤ 14, Xcode's "Export", TestFlight, and what people paste
/// into issues): a header of `Key: value` lines, the exception and termination, then backtraces.
///
/// Line by line, with an explicit end: each line is stripped of what pasting adds — indentation, Markdown quote
/// marks (`> `), code fences — and read for the header keys (`Process: Name [pid]`, `Identifier:`, `Date/Time:`,
/// `Exception Type:`, `Termination Reason:`, `Termination Description:`); a `<RBSTerminateContext| …>` block
/// after the termination reason is kept with it, up to its closing `>` (64 lines at most). Backtraces, binary
/// images and everything else are the report's structure. A second `Incident Identifier:` starts another report
/// (several pasted one after another). See ``CrashReport`` for the events a report becomes.
struct CrashReportTextDecoder: LogDecoder {
    let format = LogFormat.crashReportText
    private(set) var statistics = DecoderStatistics()
    private let configuration: ReaderConfiguration
    private var framer: LineFramer
    private var report = CrashReport()
    private var reportHasContent = false
    /// Collecting the termination's lines until the block closes.
    private var collectingTermination = false
    private var terminationDepth = 0
    /// Collecting the `Application Specific Information:` block until a thread, a header key or its end.
    private var collectingApplicationInformation = false

    /// The most lines an `Application Specific Information:` block keeps.
    static let maximumApplicationInformationLines = 16

    static let maximumTerminationLines = 64

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
        framer = LineFramer(maximumLineLength: configuration.limits.maximumLineLength)
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        var lines: [(text: String, number: Int, offset: Int)] = []
        framer.feed(bytes) { line, _ in lines.append((Self.text(line), line.number, line.byteOffset)) }
        for line in lines { take(line, emit: emit) }
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        var lines: [(text: String, number: Int, offset: Int)] = []
        framer.finish { line, _ in lines.append((Self.text(line), line.number, line.byteOffset)) }
        for line in lines { take(line, emit: emit) }
        endReport(emit: emit)
    }

    /// A line's text as pasting leaves it: without indentation, Markdown quote marks and a trailing `\r`.
    private static func text(_ line: ByteLine) -> String {
        var text = Substring(UTF8Text.decode(line.bytes).text)
        while true {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if trimmed.first == ">" && !trimmed.hasPrefix(">>") || trimmed.hasPrefix("> ") {
                text = trimmed.dropFirst()
            } else {
                text = trimmed
                break
            }
        }
        while text.last == " " || text.last == "\t" || text.last == "\r" { text = text.dropLast() }
        return String(text)
    }

    private mutating func take(_ line: (text: String, number: Int, offset: Int), emit: (ReaderOutput) -> Void) {
        statistics.lines += 1
        let text = line.text
        if collectingTermination {
            // The reasons follow the `Termination Reason:` line: a `<RBSTerminateContext| …>` block up to its `>`.
            let opensBlock = terminationDepth == 0 && text.hasPrefix("<")
            if isHeaderKey(text) || text.isEmpty || report.termination!.lines.count >= Self.maximumTerminationLines
                || (terminationDepth == 0 && !opensBlock) {
                collectingTermination = false
            } else {
                report.termination!.lines.append(text)
                report.termination!.lineCount += 1
                terminationDepth += depthChange(text)
                if terminationDepth <= 0 { collectingTermination = false }
                return
            }
        }
        if collectingApplicationInformation {
            if isHeaderKey(text) || Self.endsApplicationInformation(text)
                || report.applicationInformation!.lines.count >= Self.maximumApplicationInformationLines {
                collectingApplicationInformation = false
            } else {
                report.applicationInformation!.lineCount += 1
                if !text.isEmpty && !Self.isElision(text) { report.applicationInformation!.lines.append(text) }
                return
            }
        }
        if text.hasPrefix("Incident Identifier:"), reportHasContent { endReport(emit: emit) }
        if let value = Self.value(of: "Process:", in: text) {
            // `Ledger Pro [2231]`; what follows the pid is a reader's annotation (`Ledger Pro [2231]   <-- ours`).
            if let process = Self.processAndPID(value) {
                report.processName = process.name
                report.pid = process.pid
            } else if value.hasPrefix("["), let pid = Self.processAndPID("-" + value)?.pid {
                // `Process:              [758]`: a device wrote no name (iOS 10); the process is named by its bundle.
                report.pid = pid
            } else {
                report.processName = value
            }
            reportHasContent = true
        } else if let value = Self.value(of: "Identifier:", in: text), !text.hasPrefix("Incident") {
            // A bundle identifier holds no space: what follows one is a reader's annotation (`com.example.ledger  # ours`).
            report.bundleID = String(value.prefix { $0 != " " && $0 != "\t" })
            reportHasContent = true
        } else if let value = Self.value(of: "Date/Time:", in: text) {
            report.captureTime = value
            reportHasContent = true
        } else if let value = Self.value(of: "Launch Time:", in: text) {
            report.launchTime = (value, line.number, line.offset)
            reportHasContent = true
        } else if let value = Self.value(of: "Exception Type:", in: text) {
            report.exception = (value, line.number, line.offset)
            reportHasContent = true
        } else if let value = Self.value(of: "Exception Codes:", in: text) {
            report.exceptionCodes = value
            statistics.skip(.structure)
            return
        } else if text.hasPrefix("Application Specific Information:") {
            // iOS ≤ 9 said a watchdog kill here (`com.example.ledger failed to launch in time`, the CPU time it took).
            // A second block in the same report continues the first: one block, at the first's line, counts them all.
            let value = Self.value(of: "Application Specific Information:", in: text)
            if report.applicationInformation == nil {
                report.applicationInformation = (value.map { [$0] } ?? [], line.number, line.offset, 1)
            } else {
                if let value, report.applicationInformation!.lines.count < Self.maximumApplicationInformationLines {
                    report.applicationInformation!.lines.append(value)
                }
                report.applicationInformation!.lineCount += 1
            }
            collectingApplicationInformation = true
            reportHasContent = true
            return
        } else if text.hasPrefix("Termination Reason:") || text.hasPrefix("Termination Description:") {
            if report.termination == nil {
                report.termination = ([text], line.number, line.offset, 1)
            } else {
                if report.termination!.lines.count < Self.maximumTerminationLines { report.termination!.lines.append(text) }
                report.termination!.lineCount += 1
            }
            reportHasContent = true
            terminationDepth = max(0, depthChange(text))
            collectingTermination = true
            return
        }
        // Everything else — other header keys, backtraces, binary images, Markdown — is the report's structure.
        statistics.skip(.structure)
    }

    /// A line that ends an `Application Specific Information:` block: a thread's backtrace, the syslog excerpt, the
    /// binary images.
    private static func endsApplicationInformation(_ text: String) -> Bool {
        ["Thread ", "Filtered syslog:", "Last Exception Backtrace:", "Binary Images:", "Backtrace not available"].contains { text.hasPrefix($0) }
    }

    /// A line a paste puts for what it left out (`…`, `....`).
    private static func isElision(_ text: String) -> Bool {
        text.allSatisfy { $0 == "." || $0 == "…" }
    }

    /// `<` opens and `>` closes an `<RBSTerminateContext| …>` block (`<U+…>` or `->` inside it are rare enough).
    private func depthChange(_ text: String) -> Int {
        var change = 0
        for character in text.utf8 {
            if character == UInt8(ascii: "<") { change += 1 } else if character == UInt8(ascii: ">") { change -= 1 }
        }
        return change
    }

    private func isHeaderKey(_ text: String) -> Bool {
        ["Triggered by Thread:", "Exception Type:", "Exception Codes:", "Exception Note:", "Thread 0", "Crashed Thread:", "Highlighted by Thread:",
         "Last Exception Backtrace:", "Binary Images:", "Incident Identifier:"].contains { text.hasPrefix($0) }
    }

    /// A `Process:` value's name and pid: the text before its first ` [digits]`, and the digits; nil without one.
    static func processAndPID(_ value: String) -> (name: String, pid: Int)? {
        var search = value.startIndex
        while let open = value[search...].firstIndex(of: "[") {
            let digits = value[value.index(after: open)...].prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.count <= 9, digits.endIndex < value.endIndex, value[digits.endIndex] == "]",
               let pid = Int(digits) {
                let name = String(value[..<open]).trimmingSpaces
                if !name.isEmpty { return (name, pid) }
            }
            search = value.index(after: open)
        }
        return nil
    }

    /// The value after `key` at the start of `text`, trimmed; nil when the line is not that key.
    private static func value(of key: String, in text: String) -> String? {
        guard text.hasPrefix(key) else { return nil }
        let value = text.dropFirst(key.count).trimmingSpaces
        return value.isEmpty ? nil : value
    }

    private mutating func endReport(emit: (ReaderOutput) -> Void) {
        defer {
            report = CrashReport()
            reportHasContent = false
            collectingTermination = false
            collectingApplicationInformation = false
        }
        guard reportHasContent else { return }
        var note: String?
        let events = report.events(input: configuration.inputName, configuration: configuration, note: &note)
        if let note {
            let origin = events.first?.event.origin ?? EventOrigin(input: configuration.inputName, line: 1, byteOffset: 0)
            let diagnostic = ReaderDiagnostic(code: .inferredTime, severity: .note, message: note, origin: origin, lineCount: 0)
            statistics.count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
        statistics.acceptReport(events, emit: emit)
        // A report with neither a termination nor an exception has no event: its lines were its structure.
        if events.isEmpty, let termination = report.termination { statistics.skip(.structure, lines: termination.lineCount) }
        if let information = report.applicationInformation, !events.contains(where: { $0.event.origin.line == information.line }) {
            statistics.skip(.structure, lines: information.lineCount)
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
