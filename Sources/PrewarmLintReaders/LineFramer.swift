/// Splits a stream of byte chunks into lines, holding back only the unfinished last line.
///
/// A small state machine in the shape of swift-nio's `ByteToMessageDecoder`: ``feed(_:_:)``
/// with each chunk, then ``finish(_:)`` once at the end of input, which hands over a last line
/// that had no line break. Lines that lie wholly inside one chunk are passed on without copying.
///
/// What counts as a line break: `\n`, and `\r\n` (the `\r` is removed). A lone `\r` is not one here: a reader
/// makes it a `\n` before its framer sees it (``LineEndings``).
///
/// A line longer than ``maximumLineLength`` is cut there: its first `maximumLineLength` bytes
/// are passed on with `isTruncated` set, and the rest is skipped up to the next line break, so
/// memory stays bounded on a file with no line breaks at all.
public struct LineFramer {
    /// The longest line passed on whole.
    public let maximumLineLength: Int

    private var carry: [UInt8] = []
    /// Bytes of the current line skipped because it was too long.
    private var skippingOverlongLine = false
    private var nextLineNumber = 1
    private var nextLineOffset = 0
    private var consumed = 0

    /// A framer keeping lines up to `maximumLineLength` bytes whole.
    public init(maximumLineLength: Int = 1 << 20) {
        self.maximumLineLength = max(16, maximumLineLength)
    }

    /// The number of lines handed over so far.
    public var lineCount: Int { nextLineNumber - 1 }

    /// The bytes fed so far.
    var consumedBytes: Int { consumed }

    /// Whether no line is carried over: the bytes fed so far end with a line break (or there are none).
    var isAtLineStart: Bool { carry.isEmpty && !skippingOverlongLine && nextLineOffset == consumed }

    /// The next line, `bytes` (at most ``maximumLineLength``, without its break), followed by a break of
    /// `breakLength` bytes (`\n` or `\r\n`) — framed elsewhere, fed here as if ``feed(_:_:)`` had found it. Only at a
    /// line's start (``isAtLineStart``).
    mutating func passLine(_ bytes: UnsafeRawBufferPointer, breakLength: Int) -> ByteLine {
        let line = ByteLine(bytes: bytes, number: nextLineNumber, byteOffset: consumed)
        nextLineNumber += 1
        consumed += bytes.count + breakLength
        nextLineOffset = consumed
        return line
    }

    /// Hands every complete line in `chunk` (and any carried-over start of one) to `body`.
    /// `isTruncated` is true for a line cut at ``maximumLineLength``.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (ByteLine, _ isTruncated: Bool) -> Void) {
        var start = 0
        let chunkOffset = consumed
        consumed += chunk.count
        while start < chunk.count {
            guard let newline = chunk.firstIndex(of: .newline, from: start) else {
                appendToCarry(chunk.slice(start, chunk.count), body)
                return
            }
            if carry.isEmpty && !skippingOverlongLine {
                var end = newline
                if end > start, chunk[end - 1] == .carriageReturn { end -= 1 }
                let length = end - start
                if length > maximumLineLength {
                    emit(chunk.slice(start, start + maximumLineLength), truncated: true, body)
                } else {
                    emit(chunk.slice(start, end), truncated: false, body)
                }
            } else {
                appendToCarry(chunk.slice(start, newline), body)
                finishCarriedLine(body)
            }
            nextLineOffset = chunkOffset + newline + 1
            start = newline + 1
        }
    }

    /// Hands over the last line if the input did not end with a line break. Call once, at end of input.
    public mutating func finish(_ body: (ByteLine, _ isTruncated: Bool) -> Void) {
        if !carry.isEmpty || skippingOverlongLine {
            finishCarriedLine(body)
        }
    }

    private mutating func appendToCarry(_ bytes: UnsafeRawBufferPointer, _ body: (ByteLine, Bool) -> Void) {
        if skippingOverlongLine { return }
        let room = maximumLineLength + 1 - carry.count  // keep one byte for a possible trailing \r
        if bytes.count <= room {
            carry.append(contentsOf: bytes)
        } else {
            carry.append(contentsOf: bytes.slice(0, room))
            skippingOverlongLine = true
        }
    }

    private mutating func finishCarriedLine(_ body: (ByteLine, Bool) -> Void) {
        var truncated = skippingOverlongLine
        if !truncated, carry.last == .carriageReturn { carry.removeLast() }
        if carry.count > maximumLineLength {
            carry.removeLast(carry.count - maximumLineLength)
            truncated = true
        }
        carry.withUnsafeBytes { emit($0, truncated: truncated, body) }
        carry.removeAll(keepingCapacity: carry.capacity <= 1 << 16)
        skippingOverlongLine = false
    }

    private mutating func emit(_ bytes: UnsafeRawBufferPointer, truncated: Bool, _ body: (ByteLine, Bool) -> Void) {
        body(ByteLine(bytes: bytes, number: nextLineNumber, byteOffset: nextLineOffset), truncated)
        nextLineNumber += 1
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A decoder whose input is lines: the framer it owns splits the chunks, and each line goes to its `handle`. What
/// the text and ndjson decoders share of ``LogDecoder``'s `decode` and `decodeLast`.
protocol LineFramedDecoder: LogDecoder {
    /// The decoder's framer (taken out while it runs, so that `handle` may change the decoder).
    var framer: LineFramer { get set }
    /// One line, cut at the framer's limit when `truncated`; its record offered to `offers` when the decoder offers.
    mutating func handle(_ line: ByteLine, truncated: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void)
}

extension LineFramedDecoder {
    /// Frames the next chunk and handles its complete lines.
    @inline(__always)
    mutating func feedLines(_ bytes: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        var framer = self.framer
        framer.feed(bytes) { line, truncated in handle(line, truncated: truncated, offers: offers, emit: emit) }
        self.framer = framer
    }

    /// Handles the last line, one without a line break.
    mutating func finishLines(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        var framer = self.framer
        framer.finish { line, truncated in handle(line, truncated: truncated, offers: offers, emit: emit) }
        self.framer = framer
    }

    /// Decodes as ``LogDecoder/decode(_:offers:emit:)`` with nothing offered.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        decode(bytes, offers: takesEveryRecord, emit: emit)
    }

    /// Ends as ``LogDecoder/decodeLast(offers:emit:)`` with nothing offered.
    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        decodeLast(offers: takesEveryRecord, emit: emit)
    }
}
