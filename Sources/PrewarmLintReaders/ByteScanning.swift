// Small scanning primitives over raw bytes, shared by every text decoder.
// They never allocate; they return indices into the buffer or nil.
import PrewarmLintModel

extension UnsafeRawBufferPointer {
    /// The index of the first `byte` at or after `start`, or nil.
    @inline(__always) func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start < count else { return nil }
        let base = baseAddress! + start
        guard let found = memchr(base, Int32(byte), count - start) else { return nil }
        return start + (UnsafeRawPointer(found) - base)
    }

    /// ``firstIndex(of:from:)`` for a byte expected within a few words (the next tab of a Console copy's short
    /// columns): the first 32 bytes are tested eight at a time in line, and only the rest goes to `memchr`, whose
    /// call and set-up cost more than such a field's whole scan.
    @inline(__always) func firstIndexNearby(of byte: UInt8, from start: Int) -> Int? {
        var position = start
        let pattern = UInt64(byte) &* ByteClasses.ones
        let inLine = Swift.min(count, start &+ 32)
        while position &+ 8 <= inLine {
            // A byte equal to `byte` becomes zero; the lowest flagged byte is the first zero (a borrow only
            // flags bytes above a zero).
            let differing = UInt64(littleEndian: loadUnaligned(fromByteOffset: position, as: UInt64.self)) ^ pattern
            let zeros = (differing &- ByteClasses.ones) & ~differing & ByteClasses.highBits
            if zeros != 0 { return position &+ zeros.trailingZeroBitCount &>> 3 }
            position &+= 8
        }
        return firstIndex(of: byte, from: position)
    }

    /// Puts the indices of the first `indices.count` occurrences of `byte` (an ASCII delimiter: below 0x80) in
    /// `indices`; false when there are fewer.
    /// The first 64 bytes (where a Console copy's short columns end) are tested a word at a time, each word once for
    /// every occurrence in it; the rest is searched one occurrence at a time (``firstIndexNearby(of:from:)``).
    @inline(__always) func firstIndices(of byte: UInt8, into indices: UnsafeMutableBufferPointer<Int>) -> Bool {
        assert(byte < 0x80, "the word test finds ASCII bytes only")
        let wanted = indices.count
        guard wanted > 0 else { return true }
        var found = 0
        var position = 0
        let words = Swift.min(count, 64) & ~7
        while position < words {
            var flags = ByteClasses.within(UInt64(littleEndian: loadUnaligned(fromByteOffset: position, as: UInt64.self)), byte, byte)
            while flags != 0 {
                indices[found] = position &+ flags.trailingZeroBitCount &>> 3
                found &+= 1
                if found == wanted { return true }
                flags &= flags &- 1
            }
            position &+= 8
        }
        while found < wanted {
            guard let index = firstIndexNearby(of: byte, from: position) else { return false }
            indices[found] = index
            found &+= 1
            position = index &+ 1
        }
        return true
    }

    /// The index of the first `byte` inside `range`, or nil.
    @inline(__always) func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        guard range.lowerBound < range.upperBound, range.upperBound <= count else { return nil }
        let base = baseAddress! + range.lowerBound
        guard let found = memchr(base, Int32(byte), range.count) else { return nil }
        return range.lowerBound + (UnsafeRawPointer(found) - base)
    }

    /// How many times `byte` occurs.
    func count(of byte: UInt8) -> Int {
        var total = 0
        var position = 0
        while let found = firstIndex(of: byte, from: position) {
            total += 1
            position = found + 1
        }
        return total
    }

    /// The index of the first occurrence of `needle` at or after `start`, or nil.
    func firstIndex(of needle: StaticString, from start: Int) -> Int? {
        let length = needle.utf8CodeUnitCount
        guard length > 0 else { return start }
        let first = needle.utf8Start.pointee
        var position = start
        while let candidate = firstIndex(of: first, from: position) {
            if candidate + length > count { return nil }
            if memcmp(baseAddress! + candidate, needle.utf8Start, length) == 0 { return candidate }
            position = candidate + 1
        }
        return nil
    }

    /// Whether the bytes at `index` spell `literal`.
    @inline(__always) func matches(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index >= 0, index + length <= count else { return false }
        return memcmp(baseAddress! + index, literal.utf8Start, length) == 0
    }

    /// Whether the whole buffer spells `literal`.
    @inline(__always) func equals(_ literal: StaticString) -> Bool {
        count == literal.utf8CodeUnitCount && matches(literal, at: 0)
    }

    /// Whether the buffer starts with `literal`.
    @inline(__always) func hasPrefix(_ literal: StaticString) -> Bool { matches(literal, at: 0) }

    /// The value of exactly `length` decimal digits at `index`, or nil.
    @inline(__always) func digits(at index: Int, length: Int) -> Int? {
        guard index >= 0, index + length <= count else { return nil }
        var value = 0
        for offset in 0..<length {
            let byte = self[index + offset]
            guard byte.isDigit else { return nil }
            value = value &* 10 &+ Int(byte &- 0x30)
        }
        return value
    }

    /// A run of decimal digits starting at `index`: its value and the index after it.
    /// Nil when there is no digit or the value overflows.
    @inline(__always) func unsignedInteger(at index: Int) -> (value: UInt64, end: Int)? {
        let end = endOfRun(from: index, ByteClasses.decimalDigits)
        guard end > index else { return nil }
        var value: UInt64 = 0
        if end - index <= 19 {
            // Nineteen digits cannot overflow (10^19 − 1 < 2^64): every pid, line number and count.
            for position in index..<end { value = value &* 10 &+ UInt64(self[position] &- 0x30) }
            return (value, end)
        }
        for position in index..<end {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(self[position] &- 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return (value, end)
    }

    /// A run of hexadecimal digits starting at `index` (no `0x`): its value and the index after it.
    @inline(__always) func hexInteger(at index: Int) -> (value: UInt64, end: Int)? {
        let end = endOfRun(from: index, ByteClasses.hexDigits)
        guard end > index else { return nil }
        var value: UInt64 = 0
        for position in index..<end {
            guard value >> 60 == 0 else { return nil }
            // `0`…`9` keep their low nibble; `a`…`f` and `A`…`F` (0x6_ and 0x4_) have 1…6 there, plus 9.
            let byte = self[position]
            value = value << 4 | UInt64((byte & 0x0F) &+ (byte >> 6) &* 9)
        }
        return (value, end)
    }

    /// The index of the first byte at or after `index` not of the class `members` picks out of a word
    /// (``ByteClasses``), testing eight bytes at a time.
    @inline(__always) func endOfRun(from index: Int, _ members: (UInt64) -> UInt64) -> Int {
        var position = index
        while position + 8 <= count {
            let outside = ~members(UInt64(littleEndian: loadUnaligned(fromByteOffset: position, as: UInt64.self))) & ByteClasses.highBits
            if outside != 0 { return position + outside.trailingZeroBitCount >> 3 }
            position += 8
        }
        while position < count, members(UInt64(self[position])) & 0x80 != 0 { position += 1 }
        return position
    }

    /// The index of the first byte at or after `index` that is not a space or tab. Runs of spaces (the
    /// padding of `log show`'s columns, up to twenty bytes) are passed eight bytes at a time.
    /// `index` past a UTF-8 byte order mark (EF BB BF) there, if any: what `cat`-joined exports and some
    /// editors put at the start of a file, or of every joined file's first line.
    @inline(__always) func skippingByteOrderMark(from index: Int) -> Int {
        index + 3 <= count && self[index] == 0xEF && self[index + 1] == 0xBB && self[index + 2] == 0xBF ? index + 3 : index
    }

    @inline(__always) func skippingSpaces(from index: Int) -> Int {
        var position = index
        while position + 8 <= count {
            let differing = UInt64(littleEndian: loadUnaligned(fromByteOffset: position, as: UInt64.self)) ^ 0x2020_2020_2020_2020
            if differing != 0 {
                position += differing.trailingZeroBitCount >> 3
                break
            }
            position += 8
        }
        while position < count, self[position].isSpaceOrTab { position += 1 }
        return position
    }

    /// The index of the first `: ` at or after `index`, or nil: ``firstIndex(of:from:)`` for the separator
    /// after a process name, without a call per colon.
    @inline(__always) func firstColonSpace(from index: Int) -> Int? {
        var position = index
        while true {
            let colon = endOfRun(from: position, ByteClasses.notColon)
            guard colon + 1 < count else { return nil }
            if self[colon + 1] == .space { return colon }
            position = colon + 1
        }
    }

    /// The index of the first space or tab at or after `index` (or `count`).
    @inline(__always) func endOfToken(from index: Int) -> Int {
        endOfRun(from: index, ByteClasses.notSpaceOrTab)
    }

    /// A sub-buffer.
    @inline(__always) func slice(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: self[start..<end])
    }

    /// Whether a `\u` occurs (a JSON `\uXXXX` escape, or an escaped backslash before a `u`).
    func containsUnicodeEscape() -> Bool {
        var index = 0
        while let backslash = firstIndex(of: UInt8(ascii: "\\"), from: index) {
            if backslash + 1 < count, self[backslash + 1] == UInt8(ascii: "u") { return true }
            index = backslash + 2
        }
        return false
    }

    /// The bytes after the last `/`, for turning an image path into a name.
    func lastPathComponent() -> UnsafeRawBufferPointer {
        var index = count
        while index > 0, self[index - 1] != UInt8(ascii: "/") { index -= 1 }
        return slice(index, count)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
