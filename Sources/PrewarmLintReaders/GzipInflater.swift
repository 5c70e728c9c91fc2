import CZlib

/// Decompresses a gzip stream chunk by chunk (zlib's `inflate`), so `.gz` inputs are read
/// without ever holding the whole file. Multi-member files (`cat a.gz b.gz`) are read through.
///
/// The `z_stream` lives at a fixed address (zlib's state points back at it), hence a class.
final class GzipInflater {
    enum Failure: Error { case corrupt(String) }

    private let stream: UnsafeMutablePointer<z_stream>
    private var output = [UInt8](repeating: 0, count: 256 * 1024)
    private(set) var isAtStreamEnd = false
    private var initialized = false
    /// Zero bytes after the last member, which `gzip -t` accepts as padding (tape blocks, preallocated files):
    /// passed over and counted, for the reader's note.
    private(set) var trailingZeroBytes = 0

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `input`, handing each block of decompressed bytes to `body`.
    func inflate(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) throws(Failure) {
        guard !input.isEmpty else { return }
        if !initialized {
            guard prewarm_inflate_init_gzip(stream) == Z_OK else { throw .corrupt("zlib could not start") }
            initialized = true
        }
        var remaining = input
        while !remaining.isEmpty {
            if isAtStreamEnd {
                // Zeros after a member are padding; anything else starts another member (`cat a.gz b.gz`).
                var zeros = 0
                while zeros < remaining.count, remaining[zeros] == 0 { zeros += 1 }
                trailingZeroBytes += zeros
                remaining = UnsafeRawBufferPointer(rebasing: remaining[zeros...])
                if remaining.isEmpty { break }
                guard trailingZeroBytes == 0 else { throw .corrupt("data after \(trailingZeroBytes) bytes of zero padding") }
                guard inflateReset(stream) == Z_OK else { throw .corrupt("zlib could not restart") }
                isAtStreamEnd = false
            }
            let base = UnsafeMutablePointer(mutating: remaining.baseAddress!.assumingMemoryBound(to: UInt8.self))
            stream.pointee.next_in = base
            stream.pointee.avail_in = UInt32(min(remaining.count, Int(UInt32.max)))
            let given = Int(stream.pointee.avail_in)
            repeat {
                let status: Int32 = output.withUnsafeMutableBytes { buffer in
                    stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    stream.pointee.avail_out = UInt32(buffer.count)
                    return CZlib.inflate(stream, Z_NO_FLUSH)
                }
                let produced = output.count - Int(stream.pointee.avail_out)
                if produced > 0 { output.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) } }
                switch status {
                case Z_OK, Z_BUF_ERROR: break
                case Z_STREAM_END: isAtStreamEnd = true
                default:
                    let reason = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw .corrupt(reason)
                }
                if isAtStreamEnd { break }
            } while stream.pointee.avail_out == 0
            let used = given - Int(stream.pointee.avail_in)
            remaining = UnsafeRawBufferPointer(rebasing: remaining[used...])
            if used == 0 && !isAtStreamEnd { break }
        }
    }
}
