/// One line of input as bytes, without its line break, valid only while the decoder is called with it.
///
/// A `ByteLine` points into the reader's buffer: a decoder that wants to keep any of it must
/// copy (usually by decoding the few fields it keeps into `String`s).
public struct ByteLine {
    /// The line's bytes, without `\n` and without a `\r` before it.
    public var bytes: UnsafeRawBufferPointer
    /// The 1-based line number in the input.
    public var number: Int
    /// The 0-based byte offset of the line's first byte in the input.
    public var byteOffset: Int

    /// A line of `bytes` (without its line break), numbered from 1, at `byteOffset` in the input.
    public init(bytes: UnsafeRawBufferPointer, number: Int, byteOffset: Int) {
        self.bytes = bytes
        self.number = number
        self.byteOffset = byteOffset
    }

    /// The number of bytes in the line.
    @inlinable public var count: Int { bytes.count }
    /// Whether the line is empty or only spaces and tabs.
    public var isBlank: Bool {
        for byte in bytes where byte != .space && byte != .tab { return false }
        return true
    }
}

extension UInt8 {
    @usableFromInline static let space = UInt8(ascii: " ")
    @usableFromInline static let tab = UInt8(ascii: "\t")
    @usableFromInline static let newline = UInt8(ascii: "\n")
    @usableFromInline static let carriageReturn = UInt8(ascii: "\r")

    @inlinable var isDigit: Bool { self &- 0x30 < 10 }
    @inlinable var isHexDigit: Bool { isDigit || (self | 0x20) &- 0x61 < 6 }
    @inlinable var isASCIILetter: Bool { (self | 0x20) &- 0x61 < 26 }
    @inlinable var isSpaceOrTab: Bool { self == .space || self == .tab }
}
