import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintReporters
import PrewarmLintClassifier
import PrewarmLintInsights
import PrewarmLintRules

/// What a run read, turned into its answer — the one place a `LintReport` is built, for the batch command line,
/// `--follow`, ``LogAnalyzer`` (paths, bytes, chunks, live) and `sessions`/`stats`: the inputs, the listed sessions and
/// their findings, the reader's diagnostics, then the run's own accounts in one order (sessions closed early for the
/// open-session bound, hazard lines in no finding, sessions not listed, a spool that fell back to memory, hazard lines
/// read alone), and dyld's statistics and the fragments joined to the sessions listed.
///
/// A run fills it as it reads; ``report(listing:onDiagnostic:)`` says the run's own accounts (to `onDiagnostic` too, so
/// that a text run prints them as it prints the reader's) and gives the report.
struct ReportAssembly {
    /// The version the report names.
    var toolVersion: String
    /// The inputs' lines of the report, in input order.
    var inputs: [LintReport.Input] = []
    /// What the readers said, in the order they said it.
    var readerDiagnostics: [ReaderDiagnostic] = []
    /// Sessions closed early because more than ``maximumOpenSessions`` were open at once.
    var sessionsClosedEarly = 0
    /// The open-session bound.
    var maximumOpenSessions: Int
    /// Hazard lines no finding holds, grouped by meaning and reason.
    var unreported: [UnreportedHazard] = []
    /// What was read that has no time of its own, every input's.
    var untimed = UntimedEvidence()
    /// dasd's prewarm decisions.
    var decisions: [PrewarmDecision] = []
    /// Events dropped because another input held the same one.
    var duplicateEvents = 0
    /// Whether the user stopped the run before its inputs ended.
    var partial = false
    /// Whether the sessions were checked by rules: a run that only lists them (`sessions`) has no findings to account for.
    var checked = true
    /// The sessions listed at most.
    var sessionsListed: Int
    /// What names the input of the run's own accounts.
    var firstInput: String

    /// The rules' linter, which accounts for the hazard lines read alone.
    let linter: Linter

    init(toolVersion: String, maximumOpenSessions: Int, sessionsListed: Int, firstInput: String, linter: Linter) {
        self.toolVersion = toolVersion
        self.maximumOpenSessions = maximumOpenSessions
        self.sessionsListed = sessionsListed
        self.firstInput = firstInput
        self.linter = linter
    }

    /// Adds what one input's reading left: its line, its untimed evidence.
    mutating func add(_ summary: InputSummary) {
        inputs.append(Self.reportInput(summary))
        // Every input's, not bounded again: each input kept at most `UntimedEvidence.maximumKept` of each.
        untimed.preMainStatistics += summary.untimed.preMainStatistics
        untimed.preMainStatisticsNotKept += summary.untimed.preMainStatisticsNotKept
        untimed.fragments += summary.untimed.fragments
        untimed.fragmentsNotKept += summary.untimed.fragmentsNotKept
    }

    /// Adds accounts of unreported hazard lines, grouped by meaning and reason (the first line kept).
    mutating func add(_ hazards: [UnreportedHazard]) {
        Self.add(hazards, to: &unreported)
    }

    /// The report of the listed sessions; the run's own accounts said to `onDiagnostic` as they are added.
    func report(listing: ClosedSessionSpool.Listing, onDiagnostic: (ReaderDiagnostic) -> Void = { _ in }) -> LintReport {
        var diagnostics = readerDiagnostics
        let origin = EventOrigin(input: firstInput, line: 0, byteOffset: 0)
        func say(_ diagnostic: ReaderDiagnostic) {
            diagnostics.append(diagnostic)
            onDiagnostic(diagnostic)
        }
        if sessionsClosedEarly > 0 {
            say(ReaderDiagnostic(code: .sessionLimit, severity: .warning,
                                 message: "\(sessionsClosedEarly) sessions were closed early: more than \(maximumOpenSessions) were open at once; their evidence says so",
                                 origin: origin))
        }
        if checked { for diagnostic in Self.diagnostics(of: unreported) { say(diagnostic) } }
        if listing.notListed.count > 0 {
            say(ReaderDiagnostic(code: .sessionLimit, severity: .warning,
                                 message: "\(listing.notListed.count) sessions beyond the first \(sessionsListed) are checked and their findings reported, but not listed",
                                 origin: origin))
        }
        if let failure = listing.failures.first {
            say(ClosedSessionSpool.keptInMemoryDiagnostic(total: listing.total, failure: failure, input: origin.input))
        }
        // Lines read alone (classified as they were read): their hazard lines accounted by the linter, said last.
        if checked { for diagnostic in Self.diagnostics(of: linter.unreportedHazards(readAlone: untimed.fragments)) { say(diagnostic) } }
        var report = LintReport(toolVersion: toolVersion, inputs: inputs, sessions: listing.sessions, sessionIDs: listing.ids,
                                findings: listing.findings, diagnostics: diagnostics, partial: partial, prewarmDecisions: decisions)
        report.notListed = listing.notListed
        report.separateInputs = listing.groups
        report.preMainStatistics = PreMainReading.joined(untimed.preMainStatistics, to: listing.sessions, ids: listing.ids)
        report.preMainStatisticsNotKept = untimed.preMainStatisticsNotKept
        report.fragments = untimed.fragments
        report.fragmentsNotKept = untimed.fragmentsNotKept
        report.duplicateEvents = duplicateEvents
        return report
    }

    /// The diagnostics that count hazard lines no finding holds: a warning each (meaning, reason), a note
    /// where the user left them out (a rule off, an app not selected).
    static func diagnostics(of unreported: [UnreportedHazard]) -> [ReaderDiagnostic] {
        unreported.map { hazard in
            let lines = hazard.count == 1 ? "1 \(hazard.meaning.rawValue) line" : "\(hazard.count) \(hazard.meaning.rawValue) lines"
            let reason = hazard.reason == .readAlone && hazard.count > 1 ? "read alone, fragments no log around them places in a session"
                : "\(hazard.reason)"
            return ReaderDiagnostic(code: .hazardNotReported, severity: hazard.reason.isUsersChoice ? .note : .warning,
                                    message: "\(lines) in no finding: \(reason)", origin: hazard.first, lineCount: 0)
        }
    }

    /// Adds accounts of unreported hazard lines, grouped by meaning and reason (the first line kept).
    static func add(_ hazards: [UnreportedHazard], to total: inout [UnreportedHazard]) {
        for hazard in hazards {
            if let at = total.firstIndex(where: { $0.meaning == hazard.meaning && $0.reason == hazard.reason }) {
                total[at].count += hazard.count
            } else {
                total.append(hazard)
            }
        }
    }

    /// An input's line in the report.
    static func reportInput(_ summary: InputSummary) -> LintReport.Input {
        var input = LintReport.Input(path: summary.input, format: summary.format?.rawValue, events: summary.statistics.events,
                                     diagnostics: summary.statistics.diagnostics.values.reduce(0, +),
                                     error: summary.interrupted && summary.format == nil ? LintReport.Input.interruptedBeforeReading
                                        : summary.skippedAsNotALog ? nil : summary.failure?.message)
        input.eventsUnworded = summary.statistics.eventsUnworded
        input.devices = summary.statistics.deviceIdentities.sorted()
        return input
    }
}
