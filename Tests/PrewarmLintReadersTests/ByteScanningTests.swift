@testable import PrewarmLintReaders
import PrewarmLintModel
import Testing

/// The scanners that test eight bytes at a time answer as a byte-by-byte loop does: on every byte value,
/// at every start and length, in runs that end inside a word, at its end, and at the end of the buffer.
@Suite("byte scanning")
struct ByteScanningTests {
    static func isHexDigit(_ byte: UInt8) -> Bool { byte.isDigit || (byte | 0x20) &- 0x61 < 6 }

    /// Buffers made of runs of one class followed by a byte of another, every byte value included.
    static func buffers() -> [[UInt8]] {
        var buffers: [[UInt8]] = [Array(0...255), Array((0...255).reversed()), []]
        let members: [[UInt8]] = [Array("0123456789".utf8), Array("0123456789abcdefABCDEF".utf8), [0x20, 0x09], Array("ab: :c".utf8)]
        var state: UInt32 = 12_345
        func next() -> Int { state = state &* 1_103_515_245 &+ 12_345; return Int(state >> 8) }
        for run in 0...20 {
            for class_ in members {
                for terminator in 0...255 {
                    guard terminator % 7 == run % 7 || run < 2 else { continue }
                    buffers.append((0..<run).map { _ in class_[next() % class_.count] } + [UInt8(terminator)] + [0x41, 0x30])
                    buffers.append((0..<run).map { _ in class_[next() % class_.count] })
                }
            }
        }
        return buffers
    }

    @Test("runs of digits, hex digits and tokens, `: ` and non-ASCII bytes are found where a byte loop finds them, from every start")
    func runEnds() {
        for buffer in Self.buffers() {
            buffer.withUnsafeBytes { bytes in
                for start in 0...bytes.count {
                    func loop(_ member: (UInt8) -> Bool) -> Int {
                        var position = start
                        while position < bytes.count, member(bytes[position]) { position += 1 }
                        return position
                    }
                    #expect(bytes.endOfRun(from: start, ByteClasses.decimalDigits) == loop { $0.isDigit })
                    #expect(bytes.endOfRun(from: start, ByteClasses.hexDigits) == loop(Self.isHexDigit))
                    #expect(bytes.endOfToken(from: start) == loop { !$0.isSpaceOrTab })
                    #expect(bytes.skippingSpaces(from: start) == loop { $0.isSpaceOrTab })
                    #expect(bytes.firstColonSpace(from: start) == bytes.firstIndex(of: ": ", from: start))
                    #expect(UTF8Text.isASCII(bytes.slice(start, bytes.count)) == bytes[start...].allSatisfy { $0 < 0x80 })
                }
            }
        }
    }

    @Test("a byte looked for nearby is found where memchr finds it: within the words tested in line, past them and at the end")
    func nearbyByte() {
        var state: UInt32 = 99
        func next() -> Int { state = state &* 1_103_515_245 &+ 12_345; return Int(state >> 8) }
        var buffers = Self.buffers()
        // A tab at every distance from 0 to 70 (past the 32 bytes tested in line), after bytes that differ from it by one bit.
        for distance in 0...70 {
            buffers.append((0..<distance).map { _ in [0x08, 0x0B, 0x0D, 0x19, 0x89, 0x41][next() % 6] } + [0x09] + (0..<(next() % 20)).map { _ in UInt8(next() % 256) })
            buffers.append((0..<distance).map { _ in UInt8(0x0A) })
        }
        for buffer in buffers {
            buffer.withUnsafeBytes { bytes in
                for start in 0...bytes.count {
                    for byte: UInt8 in [0x09, 0x20, 0x00, 0xFF] {
                        #expect(bytes.firstIndexNearby(of: byte, from: start) == bytes.firstIndex(of: byte, from: start), "\(buffer) from \(start)")
                    }
                }
            }
        }
    }

    @Test("the first occurrences of a delimiter (a Console copy's column tabs) are found where a search one by one finds them: in the words tested at once, past them, and too few",
          arguments: [0x09, 0x0A, 0x3A] as [UInt8])
    func firstOccurrences(delimiter: UInt8) {
        var state: UInt32 = 7
        func next() -> Int { state = state &* 1_103_515_245 &+ 12_345; return Int(state >> 8) }
        var lines = Self.buffers()
        // Lines of columns a Console copy could have, short and long, with the delimiter among bytes that differ from it
        // by one bit (its high-bit twin differs only in the bit the word test masks), up to 200 bytes: delimiters in the
        // first 64 bytes, past them, straddling them, and fewer than wanted.
        let near = [delimiter ^ 0x01, delimiter ^ 0x02, delimiter ^ 0x10, delimiter ^ 0x20, delimiter | 0x80, 0x41, 0x30, 0x20, 0x09, 0x0A]
            .filter { $0 != delimiter }
        for _ in 0..<3_000 {
            let length = next() % 200
            lines.append((0..<length).map { _ in next() % 6 == 0 ? delimiter : near[next() % near.count] })
        }
        for line in lines {
            line.withUnsafeBytes { bytes in
                for wanted in 0...9 {
                    var expected: [Int] = []
                    var position = 0
                    while expected.count < wanted, let found = bytes.firstIndex(of: delimiter, from: position) {
                        expected.append(found)
                        position = found + 1
                    }
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: wanted) { indices in
                        let complete = bytes.firstIndices(of: delimiter, into: indices)
                        #expect(complete == (expected.count == wanted), "\(line), \(wanted) wanted")
                        if complete { #expect(Array(indices) == expected, "\(line), \(wanted) wanted") }
                    }
                }
            }
        }
    }

    @Test("numbers: values, ends and overflow as before")
    func numbers() {
        func parse(_ text: String) -> (decimal: UInt64?, hex: UInt64?) {
            Array(text.utf8).withUnsafeBytes { ($0.unsignedInteger(at: 0)?.value, $0.hexInteger(at: 0)?.value) }
        }
        #expect(parse("0").decimal == 0 && parse("0").hex == 0)
        #expect(parse("2231 ").decimal == 2231)
        #expect(parse("9461c    ").hex == 0x9461C && parse("9461c    ").decimal == 9461)
        #expect(parse("DEADbeef0123").hex == 0xDEAD_BEEF_0123)
        #expect(parse("18446744073709551615").decimal == UInt64.max)
        #expect(parse("18446744073709551616").decimal == nil, "overflows")
        #expect(parse("ffffffffffffffff").hex == UInt64.max)
        #expect(parse("1ffffffffffffffff").hex == nil, "overflows")
        #expect(parse("00000000000000000000ff").hex == 0xFF, "leading zeros do not overflow")
        #expect(parse("g1").hex == nil && parse(" 1").decimal == nil && parse("").decimal == nil)
        for value: UInt64 in [1, 15, 16, 255, 4_096, 0xABCDEF, 1 << 40, UInt64.max / 3] {
            #expect(parse(String(value, radix: 16)).hex == value)
            #expect(parse(String(value, radix: 16, uppercase: true) + ":").hex == value)
            #expect(parse(String(value)).decimal == value)
        }
    }
}
