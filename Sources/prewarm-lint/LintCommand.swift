import ArgumentParser
import Foundation
import PrewarmLint

/// The report formats of `lint`.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, ndjson, sarif, markdown, html, github, junit, fleet, otlp

    /// What the renderers are configured with.
    struct Settings {
        var rules: [RuleDescription]
        var color = false
        var failOn = Severity.error
        var markers: [LintConfiguration.Marker] = []
        var ruleDocumentationURL: String?
        var sarifSourceRoot: (root: String, workingDirectory: String)?
    }

    func renderer(_ settings: Settings) -> any ReportRenderer {
        ReportRenderers.builtIn(rules: settings.rules, color: settings.color, failOn: settings.failOn, markers: settings.markers,
                                ruleDocumentationURL: settings.ruleDocumentationURL, sarifSourceRoot: settings.sarifSourceRoot)
            .first { $0.formatName == rawValue }!
    }
}

/// `FORMAT=PATH` for `--output`.
struct ReportOutput: ExpressibleByArgument {
    var format: ReportFormat
    var path: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), let format = ReportFormat(rawValue: String(argument[..<equals])) else { return nil }
        let path = String(argument[argument.index(after: equals)...])
        guard !path.isEmpty else { return nil }
        self.format = format
        self.path = path
    }

    static var defaultCompletionKind: CompletionKind { .file() }

    /// `--output`'s value, or an error that says what it takes: a path alone is answered with the `FORMAT=PATH` its
    /// extension suggests (`--output json=report.json`).
    static func parse(_ argument: String) throws -> ReportOutput {
        if let output = ReportOutput(argument: argument) { return output }
        let formats = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        if let format = ReportFormat(rawValue: argument) {
            // A format without its path: the path its extension would suggest.
            let file = "report." + (format == .junit ? "xml" : format == .markdown ? "md" : format == .github ? "github.txt" : format == .fleet ? "fleet.ndjson" : format == .otlp ? "otlp.ndjson" : format == .text ? "txt" : format.rawValue)
            throw ValidationError("--output takes FORMAT=PATH: `--output \(format.rawValue)=\(file)`")
        }
        if let equals = argument.firstIndex(of: "=") {
            let format = String(argument[..<equals])
            if ReportFormat(rawValue: format) == nil { throw ValidationError("'\(format)' is not a report format; the formats are \(formats)") }
            throw ValidationError("no path after '\(format)=': give FORMAT=PATH (\(format)=report)")
        }
        let suffix = argument.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let guessed: ReportFormat? = switch suffix {
        case "json": .json
        case "ndjson", "jsonl": .ndjson
        case "sarif": .sarif
        case "md", "markdown": .markdown
        case "html", "htm": .html
        case "xml": .junit
        case "txt", "log": .text
        default: nil
        }
        if let guessed { throw ValidationError("--output takes FORMAT=PATH: `--output \(guessed.rawValue)=\(argument)`") }
        throw ValidationError("--output takes FORMAT=PATH, FORMAT one of \(formats) (json=\(argument))")
    }
}

/// The threshold of `--fail-on`: a severity, or never.
enum FailThreshold: String, ExpressibleByArgument, CaseIterable {
    case info, warning, error, never

