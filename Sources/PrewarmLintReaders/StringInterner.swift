/// Reuses the `String` of a short field that repeats from event to event (subsystem, category,
/// process, sender image), so a log of a million events allocates those strings a few hundred
/// times rather than a million.
///
/// A small direct-mapped cache: a hit costs a hash of the bytes and one `memcmp`; a miss decodes
/// and replaces the slot. Memory is bounded by ``slotCount`` × ``maximumLength``.
struct StringInterner {
    static let slotCount = 256
    static let maximumLength = 64

    private var keys = [[UInt8]](repeating: [], count: slotCount)
    private var values = [String](repeating: "", count: slotCount)

    /// The string for `bytes`, and whether they were valid UTF-8.
    mutating func string(for bytes: UnsafeRawBufferPointer) -> (text: String, isValid: Bool) {
        guard bytes.count <= Self.maximumLength, !bytes.isEmpty else { return UTF8Text.decode(bytes) }
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let slot = Int(hash % UInt32(Self.slotCount))
        let matches = keys[slot].withUnsafeBytes { key in
            key.count == bytes.count && memcmp(key.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        if matches { return (values[slot], true) }
        let decoded = UTF8Text.decode(bytes)
        if decoded.isValid {
            keys[slot] = Array(bytes)
            values[slot] = decoded.text
        }
        return decoded
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
