import Foundation

/// Expands the paths a user gave into the inputs to read, in a deterministic order.
///
/// A directory is walked recursively; its files are sorted by path (byte order, so the order
/// does not depend on the file system or the locale). Hidden files and folders (`.DS_Store`,
/// `.git`) are skipped, and symbolic links to directories are not followed, so a link loop
/// cannot make the walk endless. `-` is standard input.
public enum InputDiscovery {
    /// The result of expanding the paths.
    public struct Result: Sendable {
        /// The inputs to read, in order.
        public var inputs: [DiscoveredInput] = []
        /// Paths that do not exist or cannot be listed.
        public var failures: [(path: String, message: String)] = []
    }

    /// The inputs `paths` name: `-` for standard input, files as given, directories walked recursively and sorted.
    public static func expand(_ paths: [String]) -> Result {
        var result = Result()
        let manager = FileManager.default
        for path in paths {
            if path == "-" {
                result.inputs.append(DiscoveredInput(input: .standardInput, foundInDirectory: false))
                continue
            }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                result.failures.append((path, "no such file or directory (check the path; - reads standard input)"))
                continue
            }
            guard isDirectory.boolValue else {
                result.inputs.append(DiscoveredInput(input: .file(path), foundInDirectory: false))
                continue
            }
            var files: [String] = []
            walk(directory: path, into: &files, failures: &result.failures)
            files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            result.inputs += files.map { DiscoveredInput(input: .file($0), foundInDirectory: true) }
        }
        return result
    }

    private static func walk(directory: String, into files: inout [String], failures: inout [(path: String, message: String)]) {
        let manager = FileManager.default
        let entries: [String]
        do {
            entries = try manager.contentsOfDirectory(atPath: directory)
        } catch {
            failures.append((directory, "cannot list the directory (\((error as NSError).localizedDescription))"))
            return
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for entry in entries where !entry.hasPrefix(".") {
            let path = prefix + entry
            guard let attributes = try? manager.attributesOfItem(atPath: path), let type = attributes[.type] as? FileAttributeType else {
                failures.append((path, "cannot read its attributes"))
                continue
            }
            switch type {
            case .typeDirectory:
                walk(directory: path, into: &files, failures: &failures)
            case .typeRegular:
                files.append(path)
            case .typeSymbolicLink:
                // Follow links to files, never to directories.
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { files.append(path) }
            default:
                break  // sockets, FIFOs and devices inside a directory are not logs
            }
        }
    }
}
