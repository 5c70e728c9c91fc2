/// Where a record was read: the input's name, the 1-based line it starts on and its byte offset.
///
/// For a multi-line record (a RunningBoard assertion descriptor, a pretty-printed JSON object)
/// the origin is its first line. Byte offsets count the decompressed bytes of a `.gz` input.
public struct EventOrigin: Sendable, Hashable, Comparable {
    /// The input as the user named it: a path, or `-` for standard input.
    public var input: String
    /// The 1-based line number where the record starts.
    public var line: Int
    /// The 0-based byte offset of that line in the (decompressed) input.
    public var byteOffset: Int

    /// Creates an origin.
    @inlinable public init(input: String, line: Int, byteOffset: Int) {
        self.input = input
        self.line = line
        self.byteOffset = byteOffset
    }

    /// Orders by input name, then by position in the input.
    public static func < (lhs: EventOrigin, rhs: EventOrigin) -> Bool {
        if lhs.input != rhs.input { return lhs.input < rhs.input }
        return lhs.byteOffset < rhs.byteOffset
    }
}

extension EventOrigin: CustomStringConvertible {
    /// `path:line`, the way compilers point at a line.
    public var description: String { "\(input):\(line)" }
}

/// Where a reader's bytes start in its input: line 1 at byte 0 for a whole input; for a region of a document (a fenced
/// block of an issue body), the line and offset of the region's first byte, so that what is read from the region
/// points at the document's lines.
public struct InputPosition: Sendable, Hashable {
    /// The 1-based line number of the first byte.
    public var line: Int
    /// The 0-based byte offset of the first byte.
    public var byteOffset: Int

    /// The position of the first byte at `line` (1-based), `byteOffset` (0-based).
    public init(line: Int, byteOffset: Int) {
        self.line = line
        self.byteOffset = byteOffset
    }

    /// The start of an input.
    public static let beginning = InputPosition(line: 1, byteOffset: 0)

    /// `origin`, counted from this position rather than from the start of the bytes read. An origin without a line (0:
    /// the input as a whole) is left as it is.
    public func placing(_ origin: EventOrigin) -> EventOrigin {
        guard origin.line > 0 else { return origin }
        return EventOrigin(input: origin.input, line: origin.line + line - 1, byteOffset: origin.byteOffset + byteOffset)
    }
}
