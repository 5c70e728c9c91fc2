import PrewarmLintClassifier
import PrewarmLintRules
import PrewarmLintSessions
import PrewarmLintModel

/// A report to paste into a bug tracker: a summary (findings per rule and severity), the sessions with their
/// incomplete evidence grouped by reason, a Mermaid gantt when the sessions make one worth drawing (GitHub
/// renders it), and the findings grouped by rule — the first five of each in full with their evidence.
public struct MarkdownReporter: Sendable {
    /// A reporter; it has no settings.
    public init() {}

    /// The report in this format.
    public func render(_ report: LintReport) -> String {
        var out = "# prewarm-lint report\n\n"
        // A pasted document's report opens with what happened, in one sentence.
        if let headline = ReportHeadline.sentence(report) { out += "**What happened:** " + MarkdownText.inline(headline) + "\n\n" }
        // The text summary but the configuration, which the footer names in this report's syntax.
        let summary = FindingTextReporter().summary(report, namingConfiguration: false)
        out += summary.prefix(1).uppercased() + summary.dropFirst() + ".\n\n"
        // Findings per rule and severity: what a day of thousands is made of, before any detail; and each rule's first
        // findings, the ones shown in full below (one pass: the findings of each rule filtered out of all of them, for
        // each rule, held a rule's findings in memory and read a spooled report's pages once per rule).
        var perRule: [String: (severity: Severity, count: Int)] = [:]
        var shownPerRule: [String: [Finding]] = [:]
        for finding in report.findings {
            let entry = perRule[finding.ruleID]
            perRule[finding.ruleID] = (max(entry?.severity ?? finding.severity, finding.severity), (entry?.count ?? 0) + 1)
            if (entry?.count ?? 0) < Self.findingsShownPerRule { shownPerRule[finding.ruleID, default: []].append(finding) }
        }
        // Most findings first; on a tie, the more severe, then by id.
        let rulesInOrder = perRule.sorted { lhs, rhs in
            lhs.value.count != rhs.value.count ? lhs.value.count > rhs.value.count
                : lhs.value.severity != rhs.value.severity ? lhs.value.severity > rhs.value.severity : lhs.key < rhs.key
        }.map(\.key)
        if perRule.isEmpty {
            out += "| severity | findings |\n|---|---:|\n"
            for (severity, count) in report.findingCounts { out += "| \(severity.rawValue) | \(count) |\n" }
        } else {
            out += "| rule | severity | findings |\n|---|---|---:|\n"
            for rule in rulesInOrder {
                out += "| \(Self.cell(MarkdownText.code(rule))) | \(perRule[rule]!.severity.rawValue) | \(perRule[rule]!.count) |\n"
            }
        }
        out += "\n## Sessions\n\n"
        if report.sessions.isEmpty {
            out += "No launch session in these logs.\n"
        } else {
            // What a day is made of, before any row: sessions per kind, the launches the users waited for.
            if report.sessions.count > Self.sessionsListedInFull {
                let tally = SessionTally(report.sessions)  // one pass for both
                // Every session checked, by kind: those past the listing's limit are counted, not listed.
                let byKind = tally.byKind(with: report.notListed)
                out += "| kind | sessions |\n|---|---:|\n"
                for kind in LaunchSession.Kind.allCases { if let count = byKind[kind] { out += "| \(kind.rawValue) | \(count) |\n" } }
                if let median = tally.medianLaunch, let p90 = tally.p90Launch {
                    // Worded as the text report words launches (to the nearest millisecond).
                    out += "\nThe launch the user waited for: median \(UserPerceivedLaunch.milliseconds(median)) of \(tally.launches.count)"
                    out += ", p90 \(UserPerceivedLaunch.milliseconds(p90)).\n"
                }
                out += "\n"
            }
            // Every session when they are few; else those with findings (at most a hundred), folded.
            // (Lazily: collecting the sessions to filter held every session of a large run in memory at once.)
            var findingSessions: Set<String> = []
            for finding in report.findings { findingSessions.insert(finding.sessionID) }
            // (Each with its index in the report's sessions.)
            let indexed = zip(report.sessions, report.sessionIDs).enumerated().lazy.map { ($0.element.0, $0.element.1, $0.offset) }
            let listed = report.sessions.count <= Self.sessionsListedInFull ? Array(indexed)
                : Array(indexed.filter { findingSessions.contains($0.1) }.prefix(Self.sessionsWithFindingsListed))
            if report.sessions.count > Self.sessionsListedInFull {
                let withFindings = report.sessionIDs.reduce(0) { $0 + (findingSessions.contains($1) ? 1 : 0) }
                let which = listed.count < withFindings ? "the first \(listed.count) of the \(withFindings) with findings" : "the \(listed.count) with findings"
                out += "<details><summary>\(report.sessions.count) sessions: \(which)</summary>\n\n"
            }
            // Read separately, each session's input in a column of its own.
            let separate = !report.separateInputs.isEmpty
            out += "| session | \(separate ? "input | " : "")pid | kind | confidence | prewarm → activation | activation → active | findings |\n"
                + "|---|\(separate ? "---|" : "")---:|---|---|---:|---:|---|\n"
            // The rules of the listed sessions' findings, in one pass (not a pass over every finding for each row).
            let listedIDs = Set(listed.map(\.1))
            var rulesOf: [String: [String]] = [:]
            for finding in report.findings where listedIDs.contains(finding.sessionID) {
                rulesOf[finding.sessionID, default: []].append(MarkdownText.code(finding.ruleID))
            }
            for (session, id, index) in listed {
                let findings = rulesOf[id] ?? []
                let input = separate ? [report.input(ofSessionAt: index).map(MarkdownText.code) ?? ""] : []
                let cells = [MarkdownText.code(id)] + input + [
                    session.app.pid.map(String.init) ?? "",
                    session.kind.rawValue + (session.evidenceIncomplete ? " ⚠︎" : ""), session.confidence.rawValue,
                    session.milliseconds(from: .prewarmRequest, to: .activation).map { SpokenDuration.text(microseconds: $0 * 1000) } ?? "",
                    session.milliseconds(from: .activation, to: .active).map { SpokenDuration.text(microseconds: $0 * 1000) } ?? "",
                    findings.joined(separator: ", "),
                ]
                out += "| " + cells.map(Self.cell).joined(separator: " | ") + " |\n"
            }
            if report.sessions.count > Self.sessionsListedInFull {
                let rest = report.sessions.count - listed.count
                let whereListed = report.sessionsNotListed > 0
                    ? "in `--format json` or `--format html`; \(report.sessionsNotListed) more were checked and not listed"
                    : "all in `--format json` or `--format html`"
                out += "\n_…and \(rest) more session\(rest == 1 ? "" : "s") (\(whereListed))._\n\n</details>\n"
            }
            // Evidence incomplete, grouped by what is missing (47 sessions missing their start are one line, not 47).
            // Each reason keeps its count and the first five ids it names, found by a table (not a search of the
            // reasons for each session, nor every id of a reason kept).
            var byReason: [(reason: String, count: Int, ids: [String])] = []
            var reasonIndex: [String: Int] = [:]
            for (session, id) in zip(report.sessions, report.sessionIDs) where session.evidenceIncomplete {
                for reason in session.incompleteEvidence {
                    if let at = reasonIndex[reason] {
                        byReason[at].count += 1
                        if byReason[at].ids.count < 5 { byReason[at].ids.append(id) }
                    } else {
                        reasonIndex[reason] = byReason.count
                        byReason.append((reason, 1, [id]))
                    }
                }
            }
            if !byReason.isEmpty {
                out += "\n⚠︎ evidence incomplete:\n"
                for (reason, count, ids) in byReason {
                    let named = ids.map(MarkdownText.code).joined(separator: ", ")
                    let more = count > 5 ? " and \(count - 5) more" : ""
                    out += "- \(MarkdownText.inline(reason)) — \(count) session\(count == 1 ? "" : "s"): \(named)\(more)\n"
                }
            }
            switch Self.noChartReason(report.sessions) {
            case nil: out += "\n" + gantt(report)
            case ""?: break  // one session: its row says it all
            case let reason?: out += "\n_\(reason)._\n"
            }
        }
        out += "\n## Findings\n\n"
        if report.findings.isEmpty { out += "None.\n" }
        var inferredTimesShown = false
        // Grouped by rule (in the order of the table above); each rule's first findings in full, the rest counted.
        for rule in rulesInOrder {
            let count = perRule[rule]!.count
            if rulesInOrder.count > 1 || count > Self.findingsShownPerRule {
                out += "### \(MarkdownText.code(rule)) (\(count))\n\n"
            }
            for finding in shownPerRule[rule] ?? [] {
                out += Self.detail(finding)
                if finding.evidence.contains(where: { !$0.time.inferred.isEmpty }) { inferredTimesShown = true }
            }
            if count > Self.findingsShownPerRule {
                out += "_…and \(count - Self.findingsShownPerRule) more \(MarkdownText.code(rule)) finding\(count - Self.findingsShownPerRule == 1 ? "" : "s") (all in `--format json` or `--output json=…`)._\n\n"
            }
        }
        if inferredTimesShown { out += "_\(MarkdownText.inline(LogTimestamp.inferredMarkNote))._\n\n" }
        if !report.preMainStatistics.isEmpty {
            out += "\n## dyld's launch statistics\n\n"
            for reading in report.preMainStatistics {
                let lines = reading.lines
                out += "- \(MarkdownText.code(reading.statistics.origin.description)): \(MarkdownText.inline(lines[0]))\n"
                for line in lines.dropFirst() { out += "  - \(MarkdownText.inline(line))\n" }
            }
            if report.preMainStatisticsNotKept > 0 { out += "- _…and \(report.preMainStatisticsNotKept) more (counted, not kept)._\n" }
            out += "\n"
        }
        if !report.fragments.isEmpty {
            out += "\n## Lines read alone\n\n"
            for reading in report.fragments {
                out += "- \(MarkdownText.code(reading.fragment.origin.description)): \(MarkdownText.inline(reading.summary))\n"
                out += "  - \(MarkdownText.code(reading.fragment.text))\n"
            }
            out += "\n"
        }
        if !report.diagnostics.isEmpty {
            let shown = min(report.diagnostics.count, 10)
            out += "## Reading diagnostics\n\n\(report.diagnostics.count) diagnostic\(report.diagnostics.count == 1 ? "" : "s")"
            out += shown < report.diagnostics.count ? ", the first \(shown):\n\n" : ":\n\n"
            out += MarkdownText.fenced(report.diagnostics.prefix(10).map(\.description))
        }
        out += "\n<sub>prewarm-lint \(report.toolVersion), report schema \(LintReport.schemaVersion); configuration "
            + "\(report.configuration.map(MarkdownText.code) ?? "defaults")\(report.partial ? "; interrupted, partial" : "")</sub>\n"
        return out
    }

