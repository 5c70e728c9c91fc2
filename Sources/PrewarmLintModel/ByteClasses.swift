/// Classes of bytes tested eight at a time: each function sets the high bit of every byte of a
/// little-endian word that is in its class, and clears the other bits (a byte alone in the low eight
/// bits of a word answers for itself). Range tests on each byte's low seven bits cannot carry into the
/// next byte; bytes of 0x80 and above are in no class but `notSpaceOrTab`. (Package-wide: the readers
/// scan with it, the launch-line gate looks for digits with it.)
@usableFromInline package enum ByteClasses {
    @usableFromInline package static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline package static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The bytes of `word` (below 0x80) from `low` to `high`.
    @inlinable @inline(__always) package static func within(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        let sevenBits = word & (0x7F &* ones)
        let fromLow = sevenBits &+ UInt64(0x80 - low) &* ones
        let pastHigh = sevenBits &+ UInt64(0x7F - high) &* ones
        return fromLow & ~pastHigh & ~word & highBits
    }

    @inlinable @inline(__always) package static func decimalDigits(_ word: UInt64) -> UInt64 {
        within(word, 0x30, 0x39)
    }

    @inlinable @inline(__always) package static func hexDigits(_ word: UInt64) -> UInt64 {
        within(word, 0x30, 0x39) | within(word | 0x20 &* ones, 0x61, 0x66)
    }

    @inlinable @inline(__always) package static func notColon(_ word: UInt64) -> UInt64 {
        ~within(word, 0x3A, 0x3A) & highBits
    }

    @inlinable @inline(__always) package static func notSpaceOrTab(_ word: UInt64) -> UInt64 {
        ~(within(word, 0x20, 0x20) | within(word, 0x09, 0x09)) & highBits
    }
}
