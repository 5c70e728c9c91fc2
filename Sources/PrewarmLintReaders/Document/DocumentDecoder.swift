import PrewarmLintModel

/// Reads a pasted document (``LogFormat/document``): its lines fall into regions (``DocumentOutline``), and each region
/// is read on its own by a reader of its own — sniffed, decoded, ended — with the document's line numbers, so that an
/// issue body holding a crash report in one block and a Console copy in another gives the events of both.
///
/// A region no reader takes is never dropped silently: a block (fenced, indented, `<pre>`, a table) is named in a
/// warning with its lines and its first line; plain text, quoted or not, is counted as prose (`skipped.prose`), its
/// lines shaped like log lines read alone (``LogFragment``). Markup lines (fences,
/// tags) are counted as the document's structure. Byte offsets within a region whose lines had markers taken off (a
/// quote's `> `) count the bytes read, so they are a line's offset only at each region's first line.
struct DocumentDecoder: LineFramedDecoder {
    let format = LogFormat.document
    private(set) var statistics = DecoderStatistics()
    var framer: LineFramer
    private let configuration: ReaderConfiguration
    private var outline = DocumentOutline()
    /// What a crash report in the paste says of its undated lines' date (``DocumentReportDate``), and the blocks begun.
    private var reportDate = DocumentReportDate()
    private var blocksBegun = 0
    /// The region being read.
    private var region: Region?
    /// Its kind, kept beside it: asked of every line, without touching the region (which holds a reader).
    private var regionKind: DocumentOutline.Kind?
    /// A content line and its line break, handed to the region's reader in one piece.
    private var lineBuffer: [UInt8] = []
    /// Regions read so far, and those no reader took.
    private(set) var regionsRead = 0
    private(set) var regionsUnread = 0
    /// The warnings about blocks no reader took, held until a block is read: a document none of whose blocks is a log
    /// (a README found in a folder) is refused whole, as any file that is not a log, rather than warned about block by
    /// block. At most ``heldWarnings`` are held; the rest are counted in the refusal.
    private var heldUnread: [ReaderDiagnostic] = []
    static let heldWarnings = 100
    /// The first block no reader took, for the refusal.
    private var firstUnread: String?
    /// dyld's launch statistics, read from the content lines of any region (a block of its own, or lines of an Xcode
    /// console): its lines are not handed to a region's reader.
    private var preMain: PreMainStatisticsReader
    /// Whether a statistics block or a fragment was read: the document is then not refused as holding no log.
    private var untimedRead = false

    /// A table's first row (its columns, line number and byte offset), until the next line says whether it is the header.
    private var heldTableRow: (columns: [UInt8], number: Int, byteOffset: Int)?
    /// Where the table open starts (its header, if it has one): the partition knows a repeated table by that line.
    private var tableFirstRow: Int?
    /// Log blocks passed over as repeats of an earlier one (``ReaderConfiguration/repeatedRegions``): how many, their
    /// lines, and the first one's.
    private var repeats = 0
    private var repeatedLines = 0
    private var firstRepeat: (first: Int, last: Int)?
    /// The next of the document's repeated blocks that may start in this part.
    private var nextRepeat = 0

    private struct Region {
        var kind: DocumentOutline.Kind
        var reader: LogStreamReader
        /// Whether it repeats an earlier block line for line: passed over, not read.
        var repeats = false
        var firstLine: Int
        var lastLine: Int
        /// The region's first non-blank line, as it was (for the warning that names a region no reader takes).
        var firstText: String?
        /// Whether a reader took it (its format is known) or it failed.
        var failure: ReaderError?
        var lines = 0
        /// Lines whose tool prefix was taken off, lines of the tool's own output (counted as prose), and lines joined to
        /// the line before (wrapped by the tool).
        var toolPrefixed = 0
        /// The tool whose prefix they had.
        var prefixingTool = DocumentOutline.Tool.flutter
        var toolLines = 0
        var wrapped = 0
        var afterToolOutput = false
        /// Whether the last line handed to the reader waits for its line break: in a tool's output, the next line may
        /// be its wrapped rest.
        var breakHeld = false
        /// Its lines shaped like log lines (``LogFragmentShape``), kept until the region's reader is known: said as
        /// fragments if no reader takes the region (at most ``DocumentDecoder/fragmentsPerRegion``).
        var fragments: [LogFragment] = []
        /// Lines so shaped beyond the limit, counted.
        var fragmentsNotKept = 0
    }

