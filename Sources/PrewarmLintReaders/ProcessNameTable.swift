/// The process names of recent records, by their bytes: each name's `String`, whether it is valid UTF-8,
/// and whether the reader skips its records — what a text decoder asks of every record's first line.
///
/// One lookup where there were three (the interner's, then the skipped-process cache's hash and string
/// comparison): a direct-mapped table of 256 names of at most 64 bytes, each keyed by its length and its
/// first and last eight bytes (which, up to sixteen bytes, are the whole name: no other comparison).
struct ProcessNameTable {
    static let slotCount = 256
    static let maximumLength = 64

    /// A name's length and its first and last eight bytes, little-endian (zero-filled when shorter).
    private struct Key: Equatable {
        var count: Int
        var first: UInt64, last: UInt64

        /// The key of no name (`count` -1).
        init(count: Int) {
            self.count = count
            first = 0
            last = 0
        }

        init(_ bytes: UnsafeRawBufferPointer) {
            count = bytes.count
            if count >= 8 {
                first = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                last = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            } else {
                var word: UInt64 = 0
                withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: bytes) }
                first = UInt64(littleEndian: word)
                last = first
            }
        }

        var slot: Int {
            let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
            return Int(truncatingIfNeeded: mixed >> 56)
        }
    }

    /// What the table knows of a name.
    struct Entry {
        var text: String
        var isValid: Bool
        /// Whether its records are skipped, once the reader has said (``remember(skipped:for:)``).
        var skipped: Bool?
    }

    /// The key of each slot (a count of -1: empty), and what the table knows of its name.
    private var keys = [Key](repeating: Key(count: -1), count: slotCount)
    private var texts = [String](repeating: "", count: slotCount)
    private var valid = [Bool](repeating: false, count: slotCount)
    private var skipped = [Bool?](repeating: nil, count: slotCount)
    /// The bytes of names longer than sixteen, for the comparison their key does not make.
    private var longNames = [UInt8](repeating: 0, count: slotCount * maximumLength)

    /// The entry of the name spelt by `bytes` (decoded and remembered if it was not there).
    mutating func entry(for bytes: UnsafeRawBufferPointer) -> Entry {
        guard bytes.count <= Self.maximumLength else {
            let decoded = UTF8Text.decode(bytes)
            return Entry(text: decoded.text, isValid: decoded.isValid, skipped: nil)
        }
        let key = Key(bytes)
        let slot = key.slot
        if keys[slot] == key, key.count <= 16 || sameLongName(bytes, at: slot) {
            return Entry(text: texts[slot], isValid: valid[slot], skipped: skipped[slot])
        }
        let decoded = UTF8Text.decode(bytes)
        keys[slot] = key
        texts[slot] = decoded.text
        valid[slot] = decoded.isValid
        skipped[slot] = nil
        if key.count > 16 {
            longNames.withUnsafeMutableBytes { names in
                (names.baseAddress! + slot * Self.maximumLength).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
        }
        return Entry(text: decoded.text, isValid: decoded.isValid, skipped: nil)
    }

    /// Records whether the records of the name spelt by `bytes` (just looked up) are skipped.
    mutating func remember(skipped answer: Bool, for bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.maximumLength else { return }
        let key = Key(bytes)
        let slot = key.slot
        guard keys[slot] == key, key.count <= 16 || sameLongName(bytes, at: slot) else { return }
        skipped[slot] = answer
    }

    private func sameLongName(_ bytes: UnsafeRawBufferPointer, at slot: Int) -> Bool {
        longNames.withUnsafeBytes { names in
            memcmp(names.baseAddress! + slot * Self.maximumLength, bytes.baseAddress!, bytes.count) == 0
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
