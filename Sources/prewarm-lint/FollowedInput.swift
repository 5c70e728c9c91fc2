import Foundation
import PrewarmLint
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input read as it arrives (`--follow`): standard input or a pipe until its writer closes it, or a file read to its
/// end and then watched for what is appended, across rotation and truncation (as `tail -F` does: a file replaced
/// under its name is read from its start once the old one's last bytes are read).
///
/// Each wait is at most ``pollInterval``, so that a pause in the input and Ctrl-C are seen within that time.
struct FollowedInput {
    /// What a wait gave.
    enum Arrival {
        /// This many bytes, in the buffer.
        case bytes(Int)
        /// Nothing within the wait.
        case nothing
        /// The input ended (a pipe's writer closed it); a followed file never ends.
        case end
        /// The input cannot be read: why.
        case failed(String)
    }

    /// How long one wait for bytes lasts at most.
    static let pollInterval: Int32 = 100

    let path: String
    private var descriptor: Int32 = -1
    private var isFile = false
    private var identity: (device: UInt64, inode: UInt64)?
    private var offset: Int64 = 0
    /// Bytes read in all (across rotations).
    private(set) var bytesRead: Int64 = 0
    /// The buffer each read fills.
    private(set) var buffer = [UInt8](repeating: 0, count: 1 << 16)

    /// The input named `path` (`-`: standard input); nil with the reason when a file cannot be opened.
    init(path: String) throws(FollowFailure) {
        self.path = path
        if path == "-" {
            descriptor = 0
        } else {
            try openPath()
        }
    }

    /// Why an input cannot be followed.
    struct FollowFailure: Error {
        var message: String
    }

    private mutating func openPath() throws(FollowFailure) {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw FollowFailure(message: "cannot open: \(String(cString: strerror(errno)))") }
        var status = stat()
        fstat(opened, &status)
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(opened)
            throw FollowFailure(message: "a folder cannot be followed: give one file (or - for standard input)")
        }
        descriptor = opened
        isFile = (status.st_mode & S_IFMT) == S_IFREG
        identity = (UInt64(status.st_dev), UInt64(status.st_ino))
        offset = 0
    }

    /// Waits at most ``pollInterval`` for bytes.
    mutating func next() -> Arrival {
        if isFile { return nextOfFile() }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Self.pollInterval)
        if ready < 0 { return errno == EINTR ? .nothing : .failed(String(cString: strerror(errno))) }
        if ready == 0 { return .nothing }
        return readSome()
    }

    private mutating func readSome() -> Arrival {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? .nothing : .failed(String(cString: strerror(errno))) }
        if count == 0 { return .end }
        offset += Int64(count)
        bytesRead += Int64(count)
        return .bytes(count)
    }

    /// A regular file: its bytes to its end, then, when nothing was appended, a look at what its name now names.
    private mutating func nextOfFile() -> Arrival {
        switch readSome() {
        case .end:
            break
        case let other:
            return other
        }
        var status = stat()
        if stat(path, &status) == 0 {
            let renamed = identity.map { $0.device != UInt64(status.st_dev) || $0.inode != UInt64(status.st_ino) } ?? true
            if renamed {
                // Rotated: the old file's last bytes were read above; the new one is read from its start.
                close(descriptor)
                do throws(FollowFailure) { try openPath() } catch { return .failed(error.message) }
                return .nothing
            }
            if Int64(status.st_size) < offset {
                // Truncated in place: read again from its start.
                lseek(descriptor, 0, SEEK_SET)
                offset = 0
                return .nothing
            }
        }
        var pause = timespec(tv_sec: 0, tv_nsec: Int(Self.pollInterval) * 1_000_000)
        nanosleep(&pause, nil)
        return .nothing
    }

    /// Closes the file (standard input stays open).
    mutating func release() {
        if descriptor > 0 { close(descriptor) }
        descriptor = -1
    }
}

/// Monotonic microseconds, for the quiet period and the status line.
func monotonicMicroseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
}
