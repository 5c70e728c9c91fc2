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
