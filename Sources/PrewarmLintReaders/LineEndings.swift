/// Rewrites each carriage return that no line feed follows (`\r` alone: classic Mac OS line ends, a web form's, a
/// stray one inside a log) into a line feed, so that every reader after it sees `\n` and `\r\n` only.
///
/// A byte for a byte: offsets and sizes are unchanged, so a region read again at its offset is the same region. A small
/// state machine: ``normalize(_:_:)`` with each chunk, then ``finish(_:)`` once at the end of input. A `\r` that ends a
/// chunk is held back until the next byte says what it is (the start of `\r\n`, or a line end of its own). A chunk
/// without a `\r` is passed on as it is; one with a `\r` is copied once into a buffer kept between chunks.
public struct LineEndings {
    /// How many lone carriage returns were read as line ends.
    public private(set) var loneCarriageReturns = 0
    /// The byte offset of the first one.
    public private(set) var firstLoneCarriageReturn: Int?

    private var heldCarriageReturn = false
    private var buffer: [UInt8] = []
    private var consumed = 0

    /// A normalizer at the start of an input.
    public init() {}

    /// Hands `chunk` to `body` with its lone carriage returns made line feeds (in one or two pieces, or none when the
    /// chunk is one held `\r`).
    public mutating func normalize(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard !chunk.isEmpty else { return }
        let chunkOffset = consumed
        consumed += chunk.count
        if heldCarriageReturn {
            heldCarriageReturn = false
            if chunk[0] == .newline {
                emitByte(.carriageReturn, body)
            } else {
                countLone(at: chunkOffset - 1)
                emitByte(.newline, body)
            }
        }
        var end = chunk.count
        if chunk[end - 1] == .carriageReturn {
            // Only the next chunk can say whether this one starts `\r\n`.
            heldCarriageReturn = true
            end -= 1
        }
        // The first carriage return with no line feed after it, if any: until one, the chunk is passed on as it is.
        guard var carriageReturn = Self.firstLoneCarriageReturn(in: chunk, from: 0, to: end) else {
            if end > 0 { body(chunk.slice(0, end)) }
            return
        }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: chunk.slice(0, end))
        countLone(at: chunkOffset + carriageReturn)
        var more = 0
        buffer.withUnsafeMutableBytes { copy in
            while true {
                copy[carriageReturn] = .newline
                guard let next = Self.firstLoneCarriageReturn(in: chunk, from: carriageReturn + 1, to: end) else { break }
                carriageReturn = next
                more += 1
            }
        }
        loneCarriageReturns += more
        buffer.withUnsafeBytes(body)
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 22)
    }

    /// Hands over a `\r` held back at the end of input: a line end.
    public mutating func finish(_ body: (UnsafeRawBufferPointer) -> Void) {
        guard heldCarriageReturn else { return }
        heldCarriageReturn = false
        countLone(at: consumed - 1)
        emitByte(.newline, body)
    }

    /// A sample of an input's first bytes as the normalizer passes them on (a last `\r` a line end when `isComplete`,
    /// else left out); nil when it holds no `\r`.
    public static func normalizedSample(_ bytes: UnsafeRawBufferPointer, isComplete: Bool) -> [UInt8]? {
        var lineEndings = LineEndings()
        return lineEndings.normalizedSample(bytes, isComplete: isComplete)
    }

    /// ``normalizedSample(_:isComplete:)`` read by this normalizer, which goes on from the sample's end (a `\r` held
    /// there, the lone ones counted).
    public mutating func normalizedSample(_ bytes: UnsafeRawBufferPointer, isComplete: Bool) -> [UInt8]? {
        guard bytes.firstIndex(of: .carriageReturn, from: 0) != nil else {
            // Passed on as it is, and counted: later offsets are the input's.
            consumed += bytes.count
            return nil
        }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        normalize(bytes) { normalized.append(contentsOf: $0) }
        if isComplete { finish { normalized.append(contentsOf: $0) } }
        return normalized
    }

    /// Whether `bytes` may hold a `\r` this normalizer would rewrite: one no `\n` follows, or one at the end (which
    /// the next byte decides). For a reader that frames lines of its own, to leave such bytes to the normalized reader.
    public static func mayHoldLoneCarriageReturn(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        return bytes[bytes.count - 1] == .carriageReturn || firstLoneCarriageReturn(in: bytes, from: 0, to: bytes.count) != nil
    }

    /// The first `\r` in `chunk[start..<end]` that no `\n` follows (a `\r` at `end - 1` is followed by a held one).
    private static func firstLoneCarriageReturn(in chunk: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        var search = start
        while search < end, let found = chunk.firstIndex(of: .carriageReturn, in: search..<end) {
            if found + 1 == end || chunk[found + 1] != .newline { return found }
            search = found + 2
        }
        return nil
    }

    private mutating func countLone(at byteOffset: Int) {
        loneCarriageReturns += 1
        if firstLoneCarriageReturn == nil { firstLoneCarriageReturn = byteOffset }
    }

    private func emitByte(_ byte: UInt8, _ body: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeBytes(of: byte) { body($0) }
    }
}
