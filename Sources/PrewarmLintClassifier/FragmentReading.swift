public import PrewarmLintModel

/// A line read alone (`LogFragment`) that matches a known signature, classified as the pipeline reads it: what it
/// shows, and that it shows no more.
///
/// A fragment is evidence incomplete by nature: it joins no session, and whatever it lacks (the app, the process, the
/// time) is said, not guessed. The linter accounts for its hazard lines as it does for a session's
/// (`Linter.unreportedHazards(readAlone:)`).
public struct FragmentReading: Sendable, Hashable {
    /// The line.
    public var fragment: LogFragment
    /// What its message means, by the signature it matches.
    public var meaning: EventMeaning
    /// That signature's id.
    public var signatureID: String
    /// The detail the signature reads from it (a status, an app), if any.
    public var detail: String?

    /// A reading.
    public init(fragment: LogFragment, meaning: EventMeaning, signatureID: String, detail: String?) {
        self.fragment = fragment
        self.meaning = meaning
        self.signatureID = signatureID
        self.detail = detail
    }

    /// The reading of `fragment` by `signatures`; nil when no signature matches it (a line read alone that means
    /// nothing known is not kept).
    public init?(_ fragment: LogFragment, by signatures: SignatureTable) {
        guard let match = signatures.match(fragment) else { return nil }
        self.init(fragment: fragment, meaning: match.signature.meaning, signatureID: match.signature.id, detail: match.detail)
    }

    /// The readings of `fragments` that match a signature of `signatures`, in order.
    public static func read(_ fragments: [LogFragment], with signatures: SignatureTable) -> [FragmentReading] {
        fragments.compactMap { FragmentReading($0, by: signatures) }
    }

    /// What the line lacks, said: `read alone, it joins no session; no process, pid in the line: evidence incomplete`.
    public var missing: String {
        var lacks: [String] = []
        if fragment.process == nil { lacks.append("process") }
        if fragment.pid == nil { lacks.append("pid") }
        if fragment.time == nil { lacks.append("time") }
        let lacking = lacks.isEmpty ? "" : "; no \(lacks.joined(separator: ", ")) in the line"
        return "read alone, it joins no session\(lacking): evidence incomplete"
    }
}
