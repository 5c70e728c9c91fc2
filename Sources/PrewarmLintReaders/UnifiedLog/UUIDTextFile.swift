/// A `uuidtext` file (`uuidtext/1D/625353A9…`): the format strings of one image and that image's path, named by the
/// image's UUID (its first byte is the folder).
///
/// Layout: a 16-byte header (magic `0x66778899`, major and minor version, the number of ranges), one descriptor per
/// range (the range's first offset, as tracepoints name format strings, and its size), the ranges' bytes one after
/// another, then the image's path, NUL-terminated. Every descriptor is checked against the file's size; the strings are read from
/// the file when asked for, so a file of any size costs a few KiB.
package struct UUIDTextFile: Sendable {
    /// The image's path (`/usr/libexec/dasd`).
    package let imagePath: String
    private let file: any UnifiedLogFileBytes
    /// Each range: the first offset it answers for, its size, and where its bytes lie in the file.
    private let ranges: [(start: UInt32, size: UInt32, fileOffset: Int)]

    static let magic: UInt32 = 0x6677_8899
    /// The most ranges read (a real file has one to three).
    static let maximumRanges = 4_096
    /// The longest image path and format string read.
    static let maximumText = 16_384

    /// A file already in memory.
    package init(bytes: [UInt8]) throws(UnifiedLogError) {
        try self.init(file: bytes, size: bytes.count)
    }

    /// A file of `size` bytes, read where asked: only its header, descriptors and image path up front, a format string
    /// when one is asked for. What it holds is at most a few KiB, whatever the file's size.
    package init(file: any UnifiedLogFileBytes, size: Int) throws(UnifiedLogError) {
        self.file = file
        let count = try file.bytes(at: 0, count: 16).withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) -> Int in
            var reader = UnifiedLogBytes(raw, structure: "uuidtext")
            let magic = try reader.u32()
            guard magic == Self.magic else {
                throw UnifiedLogError("uuidtext", at: 0, "magic 0x\(String(magic, radix: 16)), not 0x66778899")
            }
            try reader.skip(8)  // major and minor version
            return Int(try reader.u32())
        }
        guard count <= (size - 16) / 8, count <= Self.maximumRanges else {
            throw UnifiedLogError("uuidtext", at: 12, "\(count) ranges, \(size - 16) bytes left, at most \(Self.maximumRanges) read")
        }
        var ranges: [(start: UInt32, size: UInt32, fileOffset: Int)] = []
        var fileOffset = 16 + count * 8
        try file.bytes(at: 16, count: count * 8).withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in
            var reader = UnifiedLogBytes(raw, structure: "uuidtext", offset: 0)
            for _ in 0..<count {
                let (start, rangeSize) = (try reader.u32(), try reader.u32())
                guard Int(rangeSize) <= size - fileOffset else {
                    throw UnifiedLogError("uuidtext range", at: fileOffset, "\(rangeSize) bytes, \(size - fileOffset) left")
                }
                ranges.append((start, rangeSize, fileOffset))
                fileOffset += Int(rangeSize)
            }
        }
        imagePath = file.text(at: fileOffset, limit: min(size - fileOffset, 1_024))
        self.ranges = ranges
    }

    /// The NUL-terminated string at `offset` (a tracepoint's format string location), or nil when no range holds it.
    package func string(at offset: UInt32) -> String? {
        guard let range = ranges.first(where: { offset >= $0.start && UInt64(offset) < UInt64($0.start) + UInt64($0.size) }) else {
            return nil
        }
        let start = range.fileOffset + Int(offset - range.start)
        return file.text(at: start, limit: min(range.fileOffset + Int(range.size) - start, Self.maximumText))
    }

    /// Where the file of `uuid` lies under a `uuidtext` folder: `1D/625353A9FA3EC994C0B2952315B2D2`.
    package static func relativePath(of uuid: UnifiedLogUUID) -> String {
        let hex = String(uuid.description.filter { $0 != "-" })
        return "\(hex.prefix(2))/\(hex.dropFirst(2))"
    }
}
