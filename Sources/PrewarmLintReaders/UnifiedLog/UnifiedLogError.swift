/// Why a unified-log structure could not be read: what, where (the byte offset in the stream or buffer it was read
/// from) and why. Every size, count and offset of the format is checked against what is there before it is used.
package struct UnifiedLogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The structure being read: `chunk preamble`, `catalog`, `LZ4 block`, …
    package var structure: String
    /// The byte offset at which it went wrong, in the stream or buffer the structure was read from.
    package var offset: Int
    /// Why, in a few words: `cut: 12 of 16 bytes`, `declares 9223372036854775807 bytes, at most 16777216 read`.
    package var reason: String

    package init(_ structure: String, at offset: Int, _ reason: String) {
        self.structure = structure
        self.offset = offset
        self.reason = reason
    }

    package var description: String { "\(structure) at byte \(offset): \(reason)" }
}

/// Little-endian reads over a buffer, each checked against its end: a read past it throws, naming the structure.
struct UnifiedLogBytes {
    let bytes: UnsafeRawBufferPointer
    let structure: String
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, structure: String, offset: Int = 0) {
        self.bytes = bytes
        self.structure = structure
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    private mutating func take(_ count: Int) throws(UnifiedLogError) -> Int {
        guard count >= 0, count <= remaining else {
            throw UnifiedLogError(structure, at: offset, "cut: \(count) bytes needed, \(max(remaining, 0)) left")
        }
        defer { offset += count }
        return offset
    }

    mutating func u8() throws(UnifiedLogError) -> UInt8 { bytes[try take(1)] }
    mutating func u16() throws(UnifiedLogError) -> UInt16 { UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(2), as: UInt16.self)) }
    mutating func u32() throws(UnifiedLogError) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(4), as: UInt32.self)) }
    mutating func u64() throws(UnifiedLogError) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(8), as: UInt64.self)) }

    /// `count` bytes, as they lie.
    mutating func slice(_ count: Int) throws(UnifiedLogError) -> UnsafeRawBufferPointer {
        let start = try take(count)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
    }

    mutating func skip(_ count: Int) throws(UnifiedLogError) { _ = try take(count) }

    /// Skips to the next multiple of 8 from `base` (the format pads its lists to 8 bytes); a cut pad is no error.
    mutating func alignTo8(from base: Int = 0) {
        let misaligned = (offset - base) & 7
        if misaligned != 0 { offset = min(offset + 8 - misaligned, bytes.count) }
    }

    /// A NUL-padded text field of `count` bytes, up to its first NUL, as UTF-8 (invalid bytes replaced).
    mutating func text(_ count: Int) throws(UnifiedLogError) -> String {
        let field = try slice(count)
        let end = field.firstIndex(of: 0) ?? field.count
        return String(decoding: UnsafeRawBufferPointer(rebasing: field[..<end]), as: UTF8.self)
    }

    /// A 16-byte UUID, as `A6EBC8E3-0A1C-40E8-93B9-DA3A7F671D19`.
    mutating func uuid() throws(UnifiedLogError) -> UnifiedLogUUID { UnifiedLogUUID(try slice(16)) }
}

/// A UUID as the unified log stores it (16 bytes, big-endian text order).
package struct UnifiedLogUUID: Hashable, Sendable, CustomStringConvertible {
    package var high: UInt64
    package var low: UInt64

    init(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count == 16)
        high = bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes.suffix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A UUID from its 32 hexadecimal digits, dashes allowed (`D1CD0AAF-523E-312F-…`); nil when it is not one.
    package init?(hex: String) {
        var values: [UInt64] = []
        for byte in hex.utf8 where byte != UInt8(ascii: "-") {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(UInt64(byte - UInt8(ascii: "0")))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): values.append(UInt64(byte - UInt8(ascii: "a") + 10))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): values.append(UInt64(byte - UInt8(ascii: "A") + 10))
            default: return nil
            }
            if values.count > 32 { return nil }
        }
        guard values.count == 32 else { return nil }
        high = values[..<16].reduce(0) { $0 << 4 | $1 }
        low = values[16...].reduce(0) { $0 << 4 | $1 }
    }

    /// `A6EBC8E3-0A1C-40E8-93B9-DA3A7F671D19`, as `uuidtext` folders and `log` name it.
    package var description: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for index in 0..<16 {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            let byte = UInt8(truncatingIfNeeded: (index < 8 ? high >> (56 - 8 * index) : low >> (56 - 8 * (index - 8))))
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` keeping the unified log's typed error (the standard one rethrows `any Error`).
    package func withUnifiedLogBytes<Result>(_ body: (UnsafeRawBufferPointer) throws(UnifiedLogError) -> Result) throws(UnifiedLogError) -> Result {
        let outcome: Swift.Result<Result, UnifiedLogError> = withUnsafeBytes { raw in
            Swift.Result { () throws(UnifiedLogError) in try body(raw) }
        }
        return try outcome.get()
    }
}
