// launch-gap-report: how long prewarmed processes waited for their user, as CSV, plus one rule of
// this team's own. Usage: swift run launch-gap-report [PATH…]   (default: ../Corpus/scenarios)
//                         idevicesyslog | swift run launch-gap-report --live   (a row per session as it closes)
import Foundation
import PrewarmLint

/// A team rule: a prewarmed process whose user came more than `hours` later (its cached state is that old).
struct StalePrewarm: Rule {
    static let hours = RuleOption(name: "hours", defaultValue: 1, help: "Hours between the prewarm and the activation.")

    let description = RuleDescription(
        id: "stale-prewarm", name: "Stale prewarm", defaultSeverity: .info,
        summary: "The user activated a prewarmed process more than `hours` after the prewarm.",
        rationale: "Anything the app cached during prewarm (a feed, a feature flag) is that old when the user arrives.",
        options: [Self.hours],
        triggeringExamples: [], nonTriggeringExamples: [])

    func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard let gap = session.milliseconds(from: .prewarmRequest, to: .activation), Double(gap) > context.option(Self.hours) * 3_600_000,
              let activation = session.evidence(.activation, label: "activation") else { return [] }
        return [context.finding("the user came \(SpokenDuration.text(microseconds: gap * 1000)) after the prewarm", evidence: [activation])]
    }
}

/// A report format of our own: one CSV row per session.
struct GapCSV: ReportRenderer {
    let formatName = "gap-csv"

    func render(_ report: LintReport) -> String {
        var out = "session,kind,confidence,prewarm_to_activation_s,activation_to_active_ms,findings\n"
        for (session, id) in zip(report.sessions, report.sessionIDs) {
            out += row(session, id: id, findings: report.findings.filter { $0.sessionID == id }) + "\n"
        }
        return out
    }
}

/// One CSV row of a session.
func row(_ session: LaunchSession, id: String, findings: [Finding]) -> String {
    let gap = session.milliseconds(from: .prewarmRequest, to: .activation).map { String($0 / 1000) } ?? ""
    let active = session.milliseconds(from: .activation, to: .active).map(String.init) ?? ""
    return "\(id),\(session.kind.rawValue),\(session.confidence.rawValue),\(gap),\(active),\(findings.map(\.ruleID).joined(separator: " "))"
}

let paths = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : ["../Corpus/scenarios"]
var options = ReadOptions()
options.timeInference.date = CivilDateTime(dateText: "2024-03-18")  // the Console copies of the corpus have no date
let analyzer = LogAnalyzer(options: options, linter: Linter(registry: RuleRegistry.builtIn.adding(StalePrewarm())))

if paths == ["--live"] {
    // A log streamed on standard input: a finding as soon as its line decides it, a row as each session closes.
    let chunks = AsyncStream<[UInt8]> { continuation in
        Thread {
            while case let data = FileHandle.standardInput.availableData, !data.isEmpty { continuation.yield([UInt8](data)) }
            continuation.finish()
        }.start()
    }
    FileHandle.standardOutput.write(Data("session,kind,confidence,prewarm_to_activation_s,activation_to_active_ms,findings\n".utf8))
    for try await update in analyzer.live(chunks, named: "-") {
        switch update {
        case .finding(let finding): FileHandle.standardError.write(Data("\(finding.ruleID): \(finding.message)\n".utf8))
        case .session(let closed):
            // Written at once (print buffers standard output when it is a pipe).
            FileHandle.standardOutput.write(Data((row(closed.session, id: closed.id, findings: closed.findings) + "\n").utf8))
        case .report(let report): FileHandle.standardError.write(Data("\(report.sessions.count) sessions, \(report.findings.count) findings\n".utf8))
        case .diagnostic: break
        }
    }
    exit(0)
}
let report = analyzer.lint(paths: paths, separately: true)
print(GapCSV().render(report), terminator: "")
let stale = report.findings.filter { $0.ruleID == "stale-prewarm" }.count
FileHandle.standardError.write(Data("\(report.sessions.count) sessions, \(report.findings.count) findings (\(stale) stale-prewarm)\n".utf8))