    /// The most fragments a region keeps.
    static let fragmentsPerRegion = 32

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
        framer = LineFramer(maximumLineLength: configuration.limits.maximumLineLength)
        preMain = PreMainStatisticsReader(inputName: configuration.inputName)
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        feedLines(bytes, offers: offers, emit: emit)
    }

    mutating func decodeLast(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        finishLines(offers: offers, emit: emit)
        endRegion(offers: offers, emit: emit)
        if let first = firstRepeat {
            let shift = configuration.start.line - 1
            let blocks = repeats == 1 ? "1 block repeats" : "\(repeats) blocks repeat"
            note(.repeatedRegion, .note,
                 "\(blocks) an earlier block of the document line for line (the first at lines \(first.first + shift)–\(first.last + shift)): read once",
                 line: first.first, lines: repeatedLines, emit: emit)
        }
        if let ended = preMain.finish() { emit(.preMainStatistics(ended)) }
        // Read whole, not cut into parts before it was read (a stream, a live run): the blocks were read in the paste's
        // order, not merged by time, and a crash report below its process's lines came too late to date them.
        if !configuration.isDocumentPart, let dated = reportDate.date {
            note(.inferredTime, .note,
                 "the crash report of pid \(dated.pid) (its Date/Time at line \(dated.line)) is of a process another block of this paste names: read as the paste came, the blocks were not merged by time and the report did not date undated lines; read the paste as a file to join them",
                 line: dated.line - configuration.start.line + 1, lines: 0, emit: emit)
        }
    }

    /// Whether the region's record leaves a bracket or a quote open: a short pause does not end it (nor the region).
    var openRecordLooksUnfinished: Bool { region?.reader.openRecordLooksUnfinished ?? false }

    mutating func decodePause(keepsUnfinished: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        guard framer.isAtLineStart else { return }
        releaseHeldBreak(offers: offers, emit: emit)
        guard var open = region else { return }
        region = nil
        do throws(ReaderError) { try open.reader.pause(endingRecords: true, keepsUnfinished: keepsUnfinished, offers: offers, emit: emit) } catch {
            open.failure = error
        }
        region = open
    }

    mutating func handle(_ line: ByteLine, truncated: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        statistics.lines += 1
        switch outline.take(line.bytes) {
        case .markup(let ends):
            if ends { endRegion(offers: offers, emit: emit) }
            if heldTableRow != nil, regionKind == .table {
                // The row above a table's delimiter row is its header: structure, as the delimiter is.
                heldTableRow = nil
                statistics.skip(.structure)
            }
            statistics.skip(.structure)
        case .blank:
            statistics.skip(.blank)
        case .content(let kind, let prefix, let suffix, let starts):
            let content = line.bytes.slice(min(prefix, line.bytes.count), max(prefix, line.bytes.count - suffix))
            if preMain.mayTake(content), takesPreMainStatistics(content, line: line, prefix: prefix, offers: offers, emit: emit) { return }
            if kind == .table {
                tableRow(content, line: line, starts: starts, offers: offers, emit: emit)
                return
            }
            if starts || regionKind != kind {
                endRegion(offers: offers, emit: emit)
                startRegion(kind, at: line, prefix: prefix)
                blocksBegun += 1
            }
            reportDate.take(content, line: line.number + configuration.start.line - 1, block: blocksBegun)
            // In a tool's output (a line of the region had its prefix), a line with none continues the one before.
            let continues = !outline.tookToolPrefix && region?.toolPrefixed ?? 0 > 0
            if outline.tookToolPrefix {
                region?.toolPrefixed += 1
                region?.prefixingTool = outline.prefixingTool
                region?.afterToolOutput = false
            } else if continues {
                // In flutter's output, a line with no prefix is the rest of the line before it, wrapped at the terminal's
                // width: a device line's is joined to it, a line of the tool's own is more of the tool's. Appium prefixes
                // every line of a device's record: a line with none is more of the server's own output.
                if region?.afterToolOutput == true || region?.prefixingTool == .appium {
                    region?.toolLines += 1
                    statistics.skip(.prose)
                    return
                }
                region?.wrapped += 1
            }
            feed(content, line: line, joining: continues, offers: offers, emit: emit)
        case .toolOutput(let kind, let starts):
            if starts || regionKind != kind {
                endRegion(offers: offers, emit: emit)
                startRegion(kind, at: line, prefix: 0)
            }
            region?.toolLines += 1
            region?.afterToolOutput = true
            statistics.skip(.prose)
        }
    }

    /// Whether `content` is a line of dyld's launch statistics, taken as one (the region open ends before it). A block
    /// that ends at an Xcode console line is about the launch of the process that line names: it was printed before the
    /// app's `main`, so before the app's first line.
    private mutating func takesPreMainStatistics(_ content: UnsafeRawBufferPointer, line: ByteLine, prefix: Int, offers: RecordOffers,
                                                 emit: (ReaderOutput) -> Void) -> Bool {
        let (taken, ended) = preMain.take(content, number: line.number, byteOffset: line.byteOffset + prefix)
        if var ended {
            if !taken { ended.launch = launch(named: content, line: line, prefix: prefix) }
            emit(.preMainStatistics(ended))
        }
        guard taken else { return false }
        endRegion(offers: offers, emit: emit)
        if DocumentOutline.isBlank(content) { statistics.skip(.blank) } else { statistics.eventLines += 1 }
        readUntimed(emit: emit)
        return true
    }

    /// Something with no time was read (a statistics block, a fragment): it counts as a region read, once, so that a
    /// document of nothing else is not refused.
    private mutating func readUntimed(emit: (ReaderOutput) -> Void) {
        guard !untimedRead else { return }
        untimedRead = true
        regionsRead += 1
        sayHeld(emit: emit)
    }

    /// The launch an Xcode console line (`2020-06-26 10:00:00.123456+0800 App[1234:56789] …`) names: its process, pid
    /// and time; nil for any other line.
    private func launch(named content: UnsafeRawBufferPointer, line: ByteLine, prefix: Int) -> PreMainStatistics.Launch? {
        var head = TextRecordHead.placeholder
        guard case .head = XcodeConsoleGrammar().classify(content, into: &head), let pid = head.pid, let name = head.process, !name.isEmpty
        else { return nil }
        var resolver = TimestampResolver(inference: configuration.timeInference)
        let timeText = TimestampText(utf8: content.slice(head.timeText.lowerBound, head.timeText.upperBound))
        guard let time = resolver.resolve(head.time, text: timeText) else { return nil }
        let process = UTF8Text.decode(content.slice(name.lowerBound, name.upperBound)).text
        return PreMainStatistics.Launch(process: process, pid: pid, before: time,
                                        evidence: EventOrigin(input: configuration.inputName, line: line.number, byteOffset: line.byteOffset + prefix))
    }

    /// A table's row, its cells handed on as tab-separated columns. Its first row is held until the next line says
    /// whether it is the header (a delimiter row follows: structure) or a row of the log; the region starts at its first
    /// row of the log, so that its reader numbers the lines as the document does.
    private mutating func tableRow(_ content: UnsafeRawBufferPointer, line: ByteLine, starts: Bool, offers: RecordOffers,
                                   emit: (ReaderOutput) -> Void) {
        let columns = DocumentOutline.tableRowColumns(content)
        if starts || regionKind != .table {
            endRegion(offers: offers, emit: emit)
            regionKind = .table
            heldTableRow = (columns, line.number, line.byteOffset)
            tableFirstRow = line.byteOffset
            return
        }
        releaseHeldTableRow(offers: offers, emit: emit)
        if region == nil { startRegion(.table, at: line, prefix: 0) }
        columns.withUnsafeBytes { feed($0, line: ByteLine(bytes: $0, number: line.number, byteOffset: line.byteOffset), offers: offers, emit: emit) }
    }

    /// The table's first row, held, as a row of the log: the region starts at it.
    private mutating func releaseHeldTableRow(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        guard let held = heldTableRow.take() else { return }
        held.columns.withUnsafeBytes { bytes in
            let line = ByteLine(bytes: bytes, number: held.number, byteOffset: held.byteOffset)
            startRegion(.table, at: line, prefix: 0)
            feed(bytes, line: line, offers: offers, emit: emit)
        }
    }

    private mutating func startRegion(_ kind: DocumentOutline.Kind, at line: ByteLine, prefix: Int) {
        var regionConfiguration = configuration
        regionConfiguration.start = InputPosition(line: line.number, byteOffset: line.byteOffset + prefix)
        regionConfiguration.isDocumentRegion = true
        regionKind = kind
        region = Region(kind: kind, reader: LogStreamReader(configuration: regionConfiguration), firstLine: line.number,
                        lastLine: line.number)
        // A block the document's partition found repeating an earlier one starts at this line's offset in the document.
        let offset = configuration.start.byteOffset + (kind == .table ? tableFirstRow ?? line.byteOffset : line.byteOffset)
        let repeated = configuration.repeatedRegions
        while nextRepeat < repeated.count, repeated[nextRepeat] < offset { nextRepeat += 1 }
        if nextRepeat < repeated.count, repeated[nextRepeat] == offset { region?.repeats = true }
    }

    /// A content line (its markers taken off) to the region's reader, with its line break — held back in a tool's output
    /// until the next line shows whether it continues this one (`joining`: it does, after a space).
    private mutating func feed(_ content: UnsafeRawBufferPointer, line: ByteLine, joining: Bool = false, offers: RecordOffers,
                               emit: (ReaderOutput) -> Void) {
        guard var open = region.take() else { return }
        open.lastLine = line.number
        open.lines += 1
        if open.repeats {
            region = open
            return
        }
        // Each region is a capture of its own: the lines its reader reads keep their own times.
        if open.lines == 1 { emit(.partStart(EventOrigin(input: configuration.inputName, line: line.number, byteOffset: line.byteOffset))) }
        if open.firstText == nil, !DocumentOutline.isBlank(content) {
            open.firstText = DisplayText.singleLine(String(decoding: content.prefix(120), as: UTF8.self))
        }
        // Until a reader takes the region, a line shaped like a log line is kept: the region may be no log.
        if open.reader.format == nil,
           let fragment = LogFragmentShape.fragment(content, origin: EventOrigin(input: configuration.inputName, line: line.number, byteOffset: line.byteOffset)) {
            if open.fragments.count < Self.fragmentsPerRegion { open.fragments.append(fragment) } else { open.fragmentsNotKept += 1 }
        }
        if open.failure == nil {
            var piece = lineBuffer
            lineBuffer = []
            piece.removeAll(keepingCapacity: true)
            if open.breakHeld { piece.append(joining ? .space : .newline) }
            piece.append(contentsOf: content)
            open.breakHeld = open.toolPrefixed > 0 && open.prefixingTool == .flutter
            if !open.breakHeld { piece.append(.newline) }
            var failure: ReaderError?
            piece.withUnsafeBytes { bytes in
                do throws(ReaderError) { try open.reader.read(bytes, offers: offers, emit: emit) } catch { failure = error }
            }
            open.failure = failure
            // A line far longer than the usual is not kept as the buffer for the next.
            if piece.capacity <= 1 << 16 { lineBuffer = piece }
        }
        region = open
    }

    /// The line break held back after the region's last line, handed to its reader.
    private mutating func releaseHeldBreak(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        guard region?.breakHeld == true, var open = region.take() else { return }
        open.breakHeld = false
        if open.failure == nil {
            var newline = UInt8.newline
            withUnsafeBytes(of: &newline) { byte in
                do throws(ReaderError) { try open.reader.read(byte, offers: offers, emit: emit) } catch { open.failure = error }
            }
        }
        region = open
    }

    /// Ends the region open, if any: its reader's end, and what it read added to the document's counts; a region no
    /// reader took is said (a block) or counted as prose (text).
    private mutating func endRegion(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        releaseHeldTableRow(offers: offers, emit: emit)
        regionKind = nil
        releaseHeldBreak(offers: offers, emit: emit)
        guard var open = region.take() else { return }
        if open.repeats {
            repeats += 1
            repeatedLines += open.lines
            if firstRepeat == nil { firstRepeat = (open.firstLine, open.lastLine) }
            return
        }
        if open.failure == nil {
            do throws(ReaderError) { try open.reader.finish(offers: offers, emit: emit) } catch { open.failure = error }
        }
        // A wrapped line's rest is part of its event — in a region read; a region no reader takes is diagnosed whole.
        let refused = open.reader.format == nil && open.failure?.code == .unrecognizedFormat
        if !refused { statistics.eventLines += open.wrapped }
        let read = open.reader.statistics
        statistics.events += read.events
        statistics.eventsSkipped += read.eventsSkipped
        statistics.eventLines += read.eventLines
        statistics.eventsUnworded += read.eventsUnworded
        for identity in read.deviceIdentities { statistics.note(identity) }
        statistics.diagnosedLines += read.diagnosedLines
        for (reason, count) in read.skipped { statistics.skip(reason, lines: count) }
        for (severity, count) in read.diagnostics { statistics.diagnostics[severity, default: 0] += count }
        // A region read as a format that does not count lines (an archive, a binary property list) accounts for fewer
        // than it was handed: the rest are its structure, so that every line of the document is accounted for once.
        let accounted = read.eventLines + read.skipped.values.reduce(0, +) + read.diagnosedLines + open.wrapped
        if open.failure == nil || open.reader.format != nil, accounted < open.lines { statistics.skip(.structure, lines: open.lines - accounted) }
        if open.toolPrefixed > 0 {
            let tool = open.prefixingTool.rawValue
            let own = open.toolLines > 0 ? "; \(open.toolLines) line\(open.toolLines == 1 ? "" : "s") of \(tool)'s own output counted as prose" : ""
            let joined = open.wrapped > 0 ? "; \(open.wrapped) line\(open.wrapped == 1 ? "" : "s") \(tool) wrapped joined to the line before" : ""
            note(.toolPrefix, .note, "\(open.kind.rawValue) at \(lines(open)): \(open.prefixingTool.prefixName) prefix taken off \(open.toolPrefixed) line\(open.toolPrefixed == 1 ? "" : "s")\(joined)\(own)",
                 line: open.firstLine, lines: 0, emit: emit)
        }
        guard let refusal = open.failure, open.reader.format == nil, refusal.code == .unrecognizedFormat else {
            regionsRead += 1
            sayHeld(emit: emit)
            if let failure = open.failure {
                // Read in part, then refused (a corrupt gzip block, an archive nested too deep): said where it happened.
                note(.unreadableInput, .warning, "\(open.kind.rawValue) at \(lines(open)): \(failure.message)",
                     line: open.firstLine, lines: 0, emit: emit)
            }
            return
        }
        regionsUnread += 1
        // Its lines shaped like log lines are read alone, as fragments.
        if !open.fragments.isEmpty {
            for fragment in open.fragments { emit(.fragment(fragment)) }
            if open.fragmentsNotKept > 0 {
                note(.unreadRegion, .note, "\(open.kind.rawValue) at \(lines(open)): \(open.fragmentsNotKept) more lines shaped like log lines were not read alone (at most \(Self.fragmentsPerRegion) a block)",
                     line: open.firstLine, lines: 0, emit: emit)
            }
            readUntimed(emit: emit)
        }
        // Text, quoted or not, is prose (its lines shaped like log lines read alone, above): a reply quotes the words
        // it answers. Any other block no reader takes is named.
        if open.kind == .plain || open.kind == .quoted {
            statistics.skip(.prose, lines: open.lines)
        } else {
            let first = open.firstText.map { ": “\($0)”" } ?? ""
            if firstUnread == nil { firstUnread = "\(open.kind.rawValue) at \(lines(open))\(first)" }
            note(.unreadRegion, .warning,
                 "\(open.kind.rawValue) at \(lines(open)) is not a log prewarm-lint reads (see `prewarm-lint formats`)\(first)",
                 line: open.firstLine, lines: open.lines, emit: emit)
        }
    }

    /// A region's lines as the report names them: the document's, when a part of it is read from a later line.
    private func lines(_ region: Region) -> String {
        let shift = configuration.start.line - 1
        return "lines \(region.firstLine + shift)–\(region.lastLine + shift)"
    }

    /// Why the document is refused when no region of it was read.
    var endsUnread: String? {
        guard regionsRead == 0, !configuration.isDocumentPart else { return nil }
        let blocks = heldUnread.count
        switch blocks {
        case 0: return "a pasted document of text alone, with no log in it"
        case 1: return "a pasted document whose one block is not a log prewarm-lint reads (\(firstUnread ?? ""))"
        default: return "a pasted document none of whose blocks is a log prewarm-lint reads (the first: \(firstUnread ?? ""))"
        }
    }

    private mutating func note(_ code: DiagnosticCode, _ severity: ReaderDiagnostic.Severity, _ message: String, line: Int, lines: Int,
                               emit: (ReaderOutput) -> Void) {
        let diagnostic = ReaderDiagnostic(code: code, severity: severity, message: message,
                                          origin: EventOrigin(input: configuration.inputName, line: line, byteOffset: 0), lineCount: lines)
        statistics.count(diagnostic)
        if regionsRead == 0 && code == .unreadRegion && !configuration.isDocumentPart {
            if heldUnread.count < Self.heldWarnings { heldUnread.append(diagnostic) }
            return
        }
        emit(.diagnostic(diagnostic))
    }

    /// A region was read: the warnings held about the blocks before it are said now.
    private mutating func sayHeld(emit: (ReaderOutput) -> Void) {
        for diagnostic in heldUnread { emit(.diagnostic(diagnostic)) }
        heldUnread.removeAll()
    }
}
