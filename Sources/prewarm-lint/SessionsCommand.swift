import ArgumentParser
import PrewarmLint

struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "Rebuild every launch session: was it prewarmed, when was it activated, how did it end?",
        discussion: """
        Joins dasd, runningboardd, SpringBoard/FrontBoard and the app's own lines into one session per app \
        process, across all inputs (merged by time; an event present in two inputs counts once). Each \
        session says its kind (cold-launch, prewarm-unused, prewarm-then-launch, background-launch, resume, \
        unknown), how sure that is and which line decided it, its milestones with evidence, and when the \
        evidence is incomplete.

        \(ExitStatusText.help(success: "when every input was read"))
        """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var status: StatusOptions
    @OptionGroup var colorOptions: ColorOptions

    @Option(name: .long, help: "Output format: text timelines, or the JSON report (schema version 1, docs/report-schema.md).")
    var format: OutputFormat = .text

    @Option(name: .long, help: ArgumentHelp("Only sessions of this app (bundle id or process name; repeatable).", valueName: "bundle-id"))
    var app: [String] = []

    @Flag(name: .long, help: "Rebuild each input's sessions on its own instead of merging the inputs as one device's logs.")
    var separately = false

    @Option(name: .long, help: ArgumentHelp("Reader warnings printed in text format; the rest are counted and said (all are in --format json).", valueName: "n"))
    var maxDiagnostics = 20

    @Option(name: .long, help: ArgumentHelp("The configuration file, for the app's markers (default: the nearest .prewarm-lint.yml in the working directory or above it).", valueName: "path"), completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Flag(name: .long, help: "Ignore any .prewarm-lint.yml.")
    var noConfig = false

    func run() throws {
        let options = try reading.readOptions(now: StandardStreams.now())
        let (configuration, configurationPath) = try ConfigurationFile.resolveNamed(explicit: config, disabled: noConfig, inputs: reading.paths, quiet: status.quiet)
        let discovery = InputDiscovery.expand(reading.paths)
        var failed = false
        for failure in discovery.failures {
            StandardStreams.problem(failure.path, "error", "\(failure.message)")
            failed = true
        }
        var printer = DiagnosticPrinter(limit: maxDiagnostics)
        // The sessions of a lint run that checks none: the same reading, the same listing and the same accounts.
        var run = LintRun(options: options, linter: Linter(registry: RuleRegistry(rules: []), configuration: configuration),
                          toolVersion: ToolVersion.current, separately: separately)
        run.jobs = reading.jobs
        run.checksSessions = false
        run.sessionsListed = .max
        let onDiagnostic: (ReaderDiagnostic) -> Void = { diagnostic in
            if format == .text { printer.take(diagnostic) }
        }
        // Timelines and the report need a session's outline, not its lines; past a few thousand, the outlines
        // wait in a temporary file, so memory does not grow with the sessions.
        var report = run.run(discovery.inputs, onDiagnostic: onDiagnostic)
        printer.finish()
        var notLogs: [String] = []
        // An input with an error could not be read, or not all of it (an archive's tracev3 file that is not one): as
        // lint says it, whatever was read of it.
        for input in report.inputs {
            if let error = input.error {
                if !input.isInterruptedBeforeReading { StandardStreams.problem(input.path, "error", "\(error)") }
                failed = true
            } else if input.format == nil {
                notLogs.append(input.path)
            }
        }
        let wanted = Set(app)
        // Every session, or those of the apps asked for (named among all of them, as a lint names them).
        if !wanted.isEmpty {
            // Their positions, not the sessions: a spooled listing stays in its temporary file.
            let positions = report.sessions.enumerated().compactMap { index, session in session.app.isSelected(by: wanted) ? index : nil }
            report.select(sessionsAt: positions)
        }
        switch format {
        case .json:
            report.configuration = configurationPath
            // In pieces of about 64 KiB, as sessions are read back: never whole in memory.
            report.render(toUTF8: StandardStreams.outBytes)
        case .text:
            let timeline = SessionTimelineReporter()
            let preMain = Dictionary(grouping: report.preMainStatistics.filter { $0.session != nil }, by: { $0.session! })
            // Kinds counted as the sessions go by: a second pass decoded every spooled session again.
            var byKind: [LaunchSession.Kind: Int] = [:]
            for (index, (session, id)) in zip(report.sessions, report.sessionIDs).enumerated() {
                StandardStreams.out(timeline.render(session, id: id, input: LintReport.SessionGroup.input(ofSessionAt: index, in: report.separateInputs),
                                                    markers: configuration.markers, preMain: preMain[id] ?? []))
                StandardStreams.out("")
                byKind[session.kind, default: 0] += 1
            }
            if !notLogs.isEmpty {
                StandardStreams.err("note: skipped \(notLogs.count) file\(notLogs.count == 1 ? "" : "s") in directories that \(notLogs.count == 1 ? "is" : "are") not logs")
            }
            let read = report.inputs.filter { $0.format != nil }.count
            let count = report.sessions.count
            var line = "\(count) session\(count == 1 ? "" : "s") from \(read) input\(read == 1 ? "" : "s")"
            if count > 0 { line += ": " + SessionTally.kindCounts(byKind) }
            if report.duplicateEvents > 0 { line += "; \(report.duplicateEvents) events seen in two inputs counted once" }
            StandardStreams.err(line)
        }
        StandardStreams.flush()
        if SignalHandling.interruption.isRaised {
            StandardStreams.err("interrupted: the output covers what was read until then")
            throw ExitCode(SignalHandling.interruptedStatus)
        }
        if failed { throw ExitCode(2) }
    }
}
