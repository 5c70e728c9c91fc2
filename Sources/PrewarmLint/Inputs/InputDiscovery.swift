import Foundation

/// Expands the paths a user gave into the inputs to read, in a deterministic order.
///
/// A directory is walked recursively; all inputs are sorted by path (byte order, so the order
/// depends neither on the file system, the locale, nor the order of the arguments), standard input first. Hidden files and folders (`.DS_Store`,
/// `.git`) are skipped, and symbolic links to directories are not followed, so a link loop
/// cannot make the walk endless. `-` is standard input.
public enum InputDiscovery {
    /// The result of expanding the paths.
    public struct Result: Sendable {
        /// The inputs to read, in order.
        public var inputs: [DiscoveredInput] = []
        /// Paths that do not exist or cannot be listed, with the system's reason (paths as ``FileSystemName/displayed(_:)`` shows them).
        public var failures: [(path: String, message: String)] = []
        /// Entries of a walked directory passed over, and why (a dangling symbolic link): said, not errors.
        public var notes: [(path: String, message: String)] = []
    }

    /// The inputs `paths` name: `-` for standard input, files as given, directories walked recursively and sorted.
    public static func expand(_ paths: [String]) -> Result {
        var result = Result()
        for path in paths {
            if path == "-" {
                result.inputs.append(DiscoveredInput(input: .standardInput, foundInDirectory: false))
                continue
            }
            var status = stat()
            guard FileSystemName.withPlatformPath(path, { stat($0, &status) }) == 0 else {
                result.failures.append((path, Self.reason(path: path, errno: errno)))
                continue
            }
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                result.inputs.append(DiscoveredInput(input: .file(path), foundInDirectory: false))
                continue
            }
            // A unified log archive is one input, read through the tool that exports it, not a folder to walk.
            if LogArchiveTool.isArchive(path) {
                result.inputs.append(DiscoveredInput(input: .logArchive(path), foundInDirectory: false))
                continue
            }
            var files: [String] = []
            var archives: [String] = []
            walk(directory: path, into: &files, archives: &archives, failures: &result.failures, notes: &result.notes)
            files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            result.inputs += files.map { DiscoveredInput(input: .file($0), foundInDirectory: true) }
            result.inputs += archives.map { DiscoveredInput(input: .logArchive($0), foundInDirectory: true) }
        }
        // One order whatever the order of the arguments: standard input first, then by path (bytes), the same
        // file named twice read once. Reports are then the same bytes for `a b` and `b a`.
        result.inputs.sort { lhs, rhs in
            switch (lhs.input, rhs.input) {
            case (.standardInput, .standardInput): return false
            case (.standardInput, _): return true
            case (_, .standardInput): return false
            case (.file(let a), .file(let b)), (.logArchive(let a), .logArchive(let b)), (.file(let a), .logArchive(let b)),
                 (.logArchive(let a), .file(let b)):
                return a.utf8.lexicographicallyPrecedes(b.utf8)
            }
        }
        // The same file or archive named several ways (`a`, `./a`, `a/`, a link to it, found in a folder too) is read
        // once, under the first of its names in that order.
        var seen: Set<String> = []
        result.inputs = result.inputs.filter { input in
            switch input.input {
            case .file(let path), .logArchive(let path):
                var status = stat()
                let identity = FileSystemName.withPlatformPath(path, { stat($0, &status) }) == 0 ? "\(status.st_dev):\(status.st_ino)" : "path " + path
                return seen.insert(identity).inserted
            case .standardInput: return true
            }
        }
        // Failures and notes are for people: their paths as displayed (a byte that is not UTF-8 as \xNN).
        result.failures = result.failures.map { (FileSystemName.displayed($0.path), $0.message) }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        result.notes = result.notes.map { (FileSystemName.displayed($0.path), $0.message) }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return result
    }

    /// Why `path` cannot be read, from `errno`: not found, a link loop, no permission, with what to do.
    static func reason(path: String, errno code: Int32) -> String {
        switch code {
        case ENOENT:
            var link = stat()
            if FileSystemName.withPlatformPath(path, { lstat($0, &link) }) == 0 { return "a symbolic link to nothing (dangling)" }
            return "no such file or directory (check the path; - reads standard input)"
        case ELOOP: return "too many levels of symbolic links (a link loop)"
        case EACCES: return "permission denied (check the file's or its folders' permissions)"
        default: return String(cString: strerror(code))
        }
    }

    private static func walk(directory: String, into files: inout [String], archives: inout [String],
                             failures: inout [(path: String, message: String)], notes: inout [(path: String, message: String)]) {
        // readdir, not FileManager: the entries' names are bytes, kept as they are (see FileSystemName).
        guard let handle = FileSystemName.withPlatformPath(directory, { opendir($0) }) else {
            failures.append((directory, "cannot list the directory: \(reason(path: directory, errno: errno))"))
            return
        }
        var entries: [String] = []
        errno = 0
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FileSystemName.decoded(raw.prefix { $0 != 0 })
            }
            if !name.hasPrefix(".") { entries.append(name) }
        }
        let listingError = errno
        closedir(handle)
        if listingError != 0 {
            failures.append((directory, "cannot list the whole directory: \(String(cString: strerror(listingError)))"))
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for entry in entries {
            let path = prefix + entry
            var status = stat()
            guard FileSystemName.withPlatformPath(path, { lstat($0, &status) }) == 0 else {
                failures.append((path, "cannot read its attributes: \(reason(path: path, errno: errno))"))
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                if LogArchiveTool.isArchive(path) {
                    archives.append(path)
                } else {
                    walk(directory: path, into: &files, archives: &archives, failures: &failures, notes: &notes)
                }
            case S_IFREG:
                files.append(path)
            case S_IFLNK:
                // Follow links to files, never to directories; a link to nothing is said.
                var target = stat()
                if FileSystemName.withPlatformPath(path, { stat($0, &target) }) == 0 {
                    if (target.st_mode & S_IFMT) == S_IFREG { files.append(path) }
                } else {
                    notes.append((path, "passed over: \(reason(path: path, errno: errno))"))
                }
            default:
                break  // sockets, FIFOs and devices inside a directory are not logs
            }
        }
    }
}
