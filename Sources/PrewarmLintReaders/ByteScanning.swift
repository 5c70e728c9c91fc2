// Small scanning primitives over raw bytes, shared by every text decoder.
// They never allocate; they return indices into the buffer or nil.

extension UnsafeRawBufferPointer {
    /// The index of the first `byte` at or after `start`, or nil.
    @inlinable @inline(__always) func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start < count else { return nil }
        let base = baseAddress! + start
        guard let found = memchr(base, Int32(byte), count - start) else { return nil }
        return start + (UnsafeRawPointer(found) - base)
    }

    /// The index of the first `byte` inside `range`, or nil.
    @inlinable @inline(__always) func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
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
    @inlinable @inline(__always) func matches(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index >= 0, index + length <= count else { return false }
        return memcmp(baseAddress! + index, literal.utf8Start, length) == 0
    }

    /// Whether the whole buffer spells `literal`.
    @inlinable @inline(__always) func equals(_ literal: StaticString) -> Bool {
        count == literal.utf8CodeUnitCount && matches(literal, at: 0)
    }

    /// Whether the buffer starts with `literal`.
    @inlinable @inline(__always) func hasPrefix(_ literal: StaticString) -> Bool { matches(literal, at: 0) }

    /// The value of exactly `length` decimal digits at `index`, or nil.
    @inlinable @inline(__always) func digits(at index: Int, length: Int) -> Int? {
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
    @inlinable @inline(__always) func unsignedInteger(at index: Int) -> (value: UInt64, end: Int)? {
        var position = index
        var value: UInt64 = 0
        while position < count, self[position].isDigit {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(self[position] &- 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
            position += 1
        }
        return position > index ? (value, position) : nil
    }

    /// A run of hexadecimal digits starting at `index` (no `0x`): its value and the index after it.
    @inlinable @inline(__always) func hexInteger(at index: Int) -> (value: UInt64, end: Int)? {
        var position = index
        var value: UInt64 = 0
        while position < count, self[position].isHexDigit {
            guard value >> 60 == 0 else { return nil }
            let byte = self[position]
            let nibble = byte.isDigit ? byte &- 0x30 : (byte | 0x20) &- 0x61 &+ 10
            value = value << 4 | UInt64(nibble)
            position += 1
        }
        return position > index ? (value, position) : nil
    }

    /// The index of the first byte at or after `index` that is not a space or tab. Runs of spaces (the
    /// padding of `log show`'s columns, up to twenty bytes) are passed eight bytes at a time.
    @inlinable @inline(__always) func skippingSpaces(from index: Int) -> Int {
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

    /// The index of the first space or tab at or after `index` (or `count`).
    @inlinable @inline(__always) func endOfToken(from index: Int) -> Int {
        var position = index
        while position < count, !self[position].isSpaceOrTab { position += 1 }
        return position
    }

    /// A sub-buffer.
    @inlinable @inline(__always) func slice(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
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
