import Foundation
import PrewarmLintClassifier
import PrewarmLintInsights
import PrewarmLintModel
import PrewarmLintReporters
import PrewarmLintRules
import PrewarmLintSessions
import PrewarmLintTesting
import Testing

/// Every string a report carries comes from somebody's log, file names or configuration. A report is built twice from
/// one seed: once with random hostile text in every string field (newlines, backticks, `<`, `::`, `%`, control
/// characters…), once with an inert token (`Q7Z`) in each place. Whatever a field holds, each output must keep the
/// twin's structure — the same JSON keys and array lengths, the same XML elements, the same HTML and rendered-Markdown
/// tags (rendered by cmark-gfm, as GitHub does, so an autolink is a tag too), the same GitHub commands, the same text
/// lines — and give each field back: a structured value, read back and with the tokens replaced by what they stand for,
/// is the hostile value. No output a person reads holds an invisible format character raw.
@Suite("reports keep their structure whatever the text in them")
struct ReportEscapingPropertyTests {
    /// Pieces of hostile text, each aimed at one output's syntax.
    static let pieces = [
        "\n", "\r\n", "\r", "`", "```", "~~~", "<", ">", "&", "\"", "'", "::", "%", "%0A", "%25", ",", "\u{1B}[2J",
        "\u{1B}]52;c;aGk=\u{07}", "\u{9B}31m", "\u{7F}", "\u{0}", "\u{8}", "\t", "|", "*", "_", "[x](http://e.example)",
        "![i](http://e.example/i.png)", "<img src=x onerror=alert(1)>", "<a href=x>", "</code>", "</pre>", "-->", "]]>", "#",
        "\\", "{", "}", "a", "b", " ", "é", "名", "\u{2028}", "::error::x", "::stop-commands::t", "\n::warning file=a::b",
        "${{ x }}", "---", "<!--", "<script>alert(1)</script>", "&lt;", "&#96;", "$", "@", "=", "\u{85}", "🙂",
        "\u{1B}[8m", "\u{1B}[1;31m", "\u{1B}[0m", "\u{1B}[2m",
        // Invisible format characters (a right-to-left override shows a line reversed) and what GitHub's Markdown links
        // by itself.
        "\u{202E}", "\u{2066}", "\u{200F}", "\u{200B}", "\u{FEFF}", "\u{AD}", "\u{E0041}", "https://e.example/x", "www.e.example",
        "me@e.example", "x@", ".com", "ftp://", "mailto:",
    ]

    /// Draws the report's strings: hostile ones, or the twin's tokens, the same token for the same hostile text.
    struct Text {
        var generator: SeededGenerator
        var hostile: Bool
        var tokens: [String: String] = [:]

        mutating func next() -> String {
            let count = Int.random(in: 1...6, using: &generator)
            var text = ""
            for _ in 0..<count { text += ReportEscapingPropertyTests.pieces.randomElement(using: &generator)! }
            // Text that is only white space renders as nothing in Markdown (a paragraph of one space is no paragraph):
            // not a structure of the input's, so given a letter.
            if text.allSatisfy(\.isWhitespace) { text += "a" }
            guard !hostile else { return text }
            if let token = tokens[text] { return token }
            let token = "Q\(tokens.count)Z"
            tokens[text] = token
            return token
        }
    }

