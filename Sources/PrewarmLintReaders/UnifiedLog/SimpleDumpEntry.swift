/// A simpledump chunk (`0x6004`, inside a chunkset): one log entry whose message is already a string, written by a
/// process that logs before logd runs (launchd's boot tasks and service exits, from macOS 12 and iOS 15). After the
/// process's two identifiers: the time to live and the log type, the continuous time, the thread, the caller's
/// address, the sender image's UUID and the shared cache's, then the subsystem and the message with their sizes.
package struct SimpleDumpEntry: Sendable, Equatable {
    /// The process, as the catalog's ``TraceCatalog/Process/firstProcessID`` and ``TraceCatalog/Process/secondProcessID`` name it.
    package var firstProcessID: UInt64
    package var secondProcessID: UInt32
    /// The log type, as a firehose tracepoint's.
    package var logType: UInt8
    /// When, in ticks of continuous time.
    package var continuousTime: UInt64
    package var threadID: UInt64
    /// The image that logged it.
    package var senderUUID: UnifiedLogUUID
    /// The subsystem, when it names one.
    package var subsystem: String?
    package var message: String

    /// Each string is at most this long (a message longer than any log line is not a simpledump's).
    static let maximumString = 1 << 20

    package init(payload: UnsafeRawBufferPointer, at offset: Int = 0) throws(UnifiedLogError) {
        var reader = UnifiedLogBytes(payload, structure: "simpledump", offset: 0)
        firstProcessID = try reader.u64()
        secondProcessID = try reader.u32()
        try reader.skip(1)  // time to live
        logType = try reader.u8()
        try reader.skip(2)
        continuousTime = try reader.u64()
        threadID = try reader.u64()
        try reader.skip(8)  // the caller's address
        senderUUID = try reader.uuid()
        try reader.skip(16 + 4)  // the shared cache's UUID, a count
        let subsystemSize = Int(try reader.u32())
        let messageSize = Int(try reader.u32())
        guard subsystemSize <= Self.maximumString, messageSize <= Self.maximumString else {
            throw UnifiedLogError("simpledump", at: offset + reader.offset - 8, "strings of \(subsystemSize) and \(messageSize) bytes")
        }
        func text(_ bytes: UnsafeRawBufferPointer) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)]), as: UTF8.self)
        }
        let subsystemText = text(try reader.slice(subsystemSize))
        subsystem = subsystemText.isEmpty ? nil : subsystemText
        message = text(try reader.slice(messageSize))
    }
}
