import Foundation
import PrewarmLint
import Testing

/// A log pasted into a Markdown issue body gives what the log gives as a file, line numbers aside.
@Suite("a log pasted into a document")
struct PastedDocumentTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus")
    static let analyzer = LiveLintTests.analyzer

    /// The ways a log is pasted into an issue body or an e-mail.
    enum Shape: String, CaseIterable {
        case fenced, fencedWithLanguage, tildes, quoted, details, indented, backticked, flutterVerbose, list, table, appium

        func paste(_ log: [UInt8]) -> [UInt8] {
            var text = log
            if text.last != 0x0A { text.append(0x0A) }
            let before = Array("**Describe the bug**\nThe app logs the user out after a background launch.\n\nThe device's log:\n\n".utf8)
            let after = Array("\nThanks for looking!\n".utf8)
            switch self {
            case .fenced: return before + Array("```\n".utf8) + text + Array("```\n".utf8) + after
            case .fencedWithLanguage: return before + Array("```text\n".utf8) + text + Array("```\n".utf8) + after
            case .tildes: return before + Array("~~~~\n".utf8) + text + Array("~~~~\n".utf8) + after
            case .details:
                return before + Array("<details>\n<summary>Console log</summary>\n\n```\n".utf8) + text + Array("```\n</details>\n".utf8) + after
            case .flutterVerbose:
                // `flutter run -v` (flutter_tools' printTrace, the shape of flutter/flutter#50949's paste): each device line
                // prefixed with the time since the last line and `[DEVICE LOG]`, wrapped at the terminal's width (at a
                // space, after 100 bytes), the tool's own lines between.
                var out = Array("[  +12 ms] executing: /usr/bin/env xcrun xcodebuild -list\n".utf8)
                for (index, line) in text.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated() {
                    var rest = Array(line)
                    out += Array((index % 3 == 0 ? "[   +1 ms] [DEVICE LOG] " : "[        ] [DEVICE LOG] ").utf8)
                    while rest.count > 100, let space = rest[100...].firstIndex(of: 0x20), space + 1 < rest.count, rest[space + 1] != 0x20,
                          rest[space - 1] != 0x20 {
                        out += rest[..<space] + [0x0A]
                        rest = Array(rest[(space + 1)...])
                    }
                    out += rest + [0x0A]
                    if index % 7 == 6 { out += Array("[  +40 ms] Syncing files to device iPhone...\n".utf8) }
                }
                return before + Array("```\n".utf8) + out + Array("```\n".utf8) + after
            case .appium:
                // Appium's server log with `--show-ios-log` (appium/WebDriverAgent#571's shape): every device line behind
                // Appium's time and `[IOSDeviceLog] `, the server's own lines between.
                var out: [UInt8] = []
                for (index, line) in text.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated() {
                    out += Array("2022-03-10 10:11:22:\(String(100 + index % 900)) - [IOSDeviceLog] ".utf8) + line + [0x0A]
                    if index % 5 == 4 { out += Array("2022-03-10 10:11:23:001 - [XCUITest] Waiting for the application to start\n".utf8) }
                }
                return before + Array("```\n".utf8) + out + Array("```\n".utf8) + after
            case .indented:
                // Markdown's indented code block: four spaces before every line, after a blank line.
                var indented: [UInt8] = []
                for line in text.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                    indented += Array("    ".utf8) + line + [0x0A]
                }
                return before + indented + after
            case .backticked:
                // Every line wrapped in backticks (inline code, line by line, as some paste a log into a comment).
                var wrapped: [UInt8] = []
                for line in text.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                    wrapped += line.isEmpty ? [] : Array("`".utf8) + line + Array("`".utf8)
                    wrapped.append(0x0A)
                }
                return before + wrapped + after
            case .list:
                // A Markdown list: `- ` before each record's head, two spaces before each line that continues it.
                var listed: [UInt8] = []
                for line in text.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                    let continues = line.first == 0x09 || line.first == 0x20 || line.isEmpty
                    listed += Array((continues ? "  " : "- ").utf8) + line + [0x0A]
                }
                return before + listed + after
            case .table:
                // A Markdown table of a Console copy's columns: a header and a delimiter row, then one row per record, the
                // lines that continue a record joined to its last cell with `<br>`, a `|` in a cell escaped.
                var rows: [[UInt8]] = []
                for line in text.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                    let escaped = line.flatMap { $0 == UInt8(ascii: "|") ? Array("\\|".utf8) : [$0] }
                    if line.first == 0x09 || line.first == 0x20, !rows.isEmpty {
                        rows[rows.count - 1] += Array("<br>".utf8) + escaped.drop { $0 == 0x09 || $0 == 0x20 }
                    } else {
                        rows.append(escaped.split(separator: 0x09, omittingEmptySubsequences: false).map(Array.init)
                            .reduce(into: Array("|".utf8)) { $0 += Array(" ".utf8) + $1 + Array(" |".utf8) })
                    }
                }
                let columns = rows.first.map { $0.filter { $0 == UInt8(ascii: "|") }.count - 1 } ?? 1
                let header = Array(("|" + String(repeating: " Column |", count: columns) + "\n|" + String(repeating: "---|", count: columns) + "\n").utf8)
                return before + header + rows.joined(separator: [0x0A]) + [0x0A] + after
            case .quoted:
                var quoted: [UInt8] = []
                for line in text.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                    quoted += Array((line.isEmpty ? ">" : "> ").utf8) + line + [0x0A]
                }
                return before + quoted + after
            }
        }
    }

    /// What a session is, wherever its lines are.
    static func outline(_ session: LaunchSession) -> String {
        let milestones = session.milestones.map { "\($0.name.rawValue)@\($0.time.microsecondsSinceEpoch)" }.joined(separator: ",")
        return "\(session.app.bundleID ?? "-")/\(session.app.processName ?? "-")[\(session.app.pid ?? -1)] \(session.kind.rawValue) \(session.confidence.rawValue) \(milestones)"
    }

    /// What a finding is, wherever its line is.
    static func outline(_ finding: Finding) -> String {
        "\(finding.ruleID) \(finding.appName)[\(finding.app.pid ?? -1)] \(finding.severity.rawValue) \(finding.message)"
    }

    /// The text logs of the corpus, each with what it gives as a file.
    static func textLogs() -> [(path: String, bytes: [UInt8], report: LintReport)] {
        InputDiscovery.expand([corpus.path]).inputs.compactMap { input in
            guard case .file(let path) = input.input, !path.hasSuffix(".gz"),
                  let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                  !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil,
                  let report = try? analyzer.lint(bytes: bytes, named: "log"),
                  let format = report.inputs.first?.format, !["plist", "xctrace-export", "document"].contains(format) else { return nil }
            return (path, bytes, report)
        }
    }

    @Test("every corpus log pasted into an issue body gives the file's sessions and findings", arguments: Shape.allCases)
    func pastedLikeTheFile(shape: Shape) throws {
        let logs = Self.textLogs()
        #expect(logs.count > 80)
        var findings = 0
        for log in logs {
            // (Nobody wraps each line of a JSON document in backticks.)
            let format = log.report.inputs.first?.format ?? ""
            if shape == .backticked, ["log-show-json", "metrickit", "crash-report"].contains(format) { continue }
            // (A list is made of lines, not of a JSON document; a table of a Console copy's columns.)
            if shape == .list, ["log-show-json", "metrickit", "crash-report", "crash-report-text", "log-show-ndjson", "unifiedlog-iterator", "pymobiledevice3-json"].contains(format) { continue }
            // (A table is made of a Console copy's tab-separated columns: not of one whose tabs already became spaces.)
            if shape == .table, format != "console-copy" || !log.bytes.contains(0x09) { continue }
            // (Appium prints a device's syslog lines, as idevicesyslog does.)
            if shape == .appium, format != "idevicesyslog" { continue }
            let pasted: LintReport
            do { pasted = try Self.analyzer.lint(bytes: shape.paste(log.bytes), named: "log") } catch {
                Issue.record("\(log.path) (\(shape)): \(error)")
                continue
            }
            // (One quoted, indented or backticked log line alone is not enough to tell a paste from a log's own `>`, a
            // continuation or a stray line: two are.)
            let logLines = log.bytes.split(separator: 0x0A).filter { $0.first != UInt8(ascii: "#") }.count
            // (A list marks the lines that do not start indented: a log every line of which is indented, or whose wrapped
            // lines start unindented, is no list of log lines; it is read as the log it is.)
            if ![.quoted, .indented, .backticked, .list, .table].contains(shape) || (logLines > 1 && shape != .list) {
                // (An indented `.ips` whose own lines come before its metadata line is read as the report, those lines its
                // preamble, as the `.ips` reader passes over up to 20: the same sessions and findings.)
                let preambledReport = shape == .indented && format == "crash-report" && pasted.inputs.first?.format == "crash-report"
                #expect(pasted.inputs.first?.format == "document" || preambledReport, "\(log.path)")
            }
            #expect(pasted.sessions.map(Self.outline) == log.report.sessions.map(Self.outline), "\(log.path) (\(shape))")
            #expect(pasted.findings.map(Self.outline) == log.report.findings.map(Self.outline), "\(log.path) (\(shape))")
            findings += log.report.findings.count
        }
        #expect(findings > (shape == .list ? 20 : shape == .table ? 10 : shape == .appium ? 1 : 50))
    }

    /// `document` quoted whole, as a reply quotes the message it answers: `marker` before every line (alone on a blank one).
    static func quotedReply(_ document: [UInt8], marker: String) -> [UInt8] {
        var reply: [UInt8] = []
        for line in document.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            reply += Array((line.isEmpty ? String(marker.dropLast()) : marker).utf8) + line + [0x0A]
        }
        return reply
    }

    @Test("every corpus document quoted whole in a reply (`> `, and `> > ` nested) gives the document's sessions, findings and diagnostics, at the same lines",
          arguments: ["> ", "> > "])
    func replyQuotingAWholeDocument(marker: String) throws {
        var compared = 0, findings = 0
        for input in InputDiscovery.expand([Self.corpus.appendingPathComponent("formats").path]).inputs {
            guard case .file(let path) = input.input, let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                  let document = try? Self.analyzer.lint(bytes: bytes, named: "issue.md"),
                  document.inputs.first?.format == "document" else { continue }
            let reply = try Self.analyzer.lint(bytes: Self.quotedReply(bytes, marker: marker), named: "issue.md")
            #expect(reply.sessions.map(Self.outline) == document.sessions.map(Self.outline), "\(path)")
            #expect(reply.findings.map(Self.outline) == document.findings.map(Self.outline), "\(path)")
            #expect(reply.findings.map { $0.location?.line } == document.findings.map { $0.location?.line }, "\(path)")
            // What was said of the blocks, at the same lines (a quoted reply's words are its prose, as the document's are).
            let said = { (report: LintReport) in report.diagnostics.map { "\($0.origin.line) \($0.code.rawValue)" } }
            #expect(said(reply) == said(document), "\(path)")
            compared += 1
            findings += document.findings.count
        }
        #expect(compared >= 6 && findings >= 3, "\(compared) documents, \(findings) findings")
    }

    @Test("every corpus text log, as a file and pasted into an issue body, with classic Mac or mixed line ends: the LF file's sessions and findings, the line ends said",
          arguments: [false, true])
    func carriageReturnLineEnds(mixed: Bool) throws {
        let logs = Self.textLogs()
        var findings = 0
        for log in logs {
            // Every line end a lone CR, or one in three of each kind (LF, CRLF, CR) in turn.
            var lineEnd = 0
            func ended(_ bytes: [UInt8]) -> [UInt8] {
                var out: [UInt8] = []
                for byte in bytes where byte != 0x0D {
                    guard byte == 0x0A else {
                        out.append(byte)
                        continue
                    }
                    lineEnd += 1
                    out += !mixed ? [0x0D] : [[0x0A], [0x0D, 0x0A], [0x0D]][lineEnd % 3]
                }
                return out
            }
            for bytes in [ended(log.bytes), ended(Shape.fenced.paste(log.bytes))] {
                let report = try Self.analyzer.lint(bytes: bytes, named: "log")
                #expect(report.sessions.map(Self.outline) == log.report.sessions.map(Self.outline), "\(log.path) (mixed: \(mixed))")
                #expect(report.findings.map(Self.outline) == log.report.findings.map(Self.outline), "\(log.path) (mixed: \(mixed))")
                let lone = zip(bytes, bytes.dropFirst() + [0]).contains { $0 == 0x0D && $1 != 0x0A }
                #expect(report.diagnostics.contains { $0.code == .lineEndings } == lone, "\(log.path)")
            }
            findings += log.report.findings.count
        }
        #expect(findings > 50)
    }

    @Test("one log pasted 5,000 times, fenced and quoted in turn, gives the file's sessions and findings: the repeats read once, said in one note")
    func pastedThousandsOfTimes() throws {
        let path = Self.corpus.appendingPathComponent("scenarios/prewarm-then-launch-scene-app/log.txt").path
        let log = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try Self.analyzer.lint(bytes: log, named: "log")
        #expect(file.findings.count == 4)
        var body: [UInt8] = []
        for copy in 0..<5_000 { body += (copy % 3 == 2 ? Shape.quoted : Shape.fenced).paste(log) }
        let pasted = try Self.analyzer.lint(bytes: body, named: "log")
        #expect(pasted.sessions.map(Self.outline) == file.sessions.map(Self.outline))
        #expect(pasted.findings.map(Self.outline) == file.findings.map(Self.outline))
        let said = pasted.diagnostics.filter { $0.code == .repeatedRegion }
        #expect(said.count == 1)
        #expect(said.first?.message.hasPrefix("4999 blocks repeat an earlier block of the document line for line") == true, "\(said)")
        // Two logs pasted in turn: each counted once.
        let other = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("scenarios/cold-launch/log.txt")))
        var both: [UInt8] = []
        for copy in 0..<3_000 { both += Shape.fenced.paste(copy % 2 == 0 ? log : other) }
        let twoPasted = try Self.analyzer.lint(bytes: both, named: "log")
        let together = Self.analyzer.lint(paths: [path, Self.corpus.appendingPathComponent("scenarios/cold-launch/log.txt").path])
        #expect(twoPasted.sessions.map(Self.outline).sorted() == together.sessions.map(Self.outline).sorted())
        #expect(twoPasted.findings.map(Self.outline).sorted() == together.findings.map(Self.outline).sorted())
    }

    @Test("two logs of different formats in one body, prose between, give what the two files give linted together")
    func twoLogsInOneBody() throws {
        let logs = Self.textLogs()
        var pairs = 0, differing: [String] = []
        for (a, b) in zip(logs, logs.dropFirst()) where a.report.inputs.first?.format != b.report.inputs.first?.format {
            let body = Shape.fenced.paste(a.bytes) + Array("\nAnd from the other device tool:\n\n".utf8) + Shape.tildes.paste(b.bytes)
            let pasted = try Self.analyzer.lint(bytes: body, named: "log")
            let together = Self.analyzer.lint(paths: [a.path, b.path])
            let same = pasted.sessions.map(Self.outline).sorted() == together.sessions.map(Self.outline).sorted()
                && pasted.findings.map(Self.outline).sorted() == together.findings.map(Self.outline).sorted()
            // (The same story in two formats is one log pasted twice: the events the two share count once, as in files.)
            if !same { differing.append("\(a.path) + \(b.path)") }
            pairs += 1
        }
        #expect(pairs > 20)
        #expect(differing.isEmpty, "\(differing.count) of \(pairs) pairs differ: \(differing.prefix(5))")
    }

    @Test("every corpus Console copy with its tabs turned into spaces gives the file's sessions and findings, the guess said",
          arguments: [" ", "    "])
    func consoleCopyTabsToSpaces(spaces: String) throws {
        var compared = 0, differing: [String] = []
        for log in Self.textLogs() where log.report.inputs.first?.format == "console-copy" {
            let spaced = Array(String(decoding: log.bytes, as: UTF8.self).replacingOccurrences(of: "\t", with: spaces).utf8)
            let report = try Self.analyzer.lint(bytes: spaced, named: "log")
            #expect(report.inputs.first?.format == "console-copy", "\(log.path)")
            #expect(report.diagnostics.contains { $0.code == .guessedColumns }, "\(log.path)")
            // The guess said: a process name holding a space is read as its first word ("Ledger Pro" as "Ledger").
            func firstWord(_ session: LaunchSession) -> String {
                var session = session
                session.app.processName = session.app.processName.map { String($0.prefix { $0 != " " }) }
                return Self.outline(session)
            }
            if report.sessions.map(firstWord) != log.report.sessions.map(firstWord)
                || report.findings.map(Self.outline) != log.report.findings.map(Self.outline) {
                differing.append(log.path)
            }
            compared += 1
        }
        #expect(compared > 40)
        #expect(differing.isEmpty, "\(differing.count) of \(compared) differ: \(differing)")
    }

    @Test("a pasted document's text and Markdown reports open with what happened, claiming no more than the log shows")
    func whatHappened() throws {
        let scene = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("scenarios/prewarm-then-launch-scene-app/log.txt")))
        let prewarmed = try Self.analyzer.lint(bytes: Shape.fenced.paste(scene), named: "issue.md")
        let text = FindingTextReporter().render(prewarmed)
        #expect(text.hasPrefix("what happened: The -25308 keychain failures of com.example.ledger came from a prewarmed launch 1 h 31 min before the user opened the app, while the keychain was locked: read as signed out, that is a phantom logout.\n\n"), "\(text.prefix(300))")
        #expect(MarkdownReporter().render(prewarmed).contains("\n**What happened:** The -25308 keychain failures of com.example.ledger came from a prewarmed launch"))
        // The failures alone (a real Console copy, no launch lines): no prewarm, no logout claimed.
        let failures = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("real-logs/03-salesforce3437-securityd-25308-keychain-locked.log")))
        let alone = FindingTextReporter().render(try Self.analyzer.lint(bytes: Shape.quoted.paste(failures), named: "issue.md"))
        #expect(alone.hasPrefix("what happened: logoutRepro's keychain reads failed with -25308 (keychain locked); the log does not show that this launch was a prewarm, nor when the user opened the app."))
        #expect(!alone.contains("phantom logout"))
        // A log that is not a pasted document: its report is as ever.
        #expect(!FindingTextReporter().render(try Self.analyzer.lint(bytes: scene, named: "log.txt")).contains("what happened"))
    }

    @Test("one log pasted twice gives the file's sessions and findings: the events the two blocks share count once")
    func pastedTwice() throws {
        var compared = 0, differing: [String] = []
        for log in Self.textLogs() where !log.report.sessions.isEmpty {
            let body = Shape.fenced.paste(log.bytes) + Array("\nThe same log again, from the other machine:\n\n".utf8) + Shape.quoted.paste(log.bytes)
            let pasted = try Self.analyzer.lint(bytes: body, named: "issue.md")
            if pasted.sessions.map(Self.outline) != log.report.sessions.map(Self.outline)
                || pasted.findings.map(Self.outline) != log.report.findings.map(Self.outline) {
                differing.append(log.path)
            }
            compared += 1
        }
        #expect(compared > 60)
        #expect(differing.isEmpty, "\(differing.count) of \(compared) differ: \(differing.prefix(5))")
    }

    @Test("a log cut in two and pasted later half first, or its later half pasted twice and linted with the earlier half's file, gives what the two halves give as files")
    func laterHalfFirst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pasted-halves-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var compared = 0, differing: [String] = []
        for log in Self.textLogs() where !log.report.sessions.isEmpty {
            var lines = log.bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if lines.last?.isEmpty == true { lines.removeLast() }
            // Cut at a milestone's line (a record's first line) in the middle of the log's sessions: a session's lines are
            // then in both blocks.
            let milestones = log.report.sessions.flatMap { $0.milestones.map(\.evidence.line) }.filter { $0 > 1 && $0 < lines.count }.sorted()
            guard !milestones.isEmpty else { continue }
            let cut = milestones[milestones.count / 2]
            let first = Array(lines[..<(cut - 1)].joined(separator: [0x0A])) + [0x0A]
            let second = Array(lines[(cut - 1)...].joined(separator: [0x0A])) + [0x0A]
            let a = directory.appendingPathComponent("\(compared)-a.log"), b = directory.appendingPathComponent("\(compared)-b.log")
            try Data(first).write(to: a)
            try Data(second).write(to: b)
            let files = Self.analyzer.lint(paths: [a.path, b.path])
            let body = Shape.fenced.paste(second) + Array("\nAnd the lines before those:\n\n".utf8) + Shape.tildes.paste(first)
            let pasted = try Self.analyzer.lint(bytes: body, named: "issue.md")
            // The later half pasted twice in an issue body, linted with the earlier half's file.
            let issue = directory.appendingPathComponent("\(compared)-issue.md")
            try Data(Shape.fenced.paste(second) + Array("\nFrom the other Mac:\n\n".utf8) + Shape.quoted.paste(second)).write(to: issue)
            let withFile = Self.analyzer.lint(paths: [issue.path, a.path])
            for report in [pasted, withFile] where report.sessions.map(Self.outline) != files.sessions.map(Self.outline)
                || report.findings.map(Self.outline).sorted() != files.findings.map(Self.outline).sorted() {
                differing.append("\(log.path) (\(report.inputs.count) input\(report.inputs.count == 1 ? "" : "s"))")
            }
            compared += 1
        }
        #expect(compared > 30)
        #expect(differing.isEmpty, "\(differing.count) of \(compared) differ: \(differing.prefix(5))")
    }

    @Test("two captures of one app pasted together, dated alike, are read block by block, as their files are, and said to be separate")
    func separateCapturesPastedTogether() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pasted-captures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The scene story, and the same story run again by another process of the app (a second capture with no date).
        let first = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("scenarios/prewarm-then-launch-scene-app/log.txt")))
        let second = Array(String(decoding: first, as: UTF8.self).replacingOccurrences(of: "2231", with: "4410").utf8)
        let a = directory.appendingPathComponent("first.log"), b = directory.appendingPathComponent("second.log")
        try Data(first).write(to: a)
        try Data(second).write(to: b)
        let files = Self.analyzer.lint(paths: [a.path, b.path])
        let pasted = try Self.analyzer.lint(bytes: Shape.fenced.paste(first) + Array("\nAnd the second time:\n\n".utf8) + Shape.quoted.paste(second),
                                            named: "issue.md")
        #expect(files.diagnostics.contains { $0.code == .separateCaptures })
        #expect(pasted.diagnostics.contains { $0.code == .separateCaptures && $0.message.contains("each block was read on its own") })
        #expect(pasted.sessions.map(Self.outline).sorted() == files.sessions.map(Self.outline).sorted())
        #expect(pasted.findings.map(Self.outline).sorted() == files.findings.map(Self.outline).sorted())
        #expect(pasted.sessions.count == 2 && pasted.inputs.count == 1)
    }

    @Test("every corpus log show and idevicesyslog log whose runs of spaces a web page collapsed gives the file's sessions and findings")
    func spacesCollapsed() throws {
        var compared = 0, differing: [String] = []
        for log in Self.textLogs() where ["log-show", "log-show-syslog", "log-show-compact", "idevicesyslog"].contains(log.report.inputs.first?.format ?? "") {
            var collapsed: [UInt8] = []
            for byte in log.bytes where !(byte == 0x20 && collapsed.last == 0x20) { collapsed.append(byte) }
            guard collapsed != log.bytes else { continue }
            let report = try Self.analyzer.lint(bytes: collapsed, named: "log")
            if report.inputs.first?.format != log.report.inputs.first?.format
                || report.sessions.map(Self.outline) != log.report.sessions.map(Self.outline)
                || report.findings.map(Self.outline) != log.report.findings.map(Self.outline) {
                differing.append("\(log.path) (read as \(report.inputs.first?.format ?? "-"))")
            }
            compared += 1
        }
        #expect(compared > 5)
        #expect(differing.isEmpty, "\(differing.count) of \(compared) differ: \(differing)")
    }
}
