import PrewarmLintModel
public import PrewarmLintClassifier

/// How the reports show a line read alone (`FragmentReading`, classified by the pipeline as it read it).
extension FragmentReading {
    /// One line for the text and Markdown reports: `a prewarm-request line (rb-dasd-dyldlaunch-attribute): read alone, …`.
    public var summary: String {
        let who = fragment.process.map { name in fragment.pid.map { "\(name)[\($0)]" } ?? name }
        return "\(meaning.rawValue)\(who.map { " of \($0)" } ?? "")\(fragment.time.map { " at \($0)" } ?? "") (\(signatureID)): \(missing)"
    }

    /// Writes the JSON object of `reading` (the report's `fragments` array).
    public static func write(_ reading: FragmentReading, to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.key("evidence")
        LintReport.writeOrigin(reading.fragment.origin, to: &writer)
        writer.field("meaning", reading.meaning.rawValue)
        writer.field("signature", reading.signatureID)
        writer.field("detail", reading.detail)
        writer.field("process", reading.fragment.process)
        writer.field("pid", reading.fragment.pid)
        writer.field("time", reading.fragment.time)
        writer.field("text", reading.fragment.text)
        writer.endObject()
    }
}