    /// A report with every string field drawn from `text`: inputs, configuration, sessions (apps, milestones' details,
    /// kept lines, reasons the evidence is incomplete), findings (messages, evidence, labels, what is missing),
    /// diagnostics and prewarm decisions.
    static func report(_ text: inout Text) -> LintReport {
        let day: Int64 = 1_710_772_862_000_000
        func time(_ seconds: Double) -> LogTimestamp {
            LogTimestamp(microsecondsSinceEpoch: day + Int64(seconds * 1_000_000), utcOffsetSeconds: -25_200, text: "t")
        }
        let inputs = [LintReport.Input(path: text.next(), format: "console-copy", events: 9, diagnostics: 1),
                      LintReport.Input(path: text.next(), format: nil, events: 0, diagnostics: 0, error: text.next())]
        let log = inputs[0].path
        let kinds: [LaunchSession.Kind] = [.prewarmThenLaunch, .coldLaunch, .prewarmUnused]
        var sessions: [LaunchSession] = []
        for (index, kind) in kinds.enumerated() {
            let start = Double(index) * 600
            let line = index * 10
            let app = AppIdentity(bundleID: text.next(), processName: text.next(), pid: 100 + index)
            var milestones = [LaunchSession.Milestone(name: kind == .coldLaunch ? .launchRequest : .prewarmRequest, time: time(start),
                                                      evidence: EventOrigin(input: log, line: line + 1, byteOffset: 0), detail: text.next())]
            if kind != .prewarmUnused {
                milestones.append(LaunchSession.Milestone(name: .activation, time: time(start + 30), evidence: EventOrigin(input: log, line: line + 2, byteOffset: 0)))
                milestones.append(LaunchSession.Milestone(name: .firstScreen, time: time(start + 30.4), evidence: EventOrigin(input: log, line: line + 3, byteOffset: 0)))
            } else {
                milestones.append(LaunchSession.Milestone(name: .termination, time: time(start + 5), evidence: EventOrigin(input: log, line: line + 2, byteOffset: 0),
                                                          detail: text.next()))
            }
            var session = LaunchSession(app: app, kind: kind, confidence: .certain, decidedBy: EventOrigin(input: log, line: line + 1, byteOffset: 0),
                                        milestones: milestones, callbacksBeforeActivation: [EventOrigin(input: log, line: line + 4, byteOffset: 0)],
                                        incompleteEvidence: index == 2 ? [text.next()] : [])
            session.events = [SessionEvent(origin: EventOrigin(input: log, line: line + 4, byteOffset: 0), time: time(start + 1), process: text.next(),
                                           pid: 100 + index, role: .app, meaning: .appLifecycle, detail: text.next(), text: text.next()),
                              SessionEvent(origin: EventOrigin(input: log, line: line + 5, byteOffset: 0), time: time(start + 2), process: text.next(),
                                           pid: 100 + index, role: .app, meaning: .launchMarker, text: text.next(), pointName: text.next())]
            sessions.append(session)
        }
        let ids = LintReport.sessionIDs(sessions)
        let rules = RuleRegistry.builtIn.ids
        var findings: [Finding] = []
        for (index, session) in sessions.enumerated() {
            let evidence = [Finding.Evidence(origin: EventOrigin(input: log, line: index * 10 + 4, byteOffset: 0), time: time(Double(index) * 600 + 1),
                                             text: text.next(), label: text.next()),
                            Finding.Evidence(origin: EventOrigin(input: log, line: index * 10 + 1, byteOffset: 0), time: time(Double(index) * 600),
                                             text: text.next(), label: text.next())]
            findings.append(Finding(ruleID: rules[index % rules.count], severity: [Severity.error, .warning, .info][index], message: text.next(),
                                    sessionID: ids[index], sessionKind: session.kind, app: session.app, evidence: evidence, missingEvidence: text.next()))
        }
        let diagnostics = [ReaderDiagnostic(code: .orphanLines, severity: .warning, message: text.next(), origin: EventOrigin(input: log, line: 7, byteOffset: 0)),
                           ReaderDiagnostic(code: .malformedLine, severity: .note, message: text.next(), origin: EventOrigin(input: inputs[1].path, line: 1, byteOffset: 0))]
        let decision = PrewarmDecision(reason: PrewarmDecision.Reason.allCases.first!, app: text.next(), time: time(10),
                                       evidence: EventOrigin(input: log, line: 9, byteOffset: 0), text: text.next())
        var report = LintReport(toolVersion: "0.1.0", inputs: inputs, sessions: sessions, sessionIDs: ids, findings: findings,
                                diagnostics: diagnostics, prewarmDecisions: [decision])
        report.configuration = text.next()
        // dyld's launch statistics, their image names, values and next line's process from the input.
        var statistics = PreMainStatistics(origin: EventOrigin(input: log, line: 11, byteOffset: 0), lineCount: 3)
        statistics.preMainTime = PreMainStatistics.Measure(milliseconds: 12.5, percent: 100, text: text.next())
        statistics.phases = [PreMainStatistics.PhaseTime(phase: .initializers, time: PreMainStatistics.Measure(milliseconds: 3, percent: 1, text: text.next()))]
        statistics.initializers = [PreMainStatistics.InitializerTime(image: text.next(), time: PreMainStatistics.Measure(milliseconds: 2, percent: 1, text: text.next()))]
        statistics.unbelievable = [text.next()]
        statistics.launch = PreMainStatistics.Launch(process: text.next(), pid: 7, before: time(11), evidence: EventOrigin(input: log, line: 14, byteOffset: 0))
        report.preMainStatistics = [PreMainReading(statistics: statistics, session: ids.first)]
        // Read separately: each session's input named beside it.
        report.separateInputs = [LintReport.SessionGroup(input: text.next(), sessions: 0..<sessions.count)]
        return report
    }

