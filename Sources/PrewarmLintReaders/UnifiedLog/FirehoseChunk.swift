/// A firehose chunk (`0x6001`, inside a chunkset): one process's log entries. A 32-byte head (the process's two
/// identifiers, the size of the public data counted from byte 16, the base continuous time), then tracepoints, each a
/// 24-byte head and its data, padded to 8 bytes; an entry of kind 0 ends them (what follows is left from reuse).
package struct FirehoseChunk: Sendable {
    /// The process, as the catalog's ``TraceCatalog/Process/firstProcessID`` and ``TraceCatalog/Process/secondProcessID`` name it.
    package var firstProcessID: UInt64
    package var secondProcessID: UInt32
    /// The continuous time the tracepoints' deltas count from, in ticks.
    package var baseContinuousTime: UInt64
    package var tracepoints: [FirehoseTracepoint]

    package init(payload: UnsafeRawBufferPointer) throws(UnifiedLogError) {
        var head = UnifiedLogBytes(payload, structure: "firehose chunk")
        firstProcessID = try head.u64()
        secondProcessID = try head.u32()
        try head.skip(4)  // time to live, collapsed, two unknown bytes
        let publicSize = Int(try head.u16())
        try head.skip(6)  // private data's virtual offset, three unknown
        baseContinuousTime = try head.u64()
        let publicEnd = 16 + publicSize
        guard publicSize >= 16, publicEnd <= payload.count else {
            throw UnifiedLogError("firehose chunk", at: 16, "public data of \(publicSize) bytes, \(payload.count - 16) after byte 16")
        }
        var reader = UnifiedLogBytes(UnsafeRawBufferPointer(rebasing: payload[..<publicEnd]), structure: "firehose tracepoint", offset: 32)
        tracepoints = []
        while reader.remaining >= 24 {
            let start = reader.offset
            let kind = try reader.u8()
            if kind == 0 { break }
            let logType = try reader.u8()
            let flags = try reader.u16()
            let formatStringLocation = try reader.u32()
            let threadID = try reader.u64()
            let deltaLow = try reader.u32()
            let deltaHigh = try reader.u16()
            let dataSize = Int(try reader.u16())
            let dataStart = reader.offset
            try reader.skip(dataSize)
            tracepoints.append(FirehoseTracepoint(
                kind: FirehoseTracepoint.Kind(rawValue: kind), logType: logType, flags: flags,
                formatStringLocation: formatStringLocation, threadID: threadID,
                timeDelta: UInt64(deltaHigh) << 32 | UInt64(deltaLow), data: dataStart..<(dataStart + dataSize), offset: start))
            reader.alignTo8()
        }
    }
}

/// One tracepoint of a firehose chunk: its head, and where its data (items, or what its kind holds) lies in the chunk.
package struct FirehoseTracepoint: Sendable, Equatable {
    /// What a tracepoint is.
    package enum Kind: Sendable, Equatable {
        case activity, trace, nonActivity, signpost, loss
        case other(UInt8)

        init(rawValue: UInt8) {
            switch rawValue {
            case 0x2: self = .activity
            case 0x3: self = .trace
            case 0x4: self = .nonActivity
            case 0x6: self = .signpost
            case 0x7: self = .loss
            default: self = .other(rawValue)
            }
        }
    }

    package var kind: Kind
    /// The log type (default, info, debug, error, fault; a signpost's own) as stored.
    package var logType: UInt8
    /// Which optional fields its data holds, and where its format string is.
    package var flags: UInt16
    /// The format string's offset in the image (uuidtext or shared cache) the flags name.
    package var formatStringLocation: UInt32
    package var threadID: UInt64
    /// Ticks after the chunk's ``FirehoseChunk/baseContinuousTime``.
    package var timeDelta: UInt64
    /// Its data, as a range of the chunk's payload.
    package var data: Range<Int>
    /// The byte offset of its head in the chunk's payload.
    package var offset: Int
}
