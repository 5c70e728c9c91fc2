/// Decodes an LZBITMAP stream (Apple's `COMPRESSION_LZBITMAP`, which iOS 27 uses for the chunksets of the logs it
/// keeps on disk): `ZBM` and a flags byte, then chunks of at most 32 KiB decoded, each a 6-byte header (its length
/// with the header, its decoded length) and either its bytes stored or five regions: literals, match distances,
/// bitmaps, tokens, and a table of twelve or thirteen (bitmap, distance size) pairs in its last 17 bytes. A token
/// names a pair of the table, or one of three that take their bitmap from the bitmap region; each bitmap says, for 8
/// bytes, which are literals (1) and which copy the byte the current distance back (0). A chunk of decoded length 0
/// ends the stream.
///
/// Flags seen: `0x09` (tokens may carry a run length) and `0x0C` (no run lengths, so a thirteenth pair). Every region
/// read is checked against its chunk, every match against the bytes this stream decoded, and every length against
/// `maximumSize` before it is written, so hostile bytes end in an error, never in a read or write out of bounds.
package enum LZBitmapDecoder {
    /// `ZBM`, the stream's first three bytes.
    package static func hasMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x5A && bytes[1] == 0x42 && bytes[2] == 0x4D
    }

    static let maximumChunk = 0x8000
    private static let tableSize = 17

    /// Appends the stream's decoded bytes to `output` (at most `maximumSize` of them) and returns how many bytes of
    /// `input` the stream took, through its end chunk.
    package static func decode(_ input: UnsafeRawBufferPointer, maximumSize: Int, into output: inout [UInt8],
                       at inputOffset: Int = 0) throws(UnifiedLogError) -> Int {
        func fail(_ offset: Int, _ reason: String) -> UnifiedLogError { UnifiedLogError("LZBITMAP stream", at: inputOffset + offset, reason) }
        guard hasMagic(input) else { throw fail(0, "no ZBM magic") }
        let flags = input[3]
        guard flags & ~0x05 == 0x08 else {
            throw fail(3, "flags 0x\(String(flags, radix: 16)) (known: 0x08, 0x09, 0x0c, 0x0d)")
        }
        let runLengths = flags & 0x04 == 0
        let streamStart = output.count
        var position = 4
        func u24(_ at: Int) -> Int { Int(input[at]) | Int(input[at + 1]) << 8 | Int(input[at + 2]) << 16 }
        while true {
            guard input.count - position >= 6 else { throw fail(position, "cut inside a chunk header") }
            let length = u24(position)
            let decodedLength = u24(position + 3)
            if decodedLength == 0 { return position + 6 }
            guard length <= input.count - position else { throw fail(position, "a chunk of \(length) bytes, \(input.count - position) left") }
            guard decodedLength <= maximumChunk else { throw fail(position, "a chunk decoding to \(decodedLength) bytes (at most \(maximumChunk))") }
            guard decodedLength <= maximumSize - (output.count - streamStart) else {
                throw fail(position, "a chunk of \(decodedLength) bytes passes the \(maximumSize) read")
            }
            let chunk = UnsafeRawBufferPointer(rebasing: input[position..<(position + length)])
            if length == decodedLength + 6 {
                output.append(contentsOf: chunk[6...])
            } else {
                try decodeChunk(chunk, decodedLength: decodedLength, runLengths: runLengths, streamStart: streamStart,
                                into: &output, fail: { fail(position + $0, $1) })
            }
            position += length
        }
    }

    private static func decodeChunk(_ chunk: UnsafeRawBufferPointer, decodedLength: Int, runLengths: Bool, streamStart: Int,
                                    into output: inout [UInt8],
                                    fail: (Int, String) -> UnifiedLogError) throws(UnifiedLogError) {
        guard chunk.count >= 15 + tableSize else { throw fail(0, "a compressed chunk of \(chunk.count) bytes") }
        func u24(_ at: Int) -> Int { Int(chunk[at]) | Int(chunk[at + 1]) << 8 | Int(chunk[at + 2]) << 16 }
        let distancesStart = u24(6)
        let bitmapsStart = u24(9)
        let tokensStart = u24(12)
        var distanceAt = distancesStart
        var bitmapAt = bitmapsStart
        let tokensEnd = chunk.count - tableSize
        // Each region ends where the next begins: literals from 15, then distances, bitmaps, tokens, the table.
        guard 15 <= distancesStart, distancesStart <= bitmapsStart, bitmapsStart <= tokensStart, tokensStart <= tokensEnd else {
            throw fail(6, "regions at \(distancesStart), \(bitmapsStart), \(tokensStart) out of order in \(chunk.count) bytes")
        }
        // The table: 10 bits a pair, from the low bits of the last 17 bytes; tokens 0, 1 and 2 are the pairs
        // (bitmap region, no / a 1-byte / a 2-byte distance).
        var table: [(bitmap: UInt8, distanceSize: Int)] = [(0, 0), (0, 1), (0, 2)]
        for index in 0..<(runLengths ? 12 : 13) {
            let bit = index * 10
            let low = tokensEnd + bit / 8
            let pair = (Int(chunk[low]) | Int(chunk[low + 1]) << 8) >> (bit % 8)
            table.append((UInt8(truncatingIfNeeded: pair), (pair >> 8) & 3))
        }
        var literalAt = 15
        var nibble = tokensStart * 2
        func token() throws(UnifiedLogError) -> Int {
            guard nibble < tokensEnd * 2 else { throw fail(tokensEnd, "the tokens ran out") }
            let byte = Int(chunk[nibble / 2])
            defer { nibble += 1 }
            return nibble & 1 == 0 ? byte & 15 : byte >> 4
        }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: decodedLength))
        var distance = 8
        var written = 0
        while written < decodedLength {
            let index = try token()
            var repeats = 1
            if runLengths {
                guard index != 15 else { throw fail(nibble / 2, "token 15 where a run length is allowed") }
                // A run: the token, then 15, then nibbles adding to the run's length less 4 (15 means more follow).
                // The last 8 bytes' token has none, so the table's bits are never read as one.
                if decodedLength - written > 8, nibble < tokensEnd * 2, (chunk[nibble / 2] >> (nibble & 1 == 0 ? 0 : 4)) & 15 == 15 {
                    nibble += 1
                    repeats = 4
                    while true {
                        let more = try token()
                        repeats += more
                        if more != 15 { break }
                    }
                }
            }
            for _ in 0..<repeats where written < decodedLength {
                var (bitmap, distanceSize) = table[index]
                if index < 3 {
                    guard bitmapAt < tokensStart else { throw fail(bitmapAt, "the bitmaps ran out") }
                    bitmap = chunk[bitmapAt]
                    bitmapAt += 1
                }
                switch distanceSize {
                case 0: break
                case 1, 2:
                    guard distanceAt + distanceSize <= bitmapsStart else { throw fail(distanceAt, "the distances ran out") }
                    distance = distanceSize == 1 ? Int(chunk[distanceAt]) : Int(chunk[distanceAt]) | Int(chunk[distanceAt + 1]) << 8
                    distanceAt += distanceSize
                default:
                    throw fail(tokensEnd, "a table pair with a distance of 3 bytes")
                }
                let count = min(8, decodedLength - written)
                for bit in 0..<count {
                    if bitmap >> bit & 1 == 1 {
                        guard literalAt < distancesStart else { throw fail(literalAt, "the literals ran out") }
                        output[start + written] = chunk[literalAt]
                        literalAt += 1
                    } else {
                        guard distance > 0, distance <= start - streamStart + written else {
                            throw fail(distanceAt, "a match \(distance) bytes back, \(start - streamStart + written) decoded")
                        }
                        output[start + written] = output[start + written - distance]
                    }
                    written += 1
                }
            }
        }
    }
}
