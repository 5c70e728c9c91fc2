#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Substring search over UTF-8 bytes: `memchr` for the first byte, `memcmp` for the rest.
///
/// `String.contains(_:)` resolves to Foundation's CFString search once Foundation is imported,
/// many times the cost of a byte search on the classifier's hot path. Signature texts are ASCII, so
/// byte equality is the right equality.
enum ByteSearch {
    /// The byte offset of the first `needle` in `haystack`, or nil.
    static func firstOffset(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        needle.withUnsafeBufferPointer { firstOffset(of: $0, in: haystack) }
    }

    /// The same for a literal, without copying it into an array first.
    static func firstOffset(of needle: StaticString, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        firstOffset(of: UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: haystack)
    }

    static func firstOffset(of pattern: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !pattern.isEmpty else { return 0 }
        guard pattern.count <= haystack.count, let base = haystack.baseAddress else { return nil }
        let first = Int32(pattern[0])
        let last = haystack.count - pattern.count
        var position = 0
        while position <= last {
            guard let hit = memchr(base + position, first, last - position + 1) else { return nil }
            let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if memcmp(base + offset, pattern.baseAddress!, pattern.count) == 0 { return offset }
            position = offset + 1
        }
        return nil
    }

    /// Runs `body` over the UTF-8 bytes of `text` without copying when it is a native string.
    static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}

extension String {
    /// Whether `needle` occurs in this string, compared as UTF-8 bytes (`memchr` for its first byte,
    /// `memcmp` for the rest). `contains(_:)` compares characters, which on a kept line of 1 KB is the cost of a rule.
    /// For the ASCII texts looked for, the answers differ only where a
    /// match ends just before a combining mark (a character comparison does not count that match).
    public func containsUTF8(_ needle: String) -> Bool {
        rangeOfUTF8(needle) != nil
    }

    /// Where `needle` first occurs, found as ``containsUTF8(_:)`` finds it.
    public func rangeOfUTF8(_ needle: String) -> Range<String.Index>? {
        let offset = ByteSearch.withBytes(of: self) { text in
            ByteSearch.withBytes(of: needle) { ByteSearch.firstOffset(of: $0, in: text) }
        }
        guard let offset else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        return start..<utf8.index(start, offsetBy: needle.utf8.count)
    }
}
