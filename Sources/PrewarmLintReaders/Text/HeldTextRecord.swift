import PrewarmLintModel

/// A text record the caller refused on its first line, kept as bytes — no strings, since most records of a device's
/// log are held and dropped — until its end says whether it is dropped (it ended at that line) or offered again whole
/// (further lines came, which the caller may take).
///
/// Its first line stays in the chunk being decoded while it can (``hold(_:time:inChunk:)``): most held records end at
/// the next line, with nothing more to keep, and copying each first line was a tenth of decoding a device's day. It is
/// copied (``keepFirstLine()``) before the chunk goes back to the reader, or when a further line comes.
struct HeldTextRecord {
    /// Its head, as the grammar (or the judge ahead) wrote it.
    var head = TextRecordHead.placeholder
    /// Its time.
    var time: TimestampResolver.ResolvedTime?
    /// Where it starts in the input.
    private(set) var line = 0
    private(set) var byteOffset = 0
    /// Its first line's length, in ``bytes``.
    private(set) var firstLineCount = 0
    /// At least the bytes its message would have (the unread prefixes are counted).
    private(set) var messageBytes = 0
    /// The first line, then each further line after a `\n`, as they came (once the first is copied).
    private(set) var bytes = ReusedBytes()
    /// The first line while it is still in the chunk being decoded.
    private var firstLineInChunk: UnsafeRawBufferPointer?
    /// Where each further line is in ``bytes``, and in the input.
    private(set) var furtherLines: [(range: Range<Int>, number: Int, byteOffset: Int)] = []

    /// The most further lines a held record keeps before it is built (runningboardd's longest descriptors run to a few
    /// dozen).
    static let maximumFurtherLines = 1024

    /// Holds the record `line` starts, at `time` (its head already in ``head``); the line is left where it is when it
    /// lies inside `chunk`.
    mutating func hold(_ line: ByteLine, time: TimestampResolver.ResolvedTime, inChunk chunk: UnsafeRawBufferPointer) {
        if let start = line.bytes.baseAddress, let chunkStart = chunk.baseAddress, start >= chunkStart,
           start + line.bytes.count <= chunkStart + chunk.count {
            firstLineInChunk = line.bytes
        } else {
            // A line carried over from the last chunk, or a head joined from two lines: its bytes are not the chunk's.
            firstLineInChunk = nil
            bytes.replace(with: line.bytes)
        }
        if !furtherLines.isEmpty { furtherLines.removeAll(keepingCapacity: true) }
        self.time = time
        self.line = line.number
        byteOffset = line.byteOffset
        firstLineCount = line.bytes.count
        messageBytes = head.message.count
    }

    /// Copies the first line out of the chunk, if it is still there.
    @inline(__always)
    mutating func keepFirstLine() {
        guard let line = firstLineInChunk else { return }
        firstLineInChunk = nil
        bytes.replace(with: line)
    }

    /// The record ended at its first line: nothing of it is kept.
    @inline(__always)
    mutating func dropFirstLine() {
        firstLineInChunk = nil
    }

    /// Whether the record's text so far leaves a bracket or a quote open (``TextLogDecoder/leavesOpen(_:)``).
    var looksUnfinished: Bool {
        firstLineInChunk.map { TextLogDecoder.leavesOpen($0) } ?? bytes.withUnsafeBytes { TextLogDecoder.leavesOpen($0) }
    }

    /// Keeps a further line, to offer the whole message at the record's end: false when the caller could not be shown
    /// it, so that the record is to be built now — a line not all ASCII (its invalid UTF-8 is reported), one taking the
    /// message past `maximumMessageLength` (which is reported as its lines come), one past ``maximumFurtherLines``, or
    /// one that may hold the prefixes of a head hard-wrapped before them.
    mutating func holdFurther(_ line: ByteLine, maximumMessageLength: Int) -> Bool {
        keepFirstLine()
        let further = line.bytes
        // (At most `maximumFurtherLines` further lines are held, so that their places stay few whatever the input: a
        // record of more lines is built.)
        guard UTF8Text.isASCII(further), messageBytes + 1 + further.count <= maximumMessageLength,
              furtherLines.count < Self.maximumFurtherLines else {
            return false
        }
        if furtherLines.isEmpty, head.unreadPrefixes == .prefixesOrNextLine {
            var probe = head
            let firstLineCount = firstLineCount
            let awaitsPrefixes = bytes.withUnsafeBytes { held in
                probe.completeFields(in: held.slice(0, firstLineCount))
                return probe.prefixesMayFollow && probe.message.isEmpty
            }
            if awaitsPrefixes { return false }
        }
        bytes.append(.newline)
        let start = bytes.count
        bytes.append(further)
        furtherLines.append((start..<bytes.count, line.number, line.byteOffset))
        messageBytes += 1 + further.count
        return true
    }

    /// Forgets the further lines (the record was built with them).
    mutating func removeFurtherLines() {
        furtherLines.removeAll(keepingCapacity: true)
    }

    /// Whether its first line is still in the chunk being decoded (a further line copies it out).
    var firstLineIsInChunk: Bool { firstLineInChunk != nil }
}
