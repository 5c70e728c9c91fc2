import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// End-to-end: `prewarm-lint [lint]`, every report format against its golden, and every exit path.
@Suite("prewarm-lint lint")
struct LintCommandTests {
    typealias CLI = EventsCommandTests
    static let root = CLI.repositoryRoot
    static let goldens = root.appendingPathComponent("Tests/PrewarmLintCLITests/Goldens")
    static let scene = "Corpus/scenarios/prewarm-then-launch-scene-app/log.txt"
    static let watchdog = "Corpus/scenarios/launch-watchdog-kill/log.txt"
    static let jetsam = "Corpus/scenarios/prewarm-unused-jetsam/log.txt"
    static let cold = "Corpus/scenarios/cold-launch/log.txt"

    /// A FIFO in `folder` whose writer writes the scene log and keeps the pipe open, as `log stream` would: a
    /// reader blocks until Ctrl-C.
    static func liveFIFO(in folder: URL) throws -> String {
        let fifo = folder.appendingPathComponent("live.log").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let log = try Data(contentsOf: root.appendingPathComponent(scene))
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(log)
            Thread.sleep(forTimeInterval: 8)
            try? handle?.close()
        }
        writer.start()
        return fifo
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("every report format matches its golden; text on stdout, summary on stderr, exit 1 on an error finding")
    func goldens() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let formats = [("json", "report.json"), ("ndjson", "report.ndjson"), ("sarif", "report.sarif"), ("markdown", "report.md"),
                       ("html", "report.html"), ("github", "report.github.txt"), ("junit", "report.junit.xml")]
        let run = try CLI.run(["--separately", "--date", "2024-03-18", "--no-color", Self.scene, Self.watchdog, Self.jetsam]
                                + formats.flatMap { ["--output", "\($0.0)=\(folder.appendingPathComponent($0.1).path)"] }, in: Self.root)
        #expect(run.status == 1)
        #expect(run.stderr.hasSuffix("6 findings (2 errors, 3 warnings, 1 info) in 3 sessions (1 prewarm-unused, 1 prewarm-then-launch, 1 background-launch) from 3 inputs; launch 102 ms (tap → active; no first-screen line)\n"))
        var problems: [String] = []
        if let problem = try GoldenFile.compare(run.stdout, with: Self.goldens.appendingPathComponent("report.txt"), name: "Goldens") { problems.append(problem) }
        for (_, file) in formats {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            if let problem = try GoldenFile.compare(text, with: Self.goldens.appendingPathComponent(file), name: "Goldens") { problems.append(problem) }
        }
        for problem in problems { Issue.record(Comment(rawValue: problem)) }
        // The same run with --format gives the same bytes on stdout as --output wrote.
        let json = try CLI.run(["--separately", "--date", "2024-03-18", "--format", "json", Self.scene, Self.watchdog, Self.jetsam], in: Self.root)
        #expect(json.stdout == (try String(contentsOf: folder.appendingPathComponent("report.json"), encoding: .utf8)))
        // Standard error ends with the summary in every format, so that a CI log shows the count.
        for format in ["json", "ndjson", "sarif", "markdown", "html", "github", "junit"] {
            let run = try CLI.run(["--separately", "--date", "2024-03-18", "--format", format, Self.scene, Self.watchdog, Self.jetsam], in: Self.root)
            #expect(run.stderr.hasSuffix("6 findings (2 errors, 3 warnings, 1 info) in 3 sessions (1 prewarm-unused, 1 prewarm-then-launch, 1 background-launch) from 3 inputs; launch 102 ms (tap → active; no first-screen line)\n"), "\(format): \(run.stderr)")
        }
    }

    @Test("the SARIF report validates against the OASIS SARIF 2.1.0 schema; every rule has its helpUri and Markdown help; paths relative to --sarif-root, the rest file://",
          .enabled(if: InstalledTools.runs(pythonModule: "jsonschema", package: "jsonschema")))
    func sarifValidates() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sarif = folder.appendingPathComponent("out.sarif")
        _ = try CLI.run(["--separately", "--date", "2024-03-18", "--output", "sarif=\(sarif.path)", "--sarif-root", "Corpus",
                         "--rule-docs-url", "https://example.com/prewarm-lint/docs/rules/{id}.md",
                         Self.scene, Self.watchdog, Self.jetsam, "missing.log", "/nonexistent/device.log"], in: Self.root)
        let schema = Self.root.appendingPathComponent("Tests/PrewarmLintCLITests/Schemas/sarif-schema-2.1.0.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1])); document = json.load(open(sys.argv[2]))
            jsonschema.validate(document, schema)
            run = document["runs"][0]
            assert run["results"], "no results"
            # Every rule: its page (helpUri from --rule-docs-url) and its help as Markdown, as code scanning shows it.
            rules = run["tool"]["driver"]["rules"]
            assert len(rules) == 10, len(rules)
            for rule in rules:
                assert rule["helpUri"] == "https://example.com/prewarm-lint/docs/rules/%s.md" % rule["id"], rule.get("helpUri")
                assert rule["help"]["markdown"].startswith("# `%s`" % rule["id"]) and "## Why" in rule["help"]["markdown"], rule["id"]
            assert run["tool"]["driver"]["informationUri"] == "https://example.com/prewarm-lint/docs/rules/"
            # --sarif-root Corpus: paths under it relative to it, the rest file:// URIs; the root written out.
            assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/Corpus/"), run["originalUriBaseIds"]
            uris = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
            assert all(u["uri"].startswith("scenarios/") and u["uriBaseId"] == "%SRCROOT%" for u in uris), uris
            notes = [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in run["invocations"][0]["toolExecutionNotifications"] if n.get("locations")]
            assert "file:///nonexistent/device.log" in notes and any(u.startswith("file://") and u.endswith("/missing.log") for u in notes), notes
            fingerprints = [r["partialFingerprints"]["prewarmLintFinding/v2"] for r in run["results"]]
            assert len(set(fingerprints)) == len(fingerprints)
            print(len(run["results"]))
            """, schema, sarif.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "SARIF does not validate (python3 with jsonschema is installed by .ci/run)")
        #expect(printed == "6\n")
    }

    @Test("--separately: every report that lists sessions names each one's input beside it; read together, none does")
    func separatelyNamesEachSessionsInput() throws {
        // Two stories that are not one device's: a watchdog kill and a scene app's prewarm, each with one app.
        let inputs = [Self.watchdog, Self.scene]
        let options = ["--no-config", "--date", "2024-03-18", "--separately"]
        let json = try CLI.run(options + ["--format", "json"] + inputs, in: Self.root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        try #require(sessions.count >= 2)
        // Each session's input is the file its milestones' evidence is in.
        for session in sessions {
            let input = try #require(session["input"] as? String)
            #expect(inputs.contains(input))
            let milestones = session["milestones"] as? [[String: Any]] ?? []
            for milestone in milestones {
                #expect((milestone["evidence"] as? [String: Any])?["path"] as? String == input)
            }
        }
        #expect(Set(sessions.compactMap { $0["input"] as? String }) == Set(inputs))
        // The text report's timelines, the sessions command's, Markdown's table, HTML's articles, JUnit's test cases.
        let text = try CLI.run(options + inputs, in: Self.root).stdout
        let sessionsText = try CLI.run(["sessions"] + options + inputs, in: Self.root).stdout
        for input in inputs {
            #expect(text.contains(" from \(input): "))
            #expect(sessionsText.contains(" from \(input): "))
        }
        let markdown = try CLI.run(options + ["--format", "markdown"] + inputs, in: Self.root).stdout
        #expect(markdown.contains("| session | input | pid |"))
        for input in inputs { #expect(markdown.contains("`\(input)`")) }
        let html = try CLI.run(options + ["--format", "html"] + inputs, in: Self.root).stdout
        for input in inputs { #expect(html.contains("from <code>\(input)</code>")) }
        let junit = try CLI.run(options + ["--format", "junit"] + inputs, in: Self.root).stdout
        for input in inputs { #expect(junit.contains(" from \(input)\"")) }
        // Read as one device's logs: a session may draw on several inputs, and none is named.
        let together = try CLI.run(["--no-config", "--date", "2024-03-18", "--format", "json"] + inputs, in: Self.root)
        #expect(!together.stdout.contains("\"input\""))
        #expect(!(try CLI.run(["--no-config", "--date", "2024-03-18"] + inputs, in: Self.root).stdout.contains(" from Corpus/")))
    }

    @Test("Markdown and HTML evidence: a time the log does not date is marked ~ and the mark explained once; a dated one is not")
    func inferredEvidenceTimes() throws {
        // The scene story is a Console copy: no year, no date (given by --date).
        let undated = ["--no-config", "--date", "2024-03-18", Self.scene]
        let markdown = try CLI.run(undated + ["--format", "markdown"], in: Self.root).stdout
        #expect(markdown.contains("2024-03-18T07:41:02.371990-07:00~ [keychain failure]"))
        #expect(markdown.components(separatedBy: "has a part the log does not print").count == 2)
        let html = try CLI.run(undated + ["--format", "html"], in: Self.root).stdout
        #expect(html.contains("2024-03-18T07:41:02.371990-07:00~ [keychain failure]"))
        #expect(html.components(separatedBy: "has a part the log does not print").count == 2)
        // `log show`'s lines carry their date, year and offset: no mark, no note.
        let log = "Corpus/formats/log-show-default-multiline-job-description/log.txt"
        let dated = try CLI.run(["--no-config", "--format", "markdown", log], in: Self.root).stdout
        let evidence = dated.components(separatedBy: "\n").filter { $0.hasPrefix(log + ":") && $0.hasSuffix("]") }
        try #require(!evidence.isEmpty)
        #expect(evidence.allSatisfy { !$0.contains("~ [") }, "\(evidence)")
        #expect(!dated.contains("has a part the log does not print"))
    }

    @Test("exit codes: 0 clean, 1 findings at --fail-on, 2 unreadable input, 64 usage; --strict and --lenient")
    func exitCodes() throws {
        let date = ["--date", "2024-03-18"]
        #expect(try CLI.run(date + [Self.cold], in: Self.root).status == 0)
        #expect(try CLI.run(date + [Self.scene], in: Self.root).status == 1)
        #expect(try CLI.run(date + ["--fail-on", "never", Self.scene], in: Self.root).status == 0)
        // prewarm-wasted is info: fails only from --fail-on info.
        #expect(try CLI.run(date + [Self.jetsam], in: Self.root).status == 0)
        #expect(try CLI.run(date + ["--fail-on", "info", Self.jetsam], in: Self.root).status == 1)
        // --lenient turns the scene's error into a warning; --strict its warnings into errors.
        #expect(try CLI.run(date + ["--lenient", Self.scene], in: Self.root).status == 0)
        let strict = try CLI.run(date + ["--strict", "--rule", "launch-work-during-prewarm", Self.scene], in: Self.root)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains(": error: [launch-work-during-prewarm]"))
        let missing = try CLI.run(date + [Self.cold, "no-such-file.log"], in: Self.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no-such-file.log: error: "))
        let usage = try CLI.run(["--format", "pdf", Self.cold], in: Self.root)
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("'pdf'"))
        let unknownRule = try CLI.run(["--rule", "keychain", Self.cold], in: Self.root)
        #expect(unknownRule.status == 64)
        #expect(unknownRule.stderr.contains("unknown rule 'keychain'; the rules are keychain-while-locked, "))
    }

    @Test("broken inputs among good ones: each said verbatim on stderr, the good ones still linted, exit 2")
    func brokenInputsAmongGoodOnes() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nuls = folder.appendingPathComponent("nuls.log")
        try Data(count: 4096).write(to: nuls)
        let denied = folder.appendingPathComponent("denied.log")
        try Data("x".utf8).write(to: denied)
        #expect(chmod(denied.path, 0) == 0)
        let scene = Self.root.appendingPathComponent(Self.scene).path
        let arguments = ["--date", "2024-03-18", "--no-color", scene, nuls.path, folder.appendingPathComponent("missing.log").path, denied.path]
        // As root the permission bits do not apply: the tool runs as nobody (setpriv), as a user would.
        let run = getuid() == 0
            ? try CLI.run(["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] + arguments, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
            : try CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(folder.path)/missing.log: error: no such file or directory (check the path; - reads standard input)\n"))
        #expect(run.stderr.contains("\(nuls.path): error: not a recognized log format: no line of its first 4096 bytes looks like a supported log (see `prewarm-lint formats`; use --input-format to force one)\n"))
        #expect(run.stderr.contains("\(denied.path): error: cannot open: Permission denied (check the file's permissions)\n"))
        #expect(run.stdout.contains(": error: [keychain-while-locked]"), "the good input is still linted")
        #expect(run.stderr.hasSuffix("4 findings (1 error, 3 warnings) in 1 session (1 prewarm-then-launch) from 1 input; 3 inputs could not be read; launch 102 ms (tap → active; no first-screen line)\n"))
    }

    @Test("a run that read no log is an error: a folder of non-logs, an empty folder, an input refused whole (exit 2, said)")
    func nothingRead() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder holding only notes, one quoting an error code in prose: skipped files named, nothing linted, exit 2.
        let reports = folder.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try Data("The app logs the user out; the console said the keychain failed with -25308 (errSecInteractionNotAllowed).\n".utf8)
            .write(to: reports.appendingPathComponent("fragment.txt"))
        try Data("notes about the bug\n".utf8).write(to: reports.appendingPathComponent("notes.md"))
        let notLogs = try CLI.run(["--no-color", reports.path])
        #expect(notLogs.status == 2)
        #expect(notLogs.stderr.contains("note: skipped 2 files that are not a log prewarm-lint reads: \(reports.path)/fragment.txt, \(reports.path)/notes.md"))
        #expect(notLogs.stderr.contains("error: no input could be read as a log: nothing was linted\n"))
        #expect(notLogs.stderr.hasSuffix("nothing linted: no input was read as a log, so no findings in 0 sessions from 0 inputs\n"))
        // An empty folder.
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try CLI.run(["--no-color", empty.path])
        #expect(none.status == 2)
        #expect(none.stderr.contains("error: no file found in \(empty.path): nothing was linted\n"))
        // A plist declaring an entity is refused whole: an unreadable input, not an empty log.
        let entities = folder.appendingPathComponent("entities.plist")
        try Data("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY a \"aaaa\">]>\n<plist version=\"1.0\"><array><dict><key>eventMessage</key><string>&a;</string></dict></array></plist>\n".utf8)
            .write(to: entities)
        let refused = try CLI.run(["--no-color", entities.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(entities.path): error: refused: the document declares the entity 'a'"))
        #expect(refused.stderr.hasSuffix("nothing linted: no input was read as a log, so no findings in 0 sessions from 0 inputs; 1 input could not be read\n"))
        // Beside a good log, the skipped file is still named, and the good log linted.
        let mixed = try CLI.run(["--no-color", "--date", "2024-03-18", reports.path, Self.root.appendingPathComponent(Self.cold).path])
        #expect(mixed.status == 0)
        #expect(mixed.stderr.contains("note: skipped 2 files"))
        #expect(mixed.stderr.hasSuffix("no findings in 1 session (1 cold-launch) from 1 input; launch 303 ms (tap → active; no first-screen line)\n"))
    }

    @Test("lines read with no session built are said in the summary: a crash payload naming no app, a fragment (real inputs)")
    func noSessionSaysWhatWasRead() throws {
        // ChimeHQ-Meter's real MetricKit payload (before iOS 26): two signal crashes that name no app.
        let payload = try CLI.run(["--no-color", Self.root.appendingPathComponent("Corpus/formats/metrickit-diagnostic-payload-ios14/real_report.json").path])
        #expect(payload.status == 0)
        #expect(payload.stderr.hasSuffix("no findings in 0 sessions from 1 input; the 2 events read joined no launch session (`prewarm-lint events` lists them)\n"))
        // Real excerpt 35: SpringBoard's launch request for PosterBoard, a system service (osservice<…>), not an app.
        let fragment = try CLI.run(["--no-color", Self.root.appendingPathComponent("Corpus/real-logs/35-offsider-ndjson-springboard-sending-launch-request.log").path])
        #expect(fragment.status == 0)
        #expect(fragment.stderr.hasSuffix("no findings in 0 sessions from 1 input; the 2 events read joined no launch session (`prewarm-lint events` lists them)\n"))
        // A log of other daemons only (`log show --style compact`, in the shape of the generator's wifid and CommCenter lines).
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = folder.appendingPathComponent("other.log")
        try Data("""
            Timestamp               Ty Process[PID:TID]
            2024-03-18 00:00:00.049 Df wifid[88:2b28] [com.apple.WiFiManager:] WiFi link quality changed: rssi -61
            2024-03-18 00:00:00.102 Df CommCenter[91:2b28] [com.apple.CommCenter:ul] Signal strength changed: bars 3

            """.utf8).write(to: other)
        let unrelated = try CLI.run(["--no-color", other.path])
        #expect(unrelated.status == 0)
        #expect(unrelated.stderr.hasSuffix("no findings in 0 sessions from 1 input; the 2 events read joined no launch session (`prewarm-lint events` lists them)\n"))
        // A log with its header and no record.
        let header = folder.appendingPathComponent("header.log")
        try Data("Timestamp               Ty Process[PID:TID]\n".utf8).write(to: header)
        let empty = try CLI.run(["--no-color", header.path])
        #expect(empty.status == 0)
        #expect(empty.stderr.hasSuffix("no findings in 0 sessions from 1 input; no log record was read\n"))
        // Sessions built: nothing more is said.
        let cold = try CLI.run(["--no-color", "--date", "2024-03-18", Self.root.appendingPathComponent(Self.cold).path])
        #expect(!cold.stderr.contains("joined no launch session") && !cold.stderr.contains("no log record was read"))
    }

    @Test("an input cut short by an error is linted up to it and said to be: a real launch gzipped with a damaged CRC")
    func cutShortInput() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Real excerpt 45 (a whole cold launch) as `.gz`, one bit of its trailer's CRC-32 flipped.
        let excerpt = try Data(contentsOf: Self.root.appendingPathComponent("Corpus/real-logs/45-juniper-ios26-full-cold-launch-first-screen-6cefb98.log"))
        var compressed = try GzipFile.compress(Array(excerpt))
        compressed[compressed.count - 8] ^= 0x01
        let damaged = folder.appendingPathComponent("45.log.gz")
        try Data(compressed).write(to: damaged)
        let run = try CLI.run(["--no-color", damaged.path])
        #expect(run.status == 2, "an input that failed is an error, even when part of it was linted")
        #expect(run.stderr.contains("\(damaged.path): error: gzip data is corrupt (incorrect data check); nothing after that point was read\n"))
        #expect(run.stderr.hasSuffix("no findings in 1 session (1 cold-launch) from 1 input; 1 input was cut short by an error (linted up to it); launch 224 ms (tap → first screen)\n"))
        // The JSON report counts what was read before the error.
        let json = try CLI.run(["--format", "json", damaged.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let input = try #require((report["inputs"] as? [[String: Any]])?.first)
        #expect((input["events"] as? Int ?? 0) > 1000)
        #expect((input["error"] as? String)?.hasPrefix("gzip data is corrupt") == true)
    }

    @Test("hazard lines no finding holds keep the summary from reading as clean")
    func unreportedHazards() throws {
        let run = try CLI.run(["--no-color", "--date", "2024-03-18", Self.root.appendingPathComponent("Corpus/verdicts/protected-data-after-activation/log.txt").path])
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning: 1 data-protection-failure line in no finding: after the user's activation, where protected-data-before-unlock does not look"))
        #expect(run.stderr.hasSuffix("no findings, but hazard lines were read (see the 1 warning) in 1 session (1 cold-launch) from 1 input; launch 301 ms (launch request → active; no first-screen line)\n"))
        // With the rule turned off by the user: a note (not printed), still counted in the JSON report.
        let off = try CLI.run(["--no-color", "--format", "json", "--rule", "keychain-while-locked", "--date", "2024-03-18",
                               Self.root.appendingPathComponent("Corpus/verdicts/protected-data-after-activation/log.txt").path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(off.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { ($0["code"] as? String) == "hazard-not-reported" && ($0["severity"] as? String) == "note" })
    }

    @Test("hostile configurations are refused at once, with file and line: alias bombs, values that would trap, huge files")
    func hostileConfigurations() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(contentsOf: Self.root.appendingPathComponent(Self.cold)).write(to: folder.appendingPathComponent("log.txt"))
        let config = folder.appendingPathComponent(".prewarm-lint.yml")
        func lint(_ yaml: String) throws -> (status: Int32, stderr: String, seconds: Double) {
            try yaml.write(to: config, atomically: true, encoding: .utf8)
            let start = Date()
            let run = try CLI.run(["--date", "2024-03-18", folder.appendingPathComponent("log.txt").path], in: folder)
            return (run.status, run.stderr, Date().timeIntervalSince(start))
        }
        // 15 levels of nine aliases each: composed, it would never finish (9 levels took 104 s).
        var bomb = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...15 { bomb.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]") }
        let aliases = try lint(bomb.joined(separator: "\n") + "\n")
        #expect(aliases.status == 64)
        #expect(aliases.stderr.contains(".prewarm-lint.yml:1: error: YAML anchors and aliases (&name, *name) are not accepted"))
        #expect(aliases.seconds < 10)
        // A tolerance that would overflow when turned into microseconds, and infinity.
        for value in ["1e16", ".inf", "-5"] {
            let trap = try lint("rules:\n  launch-timer-includes-prewarm: {tolerance-ms: \(value)}\n")
            #expect(trap.status == 64, "\(value)")
            #expect(trap.stderr.contains(".prewarm-lint.yml:2: error: 'tolerance-ms' of 'launch-timer-includes-prewarm' must be a number from 0 to 86400000"), "\(value)")
        }
        // A quoted '*' is text, not an alias.
        #expect(try lint("markers:\n  - {match: \"*token*\", meaning: keychain-failure}\n").status == 0)
        // Over a megabyte.
        let huge = try lint("apps: [" + Array(repeating: "com.example.ledger", count: 70_000).joined(separator: ", ") + "]\n")
        #expect(huge.status == 64)
        #expect(huge.stderr.contains("at most 1048576 are read"))
    }

    @Test("escape sequences in log text and file names never reach the terminal raw: OSC 52, a screen clear, C1 CSI")
    func terminalEscapes() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A keychain failure whose text writes the clipboard and clears the screen, in a file whose name does too.
        let name = "log\u{1B}[2J.txt"
        let line = "2231\terror\t14:14:22.944797+1100\tlogoutRepro\tKeychain error -25308 \u{1B}]52;c;ZXZpbA==\u{07} \u{1B}[2J \u{9B}31m\n"
        try Data(line.utf8).write(to: folder.appendingPathComponent(name))
        for arguments in [["--date", "2021-10-20", folder.path], ["events", "--date", "2021-10-20", folder.path]] {
            let run = try CLI.run(arguments)
            let everything = run.stdout + run.stderr
            #expect(!everything.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(arguments)")
            #expect(everything.contains("^[]52;c;ZXZpbA==^G ^[[2J <U+009B>31m"), "\(arguments): \(everything)")
            #expect(everything.contains(#"log\x1B[2J.txt"#))  // a name shows its control characters as \xNN
        }
    }

    @Test("a right-to-left override and other invisible format characters in a process, a message or a file name are shown, never obeyed, in every format")
    func invisibleFormatCharacters() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A keychain failure (real-logs 03's shape) whose process and text hold a right-to-left override, a first-strong
        // isolate and a zero-width space, in a file whose name holds one too.
        let name = "log\u{202E}txt.exe"
        let line = "2231\terror\t14:14:22.944797+1100\tlogout\u{202E}Repro\tKeychain error -25308 \u{2068}gnp.exe\u{200B}\n"
        try Data(line.utf8).write(to: folder.appendingPathComponent(name))
        let invisible: Set<UInt32> = [0x202E, 0x2068, 0x200B]
        for format in ["text", "json", "ndjson", "sarif", "markdown", "html", "github", "junit"] {
            let run = try CLI.run(["--date", "2021-10-20", "--format", format, folder.path])
            #expect(run.status == 1, "\(format): \(run.stderr)")
            let everything = run.stdout + run.stderr
            #expect(!everything.unicodeScalars.contains { invisible.contains($0.value) }, "\(format) holds one raw")
            if ["json", "ndjson", "sarif"].contains(format) {
                // JSON keeps the value and writes the character as an escape.
                #expect(run.stdout.contains(#"logout\u202eRepro"#), "\(format): \(run.stdout.prefix(3000))")
            } else {
                #expect(everything.contains("logout<U+202E>Repro") || everything.contains("logout&lt;U+202E&gt;Repro")
                        || everything.contains(#"logout\<U+202E\>Repro"#), "\(format): \(everything.prefix(3000))")
            }
        }
    }

    @Test("a file name holding a newline and a workflow command starts no line of stdout or stderr: GitHub sees only the run's own annotations")
    func workflowCommandsInNames() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try Data(contentsOf: Self.root.appendingPathComponent("Corpus/scenarios/prewarm-then-launch-scene-app/log.txt"))
        try good.write(to: folder.appendingPathComponent("a\n::stop-commands::pwned\n::error file=x::planted.txt"))
        try Data("not a log\n".utf8).write(to: folder.appendingPathComponent("b\n::error::planted.bin"))
        let run = try CLI.run(["--date", "2024-03-18", "--format", "github", folder.path])
        #expect(run.status == 1, "\(run.stderr)")
        let annotations = run.stdout.split(separator: "\n")
        #expect(annotations.count == 4, "the four findings of the good log: \(run.stdout)")
        #expect(annotations.allSatisfy { $0.hasPrefix("::error file=") || $0.hasPrefix("::warning file=") }, "\(run.stdout)")
        #expect(!run.stdout.contains("stop-commands::pwned\n") && !run.stdout.contains("::planted"), "\(run.stdout)")
        #expect(!run.stderr.split(separator: "\n").contains { $0.hasPrefix("::") }, "\(run.stderr)")
        #expect(run.stderr.contains(#"b\x0A::error::planted.bin"#), "\(run.stderr)")
        #expect(run.stdout.contains(#"a\x0A%3A%3Astop-commands%3A%3Apwned\x0A%3A%3Aerror file=x%3A%3Aplanted.txt"#), "\(run.stdout)")
    }

    @Test("every control byte, at every place in a block of sixteen, is made visible on the terminal (the output is checked sixteen bytes at a time)")
    func controlBytesAtEveryAlignment() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Console copy lines (the shape of real-logs 03) whose messages put one control at each of eight offsets.
        var controls = (0x01...0x1F).filter { $0 != 0x0A && $0 != 0x0D }.map { String(UnicodeScalar(UInt8($0))) }
        controls += ["\u{7F}", "\u{85}", "\u{9B}"]
        var text = ""
        for control in controls {
            for offset in 0..<17 { text += "2231\terror\t14:14:22.944797+1100\tp\t" + String(repeating: "x", count: offset) + control + "yyyyyyyy\n" }
        }
        let log = folder.appendingPathComponent("controls.log")
        try Data(text.utf8).write(to: log)
        let run = try CLI.run(["events", "--date", "2021-10-20", log.path])
        let raw = (run.stdout + run.stderr).unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
        #expect(raw.isEmpty, "raw controls reached the terminal: \(raw.map { String($0.value, radix: 16) })")
        #expect(run.stdout.contains("xxx^Ayyyyyyyy") && run.stdout.contains("^?yyyyyyyy") && run.stdout.contains("<U+009B>yyyyyyyy"))
    }

    @Test("the JSON report, written as bytes, makes DEL and C1 controls visible at every place in a block of sixteen")
    func jsonReportControlsAtEveryAlignment() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Keychain failures in the shape of real-logs 03, each of a process of its own, so that each finding quotes
        // its line: JSON escapes the C0 controls itself; DEL and the C1 controls are valid JSON text, and only the
        // terminal check stands between them and the screen. The check reads sixteen bytes at a time, so each control
        // is put at each of seventeen offsets.
        var text = ""
        var pid = 3000
        for control in ["\u{7F}", "\u{85}", "\u{9B}"] {
            for offset in 0..<17 {
                pid += 1
                text += "\(pid)\terror\t14:14:22.944797+1100\tlogoutRepro\tKeychain error -25308 " + String(repeating: "x", count: offset)
                    + control + "yyyyyyyyyyyyyyyy\n"
            }
        }
        let log = folder.appendingPathComponent("controls.log")
        try Data(text.utf8).write(to: log)
        let run = try CLI.run(["--format", "json", "--date", "2021-10-20", log.path])
        let raw = run.stdout.unicodeScalars.filter { (0x7F...0x9F).contains($0.value) }
        #expect(raw.isEmpty, "raw controls reached the terminal: \(raw.map { String($0.value, radix: 16) })")
        for visible in ["^?", "<U+0085>", "<U+009B>"] {
            for offset in 0..<17 {
                let shown = run.stdout.contains("-25308 " + String(repeating: "x", count: offset) + visible + "yyyyyyyyyyyyyyyy")
                #expect(shown, "\(visible) after \(offset) bytes")
            }
        }
    }

    @Test("outputs are written in place, never renamed over a device, FIFO, link or input; every writable one is written")
    func outputsInPlace() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = Self.root.appendingPathComponent(Self.scene).path
        // A symbolic link: the file it points to is written, the link stays a link.
        let target = folder.appendingPathComponent("target.json"), link = folder.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        // A FIFO nobody reads: an error naming why, never a hang; the other outputs and stdout still written.
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let sarif = folder.appendingPathComponent("report.sarif").path
        let run = try CLI.run(["--date", "2024-03-18", "--no-color", "--output", "json=\(link.path)", "--output", "ndjson=\(fifo)",
                               "--output", "json=/dev/null", "--output", "sarif=\(sarif)", log])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(fifo): error: cannot write the ndjson report: a FIFO with no reader"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect((try? Data(contentsOf: target))?.isEmpty == false)
        #expect(FileManager.default.fileExists(atPath: sarif))
        #expect(run.stdout.contains("[keychain-while-locked]"))
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR, "/dev/null is still a device")
        // Refused before reading: an input as output, a directory, a folder that does not exist, a missing baseline.
        for (arguments, message) in [
            (["--output", "json=\(log)"], "\(log): error: is one of the inputs"),
            (["--output", "json=\(folder.path)"], "\(folder.path): error: is a directory"),
            (["--output", "json=\(folder.path)/missing/report.json"], "\(folder.path)/missing/report.json: error: cannot be created in \(folder.path)/missing: No such file or directory"),
            (["--baseline", "\(folder.path)/none.txt"], "\(folder.path)/none.txt: error: cannot read the baseline file: No such file or directory"),
        ] {
            let refused = try CLI.run(["--date", "2024-03-18", "--no-color"] + arguments + [log])
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stderr.hasPrefix(message), "\(arguments): \(refused.stderr)")
            #expect(refused.stdout.isEmpty, "nothing was read")
        }
    }

    @Test("paths that cannot be read say why: a link loop, a dangling link, a folder without permission; each an input of the JSON report; a baseline of another kind refused")
    func pathReasons() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let loop = folder.appendingPathComponent("loop.log").path
        #expect(symlink(loop, loop) == 0)
        let logs = folder.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        try Data(contentsOf: Self.root.appendingPathComponent(Self.cold)).write(to: logs.appendingPathComponent("good.txt"))
        #expect(symlink(logs.appendingPathComponent("gone.txt").path, logs.appendingPathComponent("dangling.txt").path) == 0)
        let run = try CLI.run(["--date", "2024-03-18", "--no-color", "--format", "json", loop, logs.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(loop): error: too many levels of symbolic links (a link loop)\n"))
        #expect(run.stderr.contains("\(logs.path)/dangling.txt: note: passed over: a symbolic link to nothing (dangling)\n"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let inputs = try #require(report["inputs"] as? [[String: Any]])
        #expect(inputs.contains { $0["path"] as? String == loop && ($0["error"] as? String)?.contains("link loop") == true })
        #expect(inputs.contains { ($0["path"] as? String)?.hasSuffix("good.txt") == true && $0["format"] as? String == "console-copy" })
        // A file that is not a baseline (here a JSON report) hides nothing silently: refused.
        let notBaseline = folder.appendingPathComponent("report.json")
        try Data(run.stdout.utf8).write(to: notBaseline)
        let refused = try CLI.run(["--date", "2024-03-18", "--baseline", notBaseline.path, logs.appendingPathComponent("good.txt").path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("error: not a prewarm-lint baseline"))
    }

    @Test("the same bytes whatever the order of the inputs, merged or apart, the same file named twice read once")
    func orderIndependent() throws {
        let paths = [Self.scene, Self.watchdog, Self.jetsam, Self.cold].map { Self.root.appendingPathComponent($0).path }
        for mode in [[], ["--separately"]] {
            let forward = try CLI.run(["--date", "2024-03-18", "--format", "json"] + mode + paths)
            let backward = try CLI.run(["--date", "2024-03-18", "--format", "json"] + mode + paths.reversed() + [paths[0]])
            #expect(forward.stdout == backward.stdout, "\(mode)")
            #expect(forward.stdout.count > 1000)
        }
        // The same file under another name (`dir/./file`): one input, not two.
        let first = URL(fileURLWithPath: paths[0])
        let aliased = first.deletingLastPathComponent().path + "/./" + first.lastPathComponent
        let both = try CLI.run(["--date", "2024-03-18", "--format", "json"] + paths + [aliased])
        let inputs = try #require((try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])?["inputs"] as? [[String: Any]])
        #expect(inputs.count == paths.count, "\(inputs.map { $0["path"] ?? "" })")
    }

    @Test("limits are options: a tiny --max-line-length cuts and reports, --max-open-sessions closes early and says so")
    func limitOptions() throws {
        let usage = try CLI.run(["--max-line-length", "10", Self.cold], in: Self.root)
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--max-line-length must be at least 1024 bytes, not 10"))
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two apps prewarmed and never closed: with one session allowed open, the first is closed early.
        let log = folder.appendingPathComponent("two.txt")
        try """
            33	default	07:41:02.120871-0700	runningboardd	Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)
            33	default	07:41:03.120871-0700	runningboardd	Executing launch request for app<com.example.notes(501)> (DAS Prewarm launch)

            """.write(to: log, atomically: true, encoding: .utf8)
        let run = try CLI.run(["--date", "2024-03-18", "--format", "json", "--max-open-sessions", "1", log.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { $0["code"] as? String == "session-limit" && ($0["message"] as? String)?.hasPrefix("1 sessions were closed early") == true })
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        #expect(sessions.count == 2)
        #expect((sessions.first?["incompleteEvidence"] as? [String])?.contains("closed early: more than 1 sessions were open at once") == true)
        // In text, the warning is printed too (it was only in the report's diagnostics), for the input as a whole.
        let text = try CLI.run(["--no-color", "--date", "2024-03-18", "--max-open-sessions", "1", log.path])
        #expect(text.stderr.contains("\(log.path): warning: 1 sessions were closed early: more than 1 were open at once; their evidence says so [session-limit]\n"))
    }

    @Test("Ctrl-C while reading a pipe: the report of what was read, marked partial, exit 130")
    func interrupted() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = try Self.liveFIFO(in: folder)
        let run = try CLI.run(["--date", "2024-03-18", "--format", "json", fifo], interruptAfter: 1.5)
        #expect(run.status == 130)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["partial"] as? Bool == true)
        #expect((report["findings"] as? [Any])?.count == 4)
        #expect(run.stderr.hasSuffix("; interrupted: partial report\ninterrupted: the output covers what was read until then\n"), "\(run.stderr)")
        #expect(run.stderr.contains("4 findings (1 error, 3 warnings) in 1 session"), "\(run.stderr)")
    }

    @Test("Ctrl-C during stats, compare and sessions: never exit 0, always marked partial", arguments: ["stats", "compare", "sessions"])
    func interruptedInsights(command: String) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = try Self.liveFIFO(in: folder)
        let other = Self.root.appendingPathComponent(Self.cold).path
        let arguments: [String] = switch command {
        case "compare": ["compare", "--date", "2024-03-18", "--format", "json", other, "--", fifo]
        default: [command, "--date", "2024-03-18", "--format", "json", fifo]
        }
        let run = try CLI.run(arguments, interruptAfter: 1.5)
        #expect(run.status == 130, "\(command): \(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["partial"] as? Bool == true, "\(command)")
        #expect(run.stderr.contains("interrupted:"))
    }

    @Test("a FIFO whose writer never comes: Ctrl-C reports the other inputs, marked partial, exit 130")
    func fifoWithoutWriter() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("never.log").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try CLI.run(["--date", "2024-03-18", "--format", "json", fifo, Self.root.appendingPathComponent(Self.scene).path],
                              interruptAfter: 1.5)
        #expect(run.status == 130, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["partial"] as? Bool == true)
        #expect((report["findings"] as? [Any])?.count == 4)
        #expect(run.stderr.contains("note: interrupted before 1 input was read: \(fifo)"), "\(run.stderr)")
        #expect(!run.stderr.contains("could not be read"), "\(run.stderr)")
    }

    @Test("Ctrl-C early in a run over the corpus: the inputs not begun said in one line with their count, not as unreadable, exit 130")
    func interruptedOverManyInputs() throws {
        // A FIFO whose writer never comes, first in the order inputs are read (by path) in a folder of its own beside
        // copies of the corpus's scenarios, on one thread: the run waits there, the other inputs not begun.
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("a-never.log").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Corpus/scenarios"), to: folder.appendingPathComponent("b-scenarios"))
        // (Named: a FIFO found in a folder is passed over.)
        let run = try CLI.run(["--separately", "--jobs", "1", "--format", "json", fifo, folder.appendingPathComponent("b-scenarios").path],
                              interruptAfter: 1.0)
        #expect(run.status == 130, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        // One note names them, with their count; the summary counts them beside the findings; no line per input.
        #expect(lines.filter { $0.hasPrefix("note: interrupted before ") && $0.contains(" inputs were read: ") }.count == 1, "\(run.stderr.prefix(3000))")
        #expect(lines.filter { $0.contains("interrupted before") }.count == 2, "\(run.stderr.prefix(3000))")
        #expect(!lines.contains { $0.contains(": error: interrupted") }, "\(run.stderr.prefix(3000))")
        #expect(!run.stderr.contains("could not be read"), "\(run.stderr.suffix(1000))")
        #expect(lines.contains { ($0.contains("finding") || $0.contains("nothing linted")) && $0.contains("interrupted before") }, "\(lines.suffix(3))")
    }

    @Test("`prewarm-lint events … | head -1`: a closed pipe ends the run quietly, exit 0")
    func closedPipe() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stderrFile = folder.appendingPathComponent("stderr").path
        let process = Process()
        // bash, for PIPESTATUS: prewarm-lint's own status, not head's.
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let corpus = Self.root.appendingPathComponent("Corpus").path
        process.arguments = ["-c", "'\(CLI.binary.path)' events --format ndjson '\(corpus)' 2>'\(stderrFile)' | head -1 >/dev/null; exit ${PIPESTATUS[0]}"]
        try process.run()
        process.waitUntilExit()
        let stderr = try String(contentsOfFile: stderrFile, encoding: .utf8)
        #expect(!stderr.contains("Fatal") && !stderr.contains("Broken pipe") && !stderr.contains("Crash"), "\(stderr)")
        #expect(process.terminationStatus == 0, "\(stderr)")
    }

    @Test("several inputs at once give the same bytes as one at a time, merged and separately", arguments: [true, false])
    func parallelIsDeterministic(separately: Bool) throws {
        let paths = separately ? ["Corpus/"] : ["Corpus/scenarios"]
        let flags = separately ? ["--separately"] : []
        let one = try CLI.run(flags + ["--jobs", "1", "--format", "json", "--date", "2024-03-18"] + paths, in: Self.root)
        let many = try CLI.run(flags + ["--jobs", "4", "--format", "json", "--date", "2024-03-18"] + paths, in: Self.root)
        #expect(one.status == many.status)
        #expect(one.stdout.count > 10_000)
        #expect(one.stdout == many.stdout)
        #expect(one.stderr == many.stderr)
    }

    @Test("standard input: `pbpaste | prewarm-lint -` with a Console copy")
    func standardInput() throws {
        let log = try Data(contentsOf: Self.root.appendingPathComponent(Self.scene))
        let run = try CLI.run(["-", "--date", "2024-03-18", "--format", "ndjson"], stdin: log, in: Self.root)
        #expect(run.status == 1)
        let rules = run.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["rule"] as? String
        }
        #expect(rules == ["launch-work-during-prewarm", "state-assumed-at-launch", "keychain-before-activation", "keychain-while-locked"])
    }

    @Test("a pasted document on standard input gives the file's report, its copy in the temporary folder gone when the run ends")
    func pastedDocumentOnStandardInput() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        // An issue body holding a crash report and a Console copy, and the Console copy pasted again, quoted.
        let issue = try Data(contentsOf: Self.root.appendingPathComponent("Corpus/formats/document-issue-body-console-copy-and-crash-report/issue.md"))
        let again = try String(decoding: Data(contentsOf: Self.root.appendingPathComponent("Corpus/real-logs/03-salesforce3437-securityd-25308-keychain-locked.log")), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(separator: "\n")
        let body = issue + Data("\nThe same lines from my other Mac:\n\n\(again)\n".utf8)
        let path = folder.appendingPathComponent("issue.md")
        try body.write(to: path)
        let file = try CLI.run([path.path, "--format", "json", "--date", "2021-03-02"], environment: ["TMPDIR": temporary.path])
        let piped = try CLI.run(["-", "--format", "json", "--date", "2021-03-02"], stdin: body, environment: ["TMPDIR": temporary.path])
        #expect(file.status == 1 && piped.status == 1)
        // The same report, but for the input's name.
        #expect(piped.stdout.replacingOccurrences(of: "\"path\":\"-\"", with: "\"path\":\"\(path.path)\"") == file.stdout)
        #expect(file.stdout.contains("\"format\":\"document\"") && file.stdout.contains("keychain-while-locked") && file.stdout.contains("launch-watchdog"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    @Test("an undated Console copy pasted beside the crash report of its pid takes the report's date, the same from a file, standard input and a paste in memory; --date still wins")
    func undatedCopyDatedByItsReport() throws {
        let issue = Self.root.appendingPathComponent("Corpus/verdicts/undated-copy-dated-by-its-report/issue.md")
        let body = try Data(contentsOf: issue)
        let file = try CLI.run([issue.path, "--format", "json"], in: Self.root)
        let piped = try CLI.run(["-", "--format", "json"], stdin: body, in: Self.root)
        #expect(file.status == 1 && piped.status == 1)
        for run in [file, piped] {
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let sessions = try #require(report["sessions"] as? [[String: Any]])
            #expect(sessions.count == 1 && sessions.first?["kind"] as? String == "background-launch")
            #expect((sessions.first?["start"] as? String)?.hasPrefix("2024-03-18T06:09:59") == true)
            #expect(run.stdout.contains("assuming 2024-03-18 from the Date/Time of the crash report of pid 2231 at line 45 in the same paste"))
        }
        let inMemory = try LogAnalyzer().lint(bytes: [UInt8](body), named: "issue.md")
        #expect(inMemory.sessions.map(\.kind) == [.backgroundLaunch])
        // Read live, the paste is read in its order (a stream is not cut): that is said, not silently two sessions.
        let said = "read as the paste came, the blocks were not merged by time"
        var live = LiveLint(inputName: "issue.md", analyzer: LogAnalyzer())
        try [UInt8](body).withUnsafeBytes { try live.push($0) { _ in } }
        let liveReport = try live.finish { _ in }
        #expect(liveReport.diagnostics.contains { $0.message.contains(said) })
        #expect(!inMemory.diagnostics.contains { $0.message.contains(said) })
        // A date given is the user's word: the copy is then on that date, apart from the report.
        let given = try CLI.run([issue.path, "--format", "json", "--date", "2023-01-01"], in: Self.root)
        #expect(given.stdout.components(separatedBy: "\"kind\":").count - 1 == 2)
    }

    @Test("configuration: found from the working directory upward, never beside the inputs; markers, severities, unknown keys named with their line")
    func configuration() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let logs = folder.appendingPathComponent("logs/device")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent(Self.cold), to: logs.appendingPathComponent("log.txt"))
        let config = folder.appendingPathComponent(".prewarm-lint.yml")
        // The cold launch's `sceneDidBecomeActive` taught as the first frame, 400 ms after the tap: slow at 50 ms,
        // and an error by the configured severity.
        try """
            apps: [com.example.ledger]
            rules:
              prewarm-wasted: off
              slow-activation: {warning-ms: 50, severity: error}
            markers:
              - {match: "sceneDidBecomeActive", meaning: first-frame}
            """.write(to: config, atomically: true, encoding: .utf8)
        let taught = try CLI.run(["--date", "2024-03-18", logs.path], in: folder)
        #expect(taught.status == 1)
        #expect(taught.stderr.hasPrefix("\(config.path): note: configuration used\n"), "\(taught.stderr)")
        // Run from elsewhere, the same file sits above the input: it is someone's bundle, not the user's settings.
        let elsewhere = try CLI.run(["--date", "2024-03-18", logs.path], in: Self.root)
        #expect(elsewhere.status == 0, "the cold launch is clean with the defaults: \(elsewhere.stderr)")
        #expect(elsewhere.stderr.hasPrefix("\(config.path): warning: not used: settings are read from the working directory or above it"), "\(elsewhere.stderr)")
        #expect(elsewhere.stderr.contains("`--config \(config.path)` applies it"))
        #expect(taught.stdout.hasPrefix("\(logs.path)/log.txt:13: error: [slow-activation] launch took 400 ms (tap → first frame; no first-screen line), more than 50 ms\n"))
        try "apps: [com.example.notes]\nrules:\n  slow-activation: {warning-ms: 50}\nmarkers:\n  - {match: sceneDidBecomeActive, meaning: first-frame}\n"
            .write(to: config, atomically: true, encoding: .utf8)
        // A configuration that silences the log's app: every report read as the verdict names it, so "no findings" is
        // never read without it.
        let outputs = ["json", "sarif", "markdown", "html"].map { folder.appendingPathComponent("report.\($0)") }
        let silenced = try CLI.run(["--date", "2024-03-18", logs.path] + zip(["json", "sarif", "markdown", "html"], outputs).flatMap { ["--output", "\($0)=\($1.path)"] },
                                   in: folder)
        #expect(silenced.status == 0, "only com.example.notes is checked")
        #expect(silenced.stderr.hasSuffix("; configuration \(config.path)\n"), "\(silenced.stderr)")
        let reports = try outputs.map { try String(contentsOf: $0, encoding: .utf8) }
        let json = try JSONSerialization.jsonObject(with: Data(reports[0].utf8)) as? [String: Any]
        #expect(json?["configuration"] as? [String: String] == ["source": "file", "path": config.path])
        let sarif = try JSONSerialization.jsonObject(with: Data(reports[1].utf8)) as? [String: Any]
        let invocation = ((sarif?["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first
        #expect((invocation?["properties"] as? [String: Any])?["configuration"] as? [String: String] == ["source": "file", "path": config.path])
        #expect(reports[2].contains("; configuration `\(config.path)`</sub>"))
        #expect(reports[3].contains("; configuration \(config.path)</footer>"))
        let defaults = try CLI.run(["--date", "2024-03-18", "--no-config", "--format", "json", logs.path], in: folder)
        #expect((try JSONSerialization.jsonObject(with: Data(defaults.stdout.utf8)) as? [String: Any])?["configuration"] as? [String: String] == ["source": "defaults"])
        try """
            apps: [com.example.ledger]
            rulez:
              prewarm-wasted: off
            """.write(to: config, atomically: true, encoding: .utf8)
        let typo = try CLI.run(["--date", "2024-03-18", logs.path], in: folder)
        #expect(typo.status == 64)
        #expect(typo.stderr == "\(config.path):2: error: unknown key 'rulez'; the keys are version, apps, disabled, rules, markers\n")
        try "rules:\n  slow-activation: {warning-seconds: 2}\n".write(to: config, atomically: true, encoding: .utf8)
        let option = try CLI.run(["--date", "2024-03-18", logs.path], in: folder)
        #expect(option.status == 64)
        #expect(option.stderr == "\(config.path):2: error: unknown setting 'warning-seconds' for rule 'slow-activation'; its settings are enabled, severity, warning-ms, error-ms\n")
        #expect(try CLI.run(["--date", "2024-03-18", "--no-config", logs.path], in: folder).status == 0)
        // The file's version: 1 is read; a later one is refused, never half read.
        try "version: 1\napps: [com.example.notes]\n".write(to: config, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["--date", "2024-03-18", logs.path], in: folder).status == 0)
        try "version: 2\napps: [com.example.notes]\n".write(to: config, atomically: true, encoding: .utf8)
        let later = try CLI.run(["--date", "2024-03-18", logs.path], in: folder)
        #expect(later.status == 64)
        #expect(later.stderr == "\(config.path):1: error: configuration version 2 is not one this prewarm-lint reads (it reads version 1): upgrade prewarm-lint, or write the file for version 1\n")
    }

    @Test("baselines: recorded findings are hidden and counted, new ones still fail")
    func baseline() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("baseline.txt").path
        let write = try CLI.run(["--date", "2024-03-18", "--write-baseline", baseline, Self.scene], in: Self.root)
        #expect(write.status == 0)
        #expect(write.stderr.hasSuffix("wrote 4 findings to the baseline \(baseline)\n"))
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        #expect(text.contains("keychain-while-locked|com.example.ledger|keychain read failed: keychain is locked (-#) in a prewarm-then-launch session, # h # min before the user activated the app\n"))
        let quiet = try CLI.run(["--date", "2024-03-18", "--baseline", baseline, Self.scene, Self.watchdog], in: Self.root)
        #expect(quiet.status == 1, "the watchdog finding is new")
        #expect(quiet.stdout.contains("[launch-watchdog]") && !quiet.stdout.contains("[keychain-while-locked]"))
        #expect(quiet.stderr.contains("; 4 suppressed by the baseline"))
        // --strict-baseline: the same run passes the baseline's check (every baselined finding is still there)…
        let strictSame = try CLI.run(["--date", "2024-03-18", "--baseline", baseline, "--strict-baseline", "--rule", "keychain-while-locked", "--rule",
                                      "launch-work-during-prewarm", "--rule", "state-assumed-at-launch", "--rule", "keychain-before-activation", Self.scene], in: Self.root)
        #expect(strictSame.status == 0, "\(strictSame.stderr)")
        // …and fails once one is gone (here: its rule is not run), naming it.
        let strictGone = try CLI.run(["--date", "2024-03-18", "--baseline", baseline, "--strict-baseline", "--rule", "launch-work-during-prewarm",
                                      "--rule", "state-assumed-at-launch", "--rule", "keychain-before-activation", Self.scene], in: Self.root)
        #expect(strictGone.status == 1)
        #expect(strictGone.stderr.contains("\(baseline): error: 1 baselined finding is gone (--strict-baseline): re-record the baseline with --write-baseline\n  keychain-while-locked|com.example.ledger|"), "\(strictGone.stderr)")
        #expect(try CLI.run(["--strict-baseline", Self.scene], in: Self.root).status == 64)
    }

    @Test("--version names the commit of the checkout the binary was built in; --color always colours a pipe, never and NO_COLOR do not")
    func versionAndColor() throws {
        let version = try CLI.run(["--version"], in: Self.root)
        #expect(version.status == 0)
        let git = try CLI.run(["-C", Self.root.path, "rev-parse", "HEAD"], executable: URL(fileURLWithPath: "/usr/bin/git"))
        if git.status == 0, CLI.binary.path.hasPrefix(Self.root.path) {
            let hash = String(git.stdout.prefix(12))
            #expect(version.stdout.hasPrefix("0.1.0 (commit \(hash)"), "\(version.stdout)")
        }
        // A copy outside any checkout says the version alone.
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("prewarm-lint")
        try FileManager.default.copyItem(at: CLI.binary, to: copy)
        // A child another test forks while the copy is being written inherits its open descriptor until it execs, and
        // executing the copy meanwhile fails with ETXTBSY ("Text file busy"): tried again for up to a few seconds.
        var copied: EventsCommandTests.Run?
        for attempt in 0..<50 where copied == nil {
            do {
                copied = try CLI.run(["--version"], executable: copy)
            } catch where "\(error)".contains("Text file busy") && attempt < 49 {
                usleep(100_000)
            }
        }
        #expect(copied?.stdout == "0.1.0\n")
        let always = try CLI.run(["--color", "always", "--date", "2024-03-18", Self.scene], in: Self.root, environment: ["NO_COLOR": "1"])
        #expect(always.stdout.contains("\u{1B}["))
        let auto = try CLI.run(["--date", "2024-03-18", Self.scene], in: Self.root)
        #expect(!auto.stdout.contains("\u{1B}["), "a pipe is not coloured")
        let never = try CLI.run(["events", "--color", "never", "--date", "2024-03-18", Self.scene], in: Self.root)
        #expect(never.status == 0 && !never.stdout.contains("\u{1B}["))
        let eventsAlways = try CLI.run(["events", "--color", "always", "--date", "2024-03-18", Self.scene], in: Self.root)
        #expect(eventsAlways.stdout.contains("\u{1B}["))
        // No progress line ever reaches a pipe.
        #expect(!auto.stderr.contains("prewarm-lint: reading"))
    }

    @Test("--redact removes e-mails, tokens, UUIDs and user names, keeps the evidence's meaning")
    func redact() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var log = try String(contentsOf: Self.root.appendingPathComponent(Self.scene), encoding: .utf8)
        log = log.replacingOccurrences(of: "didFinishLaunchingWithOptions applicationState=2 ActivePrewarm=1",
                                       with: "didFinishLaunchingWithOptions applicationState=2 ActivePrewarm=1 user=jane.doe@example.com token=eyJhbGciOiJIUzI1NiJ9abc123 container=/Users/jane/Library/8C1D2E3F-4A5B-6C7D-8E9F-0A1B2C3D4E5F")
        let file = folder.appendingPathComponent("log.txt")
        try log.write(to: file, atomically: true, encoding: .utf8)
        let plain = try CLI.run(["--date", "2024-03-18", "--format", "markdown", file.path])
        #expect(plain.stdout.contains("jane.doe@example.com"))
        let redacted = try CLI.run(["--date", "2024-03-18", "--format", "markdown", "--redact", file.path])
        for secret in ["jane", "eyJhbGciOiJIUzI1NiJ9abc123", "8C1D2E3F-4A5B-6C7D-8E9F-0A1B2C3D4E5F"] {
            #expect(!redacted.stdout.contains(secret), "\(secret) survived --redact")
        }
        #expect(redacted.stdout.contains("user=<email> token=<token> container=/Users/<user>/Library/<uuid>"))
        #expect(redacted.stdout.contains("com.example.ledger") && redacted.stdout.contains("applicationState=2"))
        // Every format, every part of the report (dasd's decisions too), and what is printed on standard error, from a
        // file whose own name holds an e-mail and a UUID.
        let named = folder.appendingPathComponent("jane.doe@example.com-8C1D2E3F-4A5B-6C7D-8E9F-0A1B2C3D4E5F.txt")
        try log.replacingOccurrences(of: "Attempting prewarm for com.example.ledger",
                                     with: "Attempting prewarm for com.example.ledger user=jane.doe@example.com 8C1D2E3F-4A5B-6C7D-8E9F-0A1B2C3D4E5F")
            .write(to: named, atomically: true, encoding: .utf8)
        for format in ["json", "otlp", "fleet", "sarif", "text"] {
            let run = try CLI.run(["--date", "2024-03-18", "--format", format, "--redact", named.path])
            for secret in ["jane.doe@example.com", "8C1D2E3F-4A5B-6C7D-8E9F-0A1B2C3D4E5F"] {
                #expect(!(run.stdout + run.stderr).contains(secret), "\(format): \(secret) survived --redact")
            }
            #expect(run.stdout.contains("com.example.ledger"), "\(format)")
        }
    }

    @Test("the spellings other linters taught answered with ours: --reporter, a bare --output path, a misspelled subcommand")
    func otherLintersSpellings() throws {
        let reporter = try CLI.run(["--reporter", "json", Self.scene], in: Self.root)
        #expect(reporter.status == 64)
        #expect(reporter.stderr.hasPrefix("Error: prewarm-lint calls the report format --format: `--format json`"), "\(reporter.stderr)")
        let output = try CLI.run(["--output", "report.sarif", Self.scene], in: Self.root)
        #expect(output.status == 64)
        #expect(output.stderr.contains("--output takes FORMAT=PATH: `--output sarif=report.sarif`"), "\(output.stderr)")
        let format = try CLI.run(["--output", "xml=report.xml", Self.scene], in: Self.root)
        #expect(format.stderr.contains("'xml' is not a report format; the formats are text, json"), "\(format.stderr)")
        let typo = try CLI.run(["lnt", "Corpus/scenarios"], in: Self.root)
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("Error: 'lnt' is neither a file nor a subcommand; did you mean `prewarm-lint lint`?"), "\(typo.stderr)")
        #expect(try CLI.run(["--date", "2024-03-18", Self.scene], in: Self.root).status == 1, "a real path is still read")
    }

    @Test("a cut list of diagnostics ends with how many were not shown, in lint, sessions and events alike")
    func cutDiagnosticsAreCounted() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Stray lines before a Console copy (an orphan-lines warning) whose launch lines name their app <private> (a
        // redacted-evidence warning): two warnings.
        let log = folder.appendingPathComponent("pasted.log")
        let scene = try String(contentsOf: Self.root.appendingPathComponent(Self.scene), encoding: .utf8)
        try (String(repeating: "stray text\n", count: 3) + scene).write(to: log, atomically: true, encoding: .utf8)
        let all = try CLI.run(["--date", "2024-03-18", log.path])
        #expect(all.stderr.components(separatedBy: ": warning: ").count - 1 == 2, "\(all.stderr)")
        #expect(!all.stderr.contains("not shown"))
        for command in [[], ["sessions"]] {
            let cut = try CLI.run(command + ["--date", "2024-03-18", "--max-diagnostics", "1", log.path])
            #expect(cut.stderr.components(separatedBy: ": warning: ").count - 1 == 1, "\(command): \(cut.stderr)")
            #expect(cut.stderr.contains("note: 1 more diagnostic not shown (--max-diagnostics 2 shows every one; --format json lists them)\n"),
                    "\(command): \(cut.stderr)")
        }
        // `events` shows the reader's own, notes too: the orphan lines, then the date it inferred.
        let events = try CLI.run(["events", "--date", "2024-03-18", "--max-diagnostics", "1", log.path])
        #expect(events.stderr.contains("[orphan-lines]\nnote: 1 more diagnostic not shown (--max-diagnostics 2 shows every one)\n"), "\(events.stderr)")
    }

    @Test("every report format the CLI offers has its renderer, and every built-in renderer is offered")
    func everyFormatHasItsRenderer() throws {
        let help = try CLI.run(["lint", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        let match = try #require(help.firstMatch(of: /--format <format>.*?\(values: ([a-z, ]+?);/))
        let offered = match.output.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(offered.sorted() == ReportRenderers.builtIn(rules: []).map(\.formatName).sorted())
        for format in offered {
            let run = try CLI.run(["--date", "2024-03-18", "--format", format, Self.scene], in: Self.root)
            #expect(run.status == 1, "\(format): \(run.stderr)")
            #expect(!run.stdout.isEmpty, "\(format) wrote nothing")
        }
    }

    @Test("rules lists every rule; explain prints one; an unknown one is a usage error")
    func rulesAndExplain() throws {
        let rules = try CLI.run(["rules"])
        #expect(rules.status == 0)
        #expect(rules.stdout.split(separator: "\n").count == 10)
        #expect(rules.stdout.hasPrefix("keychain-while-locked             error    A keychain access by the app failed with -25308"))
        let explain = try CLI.run(["explain", "prewarm-wasted"])
        #expect(explain.status == 0)
        #expect(explain.stdout.hasPrefix("# `prewarm-wasted`: Prewarm wasted\n\nDefault severity: **info**"))
        #expect(try CLI.run(["explain", "prewarm"]).status == 64)
    }

    @Test("a file named on the command line with bytes that are not UTF-8 is read, and named as \\xNN")
    func nonUTF8Argument() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = "cp \"$1\" \"$2/$(printf 'caf\\351.log')\" && exec \"$3\" --no-color \"$2/$(printf 'caf\\351.log')\""
        let run = try CLI.run(["-c", copy, "sh", Self.root.appendingPathComponent(Self.cold).path, folder.path, CLI.binary.path],
                              executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasSuffix("no findings in 1 session (1 cold-launch) from 1 input; launch 303 ms (tap → active; no first-screen line)\n"), "\(run.stderr)")
        #expect(run.stderr.contains("caf\\xE9.log:1: warning:"), "\(run.stderr)")
    }

    /// A stand-in for Apple's `log`: checks the contract's arguments, says something on stderr, writes the cold-launch
    /// scenario's ndjson (or fails with `status`), as `log show --archive … --style ndjson` would.
    static func standInLogTool(in folder: URL, status: Int = 0) throws -> String {
        let script = folder.appendingPathComponent("log-stand-in")
        let body = """
            #!/bin/sh
            [ "$1" = show ] && [ "$2" = --archive ] && [ "$4" = --style ] && [ "$5" = ndjson ] && [ "$6" = --info ] && [ "$7" = --predicate ] \\
                || { echo "stand-in: unexpected arguments: $*" >&2; exit 64; }
            [ -d "$3" ] || { echo "stand-in: no archive at $3" >&2; exit 66; }
            echo "stand-in: exporting $(basename "$3")" >&2
            shift 8
            [ $# -eq 0 ] || echo "stand-in: window $*" >&2
            \(status == 0 ? "cat '\(root.appendingPathComponent(cold).deletingLastPathComponent().appendingPathComponent("log.ndjson").path)'" : "head -c 300 '\(root.appendingPathComponent(cold).deletingLastPathComponent().appendingPathComponent("log.ndjson").path)'; exit \(status)")

            """
        try body.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return script.path
    }

    @Test("a .logarchive is read through the tool that exports it with --exporter: its output streamed, its stderr passed through, its failure an unreadable input; without --exporter, natively")
    func logArchive() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sysdiagnose = folder.appendingPathComponent("sysdiagnose_2024.03.18")
        let archive = sysdiagnose.appendingPathComponent("system_logs.logarchive")
        try FileManager.default.createDirectory(at: archive.appendingPathComponent("Persist"), withIntermediateDirectories: true)
        try Data(repeating: 0x6A, count: 4096).write(to: archive.appendingPathComponent("Persist/0000000000000001.tracev3"))
        // A sysdiagnose folder: the archive is one input (not walked into), read through the tool.
        let good = try CLI.run(["--no-color", "--exporter", sysdiagnose.path], environment: ["PREWARM_LINT_LOG_TOOL": try Self.standInLogTool(in: folder)])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stderr.contains("stand-in: exporting system_logs.logarchive\n"))
        #expect(good.stderr.hasSuffix("no findings in 1 session (1 cold-launch) from 1 input; launch 303 ms (tap → active; no first-screen line)\n"), "\(good.stderr)")
        // `--since`/`--until` reach `log show` as `--start`/`--end` covering the window (a wall-clock bound widened by
        // the 14 hours any UTC offset can shift it; one with an offset exact, outwards to the second); the window itself
        // is still applied to the output, so the session is the same.
        let windowed = try CLI.run(["--no-color", "--exporter", "--since", "2024-03-18 09:00:00", "--until", "2024-03-18 09:30:00.5-07:00", sysdiagnose.path],
                                   environment: ["PREWARM_LINT_LOG_TOOL": try Self.standInLogTool(in: folder)])
        #expect(windowed.status == 0, "\(windowed.stderr)")
        #expect(windowed.stderr.contains("stand-in: window --start 2024-03-17 19:00:00+0000 --end 2024-03-18 16:30:01+0000\n"), "\(windowed.stderr)")
        #expect(windowed.stderr.hasSuffix("no findings in 1 session (1 cold-launch) from 1 input; launch 303 ms (tap → active; no first-screen line)\n"), "\(windowed.stderr)")
        // The tool fails after writing part of its output: the input is unreadable (exit 2), the tool named.
        let failing = try CLI.run(["--no-color", "--exporter", archive.path], environment: ["PREWARM_LINT_LOG_TOOL": try Self.standInLogTool(in: folder, status: 3)])
        #expect(failing.status == 2)
        #expect(failing.stderr.contains("\(archive.path): error: `\(folder.path)/log-stand-in show --archive \(archive.path) --style ndjson"), "\(failing.stderr)")
        #expect(failing.stderr.contains("exited with status 3 (its messages are above)"))
        #if !canImport(Darwin)  // (macOS always has `log`)
        // No tool installed: --exporter is a usage error saying so.
        let noTool = ["PATH": "/usr/bin:/bin", "PREWARM_LINT_LOG_TOOL": "", "PREWARM_LINT_UNIFIEDLOG_ITERATOR": ""]
        let asked = try CLI.run(["--no-color", "--exporter", archive.path], environment: noTool)
        #expect(asked.status == 64 && asked.stderr.contains("--exporter: no exporter of unified log archives is installed"), "\(asked.stderr)")
        #endif
        // Without --exporter, the archive is read natively, a tool installed or not: this one's file is not a tracev3
        // file, so it is unreadable.
        let native = try CLI.run(["--no-color", archive.path], environment: ["PREWARM_LINT_LOG_TOOL": try Self.standInLogTool(in: folder)])
        #expect(native.status == 2 && !native.stderr.contains("stand-in"))
        #expect(native.stderr.contains("\(archive.path): error: Persist/0000000000000001.tracev3 is not a tracev3 file: its first bytes are not a unified log header"), "\(native.stderr)")
    }

    @Test("an archive's file named to forge a line (a newline, then `x: error: …`): every command says the error on one line and exits 2")
    func archiveMemberNameCannotForgeALine() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("x.logarchive")
        try FileManager.default.createDirectory(at: archive.appendingPathComponent("Persist"), withIntermediateDirectories: true)
        try Data(repeating: 0x6A, count: 64).write(to: archive.appendingPathComponent("Persist/a\nforged: error: FORGED.tracev3"))
        for command in [[], ["sessions"], ["events"], ["stats"]] {
            let run = try CLI.run(command + ["--no-color", archive.path])
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("\(archive.path): error: Persist/a⏎forged: error: FORGED.tracev3 is not a tracev3 file"), "\(command): \(run.stderr)")
            #expect(!(run.stderr + run.stdout).split(separator: "\n").contains { $0.hasPrefix("forged:") }, "\(command): \(run.stderr)")
        }
    }

    @Test("a folder of an archive's shape (a device's Diagnostics: timesync/ and Persist/) is one archive input, whatever its name; a folder with Persist/ alone is walked")
    func diagnosticsFolderIsAnArchive() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiny = EventsCommandTests.repositoryRoot.appendingPathComponent("Tests/PrewarmLintReadersTests/UnifiedLogSamples/0000000000000030.tracev3")
        let diagnostics = folder.appendingPathComponent("Diagnostics")
        for sub in ["Persist", "timesync"] {
            try FileManager.default.createDirectory(at: diagnostics.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: tiny, to: diagnostics.appendingPathComponent("Persist/0000000000000030.tracev3"))
        let run = try CLI.run(["--format", "json", diagnostics.path])
        let inputs = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["path"] as? String } == [diagnostics.path] && inputs.map { $0["format"] as? String } == ["logarchive"], "\(inputs)")
        #expect(inputs.map { $0["events"] as? Int } == [5])
        try FileManager.default.removeItem(at: diagnostics.appendingPathComponent("timesync"))
        let walked = try CLI.run(["--format", "json", diagnostics.path])
        let files = try #require((try JSONSerialization.jsonObject(with: Data(walked.stdout.utf8)) as? [String: Any])?["inputs"] as? [[String: Any]])
        #expect(files.map { $0["format"] as? String } == ["tracev3"], "\(files)")
    }

    @Test("a .logarchive read natively when no exporter is installed: its tracev3 file's events with their times, pids and messages; the report's input format logarchive; what the archive's strings lack warned")
    func logArchiveReadNatively() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A real macOS 12 archive's Persist file, timesync and four uuidtext files, laid out as a .logarchive.
        let samples = Self.root.appendingPathComponent("Tests/PrewarmLintReadersTests/UnifiedLogSamples/macos12")
        let archive = folder.appendingPathComponent("system_logs.logarchive")
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        for item in ["Persist", "timesync"] {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(item), to: archive.appendingPathComponent(item))
        }
        for item in try FileManager.default.contentsOfDirectory(atPath: samples.appendingPathComponent("uuidtext").path) {
            try FileManager.default.copyItem(at: samples.appendingPathComponent("uuidtext/\(item)"), to: archive.appendingPathComponent(item))
        }
        let noTool = ["PATH": "/usr/bin:/bin", "PREWARM_LINT_LOG_TOOL": "", "PREWARM_LINT_UNIFIEDLOG_ITERATOR": ""]
        let events = try CLI.run(["events", "--format", "ndjson", archive.path], environment: noTool)
        #if !canImport(Darwin)
        let screen = try #require(events.stdout.split(separator: "\n").first { $0.contains("initialize_screen") }, "\(events.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(screen.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2023-01-11T17:35:35.240424-08:00")  // plaso: 01:35:35.240424708 UTC
        #expect(object["process"] as? String == "kernel" && object["pid"] as? Int == 0 && object["role"] as? String == "kernel")
        #expect((object["origin"] as? [String: Any])?["path"] as? String == archive.path + "/Persist/0000000000000001.tracev3")
        #expect(events.stderr.contains("log entries whose format string the archive lacks (its dsc or uuidtext files), by process: kernel "), "\(events.stderr)")
        #expect(events.stderr.contains("\(archive.path): logarchive, 73745 events from 73745 lines; 1 warning"), "\(events.stderr)")
        #endif
    }

    @Test("a sysdiagnose .tar.gz: its unified log taken out into a private folder, exported by the tool or read natively, its events merged by time with the archive's reports; hostile names refused; the folder removed")
    func logArchiveInsideSysdiagnose() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scratch = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let name = "sysdiagnose_2024.03.18_09-30-00-0700_iPhone-OS_iPhone_21E219"
        var tar = TarArchiveBuilder()
        // A report of another day (a JetsamEvent of 05:40) must come out before the log's 09:12 launch.
        tar.add("\(name)/crashes_and_spins/JetsamEvent-2024-03-18-054000.ips",
                Array(try Data(contentsOf: Self.root.appendingPathComponent("Corpus/formats/crash-report-ips-jetsam/JetsamEvent-2024-03-18-054000.ips"))))
        tar.add("\(name)/system_logs.logarchive/Info.plist", Array("<plist/>".utf8))
        // A name longer than a file name can be (GNU tar writes it): refused, the extraction goes on.
        tar.add("\(name)/system_logs.logarchive/Persist/" + String(repeating: "a", count: 300) + ".tracev3", [7], style: .gnuLongName)
        tar.add("\(name)/system_logs.logarchive/Persist/0000000000000001.tracev3", [UInt8](repeating: 0x6A, count: 70_000))
        tar.add("\(name)/system_logs.logarchive/../../escape.tracev3", [1, 2, 3])
        tar.add("/etc/system_logs.logarchive/Persist/0000000000000001.tracev3", [4, 5, 6])
        tar.end()
        let archive = folder.appendingPathComponent("\(name).tar.gz")
        try Data(try tar.gzipped()).write(to: archive)
        let environment = ["PREWARM_LINT_LOG_TOOL": try Self.standInLogTool(in: folder), "TMPDIR": scratch.path]
        let run = try CLI.run(["events", "--exporter", "--format", "ndjson", archive.path], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("stand-in: exporting system_logs.logarchive\n"), "\(run.stderr)")
        #expect(run.stderr.contains("note: its unified log (system_logs.logarchive, 2 files, 0 MB) exported with `\(folder.path)/log-stand-in show --archive system_logs.logarchive --style ndjson"), "\(run.stderr)")
        #expect(run.stderr.contains("warning: 3 entries of the unified log not extracted: a `..` or `.` in the name, a name given twice or too long to create, or a second .logarchive"), "\(run.stderr)")
        let inputs = run.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["origin"] as? [String: Any])?["path"] as? String
        }
        #expect(inputs.first?.hasSuffix(".tar.gz:\(name)/crashes_and_spins/JetsamEvent-2024-03-18-054000.ips") == true, "\(inputs.prefix(3))")
        #expect(inputs.count > 10)
        #expect(inputs.dropFirst(2).allSatisfy { $0.hasSuffix(".tar.gz:system_logs.logarchive") }, "\(Set(inputs))")
        // Nothing escaped, nothing left behind.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escape.tracev3").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        // lint: the log's cold launch and the jetsam report together.
        let lint = try CLI.run(["--no-color", "--exporter", archive.path], environment: environment)
        #expect(lint.stderr.contains("1 cold-launch"), "\(lint.stderr)")
        // No tool: read natively; its file is not tracev3, which is said; the reports read all the same.
        let noTool = ["PATH": "/usr/bin:/bin", "PREWARM_LINT_LOG_TOOL": "", "PREWARM_LINT_UNIFIEDLOG_ITERATOR": "", "TMPDIR": scratch.path]
        #if !canImport(Darwin)
        let none = try CLI.run(["events", archive.path], environment: noTool)
        #expect(none.stderr.contains("note: its unified log (system_logs.logarchive, 2 files, 0 MB) read natively (no exporter installed)"), "\(none.stderr)")
        #expect(none.stderr.contains("warning: its unified log could not be read whole: Persist/0000000000000001.tracev3 is not a tracev3 file"), "\(none.stderr)")
        #expect(none.stdout.contains("JetsamEvent"), "\(none.stdout.prefix(2000))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        // A real tracev3 file in it: its entries read natively and merged by time with the jetsam report.
        var real = TarArchiveBuilder()
        real.add("\(name)/crashes_and_spins/JetsamEvent-2024-03-18-054000.ips",
                 Array(try Data(contentsOf: Self.root.appendingPathComponent("Corpus/formats/crash-report-ips-jetsam/JetsamEvent-2024-03-18-054000.ips"))))
        real.add("\(name)/system_logs.logarchive/Persist/0000000000000030.tracev3",
                 Array(try Data(contentsOf: Self.root.appendingPathComponent("Tests/PrewarmLintReadersTests/UnifiedLogSamples/0000000000000030.tracev3"))))
        real.end()
        let realArchive = folder.appendingPathComponent("real.tar.gz")
        try Data(try real.gzipped()).write(to: realArchive)
        let native = try CLI.run(["events", "--format", "ndjson", realArchive.path], environment: noTool)
        let paths = native.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["origin"] as? [String: Any])?["path"] as? String
        }
        // The file's 5 entries of 2021 first, then the report's 2 events of 2024.
        #expect(paths.count == 7, "\(native.stderr)")
        #expect(paths.prefix(5).allSatisfy { $0 == realArchive.path + ":system_logs.logarchive/Persist/0000000000000030.tracev3" }, "\(paths)")
        #expect(paths.suffix(2).allSatisfy { $0.hasSuffix("JetsamEvent-2024-03-18-054000.ips") }, "\(paths)")
        #expect(native.stderr.contains("5 log entries whose format string the archive lacks"), "\(native.stderr)")
        #endif
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    /// A stand-in exporter that leaves a process of its own holding its output (`sleep` in the background) and writes
    /// both pids to `pids`; with `ignoresTerm` it ignores SIGTERM and never ends by itself, else it writes the cold
    /// launch and exits.
    static func lingeringTool(in folder: URL, pids: URL, ignoresTerm: Bool) throws -> String {
        let script = folder.appendingPathComponent(ignoresTerm ? "stubborn-tool" : "lingering-tool")
        let log = root.appendingPathComponent(cold).deletingLastPathComponent().appendingPathComponent("log.ndjson").path
        let body = """
            #!/bin/sh
            \(ignoresTerm ? "trap '' TERM" : "")
            sleep 300 &
            echo "$$ $!" > '\(pids.path)'
            cat '\(log)'
            \(ignoresTerm ? "while :; do sleep 1; done" : "exit 0")

            """
        try body.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return script.path
    }

    @Test("unifiedlog_iterator older than 0.7.0 (the first to read iOS 27 archives) is said in an exporter-version warning before it reads; 0.7.0 and later, not; a tool that does not say its version, said so")
    func iteratorVersion() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("system_logs.logarchive")
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        let export = Self.root.appendingPathComponent("Corpus/formats/unifiedlog-iterator-jsonl/log.jsonl").path
        func run(saying version: String) throws -> (status: Int32, stderr: String) {
            // A stand-in with unifiedlog_iterator's arguments: `--version` as clap prints it, else the export.
            let tool = folder.appendingPathComponent("unifiedlog_iterator-\(version.isEmpty ? "silent" : version)")
            try """
                #!/bin/sh
                if [ "$1" = "--version" ]; then \(version.isEmpty ? "exit 0" : "echo 'unifiedlog_iterator \(version)'; exit 0"); fi
                cat '\(export)'

                """.write(to: tool, atomically: true, encoding: .utf8)
            chmod(tool.path, 0o755)
            let result = try CLI.run(["--no-color", "--exporter", archive.path], environment: ["PREWARM_LINT_LOG_TOOL": "", "PREWARM_LINT_UNIFIEDLOG_ITERATOR": tool.path])
            return (result.status, result.stderr)
        }
        let old = try run(saying: "0.5.0")
        #expect(old.stderr.contains("warning: unifiedlog_iterator 0.5.0 is older than 0.7.0, the first to read iOS 27 archives"), "\(old.stderr)")
        #expect(old.stderr.contains("[exporter-version]") && old.status != 2)
        let recent = try run(saying: "0.7.1")
        #expect(!recent.stderr.contains("[exporter-version]"), "\(recent.stderr)")
        #expect(recent.status == old.status)
        let silent = try run(saying: "")
        #expect(silent.stderr.contains("unifiedlog_iterator did not say its version"), "\(silent.stderr)")
    }

    /// Whether every pid in `pids` is gone (a zombie of an exited shell's orphan counts as gone once reaped by init).
    static func allGone(_ pids: URL) throws -> Bool {
        let numbers = try String(contentsOf: pids, encoding: .utf8).split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        for _ in 0..<50 {
            if numbers.allSatisfy({ kill($0, 0) != 0 }) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// A sysdiagnose `.tar.gz` in `folder` whose unified log is one (not tracev3) file, and an empty `tmp/` beside it
    /// for the run's `TMPDIR`.
    static func sysdiagnoseWithALog(in folder: URL) throws -> (archive: URL, scratch: URL) {
        let scratch = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var tar = TarArchiveBuilder()
        tar.add("sysdiagnose/system_logs.logarchive/Persist/0000000000000001.tracev3", [UInt8](repeating: 0x6A, count: 70_000))
        tar.end()
        let archive = folder.appendingPathComponent("sysdiagnose.tar.gz")
        try Data(try tar.gzipped()).write(to: archive)
        return (archive, scratch)
    }

    @Test("SIGTERM and SIGHUP end a run as Ctrl-C does: 128 + the signal, the exporter and what it started stopped (killed 5 s after it ignored SIGTERM), the temporary folder removed")
    func signalsStopTheExporter() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (archive, scratch) = try Self.sysdiagnoseWithALog(in: folder)
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, Int32(129)), (SIGINT, Int32(130))] {
            let pids = folder.appendingPathComponent("pids-\(signal)")
            let tool = try Self.lingeringTool(in: folder, pids: pids, ignoresTerm: true)
            let start = Date()
            let run = try CLI.run(["--format", "json", "--exporter", archive.path], interruptAfter: 1.5, signal: signal,
                                  environment: ["PREWARM_LINT_LOG_TOOL": tool, "TMPDIR": scratch.path])
            let elapsed = Date().timeIntervalSince(start)
            #expect(run.status == status, "\(signal): \(run.stderr)")
            #expect(run.stderr.contains("interrupted: the output covers what was read until then"), "\(run.stderr)")
            #expect((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["partial"] as? Bool == true)
            #expect(try Self.allGone(pids), "\(signal): the exporter or its child outlived the run")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "\(signal)")
            // 1.5 s, then the 5 s the exporter is given; ten times the target before this fails.
            #expect(elapsed < 65, "\(elapsed) s")
        }
    }

    @Test("a second Ctrl-C while the run waits for an exporter that ignores SIGTERM: the run ends at once, by the signal, its exporter killed and its folder removed")
    func secondInterruptLeavesNothingBehind() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (archive, scratch) = try Self.sysdiagnoseWithALog(in: folder)
        let pids = folder.appendingPathComponent("pids")
        let tool = try Self.lingeringTool(in: folder, pids: pids, ignoresTerm: true)
        let start = Date()
        // The first Ctrl-C gives the exporter 5 s to stop; the second comes 1 s into them.
        let run = try CLI.run(["--format", "json", "--exporter", archive.path], interruptAfter: 1.5, signal: SIGINT,
                              environment: ["PREWARM_LINT_LOG_TOOL": tool, "TMPDIR": scratch.path], secondSignalAfter: 1)
        let elapsed = Date().timeIntervalSince(start)
        // Ended by the signal (Process then says its number), or by the run itself when it got there first: the
        // exporter killed, its wait ends, and the partial report is printed (130).
        #expect(run.status == SIGINT || run.status == 130, "\(run.status) \(run.stderr)")
        #expect(try Self.allGone(pids), "the exporter or its child outlived the run")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        // 2.5 s, not the 6.5 s the exporter's grace would take; ten times the target before this fails.
        #expect(elapsed < 25, "\(elapsed) s")
    }

    @Test("an exporter that exits while a process it started still holds its output: the run ends, that process killed; a dead run's folder swept, a live one's kept")
    func exporterGrandchildAndStaleFolders() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scratch = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // What a run killed outright leaves: its folder named with its pid (one that cannot exist), and a live run's.
        let stale = scratch.appendingPathComponent("prewarm-lint-logarchive-2147483646-AbCdEf")
        let live = scratch.appendingPathComponent("prewarm-lint-logarchive-\(getpid())-GhIjKl")
        for kept in [stale, live] { try FileManager.default.createDirectory(at: kept.appendingPathComponent("x.logarchive"), withIntermediateDirectories: true) }
        var tar = TarArchiveBuilder()
        tar.add("sysdiagnose/system_logs.logarchive/Persist/0000000000000001.tracev3", [UInt8](repeating: 0x6A, count: 70_000))
        tar.end()
        let archive = folder.appendingPathComponent("sysdiagnose.tar.gz")
        try Data(try tar.gzipped()).write(to: archive)
        let pids = folder.appendingPathComponent("pids")
        let start = Date()
        let run = try CLI.run(["--no-color", "--exporter", archive.path], environment: ["PREWARM_LINT_LOG_TOOL": try Self.lingeringTool(in: folder, pids: pids, ignoresTerm: false),
                                                                          "TMPDIR": scratch.path])
        #expect(Date().timeIntervalSince(start) < 30, "the run waited on the pipe the exporter's child held")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("1 cold-launch"), "\(run.stderr)")
        #expect(try Self.allGone(pids))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [live.lastPathComponent])
    }

    #if !canImport(Darwin)
    @Test("a folder named unifiedlog_iterator earlier on PATH is not taken for the tool")
    func pathFolderIsNotTheTool() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("unifiedlog_iterator"), withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent("system_logs.logarchive")
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        let run = try CLI.run(["--no-color", archive.path],
                              environment: ["PATH": "\(folder.path):/usr/bin:/bin", "PREWARM_LINT_LOG_TOOL": "", "PREWARM_LINT_UNIFIEDLOG_ITERATOR": ""])
        // No tool: the archive is read natively, and this one holds no tracev3 file.
        #expect(run.status == 2)
        #expect(run.stderr.contains("error: a unified log archive with no tracev3 file"), "\(run.stderr)")
    }
    #endif

    @Test("--format github with GITHUB_STEP_SUMMARY set: the Markdown report appended to the summary file (what was there kept); an unwritable summary file is said and exits 2")
    func githubStepSummary() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = folder.appendingPathComponent("summary.md")
        try Data("earlier step\n".utf8).write(to: summary)
        let run = try CLI.run(["--format", "github", "Corpus"], in: Self.root, environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(run.status == 1, "\(run.stderr)")
        let written = try String(contentsOf: summary, encoding: .utf8)
        #expect(written.hasPrefix("earlier step\n"))
        let markdown = try CLI.run(["--format", "markdown", "Corpus"], in: Self.root).stdout
        #expect(written == "earlier step\n" + markdown)
        #expect(run.stdout.contains("not shown as annotations (GitHub shows 10 of each level per step)"), "\(run.stdout.suffix(500))")
        // No summary without the variable; an unwritable one said, exit 2.
        let elsewhere = try CLI.run(["--format", "github", "Corpus"], in: Self.root,
                                    environment: ["GITHUB_STEP_SUMMARY": folder.appendingPathComponent("none/summary.md").path])
        #expect(elsewhere.status == 2 && elsewhere.stderr.contains("cannot write GitHub's step summary (GITHUB_STEP_SUMMARY)"), "\(elsewhere.stderr.suffix(500))")
    }

    @Test("--format fleet: a record per input (its devices, error null when read) and per session (its findings by rule, the one device its inputs say, flat); no flat device when the inputs say two")
    func fleetRecords() throws {
        let jetsam = "Corpus/formats/crash-report-ips-jetsam/JetsamEvent-2024-03-18-054000.ips"
        let scene = "Corpus/scenarios/prewarm-then-launch-scene-app/log.txt"
        let run = try CLI.run(["--format", "fleet", "--date", "2024-03-18", scene, jetsam], in: Self.root)
        #expect(run.status == 1, "\(run.stderr)")
        let records = try run.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.allSatisfy { $0["schemaVersion"] as? Int == 1 })
        let inputs = records.filter { $0["record"] as? String == "input" }
        #expect(inputs.map { $0["path"] as? String } == [jetsam, scene] && inputs.allSatisfy { $0["error"] is NSNull })
        #expect((inputs[0]["devices"] as? [[String: Any]])?.first?["model"] as? String == "iPhone15,2")
        let session = try #require(records.first { $0["record"] as? String == "session" })
        #expect(session["bundleID"] as? String == "com.example.ledger" && session["kind"] as? String == "prewarm-then-launch")
        #expect(session["build"] as? String == "21E219" && session["model"] as? String == "iPhone15,2")
        #expect((session["findings"] as? [String: Int])?["keychain-while-locked"] == 1 && session["findingCount"] as? Int == 4)
        // A tracev3 file's header says another device: the session's inputs name two, so none is given flat.
        let two = try CLI.run(["--format", "fleet", "--date", "2024-03-18", scene, jetsam, "Tests/PrewarmLintReadersTests/UnifiedLogSamples/0000000000000030.tracev3"],
                              in: Self.root)
        let merged = try #require(try two.stdout.split(separator: "\n").compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["record"] as? String == "session" })
        #expect(merged["build"] == nil && (merged["devices"] as? [Any])?.count == 2, "\(merged)")
        // --redact: the incident that names the report is not in the records; the device is.
        let redacted = try CLI.run(["--format", "fleet", "--redact", "--date", "2024-03-18", scene, jetsam], in: Self.root)
        #expect(!redacted.stdout.contains("7C2E9A41-5B3D-4F6E-8A1C-2D4F6B8E0A13") && redacted.stdout.contains("\"model\":\"iPhone15,2\""), "\(redacted.stdout.prefix(600))")
    }

    @Test("SARIF: a distinct fingerprint for every finding of the corpus, the same on a second run; every machine format says an input was unreadable")
    func machineFormats() throws {
        let first = try CLI.run(["--separately", "--format", "sarif", "Corpus/"], in: Self.root)
        let second = try CLI.run(["--separately", "--format", "sarif", "Corpus/"], in: Self.root)
        #expect(first.stdout == second.stdout)
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let fingerprints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?["prewarmLintFinding/v2"] }
        #expect(results.count > 100)
        #expect(fingerprints.count == results.count)
        #expect(Set(fingerprints).count == results.count)
        #expect((run["automationDetails"] as? [String: String])?["id"] == "prewarm-lint/")

        let missing = "/nonexistent/device.log"
        let machine = try CLI.run(["--format", "sarif", Self.cold, missing], in: Self.root)
        #expect(machine.status == 2)
        #expect(machine.stdout.contains(#""message":{"text":"cannot read /nonexistent/device.log: no such file or directory"#))
        #expect(machine.stdout.contains(#""uri":"file:///nonexistent/device.log""#))
        #expect(machine.stdout.contains(#""uri":"Corpus/scenarios/cold-launch/log.txt","uriBaseId":"%SRCROOT%""#))
        let junit = try CLI.run(["--format", "junit", missing], in: Self.root)
        #expect(junit.stdout.contains(#"<testsuites name="prewarm-lint" tests="1" failures="0" errors="1">"#))
        #expect(junit.stdout.contains(#"<error type="unreadable-input" message="no such file or directory"#))
        let github = try CLI.run(["--format", "github", missing], in: Self.root)
        #expect(github.stdout.hasPrefix("::error file=/nonexistent/device.log,title=prewarm-lint%3A unreadable input::no such file or directory"))
        let ndjson = try CLI.run(["--format", "ndjson", missing], in: Self.root)
        #expect(ndjson.stdout.hasPrefix(#"{"error":"unreadable-input","input":"/nonexistent/device.log","message":"no such file"#))
    }

    @Test("--quiet hides the status lines (the counts by rule, the configuration note), never a finding, a warning or the summary")
    func quietHidesStatusNotFindings() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "disabled: [prewarm-wasted]\n".write(to: folder.appendingPathComponent(".prewarm-lint.yml"), atomically: true, encoding: .utf8)
        let inputs = [Self.scene, Self.watchdog, Self.jetsam].map { Self.root.appendingPathComponent($0).path }
        let loud = try CLI.run(["--separately", "--date", "2024-03-18", "--no-color"] + inputs, in: folder)
        let quiet = try CLI.run(["--quiet", "--separately", "--date", "2024-03-18", "--no-color"] + inputs, in: folder)
        #expect(quiet.status == loud.status && loud.status == 1)
        #expect(quiet.stdout == loud.stdout && quiet.stdout.contains("error: [launch-watchdog]"), "every finding, as without --quiet")
        #expect(loud.stderr.contains("note: configuration used") && loud.stderr.contains("\nby rule: "), "\(loud.stderr)")
        #expect(!quiet.stderr.contains("note: configuration used") && !quiet.stderr.contains("by rule: "), "\(quiet.stderr)")
        let summary = try #require(loud.stderr.split(separator: "\n").last)
        #expect(quiet.stderr.hasSuffix(summary + "\n"), "the summary, with the configuration it names: \(quiet.stderr)")
        #expect(summary.contains("; configuration \(folder.path)/.prewarm-lint.yml"))
    }

    @Test("Markdown on a day of sessions: findings per rule first, notes grouped by reason, five findings a rule, no unreadable chart")
    func markdownAtScale() throws {
        let run = try CLI.run(["--separately", "--format", "markdown", "Corpus/"], in: Self.root)
        let text = run.stdout
        #expect(text.contains("| rule | severity | findings |\n|---|---|---:|\n| `launch-work-during-prewarm` | warning | 78 |\n"))
        let notes = text.components(separatedBy: "⚠︎ evidence incomplete:\n")[1].components(separatedBy: "\n\n")[0].split(separator: "\n")
        #expect(notes.count == 2, "\(notes)")
        // The counts the JSON report of the same run gives.
        let json = try CLI.run(["--separately", "--format", "json", "Corpus/"], in: Self.root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        let noStart = sessions.filter { ($0["incompleteEvidence"] as? [String])?.contains("the log does not show how this process started") == true }.count
        #expect(noStart > 30)
        #expect(notes.first?.hasPrefix("- the log does not show how this process started — \(noStart) sessions: ") == true, "\(notes.first ?? "")")
        #expect(text.contains("_…and 73 more `launch-work-during-prewarm` findings (all in `--format json` or `--output json=…`)._"))
        #expect(text.components(separatedBy: "#### ").count - 1 <= 6 * 5)
        #expect(!text.contains("```mermaid"))
        #expect(sessions.count > 200 && text.contains("_\(sessions.count) sessions are too many for a readable chart: see the table._"))
    }

    @Test("--since/--until, for every command that reads logs: lines outside the window left out and counted; a session cut by it says its start is missing")
    func timeWindow() throws {
        // The scene scenario: a prewarm at 07:41, the user's tap at 09:12 (a Console copy, --date 2024-03-18, -07:00).
        // Without an offset a bound is a wall-clock time, compared in each line's own offset (as `events` has it).
        let window = try CLI.run(["--no-color", "--date", "2024-03-18", "--format", "json", "--since", "2024-03-18 07:00:00",
                                  "--until", "2024-03-18 07:45:00", Self.scene], in: Self.root)
        #expect(window.stdout.contains(#""kind":"prewarm-outcome-unknown""#), "\(window.stdout.prefix(400))")
        #expect(window.stdout.contains(#""code":"outside-time-window","severity":"note","lineCount":0,"message":"lines outside the time window left out: 5 after --until""#)
                || window.stdout.contains("lines outside the time window left out: 5 after --until"))
        let late = try CLI.run(["--no-color", "--date", "2024-03-18", "--since", "2024-03-18 09:00:00-07:00", Self.scene], in: Self.root)
        #expect(late.stderr.contains("in 1 session (1 unknown)"), "\(late.stderr)")
        #expect(late.stderr.contains("evidence incomplete in 1 session"))
        // `events` still classifies every line: after the window opens, the activation is still the app's.
        let events = try CLI.run(["events", "--date", "2024-03-18", "--since", "2024-03-18 09:00:00", Self.scene], in: Self.root)
        #expect(events.stdout.contains("«activation com.example.ledger[2231]»"))
        #expect(!events.stdout.contains("07:41:02"))
        let bad = try CLI.run(["--since", "2024-13-01", Self.scene], in: Self.root)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--since must look like 2024-05-02 11:13:48[.ffffff][+02:00], not '2024-13-01'"))
    }
}
