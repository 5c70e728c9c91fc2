/// An oversize chunk (`0x6002`, inside a chunkset): the arguments of a log entry too large for its tracepoint, which
/// names them by a reference (``FirehoseLogEntry/oversizeReference``). After the process's two identifiers: the time to
/// live, the continuous time, the reference, the sizes of the public and private data, then the arguments as a log
/// entry holds them (a flags byte, their count, a descriptor each, the string area).
package struct OversizeEntry: Sendable, Equatable {
    /// The process, as the catalog's ``TraceCatalog/Process/firstProcessID`` and ``TraceCatalog/Process/secondProcessID`` name it.
    package var firstProcessID: UInt64
    package var secondProcessID: UInt32
    /// The reference a log entry names it by.
    package var reference: UInt32
    package var arguments: [FirehoseLogEntry.Argument]

    package init(payload: UnsafeRawBufferPointer, at offset: Int = 0) throws(UnifiedLogError) {
        var reader = UnifiedLogBytes(payload, structure: "oversize", offset: 0)
        firstProcessID = try reader.u64()
        secondProcessID = try reader.u32()
        try reader.skip(4 + 8)  // time to live, three reserved bytes, the continuous time
        reference = try reader.u32()
        let publicSize = Int(try reader.u16())
        let privateSize = Int(try reader.u16())
        // The public data (the private data, when any, follows it and is not read: its values are private).
        _ = privateSize
        let data = try reader.slice(publicSize)
        arguments = try FirehoseLogEntry.arguments(ofItems: data, at: offset + reader.offset - publicSize)
    }
}
