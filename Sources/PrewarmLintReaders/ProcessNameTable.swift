/// The process names of recent records, by their bytes: each name's `String`, whether it is valid UTF-8,
/// whether the reader skips its records, and the caller's note on it (``RecordOffer/nameNote``) — what a text decoder
/// asks of every record's first line.
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

    /// What the table knows of a name, as ``entry(for:)`` found it. Its text is read with ``text(of:)``, only for a
    /// record that is built: a `String` in the entry was retained and released on every line.
    struct Entry {
        /// Its slot; -1 for a name too long to be kept (its text is then ``lastLongName``).
        fileprivate var slot: Int
        var isValid: Bool
        /// Whether its records are skipped, once the reader has said (``remember(skipped:for:)``).
        var skipped: Bool?
        /// The caller's note on it (0: none yet), handed back with each record of the name (``RecordOffer/nameNote``).
        var note: UInt8
    }

    /// The key of each slot (a count of -1: empty), and what the table knows of its name.
    private var keys = [Key](repeating: Key(count: -1), count: slotCount)
    private var texts = [String](repeating: "", count: slotCount)
    private var valid = [Bool](repeating: false, count: slotCount)
    private var skipped = [Bool?](repeating: nil, count: slotCount)
    private var notes = [UInt8](repeating: 0, count: slotCount)
    /// The bytes of names longer than sixteen, for the comparison their key does not make.
    private var longNames = [UInt8](repeating: 0, count: slotCount * maximumLength)
    /// The text of the last name looked up that was too long to be kept.
    private var lastLongName = ""

    /// The entry of the name spelt by `bytes` (decoded and remembered if it was not there). It stands until the next
    /// lookup, which may take its slot.
    mutating func entry(for bytes: UnsafeRawBufferPointer) -> Entry {
        guard bytes.count <= Self.maximumLength else {
            let decoded = UTF8Text.decode(bytes)
            lastLongName = decoded.text
            return Entry(slot: -1, isValid: decoded.isValid, skipped: nil, note: 0)
        }
        let key = Key(bytes)
        let slot = key.slot
        if keys[slot] == key, key.count <= 16 || sameLongName(bytes, at: slot) {
            return Entry(slot: slot, isValid: valid[slot], skipped: skipped[slot], note: notes[slot])
        }
        let decoded = UTF8Text.decode(bytes)
        keys[slot] = key
        texts[slot] = decoded.text
        valid[slot] = decoded.isValid
        skipped[slot] = nil
        notes[slot] = 0
        if key.count > 16 {
            longNames.withUnsafeMutableBytes { names in
                (names.baseAddress! + slot * Self.maximumLength).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
        }
        return Entry(slot: slot, isValid: decoded.isValid, skipped: nil, note: 0)
    }

    /// The name spelt by `bytes`, decoded (and remembered, as ``entry(for:)`` does).
    mutating func text(for bytes: UnsafeRawBufferPointer) -> String {
        // In two statements: in `text(of: entry(for: bytes))`, the table `text(of:)` reads is taken before the lookup
        // changes it.
        let found = entry(for: bytes)
        return text(of: found)
    }

    /// The name of `entry` (the last one looked up), decoded.
    func text(of entry: Entry) -> String {
        entry.slot < 0 ? lastLongName : texts[entry.slot]
    }

    /// Whether the records of the name of `entry` (the last one looked up) are skipped: `skips` is asked the first time,
    /// and its answer remembered with the name.
    mutating func isSkipped(_ entry: inout Entry, by skips: (String) -> Bool) -> Bool {
        if let known = entry.skipped { return known }
        // (Two statements: the name is read before the table changes.)
        let answer = skips(text(of: entry))
        entry.skipped = answer
        if entry.slot >= 0 { skipped[entry.slot] = answer }
        return answer
    }

    /// Keeps `note` as the caller's note on the name of `entry` (the last one looked up).
    mutating func remember(note: UInt8, for entry: inout Entry) {
        guard entry.note != note else { return }
        entry.note = note
        if entry.slot >= 0 { notes[entry.slot] = note }
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