    var severity: Severity? { Severity(rawValue: rawValue) }
}

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Find launch hazards: keychain or protected data used while locked, work done during prewarm, launch timers that include it, watchdog kills…",
        discussion: """
        Rebuilds every launch session (as `sessions` does) and runs the rules on them (`prewarm-lint rules` \
        lists them, `prewarm-lint explain RULE` explains one). Findings are printed compiler-style, \
        `path:line: severity: [rule] message`, with the log lines that prove them and the timeline of their \
        session. Settings come from the nearest .prewarm-lint.yml in the working directory or above it (never from beside the inputs), or --config.

        \(ExitStatusText.help(success: "when no finding is at or above --fail-on", one: "when one is", following: true))
        """
    )

    @OptionGroup var reading: ReadingOptions

    @Option(name: .long, help: "Report format on standard output.")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp("Also write a report to a file (repeatable): FORMAT=PATH, FORMAT one of \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")) (json=report.json).", valueName: "format=path"),
            completion: .list(ReportFormat.allCases.map { "\($0.rawValue)=" }), transform: ReportOutput.parse)
    var output: [ReportOutput] = []

    /// SwiftLint's and ESLint's name for `--format`: taken, to say so.
    @Option(name: .long, help: .hidden)
    var reporter: String?

    @Option(name: .long, help: ArgumentHelp("Exit 1 when a finding is at or above this severity (info, warning, error, never).", valueName: "severity"))
    var failOn: FailThreshold = .error

    @Flag(name: .long, help: "Report warnings as errors (and fail on them).")
    var strict = false

    @Flag(name: .long, help: "Report errors as warnings (so only --fail-on warning fails).")
    var lenient = false

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: the nearest .prewarm-lint.yml in the working directory or above it).", valueName: "path"), completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Flag(name: .long, help: "Ignore any .prewarm-lint.yml.")
    var noConfig = false

    @Option(name: .long, help: ArgumentHelp("Only run these rules (repeatable).", valueName: "rule"), completion: .list(RuleRegistry.builtIn.ids))
    var rule: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only sessions of this app (bundle id or process name; repeatable; adds to the configuration's apps).", valueName: "bundle-id"))
    var app: [String] = []

    @Option(name: .long, help: ArgumentHelp("Hide the findings recorded in this baseline file.", valueName: "path"), completion: .file())
    var baseline: String?

    @Flag(name: .long, help: "With --baseline: also fail (exit 1) when a baselined finding is gone, so the baseline is re-recorded and shrinks.")
    var strictBaseline = false

    @Option(name: .long, help: ArgumentHelp("Record this run's findings as a baseline file, then exit 0.", valueName: "path"), completion: .file())
    var writeBaseline: String?

    @Flag(name: .long, help: "Replace user data (e-mails, tokens, UUIDs, home folder names) in every report, for public bug trackers.")
    var redact = false

    @Flag(name: .long, help: "Rebuild each input's sessions on its own instead of merging the inputs as one device's logs.")
    var separately = false

    @Flag(name: .long, help: "Read one input as it arrives — standard input (`idevicesyslog | prewarm-lint --follow -`) or a file being appended to, across rotation — and print each finding and each closed session as soon as it is decided (text, ndjson or github); the end of the input or Ctrl-C ends the run, with the summary and the findings' exit status.")
    var follow = false

    @OptionGroup var colorOptions: ColorOptions

    @Flag(name: .shortAndLong, help: "No status lines on standard error — the progress line, the note naming the configuration file, the counts by rule — as SwiftLint's --quiet; findings, warnings, errors and the summary are printed as ever (for the summary alone, send standard output to /dev/null).")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("SARIF: make input paths relative to this checkout (%SRCROOT%, written in originalUriBaseIds); paths outside it become file:// URIs. Default: relative paths are taken as the checkout's.", valueName: "directory"), completion: .directory)
    var sarifRoot: String?

    @Option(name: .long, help: ArgumentHelp("SARIF: where each rule's documentation page is, {id} standing for the rule id (https://example.com/docs/rules/{id}.md); each rule's helpUri.", valueName: "url"))
    var ruleDocsURL: String?

    @Option(name: .long, help: ArgumentHelp("Reader warnings printed in text format; the rest are counted and said (all are in --format json).", valueName: "n"))
    var maxDiagnostics = 20

    @Option(name: .long, help: ArgumentHelp("Sessions open at once before the oldest is closed early and says so (memory bound).", valueName: "n"))
    var maxOpenSessions = 10_000

    /// `by rule: launch-work-during-prewarm 480, keychain-while-locked 294, …` (most first, then by id): what a
    /// day of 2,000 findings is made of, at a glance; nil for fewer than two rules.
    static func countsByRule(_ findings: some Sequence<Finding>) -> String? {
        var counts: [String: Int] = [:]
        for finding in findings { counts[finding.ruleID, default: 0] += 1 }
        guard counts.count > 1 else { return nil }
        let ordered = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return "by rule: " + ordered.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// The inputs' sizes added up, for the progress line; nil when one has no size (standard input, a log archive's export).
    static func totalBytes(_ inputs: [DiscoveredInput]) -> Int64? {
        var total: Int64 = 0
        for input in inputs {
            guard case .file(let path) = input.input, path != "-",
                  let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber else { return nil }
            total += size.int64Value
        }
        return total
    }

    /// The largest baseline read: one line per accepted finding, ~150 bytes each (400,000 findings fit).
    static let maximumBaselineBytes = 64 << 20

    func validate() throws {
        if let typo = Self.misspelledSubcommand(reading.paths) {
            throw ValidationError("'\(typo.word)' is neither a file nor a subcommand; did you mean `prewarm-lint \(typo.subcommand)`?")
        }
        if let reporter {
            throw ValidationError("prewarm-lint calls the report format --format: `--format \(reporter)` (\(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        if strict && lenient { throw ValidationError("--strict and --lenient cannot be used together") }
        if strictBaseline && baseline == nil { throw ValidationError("--strict-baseline needs --baseline") }
        let known = RuleRegistry.builtIn.ids
        for id in rule where !known.contains(id) {
            throw ValidationError("unknown rule '\(id)'; the rules are \(known.joined(separator: ", "))")
        }
        if config != nil && noConfig { throw ValidationError("--config and --no-config cannot be used together") }
        if follow {
            if reading.paths.count > 1 { throw ValidationError("--follow reads one input as it arrives: give one file, or - for standard input") }
            if !FollowRun.formats.contains(format) {
                throw ValidationError("--follow prints as the log arrives, in \(FollowRun.formats.map(\.rawValue).joined(separator: ", ")); --format \(format.rawValue) is a document of every session, written at the end: save the log and lint it without --follow")
            }
            let refused = [(separately, "--separately"), (!output.isEmpty, "--output"), (writeBaseline != nil, "--write-baseline"),
                           (baseline != nil, "--baseline"), (reading.input.since != nil, "--since"),
                           (reading.input.until != nil, "--until")].filter(\.0).map(\.1)
            if let first = refused.first { throw ValidationError("\(first) cannot be used with --follow, which prints each answer as the log arrives: save the log and lint it without --follow") }
        }
    }

    func run() throws {
        let options = try reading.readOptions(now: StandardStreams.now())
        var registry = RuleRegistry.builtIn
        if !rule.isEmpty { registry = registry.filter { rule.contains($0.id) } }
        var (configuration, configurationPath) = try ConfigurationFile.resolveNamed(explicit: config, disabled: noConfig, inputs: reading.paths,
                                                                                    quiet: quiet)
        configuration.apps += app
        configuration.severityPolicy = strict ? .warningsAsErrors : lenient ? .errorsAsWarnings : .asConfigured
        if follow {
            try lintFollowing(options: options, linter: Linter(registry: registry, configuration: configuration), configurationPath: configurationPath)
            return
        }
        let discovery = InputDiscovery.expand(reading.paths)
        try checkOutputsBeforeReading(discovery)
        for failure in discovery.failures { StandardStreams.problem(failure.path, "error", "\(failure.message)") }
        for note in discovery.notes { StandardStreams.problem(note.path, "note", "\(note.message)") }

        var report = lint(discovery, options: options, linter: Linter(registry: registry, configuration: configuration))
        report.configuration = configurationPath
        let unreadable = sayWhatWasNotRead(report, discovery: discovery) || !discovery.failures.isEmpty
        if let writeBaseline {
            try record(report.findings, asBaseline: writeBaseline)
            throw ExitCode(unreadable ? 2 : 0)
        }
        let staleBaseline = try applyBaseline(to: &report)
        if redact { report = Redactor().redact(report) }

        let threshold = failOn.severity
        var settings = ReportFormat.Settings(rules: registry.rules.map(\.description), failOn: threshold ?? .error, markers: configuration.markers,
                                             ruleDocumentationURL: ruleDocsURL)
        if let sarifRoot {
            let workingDirectory = FileManager.default.currentDirectoryPath
            settings.sarifSourceRoot = (sarifRoot.hasPrefix("/") ? sarifRoot : workingDirectory + "/" + sarifRoot, workingDirectory)
        }
        var unwritable = writeOutputFiles(report, settings: settings)
        settings.color = format == .text && colorOptions.enabled
        printReport(report, settings: settings)
        if format == .github || output.contains(where: { $0.format == .github }),
           let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            unwritable = !writeStepSummary(report, settings: settings, to: summary) || unwritable
        }

        if SignalHandling.interruption.isRaised {
            StandardStreams.err("interrupted: the output covers what was read until then")
            throw ExitCode(SignalHandling.interruptedStatus)
        }
        if unreadable || unwritable { throw ExitCode(2) }
        if !staleBaseline.isEmpty {
            let listed = staleBaseline.prefix(5).map { "  \($0)" }.joined(separator: "\n")
            StandardStreams.err("\(baseline ?? "baseline"): error: \(staleBaseline.count) baselined finding\(staleBaseline.count == 1 ? " is" : "s are") gone (--strict-baseline): re-record the baseline with --write-baseline\n\(listed)\(staleBaseline.count > 5 ? "\n  …" : "")")
            throw ExitCode(1)
        }
        if let threshold, report.findings.contains(where: { $0.severity >= threshold }) { throw ExitCode(1) }
    }

    /// `--follow`: the one input read as it arrives, each answer printed as it is decided; at its end or on Ctrl-C, the
    /// summary, and the exit status of the findings (2 when the input could not be read).
    private func lintFollowing(options: ReadOptions, linter: Linter, configurationPath: String?) throws {
        let path = reading.paths.first ?? "-"
        var options = options
        // A stream with no year or no date is dated by when it is read, in this machine's time zone unless it says
        // otherwise (`--date` and `--utc-offset` still win).
        options.timeInference.referenceInstant = options.timeInference.referenceInstant ?? StandardStreams.now()
        options.timeInference.referenceDescription = "the time it was read (--follow)"
        if options.timeInference.utcOffsetSeconds == nil { options.timeInference.utcOffsetSeconds = TimeZone.current.secondsFromGMT() }
        let input: FollowedInput
        do throws(FollowedInput.FollowFailure) { input = try FollowedInput(path: path) } catch {
            StandardStreams.problem(path, "error", "\(error.message)")
            throw ExitCode(2)
        }
        let analyzer = LogAnalyzer(options: options, linter: linter, maximumOpenSessions: maxOpenSessions)
        var settings = ReportFormat.Settings(rules: linter.registry.rules.map(\.description), failOn: failOn.severity ?? .error,
                                             markers: linter.configuration.markers, ruleDocumentationURL: ruleDocsURL)
        settings.color = format == .text && colorOptions.enabled
        let output = StandardOutput(colors: settings.color)
        var run = FollowRun(input: input, live: LiveLint(inputName: path, analyzer: analyzer, toolVersion: ToolVersion.current), format: format,
                            settings: settings, showsStatus: !quiet, maximumDiagnostics: maxDiagnostics)
        let (finished, failure) = run.run()
        if let failure { StandardStreams.problem(path, "error", "\(failure)") }
        guard var report = finished else { throw ExitCode(2) }
        report.configuration = configurationPath
        if format == .text {
            // dyld's launch statistics, known once the stream has ended (a block names no time to print it by).
            if !report.preMainStatistics.isEmpty {
                output.line(String(FindingTextReporter(color: settings.color).preMainSection(report).dropLast()))
            }
            if !report.fragments.isEmpty { output.line(String(FindingTextReporter(color: settings.color).fragmentSection(report).dropLast())) }
            if !quiet, let counts = Self.countsByRule(report.findings) { StandardStreams.err(counts) }
            StandardStreams.err(FindingTextReporter(color: false, markers: settings.markers).summary(report))
        }
        if report.partial {
            // Stopped by SIGTERM or SIGHUP before the input ended: the streamed formats end with their partial marker.
            let marker = LintReport.excerpt(findings: [], partial: true, toolVersion: ToolVersion.current)
            switch format {
            case .ndjson: output.bytes(FindingNDJSONReporter().render(marker))
            case .github: output.bytes(GitHubAnnotationReporter().render(marker))
            default: break
            }
            StandardStreams.err("interrupted: the output covers what was read until then")
        }
        StandardStreams.flush()
        if report.partial { throw ExitCode(SignalHandling.interruptedStatus) }
        if failure != nil { throw ExitCode(2) }
        if let threshold = failOn.severity, report.findings.contains(where: { $0.severity >= threshold }) { throw ExitCode(1) }
    }

    /// A first argument that is no file and is a subcommand's name misspelled (`lnt`, `sesions`): the default
    /// subcommand would read it as a missing path, and say only "no such file".
    static func misspelledSubcommand(_ paths: [String]) -> (word: String, subcommand: String)? {
        guard let word = paths.first, word.count >= 3, !word.contains("/"), !word.contains("."),
              !FileManager.default.fileExists(atPath: word) else { return nil }
        let names = PrewarmLintCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        let nearest = names.map { ($0, editDistance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        guard let (name, distance) = nearest, distance <= 2, distance < name.count / 2 + 1 else { return nil }
        return (word, name)
    }

    /// Levenshtein distance between two short words.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Outputs and the baseline are checked before any input is read: a typo costs no run.
    private func checkOutputsBeforeReading(_ discovery: InputDiscovery.Result) throws {
        let inputPaths = discovery.inputs.compactMap { input -> String? in if case .file(let path) = input.input { return path }; return nil }
        var unwritable = false
        for path in output.map(\.path) + [writeBaseline].compactMap({ $0 }) {
            if let problem = OutputFile.problem(path, inputs: inputPaths) {
                StandardStreams.problem(path, "error", "\(problem)")
                unwritable = true
            }
        }
        if let baseline, access(baseline, R_OK) != 0 {
            StandardStreams.err("\(baseline): error: cannot read the baseline file: \(String(cString: strerror(errno))) (write one with --write-baseline)")
            unwritable = true
        }
        if unwritable { throw ExitCode(2) }
    }

    /// The run: inputs read, sessions rebuilt and checked; the reader's warnings printed as they come (text format),
    /// a progress line on a terminal meanwhile.
    private func lint(_ discovery: InputDiscovery.Result, options: ReadOptions, linter: Linter) -> LintReport {
        var printer = DiagnosticPrinter(limit: maxDiagnostics)
        let textOut = format == .text
        var run = LintRun(options: options, linter: linter, toolVersion: ToolVersion.current, separately: separately,
                          maximumOpenSessions: maxOpenSessions)
        run.jobs = reading.jobs
        if !quiet { ProgressLine.shared.start(totalBytes: Self.totalBytes(discovery.inputs)) }
        defer { ProgressLine.shared.stop() }
        let redactor = redact ? Redactor() : nil
        var report = run.run(discovery.inputs) { diagnostic in
            guard textOut else { return }
            // `--redact`: what is printed as it comes is redacted as the report is.
            if let redactor { printer.take(redactor.redact(diagnostic)) } else { printer.take(diagnostic) }
        }
        printer.finish()
        // What could not even be opened is an input of the report too, with its reason (JSON `inputs[]`, SARIF…).
        report.inputs += discovery.failures.map { LintReport.Input(path: $0.path, format: nil, events: 0, diagnostics: 0, error: $0.message) }
        return report
    }

    /// What was not read is said, never silent: unreadable inputs, files in a folder that are not logs, a run that
    /// read no log. True when the run must exit 2.
    private func sayWhatWasNotRead(_ report: LintReport, discovery: InputDiscovery.Result) -> Bool {
        var unreadable = false
        for summary in report.inputs where summary.error != nil && !summary.isInterruptedBeforeReading
            && !discovery.failures.contains(where: { $0.path == summary.path }) {
            StandardStreams.problem(summary.path, "error", "\(summary.error!)")
            unreadable = true
        }
        // Inputs the run was stopped before: one line, not one each.
        let notBegun = report.inputs.filter(\.isInterruptedBeforeReading)
        if !notBegun.isEmpty {
            let names = notBegun.prefix(3).map(\.path).joined(separator: ", ") + (notBegun.count > 3 ? ", …" : "")
            StandardStreams.err("note: interrupted before \(notBegun.count) input\(notBegun.count == 1 ? " was" : "s were") read: \(names)")
        }
        let skipped = report.inputs.filter { $0.format == nil && $0.error == nil }
        if !skipped.isEmpty {
            let names = skipped.prefix(3).map(\.path).joined(separator: ", ") + (skipped.count > 3 ? ", …" : "")
            StandardStreams.err("note: skipped \(skipped.count) file\(skipped.count == 1 ? "" : "s") that \(skipped.count == 1 ? "is" : "are") not a log prewarm-lint reads: \(names) (see `prewarm-lint formats`)")
        }
        if !report.partial, !report.inputs.contains(where: { $0.format != nil }) {
            let what = discovery.inputs.isEmpty && discovery.failures.isEmpty ? "no file found in \(reading.paths.joined(separator: ", "))"
                : "no input could be read as a log"
            StandardStreams.err("error: \(what): nothing was linted")
            unreadable = true
        }
        return unreadable
    }

    /// `--write-baseline`: this run's findings as a baseline file.
    private func record(_ findings: some Collection<Finding>, asBaseline path: String) throws {
        let text = Baseline(findings: findings).text
        switch OutputFile.openInPlace(path) {
        case .success(let descriptor):
            let failure = OutputFile.writeWhole(Array(text.utf8), to: descriptor)
            close(descriptor)
            if let failure {
                StandardStreams.err("\(path): error: cannot write the baseline file: \(failure.reason)")
                throw ExitCode(2)
            }
        case .failure(let failure):
            StandardStreams.err("\(path): error: cannot write the baseline file: \(failure.reason)")
            throw ExitCode(2)
        }
        StandardStreams.err("wrote \(findings.count) finding\(findings.count == 1 ? "" : "s") to the baseline \(path)")
    }

    /// `--baseline`: the findings it holds are hidden and counted; with `--strict-baseline`, the baselined findings
    /// this run no longer has are returned.
    private func applyBaseline(to report: inout LintReport) throws -> [String] {
        guard let baseline else { return [] }
        let accepted: Baseline
        switch Baseline.read(path: baseline, maximumBytes: Self.maximumBaselineBytes) {
        case .success(let read): accepted = read
        case .failure(let problem):
            StandardStreams.problem(baseline, "error", "\(problem.message)")
            throw ExitCode(2)
        }
        let gone = strictBaseline ? accepted.gone(from: report.findings) : []
        let filtered = accepted.filter(report.findings)
        report.findings = ReportList(filtered.kept)
        report.baselineSuppressed = filtered.suppressed
        return gone
    }

    /// Every `--output` that can be written is, in pieces as rendered (a long JSON report is never whole in memory);
    /// one that cannot is said with the system's reason. True when one could not be written (the run exits 2).
    private func writeOutputFiles(_ report: LintReport, settings: ReportFormat.Settings) -> Bool {
        var unwritable = false
        for extra in output {
            let renderer = extra.format.renderer(settings)
            switch OutputFile.openInPlace(extra.path) {
            case .success(let descriptor):
                var failure: OutputFile.OutputError?
                renderer.render(report) { piece in
                    if failure == nil { failure = OutputFile.writeWhole(Array(piece.utf8), to: descriptor) }
                }
                close(descriptor)
                if let failure {
                    StandardStreams.err("\(extra.path): error: cannot write the \(extra.format.rawValue) report: \(failure.reason)")
                    unwritable = true
                }
            case .failure(let failure):
                StandardStreams.err("\(extra.path): error: cannot write the \(extra.format.rawValue) report: \(failure.reason)")
                unwritable = true
            }
        }
        return unwritable
    }

    /// GitHub's job summary (`GITHUB_STEP_SUMMARY`, with `--format github`): the Markdown report appended, cut at a
    /// line before GitHub's limit of 1 MiB a step, the cut said. False when the file cannot be written (said).
    private func writeStepSummary(_ report: LintReport, settings: ReportFormat.Settings, to path: String) -> Bool {
        let limit = OutputFile.stepSummaryLimit
        var markdown: [UInt8] = []
        var cut = false
        ReportFormat.markdown.renderer(settings).render(report) { piece in
            guard !cut else { return }
            markdown += piece.utf8
            if markdown.count > limit { cut = true }
        }
        if cut {
            let note = Array("\n\n*The report is cut here: GitHub keeps 1 MiB of a step's summary. `--format markdown` writes it whole.*\n".utf8)
            var end = limit - note.count
            while end > 0, markdown[end - 1] != 0x0A { end -= 1 }
            markdown = Array(markdown[..<end]) + note
        }
        let descriptor = FileSystemName.withPlatformPath(path) { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else {
            StandardStreams.err("\(FileSystemName.displayed(path)): error: cannot write GitHub's step summary (GITHUB_STEP_SUMMARY): \(String(cString: strerror(errno)))")
            return false
        }
        defer { close(descriptor) }
        if let failure = OutputFile.writeWhole(markdown, to: descriptor) {
            StandardStreams.err("\(FileSystemName.displayed(path)): error: cannot write GitHub's step summary (GITHUB_STEP_SUMMARY): \(failure.reason)")
            return false
        }
        return true
    }

    /// The report on standard output (in text, the findings there); in every format the summary line (the last) on
    /// standard error with the diagnostics, after the counts by rule, so that a CI log shows the count whatever the
    /// format.
    private func printReport(_ report: LintReport, settings: ReportFormat.Settings) {
        let renderer = format.renderer(settings)
        let output = StandardOutput(colors: settings.color)
        if let text = renderer as? FindingTextReporter {
            // The findings go out a session at a time, as they are rendered; the summary is made on its own.
            text.renderFindings(report) { output.bytes($0) }
        } else {
            renderer.render(report, toUTF8: output.bytes)
        }
        StandardStreams.flush()
        if !quiet, let counts = Self.countsByRule(report.findings) { StandardStreams.err(counts) }
        StandardStreams.err(FindingTextReporter(color: false, markers: settings.markers).summary(report))
        StandardStreams.flush()
    }
}

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules, or write their documentation pages."
    )

    @Option(name: .long, help: ArgumentHelp("Write docs/rules: one Markdown page per rule and an index, generated from the rules.", valueName: "directory"), completion: .directory)
    var writeDocs: String?

    func run() throws {
        let rules = RuleRegistry.builtIn.rules.map(\.description)
        if let writeDocs {
            let documentation = RuleDocumentation()
            try FileManager.default.createDirectory(atPath: writeDocs, withIntermediateDirectories: true)
            var files = [("README.md", documentation.index(rules))]
            files += rules.map { ("\($0.id).md", documentation.page($0)) }
            for (name, text) in files {
                let path = (writeDocs as NSString).appendingPathComponent(name)
                guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                    StandardStreams.err("\(path): error: cannot write the rule's page")
                    throw ExitCode(2)
                }
            }
            StandardStreams.err("wrote \(files.count) files to \(writeDocs)")
            return
        }
        let width = rules.map(\.id.count).max() ?? 0
        for rule in rules {
            StandardStreams.out("\(rule.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(rule.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(rule.summary)")
        }
        StandardStreams.flush()
    }
}

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a rule: why it matters, its options, and logs it fires and stays silent on."
    )

    @Argument(help: ArgumentHelp("A rule id (see `prewarm-lint rules`).", valueName: "rule"), completion: .list(RuleRegistry.builtIn.ids))
    var ruleID: String

    func validate() throws {
        let known = RuleRegistry.builtIn.ids
        guard known.contains(ruleID) else {
            throw ValidationError("unknown rule '\(ruleID)'; the rules are \(known.joined(separator: ", "))")
        }
    }

    func run() throws {
        let rule = RuleRegistry.builtIn.rule(id: ruleID)!
        StandardStreams.out(String(RuleDocumentation().page(rule.description).drop { $0 != "\n" }.dropFirst().dropLast()))
        StandardStreams.flush()
    }
}
