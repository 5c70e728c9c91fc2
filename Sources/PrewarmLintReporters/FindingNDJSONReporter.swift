import PrewarmLintRules
public import PrewarmLintSessions

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

    /// What a run that reads a log as it arrives (`lint --follow`) prints at a time: the `findings` just given, one record
    /// each as in a report, then, when a session closed, one record for it: `{"session": {…}, "findings": […]}`, the
    /// session object and its findings in their final words as the JSON report has them. UTF-8 to `output`.
    public func renderLive(findings: [Finding], closed: (session: LaunchSession, id: String, findings: [Finding])?,
                           toUTF8 output: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONTextWriter()
        // With no session closing, the findings are given early: marked so.
        for finding in findings {
            LintReport.write(finding, to: &writer, early: closed == nil)
            writer.endJSONLine()
        }
        if let closed {
            writer.beginObject()
            writer.key("session")
            LintReport.write(closed.session, id: closed.id, to: &writer)
            writer.key("findings")
            writer.beginArray()
            for finding in closed.findings { LintReport.write(finding, to: &writer) }
            writer.endArray()
            writer.endObject()
            writer.endJSONLine()
        }
        if writer.byteCount > 0 { writer.takeBytes(output) }
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
