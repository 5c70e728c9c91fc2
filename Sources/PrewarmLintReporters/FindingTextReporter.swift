import PrewarmLintSpool
import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintRules
public import PrewarmLintSessions

/// Findings the way compilers print diagnostics, for a terminal or an editor's problem matcher:
///
/// ```
/// log.txt:9: error: [keychain-while-locked] keychain read failed: keychain is locked (-25308) in a prewarm-then-launch session, …
///     log.txt:9  keychain failure  securityd[115]: Ledger Pro[2231]/1#4 LF=0 copy_matching …
///     log.txt:2  session kind      runningboardd[33]: Executing launch request for … (DAS Prewarm launch)
/// ```
/// then, once per session with findings, its timeline; then a summary line.
public struct FindingTextReporter: Sendable {
    /// ANSI colours (only on a terminal; the CLI decides).
    public var color: Bool
    /// Print the timeline of each session that has findings.
    public var timelines: Bool
    /// The configuration's markers, placed on the timelines.
    public var markers: [LintConfiguration.Marker]

    /// A text reporter.
    public init(color: Bool = false, timelines: Bool = true, markers: [LintConfiguration.Marker] = []) {
        self.color = color
        self.timelines = timelines
        self.markers = markers
    }

    /// The report in this format.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The report in this format, handed to `output` a session at a time, then the summary line: a long report is
    /// never whole in memory.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        renderFindings(report, to: output)
        output(summary(report) + "\n")
    }

    /// Everything but the summary line: each session's findings with their evidence, then its timeline, handed to
    /// `output` a session at a time (nothing when there are no findings). A report's findings come by session
    /// (``LintReport/findings``), so a session's are together; its session is found by walking the ids forward
    /// (one pass over the ids, however many sessions have findings).
    /// Grouping the findings in a dictionary and searching each session from the first id would hold all of the text
    /// at once and, for a report spooled to pages, read pages again for every session with findings.
    public func renderFindings(_ report: LintReport, to output: (String) -> Void) {
        // A pasted document's report opens with what happened, in one sentence.
        if let headline = ReportHeadline.sentence(report) { output("what happened: \(TerminalText.singleLine(headline))\n\n") }
        let timeline = SessionTimelineReporter()
        var sessions = SessionsByID(report)
        var block = ""
        var current: String?
        let preMain = Dictionary(grouping: report.preMainStatistics.filter { $0.session != nil }, by: { $0.session! })
        func endBlock(_ id: String) {
            if timelines, let (session, index) = sessions.session(id: id) {
                block += timeline.render(session, id: id, input: report.input(ofSessionAt: index), markers: markers, preMain: preMain[id] ?? []).split(separator: "\n").map { "  │ " + $0 }.joined(separator: "\n") + "\n"
            }
            block += "\n"
            output(block)
            block = ""
        }
        for finding in report.findings {
            if finding.sessionID != current {
                if let current { endBlock(current) }
                current = finding.sessionID
            }
            block += line(finding) + "\n"
            // Evidence from the finding's own input is named by its line only.
            // Every text of the input's on one line (`TerminalText.singleLine`): a line break in it cannot start a line that
            // reads as a finding of its own.
            let places = finding.evidence.map { evidence in
                evidence.origin.input == finding.location?.input ? "line \(evidence.origin.line)" : TerminalText.singleLine(evidence.origin.description)
            }
            let labels = finding.evidence.map { TerminalText.singleLine($0.label) }
            let width = places.map(\.count).max() ?? 0
            let labelWidth = labels.map(\.count).max() ?? 0
            for ((evidence, place), label) in zip(zip(finding.evidence, places), labels) {
                block += "    \(dim(place.padding(width)))  \(label.padding(labelWidth))  \(Self.cut(TerminalText.singleLine(evidence.text)))\n"
            }
            if let missing = finding.missingEvidence { block += "    \(dim("evidence incomplete:")) \(TerminalText.singleLine(missing))\n" }
        }
        if let current { endBlock(current) }
        if !report.preMainStatistics.isEmpty { output(preMainSection(report)) }
        if !report.fragments.isEmpty { output(fragmentSection(report)) }
    }

    /// The lines read alone that match a signature: where, what each shows and lacks, and the line.
    public func fragmentSection(_ report: LintReport) -> String {
        var text = "lines read alone, as fragments (\(report.fragments.count)):\n"
        for reading in report.fragments {
            text += "  \(TerminalText.singleLine(reading.fragment.origin.description)): \(Self.cut(TerminalText.singleLine(reading.summary)))\n"
            text += "      \(Self.cut(TerminalText.singleLine("“\(reading.fragment.text)”")))\n"
        }
        return text + "\n"
    }

    /// dyld's launch statistics read, a block each: where, then what each line of ``PreMainReading/lines`` says.
    public func preMainSection(_ report: LintReport) -> String {
        let count = report.preMainStatistics.count + report.preMainStatisticsNotKept
        var text = "dyld's launch statistics (\(count) block\(count == 1 ? "" : "s")\(report.preMainStatisticsNotKept > 0 ? ", the first \(report.preMainStatistics.count) shown" : "")):\n"
        for reading in report.preMainStatistics {
            let place = TerminalText.singleLine(reading.statistics.origin.description)
            for (index, line) in reading.lines.enumerated() {
                text += (index == 0 ? "  \(place): " : "      ") + Self.cut(TerminalText.singleLine(line)) + "\n"
            }
        }
        return text + "\n"
    }

    /// `path:line: severity: [rule] message`.
    public func line(_ finding: Finding) -> String {
        let place = finding.location.map { "\(TerminalText.singleLine($0.input)):\($0.line): " } ?? ""
        return "\(place)\(paint(finding.severity)): [\(finding.ruleID)] \(TerminalText.singleLine(finding.message))"
    }

    /// `3 findings (1 error, 2 warnings) in 4 sessions (1 cold, 3 prewarm-then-launch) from 2 inputs; 1 suppressed by the baseline`:
    /// the kinds answer "was it prewarmed?" even when nothing is wrong.
    ///
    /// `namingConfiguration`: whether a configuration file in effect is named (`; configuration PATH`, shown for a
    /// terminal); false for a report that names it in its own syntax (Markdown and HTML, in their footers).
    public func summary(_ report: LintReport, namingConfiguration: Bool = true) -> String {
        let counts = report.findingCounts.filter { $0.count > 0 }.map { "\($0.count) \($0.severity.rawValue)\($0.count == 1 || $0.severity == .info ? "" : "s")" }
        // An input that failed after some of it was read (a corrupt `.gz` trailer, a read error midway) was linted up
        // to the failure: it counts as read, and is said to be cut short; one refused whole could not be read.
        let readInputs = report.inputs.filter { $0.format != nil && ($0.error == nil || $0.events > 0) }
        let read = readInputs.count
        let cutShort = report.inputs.filter { $0.error != nil && $0.events > 0 }.count
        let unreadable = report.inputs.filter { $0.error != nil && $0.events == 0 && !$0.isInterruptedBeforeReading }.count
        let notBegun = report.inputs.filter(\.isInterruptedBeforeReading).count
        // Events whose wording the input lacks: launches and hazards among them go unseen, so no pass is clean.
        let unworded = report.inputs.reduce(0) { $0 + $1.eventsUnworded }
        let unreported = report.diagnostics.filter {
            ($0.code == .unattributedEvidence || $0.code == .hazardNotReported) && $0.severity >= .warning
        }.count
        // A run that read nothing, or read hazard lines no finding holds, is never a clean pass.
        let none = read == 0 && report.findings.isEmpty ? "nothing linted: no input was read as a log, so no findings"
            : report.findings.isEmpty && unreported > 0 ? "no findings, but hazard lines were read (see the \(unreported) warning\(unreported == 1 ? "" : "s"))"
            : report.findings.isEmpty && unworded > 0 ? "no findings in what could be read"
            : report.findings.isEmpty ? "no findings" : nil
        var text = none ?? "\(report.findings.count) finding\(report.findings.count == 1 ? "" : "s") (\(counts.joined(separator: ", ")))"
        // The sessions read once for everything said of them (a spooled report decodes them a page at a time).
        let tally = SessionTally(report.sessions)
        // Every session the run checked, by kind and evidence, listed or not; past the listing's limit, the launch
        // median is of the listed ones (the sessions not listed are counted, not kept), and says so.
        let total = tally.count + report.sessionsNotListed
        let listed = report.sessionsNotListed > 0 ? "listed " : ""
        text += " in \(total) session\(total == 1 ? "" : "s")"
        if total > 0 { text += " (\(SessionTally.kindCounts(tally.byKind(with: report.notListed))))" }
        text += " from \(read) input\(read == 1 ? "" : "s")"
        if total == 0, read > 0 {
            // Lines were read and no session came of them (a fragment, a crash payload that names no app, a log filtered
            // to other processes): said, so that "0 sessions" does not read as "nothing was read".
            let events = readInputs.reduce(0) { $0 + $1.events }
            let preMain = report.preMainStatistics.count + report.preMainStatisticsNotKept
            let fragments = report.fragments.count
            let alone = fragments == 0 ? "" : ", \(fragments) line\(fragments == 1 ? "" : "s") read alone (\(fragments == 1 ? "a fragment" : "fragments"): evidence incomplete)"
            text += events == 0 && preMain > 0 ? "; no log record was read, dyld's launch statistics only (\(preMain) block\(preMain == 1 ? "" : "s"))\(alone)"
                : events == 0 ? "; no log record was read\(alone)"
                : "; the \(events) event\(events == 1 ? "" : "s") read joined no launch session (`prewarm-lint events` lists them)"
        }
        if unworded > 0 {
            let events = readInputs.reduce(0) { $0 + $1.events }
            text += "; evidence incomplete: \(unworded) of \(events) event\(events == 1 ? "" : "s") could not be worded (their format strings are not in the archive: see the unresolved-format-string warning), so launches and hazards among them go unseen"
        }
        if cutShort > 0 { text += "; \(cutShort) input\(cutShort == 1 ? " was" : "s were") cut short by an error (linted up to it)" }
        if unreadable > 0 { text += "; \(unreadable) input\(unreadable == 1 ? "" : "s") could not be read" }
        if notBegun > 0 { text += "; interrupted before \(notBegun) input\(notBegun == 1 ? " was" : "s were") read" }
        // How long the user waited, at a glance: the user-perceived launch (the median when there are several).
        if tally.launches.count == 1, let first = tally.firstLaunch {
            text += "; launch \(UserPerceivedLaunch.milliseconds(first.microseconds)) (\(first.label))"
        } else if tally.launches.count > 1, let median = tally.medianLaunch {
            text += "; launch median \(UserPerceivedLaunch.milliseconds(median)) of \(tally.launches.count) \(listed)launches (`stats` for more)"
        }
        if report.baselineSuppressed > 0 { text += "; \(report.baselineSuppressed) suppressed by the baseline" }
        // A configuration file is named (it may turn rules off); the defaults go without saying.
        if namingConfiguration, let configuration = report.configuration { text += "; configuration \(DisplayText.name(configuration))" }
        let incomplete = tally.incomplete + report.notListed.evidenceIncomplete
        if incomplete > 0 { text += "; evidence incomplete in \(incomplete) session\(incomplete == 1 ? "" : "s")" }
        if unreported > 0, !report.findings.isEmpty {
            text += "; hazard lines in no finding (see the \(unreported) warning\(unreported == 1 ? "" : "s"))"
        }
        if report.partial { text += "; interrupted: partial report" }
        return text
    }

    /// `2 cold, 1 prewarm-unused`: how many sessions of each kind, in the kinds' order.
    public static func kindCounts(_ sessions: some Sequence<LaunchSession>) -> String { SessionTally(sessions).kindCounts }

    private func paint(_ severity: Severity) -> String {
        guard color else { return severity.rawValue }
        let color: TerminalText.Color = switch severity {
        case .error: .boldRed
        case .warning: .boldYellow
        case .info: .boldCyan
        }
        return color.paint(severity.rawValue)
    }

    /// Evidence quoted in a terminal: at most ``quoteLimit`` characters (the JSON report has it whole).
    static func cut(_ text: String) -> String {
        text.count <= quoteLimit ? text : String(text.prefix(quoteLimit - 1)) + "…"
    }

    /// The longest evidence quote printed, in characters.
    public static let quoteLimit = 200

    private func dim(_ text: String) -> String { color ? TerminalText.Color.dim.paint(text) : text }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// A report's sessions found by id in the order its findings name them, the listing's order: a walk forward through
/// the ids, so that all the lookups of a report read its ids once, not once per session (a spooled report's pages are
/// decoded on each read).
struct SessionsByID {
    private let report: LintReport
    /// Where the next id is looked for.
    private var next = 0

    init(_ report: LintReport) { self.report = report }

    /// The session with this id: found ahead of the last one found. A report whose sessions are all listed has each
    /// finding's session; one not ahead means findings out of the listing's order (a report made by hand), and it is
    /// searched from the start. In a report with sessions not listed, an id not ahead is of one of those (they come
    /// after every listed session): none, and none of the ids ahead are looked at again.
    /// The session with this id, and its index among the report's sessions.
    mutating func session(id: String) -> (session: LaunchSession, index: Int)? {
        let ids = report.sessionIDs
        var index = next
        while index < ids.count {
            if ids[index] == id {
                next = index + 1
                return (report.sessions[index], index)
            }
            index += 1
        }
        if report.sessionsNotListed > 0 {
            next = ids.count
            return nil
        }
        return ids.firstIndex(of: id).map { (report.sessions[$0], $0) }
    }
}
