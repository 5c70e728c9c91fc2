import PrewarmLintRules
import PrewarmLintSessions
import PrewarmLintModel

/// A report to paste into a bug tracker: a summary table, the sessions, each finding with its
/// evidence in a code block, and a Mermaid gantt of the sessions (GitHub renders it).
public struct MarkdownReporter: Sendable {
    /// A reporter; it has no settings.
    public init() {}

    /// The report in this format.
    public func render(_ report: LintReport) -> String {
        var out = "# prewarm-lint report\n\n"
        let summary = FindingTextReporter().summary(report)
        out += summary.prefix(1).uppercased() + summary.dropFirst() + ".\n\n"
        out += "| severity | findings |\n|---|---:|\n"
        for (severity, count) in report.findingCounts { out += "| \(severity.rawValue) | \(count) |\n" }
        out += "\n## Sessions\n\n"
        if report.sessions.isEmpty {
            out += "No launch session in these logs.\n"
        } else {
            out += "| session | pid | kind | confidence | prewarm → activation | activation → active | findings |\n|---|---:|---|---|---:|---:|---|\n"
            for (session, id) in zip(report.sessions, report.sessionIDs) {
                let findings = report.findings.filter { $0.sessionID == id }.map { "`\($0.ruleID)`" }
                let cells = [
                    "`\(id)`", session.app.pid.map(String.init) ?? "",
                    session.kind.rawValue + (session.evidenceIncomplete ? " ⚠︎" : ""), session.confidence.rawValue,
                    session.milliseconds(from: .prewarmRequest, to: .activation).map { SpokenDuration.text(microseconds: $0 * 1000) } ?? "",
                    session.milliseconds(from: .activation, to: .active).map { SpokenDuration.text(microseconds: $0 * 1000) } ?? "",
                    findings.joined(separator: ", "),
                ]
                out += "| " + cells.map(Self.cell).joined(separator: " | ") + " |\n"
            }
            let incomplete = zip(report.sessions, report.sessionIDs).filter { $0.0.evidenceIncomplete }
            if !incomplete.isEmpty {
                out += "\n⚠︎ evidence incomplete:\n"
                for (session, id) in incomplete { out += "- `\(id)`: \(session.incompleteEvidence.joined(separator: "; "))\n" }
            }
            out += "\n" + gantt(report)
        }
        out += "\n## Findings\n\n"
        if report.findings.isEmpty { out += "None.\n" }
        for finding in report.findings {
            let place = finding.location.map { " — `\($0.input):\($0.line)`" } ?? ""
            out += "### \(finding.severity.rawValue): `\(finding.ruleID)` in `\(finding.sessionID)`\(place)\n\n"
            out += "\(Self.inline(finding.message))\n\n"
            out += "~~~~text\n"
            for evidence in finding.evidence {
                out += "\(evidence.origin.input):\(evidence.origin.line) \(evidence.time.iso8601) [\(evidence.label)]\n  \(evidence.text)\n"
            }
            out += "~~~~\n\n"
            if let missing = finding.missingEvidence { out += "_Evidence incomplete: \(Self.inline(missing))._\n\n" }
        }
        if !report.diagnostics.isEmpty {
            let shown = min(report.diagnostics.count, 10)
            out += "## Reading diagnostics\n\n\(report.diagnostics.count) diagnostic\(report.diagnostics.count == 1 ? "" : "s")"
            out += shown < report.diagnostics.count ? ", the first \(shown):\n\n~~~~text\n" : ":\n\n~~~~text\n"
            for diagnostic in report.diagnostics.prefix(10) { out += diagnostic.description + "\n" }
            out += "~~~~\n"
        }
        out += "\n<sub>prewarm-lint \(report.toolVersion), report schema \(LintReport.schemaVersion)\(report.partial ? "; interrupted, partial" : "")</sub>\n"
        return out
    }

    /// A Mermaid gantt: a section per session, a bar per phase — before the activation (prewarmed and
    /// waiting, launching, in the background), activation → first frame or active, then until the exit.
    /// Phases, not every milestone: bars of a few milliseconds beside hours-long ones only crowd labels.
    func gantt(_ report: LintReport) -> String {
        var out = "```mermaid\ngantt\n    title Launch sessions (log time)\n    dateFormat YYYY-MM-DD HH:mm:ss.SSS\n    axisFormat %H:%M:%S\n"
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

    static func ganttText(_ text: String) -> String {
        // `:`, `#` and `;` mean something to Mermaid: `com.example.ledger#2` → `com.example.ledger 2`.
        String(text.map { $0 == ":" || $0 == "#" || $0 == ";" ? " " : $0 })
    }

    static func cell(_ text: String) -> String { text.replacingAll("|", with: "\\|").replacingAll("\n", with: " ") }

    /// Text in a Markdown paragraph: characters that would start markup escaped.
    static func inline(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>|".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
