import Foundation
import PrewarmLintReaders
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A sysdiagnose's unified log, taken out of its `.tar.gz` as the archive streams past, so that the tool that
/// exports it (``LogArchiveTool``) can read it: `log show` and `unifiedlog_iterator` take a folder, not a stream.
///
/// The entries under the first `NAME.logarchive/` folder of the archive are written into a private temporary
/// folder (`mkdtemp`, mode 0700) as `NAME.logarchive/…`; whatever stands before that folder in an entry's name is
/// dropped. The names are the archive's, so they are checked, never trusted: a `.` or `..` component refuses the
/// entry, files are created with `O_EXCL | O_NOFOLLOW` (a second entry of the same name is refused, nothing is
/// written through a link), and nothing but folders and regular files is made. The total is limited
/// (``maximumBytes``); past it, or when the disk refuses a write, extraction stops and says why. The folder is
/// removed when the export is done (``remove()``).
///
/// Written by hand rather than with an archive library: the archive is already being read as a stream by
/// `TarArchiveDecoder` (for its crash reports), and a second pass through a library would read a 1 GB
/// sysdiagnose twice; what is left here is the file creation, and its checks are the point.
final class LogArchiveExtraction: ArchiveEntryExtractor, @unchecked Sendable {
    /// The most bytes extracted: a sysdiagnose's logarchive is commonly 0.3–2 GB.
    static let maximumBytes: Int64 = 16 << 30
    /// The most bytes extracted per byte of the input read so far (past a first ``extractionFloor``): a logarchive's
    /// tracev3 files are compressed already, so gzip barely shrinks them (a real sysdiagnose, 1.1–1.4×); an archive
    /// that inflates a thousandfold (zeros) is not one, and must not fill the disk.
    static let maximumExpansion: Int64 = 10
    static let extractionFloor: Int64 = 64 << 20
    /// The input's bytes read so far (compressed, as on disk), set by the reader before each chunk.
    var inputBytesRead: Int64 = 0
    /// What may be extracted now.
    var budget: Int64 { min(Self.maximumBytes, Self.extractionFloor + Self.maximumExpansion * inputBytesRead) }

    private let temporaryParent: String
    /// The private folder, once the first entry arrived.
    private(set) var folder: String?
    /// The extracted archive (`folder/NAME.logarchive`).
    private(set) var archiveRoot: String?
    private(set) var archiveName: String?
    private(set) var files = 0
    private(set) var bytesWritten: Int64 = 0
    /// Entries refused for their names (`..`, a repeated name, a second logarchive, a name too long to create).
    private(set) var refused = 0
    /// Why extraction stopped early, when it did.
    private(set) var problem: String?
    private var descriptor: Int32 = -1

    init(temporaryParent: String = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") {
        self.temporaryParent = temporaryParent
    }

    func begin(path: String, size: Int) -> Bool {
        closeFile()
        guard problem == nil else { return false }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let archiveIndex = components.firstIndex(where: { $0.hasSuffix(".logarchive") && $0 != ".logarchive" }) else { return false }
        let name = String(components[archiveIndex])
        let inside = components[(archiveIndex + 1)...]
        guard !inside.isEmpty, inside.allSatisfy({ $0 != "." && $0 != ".." }), archiveName == nil || archiveName == name else {
            refused += 1
            return false
        }
        guard bytesWritten + Int64(size) <= Self.maximumBytes else {
            problem = "its unified log is over \(Self.maximumBytes >> 30) GiB: extraction stopped after \(files) files"
            return false
        }
        guard bytesWritten + Int64(size) <= budget else {
            problem = "its unified log would take more than \(Self.maximumExpansion) times the archive's bytes read so far plus \(Self.extractionFloor >> 20) MB "
                + "(\((bytesWritten + Int64(size) + 500_000) / 1_000_000) MB from \((inputBytesRead + 500_000) / 1_000_000) MB; a real one is about the size of "
                + "its compressed archive): extraction stopped after \(files) files"
            return false
        }
        guard let folder = folder ?? makeFolder() else { return false }
        archiveName = name
        var directory = folder + "/" + name
        archiveRoot = directory
        guard makeDirectory(directory) else { return false }
        for component in inside.dropLast() {
            directory += "/" + component
            guard makeDirectory(directory) else { return false }
        }
        let file = directory + "/" + inside.last!
        descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // A name this system cannot hold (too long, as a hostile archive can write) is refused like a repeated one;
            // only a failure of the folder itself (no space, no permission) stops the extraction.
            if errno == EEXIST || errno == ELOOP || errno == ENAMETOOLONG || errno == EILSEQ || errno == EINVAL {
                refused += 1
            } else {
                stop("cannot create \(file)")
            }
            return false
        }
        files += 1
        return true
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        guard descriptor >= 0, var address = bytes.baseAddress else { return }
        var left = bytes.count
        if bytesWritten + Int64(left) > budget {
            problem = "its unified log grew past \(Self.maximumExpansion) times the archive's bytes read plus \(Self.extractionFloor >> 20) MB while it was extracted (an entry's declared size was exceeded by what the stream holds): extraction stopped after \(files) files"
            closeFile()
            return
        }
        while left > 0 {
            let count = SystemCall.write(descriptor, address, left)
            if count < 0 {
                if errno == EINTR { continue }
                stop("cannot write the unified log into \(folder ?? temporaryParent)")
                return
            }
            left -= count
            bytesWritten += Int64(count)
            address += count
        }
    }

    func end() {
        closeFile()
    }

    /// Closes the file being written (an archive cut inside an entry leaves it short; the tool says what it makes of it).
    func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Removes the temporary folder and everything extracted into it.
    func remove() {
        closeFile()
        if let folder {
            try? FileManager.default.removeItem(atPath: folder)
            RunLeftovers.removedFolder(folder)
        }
        folder = nil
    }

    /// The prefix of the temporary folders, followed by the pid of the run that made one.
    static let folderPrefix = "prewarm-lint-logarchive-"

    /// Removes the folders in `parent` that runs of prewarm-lint made and left when they were killed outright (SIGKILL,
    /// out of memory): those whose run's pid no longer exists. A folder of a run still going is never touched.
    static func sweepStaleFolders(in parent: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.hasPrefix(folderPrefix) {
            let rest = name.dropFirst(folderPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                var status = stat()
                let path = parent + "/" + name
                // Only a real folder of this user's, never through a link.
                if lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR, status.st_uid == getuid() {
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
        }
    }

    private func makeFolder() -> String? {
        Self.sweepStaleFolders(in: temporaryParent)
        var template = Array((temporaryParent + "/" + Self.folderPrefix + "\(getpid())-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            stop("cannot make a temporary folder in \(temporaryParent)")
            return nil
        }
        folder = String(cString: made)
        RunLeftovers.madeFolder(String(cString: made))
        return folder
    }

    /// Makes a folder, or accepts one made before — a real folder, never a link.
    private func makeDirectory(_ path: String) -> Bool {
        if mkdir(path, 0o700) == 0 { return true }
        var status = stat()
        if errno == EEXIST, lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { return true }
        refused += 1
        return false
    }

    private func stop(_ what: String) {
        problem = "\(what): \(String(cString: strerror(errno))); the unified log is read as far as it was extracted"
        closeFile()
    }
}
