import PrewarmLintSpool
import PrewarmLintClassifier
import PrewarmLintSessions
public import PrewarmLintRules

/// JUnit XML, for CI systems that show test results: one test case per session (passing when it
/// has no finding at or above `failOn`), each finding at or above it a `<failure>`, lower ones in
/// `<system-out>`.
public struct JUnitReporter: Sendable {
    /// Findings at or above it are `<failure>`s.
    public var failOn: Severity

    /// A JUnit reporter failing from `failOn`.
    public init(failOn: Severity = .warning) {
        self.failOn = failOn
    }

    /// The report in this format.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The document, handed to `output` in pieces of about 64 KiB: test cases are written as they are made, not
    /// gathered into one string.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        // Each session's findings by index, and the sessions that fail, found in one pass (a filter per session was
        // quadratic; two passes read a spooled report's findings twice before a line is written).
        var failingSessions: Set<String> = []
        var findingsBySession: [String: [Int]] = [:]
        for (index, finding) in report.findings.enumerated() {
            findingsBySession[finding.sessionID, default: []].append(index)
            if finding.severity >= failOn { failingSessions.insert(finding.sessionID) }
        }
        // An input that could not be read, or an interrupted run, is an error test case: a run that read nothing is never green.
        let unreadable = report.inputs.filter { $0.error != nil }
        let errors = unreadable.count + (report.partial ? 1 : 0)
        let tests = report.sessions.count + errors
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"prewarm-lint\" tests=\"\(tests)\" failures=\"\(failingSessions.count)\" errors=\"\(errors)\">\n"
        out += "  <testsuite name=\"prewarm-lint\" tests=\"\(tests)\" failures=\"\(failingSessions.count)\" errors=\"\(errors)\">\n"
        for input in unreadable {
            out += "    <testcase classname=\"inputs\" name=\"\(Self.escape(input.path))\">\n"
            out += "      <error type=\"unreadable-input\" message=\"\(Self.escape(input.error!))\"/>\n"
            out += "    </testcase>\n"
        }
        if report.partial {
            out += "    <testcase classname=\"inputs\" name=\"interrupted\">\n"
            out += "      <error type=\"interrupted\" message=\"interrupted: the results cover what was read until then\"/>\n"
            out += "    </testcase>\n"
        }
        for (index, (session, id)) in zip(report.sessions, report.sessionIDs).enumerated() {
            if out.utf8.count >= 1 << 16 {
                output(out)
                out = ""
            }
            let findings = (findingsBySession[id] ?? []).map { report.findings[$0] }
            let app = session.app.bundleID ?? session.app.processName ?? "unknown"
            // Read separately, the input too: test tabs show the test case's name.
            let name = "\(id) \(session.kind.rawValue)" + (report.input(ofSessionAt: index).map { " from \($0)" } ?? "")
            let failures = findings.filter { $0.severity >= failOn }
            let others = findings.filter { $0.severity < failOn }
            if findings.isEmpty {
                out += "    <testcase classname=\"\(Self.escape(app))\" name=\"\(Self.escape(name))\"/>\n"
                continue
            }
            out += "    <testcase classname=\"\(Self.escape(app))\" name=\"\(Self.escape(name))\">\n"
            for finding in failures {
                out += "      <failure type=\"\(finding.ruleID)\" message=\"\(Self.escape(finding.message))\">"
                out += Self.escape(Self.body(finding)) + "</failure>\n"
            }
            if !others.isEmpty {
                out += "      <system-out>" + Self.escape(others.map { "\($0.severity.rawValue): [\($0.ruleID)] \($0.message)\n" + Self.body($0) }.joined(separator: "\n")) + "</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        output(out)
    }

    static func body(_ finding: Finding) -> String {
        finding.evidence.map { "\($0.origin): \($0.label): \($0.text)" }.joined(separator: "\n")
    }

    /// XML text and attribute escaping (``MarkupText/escape(_:)``).
    static func escape(_ text: String) -> String { MarkupText.escape(text) }
}
