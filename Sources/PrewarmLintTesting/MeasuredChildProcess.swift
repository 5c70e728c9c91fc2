import Foundation

/// Runs a program as a child process, feeds its standard input from a closure, and reports its exit
/// status, its standard error and its own peak resident memory (from `wait4`).
///
/// Memory bounds are asserted on a child, not on the test process: Swift Testing runs tests in
/// parallel in one process, so the test process's peak RSS belongs to whichever test peaked, not to
/// the one asserting.
///
/// The child is started by a small Python launcher that waits for it: on Linux a child's `ru_maxrss`
/// starts at the resident size of the address space it was spawned from (`exec` records the old
/// mapping's high-water mark, and `posix_spawn` and `vfork` share the parent's), so a child spawned
/// straight from a test process of 300 MB reports at least 300 MB. Spawned from the launcher, it
/// inherits only the launcher's few megabytes.
///
/// ```swift
/// let run = try MeasuredChildProcess.run(binary, ["events", "-"]) { write in
///     for _ in 0..<200 { try write(chunk) }
/// }
/// #expect(run.peakResidentKilobytes < 64 * 1024)
/// ```
public enum MeasuredChildProcess {
    /// What a finished child left.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal number when a signal ended it.
        public var status: Int32
        /// The child's peak resident set size, in kilobytes.
        public var peakResidentKilobytes: Int
        /// Everything the child wrote to standard error (its standard output is discarded).
        public var standardError: String
    }

    /// Why a child could not be run.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the errno text.
        public var description: String
    }

    /// Waits for the program named by its arguments and writes its exit status and peak RSS (kilobytes)
    /// to the file named by its first argument.
    static let launcher = """
        import os, subprocess, sys
        child = subprocess.Popen(sys.argv[2:])
        _, status, usage = os.wait4(child.pid, 0)
        kilobytes = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss  # bytes on Darwin
        open(sys.argv[1], "w").write(f"{os.waitstatus_to_exitcode(status)} {kilobytes}")
        """

    /// Runs `executable` with `arguments`; `feed` writes its standard input through the function it
    /// is given, and the pipe is closed when `feed` returns.
    public static func run(_ executable: String, _ arguments: [String],
                           feed: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws -> Outcome {
        var reportTemplate = Array("/tmp/prewarm-lint-child-usage-XXXXXX".utf8CString)
        let reportFile = reportTemplate.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard reportFile >= 0 else { throw Failure(description: "mkstemp: \(String(cString: strerror(errno)))") }
        close(reportFile)
        let reportPath = reportTemplate.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(reportPath) }
        var outcome = try spawn("/usr/bin/env", ["python3", "-c", launcher, reportPath, executable] + arguments, feed: feed)
        let report = try String(contentsOfFile: reportPath, encoding: .utf8).split(separator: " ")
        guard report.count == 2, let status = Int32(report[0]), let peak = Int(report[1]) else {
            throw Failure(description: "the launcher did not report on \(executable) (exit \(outcome.status)): \(outcome.standardError)")
        }
        outcome.status = status < 0 ? 128 - status : status
        outcome.peakResidentKilobytes = peak
        return outcome
    }

    private static func spawn(_ executable: String, _ arguments: [String],
                              feed: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws -> Outcome {
        // Close-on-exec, so a child another test spawns meanwhile cannot inherit the write end and
        // keep this child's standard input open (dup2 into the child clears the flag on fd 0 and 2).
        var inputPipe: [Int32] = [0, 0]
        let piped = pipe(&inputPipe) == 0 && fcntl(inputPipe[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(inputPipe[1], F_SETFD, FD_CLOEXEC) == 0
        guard piped else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        var template = Array("/tmp/prewarm-lint-child-stderr-XXXXXX".utf8CString)
        let errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard errorFile >= 0, fcntl(errorFile, F_SETFD, FD_CLOEXEC) == 0 else { throw Failure(description: "mkstemp: \(String(cString: strerror(errno)))") }
        let errorPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(errorFile); unlink(errorPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errorFile, 2)
        posix_spawn_file_actions_addclose(&actions, inputPipe[1])

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(inputPipe[0])
        guard spawned == 0 else {
            close(inputPipe[1])
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }

        // A child that exits before reading everything must not kill the test process with SIGPIPE;
        // the write then fails with EPIPE, feeding stops, and the outcome tells what the child did.
        signal(SIGPIPE, SIG_IGN)
        var feedError: (any Error)?
        do {
            try feed { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = bytes.withUnsafeBytes { write(inputPipe[1], $0.baseAddress! + offset, bytes.count - offset) }
                    if written < 0 {
                        if errno == EINTR { continue }
                        if errno == EPIPE { throw ChildClosedInput() }
                        throw Failure(description: "writing to the child: \(String(cString: strerror(errno)))")
                    }
                    offset += written
                }
            }
        } catch is ChildClosedInput {
            // The child stopped reading: what it printed and its status say why.
        } catch {
            feedError = error
        }
        close(inputPipe[1])

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "wait4: \(String(cString: strerror(errno)))") }
        }
        if let feedError { throw feedError }

        var errorBytes: [UInt8] = []
        lseek(errorFile, 0, SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(errorFile, $0.baseAddress!, $0.count) }
            if count <= 0 { break }
            errorBytes += buffer[0..<count]
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: the macros are not imported into Swift.
        let exited = status & 0x7F == 0
        return Outcome(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
                       peakResidentKilobytes: peakKilobytes(usage),
                       standardError: String(decoding: errorBytes, as: UTF8.self))
    }

    private struct ChildClosedInput: Error {}

    private static func peakKilobytes(_ usage: rusage) -> Int {
        #if os(macOS)
        Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #else
        Int(usage.ru_maxrss)  // kilobytes on Linux
        #endif
    }
}
