/// How serious a finding is. Ordered: `info < warning < error`.
public enum Severity: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// `info` (for the record), `warning` (to look at), `error` (a hazard that breaks users).
    case info, warning, error

    /// Orders `info < warning < error`.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }
}
