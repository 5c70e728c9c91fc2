import Foundation
import ArgumentParser
import PrewarmLint

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the normalized events of the inputs.",
        discussion: """
        Events are printed in input order, inputs sorted by path (standard input first). \
        Diagnostics and a summary per input go to standard error, so standard output stays data. \
        A time marked ~ had a part inferred (date, year or UTC offset).

        \(ExitStatusText.help(success: "when every input was read"))
        """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case table, ndjson
    }

    @OptionGroup var reading: ReadingOptions

    @Option(name: .long, help: "Output format: table for people, ndjson for pipelines.")
    var format: OutputFormat = .table

    @Option(name: .long, help: ArgumentHelp("Only events of this process name (repeatable).", valueName: "name"))
    var process: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only events of this pid (repeatable).", valueName: "pid"))
    var pid: [Int] = []

    @Option(name: .long, help: ArgumentHelp("Only events whose message contains this text (case-insensitive).", valueName: "text"))
    var grep: String?

    @Option(name: .long, help: ArgumentHelp("Only events with this meaning (repeatable), e.g. prewarm-request, keychain-failure.", valueName: "meaning"),
            completion: .list(EventMeaning.allCases.map(\.rawValue)))
    var meaning: [String] = []

    var meanings: Set<EventMeaning> { Set(meaning.compactMap(EventMeaning.init(rawValue:))) }

    @Option(name: .long, help: ArgumentHelp("Reader warnings printed; the rest are counted and said.", valueName: "n"))
    var maxDiagnostics = 20

    @Flag(name: .long, help: "Classify each input on its own, as lint and sessions --separately do: what events always does (accepted so that a lint's arguments work here).")
    var separately = false

    @OptionGroup var colorOptions: ColorOptions
    @OptionGroup var status: StatusOptions

    func validate() throws {
        for name in meaning where EventMeaning(rawValue: name) == nil {
            throw ValidationError("unknown meaning '\(name)'; one of: \(EventMeaning.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        var options = try reading.readOptions(now: StandardStreams.now())
        // `events` shows a window of the classified lines: every line is still classified (what came before teaches
        // the classifier which pid is which app), so the window is applied after, not by the reader.
        let filter = EventFilter(processes: Set(process), pids: Set(pid), since: options.since, until: options.until, grep: grep)
        options.since = nil
        options.until = nil
        let discovery = InputDiscovery.expand(reading.paths)
        var failed = false
        for failure in discovery.failures {
            StandardStreams.problem(failure.path, "error", "\(failure.message)")
            failed = true
        }
        let table = EventTableReporter(useColor: colorOptions.enabled && format == .table)
        let standardOutput = StandardOutput(colors: colorOptions.enabled && format == .table)
        let ndjson = EventNDLintReporter()
        if format == .table, !discovery.inputs.isEmpty { standardOutput.line(table.header) }
        let reader = InputReader(options: options)
        // Every diagnostic, notes too: `events` is where a reader's view of each line is looked at.
        var printer = DiagnosticPrinter(limit: maxDiagnostics, minimum: .note, listedIn: nil)
        var summaries: [InputSummary] = []
        var notLogs: [String] = []
        for discovered in discovery.inputs {
            // One classifier per input: what it learns about pids holds within one log.
            var classifier = EventClassifier()
            let summary = reader.read(discovered.input, foundInDirectory: discovered.foundInDirectory) { output in
                switch output {
                case .event(let event):
                    let classified = classifier.classify(event)
                    guard filter.accepts(event), meanings.isEmpty || classified.meaning.map(meanings.contains) == true else { return }
                    standardOutput.line(format == .table ? table.row(for: event, classification: classified)
                                                         : ndjson.line(for: event, classification: classified))
                case .diagnostic(let diagnostic):
                    printer.take(diagnostic)
                case .preMainStatistics, .fragment, .partStart:
                    break  // not an event: `lint` reports it (a part boundary says nothing of an event)
                }
            }
            if let failure = summary.failure {
                if summary.skippedAsNotALog {
                    notLogs.append(summary.input)
                } else {
                    StandardStreams.problem(failure.input, "error", failure.message)
                    failed = true
                }
            }
            summaries.append(summary)
        }
        if !notLogs.isEmpty {
            let shown = notLogs.prefix(3).joined(separator: ", ")
            let more = notLogs.count > 3 ? " and \(notLogs.count - 3) more" : ""
            StandardStreams.err("note: skipped \(notLogs.count) file\(notLogs.count == 1 ? "" : "s") in directories that \(notLogs.count == 1 ? "is" : "are") not logs: \(shown)\(more) (name a file to see why)")
        }
        printer.finish()
        let summaryReporter = InputSummaryReporter()
        for summary in summaries where summary.format != nil {
            let statistics = summary.statistics
            StandardStreams.err(summaryReporter.line(
                input: summary.input, formatName: summary.format?.rawValue, compressed: summary.isCompressed,
                lines: statistics.lines, events: statistics.events,
                skipped: SkippedLineReason.allCases.map { ($0.rawValue, statistics.skipped[$0] ?? 0) },
                diagnosedLines: statistics.diagnosedLines,
                diagnostics: [ReaderDiagnostic.Severity.error, .warning, .note].map { ($0, statistics.diagnostics[$0] ?? 0) }
            ))
        }
        StandardStreams.flush()
        if SignalHandling.interruption.isRaised {
            StandardStreams.err("interrupted: the output covers what was read until then")
            throw ExitCode(SignalHandling.interruptedStatus)
        }
        if failed { throw ExitCode(2) }
    }
}
