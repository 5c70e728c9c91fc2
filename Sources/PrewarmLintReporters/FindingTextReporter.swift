import PrewarmLintModel
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
    public func render(_ report: LintReport) -> String {
        var out = ""
        var sessionOrder: [String] = []
        var bySession: [String: [Finding]] = [:]
        for finding in report.findings {
            if bySession[finding.sessionID] == nil { sessionOrder.append(finding.sessionID) }
            bySession[finding.sessionID, default: []].append(finding)
        }
        let timeline = SessionTimelineReporter()
        for id in sessionOrder {
            for finding in bySession[id]! {
                out += line(finding) + "\n"
                // Evidence from the finding's own input is named by its line only.
                let places = finding.evidence.map { evidence in
                    evidence.origin.input == finding.location?.input ? "line \(evidence.origin.line)" : evidence.origin.description
                }
                let width = places.map(\.count).max() ?? 0
                let labelWidth = finding.evidence.map(\.label.count).max() ?? 0
                for (evidence, place) in zip(finding.evidence, places) {
                    out += "    \(dim(place.padding(width)))  \(evidence.label.padding(labelWidth))  \(Self.cut(evidence.text))\n"
                }
                if let missing = finding.missingEvidence { out += "    \(dim("evidence incomplete:")) \(missing)\n" }
            }
            if timelines, let session = report.session(id: id) {
                out += timeline.render(session, id: id, markers: markers).split(separator: "\n").map { "  │ " + $0 }.joined(separator: "\n") + "\n"
            }
            out += "\n"
        }
        out += summary(report) + "\n"
        return out
    }

    /// `path:line: severity: [rule] message`.
    public func line(_ finding: Finding) -> String {
        let place = finding.location.map { "\($0.input):\($0.line): " } ?? ""
        return "\(place)\(paint(finding.severity)): [\(finding.ruleID)] \(finding.message)"
    }

    /// `3 findings (1 error, 2 warnings) in 4 sessions (1 cold, 3 prewarm-then-launch) from 2 inputs; 1 suppressed by the baseline`:
    /// the kinds answer "was it prewarmed?" even when nothing is wrong.
    public func summary(_ report: LintReport) -> String {
        let counts = report.findingCounts.filter { $0.count > 0 }.map { "\($0.count) \($0.severity.rawValue)\($0.count == 1 || $0.severity == .info ? "" : "s")" }
        // An input that failed after some of it was read (a corrupt `.gz` trailer, a read error midway) was linted up
        // to the failure: it counts as read, and is said to be cut short; one refused whole could not be read.
        let readInputs = report.inputs.filter { $0.format != nil && ($0.error == nil || $0.events > 0) }
        let read = readInputs.count
        let cutShort = report.inputs.filter { $0.error != nil && $0.events > 0 }.count
        let unreadable = report.inputs.filter { $0.error != nil && $0.events == 0 }.count
        let unreported = report.diagnostics.filter {
            ($0.code == .unattributedEvidence || $0.code == .hazardNotReported) && $0.severity >= .warning
        }.count
        // A run that read nothing, or read hazard lines no finding holds, is never a clean pass.
        let none = read == 0 && report.findings.isEmpty ? "nothing linted: no input was read as a log, so no findings"
            : report.findings.isEmpty && unreported > 0 ? "no findings, but hazard lines were read (see the \(unreported) warning\(unreported == 1 ? "" : "s"))"
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
            text += events == 0 ? "; no log record was read"
                : "; the \(events) event\(events == 1 ? "" : "s") read joined no launch session (`prewarm-lint events` lists them)"
        }
        if cutShort > 0 { text += "; \(cutShort) input\(cutShort == 1 ? " was" : "s were") cut short by an error (linted up to it)" }
        if unreadable > 0 { text += "; \(unreadable) input\(unreadable == 1 ? "" : "s") could not be read" }
        // How long the user waited, at a glance: the user-perceived launch (the median when there are several).
        if tally.launches.count == 1, let first = tally.firstLaunch {
            text += "; launch \(UserPerceivedLaunch.milliseconds(first.microseconds)) (\(first.label))"
        } else if tally.launches.count > 1, let median = tally.medianLaunch {
            text += "; launch median \(UserPerceivedLaunch.milliseconds(median)) of \(tally.launches.count) \(listed)launches (`stats` for more)"
        }
        if report.baselineSuppressed > 0 { text += "; \(report.baselineSuppressed) suppressed by the baseline" }
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
        let code = switch severity {
        case .error: "1;31"
        case .warning: "1;33"
        case .info: "1;36"
        }
        return "\u{1B}[\(code)m\(severity.rawValue)\u{1B}[0m"
    }

    /// Evidence quoted in a terminal: at most ``quoteLimit`` characters (the JSON report has it whole).
    static func cut(_ text: String) -> String {
        text.count <= quoteLimit ? text : String(text.prefix(quoteLimit - 1)) + "…"
    }

    /// The longest evidence quote printed, in characters.
    public static let quoteLimit = 200

    private func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
