/// What a tracev3 file holds, read through: its header, its catalogs, and per chunkset what its decoded chunks are —
/// the structure a launch-targeted reader decides from, and counts to check against other parsers.
///
/// Fed the file in any cut (``push(_:firehose:)``) with an explicit end (``finish()``); the outline is the same however
/// the bytes arrive. Each chunkset is decompressed and framed in turn and only its counts are kept, so memory stays at
/// one chunkset whatever the file's size. Given a choice of chunksets, it decompresses only those: the catalog before
/// them says which processes each holds and when, and the others are counted unread.
package struct TraceFileOutline: Sendable {
    /// The header, once read.
    package private(set) var header: TraceHeader?
    /// Every catalog, in file order.
    package private(set) var catalogs: [TraceCatalog] = []
    /// Chunksets read, and their decoded bytes.
    package private(set) var chunksets = 0
    /// Chunksets passed over because the choice did not want them, and their compressed bytes.
    package private(set) var chunksetsSkipped = 0
    /// Chunksets passed over because their time range is outside the window read (among ``chunksetsSkipped``).
    package private(set) var chunksetsOutsideWindow = 0
    package private(set) var compressedBytesSkipped = 0
    package private(set) var decodedBytes = 0
    /// Decoded chunks by tag (firehose, oversize, statedump, simpledump, others).
    package private(set) var chunksByTag: [UInt32: Int] = [:]
    /// Firehose tracepoints by kind.
    package private(set) var tracepoints = TracepointCounts()
    /// Chunks of the file itself with a tag it does not know, by tag.
    package private(set) var unknownChunks: [UInt32: Int] = [:]

    /// Firehose tracepoints counted by kind.
    package struct TracepointCounts: Sendable, Equatable {
        package var activity = 0, trace = 0, nonActivity = 0, signpost = 0, loss = 0, other = 0
        package var total: Int { activity + trace + nonActivity + signpost + loss + other }
    }

    private var framer = TraceChunkFramer()
    /// The chunkset descriptions of the latest catalog not yet matched by a chunkset.
    private var pendingDescriptions: ArraySlice<TraceCatalog.Chunkset> = []
    /// Which chunksets to decompress, by their catalog's description; nil: all.
    private let wanted: (@Sendable (TraceCatalog, TraceCatalog.Chunkset) -> Bool)?

    /// Whether a chunkset's time range (with the file's header, for its clock) may hold an entry the reader keeps.
    private let window: (@Sendable (TraceCatalog.Chunkset, TraceHeader?) -> Bool)?

    /// An outline of every chunkset, or only of those `wanted` says yes to and `window` does not rule out (the others
    /// are counted, not decompressed).
    package init(decompressing wanted: (@Sendable (TraceCatalog, TraceCatalog.Chunkset) -> Bool)? = nil,
                 within window: (@Sendable (TraceCatalog.Chunkset, TraceHeader?) -> Bool)? = nil) {
        self.wanted = wanted
        self.window = window
    }

    /// A firehose chunk as read: the chunk, its payload (the tracepoints' data are ranges of it), the catalog of its
    /// chunkset, the catalog's process it belongs to (matched by its two process identifiers), if listed, and the
    /// file's header (its boot and time zone), if read.
    package struct Firehose {
        package var header: TraceHeader?
        package var chunk: FirehoseChunk
        package var payload: [UInt8]
        package var catalog: TraceCatalog
        package var process: TraceCatalog.Process?
        /// The catalog's description of the chunkset holding it (its time range, its processes).
        package var chunkset: TraceCatalog.Chunkset
    }

    /// A simpledump entry as read: the entry, the catalog of its chunkset, its process if listed, and the header.
    package struct SimpleDump {
        package var header: TraceHeader?
        package var entry: SimpleDumpEntry
        package var catalog: TraceCatalog
        package var process: TraceCatalog.Process?
    }

    /// Oversize entries read (each chunk is one).
    package private(set) var oversizeEntries = 0

    /// Simpledump entries read (each chunk is one).
    package private(set) var simpleDumps = 0

    /// Reads `bytes`; throws at the first structure that cannot be read. What was read before stays counted, nothing
    /// after it is read, and every later call throws the same error: the outline is the same however the bytes were cut.
    /// `firehose` is handed each firehose chunk of the chunksets decompressed, in file order.
    /// `simpleDump` is handed each simpledump entry, in file order too.
    /// `oversize` is handed each oversize entry (the arguments a log entry names by its reference).
    package mutating func push(_ bytes: UnsafeRawBufferPointer, firehose: (Firehose) -> Void = { _ in },
                               simpleDump: (SimpleDump) -> Void = { _ in }, oversize: (OversizeEntry) -> Void = { _ in }) throws(UnifiedLogError) {
        if let failure { throw failure }
        var chunks: [TraceChunk] = []
        var framingError: UnifiedLogError?
        do throws(UnifiedLogError) {
            try framer.push(bytes) { chunks.append($0) }
        } catch {
            framingError = error
        }
        do throws(UnifiedLogError) {
            for chunk in chunks { try read(chunk, firehose: firehose, simpleDump: simpleDump, oversize: oversize) }
        } catch {
            failure = error
            throw error
        }
        if let framingError {
            failure = framingError
            throw framingError
        }
    }

    /// The end of the file: throws when it cut a chunk (or an earlier error ended the reading).
    package mutating func finish() throws(UnifiedLogError) {
        if let failure { throw failure }
        do throws(UnifiedLogError) {
            try framer.finish()
        } catch {
            failure = error
            throw error
        }
    }

    /// The error that ended the reading, if one did.
    package private(set) var failure: UnifiedLogError?

    private mutating func read(_ chunk: TraceChunk, firehose visit: (Firehose) -> Void,
                               simpleDump: (SimpleDump) -> Void, oversize: (OversizeEntry) -> Void) throws(UnifiedLogError) {
        try chunk.payload.withUnifiedLogBytes { (payload: UnsafeRawBufferPointer) throws(UnifiedLogError) in
            switch chunk.tag {
            case TraceChunk.Tag.header:
                header = try TraceHeader(payload: payload, at: chunk.offset)
            case TraceChunk.Tag.catalog:
                let catalog = try TraceCatalog(payload: payload)
                catalogs.append(catalog)
                pendingDescriptions = catalog.chunksets[...]
            case TraceChunk.Tag.chunkset:
                guard let description = pendingDescriptions.popFirst(), let catalog = catalogs.last else {
                    throw UnifiedLogError("chunkset", at: chunk.offset, "no catalog before it describes it")
                }
                if let wanted, !wanted(catalog, description) {
                    chunksetsSkipped += 1
                    compressedBytesSkipped += chunk.payload.count
                    return
                }
                if let window, !window(description, header) {
                    chunksetsSkipped += 1
                    chunksetsOutsideWindow += 1
                    compressedBytesSkipped += chunk.payload.count
                    return
                }
                let limit = min(Int(description.decodedSize), TraceChunkFramer.defaultMaximumPayload)
                let decoded = try TraceChunkset.decompress(payload, maximumSize: limit)
                guard decoded.count == Int(description.decodedSize) else {
                    throw UnifiedLogError("chunkset", at: chunk.offset, "decoded \(decoded.count) bytes, its catalog says \(description.decodedSize)")
                }
                chunksets += 1
                decodedBytes += decoded.count
                try readDecoded(decoded, at: chunk.offset, catalog: catalog, description: description, visit: visit, simpleDump: simpleDump,
                                oversize: oversize)
            default:
                unknownChunks[chunk.tag, default: 0] += 1
            }
        }
    }

    private mutating func readDecoded(_ decoded: [UInt8], at chunksetOffset: Int, catalog: TraceCatalog, description: TraceCatalog.Chunkset,
                                      visit: (Firehose) -> Void, simpleDump: (SimpleDump) -> Void,
                                      oversize: (OversizeEntry) -> Void) throws(UnifiedLogError) {
        var inner = TraceChunkFramer()
        var chunks: [TraceChunk] = []
        do {
            try decoded.withUnifiedLogBytes { (bytes: UnsafeRawBufferPointer) throws(UnifiedLogError) in try inner.push(bytes) { chunks.append($0) } }
            try inner.finish()
        } catch {
            throw UnifiedLogError("chunkset at byte \(chunksetOffset): \(error.structure)", at: error.offset, error.reason)
        }
        /// A chunk of the chunkset read by `read`; its error placed in the chunkset.
        func parse<Value>(_ chunk: TraceChunk, _ read: (UnsafeRawBufferPointer) throws(UnifiedLogError) -> Value) throws(UnifiedLogError) -> Value {
            do {
                return try chunk.payload.withUnifiedLogBytes { (bytes: UnsafeRawBufferPointer) throws(UnifiedLogError) in try read(bytes) }
            } catch {
                throw UnifiedLogError("chunkset at byte \(chunksetOffset): \(error.structure)", at: chunk.offset + 16 + error.offset, error.reason)
            }
        }
        for chunk in chunks {
            chunksByTag[chunk.tag, default: 0] += 1
            if chunk.tag == TraceChunk.Tag.oversize {
                let entry = try parse(chunk) { (bytes) throws(UnifiedLogError) in try OversizeEntry(payload: bytes) }
                oversizeEntries += 1
                oversize(entry)
                continue
            }
            if chunk.tag == TraceChunk.Tag.simpledump {
                let entry = try parse(chunk) { (bytes) throws(UnifiedLogError) in try SimpleDumpEntry(payload: bytes) }
                simpleDumps += 1
                let process = catalog.processes.first { $0.firstProcessID == entry.firstProcessID && $0.secondProcessID == entry.secondProcessID }
                simpleDump(SimpleDump(header: header, entry: entry, catalog: catalog, process: process))
                continue
            }
            guard chunk.tag == TraceChunk.Tag.firehose else { continue }
            let firehose = try parse(chunk) { (bytes) throws(UnifiedLogError) in try FirehoseChunk(payload: bytes) }
            let process = catalog.processes.first {
                $0.firstProcessID == firehose.firstProcessID && $0.secondProcessID == firehose.secondProcessID
            }
            visit(Firehose(header: header, chunk: firehose, payload: chunk.payload, catalog: catalog, process: process, chunkset: description))
            for tracepoint in firehose.tracepoints {
                switch tracepoint.kind {
                case .activity: tracepoints.activity += 1
                case .trace: tracepoints.trace += 1
                case .nonActivity: tracepoints.nonActivity += 1
                case .signpost: tracepoints.signpost += 1
                case .loss: tracepoints.loss += 1
                case .other: tracepoints.other += 1
                }
            }
        }
    }
}
