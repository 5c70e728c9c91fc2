/// Decodes one LZ4 block (the raw block format, no frame): sequences of a token, literals, and a match copied from
/// earlier output. Every length is checked against the input left and the declared decoded size before a byte is
/// copied, and a match may reach back only into this block's output, so hostile bytes end in an error, never in a
/// read or write out of bounds or an allocation past `decodedSize`.
enum LZ4BlockDecoder {
    /// Appends the block's `decodedSize` bytes to `output`.
    static func decode(_ input: UnsafeRawBufferPointer, decodedSize: Int, into output: inout [UInt8], at inputOffset: Int = 0) throws(UnifiedLogError) {
        let start = output.count
        let end = start + decodedSize
        output.reserveCapacity(end)
        var index = 0
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
        while index < input.count {
            let token = input[index]
            index += 1
            let literals = try length(Int(token >> 4))
            guard literals <= input.count - index else { throw fail("\(literals) literals, \(input.count - index) bytes left") }
            guard literals <= end - output.count else { throw fail("literals pass the block's \(decodedSize) bytes") }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<(index + literals)]))
            index += literals
            if index == input.count { break }  // the last sequence has literals only
            guard input.count - index >= 2 else { throw fail("cut inside a match offset") }
            let distance = Int(input[index]) | Int(input[index + 1]) << 8
            index += 2
            guard distance > 0, distance <= output.count - start else {
                throw fail("a match \(distance) bytes back, \(output.count - start) decoded")
            }
            let count = try length(Int(token & 15)) + 4
            guard count <= end - output.count else { throw fail("a match passes the block's \(decodedSize) bytes") }
            var from = output.count - distance
            if distance >= count {
                output.append(contentsOf: output[from..<(from + count)])
            } else {
                for _ in 0..<count {  // overlapping: each byte may be one just written
                    output.append(output[from])
                    from += 1
                }
            }
        }
        guard output.count == end else {
            throw UnifiedLogError("LZ4 block", at: inputOffset + index, "decoded \(output.count - start) bytes, \(decodedSize) declared")
        }
    }
}
