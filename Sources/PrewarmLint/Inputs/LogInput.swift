#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One input to read: a file, or standard input.
public enum LogInput: Sendable, Hashable, CustomStringConvertible {
    /// A file, by path (as ``FileSystemName`` decodes it: every byte kept).
    case file(String)
    /// Standard input (`-`).
    case standardInput
    /// A unified log archive (a `*.logarchive` directory), read through the program that exports it
    /// (``LogArchiveTool``).
    case logArchive(String)

    /// The input as the user names it: its path (a byte that is not UTF-8 as `\\xNN`, see ``FileSystemName``), or `-`.
    public var name: String {
        switch self {
        case .file(let path): FileSystemName.displayed(path)
        case .standardInput: "-"
        case .logArchive(let path): FileSystemName.displayed(path)
        }
    }

    /// The input's name.
    public var description: String { name }

    /// The bytes of a file input that is a regular file, as it lies on disk (a `.gz` compressed); nil for standard input,
    /// a log archive, a FIFO or a file that cannot be stat'ed (which is reported when it is read).
    var regularFileSize: Int? {
        guard case .file(let path) = self else { return nil }
        var status = stat()
        guard FileSystemName.withPlatformPath(path, { stat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}

/// An input found by walking a directory, or named by the user.
public struct DiscoveredInput: Sendable, Hashable {
    /// What to read.
    public var input: LogInput
    /// True when the input came from walking a directory: an input that turns out not to be a
    /// log is then skipped with a note, not reported as an error.
    public var foundInDirectory: Bool

    /// An input, and whether a directory walk found it.
    public init(input: LogInput, foundInDirectory: Bool) {
        self.input = input
        self.foundInDirectory = foundInDirectory
    }
}
