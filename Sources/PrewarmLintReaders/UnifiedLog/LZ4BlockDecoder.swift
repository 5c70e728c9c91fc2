/// Decodes one LZ4 block (the raw block format, no frame): sequences of a token, literals, and a match copied from
/// earlier output. Every length is checked against the input left and the declared decoded size before a byte is
/// copied, and a match may reach back only into this block's output, so hostile bytes end in an error, never in a
/// read or write out of bounds or an allocation past `decodedSize`.
enum LZ4BlockDecoder {
    /// Appends the block's `decodedSize` bytes to `output` (on an error, what was appended is unspecified).
    static func decode(_ input: UnsafeRawBufferPointer, decodedSize: Int, into output: inout [UInt8], at inputOffset: Int = 0) throws(UnifiedLogError) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: decodedSize))
        let outcome: Result<Void, UnifiedLogError> = output.withUnsafeMutableBufferPointer { whole in
            let block = UnsafeMutableBufferPointer(rebasing: whole[start...])
            return Result { () throws(UnifiedLogError) in try decode(input, into: block, inputOffset: inputOffset) }
        }
        try outcome.get()
    }

    private static func decode(_ input: UnsafeRawBufferPointer, into block: UnsafeMutableBufferPointer<UInt8>, inputOffset: Int) throws(UnifiedLogError) {
        let decodedSize = block.count
        var index = 0
        var written = 0
        func fail(_ reason: String) -> UnifiedLogError { UnifiedLogError("LZ4 block", at: inputOffset + index, reason) }
        func length(_ base: Int) throws(UnifiedLogError) -> Int {
            var total = base
            guard base == 15 else { return total }
            while true {
                guard index < input.count else { throw fail("cut inside a length") }
                let byte = input[index]
                index += 1
                total += Int(byte)
                guard total <= decodedSize else { throw fail("a length of \(total) passes the block's \(decodedSize) bytes") }
                if byte != 255 { return total }
            }
        }
        guard let out = block.baseAddress else {
            guard input.isEmpty else { throw fail("bytes for an empty block") }
            return
        }
        while index < input.count {
            let token = input[index]
            index += 1
            let literals = try length(Int(token >> 4))
            guard literals <= input.count - index else { throw fail("\(literals) literals, \(input.count - index) bytes left") }
            guard literals <= decodedSize - written else { throw fail("literals pass the block's \(decodedSize) bytes") }
            if literals > 0 { (out + written).update(from: input.baseAddress!.assumingMemoryBound(to: UInt8.self) + index, count: literals) }
            written += literals
            index += literals
            if index == input.count { break }  // the last sequence has literals only
            guard input.count - index >= 2 else { throw fail("cut inside a match offset") }
            let distance = Int(input[index]) | Int(input[index + 1]) << 8
            index += 2
            guard distance > 0, distance <= written else { throw fail("a match \(distance) bytes back, \(written) decoded") }
            let count = try length(Int(token & 15)) + 4
            guard count <= decodedSize - written else { throw fail("a match passes the block's \(decodedSize) bytes") }
            if distance >= count {
                (out + written).update(from: out + written - distance, count: count)
            } else {
                for offset in 0..<count { out[written + offset] = out[written + offset - distance] }  // each byte may be one just written
            }
            written += count
        }
        guard written == decodedSize else {
            throw UnifiedLogError("LZ4 block", at: inputOffset + index, "decoded \(written) bytes, \(decodedSize) declared")
        }
    }
}
