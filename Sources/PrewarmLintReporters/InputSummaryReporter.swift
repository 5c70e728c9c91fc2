public import PrewarmLintModel

/// The per-input summary lines printed after events: format, events, and every skipped line with its reason.
///
/// ```
/// device.log: console-copy, 214 events from 260 lines; skipped 40 continuation… 
/// ```
public struct InputSummaryReporter: Sendable {
    /// A summary reporter.
    public init() {}

    /// One line for an input that was read.
    /// - Parameters:
    ///   - input: the input's name
    ///   - formatName: the format identifier (`console-copy`), or nil when unknown
    ///   - compressed: whether it was gzip
    ///   - lines: lines read
    ///   - events: events produced
    ///   - skipped: non-event lines by reason name
    ///   - diagnosedLines: lines covered by diagnostics
    ///   - diagnostics: diagnostic counts by severity
    public func line(input: String, formatName: String?, compressed: Bool, lines: Int, events: Int,
                     skipped: [(reason: String, count: Int)], diagnosedLines: Int,
                     diagnostics: [(severity: ReaderDiagnostic.Severity, count: Int)]) -> String {
        var text = "\(input): \(formatName ?? "unknown format")\(compressed ? " (gzip)" : "")"
        text += ", \(events) event\(events == 1 ? "" : "s") from \(lines) line\(lines == 1 ? "" : "s")"
        var parts: [String] = []
        for (reason, count) in skipped where count > 0 { parts.append("\(count) \(reason)") }
        if diagnosedLines > 0 { parts.append("\(diagnosedLines) unusable (see diagnostics)") }
        if !parts.isEmpty { text += "; skipped " + parts.joined(separator: ", ") }
        let counted = diagnostics.filter { $0.count > 0 }
        if !counted.isEmpty {
            text += "; " + counted.map { "\($0.count) \($0.severity.rawValue)\($0.count == 1 ? "" : "s")" }.joined(separator: ", ")
        }
        return text
    }
}