    /// Every output of one report, by the extension the checker reads it by.
    static func outputs(_ report: LintReport) -> [(String, String)] {
        let rules = RuleRegistry.builtIn.rules.map(\.description)
        // The terminal's text as the CLI writes it: through its one escaping, uncoloured and coloured.
        let diagnostics = report.diagnostics.map(\.description).joined(separator: "\n") + "\n"
        let terminal = TerminalText.safe(FindingTextReporter().render(report) + diagnostics, colors: false)
        let coloured = TerminalText.safe(FindingTextReporter(color: true).render(report) + diagnostics, colors: true)
        return [("json", report.render()), ("sarif", SARIFReporter(rules: rules).render(report)), ("ndjson", FindingNDJSONReporter().render(report)),
                ("xml", JUnitReporter().render(report)), ("html", HTMLReporter().render(report)), ("md", MarkdownReporter().render(report)),
                ("github", GitHubAnnotationReporter().render(report)), ("txt", terminal), ("ctxt", coloured)]
    }

    @Test("random bytes in every string field: JSON, SARIF, ndjson and JUnit read back one value per field; HTML, Markdown and GitHub keep their structure; the terminal gets no control character")
    func hostileTextInEveryField() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-escaping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if ProcessInfo.processInfo.environment["KEEP_REPORTS"] == nil { try? FileManager.default.removeItem(at: folder) } }
        let seeds: [UInt64] = Array(1...200)
        for seed in seeds {
            var hostile = Text(generator: SeededGenerator(seed: seed), hostile: true)
            var twin = Text(generator: SeededGenerator(seed: seed), hostile: false)
            let hostileOutputs = Self.outputs(Self.report(&hostile))
            let twinOutputs = Self.outputs(Self.report(&twin))
            for ((kind, text), (_, twinText)) in zip(hostileOutputs, twinOutputs) {
                try Data(text.utf8).write(to: folder.appendingPathComponent("\(seed).hostile.\(kind)"))
                try Data(twinText.utf8).write(to: folder.appendingPathComponent("\(seed).twin.\(kind)"))
            }
            let tokens = Dictionary(uniqueKeysWithValues: twin.tokens.map { ($1, $0) })
            try JSONSerialization.data(withJSONObject: tokens).write(to: folder.appendingPathComponent("\(seed).tokens.json"))
        }
        let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("check-report-structure.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", checker.path, folder.path] + seeds.map(String.init)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if text.contains("NO-MARKDOWN-RENDERER") {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("cmarkgfm is not installed (scripts/test installs it)")
            } else {
                FileHandle.standardError.write(Data("skipped: the Markdown reports rendered as GitHub renders them (install it: python3 -m pip install cmarkgfm)\n".utf8))
            }
        }
        #expect(process.terminationStatus == 0, "\(text.prefix(6000))")
        #expect(text.contains("checked \(seeds.count) reports"), "\(text.prefix(2000))")
    }
}
