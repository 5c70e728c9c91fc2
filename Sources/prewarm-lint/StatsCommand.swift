import ArgumentParser
import Foundation
import PrewarmLint

/// Reads logs into sessions and their launch statistics; shared by `stats` and `compare`.
enum StatisticsRun {
    static func statistics(paths: [String], options: ReadOptions, configuration: LintConfiguration, separately: Bool,
                           apps: [String], jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> LaunchStatistics {
        let discovery = InputDiscovery.expand(paths)
        var unreadable = false
        for failure in discovery.failures {
            StandardStreams.problem(failure.path, "error", "\(failure.message)")
            unreadable = true
        }
        var run = LintRun(options: options, linter: Linter(registry: RuleRegistry(rules: []), configuration: configuration),
                          toolVersion: ToolVersion.current, separately: separately)
        run.jobs = jobs
        // Statistics are of every session: none is left out of the listing (a report lists 100,000), and the sessions
        // are read back from their pages one at a time, not gathered into an array.
        run.sessionsListed = .max
        let report = run.run(discovery.inputs)
        // What the run did to the inputs is said: read apart because they were separate captures.
        for diagnostic in report.diagnostics where diagnostic.code == .separateCaptures { StandardStreams.err(diagnostic.description) }
        for input in report.inputs where input.error != nil {
            StandardStreams.problem(input.path, "error", "\(input.error!)")
            unreadable = true
        }
        if unreadable { throw ExitCode(2) }
        let wanted = Set(apps + configuration.apps)
        let sessions = report.sessions.lazy.filter { session in
            session.app.isSelected(by: wanted)
        }
        let decisions = report.prewarmDecisions.filter { wanted.isEmpty || $0.app == nil || wanted.contains($0.app!) }
        // dyld's launch statistics of the apps selected: those joined to a selected app's session, or whose next line names one.
        var preMain = report.preMainStatistics
        if !wanted.isEmpty {
            let selected = Set(zip(report.sessions, report.sessionIDs).lazy.filter { $0.0.app.isSelected(by: wanted) }.map(\.1))
            preMain = preMain.filter { reading in
                reading.session.map(selected.contains) ?? reading.statistics.launch.map { wanted.contains($0.process) } ?? false
            }
        }
        var statistics = LaunchStatistics(sessions: sessions, markers: configuration.markers, decisions: decisions,
                                          preMain: preMain.map(\.statistics))
        statistics.partial = report.partial
        // MetricKit metric payloads: their launch histograms, read again (they are small) beside the sessions.
        var metrics: [MetricKitLaunchMetrics] = []
        for input in report.inputs where input.format == LogFormat.metricKit.rawValue && input.error == nil {
            guard let found = discovery.inputs.first(where: { $0.input.name == input.path }), case .file(let path) = found.input else { continue }
            let descriptor = FileSystemName.withPlatformPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var collector = MetricKitLaunchCollector()
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            var first = true
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                guard count > 0 else { break }
                if first, count >= 2, buffer[0] == 0x1F, buffer[1] == 0x8B {
                    StandardStreams.err("\(input.path): note: a gzip-compressed MetricKit payload: its launch histograms are not read (decompress it first)")
                    break
                }
                first = false
                buffer.withUnsafeBytes { collector.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
            metrics += collector.finish().metrics
            statistics.metricKitUnreadableBuckets += collector.unreadableBuckets
        }
        statistics.metricKit = MetricKitLaunchSummary.summaries(metrics)
        return statistics
    }
}

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Launch-time statistics per app and session kind, with the prewarmed launches apart.",
        discussion: """
        Leads with the user-perceived launch, from the system's own lines: the tap (SpringBoard) to the \
        first screen (FrontBoard's scene content state changed: ready), else the launch request or the \
        activation of a process already there, to the best later point (named). Then each phase between \
        the launch's points (tap, launch request, process start, activation, active, first screen, launch \
        complete), the app's callbacks (main, didFinishLaunching) and the markers named in \
        .prewarm-lint.yml: count, min, median, p90, p95, max and a histogram, per app and per kind \
        (cold-launch, prewarm-then-launch, background-launch…). Numbers measured from the process start \
        are flagged in prewarmed groups: they include the hours the process waited suspended. Inputs that \
        hold two live processes of one app at once are separate captures: each is read on its own, and \
        a warning says so. Ends with why apps were (not) prewarmed, from dasd's lines.

        \(ExitStatusText.help(success: "when every input was read"))
        """
    )

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var status: StatusOptions
    @OptionGroup var colorOptions: ColorOptions

    @Option(name: .long, help: "Output format.")
    var format: StatisticsReporter.Format = .text

