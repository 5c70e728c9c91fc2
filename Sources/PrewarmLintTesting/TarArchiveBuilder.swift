import Foundation

/// Writes tar archives for tests: ustar headers, a pax `path` record for a long name, GNU's `L` long name,
/// and headers that lie (a size the data never reaches, a damaged checksum) — the sysdiagnose shapes and the
/// hostile ones, built in the test rather than committed.
public struct TarArchiveBuilder {
    /// The archive's bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty archive.
    public init() {}

    /// How to write an entry's name.
    public enum NameStyle: Sendable {
        /// In the header (ustar `prefix` and `name` when it is longer than 100 bytes).
        case header
        /// In a pax extended header (`path=`) before it, as `tar --format=pax` writes long names.
        case pax
        /// In a GNU `././@LongLink` entry before it, as GNU tar writes long names.
        case gnuLongName
    }

    /// Appends a regular file.
    public mutating func add(_ name: String, _ data: [UInt8], style: NameStyle = .header, declaredSize: Int? = nil, damageChecksum: Bool = false) {
        switch style {
        case .header: break
        case .pax:
            let record = Self.paxRecord("path", name)
            bytes += Self.header(name: "PaxHeaders/x", size: record.count, type: UInt8(ascii: "x"))
            append(record)
        case .gnuLongName:
            let data = Array(name.utf8) + [0]
            bytes += Self.header(name: "././@LongLink", size: data.count, type: UInt8(ascii: "L"))
            append(data)
        }
        var header = Self.header(name: style == .header ? name : String(name.suffix(90)), size: declaredSize ?? data.count, type: UInt8(ascii: "0"))
        if damageChecksum { header[0] ^= 0x20 }
        bytes += header
        append(data)
    }

    /// The two zero blocks that end an archive.
    public mutating func end() {
        bytes += [UInt8](repeating: 0, count: 1024)
    }

    /// The archive gzip-compressed by the system's `gzip` (in every Debian and macOS install).
    public func gzipped() throws -> [UInt8] { try GzipFile.compress(bytes) }

    private mutating func append(_ data: [UInt8]) {
        bytes += data
        bytes += [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }

    private static func paxRecord(_ key: String, _ value: String) -> [UInt8] {
        let body = " \(key)=\(value)\n"
        var length = body.utf8.count + 1
        while "\(length)\(body)".utf8.count != length { length += 1 }
        return Array("\(length)\(body)".utf8)
    }

    /// A ustar header; a size over 8 GiB in GNU's base-256 form.
    static func header(name: String, size: Int, type: UInt8) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        var nameBytes = Array(name.utf8)
        if nameBytes.count > 100, let slash = nameBytes[..<min(nameBytes.count, 155)].lastIndex(of: UInt8(ascii: "/")) {
            block.replaceSubrange(345..<(345 + slash), with: nameBytes[..<slash])
            nameBytes = Array(nameBytes[(slash + 1)...])
        }
        block.replaceSubrange(0..<min(100, nameBytes.count), with: nameBytes.prefix(100))
        func octal(_ value: Int, at offset: Int, width: Int) {
            let digits = Array(String(value, radix: 8).utf8)
            let padded = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, width - 1 - digits.count)) + digits
            block.replaceSubrange(offset..<(offset + padded.count), with: padded)
        }
        octal(0o644, at: 100, width: 8)
        octal(501, at: 108, width: 8)
        octal(501, at: 116, width: 8)
        if size < 0o77777777777 {
            octal(size, at: 124, width: 12)
        } else {
            block[124] = 0x80
            for index in 0..<8 { block[135 - index] = UInt8((size >> (8 * index)) & 0xFF) }
        }
        octal(1_710_773_100, at: 136, width: 12)
        block[156] = type
        block.replaceSubrange(257..<263, with: Array("ustar\0".utf8))
        block.replaceSubrange(263..<265, with: Array("00".utf8))
        block.replaceSubrange(148..<156, with: [UInt8](repeating: UInt8(ascii: " "), count: 8))
        let sum = block.reduce(0) { $0 + Int($1) }
        let digits = Array(String(sum, radix: 8).utf8)
        let field = [UInt8](repeating: UInt8(ascii: "0"), count: 6 - digits.count) + digits + [0, UInt8(ascii: " ")]
        block.replaceSubrange(148..<156, with: field)
        return block
    }
}

/// gzip for tests: the machine's `gzip -n` (no name or time in the header, so the same bytes give the same file).
public enum GzipFile {
    /// `bytes`, gzipped.
    public static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-gzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("data")
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-n", file.path]
        try process.run()
        process.waitUntilExit()
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent("data.gz")))
    }
}
