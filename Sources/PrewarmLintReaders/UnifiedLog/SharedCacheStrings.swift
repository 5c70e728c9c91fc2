/// Bytes of a file, read where asked: an archive's large files (the shared cache's strings run to tens of MB) are
/// read a piece at a time, never whole.
package protocol UnifiedLogFileBytes: Sendable {
    /// Up to `count` bytes from `offset`; fewer at the end of the file, none past it.
    func bytes(at offset: Int, count: Int) -> [UInt8]
    /// The NUL-terminated text at `offset`, at most `limit` bytes (all of them when no NUL comes first).
    func text(at offset: Int, limit: Int) -> String
}

extension UnifiedLogFileBytes {
    /// The NUL-terminated text at `offset`, read 128 bytes at a time, at most `limit` bytes (all of them when no NUL
    /// comes first).
    package func text(at offset: Int, limit: Int) -> String {
        var bytes: [UInt8] = []
        while bytes.count < limit {
            let piece = self.bytes(at: offset + bytes.count, count: min(128, limit - bytes.count))
            if let end = piece.firstIndex(of: 0) {
                bytes += piece[..<end]
                break
            }
            bytes += piece
            if piece.count < 128 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Array: UnifiedLogFileBytes where Element == UInt8 {
    package func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, offset < self.count, count > 0 else { return [] }
        return Array(self[offset..<(offset + Swift.min(count, self.count - offset))])
    }

    /// In memory: found where it lies, not copied in pieces.
    package func text(at offset: Int, limit: Int) -> String {
        guard offset >= 0, offset < count, limit > 0 else { return "" }
        let end = offset + Swift.min(limit, count - offset)
        let stop = self[offset..<end].firstIndex(of: 0) ?? end
        return String(decoding: self[offset..<stop], as: UTF8.self)
    }
}

/// A shared cache's strings file (`uuidtext/dsc/<UUID>`): the format strings of every library in the shared cache,
/// which most system daemons' entries (runningboardd's, SpringBoard's) use.
///
/// Layout: a 16-byte header (magic `hcsd`, major and minor version, the number of ranges and of images), the ranges
/// (version 1: image index, first offset, where the bytes are, size; version 2: first offset as 8 bytes, where, size,
/// image index as 8), the images (where their text is, its size, UUID, where their path is), then strings. Only the
/// descriptors are read up front; a string is read from the file when asked for.
package struct SharedCacheStrings: Sendable {
    package struct Range: Sendable, Equatable {
        /// The first offset (as tracepoints name format strings) the range answers for, and its size.
        package var start: UInt64
        package var size: UInt32
        /// Where its bytes are in the file.
        package var fileOffset: UInt32
        package var imageIndex: Int
    }

    package struct Image: Sendable, Equatable {
        package var uuid: UnifiedLogUUID
        package var path: String
    }

    package let majorVersion: UInt16
    package let ranges: [Range]
    package let images: [Image]
    private let file: any UnifiedLogFileBytes

    static let magic: UInt32 = 0x6473_6368  // "hcsd"
    /// The most ranges and images read (an iOS 17 shared cache has about 40,000 ranges and 3,000 images).
    static let maximumCount = 1 << 20
    static let maximumImages = 1 << 15
    /// The most bytes of image paths read (3,000 images' paths are about 200 KB).
    static let maximumPathBytes = 4 << 20
    /// The longest image path and format string read.
    static let maximumText = 16_384

    package init(file: any UnifiedLogFileBytes) throws(UnifiedLogError) {
        self.file = file
        let header = try file.bytes(at: 0, count: 16).withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in
            var head = UnifiedLogBytes(raw, structure: "shared cache strings header")
            let magic = try head.u32()
            let major = try head.u16()
            try head.skip(2)
            return (magic: magic, major: major, ranges: Int(try head.u32()), images: Int(try head.u32()))
        }
        let (magic, major, rangeCount, imageCount) = header
        guard magic == Self.magic else {
            throw UnifiedLogError("shared cache strings header", at: 0, "magic 0x\(String(magic, radix: 16)), not hcsd")
        }
        guard major == 1 || major == 2 else { throw UnifiedLogError("shared cache strings header", at: 4, "version \(major)") }
        guard rangeCount <= Self.maximumCount, imageCount <= Self.maximumImages else {
            throw UnifiedLogError("shared cache strings header", at: 8,
                                  "\(rangeCount) ranges and \(imageCount) images, at most \(Self.maximumCount) and \(Self.maximumImages) read")
        }
        majorVersion = major
        let rangeSize = major == 2 ? 24 : 16
        let imageSize = major == 2 ? 32 : 28
        var ranges: [Range] = []
        // The descriptors are read a few thousand at a time: what is held grows with what the file holds, never with
        // what its header claims.
        var offset = 16
        var left = rangeCount
        while left > 0 {
            let batch = min(left, 4_096)
            try file.bytes(at: offset, count: batch * rangeSize).withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in
                var reader = UnifiedLogBytes(raw, structure: "shared cache strings range", offset: 0)
                for _ in 0..<batch {
                    if major == 2 {
                        let start = try reader.u64()
                        let fileOffset = try reader.u32()
                        let size = try reader.u32()
                        let image = try reader.u64()
                        ranges.append(Range(start: start, size: size, fileOffset: fileOffset, imageIndex: Int(clamping: image)))
                    } else {
                        let image = try reader.u32()
                        let start = try reader.u32()
                        let fileOffset = try reader.u32()
                        let size = try reader.u32()
                        ranges.append(Range(start: UInt64(start), size: size, fileOffset: fileOffset, imageIndex: Int(image)))
                    }
                }
            }
            offset += batch * rangeSize
            left -= batch
        }
        var images: [Image] = []
        var pathBytes = 0
        try file.bytes(at: offset, count: imageCount * imageSize).withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in
            var reader = UnifiedLogBytes(raw, structure: "shared cache strings image", offset: 0)
            for _ in 0..<imageCount {
                try reader.skip(major == 2 ? 12 : 8)  // where the image's text is, and its size
                let uuid = try reader.uuid()
                let path = file.text(at: Int(try reader.u32()), limit: 1_024)
                pathBytes += path.utf8.count
                guard pathBytes <= Self.maximumPathBytes else {
                    throw UnifiedLogError("shared cache strings image", at: offset + reader.offset, "its images' paths run past \(Self.maximumPathBytes) bytes")
                }
                images.append(Image(uuid: uuid, path: path))
            }
        }
        self.images = images
        ranges.sort { $0.start < $1.start }
        self.ranges = ranges
    }

    /// The format string at `offset` and the image it belongs to, or nil when no range holds it or its bytes are not
    /// in the file.
    package func string(at offset: UInt64) -> (format: String, image: Image?)? {
        // The last range starting at or before `offset`.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let range = ranges[low - 1]
        let delta = offset - range.start
        guard delta < UInt64(range.size) else { return nil }
        let bytes = file.bytes(at: Int(range.fileOffset) + Int(delta), count: min(Int(UInt64(range.size) - delta), Self.maximumText))
        guard !bytes.isEmpty else { return nil }
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return (String(decoding: bytes[..<end], as: UTF8.self), range.imageIndex < images.count ? images[range.imageIndex] : nil)
    }
}
