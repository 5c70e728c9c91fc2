/// A chunkset's compressed stream, undone: Apple's block stream of `bv41` (an LZ4 block: decoded size, encoded size,
/// the block), `bv4-` (stored: size, bytes) and `bv4$` (the end), or, from iOS 27, one LZBITMAP stream (`ZBM`, see
/// ``LZBitmapDecoder``) where the first block's magic would be. The decoded bytes are a tracev3 stream of their own
/// (firehose, oversize, statedump and simpledump chunks), read with ``TraceChunkFramer``.
package enum TraceChunkset {
    static let lz4Block: UInt32 = 0x3134_7662  // "bv41"
    static let storedBlock: UInt32 = 0x2D34_7662  // "bv4-"
    static let endOfStream: UInt32 = 0x2434_7662  // "bv4$"

    /// The decoded bytes of `payload` (a `0x600d` chunk's), at most `maximumSize` of them.
    package static func decompress(_ payload: UnsafeRawBufferPointer, maximumSize: Int) throws(UnifiedLogError) -> [UInt8] {
        var output: [UInt8] = []
        if LZBitmapDecoder.hasMagic(payload) {
            let used = try LZBitmapDecoder.decode(payload, maximumSize: maximumSize, into: &output)
            // What follows the stream's end chunk in its chunk can only be padding.
            guard payload[used...].allSatisfy({ $0 == 0 }) else {
                throw UnifiedLogError("chunkset", at: used, "\(payload.count - used) bytes after the LZBITMAP stream's end")
            }
            return output
        }
        var reader = UnifiedLogBytes(payload, structure: "chunkset")
        while true {
            let blockStart = reader.offset
            let magic = try reader.u32()
            switch magic {
            case lz4Block:
                let decoded = Int(try reader.u32())
                let encoded = Int(try reader.u32())
                guard decoded <= maximumSize - output.count else {
                    throw UnifiedLogError("chunkset", at: blockStart, "a block of \(decoded) bytes passes the \(maximumSize) read")
                }
                let block = try reader.slice(encoded)
                try LZ4BlockDecoder.decode(block, decodedSize: decoded, into: &output, at: blockStart + 12)
            case storedBlock:
                let size = Int(try reader.u32())
                guard size <= maximumSize - output.count else {
                    throw UnifiedLogError("chunkset", at: blockStart, "a block of \(size) bytes passes the \(maximumSize) read")
                }
                output.append(contentsOf: try reader.slice(size))
            case endOfStream:
                return output
            default:
                throw UnifiedLogError("chunkset", at: blockStart, "block magic 0x\(String(magic, radix: 16)) is not an LZ4 stream's (bv41, bv4-, bv4$) nor LZBITMAP's (ZBM)")
            }
        }
    }
}