    /// Sessions listed one per row when there are this many or fewer.
    static let sessionsListedInFull = 40
    /// Beyond that, the sessions with findings listed (folded), at most.
    static let sessionsWithFindingsListed = 100

    /// Findings of one rule shown in full; the rest are counted.
    static let findingsShownPerRule = 5

    /// One finding: its heading, message and evidence.
    static func detail(_ finding: Finding) -> String {
        var out = ""
        let place = finding.location.map { " — " + MarkdownText.code("\($0.input):\($0.line)") } ?? ""
        out += "#### \(finding.severity.rawValue): \(MarkdownText.code(finding.ruleID)) in \(MarkdownText.code(finding.sessionID))\(place)\n\n"
        out += "\(MarkdownText.inline(finding.message))\n\n"
        out += MarkdownText.fenced(finding.evidence.map { evidence in
            "\(evidence.origin.input):\(evidence.origin.line) \(evidence.time.evidenceText) [\(evidence.label)]\n  \(evidence.text)"
        }) + "\n"
        if let missing = finding.missingEvidence { out += "_Evidence incomplete: \(MarkdownText.inline(missing))._\n\n" }
        return out
    }

    /// Why there is no chart, or nil when the sessions make one worth drawing: at least two, within a day (the axis
    /// spanned 2.7 years on unrelated logs, every tick `00:00:00`), at most 40 (48 made a staircase of invisible bars).
    static func noChartReason(_ sessions: some Collection<LaunchSession>) -> String? {
        let starts = sessions.compactMap { $0.milestones.first?.time.microsecondsSinceEpoch }
        guard starts.count >= 2 else { return "" }
        if sessions.count > 40 { return "\(sessions.count) sessions are too many for a readable chart: see the table" }
        let span = LogTimestamp.microseconds(from: starts.min()!, to: starts.max()!) / 1_000_000
        if span > 86_400 { return "the sessions span \(SpokenDuration.text(microseconds: span.multipliedReportingOverflow(by: 1_000_000).overflow ? .max : span * 1_000_000)): no chart, see the table" }
        return nil
    }

