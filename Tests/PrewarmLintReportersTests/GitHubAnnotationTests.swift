import PrewarmLintClassifier
import PrewarmLintModel
import PrewarmLintReporters
import PrewarmLintRules
import PrewarmLintSessions
import Testing

/// `--format github` within GitHub's limit of 10 annotations of each level per step.
@Suite("GitHub annotations")
struct GitHubAnnotationTests {
    static func finding(_ index: Int, _ severity: Severity) -> Finding {
        Finding(ruleID: "keychain-while-locked", severity: severity, message: "failure \(index)", sessionID: "com.example.app#\(index)",
                sessionKind: .coldLaunch, app: AppIdentity(bundleID: "com.example.app"),
                evidence: [Finding.Evidence(origin: EventOrigin(input: "device.log", line: index, byteOffset: 0),
                                            time: LogTimestamp(microsecondsSinceEpoch: Int64(index) * 1_000_000, utcOffsetSeconds: 0, text: "2024-03-18 09:00:00"),
                                            text: "line \(index)", label: "keychain failure")])
    }

    @Test("past 10 of a level, the 10th annotation says how many more are not shown, each of them is a plain log line, and a last line sums them up; a level within the limit is whole")
    func annotationsPastGitHubsLimit() {
        let findings = (1...23).map { Self.finding($0, .error) } + (1...3).map { Self.finding(100 + $0, .warning) }
        let inputs = [LintReport.Input(path: "device.log", format: "log-show", events: 100, diagnostics: 0),
                      LintReport.Input(path: "gone.log", format: nil, events: 0, diagnostics: 0, error: "no such file")]
        let lines = GitHubAnnotationReporter().render(LintReport(toolVersion: "0.1.0", inputs: inputs, sessions: [], findings: findings, diagnostics: []))
            .split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("::error ") }
        #expect(errors.count == 10)
        // The unreadable input first, then 8 findings, then the 10th: 15 more (24 errors in all, 9 shown).
        #expect(errors.first?.contains("title=prewarm-lint%3A unreadable input") == true)
        #expect(errors.last == "::error title=prewarm-lint%3A 15 more not shown::15 more error annotations of this run are not shown: GitHub shows 10 of each level per step (the step's log and --format text list every one)")
        #expect(lines.filter { $0.hasPrefix("error: device.log:") }.count == 15)
        #expect(lines.filter { $0.hasPrefix("::warning ") }.count == 3)
        #expect(lines.last == "prewarm-lint: not shown as annotations (GitHub shows 10 of each level per step): 15 error; each is a line above")
        // Exactly 10 of a level: all shown, nothing said.
        let ten = GitHubAnnotationReporter().render(LintReport(toolVersion: "0.1.0", inputs: [inputs[0]], sessions: [],
                                                               findings: (1...10).map { Self.finding($0, .info) }, diagnostics: []))
        #expect(ten.split(separator: "\n").filter { $0.hasPrefix("::notice ") }.count == 10 && !ten.contains("not shown"))
    }
}
