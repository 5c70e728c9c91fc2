import PrewarmLintModel

/// Where a pasted document (``LogFormat/document``) is cut so that each of its logs is read as an input of its own and
/// the logs are merged by time, as several files of one device are: a crash report pasted above the Console copy it
/// explains, or one log pasted twice, gives what the files give together.
///
/// A line state machine fed the document's bytes (``read(_:)``, ``finish()``): the lines fall into regions as
/// ``DocumentDecoder`` reads them (``DocumentOutline``), each region's head is sniffed as its reader would sniff it, and
/// the document is cut before each region that a reader takes. A part runs from one cut to the next, so it holds one
/// log and the prose and blocks after it; the first part starts at the document's start.
///
/// A cut is only made at a line that a document read from that line on reads as the whole document does: a line
/// between regions, at which the outline is in the state it starts in (or one a fence, a tag or a quote marker opens
/// whatever came before). So each part, read as a document from its cut, reads its regions as the whole does.
///
/// A log block that repeats an earlier one line for line (one log pasted a thousand times) is no log of its own: it is
/// listed (``repeatedRegions``) for the parts' readers to pass over, so the repeats count once however many there are
/// and wherever they fall. Blocks are told apart by two 64-bit hashes of their content lines and their line count.
///
/// Memory is bounded whatever the document: at most ``maximumParts`` parts. A document of more logs than that (a
/// region on every line) is cut into that many parts of consecutive logs, each read in the document's order. At most
/// ``maximumBlocksCompared`` distinct log blocks are remembered and as many repeats listed (16 bytes each).
package struct DocumentPartition {
    /// A document of at most this many logs is read as that many inputs merged by time.
    package static let maximumParts = 32
    /// The most distinct log blocks remembered, and repeats listed, to tell repeats apart.
    package static let maximumBlocksCompared = 1 << 20

    /// What tells one block's content from another's.
    private struct ContentHash: Hashable {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325
        var second: UInt64 = 5381
        var lines = 0

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes { add(byte) }
            add(.newline)
            lines += 1
        }

        @inline(__always) private mutating func add(_ byte: UInt8) {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = second &* 33 &+ UInt64(byte)
        }
    }

    /// One part: from `start` (its first line and byte) to the byte offset `end` (nil: the document's end).
    package struct Part: Sendable, Hashable {
        package var start: InputPosition
        package var end: Int?

        package init(start: InputPosition, end: Int?) {
            self.start = start
            self.end = end
        }

        /// Its bytes, nil when it runs to the end.
        package var length: Int? { end.map { $0 - start.byteOffset } }
    }

    private var framer: LineFramer
    private var outline = DocumentOutline()
    /// The last line at which the document could be cut.
    private var cuttable: InputPosition?
    /// The region open: its kind, where it may be cut, the start of its content as its reader would sniff it, and
    /// whether that decided it is a log (nil: not yet).
    private var region: Region?
    private struct Region {
        var kind: DocumentOutline.Kind
        var cut: InputPosition?
        var sample: [UInt8]
        var isLog: Bool?
        /// Where its first content line starts; its content so far (nil: not compared, a tool's output).
        var firstLine: InputPosition
        var hash: ContentHash?
    }
    /// The log blocks met, by their content.
    private var blocks: Set<ContentHash> = []
    /// The first lines' byte offsets of the log blocks that repeat an earlier one, in order.
    package private(set) var repeatedRegions: [Int] = []
    /// dyld's statistics lines, as the decoder takes them out of regions. The document is not cut while a block is open:
    /// the line that ends it may name the launch it is about (``DocumentDecoder``), and goes with it.
    private var preMain = PreMainStatisticsReader(inputName: "")
    /// The cuts after the first part's start, in order.
    private var cuts: [InputPosition] = []
    /// The date a crash report in the document gives its undated logs (``DocumentReportDate``).
    package private(set) var reportDate = DocumentReportDate()
    /// Regions begun so far: the index of the current one.
    private var regionsBegun = 0

    /// Logs found, and how many of them go to a part (doubled each time the cuts are thinned out).
    private(set) var logs = 0
    private var logsPerPart = 1

    /// A partition of lines up to `maximumLineLength` bytes (the reader's limit).
    package init(maximumLineLength: Int) {
        framer = LineFramer(maximumLineLength: maximumLineLength)
    }

    /// The document's next bytes.
    package mutating func read(_ bytes: UnsafeRawBufferPointer) {
        var framer = self.framer
        framer.feed(bytes) { line, _ in take(line) }
        self.framer = framer
    }

    /// Ends the document: its parts, or none when it holds fewer than two logs (it is then read as one input) — one, the
    /// whole, when it holds one log and repeats of it (``repeatedRegions``).
    package mutating func finish() -> [Part] {
        var framer = self.framer
        framer.finish { line, _ in take(line) }
        self.framer = framer
        endRegion()
        guard logs >= 2, !cuts.isEmpty else { return repeatedRegions.isEmpty ? [] : [Part(start: .beginning, end: nil)] }
        if cuts.count >= Self.maximumParts { thinOut() }
        var parts: [Part] = []
        var start = InputPosition.beginning
        for cut in cuts {
            parts.append(Part(start: start, end: cut.byteOffset))
            start = cut
        }
        parts.append(Part(start: start, end: nil))
        return parts
    }

    private mutating func take(_ line: ByteLine) {
        if outline.readsAsAtStart(line.bytes), !preMain.isOpen { cuttable = InputPosition(line: line.number, byteOffset: line.byteOffset) }
        switch outline.take(line.bytes) {
        case .markup(let ends):
            if ends { endRegion() }
        case .blank:
            break
        case .content(let kind, let prefix, let suffix, let starts):
            let end = max(prefix, line.bytes.count - suffix)
            let content = line.bytes.slice(min(prefix, line.bytes.count), end)
            if preMain.mayTake(content), preMain.take(content, number: line.number, byteOffset: 0).taken {
                endRegion()
                return
            }
            if starts || region == nil || region?.kind != kind {
                endRegion()
                region = Region(kind: kind, cut: cuttable, sample: [], isLog: nil,
                                firstLine: InputPosition(line: line.number, byteOffset: line.byteOffset), hash: ContentHash())
                regionsBegun += 1
            }
            reportDate.take(content, line: line.number, block: regionsBegun)
            if kind == .table {
                // A table's row as its reader gets it: the cells as tab-separated columns.
                let columns = DocumentOutline.tableRowColumns(content)
                columns.withUnsafeBytes { region?.hash?.add($0) }
                columns.withUnsafeBytes { sniff($0) }
            } else {
                region?.hash?.add(content)
                sniff(content)
            }
            sniff(nil)
        case .toolOutput(let kind, let starts):
            if starts || region == nil || region?.kind != kind {
                endRegion()
                region = Region(kind: kind, cut: cuttable, sample: [], isLog: nil,
                                firstLine: InputPosition(line: line.number, byteOffset: line.byteOffset), hash: nil)
            }
            region?.hash = nil
        }
    }

    /// A region's content line, or its line break (nil), as its reader gets them: its format is sniffed once
    /// ``FormatSniffer/sampleSize`` bytes are held, as `LogStreamReader` does.
    private mutating func sniff(_ content: UnsafeRawBufferPointer?) {
        guard region?.isLog == nil, var open = region.take() else { return }
        defer { region = open }
        guard open.isLog == nil else { return }
        let count = content?.count ?? 1
        let decides = open.sample.count + count >= FormatSniffer.sampleSize
        if let content { open.sample.append(contentsOf: content) } else { open.sample.append(.newline) }
        if decides { decide(&open, isComplete: false) }
    }

    private func decide(_ open: inout Region, isComplete: Bool) {
        // A gzip stream is inflated first; in a pasted document it is no log.
        let gzip = open.sample.count >= 2 && open.sample[0] == 0x1F && open.sample[1] == 0x8B
        open.isLog = !gzip && open.sample.withUnsafeBytes { FormatSniffer.sniff($0, isComplete: isComplete, allowsDocument: false) } != nil
        open.sample = []
    }

    private mutating func endRegion() {
        guard var open = region.take() else { return }
        if open.isLog == nil, !open.sample.isEmpty { decide(&open, isComplete: true) }
        guard open.isLog == true else { return }
        if let hash = open.hash {
            if blocks.contains(hash) {
                if repeatedRegions.count < Self.maximumBlocksCompared {
                    repeatedRegions.append(open.firstLine.byteOffset)
                    return
                }
            } else if blocks.count < Self.maximumBlocksCompared {
                blocks.insert(hash)
            }
        }
        logs += 1
        // The first log is in the first part, which starts at the document's start.
        guard logs > 1, (logs - 1) % logsPerPart == 0, let cut = open.cut, cut.byteOffset > (cuts.last?.byteOffset ?? 0) else { return }
        cuts.append(cut)
        if cuts.count >= 2 * Self.maximumParts { thinOut() }
    }

    /// Every other cut kept: twice as many logs to a part from now on.
    private mutating func thinOut() {
        cuts = cuts.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        logsPerPart *= 2
    }
}
