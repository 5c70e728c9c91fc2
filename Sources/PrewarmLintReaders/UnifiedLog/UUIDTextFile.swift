/// A `uuidtext` file (`uuidtext/1D/625353A9…`): the format strings of one image and that image's path, named by the
/// image's UUID (its first byte is the folder).
///
/// Layout: a 16-byte header (magic `0x66778899`, major and minor version, the number of ranges), one descriptor per
/// range (the range's first offset, as tracepoints name format strings, and its size), the ranges' bytes one after
/// another, then the image's path, NUL-terminated. Every descriptor is checked against the file's size.
package struct UUIDTextFile: Sendable {
    /// The image's path (`/usr/libexec/dasd`).
    package let imagePath: String
    private let bytes: [UInt8]
    /// Each range: the first offset it answers for, its size, and where its bytes lie in the file.
    private let ranges: [(start: UInt32, size: UInt32, fileOffset: Int)]

    static let magic: UInt32 = 0x6677_8899

    package init(bytes: [UInt8]) throws(UnifiedLogError) {
        self.bytes = bytes
        var ranges: [(start: UInt32, size: UInt32, fileOffset: Int)] = []
        let path = try bytes.withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) -> String in
            var reader = UnifiedLogBytes(raw, structure: "uuidtext")
            let magic = try reader.u32()
            guard magic == Self.magic else {
                throw UnifiedLogError("uuidtext", at: 0, "magic 0x\(String(magic, radix: 16)), not 0x66778899")
            }
            try reader.skip(8)  // major and minor version
            let count = Int(try reader.u32())
            guard count <= reader.remaining / 8 else {
                throw UnifiedLogError("uuidtext", at: 12, "\(count) ranges, \(reader.remaining) bytes left")
            }
            var descriptors: [(UInt32, UInt32)] = []
            for _ in 0..<count { descriptors.append((try reader.u32(), try reader.u32())) }
            var fileOffset = reader.offset
            for (start, size) in descriptors {
                guard Int(size) <= raw.count - fileOffset else {
                    throw UnifiedLogError("uuidtext range", at: fileOffset, "\(size) bytes, \(raw.count - fileOffset) left")
                }
                ranges.append((start, size, fileOffset))
                fileOffset += Int(size)
            }
            var footer = UnifiedLogBytes(raw, structure: "uuidtext image path", offset: fileOffset)
            return try footer.text(footer.remaining)
        }
        imagePath = path
        self.ranges = ranges
    }

    /// The NUL-terminated string at `offset` (a tracepoint's format string location), or nil when no range holds it.
    package func string(at offset: UInt32) -> String? {
        guard let range = ranges.first(where: { offset >= $0.start && UInt64(offset) < UInt64($0.start) + UInt64($0.size) }) else {
            return nil
        }
        let start = range.fileOffset + Int(offset - range.start)
        let end = range.fileOffset + Int(range.size)
        let stop = bytes[start..<end].firstIndex(of: 0) ?? end
        return String(decoding: bytes[start..<stop], as: UTF8.self)
    }

    /// Where the file of `uuid` lies under a `uuidtext` folder: `1D/625353A9FA3EC994C0B2952315B2D2`.
    package static func relativePath(of uuid: UnifiedLogUUID) -> String {
        let hex = String(uuid.description.filter { $0 != "-" })
        return "\(hex.prefix(2))/\(hex.dropFirst(2))"
    }
}
