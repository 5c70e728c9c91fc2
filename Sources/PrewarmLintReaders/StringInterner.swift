/// Reuses the `String` of a short field that repeats from event to event (subsystem, category,
/// process, sender image), so a log of a million events allocates those strings a few hundred
/// times rather than a million.
///
/// A small direct-mapped cache: a hit costs a hash of two words and one `memcmp`; a miss decodes
/// and replaces the slot. Keys live in one flat buffer, so memory is fixed at
/// ``slotCount`` × ``maximumLength`` bytes plus the strings.
struct StringInterner {
    static let slotCount = 256
    static let maximumLength = 64

    private var keyBytes = [UInt8](repeating: 0, count: slotCount * maximumLength)
    private var keyLengths = [Int](repeating: -1, count: slotCount)
    private var values = [String](repeating: "", count: slotCount)

    /// The string for `bytes`, and whether they were valid UTF-8.
    mutating func string(for bytes: UnsafeRawBufferPointer) -> (text: String, isValid: Bool) {
        let count = bytes.count
        guard count <= Self.maximumLength, count >= 8 else { return UTF8Text.decode(bytes) }  // short strings are inline anyway
        let first = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        let last = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        let slot = Int(truncatingIfNeeded: (mixed >> 40) % UInt64(Self.slotCount))
        if keyLengths[slot] == count {
            let same = keyBytes.withUnsafeBytes { keys in
                memcmp(keys.baseAddress! + slot * Self.maximumLength, bytes.baseAddress!, count) == 0
            }
            if same { return (values[slot], true) }
        }
        let decoded = UTF8Text.decode(bytes)
        if decoded.isValid {
            keyBytes.withUnsafeMutableBytes { keys in
                (keys.baseAddress! + slot * Self.maximumLength).copyMemory(from: bytes.baseAddress!, byteCount: count)
            }
            keyLengths[slot] = count
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