    /// A Mermaid gantt: a section per session, a bar per phase — before the activation (prewarmed and
    /// waiting, launching, in the background), activation → first frame or active, then until the exit.
    /// Phases, not every milestone: bars of a few milliseconds beside hours-long ones only crowd labels.
    func gantt(_ report: LintReport) -> String {
        var out = "```mermaid\ngantt\n    title Launch sessions (log time)\n    dateFormat YYYY-MM-DD HH:mm:ss.SSS\n    axisFormat %H:%M:%S\n    todayMarker off\n"
        for (session, id) in zip(report.sessions, report.sessionIDs) {
            guard let first = session.milestones.first, let last = session.milestones.last else { continue }
            out += "    section \(Self.ganttText(id)) (\(session.kind.rawValue))\n"
            let activation = session.milestone(.activation)
            let shown = session.milestone(.firstFrame) ?? session.milestone(.active)
            let waiting = switch session.kind {
            case .prewarmUnused, .prewarmOutcomeUnknown, .prewarmThenLaunch: "prewarmed, waiting for the user"
            case .debuggerLaunch: "launching under the debugger"
            case .backgroundLaunch: "in the background"
            case .coldLaunch: "launching"
            default: "before activation"
            }
            var bars: [(String, LaunchSession.Milestone, LaunchSession.Milestone, Bool)] = []
            if let activation {
                // Before the launch the user waited for: the prewarm's wait, a background start.
                let waitEnd = session.userPerceivedLaunch?.start ?? activation
                if waitEnd.time.microsecondsSinceEpoch > first.time.microsecondsSinceEpoch, waitEnd.name != .tap || session.wasPrewarmed {
                    bars.append((waiting, first, waitEnd, session.wasPrewarmed))
                }
                if let launch = session.userPerceivedLaunch {
                    // The launch the user waited for, as every report measures it.
                    bars.append(("launch (\(Self.ganttText(launch.label)))", launch.start, launch.end, false))
                } else if let shown, shown.time.microsecondsSinceEpoch >= activation.time.microsecondsSinceEpoch {
                    bars.append(("activation → \(shown.name == .firstFrame ? "first frame" : "active")", activation, shown, false))
                }
                let from = shown.map { $0.time.microsecondsSinceEpoch >= activation.time.microsecondsSinceEpoch ? $0 : activation } ?? activation
                if let end = session.milestone(.termination), end.time.microsecondsSinceEpoch > from.time.microsecondsSinceEpoch {
                    bars.append(("running until the exit", from, end, false))
                }
            } else if last.time.microsecondsSinceEpoch > first.time.microsecondsSinceEpoch {
                bars.append((session.milestone(.termination) != nil ? "\(waiting), then ended" : waiting, first, last, session.wasPrewarmed))
            }
            if bars.isEmpty {
                out += "    \(SessionTimelineReporter.label(first.name)) :milestone, \(Self.ganttTime(first.time)), 0d\n"
            }
            for (label, from, to, highlighted) in bars {
                out += "    \(label) :\(highlighted ? "active, " : "")\(Self.ganttTime(from.time)), \(Self.ganttTime(to.time))\n"
            }
        }
        return out + "```\n"
    }

    /// Local log time as Mermaid's `dateFormat` reads it.
    static func ganttTime(_ time: LogTimestamp) -> String {
        let iso = time.iso8601
        // `2026-03-14T06:02:11.118420-07:00` → `2026-03-14 06:02:11.118`
        let date = iso.prefix(10), clock = iso.dropFirst(11).prefix(12)
        return "\(date) \(clock)"
    }

    /// `com.example.ledger#2` → `com.example.ledger 2` (``MarkdownText/mermaid(_:)``).
    static func ganttText(_ text: String) -> String { MarkdownText.mermaid(text) }

    /// A table cell: its `|` escaped (GitHub's tables split a row at an unescaped one, inside a code span too).
    static func cell(_ text: String) -> String { text.replacingAll("|", with: "\\|").replacingAll("\n", with: " ") }
}
