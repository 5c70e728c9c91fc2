import PrewarmLintModel

/// What a text log's reader says: the grammar's guess, the lines before the first record, and each diagnostic counted.
extension TextLogDecoder {
    /// Says, once, at the first record, what the grammar guessed in reading the input's lines, if anything.
    mutating func sayGuess(at line: ByteLine, emit: (ReaderOutput) -> Void) {
        guessSaid = true
        if let note = grammar.guessNote {
            spacedNames = SpacedProcessNames()
            report(.guessedColumns, .warning, note, line: line.number, offset: line.byteOffset, lines: 0, emit: emit)
        }
    }

    /// Reports the lines before the first record, if there were any (checked before each record).
    @inline(__always)
    mutating func flushOrphans(emit: (ReaderOutput) -> Void) {
        if orphans != nil { reportOrphans(emit: emit) }
    }

    mutating func reportOrphans(emit: (ReaderOutput) -> Void) {
        guard let run = orphans else { return }
        orphans = nil
        let what = run.count == 1 ? "1 line" : "\(run.count) lines"
        let message = "\(what) before the first record \(run.count == 1 ? "is" : "are") not \(format.displayName) lines; skipped"
        report(.orphanLines, .warning, message, line: run.number, offset: run.offset, lines: run.count, emit: emit)
    }

    mutating func report(_ code: DiagnosticCode, _ severity: ReaderDiagnostic.Severity, _ message: String,
                                 line: Int, offset: Int, lines: Int, emit: (ReaderOutput) -> Void) {
        let diagnostic = ReaderDiagnostic(code: code, severity: severity, message: message,
                                          origin: EventOrigin(input: configuration.inputName, line: line, byteOffset: offset),
                                          lineCount: lines)
        statistics.count(diagnostic)
        emit(.diagnostic(diagnostic))
    }
}
