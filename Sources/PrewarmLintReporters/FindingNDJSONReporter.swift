import PrewarmLintRules

/// One finding per line, the objects of the JSON report's `findings` array: for pipelines that
/// stream findings into another tool.
public struct FindingNDJSONReporter: Sendable {
    /// A reporter; it has no settings.
    public init() {}

    /// The report in this format.
    public func render(_ report: LintReport) -> String {
        var out = ""
        for finding in report.findings {
            var writer = JSONTextWriter()
            LintReport.write(finding, to: &writer)
            out += writer.text + "\n"
        }
        return out
    }
}
