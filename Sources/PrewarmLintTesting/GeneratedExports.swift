import Foundation

/// A folder under the system's temporary directory, removed with everything in it by ``remove()``.
public struct TemporaryFolder {
    /// The folder.
    public let url: URL

    /// Creates an empty folder whose name starts with `prefix`.
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to a file `name` in the folder and returns its path.
    public func write(_ bytes: some Sequence<UInt8>, named name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// Removes the folder.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension DeviceLogGenerator {
    /// One generated day written in several formats from the same records, as the exports of one device
    /// would be (`day-SEED.FORMAT` files in `folder`): what a merge of one device's logs reads, with events
    /// that several inputs share. Returns the files' paths, in the order of `formats`.
    public static func writeExports(_ configuration: Configuration, formats: [DeviceLogFormat], in folder: TemporaryFolder) throws -> [String] {
        var generator = DeviceLogGenerator(configuration: configuration)
        var records: [DeviceLogRecord] = []
        while let record = generator.next() { records.append(record) }
        return try formats.map { format in
            var writer = DeviceLogWriter(format: format)
            let text = writer.prologue() + records.map { writer.render($0) }.joined() + writer.epilogue()
            return try folder.write(text.utf8, named: "day-\(configuration.seed).\(format.rawValue)")
        }
    }
}
