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
        // After the findings, what kept the run from being whole, one record each (`"error"` instead of `"rule"`):
        // an input that could not be read, an interruption. A consumer counting findings is not misled by them.
        for input in report.inputs {
            guard let error = input.error else { continue }
            var writer = JSONTextWriter()
            writer.beginObject()
            writer.field("error", "unreadable-input")
            writer.field("input", input.path)
            writer.field("message", error)
            writer.endObject()
            out += writer.text + "\n"
        }
        if report.partial {
            out += #"{"error":"interrupted","message":"the results cover what was read until then"}"# + "\n"
        }
        return out
    }
}
