import PrewarmLintReaders

/// Rewrites real tracev3 files into the shapes no public file has, so that a test reads the same entries in them:
/// each chunkset's stream re-encoded as LZBITMAP, as iOS 27 writes the logs it keeps on disk.
public enum TraceV3Rewriter {
    /// `file` with every chunkset's LZ4 stream decoded and written again as one LZBITMAP stream
    /// (``LZBitmapEncoder``); every other chunk as it was. Nil when `file` is not a tracev3 file read to its end.
    public static func withLZBitmapChunksets(_ file: [UInt8], variant: LZBitmapEncoder.Variant = .plain) -> [UInt8]? {
        var framer = TraceChunkFramer()
        var chunks: [TraceChunk] = []
        do throws(UnifiedLogError) {
            try file.withUnifiedLogBytes { (bytes: UnsafeRawBufferPointer) throws(UnifiedLogError) in
                try framer.push(bytes) { chunks.append($0) }
            }
            try framer.finish()
        } catch {
            return nil
        }
        var output: [UInt8] = []
        output.reserveCapacity(file.count)
        for chunk in chunks {
            var payload = chunk.payload
            if chunk.tag == TraceChunk.Tag.chunkset {
                let decoded = try? payload.withUnifiedLogBytes { (bytes: UnsafeRawBufferPointer) throws(UnifiedLogError) in
                    try TraceChunkset.decompress(bytes, maximumSize: TraceChunkFramer.defaultMaximumPayload)
                }
                guard let decoded else { return nil }
                payload = LZBitmapEncoder.encode(decoded, variant: variant)
            }
            // The preamble (tag, subtag, payload size), the payload, padding to 8 bytes.
            output += withUnsafeBytes(of: chunk.tag.littleEndian, Array.init)
            output += withUnsafeBytes(of: chunk.subtag.littleEndian, Array.init)
            output += withUnsafeBytes(of: UInt64(payload.count).littleEndian, Array.init)
            output += payload
            output += repeatElement(0, count: (8 - payload.count % 8) % 8)
        }
        return output
    }
}
