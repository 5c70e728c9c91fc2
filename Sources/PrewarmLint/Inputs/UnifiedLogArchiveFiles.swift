import PrewarmLintReaders
import PrewarmLintModel
import PrewarmLintClassifier
import Synchronization
import DequeModule
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A unified log on disk, for the native reader: a `.logarchive` folder (tracev3 files under `Persist/`, `Special/`,
/// `Signpost/`, `HighVolume/`; `timesync/`; the uuidtext folders `00`…`FF` and `dsc/` at its root), or the folder
/// around a loose tracev3 file (`Diagnostics/Persist/x.tracev3` with `Diagnostics/timesync/` and a `uuidtext/` beside
/// `Diagnostics/`).
///
/// Only regular files are read, never through a symbolic link, and only by names this type makes: a folder of the
/// archive and a UUID's hexadecimal digits, so an archive cannot send the reader outside itself. Strings are read a
/// piece at a time from the files, never whole; what is kept is bounded whatever the archive holds: at most
/// ``maximumUUIDTextFiles`` uuidtext files known at once (their header and image path, a descriptor open; the first
/// known is the first forgotten, and read again when asked for), and at most ``maximumSharedCaches`` shared caches
/// (their descriptors), whose files stay open until the archive is closed.
final class UnifiedLogArchiveFiles: UnifiedLogStrings, @unchecked Sendable {
    /// The folders holding `XX/…` uuidtext files and `dsc/`.
    let stringFolders: [String]
    private let state = Mutex(State())

    private struct State {
        var uuidTexts: [UnifiedLogUUID: UUIDTextFile?] = [:]
        var uuidTextOrder: Deque<UnifiedLogUUID> = []
        var caches: [UnifiedLogUUID: SharedCacheStrings?] = [:]
        var open: [FileBytes] = []
    }

    /// The most uuidtext files known at once (a real archive holds a few hundred to two thousand; a file's entries
    /// name far fewer). Each holds a descriptor and at most ``UUIDTextFile``'s 4,096 ranges.
    static let maximumUUIDTextFiles = 512
    /// The most shared caches read (a real archive holds one per system version the device ran while it logged; each
    /// holds at most 32 MiB of ranges).
    static let maximumSharedCaches = 4

    init(stringFolders: [String]) {
        self.stringFolders = stringFolders
    }

    deinit { close() }

    /// Closes the shared caches' files.
    func close() {
        state.withLock { state in
            for file in state.open { file.close() }
            state.open = []
        }
    }

    func uuidText(_ uuid: UnifiedLogUUID) -> UUIDTextFile? {
        if let known = state.withLock({ $0.uuidTexts[uuid] }) { return known }
        let relative = UUIDTextFile.relativePath(of: uuid)
        let file = stringFolders.lazy.compactMap { folder in
            Self.isRealFolder(folder + "/" + relative.prefix(2)) ? FileBytes(path: folder + "/" + relative) : nil
        }.first
            .flatMap { file in try? UUIDTextFile(file: file, size: file.size) }
        state.withLock { state in
            guard state.uuidTexts.updateValue(file, forKey: uuid) == nil else { return }
            state.uuidTextOrder.append(uuid)
            // The first known is forgotten (its descriptor closed once no reader holds it).
            while state.uuidTextOrder.count > Self.maximumUUIDTextFiles, let oldest = state.uuidTextOrder.popFirst() {
                state.uuidTexts[oldest] = nil
            }
        }
        return file
    }

    func sharedCache(_ uuid: UnifiedLogUUID) -> SharedCacheStrings? {
        if let known = state.withLock({ $0.caches[uuid] }) { return known }
        let name = String(uuid.description.filter { $0 != "-" })
        var cache: SharedCacheStrings?
        let room = state.withLock { $0.caches.values.lazy.filter { $0 != nil }.count < Self.maximumSharedCaches }
        for folder in stringFolders where room && Self.isRealFolder(folder + "/dsc") {
            guard let file = FileBytes(path: folder + "/dsc/" + name) else { continue }
            cache = try? SharedCacheStrings(file: file)
            if cache != nil { state.withLock { $0.open.append(file) } } else { file.close() }
            break
        }
        state.withLock { state in
            // A shared cache the archive lacks is remembered too, up to a bound: past it, it is looked for again.
            if cache != nil || state.caches.count < 4_096 { state.caches[uuid] = .some(cache) }
        }
        return cache
    }

    // MARK: Finding the files

    /// The folders of an archive's tracev3 files, in the order they are read.
    static let tracev3Folders = ["Persist", "Special", "Signpost", "HighVolume"]

    /// The tracev3 files of the archive at `root`: its folders' files, then the root's own, each folder's in name order.
    static func tracev3Files(archive root: String) -> [String] {
        (tracev3Folders.map { root + "/" + $0 }.filter(isRealFolder) + [root]).flatMap { folder in
            regularFiles(in: folder).filter { $0.hasSuffix(".tracev3") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .map { folder + "/" + $0 }
        }
    }

    /// Every boot of the timesync files in `folders` (the first that has any).
    static func timesync(in folders: [String]) -> TimesyncDatabase {
        var database = TimesyncDatabase()
        for folder in folders where isRealFolder(folder) {
            for name in regularFiles(in: folder).filter({ $0.hasSuffix(".timesync") }).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                if let bytes = readWhole(folder + "/" + name, limit: 64 << 20), let file = try? TimesyncDatabase(bytes: bytes) {
                    database.boots += file.boots
                }
            }
            if !database.boots.isEmpty { break }
        }
        return database
    }

    /// What an archive folder is read with: its strings at its root (a `.logarchive`) or in a `uuidtext` folder in it,
    /// or beside it when it is a device's `Diagnostics` folder (`/private/var/db/uuidtext` beside
    /// `/private/var/db/Diagnostics`); its timesync folder; and the processes a launch needs. Nothing else outside it.
    static func context(archive root: String, allProcesses: Bool, since: TimeBound? = nil, until: TimeBound? = nil)
        -> (context: UnifiedLogContext, files: UnifiedLogArchiveFiles) {
        var stringFolders = [root, root + "/uuidtext"]
        if lastComponent(root) == "Diagnostics" { stringFolders.append(root + "/../uuidtext") }
        let files = UnifiedLogArchiveFiles(stringFolders: stringFolders.filter { $0 == root || isRealFolder($0) })
        // (A `Diagnostics/` inside: a device's `/private/var/db` named; itself a folder, never a link.)
        let timesync = timesync(in: [root + "/timesync"] + (isRealFolder(root + "/Diagnostics") ? [root + "/Diagnostics/timesync"] : []))
        return (UnifiedLogContext(strings: files, timesync: timesync, choice: allProcesses ? .all : launchProcesses,
                                  window: window(since: since, until: until)), files)
    }

    /// The context of a tracev3 file named alone: the archive around its folder when that folder is one of an
    /// archive's (`Persist/` in a `.logarchive`, or in a device's `Diagnostics/`), else its own folder (loose files
    /// with their `uuidtext` folders and `timesync` beside them). Never a folder above the archive's.
    static func context(aroundFile path: String, allProcesses: Bool, since: TimeBound? = nil, until: TimeBound? = nil)
        -> (context: UnifiedLogContext, files: UnifiedLogArchiveFiles) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let folder = parts.isEmpty ? "." : parts.joined(separator: "/").isEmpty ? "/" : parts.joined(separator: "/")
        if let last = parts.last, tracev3Folders.contains(String(last)) {
            let above = parts.dropLast()
            let archive = above.isEmpty ? "." : above.joined(separator: "/").isEmpty ? "/" : above.joined(separator: "/")
            return context(archive: archive, allProcesses: allProcesses, since: since, until: until)
        }
        let files = UnifiedLogArchiveFiles(stringFolders: [folder] + [folder + "/uuidtext"].filter(isRealFolder))
        let timesync = timesync(in: [folder + "/timesync"])
        return (UnifiedLogContext(strings: files, timesync: timesync, choice: allProcesses ? .all : launchProcesses,
                                  window: window(since: since, until: until)), files)
    }

    /// How far outside its catalog's time range a chunkset's entries are allowed to lie before `--since`/`--until` rule
    /// it out: a day, so a clock the device stepped while it logged cannot drop an entry the window keeps (every entry
    /// of the real files lies inside its range).
    static let windowMargin: Int64 = 86_400_000_000

    /// Whether a chunkset's entries, between `first` and `last`, may include one `--since`/`--until` keep; nil without
    /// a window.
    static func window(since: TimeBound?, until: TimeBound?) -> (@Sendable (LogTimestamp, LogTimestamp) -> Bool)? {
        guard since != nil || until != nil else { return nil }
        return { first, last in
            func shifted(_ time: LogTimestamp, by microseconds: Int64) -> LogTimestamp {
                LogTimestamp(microsecondsSinceEpoch: time.microsecondsSinceEpoch.addingReportingOverflow(microseconds).overflow
                                 ? time.microsecondsSinceEpoch : time.microsecondsSinceEpoch + microseconds,
                             utcOffsetSeconds: time.utcOffsetSeconds, text: time.text)
            }
            if let since, since.compare(shifted(last, by: windowMargin)) < 0 { return false }
            if let until, until.compare(shifted(first, by: -windowMargin)) > 0 { return false }
            return true
        }
    }

    /// The last component of a path (`Diagnostics` of `/private/var/db/Diagnostics/`).
    private static func lastComponent(_ path: String) -> Substring? {
        path.split(separator: "/").last
    }

    /// Whether `path` is a folder itself, not a symbolic link to one: an archive's own folders are read only so.
    static func isRealFolder(_ path: String) -> Bool {
        var status = stat()
        return FileSystemName.withPlatformPath(path, { lstat($0, &status) }) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// When a tracev3 file began, by its header (wall-clock microseconds since 1970); nil when its first chunk is not a
    /// header that reads.
    static func startMicroseconds(of path: String) -> Int64? {
        guard let file = FileBytes(path: path) else { return nil }
        defer { file.close() }
        let head = file.bytes(at: 0, count: 16)
        guard head.count == 16 else { return nil }
        let size = head[8..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard head[0] == 0x00, head[1] == 0x10, size <= 4096 else { return nil }
        let payload = file.bytes(at: 16, count: size)
        let header = try? payload.withUnifiedLogBytes { (bytes: UnsafeRawBufferPointer) throws(UnifiedLogError) in try TraceHeader(payload: bytes, at: 0) }
        guard let header, header.wallSeconds < UInt64(Int64.max / 2_000_000) else { return nil }
        return Int64(header.wallSeconds) * 1_000_000 + Int64(header.wallNanoseconds / 1_000)
    }

    /// The processes a launch needs: the launch daemons the classifier knows by name, the kernel (memorystatus), and
    /// every app.
    static let launchProcesses = UnifiedLogProcessChoice.named(
        ["dasd", "runningboardd", "assertiond", "SpringBoard", "securityd", "kernel", "backboardd"], apps: true)

    // MARK: File access

    private static func regularFiles(in folder: String) -> [String] {
        guard let handle = FileSystemName.withPlatformPath(folder, { opendir($0) }) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in FileSystemName.decoded(raw.prefix { $0 != 0 }) }
            guard !name.hasPrefix(".") else { continue }
            var status = stat()
            if FileSystemName.withPlatformPath(folder + "/" + name, { lstat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                names.append(name)
            }
        }
        return names
    }

    /// A regular file's bytes (not through a symbolic link), at most `limit` of them; nil when it is not there or larger.
    static func readWhole(_ path: String, limit: Int) -> [UInt8]? {
        guard let file = FileBytes(path: path) else { return nil }
        defer { file.close() }
        guard file.size <= limit else { return nil }
        let bytes = file.bytes(at: 0, count: file.size)
        return bytes.count == file.size ? bytes : nil
    }
}

/// A regular file read where asked (`pread`), opened without following a symbolic link.
final class FileBytes: UnifiedLogFileBytes, @unchecked Sendable {
    private let descriptor = Atomic<Int32>(-1)
    let size: Int

    init?(path: String) {
        // Without blocking: a FIFO (or a device) named like a strings or tracev3 file would wait forever in open();
        // it is refused below as not a regular file.
        let opened = FileSystemName.withPlatformPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        guard opened >= 0 else { return nil }
        var status = stat()
        guard fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            closeDescriptor(opened)
            return nil
        }
        size = Int(status.st_size)
        descriptor.store(opened, ordering: .relaxed)
    }

    deinit { close() }

    func close() {
        let old = descriptor.exchange(-1, ordering: .relaxed)
        if old >= 0 { closeDescriptor(old) }
    }

    func bytes(at offset: Int, count: Int) -> [UInt8] {
        let fd = descriptor.load(ordering: .relaxed)
        guard fd >= 0, offset >= 0, offset < size, count > 0 else { return [] }
        let wanted = min(count, size - offset)
        var result = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let got = result.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, wanted - done, off_t(offset + done)) }
            if got <= 0 { break }
            done += got
        }
        result.removeSubrange(done...)
        return result
    }
}

/// `close(2)`, named apart from the types' own `close()`.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
