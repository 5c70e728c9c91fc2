import PrewarmLint

/// Reader diagnostics on standard error in text output, as they come: those of `minimum` severity or above, the first
/// `--max-diagnostics` of the run; the rest counted and said at the end, so a cut list never reads as whole.
struct DiagnosticPrinter {
    let limit: Int
    let minimum: ReaderDiagnostic.Severity
    /// Where every diagnostic is listed, for the note (`--format json lists them`); nil: nowhere else.
    let listedIn: String?
    private(set) var printed = 0
    private(set) var notShown = 0

    init(limit: Int, minimum: ReaderDiagnostic.Severity = .warning, listedIn: String? = "--format json lists them") {
        self.limit = limit
        self.minimum = minimum
        self.listedIn = listedIn
    }

    /// Prints `diagnostic` while under the limit; counts it past it. Below `minimum`, neither.
    mutating func take(_ diagnostic: ReaderDiagnostic) {
        guard diagnostic.severity >= minimum else { return }
        if printed < limit {
            StandardStreams.err(diagnostic.description)
            printed += 1
        } else {
            notShown += 1
        }
    }

    /// Says how many were not shown, if any.
    func finish() {
        guard notShown > 0 else { return }
        StandardStreams.err("note: \(notShown) more diagnostic\(notShown == 1 ? "" : "s") not shown (--max-diagnostics \(limit + notShown) shows every one"
            + (listedIn.map { "; \($0)" } ?? "") + ")")
    }
}
