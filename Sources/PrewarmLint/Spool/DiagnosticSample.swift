public import PrewarmLintModel

/// The diagnostics of one input as a run keeps them: every one counted, the first ``keptPerCode`` of each
/// code kept whole, and one more per code saying how many were counted and not kept. Five million bad lines
/// are then a hundred diagnostics and a count, not gigabytes (issue 19); printing (`--max-diagnostics`) is
/// a separate, smaller limit.
public struct DiagnosticSample: Sendable {
    /// Diagnostics kept whole per code and input.
    public static let keptPerCode = 100

    /// The kept diagnostics, in the order they came.
    public private(set) var kept: [ReaderDiagnostic] = []
    /// Per code: how many came, how many were not kept, the first one not kept, its severity.
    private var counts: [DiagnosticCode: (count: Int, dropped: Int, firstDropped: EventOrigin?, severity: ReaderDiagnostic.Severity)] = [:]
    /// The codes in the order they first came (so the summaries are in a stable order).
    private var order: [DiagnosticCode] = []

    /// An empty sample.
    public init() {}

    /// Counts `diagnostic`, and keeps it while its code has fewer than ``keptPerCode`` kept.
    public mutating func add(_ diagnostic: ReaderDiagnostic) {
        var entry = counts[diagnostic.code] ?? (0, 0, nil, diagnostic.severity)
        if entry.count == 0 { order.append(diagnostic.code) }
        entry.count += 1
        if entry.count <= Self.keptPerCode {
            kept.append(diagnostic)
        } else {
            entry.dropped += 1
            if entry.firstDropped == nil { entry.firstDropped = diagnostic.origin }
            if diagnostic.severity > entry.severity { entry.severity = diagnostic.severity }
        }
        counts[diagnostic.code] = entry
    }

    /// How many diagnostics were counted and not kept.
    public var dropped: Int { counts.values.reduce(0) { $0 + $1.dropped } }

    /// The kept diagnostics, then one per code that had more, saying how many more (in text, JSON and SARIF
    /// alike, since it is a diagnostic like the others).
    public var diagnostics: [ReaderDiagnostic] {
        var result = kept
        for code in order {
            guard let entry = counts[code], entry.dropped > 0, let origin = entry.firstDropped else { continue }
            result.append(ReaderDiagnostic(code: code, severity: entry.severity,
                                           message: "\(entry.dropped) more \(code.rawValue) diagnostics were counted and not kept (\(entry.count) in all; the first \(Self.keptPerCode) are listed)",
                                           origin: origin, lineCount: 0))
        }
        return result
    }
}
