import CGzipChecksum
import CZlib

/// Decompresses a gzip stream chunk by chunk (zlib's `inflate`), so `.gz` inputs are read
/// without ever holding the whole file. Multi-member files (`cat a.gz b.gz`) are read through.
///
/// Each gzip member's CRC-32 and length are checked against its trailer. Where the processor has a carry-less multiply
/// (`prewarm_crc32_is_accelerated`), the check is done here, with `prewarm_crc32`, and zlib's own is turned off
/// (`inflateValidate`): zlib's CRC is a table-driven loop, a large share of the inflating thread. The trailer is the
/// last eight bytes
/// zlib consumed when it reports the member's end. A member that does not start with gzip's magic number (zlib's
/// automatic header detection also takes a zlib stream) is left to zlib's check, as is every member elsewhere. A gzip
/// header's own CRC-16 (`FHCRC`, which `gzip` does not write) goes unchecked along with zlib's.
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

    /// Whether this member's CRC and length are checked here (else by zlib).
    private var checksHere = false
    /// This member's CRC-32 and length (mod 2^32) so far, when checked here.
    private var memberCRC: UInt32 = 0
    private var memberLength: UInt32 = 0
    /// The last eight input bytes zlib consumed (the newest in the high byte): at a member's end, its trailer.
    private var consumedTail: UInt64 = 0

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
            startMember(input)
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
                startMember(remaining)
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
                if produced > 0 {
                    output.withUnsafeBytes { output in
                        if checksHere {
                            memberCRC = prewarm_crc32(memberCRC, output.baseAddress!.assumingMemoryBound(to: UInt8.self), produced)
                            memberLength &+= UInt32(truncatingIfNeeded: produced)
                        }
                        body(UnsafeRawBufferPointer(rebasing: output[0..<produced]))
                    }
                }
                switch status {
                case Z_OK, Z_BUF_ERROR: break
                case Z_STREAM_END:
                    isAtStreamEnd = true
                    if checksHere { try checkTrailer(consumedUpTo: stream.pointee.next_in, count: given - Int(stream.pointee.avail_in)) }
                default:
                    let reason = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw .corrupt(reason)
                }
                if isAtStreamEnd { break }
            } while stream.pointee.avail_out == 0
            let used = given - Int(stream.pointee.avail_in)
            consumedTail = Self.tail(consumedTail, after: UnsafeRawBufferPointer(start: base, count: used))
            remaining = UnsafeRawBufferPointer(rebasing: remaining[used...])
            if used == 0 && !isAtStreamEnd { break }
        }
    }

    /// A member starts with `bytes`: its CRC and length are checked here when it starts with gzip's magic number and
    /// the processor folds CRCs; else zlib checks them.
    private func startMember(_ bytes: UnsafeRawBufferPointer) {
        checksHere = prewarm_crc32_is_accelerated() != 0 && bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
        inflateValidate(stream, checksHere ? 0 : 1)
        memberCRC = 0
        memberLength = 0
    }

    /// At a member's end: its trailer (the last eight bytes consumed, the `count` of this chunk's ending at `end`)
    /// against the CRC and length of what it inflated to.
    private func checkTrailer(consumedUpTo end: UnsafeMutablePointer<UInt8>?, count: Int) throws(Failure) {
        let trailer = Self.tail(consumedTail, after: UnsafeRawBufferPointer(start: end.map { UnsafeRawPointer($0) - count }, count: count))
        // (zlib's own words for the same failures.)
        guard UInt32(truncatingIfNeeded: trailer) == memberCRC else { throw .corrupt("incorrect data check") }
        guard UInt32(truncatingIfNeeded: trailer >> 32) == memberLength else { throw .corrupt("incorrect length check") }
    }

    /// The last eight bytes of what `tail` ended with followed by `bytes`, little-endian (the newest in the high byte).
    private static func tail(_ tail: UInt64, after bytes: UnsafeRawBufferPointer) -> UInt64 {
        if bytes.count >= 8 { return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)) }
        var result = tail
        for byte in bytes { result = (result >> 8) | (UInt64(byte) << 56) }
        return result
    }
}
