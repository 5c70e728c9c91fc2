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
/// A followed file is watched by identity (device and inode) and by its last bytes read: each change is said
/// (``Arrival/said(_:_:)``), never passed over — a rotation (files that came and went between two looks cannot be read),
/// a truncation, a rewrite in place (the bytes before the offset read are not those read: read again from the start),
/// and a name that now names no file (a device, a FIFO, a folder, nothing): nothing is opened under it until a file is
/// there again, so a symlink to `/dev/zero` swapped in is waited out, not read.
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
        /// Something the user should know about the followed file (a rotation, a truncation, a swap): said, reading goes on.
        case said(ReaderDiagnostic.Severity, String)
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
    /// The last bytes read of the file (at most ``tailLength``), to see that the file still holds them.
    private var tail: [UInt8] = []
    static let tailLength = 64
    /// Whether the last read found the file's end: the name and the bytes read are looked at before the next read.
    private var atEnd = false
    /// What the name names while it names no regular file (`a FIFO`, …); nil while a file is followed.
    private var awaiting: String?
    /// Rotations seen: the first is said, the rest counted (``summary``).
    private(set) var rotations = 0

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
        // (Not blocking: a FIFO's open would wait for a writer.)
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard opened >= 0 else { throw FollowFailure(message: "cannot open: \(String(cString: strerror(errno)))") }
        var status = stat()
        fstat(opened, &status)
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(opened)
            throw FollowFailure(message: "a folder cannot be followed: give one file (or - for standard input)")
        }
        descriptor = opened
        isFile = (status.st_mode & S_IFMT) == S_IFREG
        // A file is read in blocking mode as before; a FIFO or a device is polled.
        if isFile { _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK) }
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
        if isFile {
            if count >= Self.tailLength {
                tail = Array(buffer[(count - Self.tailLength)..<count])
            } else {
                tail.append(contentsOf: buffer[0..<count])
                if tail.count > Self.tailLength { tail.removeFirst(tail.count - Self.tailLength) }
            }
        }
        return .bytes(count)
    }

    /// A regular file: its bytes to its end, then, when nothing was appended, a look at what its name now names.
    private mutating func nextOfFile() -> Arrival {
        // Read on to the end; once there, each look at the name (and at the bytes read) comes before the next read.
        if awaiting == nil, !atEnd {
            switch readSome() {
            case .end:
                atEnd = true
            case let other:
                return other
            }
        }
        var status = stat()
        let named = stat(path, &status) == 0
        let kind = named ? status.st_mode & S_IFMT : 0
        if !named || kind != S_IFREG {
            // The name names no file now: nothing is opened under it (a device, a FIFO) until a file is back.
            let now = !named ? "nothing" : kind == S_IFDIR ? "a folder" : kind == S_IFIFO ? "a FIFO" : kind == S_IFCHR ? "a character device"
                : kind == S_IFBLK ? "a block device" : kind == S_IFSOCK ? "a socket" : "no regular file"
            if awaiting != now {
                let first = awaiting == nil
                awaiting = now
                // (A name that is gone for a moment in a rotation is not worth a word; anything else under it is.)
                if named || !first { return .said(.warning, "\(DisplayText.name(path)) now names \(now), not a file: waiting for a file under the name") }
            }
            return wait()
        }
        let renamed = identity.map { $0.device != UInt64(status.st_dev) || $0.inode != UInt64(status.st_ino) } ?? true
        if !renamed, let was = awaiting {
            // The file followed is back under the name: read on from where it was.
            awaiting = nil
            return was == "nothing" ? .nothing : .said(.note, "\(DisplayText.name(path)) names the file followed again (it named \(was)): read on")
        }
        if renamed || awaiting != nil {
            // Rotated (or back after a swap): the old file's last bytes were read above; the new one is read from its start.
            let wasAwaiting = awaiting
            awaiting = nil
            close(descriptor)
            descriptor = -1
            tail.removeAll()
            do throws(FollowFailure) { try openPath() } catch { return .failed(error.message) }
            if !isFile {
                // Swapped again between the look and the open (a device, a FIFO): not read; waited out as any swap.
                close(descriptor)
                descriptor = -1
                isFile = true
                identity = nil
                awaiting = wasAwaiting ?? "no regular file"
                return wait()
            }
            atEnd = false
            if let wasAwaiting, wasAwaiting != "nothing" {
                return .said(.note, "\(DisplayText.name(path)) names a file again (it named \(wasAwaiting)): read from its start")
            }
            rotations += 1
            if rotations == 1 {
                return .said(.warning, "\(DisplayText.name(path)) was replaced (rotated): the new file is read from its start; a file that came and went between two looks (\(Self.pollInterval) ms apart) cannot be read")
            }
            return .nothing
        }
        if Int64(status.st_size) < offset {
            // Truncated in place: read again from its start.
            restart()
            return .said(.note, "\(DisplayText.name(path)) was truncated (\(status.st_size) bytes, \(offset - Int64(status.st_size)) fewer than were read): read again from its start")
        }
        if !tail.isEmpty, offset >= Int64(tail.count) {
            // Its bytes before the offset read are no longer those read: rewritten in place between two looks.
            var held = [UInt8](repeating: 0, count: tail.count)
            let count = held.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset - Int64(tail.count))) }
            if count == tail.count, held != tail {
                restart()
                return .said(.warning, "\(DisplayText.name(path)) was rewritten in place between two looks (\(Self.pollInterval) ms apart): read again from its start; what the old text held past the last look was not read")
            }
        }
        if Int64(status.st_size) > offset {
            atEnd = false
            return readSome()
        }
        return wait()
    }

    private mutating func restart() {
        lseek(descriptor, 0, SEEK_SET)
        offset = 0
        tail.removeAll()
        atEnd = false
    }

    private func wait() -> Arrival {
        var pause = timespec(tv_sec: 0, tv_nsec: Int(Self.pollInterval) * 1_000_000)
        nanosleep(&pause, nil)
        return .nothing
    }

    /// What is said at the end (a warning): the rotations not said one by one.
    var summary: String? {
        guard rotations > 1 else { return nil }
        return "\(DisplayText.name(path)) was replaced \(rotations) times in all while followed; files that came and went between two looks could not be read"
    }

    /// Closes the file (standard input stays open).
    mutating func release() {
        if descriptor > 0 { close(descriptor) }
        descriptor = -1
    }
}
