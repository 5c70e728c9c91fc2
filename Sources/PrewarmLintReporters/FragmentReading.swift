public import PrewarmLintModel
public import PrewarmLintClassifier

/// A line read alone (`LogFragment`) that matches a known signature: what it shows, and that it shows no more.
///
/// A fragment is evidence incomplete by nature: it joins no session, and whatever it lacks (the app, the process, the
/// time) is said, not guessed.
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

    /// The readings of `fragments` that match a signature of `signatures`, in order.
    public static func read(_ fragments: [LogFragment], with signatures: SignatureTable) -> [FragmentReading] {
        fragments.compactMap { fragment in
            signatures.match(fragment).map { FragmentReading(fragment: fragment, meaning: $0.signature.meaning, signatureID: $0.signature.id, detail: $0.detail) }
        }
    }

    /// What the line lacks, said: `no app, process or time in the line`.
    public var missing: String {
        var lacks: [String] = []
        if fragment.process == nil { lacks.append("process") }
        if fragment.pid == nil { lacks.append("pid") }
        if fragment.time == nil { lacks.append("time") }
        let lacking = lacks.isEmpty ? "" : "; no \(lacks.joined(separator: ", ")) in the line"
        return "read alone, it joins no session\(lacking): evidence incomplete"
    }

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
