import Foundation
import Testing

/// `lint --follow`: the built binary fed by a writer that replays a log slowly and keeps the pipe open, its output read
/// as it comes.
@Suite("prewarm-lint --follow")
struct FollowCommandTests {
    static let scenarios = EventsCommandTests.repositoryRoot.appendingPathComponent("Corpus/scenarios")
    static let realLogs = EventsCommandTests.repositoryRoot.appendingPathComponent("Corpus/real-logs")

    /// A running `prewarm-lint --follow`, its standard output read line by line as it comes, each line with when it came.
    final class LiveTool: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        private let output = Pipe()
        private let errorFile: URL
        private let lock = NSLock()
        private var lines: [(time: Date, text: String)] = []
        private var reader: Thread?

        init(_ arguments: [String]) throws {
            errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-follow-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.executableURL = EventsCommandTests.binary
            process.arguments = ["lint", "--follow"] + arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
            let handle = output.fileHandleForReading
            let thread = Thread { [self] in
                var pending = Data()
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    pending.append(data)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        lock.lock()
                        lines.append((Date(), line))
                        lock.unlock()
                    }
                }
            }
            reader = thread
            thread.start()
        }

        deinit { try? FileManager.default.removeItem(at: errorFile) }

        func write(_ line: Data) {
            input.fileHandleForWriting.write(line)
        }

        /// The lines printed so far.
        var printed: [(time: Date, text: String)] {
            lock.lock()
            defer { lock.unlock() }
            return lines
        }

        /// Waits until a printed line satisfies `matches`, at most `timeout` seconds; when it came.
        func waitFor(timeout: TimeInterval, _ matches: (String) -> Bool) -> Date? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let found = printed.first(where: { matches($0.text) }) { return found.time }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return nil
        }

        /// Ends the run by closing its input (`close: true`) or by `signal`; its exit status and standard error.
        func end(closing: Bool = true, signal: Int32 = SIGINT) throws -> (status: Int32, stderr: String) {
            if closing { try input.fileHandleForWriting.close() } else { kill(process.processIdentifier, signal) }
            process.waitUntilExit()
            while reader?.isFinished == false { Thread.sleep(forTimeInterval: 0.01) }
            // (Removed here: the reader thread holds the tool, so its deinit may never come.)
            defer { try? FileManager.default.removeItem(at: errorFile) }
            return (process.terminationStatus, String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
        }
    }

    /// The lines of a log, each with its line break.
    static func lines(of url: URL) throws -> [Data] {
        let bytes = try Data(contentsOf: url)
        var lines: [Data] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.endIndex
            lines.append(bytes[start..<end])
            start = end
        }
        return lines
    }

    /// The target: a finding within 1 s of its deciding line. The test fails only at ten times that.
    static let latencyBound: TimeInterval = 10

    @Test("a finding decided at its line is printed within a second of the line, while the pipe stays open")
    func findingSoonAfterItsLine() throws {
        let log = Self.scenarios.appendingPathComponent("prewarm-then-launch-scene-app/log.ndjson")
        let tool = try LiveTool(["--format", "ndjson", "--date", "2024-03-18", "-"])
        var written: [Int: Date] = [:]
        for (index, line) in try Self.lines(of: log).enumerated() {
            tool.write(line)
            written[index + 1] = Date()
            Thread.sleep(forTimeInterval: 0.1)
        }
        // The pipe stays open: the keychain failure (line 7) must not wait for its end.
        let arrived = try #require(tool.waitFor(timeout: Self.latencyBound) { $0.contains("\"rule\":\"keychain-while-locked\"") },
                                   "no keychain-while-locked finding while the pipe was open: \(tool.printed.map(\.text))")
        let latency = arrived.timeIntervalSince(try #require(written[7]))
        #expect(latency < Self.latencyBound, "printed \(latency) s after its line")
        let record = try #require(tool.printed.first { $0.text.contains("\"rule\":\"keychain-while-locked\"") }?.text)
        let finding = try #require(try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
        #expect((finding["location"] as? [String: Any])?["line"] as? Int == 7)
        #expect(finding["pid"] as? Int == 2231)
        let end = try tool.end()
        #expect(end.status == 1)
        // Each finding once; the session's record at its close holds them all in their final words.
        let texts = tool.printed.map(\.text)
        #expect(texts.filter { $0.contains("\"rule\":\"keychain-while-locked\"") && !$0.hasPrefix("{\"session\"") }.count == 1)
        let session = try #require(texts.first { $0.hasPrefix("{\"session\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(session.utf8)) as? [String: Any])
        #expect((object["session"] as? [String: Any])?["kind"] as? String == "prewarm-then-launch")
        #expect((object["findings"] as? [Any])?.count == 4)
    }

    @Test("a real Console copy: the keychain failure is printed before the input ends, and Ctrl-C ends the run with the findings' status")
    func realConsoleCopyThenCtrlC() throws {
        let log = Self.realLogs.appendingPathComponent("03-salesforce3437-securityd-25308-keychain-locked.log")
        let tool = try LiveTool(["-"])
        for line in try Self.lines(of: log) {
            tool.write(line)
            Thread.sleep(forTimeInterval: 0.05)
        }
        let arrived = tool.waitFor(timeout: Self.latencyBound) { $0.contains("[keychain-while-locked]") }
        #expect(arrived != nil, "\(tool.printed.map(\.text))")
        let end = try tool.end(closing: false, signal: SIGINT)
        #expect(end.status == 1, "Ctrl-C is a live run's normal end: \(end.stderr)")
        #expect(end.stderr.contains("1 finding (1 error) in 1 session"), "\(end.stderr)")
        #expect(!end.stderr.contains("interrupted"))
    }

    @Test("SIGTERM or SIGHUP during --follow: the summary marked partial, the format's interrupted marker, exit 128 + the signal",
          arguments: [(SIGTERM, "text"), (SIGHUP, "ndjson"), (SIGTERM, "github")])
    func terminatedWhileFollowing(signal: Int32, format: String) throws {
        let log = Self.scenarios.appendingPathComponent("prewarm-then-launch-scene-app/log.txt")
        let tool = try LiveTool(["--format", format, "--date", "2024-03-18", "-"])
        for line in try Self.lines(of: log) { tool.write(line) }
        // The pipe stays open: the keychain failure's finding, printed as it came, shows the lines were read (GitHub's
        // annotations, which cannot be corrected, wait for their session's close: time to read them instead).
        if format == "github" {
            Thread.sleep(forTimeInterval: 1.5)
        } else {
            #expect(tool.waitFor(timeout: Self.latencyBound) { $0.contains("keychain-while-locked") } != nil)
        }
        let end = try tool.end(closing: false, signal: signal)
        #expect(end.status == 128 + signal, "\(end.stderr)")
        #expect(end.stderr.contains("interrupted: the output covers what was read until then"), "\(end.stderr)")
        let printed = tool.printed.map(\.text)
        switch format {
        case "ndjson": #expect(printed.last == "{\"error\":\"interrupted\",\"message\":\"the results cover what was read until then\"}")
        case "github":
            #expect(printed.last?.hasPrefix("::error title=prewarm-lint%3A interrupted::") == true, "\(printed)")
            #expect(printed.contains { $0.contains("title=keychain-while-locked (com.example.ledger#1)") }, "the open session closed at the end: \(printed)")
        default: #expect(end.stderr.contains("interrupted: partial report"), "\(end.stderr)")
        }
    }

    @Test("a session that ended is closed, with its finding, while the pipe stays open")
    func endedSessionClosesWhileOpen() throws {
        let log = Self.scenarios.appendingPathComponent("prewarm-unused-jetsam/log.ndjson")
        let tool = try LiveTool(["--format", "ndjson", "--date", "2024-03-18", "-"])
        for line in try Self.lines(of: log) { tool.write(line) }
        let closed = tool.waitFor(timeout: Self.latencyBound) { $0.hasPrefix("{\"session\"") && $0.contains("prewarm-unused") }
        #expect(closed != nil, "\(tool.printed.map(\.text))")
        #expect(tool.printed.contains { $0.text.contains("\"rule\":\"prewarm-wasted\"") })
        _ = try tool.end()
    }

    /// Real captures of each format a device's log streams in (provenance in `Corpus/real-logs/PROVENANCE.md`).
    static let streamedRealLogs = [
        "03-salesforce3437-securityd-25308-keychain-locked.log",      // Console copy
        "44-juniper-ios26-full-cold-launch-first-screen-1859bad.log", // Console copy, 1,307 lines
        "14-macios10086-idevicesyslog-ipad-bootstrap-success.log",    // idevicesyslog
        "22-nativescript8920-idevicesyslog-icon-tap-indented.log",    // idevicesyslog
        "32-blockblock1-macos-log-show-default-wrapped.log",          // log show, wrapped multi-line messages
        "35-offsider-ndjson-springboard-sending-launch-request.log",  // log stream --style ndjson
        "40-flumeng16-xcode-console-rbs-assertion-errors.log",        // Xcode's console
    ]

    @Test("a real capture replayed slowly, with pauses, gives the summary and findings of the same file linted whole",
          arguments: streamedRealLogs)
    func realCaptureReplayed(name: String) throws {
        let log = Self.realLogs.appendingPathComponent(name)
        let pinned = ["--date", "2024-03-18", "--year", "2024", "--utc-offset", "+00:00"]
        let batch = try EventsCommandTests.run(["lint"] + pinned + ["-"], stdin: Data(contentsOf: log))
        let tool = try LiveTool(pinned + ["-"])
        let lines = try Self.lines(of: log)
        for (index, line) in lines.enumerated() {
            tool.write(line)
            // A pause longer than the quiet period now and then, at a line's end; a short gap otherwise.
            Thread.sleep(forTimeInterval: index % (lines.count > 200 ? 150 : 7) == 6 ? 0.35 : lines.count > 200 ? 0.0005 : 0.02)
        }
        let end = try tool.end()
        #expect(end.status == batch.status, "\(end.stderr)")
        // The same findings (`-:line: severity: [rule]`), each given once or more as it was decided; the same summary.
        func findings(_ lines: [String]) -> Set<String> {
            Set(lines.filter { $0.hasPrefix("-:") && $0.contains(": [") }.map { String($0.prefix { $0 != "]" }) })
        }
        #expect(findings(tool.printed.map(\.text)) == findings(batch.stdout.split(separator: "\n").map(String.init)))
        #expect(end.stderr.split(separator: "\n").last == batch.stderr.split(separator: "\n").last, "\(end.stderr)")
    }

    /// The resident memory of a process, in MB (Linux's /proc).
    static func residentMegabytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes / 1024
    }

    @Test("a stream that never ends a line, then pauses: bounded memory, and Ctrl-C ends it at once with the findings")
    func hostileStreamThenCtrlC() throws {
        let tool = try LiveTool(["-"])
        for line in try Self.lines(of: Self.realLogs.appendingPathComponent("03-salesforce3437-securityd-25308-keychain-locked.log")) {
            tool.write(line)
        }
        // 64 MiB with no line break, then nothing: the writer keeps the pipe open.
        let endless = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<64 { tool.write(endless) }
        Thread.sleep(forTimeInterval: 0.5)
        let resident = try #require(Self.residentMegabytes(tool.process.processIdentifier))
        #expect(resident < 200, "\(resident) MB resident after a 64 MiB line")
        let asked = Date()
        let end = try tool.end(closing: false, signal: SIGINT)
        #expect(Date().timeIntervalSince(asked) < Self.latencyBound, "Ctrl-C took \(Date().timeIntervalSince(asked)) s")
        #expect(end.status == 1, "\(end.stderr)")
        #expect(end.stderr.contains("line-too-long"), "\(end.stderr)")
        #expect(end.stderr.contains("1 finding (1 error)"), "\(end.stderr)")
    }

    @Test("formats that are documents of every session, and options that need the whole run, are refused with --follow")
    func refusedCombinations() throws {
        for (arguments, expected) in [(["--format", "json"], "--format json is a document of every session"),
                                      (["--output", "json=/tmp/x.json"], "--output cannot be used with --follow"),
                                      (["--separately"], "--separately cannot be used with --follow"),
                                      (["--since", "2024-03-18 07:00:00"], "--since cannot be used with --follow"),
                                      (["a.log", "b.log"], "--follow reads one input as it arrives")] {
            let run = try EventsCommandTests.run(["lint", "--follow"] + arguments + (arguments.contains("a.log") ? [] : ["-"]), stdin: Data())
            #expect(run.status == 64, "\(arguments): \(run.status)")
            #expect(run.stderr.contains(expected), "\(arguments): \(run.stderr)")
        }
    }

    @Test("an empty standard input is said to be empty, exit 2")
    func emptyInput() throws {
        let run = try EventsCommandTests.run(["lint", "--follow", "-"], stdin: Data())
        #expect(run.status == 2)
        #expect(run.stderr.contains("-: error: standard input is empty"), "\(run.stderr)")
    }

    @Test("behind the installed idevicesyslog with no device: its own error, then standard input is empty, exit 2",
          .enabled(if: InstalledTools.runs("idevicesyslog", package: "libimobiledevice-utils")))
    func idevicesyslogWithoutADevice() throws {
        // Debian's libimobiledevice-utils (`.ci/run` installs it): with no device it prints its error and writes nothing.
        let run = try EventsCommandTests.run(["-c", "idevicesyslog | \"$0\" lint --follow -", EventsCommandTests.binary.path],
                                             executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.stderr.contains("No device found"), "\(run.stderr)")
        #expect(run.stderr.contains("-: error: standard input is empty"), "\(run.stderr)")
        #expect(run.status == 2)
    }

    @Test("a followed file is read as it grows and across rotation, as tail -F does")
    func followsAFileAcrossRotation() throws {
        let folder = try LintCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("device.log")
        let lines = try Self.lines(of: Self.scenarios.appendingPathComponent("prewarm-then-launch-scene-app/log.ndjson"))
        try lines.prefix(3).reduce(Data(), +).write(to: path)
        let tool = try LiveTool(["--format", "ndjson", "--date", "2024-03-18", path.path])
        Thread.sleep(forTimeInterval: 0.3)
        let appending = try FileHandle(forWritingTo: path)
        appending.seekToEndOfFile()
        appending.write(lines[3..<8].reduce(Data(), +))
        try appending.close()
        #expect(tool.waitFor(timeout: Self.latencyBound) { $0.contains("\"rule\":\"keychain-while-locked\"") } != nil,
                "\(tool.printed.map(\.text))")
        // Rotated: the old file moved aside, a new one under the name with the rest.
        try FileManager.default.moveItem(at: path, to: folder.appendingPathComponent("device.log.1"))
        try lines[8...].reduce(Data(), +).write(to: path)
        Thread.sleep(forTimeInterval: 0.5)
        let end = try tool.end(closing: false, signal: SIGINT)
        #expect(end.status == 1, "\(end.stderr)")
        let session = try #require(tool.printed.last { $0.text.hasPrefix("{\"session\"") }?.text, "\(tool.printed.map(\.text))")
        #expect(session.contains("\"kind\":\"prewarm-then-launch\""), "the rotated file's lines joined the session: \(session)")
    }

    @Test("a followed file's name swapped for a symlink to /dev/zero, then a file again: the swap said and waited out, not read; the file read")
    func nameSwappedForADevice() throws {
        let folder = try LintCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("device.log")
        let log = Self.scenarios.appendingPathComponent("prewarm-then-launch-scene-app/log.txt")
        try Data("a first line of no log\n".utf8).write(to: path)
        let tool = try LiveTool(["--date", "2024-03-18", path.path])
        Thread.sleep(forTimeInterval: 0.3)
        try FileManager.default.moveItem(at: path, to: folder.appendingPathComponent("device.log.1"))
        try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: "/dev/zero")
        // Time to spin on zeros, were they read.
        Thread.sleep(forTimeInterval: 1)
        let cpu = Self.cpuSeconds(tool.process.processIdentifier)
        try FileManager.default.removeItem(at: path)
        try FileManager.default.copyItem(at: log, to: path)
        #expect(tool.waitFor(timeout: Self.latencyBound) { $0.contains("[keychain-while-locked]") } != nil, "\(tool.printed.map(\.text))")
        let end = try tool.end(closing: false, signal: SIGINT)
        #expect(end.status == 1, "\(end.stderr)")
        #expect(end.stderr.contains("device.log now names a character device, not a file: waiting for a file under the name [followed-input]"), "\(end.stderr)")
        // Waiting is sleeping: the run's CPU so far (start-up included) well under the second a spin would take.
        let seconds = try #require(cpu)
        #expect(seconds < 0.9, "\(seconds) s of CPU")
    }

    /// The CPU time (user and system) process `pid` has used, from `/proc`.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test("a followed file rewritten in place between two looks is read again from its start, said; a storm of rotations is said, with what it cannot read")
    func rewriteAndRotationStormSaid() throws {
        let folder = try LintCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("device.log")
        let log = try Data(contentsOf: Self.scenarios.appendingPathComponent("prewarm-then-launch-scene-app/log.txt"))
        try Data(String(repeating: "a line of no log\n", count: 60).utf8).write(to: path)
        let tool = try LiveTool(["--date", "2024-03-18", path.path])
        Thread.sleep(forTimeInterval: 0.5)
        // Written over from its start, never shorter: only its bytes tell.
        let handle = try FileHandle(forWritingTo: path)
        handle.write(log + log)
        try handle.close()
        #expect(tool.waitFor(timeout: Self.latencyBound) { $0.contains("[keychain-while-locked]") } != nil, "\(tool.printed.map(\.text))")
        // A hundred files put under the name in a row, each replacing the last.
        for index in 0..<100 {
            let next = folder.appendingPathComponent("next.log")
            try Data("line \(index)\n".utf8).write(to: next)
            rename(next.path, path.path)
        }
        Thread.sleep(forTimeInterval: 0.5)
        let end = try tool.end(closing: false, signal: SIGINT)
        #expect(end.status == 1, "\(end.stderr)")
        #expect(end.stderr.contains("device.log was rewritten in place between two looks (100 ms apart): read again from its start"), "\(end.stderr)")
        #expect(end.stderr.contains("device.log was replaced (rotated): the new file is read from its start; a file that came and went between two looks (100 ms apart) cannot be read [followed-input]"), "\(end.stderr)")
    }

    /// The scenario's Console copy written a line every 0.35 s (a pause after each: findings are given early), to
    /// `--follow` in `format`; what it printed.
    static func slowly(_ format: String) throws -> String {
        let log = Self.scenarios.appendingPathComponent("prewarm-then-launch-scene-app/log.txt").path
        let run = try EventsCommandTests.run(["-c", "while IFS= read -r line; do printf '%s\\n' \"$line\"; sleep 0.35; done < \"$1\" | \"$0\" lint --follow --date 2024-03-18 --format \"$2\" -",
                                              EventsCommandTests.binary.path, log, format], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 1, "\(format): \(run.stderr)")
        return run.stdout
    }

    @Test("live output says each finding once: ndjson one top-level line per rule (early ones marked, with their session), github one annotation in its final words, text a `now:` line where the close changed the words")
    func eachFindingSaidOnce() throws {
        let ndjson = try Self.slowly("ndjson").split(separator: "\n").compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let findings = ndjson.filter { $0["rule"] != nil }
        #expect(findings.map { $0["rule"] as? String ?? "" }.sorted() == ["keychain-before-activation", "keychain-while-locked", "launch-work-during-prewarm", "state-assumed-at-launch"])
        #expect(findings.filter { $0["early"] as? Bool == true }.count >= 1, "\(findings)")
        #expect(findings.allSatisfy { $0["session"] as? String == "com.example.ledger#1" }, "\(findings)")
        let closed = try #require(ndjson.last { $0["session"] is [String: Any] })
        #expect((closed["findings"] as? [[String: Any]])?.compactMap { $0["message"] as? String }.contains { $0.contains("1 h 31 min before the user activated the app") } == true)

        let github = try Self.slowly("github").split(separator: "\n")
        #expect(github.count == 4, "\(github)")
        #expect(github.allSatisfy { $0.contains("(com.example.ledger#1)::") && !$0.contains("prewarm-outcome-unknown") }, "\(github)")

        let text = try Self.slowly("text").split(separator: "\n")
        // Every rule's heading once; the close's corrections as `now:` lines, not second headings.
        for rule in ["keychain-before-activation", "keychain-while-locked", "launch-work-during-prewarm", "state-assumed-at-launch"] {
            #expect(text.filter { $0.contains("[\(rule)]") && !$0.hasPrefix("    now:") }.count == 1, "\(rule): \(text)")
        }
        #expect(text.contains { $0.hasPrefix("    now: -:8: error: [keychain-while-locked]") && $0.contains("prewarm-then-launch session") }, "\(text)")
        #expect(text.contains { $0.contains("(early: com.example.ledger#1 still open)") }, "\(text)")
    }
}
