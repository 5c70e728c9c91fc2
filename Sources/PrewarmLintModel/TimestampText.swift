/// The original text of a timestamp, kept inline when it is at most 32 bytes of ASCII.
///
/// Every event keeps the text its time was read from, and every supported format spells its time
/// in 20–31 ASCII bytes (`2023-07-19 08:22:51.916784+0300`). Storing those bytes inline, instead of
/// in a `String` of their own, spares one heap allocation per event.
/// Longer or non-ASCII texts are kept as a `String`.
public struct TimestampText: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline var count: Int = 0
    @usableFromInline var spilled: String?

    /// Keeps `string` (inline when it is short ASCII).
    public init(_ string: String) {
        var copy = string
        let stored = copy.withUTF8 { bytes -> Bool in
            guard bytes.count <= 32, bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            self.store(UnsafeRawBufferPointer(bytes))
            return true
        }
        if !stored { spilled = string }
    }

    /// Keeps the UTF-8 `bytes` (inline when they are short ASCII; otherwise decoded, invalid
    /// sequences replaced with U+FFFD).
    @inlinable
    public init(utf8 bytes: UnsafeRawBufferPointer) {
        if bytes.count <= 32, Self.isASCII(bytes) {
            store(bytes)
        } else {
            spilled = String(decoding: bytes.bindMemory(to: UInt8.self), as: UTF8.self)
        }
    }

    @inlinable
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    @inlinable
    mutating func store(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        withUnsafeMutableBytes(of: &words) { storage in
            storage.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
    }

    /// The text's UTF-8 bytes, handed to `body` without making a `String` when it is stored in place.
    @inlinable
    public func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if var spilled { return try spilled.withUTF8 { try body(UnsafeRawBufferPointer($0)) } }
        var words = self.words
        let count = self.count
        return try withUnsafeBytes(of: &words) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    /// The text.
    public var string: String {
        if let spilled { return spilled }
        return withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// The text as written.
    public var description: String { string }

    /// Equal when the texts are.
    public static func == (lhs: TimestampText, rhs: TimestampText) -> Bool {
        lhs.count == rhs.count && lhs.spilled == rhs.spilled
            && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
            && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
    }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(spilled)
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
