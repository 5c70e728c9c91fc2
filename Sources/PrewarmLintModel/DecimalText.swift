/// Integers in decimal, written on the stack: what report writers and identities copy into text they are building,
/// without making a `String` for each number.
public enum DecimalText {
    /// `value` in decimal (`-` first when it is negative), handed to `body`.
    @inlinable
    public static func withDigits<Result>(of value: Int64, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for "-" and Int64.min's 19 digits
        return try withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude, count = 0
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if value < 0 {
                buffer[23 - count] = UInt8(ascii: "-")
                count += 1
            }
            return try body(UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }
}
