import Foundation
import Testing

/// End-to-end: the built `prewarm-lint` binary, its stdout, stderr and exit code.
@Suite("prewarm-lint events")
struct EventsCommandTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = repositoryRoot.appendingPathComponent("Corpus/formats")

    static var binary: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("prewarm-lint")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return repositoryRoot.appendingPathComponent(".build/debug/prewarm-lint")
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: Data? = nil, in directory: URL? = nil, executable: URL? = nil,
                    interruptAfter: TimeInterval? = nil, signal: Int32 = SIGINT, environment: [String: String]? = nil,
                    stdinIsNull: Bool = false, secondSignalAfter: TimeInterval? = nil) throws -> Run {
        // Output goes to files, not pipes: a child filling one pipe while the test drains the other would deadlock.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout"), errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let input = Pipe()
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = stdinIsNull ? FileHandle.nullDevice : input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        if let interruptAfter {
            Thread.sleep(forTimeInterval: interruptAfter)
            kill(process.processIdentifier, signal)
            if let secondSignalAfter {
                Thread.sleep(forTimeInterval: secondSignalAfter)
                kill(process.processIdentifier, signal)
            }
        }
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    @Test("ndjson output: one parseable object per event, summary on stderr, exit 0")
    func ndjson() throws {
        let log = Self.corpus.appendingPathComponent("console-copy-pid-column/log.txt").path
        let run = try Self.run(["events", "--format", "ndjson", "--date", "2021-10-20", log])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["process"] as? String == "securityd")
        #expect(first["pid"] as? Int == 115)
        #expect(first["time"] as? String == "2021-10-20T14:14:22.944797+11:00")
        #expect((first["message"] as? String)?.contains("Code=-25308") == true)
        #expect(run.stderr.contains("\(log): console-copy, 3 events from 9 lines; skipped 6 unusable (see diagnostics); 1 warning, 1 note"))
    }

    @Test("--separately, which lint and sessions take, is taken here too, with the same events: each input is classified on its own")
    func separatelyIsAccepted() throws {
        let log = Self.corpus.appendingPathComponent("console-copy-pid-column/log.txt").path
        let plain = try Self.run(["events", "--format", "ndjson", "--date", "2021-10-20", log, log])
        let apart = try Self.run(["events", "--separately", "--format", "ndjson", "--date", "2021-10-20", log, log])
        #expect(apart.status == 0, "\(apart.stderr)")
        #expect(apart.stdout == plain.stdout)
        #expect(apart.stdout.split(separator: "\n").count == 3)
    }

    @Test("standard input with - and filters")
    func stdinAndFilters() throws {
        let text = """
            default\t21:28:47.038326-0500\tSpringBoard\tBootstrapping app<com.x> with intent foreground-interactive
            default\t21:28:47.039088-0500\tSpringBoard\tPrewarming for launch of com.x
            default\t21:28:47.039347-0500\trunningboardd\tAcquiring assertion targeting app<com.x>

            """
        let run = try Self.run(["events", "--format", "ndjson", "--date", "2024-01-02", "--process", "SpringBoard", "--grep", "PREWARMING", "-"],
                               stdin: Data(text.utf8))
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 1)
        #expect(run.stdout.contains("\"message\":\"Prewarming for launch of com.x\""))
        #expect(run.stderr.contains("-: console-copy, 3 events from 3 lines"))
    }

    @Test("an empty standard input (the command before the pipe failed, as idevicesyslog does with no device) says so, exit 2")
    func emptyStandardInput() throws {
        for command in [["-"], ["events", "-"], ["sessions", "-"]] {
            let run = try Self.run(command, stdin: Data())
            #expect(run.status == 2, "\(command)")
            #expect(run.stderr.contains("-: error: standard input is empty: nothing was piped in"), "\(command): \(run.stderr)")
        }
        // Bytes that are not a log are still named as such.
        let run = try Self.run(["-"], stdin: Data("No device found. Plug in a device or pass UDID with -u to wait for device to be available.\n".utf8))
        #expect(run.status == 2)
        #expect(run.stderr.contains("not a recognized log format: no line of its first 91 bytes"), "\(run.stderr)")
    }

    @Test("a missing file is an error with exit 2, and the other inputs are still read")
    func missingFile() throws {
        let log = Self.corpus.appendingPathComponent("xcode-console-app-lines/log.txt").path
        let run = try Self.run(["events", "/nonexistent/device.log", log])
        #expect(run.status == 2)
        #expect(run.stderr.contains("/nonexistent/device.log: error: no such file or directory"))
        #expect(run.stdout.contains("SDK init success"))
    }

    @Test("a named file that is not a log is an error with exit 2")
    func notALog() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString).txt").path
        try Data("The app logs the user out; the console said the keychain failed with -25308.\n".utf8).write(to: URL(fileURLWithPath: log))
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try Self.run(["events", log])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(log): error: not a recognized log format"))
    }

    @Test("a directory is read recursively in path order; non-logs inside it are skipped with a note")
    func directory() throws {
        let run = try Self.run(["events", "--format", "ndjson", "--date", "2024-01-01", "--year", "2024", Self.corpus.path])
        #expect(run.status == 0)
        #expect(run.stderr.contains(" files in directories that are not logs: "))
        #expect(!run.stderr.contains("expected.json:"), "a golden file was read as a log")
        let paths = run.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let origin = object["origin"] as? [String: Any] else { return nil }
            return origin["path"] as? String
        }
        #expect(!paths.isEmpty)
        #expect(paths == paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(paths.contains { $0.hasSuffix("log-show-ndjson-gzip/log.ndjson.gz") })
    }

    @Test("usage errors exit 64 and say what is wrong")
    func usage() throws {
        let noPath = try Self.run(["events"], stdinIsNull: true)
        #expect(noPath.status == 64)
        #expect(noPath.stderr.contains("give at least one path, or - to read standard input"))
        // With no path and a pipe on standard input, the pipe is the input (`cat device.log | prewarm-lint`).
        let piped = try Self.run(["--no-color", "--date", "2024-03-18"], stdin: try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("Corpus/scenarios/cold-launch/log.txt")))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr.hasSuffix("no findings in 1 session (1 cold-launch) from 1 input; launch 303 ms (tap → active; no first-screen line)\n"), "\(piped.stderr)")
        // No subcommand shows a backslash of a line continuation in its help (a `\\` in the source did).
        for command in ["lint", "sessions", "stats", "compare", "events", "rules", "explain", "formats"] {
            let help = try Self.run(["help", command], stdinIsNull: true)
            #expect(!help.stdout.contains("\\"), "help \(command)")
        }
        let badFormat = try Self.run(["events", "--input-format", "csv", "x"])
        #expect(badFormat.status == 64)
        #expect(badFormat.stderr.contains("unknown input format 'csv'"))
        let badDate = try Self.run(["events", "--date", "2023-02-30", "x"])
        #expect(badDate.status == 64)
        #expect(badDate.stderr.contains("--date must be a real day written like 2024-05-02, not '2023-02-30'"))
    }

    @Test("--utc-offset takes a negative offset as its value, and the year comes from --year")
    func negativeOffset() throws {
        let run = try Self.run(["events", "--format", "ndjson", "--year", "2020", "--utc-offset", "-05:00", "-"],
                               stdin: Data("Nov 12 12:24:37 iPad SpringBoard(FrontBoard)[510] <Notice>: [application<com.x>:796] Bootstrap success!\n".utf8))
        #expect(run.status == 0)
        #expect(run.stdout.contains("\"time\":\"2020-11-12T12:24:37.000000-05:00\""))
        #expect(run.stdout.contains("\"inferred\":[\"year\",\"utcOffset\"]"))
        #expect(run.stderr.contains("-:1: note: UTC offset not in the input; using -05:00 from --utc-offset [inferred-time]"))
    }

    @Test("every event is classified; --meaning keeps the prewarm request of excerpt 01")
    func classification() throws {
        let log = Self.corpus.appendingPathComponent("console-copy-library-category-columns/log.txt").path
        let run = try Self.run(["events", "--format", "ndjson", "--meaning", "prewarm-request", "--date", "2022-06-08", log])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["role"] as? String == "runningboardd")
        #expect(object["meaning"] as? String == "prewarm-request")
        #expect((object["app"] as? [String: Any])?["bundleID"] as? String == "com.xyz")
        let table = try Self.run(["events", "--date", "2022-06-08", log])
        #expect(table.stdout.contains("«prewarm-request com.xyz» (RunningBoard) [:process] Executing launch request for application<com.xyz> (DAS Prewarm launch)"))
        let bad = try Self.run(["events", "--meaning", "prewarm", log])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown meaning 'prewarm'; one of: prewarm-request"))
    }

    @Test("--input-format forces a format")
    func forced() throws {
        let run = try Self.run(["events", "--format", "ndjson", "--input-format", "console-copy", "--date", "2024-01-01", "-"],
                               stdin: Data("default\t10:00:00.000000+0000\tkernel\tboot\n".utf8))
        #expect(run.status == 0)
        #expect(run.stdout.contains("\"process\":\"kernel\""))
    }
}

