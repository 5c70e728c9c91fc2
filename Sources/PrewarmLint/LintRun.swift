public import PrewarmLintModel
public import PrewarmLintRules
public import PrewarmLintReporters
import PrewarmLintSessions

/// One lint run, end to end: inputs → events → sessions → findings → a ``LintReport``; the same
/// thing `prewarm-lint [PATH…]` does, for a library caller.
///
/// ```swift
/// let discovery = InputDiscovery.expand(["logs/"])
/// let report = LintRun(toolVersion: "1.0").run(discovery.inputs)
/// print(FindingTextReporter().render(report))
/// ```
public struct LintRun: Sendable {
    public var options: ReadOptions
    public var linter: Linter
    public var toolVersion: String
    /// Rebuild each input's sessions on its own instead of merging the inputs as one device's logs.
    public var separately: Bool

    public init(options: ReadOptions = ReadOptions(), linter: Linter = Linter(), toolVersion: String, separately: Bool = false) {
        self.options = options
        self.linter = linter
        self.toolVersion = toolVersion
        self.separately = separately
    }

    /// Reads, rebuilds and checks. `onDiagnostic` sees each reader diagnostic as it happens.
    public func run(_ inputs: [DiscoveredInput], onDiagnostic: (ReaderDiagnostic) -> Void = { _ in }) -> LintReport {
        let pipeline = SessionPipeline(reader: InputReader(options: options), signatures: linter.configuration.signatureTable())
        let result = separately ? pipeline.runSeparately(inputs, onDiagnostic: onDiagnostic) : pipeline.run(inputs, onDiagnostic: onDiagnostic)
        let ids = LintReport.sessionIDs(result.sessions)
        let findings = linter.findings(in: result.sessions, ids: ids)
        return LintReport(toolVersion: toolVersion, inputs: result.summaries.map(Self.reportInput), sessions: result.sessions,
                          sessionIDs: ids, findings: findings, diagnostics: result.diagnostics)
    }

    /// An input's line in the report.
    public static func reportInput(_ summary: InputSummary) -> LintReport.Input {
        LintReport.Input(path: summary.input, format: summary.format?.rawValue, events: summary.statistics.events,
                         diagnostics: summary.statistics.diagnostics.values.reduce(0, +),
                         error: summary.skippedAsNotALog ? nil : summary.failure?.message)
    }
}

/// Findings a team has accepted: `--write-baseline` records them, `--baseline` hides them in later
/// runs. Keyed by content (rule, app, message with its numbers blanked), not line numbers, so a
/// new export of the same device still matches. The file is one key per line, sorted, with a
/// header comment: diff-friendly.
public struct Baseline: Sendable, Hashable {
    public var keys: Set<String>

    public init(keys: Set<String> = []) {
        self.keys = keys
    }

    public init(findings: [Finding]) {
        self.keys = Set(findings.map(\.baselineKey))
    }

    /// Parses a baseline file's text; blank lines and `#` comments are ignored.
    public init(text: String) {
        self.keys = Set(text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    public var text: String {
        "# prewarm-lint baseline: rule|app|message (numbers as #). Findings listed here are not reported.\n"
            + keys.sorted().map { $0 + "\n" }.joined()
    }

    /// The findings not in the baseline, and how many were.
    public func filter(_ findings: [Finding]) -> (kept: [Finding], suppressed: Int) {
        let kept = findings.filter { !keys.contains($0.baselineKey) }
        return (kept, findings.count - kept.count)
    }
}
