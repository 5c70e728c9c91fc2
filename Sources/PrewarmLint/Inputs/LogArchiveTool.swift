import Foundation
import PrewarmLintModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The program that turns a unified log archive (`.logarchive`, binary tracev3 — a sysdiagnose's
/// `system_logs.logarchive`) into text prewarm-lint reads, run with its output streamed into the reader.
///
/// Written by hand, not a library: the archive's format is Apple's, and the two readers of it people have are
/// programs — Apple's `log` on macOS and mandiant's `unifiedlog_iterator` (github.com/mandiant/macos-UnifiedLogs)
/// anywhere. The contract with either: the arguments below, newline-delimited JSON on standard output (read as it
/// comes, never stored), messages on standard error (passed through to the user's terminal), exit status 0 for
/// success — anything else makes the input unreadable, with what was read before it kept.
public struct LogArchiveTool: Sendable, Hashable {
    /// Which program, and so which arguments.
    public enum Kind: String, Sendable, Hashable {
        /// Apple's `log show --archive PATH --style ndjson --predicate …` (macOS).
        case appleLog = "log"
        /// `unifiedlog_iterator --mode log-archive --input PATH --format jsonl`.
        case unifiedLogIterator = "unifiedlog_iterator"
    }

    /// Which program.
    public var kind: Kind
    /// Its path.
    public var executable: String

    /// A tool.
    public init(kind: Kind, executable: String) {
        self.kind = kind
        self.executable = executable
    }

    /// The lines `log show` keeps: the daemons that log launches, and the app lines the rules read (keychain and
    /// data-protection errors, launch callbacks, application state) — the archive holds days of every process.
    public static let predicate = #"process IN {"runningboardd", "assertiond", "SpringBoard", "dasd", "securityd", "kernel"}"#
        + #" OR messageType IN {error, fault} OR eventMessage CONTAINS[c] "prewarm" OR eventMessage CONTAINS "-25308""#
        + #" OR eventMessage CONTAINS "didFinishLaunching" OR eventMessage CONTAINS "applicationState" OR eventMessage CONTAINS "willConnectTo""#

    /// The arguments for `archive`. `log show` is given `--start`/`--end` from `--since`/`--until` so that it
    /// exports only the window (an archive holds days); the exact window is still applied to what it writes, so
    /// these only have to cover it. `unifiedlog_iterator` has no such options:
    /// its whole output is read and filtered.
    public func arguments(archive: String, since: TimeBound? = nil, until: TimeBound? = nil) -> [String] {
        switch kind {
        case .appleLog:
            var arguments = ["show", "--archive", archive, "--style", "ndjson", "--info", "--predicate", Self.predicate]
            if let since { arguments += ["--start", Self.exportBound(since, widenedBy: -1)] }
            if let until { arguments += ["--end", Self.exportBound(until, widenedBy: 1)] }
            return arguments
        case .unifiedLogIterator:
            return ["--mode", "log-archive", "--input", archive, "--format", "jsonl"]
        }
    }

    /// A bound as `log show` takes it (`2024-03-18 06:02:11+0000`, whole seconds, in UTC). A bound with an offset
    /// is that instant, rounded outwards to the second; a wall-clock bound (no offset: each line's own offset
    /// decides) could be any instant 14 hours either side of the same reading in UTC (offsets run from -12:00 to
    /// +14:00), so it is widened by 14 hours outwards: `direction` -1 for a start, 1 for an end.
    static func exportBound(_ bound: TimeBound, widenedBy direction: Int64) -> String {
        var instant = bound.civil.microsecondsSinceEpoch(utcOffsetSeconds: bound.offsetSeconds ?? 0)
        if bound.offsetSeconds == nil { instant += direction * 14 * 3_600_000_000 }
        // Outwards to the whole second: the floor for a start, the ceiling for an end.
        var seconds = instant / 1_000_000
        let rest = instant - seconds * 1_000_000
        if rest < 0, direction < 0 { seconds -= 1 }
        if rest > 0, direction > 0 { seconds += 1 }
        let civil = CivilDateTime(microsecondsSinceEpoch: seconds * 1_000_000, utcOffsetSeconds: 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(civil.year)-\(two(civil.month))-\(two(civil.day)) \(two(civil.hour)):\(two(civil.minute)):\(two(civil.second))+0000"
    }

    /// The command a person would run, for messages.
    public func commandLine(archive: String, since: TimeBound? = nil, until: TimeBound? = nil) -> String {
        ([executable] + arguments(archive: archive, since: since, until: until))
            .map { $0.contains(" ") || $0.contains("\"") ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    /// The tool to use: `PREWARM_LINT_LOG_TOOL` (a program taking `log`'s arguments) or
    /// `PREWARM_LINT_UNIFIEDLOG_ITERATOR` when set, else `log` on macOS, else `unifiedlog_iterator` on the `PATH`.
    public static func find(environment: [String: String]? = nil) -> LogArchiveTool? {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let path = environment["PREWARM_LINT_LOG_TOOL"], !path.isEmpty { return LogArchiveTool(kind: .appleLog, executable: path) }
        if let path = environment["PREWARM_LINT_UNIFIEDLOG_ITERATOR"], !path.isEmpty {
            return LogArchiveTool(kind: .unifiedLogIterator, executable: path)
        }
        #if canImport(Darwin)
        if access("/usr/bin/log", X_OK) == 0 { return LogArchiveTool(kind: .appleLog, executable: "/usr/bin/log") }
        #endif
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/unifiedlog_iterator"
            // An executable regular file: a folder of that name earlier on PATH (searchable, so "executable") is not it.
            var status = stat()
            if access(candidate, X_OK) == 0, stat(candidate, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                return LogArchiveTool(kind: .unifiedLogIterator, executable: candidate)
            }
        }
        return nil
    }

    /// What to do when no tool is installed.
    public static let installHint = "no exporter of unified log archives is installed: on macOS `log` exports them; elsewhere install "
        + "mandiant's unifiedlog_iterator (github.com/mandiant/macos-UnifiedLogs) — or leave out --exporter: prewarm-lint reads them itself"

    /// Whether the directory `path` is a log archive: named `*.logarchive`, or holding a `timesync/` folder and one of
    /// `Persist/`, `Special/`, `Signpost/`, `HighVolume/` (a device's `Diagnostics` folder).
    static func isArchive(_ path: String) -> Bool {
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix(".logarchive") { return true }
        // A folder of an archive's shape, whatever its name: a device's `Diagnostics` folder, or an archive renamed.
        return UnifiedLogArchiveFiles.isRealFolder(path + "/timesync")
            && UnifiedLogArchiveFiles.tracev3Folders.contains { UnifiedLogArchiveFiles.isRealFolder(path + "/" + $0) }
    }

    /// Starts the tool on `archive` with its standard output on a pipe: the pipe's read end and the child's pid,
    /// or why it could not start.
    func start(archive: String, since: TimeBound? = nil, until: TimeBound? = nil) -> Result<(descriptor: Int32, pid: pid_t), LogArchiveToolError> {
        start(arguments: arguments(archive: archive, since: since, until: until))
    }

    /// The first `unifiedlog_iterator` that reads iOS 27 archives (their chunksets compressed with LZBITMAP).
    public static let iOS27IteratorVersion = [0, 7, 0]

    /// What to say of the tool's version before it reads an archive: for `unifiedlog_iterator`, that it is older than
    /// ``iOS27IteratorVersion`` (an iOS 27 archive then loses entries), or that it did not say its version; nil when it
    /// is recent enough, or for Apple's `log`. Asks `--version`, waiting at most ``versionWait``.
    func versionWarning() -> String? {
        guard kind == .unifiedLogIterator, case .success(let started) = start(arguments: ["--version"]) else { return nil }
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        let deadline = ContinuousClock.now + Self.versionWait
        while said.count < 256, ContinuousClock.now < deadline {
            var ready = pollfd(fd: started.descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 50)
            if polled < 0, errno != EINTR { break }
            if polled <= 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(started.descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            said += buffer[0..<count]
        }
        close(started.descriptor)
        _ = Self.reapIfExited(started.pid) ?? Self.stop(started.pid)
        let minimum = Self.iOS27IteratorVersion.map(String.init).joined(separator: ".")
        guard let version = Self.version(in: String(decoding: said.prefix(256), as: UTF8.self)) else {
            return "unifiedlog_iterator did not say its version (`--version`): one older than \(minimum) reads no iOS 27 archive whole (LZBITMAP chunksets); install \(minimum) or later"
        }
        guard version.lexicographicallyPrecedes(Self.iOS27IteratorVersion) else { return nil }
        return "unifiedlog_iterator \(version.map(String.init).joined(separator: ".")) is older than \(minimum), the first to read iOS 27 archives (LZBITMAP chunksets): an iOS 27 archive loses entries with it; install \(minimum) or later"
    }

    /// How long `--version` may take.
    static let versionWait: Duration = .seconds(5)

    /// The last `major.minor.patch` in what a tool said of its version (`unifiedlog_iterator 0.5.0`).
    static func version(in text: String) -> [Int]? {
        let words = text.split { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        for word in words.reversed() {
            let parts = word.drop { $0 == "v" }.split(separator: ".", omittingEmptySubsequences: false)
            let numbers = parts.compactMap { part in part.count <= 6 && part.allSatisfy(\.isASCII) ? Int(part) : nil }
            if parts.count == 3, numbers.count == 3 { return numbers }
        }
        return nil
    }

    /// Starts the tool with `arguments`, its standard output on a pipe.
    private func start(arguments: [String]) -> Result<(descriptor: Int32, pid: pid_t), LogArchiveToolError> {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return .failure(LogArchiveToolError(message: "cannot make a pipe: \(String(cString: strerror(errno)))")) }
        // The read end is the run's alone: no other tool started meanwhile inherits it.
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        let argv = [executable] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        // In a process group of its own, signals at their defaults: the run stops the tool and whatever it started
        // with one `killpg`, and a terminal's Ctrl-C reaches the run, which stops it, rather than the tool directly.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, environ)
        close(pipeEnds[1])
        guard status == 0 else {
            close(pipeEnds[0])
            return .failure(LogArchiveToolError(message: "cannot run \(executable): \(String(cString: strerror(status)))"))
        }
        RunLeftovers.startedProcessGroup(pid)
        return .success((pipeEnds[0], pid))
    }

    /// How long a tool asked to stop (SIGTERM to its process group) has before its group is killed.
    static let stopGrace: Duration = .seconds(5)

    /// Stops a tool started by ``start(archive:since:until:)``: SIGTERM to its process group, SIGKILL to the group when
    /// it has not exited ``stopGrace`` later; its exit status as ``wait(_:)`` gives it.
    static func stop(_ pid: pid_t) -> Int32 {
        killpg(pid, SIGTERM)
        let deadline = ContinuousClock.now + stopGrace
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                killpg(pid, SIGKILL)  // what it started and left behind
                RunLeftovers.endedProcessGroup(pid)
                return exitStatus(status)
            }
            if done < 0, errno != EINTR { return -1 }
            usleep(20_000)
        }
        killpg(pid, SIGKILL)
        return wait(pid)
    }

    /// Whether the tool has exited (it is then reaped: ``wait(_:)`` is not called again); its status if so. Whatever
    /// it started and left holding the pipe is killed with its group, so that the pipe's end comes.
    static func reapIfExited(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        killpg(pid, SIGKILL)
        RunLeftovers.endedProcessGroup(pid)
        return exitStatus(status)
    }

    /// Waits for the child; its exit status, or the signal that ended it as 128 + signal. What it started and left
    /// running is killed with its process group: nothing the run started outlives it.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        killpg(pid, SIGKILL)
        RunLeftovers.endedProcessGroup(pid)
        return exitStatus(status)
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        if status & 0x7F == 0 { return (status >> 8) & 0xFF }
        return 128 + (status & 0x7F)
    }
}

/// Why a log archive's tool could not run.
struct LogArchiveToolError: Error {
    var message: String
}
