/// One chunk of a tracev3 stream: the tag and subtag of its 16-byte preamble, its payload, and where it began.
package struct TraceChunk: Sendable, Equatable {
    /// What the chunk holds: ``Tag``.
    package var tag: UInt32
    package var subtag: UInt32
    /// The payload, without the preamble and padding.
    package var payload: [UInt8]
    /// The byte offset of the preamble in the stream.
    package var offset: Int

    /// The tags a launch needs (others are passed along for their count).
    package enum Tag {
        package static let header: UInt32 = 0x1000
        package static let firehose: UInt32 = 0x6001
        package static let oversize: UInt32 = 0x6002
        package static let statedump: UInt32 = 0x6003
        package static let simpledump: UInt32 = 0x6004
        package static let catalog: UInt32 = 0x600B
        package static let chunkset: UInt32 = 0x600D
    }
}

/// Cuts a tracev3 stream (a file, or a decompressed chunkset) into chunks: a 16-byte preamble (tag, subtag, payload
/// size, little-endian), the payload, then padding to the next multiple of 8 bytes.
///
/// A state machine fed any cut of the bytes (``push(_:emit:)``) with an explicit end (``finish()``): the chunks are
/// the same however the bytes arrive. A payload larger than ``maximumPayload`` ends the stream with an error before
/// anything is allocated for it; so does a chunk cut by the end of input. Padding cut by the end is not an error
/// (the last chunk of a file is not padded).
package struct TraceChunkFramer: Sendable {
    /// The largest payload read: a chunkset is 64 KiB compressed in every file seen, a catalog a few KiB.
    package static let defaultMaximumPayload = 16 << 20

    package let maximumPayload: Int
    /// Bytes consumed so far.
    package private(set) var offset = 0

    private enum Stage: Sendable {
        case preamble
        case payload(remaining: Int)
        case padding(remaining: Int)
        case failed(UnifiedLogError)
    }

    private var stage = Stage.preamble
    private var preamble: [UInt8] = []
    private var chunk = TraceChunk(tag: 0, subtag: 0, payload: [], offset: 0)

    package init(maximumPayload: Int = TraceChunkFramer.defaultMaximumPayload) {
        self.maximumPayload = maximumPayload
        preamble.reserveCapacity(16)
    }

    /// Consumes `bytes`, emitting each chunk completed; throws (and stays failed) at the first chunk that cannot be read.
    package mutating func push(_ bytes: UnsafeRawBufferPointer, emit: (TraceChunk) -> Void) throws(UnifiedLogError) {
        var index = 0
        while index < bytes.count {
            switch stage {
            case .failed(let error):
                throw error
            case .preamble:
                let taken = min(16 - preamble.count, bytes.count - index)
                preamble.append(contentsOf: bytes[index..<(index + taken)])
                index += taken
                offset += taken
                guard preamble.count == 16 else { continue }
                let start = offset - 16
                let (tag, subtag, size) = preamble.withUnsafeBytes { raw in
                    (UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                     UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                     UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
                }
                preamble.removeAll(keepingCapacity: true)
                guard size <= UInt64(maximumPayload) else {
                    let error = UnifiedLogError("chunk preamble (tag 0x\(String(tag, radix: 16)))", at: start,
                                                "declares \(size) bytes, at most \(maximumPayload) read")
                    stage = .failed(error)
                    throw error
                }
                chunk = TraceChunk(tag: tag, subtag: subtag, payload: [], offset: start)
                chunk.payload.reserveCapacity(Int(size))
                stage = .payload(remaining: Int(size))
                if size == 0 { complete(emit: emit) }
            case .payload(let remaining):
                let taken = min(remaining, bytes.count - index)
                chunk.payload.append(contentsOf: bytes[index..<(index + taken)])
                index += taken
                offset += taken
                if taken == remaining { complete(emit: emit) } else { stage = .payload(remaining: remaining - taken) }
            case .padding(let remaining):
                let taken = min(remaining, bytes.count - index)
                index += taken
                offset += taken
                stage = taken == remaining ? .preamble : .padding(remaining: remaining - taken)
            }
        }
    }

    private mutating func complete(emit: (TraceChunk) -> Void) {
        emit(chunk)
        chunk = TraceChunk(tag: 0, subtag: 0, payload: [], offset: 0)
        let pad = (8 - (offset & 7)) & 7
        stage = pad == 0 ? .preamble : .padding(remaining: pad)
    }

    /// The end of input: throws when it cut a chunk (its preamble or payload), naming where and how much is missing.
    package mutating func finish() throws(UnifiedLogError) {
        switch stage {
        case .failed(let error):
            throw error
        case .preamble where !preamble.isEmpty:
            let error = UnifiedLogError("chunk preamble", at: offset - preamble.count, "cut: \(preamble.count) of 16 bytes")
            stage = .failed(error)
            throw error
        case .payload(let remaining):
            let error = UnifiedLogError("chunk (tag 0x\(String(chunk.tag, radix: 16)))", at: chunk.offset,
                                        "cut: \(chunk.payload.count) of \(chunk.payload.count + remaining) payload bytes")
            stage = .failed(error)
            throw error
        case .preamble, .padding:
            return
        }
    }
}
