import PrewarmLintRules

/// One finding per line, the objects of the JSON report's `findings` array: for pipelines that
/// stream findings into another tool.
public struct FindingNDJSONReporter: Sendable {
    /// A reporter; it has no settings.
    public init() {}

    /// The report in this format.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The report as text, handed to `output` in pieces of about 64 KiB: a report of many findings is never whole in
    /// memory.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        render(report) { bytes in output(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The report's UTF-8, handed to `output` in pieces of about 64 KiB, each valid only during the call.
    public func render(_ report: LintReport, toUTF8 output: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONTextWriter()
        func endRecord() {
            writer.endJSONLine()
            if writer.byteCount >= 1 << 16 { writer.takeBytes(output) }
        }
        for finding in report.findings {
            LintReport.write(finding, to: &writer)
            endRecord()
        }
        // After the findings, what kept the run from being whole, one record each (`"error"` instead of `"rule"`):
        // an input that could not be read, an interruption. A consumer counting findings is not misled by them.
        for input in report.inputs {
            guard let error = input.error else { continue }
            writer.beginObject()
            writer.field("error", "unreadable-input")
            writer.field("input", input.path)
            writer.field("message", error)
            writer.endObject()
            endRecord()
        }
        if report.partial {
            writer.beginObject()
            writer.field("error", "interrupted")
            writer.field("message", "the results cover what was read until then")
            writer.endObject()
            endRecord()
        }
        if writer.byteCount > 0 { writer.takeBytes(output) }
    }
}
