/// An input that cannot be read at all: not a log format prewarm-lint knows, or bytes that
/// cannot be decompressed. Problems inside a readable input are `ReaderDiagnostic`s instead.
public struct ReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as reports spell it.
        public var rawValue: String
        /// A code of this spelling.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code as reports spell it.
        public var description: String { rawValue }
        /// No line of the input's first 64 KiB looks like any supported format.
        public static let unrecognizedFormat = Code(rawValue: "unrecognized-format")
        /// The input starts as gzip but cannot be decompressed.
        public static let corruptCompression = Code(rawValue: "corrupt-compression")
        /// The input could not be opened or read (no such file, permission denied).
        public static let unreadable = Code(rawValue: "unreadable-input")
        /// The input was refused whole before any record was read (an XML document declaring entities, an
        /// encoding the reader does not take): its `refused-input` diagnostic says why.
        public static let refused = Code(rawValue: "refused-input")
        /// An archive inside archives deeper than ``ReaderLimits/maximumArchiveNesting``: not read.
        public static let nestedTooDeep = Code(rawValue: "nested-too-deep")
        /// The library was called out of order or with an impossible value (`LiveLint` given bytes after it finished,
        /// a negative pause): nothing was read or changed by that call.
        public static let misuse = Code(rawValue: "misuse")
    }

    /// What kind of failure.
    public var code: Code
    /// The input as the user named it.
    public var input: String
    /// What went wrong and what to do about it.
    public var message: String

    /// A failure of `input`; `message` says what happened and what to do.
    public init(code: Code, input: String, message: String) {
        self.code = code
        self.input = input
        self.message = message
    }

    /// `input: error: message`.
    public var description: String { "\(input): error: \(message)" }
}
