public import PrewarmLintRules

/// Turns a ``LintReport`` into text: what every built-in report format is, and what a caller
/// implements to add one (a CSV for a dashboard, a Slack message).
///
/// ```swift
/// struct KindCounts: ReportRenderer {
///     let formatName = "kinds"
///     func render(_ report: LintReport) -> String {
///         Dictionary(grouping: report.sessions, by: \.kind).map { "\($0.key.rawValue) \($0.value.count)" }.joined(separator: "\n")
///     }
/// }
/// ```
public protocol ReportRenderer: Sendable {
    /// The name users pick it by (`--format` spelling for the built-in ones).
    var formatName: String { get }
    /// The report as text, ending with a line break.
    func render(_ report: LintReport) -> String
    /// The same text handed to `output` in pieces, for a renderer that can write a long report without
    /// holding it whole (the JSON report does). By default, ``render(_:)`` in one piece.
    func render(_ report: LintReport, to output: (String) -> Void)
    /// The same text as UTF-8, handed to `output` in pieces valid only during each call (what a program writing
    /// the report to a file or a pipe wants: no `String` is made). By default, ``render(_:to:)``'s pieces.
    func render(_ report: LintReport, toUTF8 output: (UnsafeRawBufferPointer) -> Void)
}

extension ReportRenderer {
    /// ``render(_:)`` in one piece.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        output(render(report))
    }

    /// ``render(_:to:)``'s pieces, as UTF-8.
    public func render(_ report: LintReport, toUTF8 output: (UnsafeRawBufferPointer) -> Void) {
        render(report) { (piece: String) in
            var piece = piece
            piece.withUTF8 { output(UnsafeRawBufferPointer($0)) }
        }
    }
}

/// The JSON report (schema version 1) as a renderer: ``LintReport/render()``.
public struct JSONReportRenderer: ReportRenderer {
    /// `json`.
    public let formatName = "json"
    /// The JSON renderer.
    public init() {}
    /// The JSON report.
    public func render(_ report: LintReport) -> String { report.render() }
    /// The JSON report in pieces of about 64 KiB: ``LintReport/render(to:)``.
    public func render(_ report: LintReport, to output: (String) -> Void) { report.render(to: output) }
    /// The JSON report's UTF-8 in pieces of about 64 KiB: ``LintReport/render(toUTF8:)``.
    public func render(_ report: LintReport, toUTF8 output: (UnsafeRawBufferPointer) -> Void) { report.render(toUTF8: output) }
}

extension FindingTextReporter: ReportRenderer {
    /// `text`.
    public var formatName: String { "text" }
}

extension FindingNDJSONReporter: ReportRenderer {
    /// `ndjson`.
    public var formatName: String { "ndjson" }
}

extension SARIFReporter: ReportRenderer {
    /// `sarif`.
    public var formatName: String { "sarif" }
}

extension MarkdownReporter: ReportRenderer {
    /// `markdown`.
    public var formatName: String { "markdown" }
}

extension HTMLReporter: ReportRenderer {
    /// `html`.
    public var formatName: String { "html" }
}

extension GitHubAnnotationReporter: ReportRenderer {
    /// `github`.
    public var formatName: String { "github" }
}

extension JUnitReporter: ReportRenderer {
    /// `junit`.
    public var formatName: String { "junit" }
}

/// The built-in renderers, by format name.
public enum ReportRenderers {
    /// Every built-in format, configured: SARIF lists `rules` (with `helpUri`s from `ruleDocumentationURL`, paths
    /// relative to `sarifSourceRoot` — see ``SARIFReporter``), JUnit fails from `failOn`, text uses `color` and
    /// places `markers` on its timelines.
    public static func builtIn(rules: [RuleDescription], color: Bool = false, failOn: Severity = .error,
                               markers: [LintConfiguration.Marker] = [], ruleDocumentationURL: String? = nil,
                               sarifSourceRoot: (root: String, workingDirectory: String)? = nil) -> [any ReportRenderer] {
        [FindingTextReporter(color: color, markers: markers), JSONReportRenderer(), FindingNDJSONReporter(),
         SARIFReporter(rules: rules, ruleDocumentationURL: ruleDocumentationURL, sourceRoot: sarifSourceRoot),
         MarkdownReporter(), HTMLReporter(), GitHubAnnotationReporter(), JUnitReporter(failOn: failOn), FleetRecordReporter(), OTLPReporter()]
    }
}

/// What the streaming reporters share: their whole text is their pieces joined.
enum ReportPieces {
    /// The pieces `render` hands out, joined.
    static func joined(_ render: ((String) -> Void) -> Void) -> String {
        var text = ""
        render { text += $0 }
        return text
    }
}
