/// A catalog chunk (`0x600b`): which processes the chunksets after it hold, and when. It is what lets a reader
/// decompress only the chunksets of the processes a launch needs.
///
/// Layout: a 24-byte head (offsets of the subsystem strings, the process entries and the chunkset descriptions,
/// counted from byte 24; the number of each; the earliest continuous time), the UUIDs (16 bytes each) of the images
/// whose format strings the entries use, the subsystem strings, the process entries, then one description per
/// chunkset. Every offset and count is checked against the payload.
package struct TraceCatalog: Sendable, Equatable {
    /// A process whose entries the catalog's chunksets hold.
    package struct Process: Sendable, Equatable {
        /// The process's number in the catalog, which chunkset descriptions refer to.
        package var index: UInt16
        /// The UUIDs of its main executable and of its shared cache (indexes into ``TraceCatalog/uuids``).
        package var mainUUIDIndex: UInt16
        package var sharedCacheUUIDIndex: UInt16
        /// The process's identifiers in firehose chunks (their first 12 bytes).
        package var firstProcessID: UInt64
        package var secondProcessID: UInt32
        package var pid: UInt32
        package var euid: UInt32
        /// Its subsystems: identifier, then the subsystem and category strings' offsets into ``TraceCatalog/strings``.
        package var subsystems: [Subsystem]
        /// The images loaded in it, by address: an entry whose format string is "absolute" names its image by the
        /// caller's address.
        package var images: [LoadedImage] = []
    }

    /// An image loaded in a process: where, how large, and its UUID's index in ``TraceCatalog/uuids``.
    package struct LoadedImage: Sendable, Equatable {
        package var loadAddress: UInt64
        package var size: UInt32
        package var uuidIndex: UInt16
    }

    /// A subsystem and category a process logs under.
    package struct Subsystem: Sendable, Equatable {
        package var identifier: UInt16
        package var subsystemOffset: UInt16
        package var categoryOffset: UInt16
    }

    /// A chunkset the catalog describes, in the order the chunksets follow it.
    package struct Chunkset: Sendable, Equatable {
        /// The continuous times of its first and last entries, in ticks.
        package var start: UInt64
        package var end: UInt64
        /// Its decoded size, and how it is compressed (`0x100`: LZ4).
        package var decodedSize: UInt32
        package var algorithm: UInt32
        /// The processes (``Process/index``) whose entries it holds.
        package var processIndexes: [UInt16]
    }

    package var uuids: [UnifiedLogUUID]
    /// The subsystem and category strings, NUL-separated, as they lie.
    package var strings: [UInt8]
    package var processes: [Process]
    package var chunksets: [Chunkset]
    /// The earliest continuous time of its entries, in ticks.
    package var earliestTime: UInt64

    package init(payload: UnsafeRawBufferPointer) throws(UnifiedLogError) {
        var head = UnifiedLogBytes(payload, structure: "catalog")
        let stringsOffset = Int(try head.u16())
        let processesOffset = Int(try head.u16())
        let processCount = Int(try head.u16())
        let chunksetsOffset = Int(try head.u16())
        let chunksetCount = Int(try head.u16())
        try head.skip(6)
        earliestTime = try head.u64()
        let base = head.offset
        guard stringsOffset % 16 == 0, stringsOffset <= processesOffset, processesOffset <= chunksetsOffset,
              base + chunksetsOffset <= payload.count else {
            throw UnifiedLogError("catalog", at: 0, "offsets \(stringsOffset), \(processesOffset), \(chunksetsOffset) out of order or past its \(payload.count) bytes")
        }
        var uuidReader = UnifiedLogBytes(UnsafeRawBufferPointer(rebasing: payload[base..<(base + stringsOffset)]), structure: "catalog UUIDs", offset: 0)
        uuids = []
        uuids.reserveCapacity(stringsOffset / 16)
        while uuidReader.remaining >= 16 { uuids.append(try uuidReader.uuid()) }
        strings = Array(payload[(base + stringsOffset)..<(base + processesOffset)])

        var reader = UnifiedLogBytes(payload, structure: "catalog process entry", offset: base + processesOffset)
        processes = []
        for _ in 0..<processCount {
            let entryStart = reader.offset
            let index = try reader.u16()
            try reader.skip(2)
            let mainUUIDIndex = try reader.u16()
            let sharedCacheUUIDIndex = try reader.u16()
            let firstProcessID = try reader.u64()
            let secondProcessID = try reader.u32()
            let pid = try reader.u32()
            let euid = try reader.u32()
            try reader.skip(4)
            let uuidEntries = Int(try reader.u32())
            try reader.skip(4)
            guard uuidEntries <= reader.remaining / 16 else {
                throw UnifiedLogError("catalog process entry", at: entryStart, "\(uuidEntries) UUID entries, \(reader.remaining) bytes left")
            }
            var images: [LoadedImage] = []
            images.reserveCapacity(uuidEntries)
            for _ in 0..<uuidEntries {
                let size = try reader.u32()
                try reader.skip(4)
                let uuidIndex = try reader.u16()
                let low = UInt64(try reader.u32())
                let high = UInt64(try reader.u16())
                images.append(LoadedImage(loadAddress: high << 32 | low, size: size, uuidIndex: uuidIndex))
            }
            let subsystemCount = Int(try reader.u32())
            try reader.skip(4)
            guard subsystemCount <= reader.remaining / 6 else {
                throw UnifiedLogError("catalog process entry", at: entryStart, "\(subsystemCount) subsystems, \(reader.remaining) bytes left")
            }
            var subsystems: [Subsystem] = []
            subsystems.reserveCapacity(subsystemCount)
            for _ in 0..<subsystemCount {
                subsystems.append(Subsystem(identifier: try reader.u16(), subsystemOffset: try reader.u16(), categoryOffset: try reader.u16()))
            }
            reader.alignTo8(from: entryStart)
            processes.append(Process(index: index, mainUUIDIndex: mainUUIDIndex, sharedCacheUUIDIndex: sharedCacheUUIDIndex,
                                     firstProcessID: firstProcessID, secondProcessID: secondProcessID, pid: pid, euid: euid,
                                     subsystems: subsystems, images: images))
        }

        reader = UnifiedLogBytes(payload, structure: "catalog chunkset description", offset: base + chunksetsOffset)
        chunksets = []
        for _ in 0..<chunksetCount {
            let entryStart = reader.offset
            let start = try reader.u64()
            let end = try reader.u64()
            let decodedSize = try reader.u32()
            let algorithm = try reader.u32()
            let indexCount = Int(try reader.u32())
            guard indexCount <= reader.remaining / 2 else {
                throw UnifiedLogError("catalog chunkset description", at: entryStart, "\(indexCount) process indexes, \(reader.remaining) bytes left")
            }
            var indexes: [UInt16] = []
            indexes.reserveCapacity(indexCount)
            for _ in 0..<indexCount { indexes.append(try reader.u16()) }
            let stringCount = Int(try reader.u32())
            guard stringCount <= reader.remaining / 2 else {
                throw UnifiedLogError("catalog chunkset description", at: entryStart, "\(stringCount) string offsets, \(reader.remaining) bytes left")
            }
            try reader.skip(2 * stringCount)
            reader.alignTo8(from: entryStart)
            chunksets.append(Chunkset(start: start, end: end, decodedSize: decodedSize, algorithm: algorithm, processIndexes: indexes))
        }
    }

    /// The process a chunkset description or a firehose chunk names by its index, if the catalog has it.
    package func process(index: UInt16) -> Process? {
        processes.first { $0.index == index }
    }
}