@Suite("prewarm-lint sessions")
struct SessionsCommandTests {
    static let scenarios = EventsCommandTests.repositoryRoot.appendingPathComponent("Corpus/scenarios")

    @Test("text: one timeline per session with its kind, confidence and deciding line; a summary on stderr")
    func text() throws {
        let log = Self.scenarios.appendingPathComponent("prewarm-then-launch-scene-app/log.txt").path
        let run = try EventsCommandTests.run(["sessions", "--date", "2024-03-18", log])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("com.example.ledger#1 pid 2231 (Ledger Pro): prewarm-then-launch, certain (\(log):2)\n"))
        #expect(run.stdout.contains("  prewarm → activation 1 h 31 min; activation → active 1 ms; process start → active 1 h 31 min"))
        // Line 7: the FBApplicationProcess-free prewarm descriptor above it spans lines 3-5.
        #expect(run.stdout.contains("  app callbacks before activation: \(log):7"))
        #expect(run.stderr.contains("1 session from 1 input: 1 prewarm-then-launch"))
    }

    @Test("json: the v1 report, the same sessions from the Console copy and the ndjson together, counted once")
    func jsonAcrossInputs() throws {
        let folder = Self.scenarios.appendingPathComponent("two-apps-interleaved")
        let run = try EventsCommandTests.run(["sessions", "--format", "json", "--date", "2024-03-18",
                                              folder.appendingPathComponent("log.txt").path, folder.appendingPathComponent("log.ndjson").path])
        #expect(run.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["schemaVersion"] as? Int == 1)
        #expect((report["inputs"] as? [[String: Any]])?.map { $0["format"] as? String } == ["log-show-ndjson", "console-copy"])  // sorted by path
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["id"] as? String } == ["com.example.ledger#1", "com.example.notes#1"])
        #expect(sessions.map { $0["kind"] as? String } == ["prewarm-outcome-unknown", "cold-launch"])
        #expect((sessions[1]["durations"] as? [String: Int])?["launchRequestToActivationMs"] == 290)
        #expect((report["findings"] as? [Any])?.isEmpty == true)
        let text = try EventsCommandTests.run(["sessions", "--date", "2024-03-18",
                                               folder.appendingPathComponent("log.txt").path, folder.appendingPathComponent("log.ndjson").path])
        // 9 lines each; the kernel priority line means nothing for a launch, the other 8 are kept once.
        #expect(text.stderr.contains("2 sessions from 2 inputs: 1 cold-launch, 1 prewarm-outcome-unknown; 8 events seen in two inputs counted once"))
    }

    @Test("--separately: every scenario of the corpus on its own, in path order")
    func separately() throws {
        let run = try EventsCommandTests.run(["sessions", "--separately", "--format", "json", "--date", "2024-03-18", Self.scenarios.path])
        #expect(run.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let inputs = try #require(report["inputs"] as? [[String: Any]])
        // 14 scenarios × (log.txt, log.ndjson, log.plist, log.bplist); case.json, expected.json and findings.json are not logs.
        #expect(inputs.filter { $0["format"] as? String != nil }.count == 56)
        #expect(Set(inputs.compactMap { $0["format"] as? String }) == ["console-copy", "log-show-ndjson", "plist", "bplist"])
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        // Each scenario's sessions, once per rendering: 17 per rendering.
        #expect(sessions.count == 68)
        #expect(sessions.filter { $0["kind"] as? String == "resume" }.count == 4)
    }

    @Test("--app keeps one app's sessions")
    func appFilter() throws {
        let log = Self.scenarios.appendingPathComponent("pid-reuse/log.txt").path
        let run = try EventsCommandTests.run(["sessions", "--date", "2024-03-18", "--app", "com.example.ledger", log])
        #expect(run.status == 0)
        #expect(run.stdout.contains("com.example.ledger#1 pid 2231"))
        #expect(run.stdout.contains("com.example.ledger#2 pid 2240"))
        #expect(!run.stdout.contains("com.example.notes"))
    }
}