    @Option(name: .long, help: ArgumentHelp("Only this app (bundle id or process name; repeatable).", valueName: "bundle-id"))
    var app: [String] = []

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: the nearest .prewarm-lint.yml in the working directory or above it).", valueName: "path"), completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Flag(name: .long, help: "Ignore any .prewarm-lint.yml.")
    var noConfig = false

    @Flag(name: .long, help: "Rebuild each input's sessions on its own (a folder of unrelated logs).")
    var separately = false

    func run() throws {
        let options = try reading.readOptions(now: StandardStreams.now())
        let configuration = try ConfigurationFile.resolve(explicit: config, disabled: noConfig, inputs: reading.paths, quiet: status.quiet)
        let statistics = try StatisticsRun.statistics(paths: reading.paths, options: options, configuration: configuration,
                                                      separately: separately, apps: app, jobs: reading.jobs)
        StandardStreams.out(String(StatisticsReporter(format: format).render(statistics).dropLast()))
        StandardStreams.flush()
        if SignalHandling.interruption.isRaised {
            StandardStreams.err("interrupted: the statistics cover what was read until then")
            throw ExitCode(SignalHandling.interruptedStatus)
        }
    }
}

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare launch times of two sets of logs (two builds, two OS versions): did a phase regress?",
        discussion: """
        prewarm-lint compare [options] BASELINE… -- CANDIDATE…   (options come before the paths)

        Computes the statistics of both sets (as `stats` does) and, for each user-perceived phase of each \
        app and kind present in both, the difference of the medians and a two-sided Mann-Whitney U test. A \
        phase regressed when the candidate is slower by more than --threshold-ms and --threshold-percent \
        and p < --alpha; each row also says how many runs per side would detect a shift of the threshold \
        and pin the median within ±--error-ms.

        \(ExitStatusText.help(success: "when no phase regressed", one: "when a phase regressed"))
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var status: StatusOptions
    @OptionGroup var colorOptions: ColorOptions

    @Option(name: .long, help: "Output format.")
    var format: ComparisonReporter.Format = .text

    @Option(name: .long, help: ArgumentHelp("A regression must be slower by at least this many milliseconds.", valueName: "ms"))
    var thresholdMs: Double = 20

    @Option(name: .long, help: ArgumentHelp("…and by at least this share of the baseline median.", valueName: "percent"))
    var thresholdPercent: Double = 5

    @Option(name: .long, help: ArgumentHelp("Significance level of the rank test.", valueName: "p"))
    var alpha: Double = 0.05

    @Option(name: .long, help: ArgumentHelp("Say how many runs pin a median within ± this many milliseconds.", valueName: "ms"))
    var errorMs: Double = 20

    @Flag(name: .long, help: "Judge every phase, not only the user-perceived ones.")
    var allPhases = false

    @Option(name: .long, help: ArgumentHelp("Only this app (repeatable).", valueName: "bundle-id"))
    var app: [String] = []

    @Option(name: .long, help: ArgumentHelp("The configuration file.", valueName: "path"), completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Flag(name: .long, help: "Ignore any .prewarm-lint.yml.")
    var noConfig = false

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("BASELINE… -- CANDIDATE…", valueName: "paths"), completion: .file())
    var paths: [String] = []

    func split() throws -> (baseline: [String], candidate: [String]) {
        guard let separator = paths.firstIndex(of: "--") else {
            throw ValidationError("separate the two sets with --: prewarm-lint compare BASELINE… -- CANDIDATE…")
        }
        let baseline = Array(paths[..<separator]), candidate = Array(paths[(separator + 1)...])
        guard !baseline.isEmpty, !candidate.isEmpty else { throw ValidationError("give at least one path on each side of --") }
        return (baseline, candidate)
    }

    func validate() throws {
        // (The paths are taken as they come, `--help` among them: it asks for the help, as on every subcommand.)
        if let help = paths.firstIndex(where: { $0 == "--help" || $0 == "-h" }), help < (paths.firstIndex(of: "--") ?? paths.count) {
            throw CleanExit.helpRequest(self)
        }
        _ = try split()
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1, not \(alpha)") }
    }

    func run() throws {
        let (baselinePaths, candidatePaths) = try split()
        let options = try input.readOptions(now: StandardStreams.now())
        let configuration = try ConfigurationFile.resolve(explicit: config, disabled: noConfig, inputs: baselinePaths + candidatePaths, quiet: status.quiet)
        let baseline = try StatisticsRun.statistics(paths: baselinePaths, options: options, configuration: configuration, separately: true, apps: app)
        let candidate = try StatisticsRun.statistics(paths: candidatePaths, options: options, configuration: configuration, separately: true, apps: app)
        let comparison = LaunchComparison(baseline: baseline, candidate: candidate, thresholdMilliseconds: thresholdMs,
                                          thresholdPercent: thresholdPercent, alpha: alpha, errorMilliseconds: errorMs, allPhases: allPhases)
        StandardStreams.out(String(ComparisonReporter(format: format).render(comparison).dropLast()))
        StandardStreams.flush()
        // An interrupted comparison never passes: it compared part of the sets.
        if SignalHandling.interruption.isRaised || comparison.partial {
            StandardStreams.err("interrupted: the comparison covers what was read until then; no verdict")
            throw ExitCode(SignalHandling.interruptedStatus)
        }
        if comparison.regressed { throw ExitCode(1) }
    }
}

extension StatisticsReporter.Format: ExpressibleByArgument {}
extension ComparisonReporter.Format: ExpressibleByArgument {}
