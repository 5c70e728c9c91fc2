import Foundation
import PrewarmLint
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the CLI writes (`--output FORMAT=PATH`, `--write-baseline`): checked before any input is read, and
/// written in place.
///
/// In place, not by a temporary file renamed over the path: a rename replaced whatever was there — a symbolic
/// link (now the file it points to is written), a device node (`/dev/null` as root), a FIFO. A regular file
/// or a new one is truncated and written; anything else that is not a directory is written as it is, and a
/// FIFO without a reader is an error, never a hang. A path that is one of the inputs, or a directory, is refused.
enum OutputFile {
    /// Why `path` cannot be written, or nil: checked before reading, so a typo costs no run.
    static func problem(_ path: String, inputs: [String]) -> String? {
        var status = stat()
        if FileSystemName.withPlatformPath(path, { stat($0, &status) }) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR { return "is a directory" }
            for input in inputs {
                var other = stat()
                if FileSystemName.withPlatformPath(input, { stat($0, &other) }) == 0, other.st_dev == status.st_dev, other.st_ino == status.st_ino {
                    return "is one of the inputs (\(FileSystemName.displayed(input))); it is never overwritten"
                }
            }
            if FileSystemName.withPlatformPath(path, { access($0, W_OK) }) != 0 { return "cannot be written: \(String(cString: strerror(errno)))" }
            return nil
        }
        guard errno == ENOENT else { return "cannot be written: \(String(cString: strerror(errno)))" }
        let directory = (path as NSString).deletingLastPathComponent
        let parent = directory.isEmpty ? "." : directory
        if FileSystemName.withPlatformPath(parent, { access($0, W_OK) }) != 0 { return "cannot be created in \(FileSystemName.displayed(parent)): \(String(cString: strerror(errno)))" }
        return nil
    }

    /// The most bytes GitHub keeps of a step's summary (`GITHUB_STEP_SUMMARY`).
    static let stepSummaryLimit = 1 << 20

    /// Opens `path` for writing in place; the descriptor, or why not (with the system's reason).
    static func openInPlace(_ path: String) -> Result<Int32, OutputError> {
        var status = stat()
        let exists = FileSystemName.withPlatformPath(path, { stat($0, &status) }) == 0
        let regular = !exists || (status.st_mode & S_IFMT) == S_IFREG
        // A FIFO is opened without blocking: with no reader that fails (ENXIO) instead of waiting forever.
        let flags = regular ? O_WRONLY | O_CREAT | O_TRUNC : O_WRONLY | ((status.st_mode & S_IFMT) == S_IFIFO ? O_NONBLOCK : 0)
        let descriptor = FileSystemName.withPlatformPath(path) { open($0, flags | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else {
            let reason = errno == ENXIO ? "a FIFO with no reader" : String(cString: strerror(errno))
            return .failure(OutputError(reason: reason))
        }
        return .success(descriptor)
    }

    /// Writes `bytes` to `descriptor` whole; the system's reason when it cannot.
    static func writeWhole(_ bytes: [UInt8], to descriptor: Int32) -> OutputError? {
        bytes.withUnsafeBytes { raw -> OutputError? in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { usleep(1000); continue }
                    return OutputError(reason: String(cString: strerror(errno)))
                }
                offset += written
            }
            return nil
        }
    }

    struct OutputError: Error {
        var reason: String
    }
}
