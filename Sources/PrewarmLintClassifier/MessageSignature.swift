/// One message template the classifier recognises: who prints it, what it means, and the real
/// line it was taken from.
///
/// Signatures are data, not code: ``SignatureTable/builtIn`` lists them in order, and the first
/// that matches an event wins. Every entry's ``example`` is checked by the tests to classify as
/// the entry says, so the table cannot drift from the lines it claims to recognise.
public struct MessageSignature: Sendable, Hashable {
    /// A stable identifier, `<process>-<what>` (`rb-prewarm-launch-request`).
    public var id: String
    /// The roles of the processes that print it.
    public var roles: Set<ProcessRole>
    /// What it means.
    public var meaning: EventMeaning
    /// Texts that must all appear in the message.
    public var all: [String]
    /// Texts of which at least one must appear (empty: no such condition).
    public var any: [String]
    /// Whether the text of ``any`` that was found is the detail (the callback an app line names),
    /// when ``detailAfter`` does not give one.
    public var anyIsDetail: Bool
    /// Texts that must not appear.
    public var none: [String]
    /// Where the detail starts: the text after this marker, up to the first of ``detailEnds``
    /// (`Setting process visibility to: ` → `Foreground`).
    public var detailAfter: String?
    /// Where the detail ends (the first found); the end of the line at the latest.
    public var detailEnds: [String]
    // The match texts as bytes, for `memmem` (see ``ByteSearch``).
    private var allBytes: [[UInt8]] = []
    private var anyBytes: [[UInt8]] = []
    private var noneBytes: [[UInt8]] = []
    private var detailAfterBytes: [UInt8]?
    private var detailEndBytes: [[UInt8]] = []

    /// The OS versions it was seen on (`iOS 14–26`).
    public var seenOn: String
    /// A real message it matches, verbatim but for `…` where a long descriptor was cut.
    public var example: String
    /// Where the example comes from (a `../shared/real-logs/` excerpt or a decompiled template).
    public var source: String

    public init(id: String, roles: Set<ProcessRole>, meaning: EventMeaning, all: [String] = [], any: [String] = [], anyIsDetail: Bool = false,
                none: [String] = [], detailAfter: String? = nil, detailEnds: [String] = [" (", ","],
                seenOn: String, example: String, source: String) {
        self.id = id
        self.roles = roles
        self.meaning = meaning
        self.all = all
        self.any = any
        self.anyIsDetail = anyIsDetail
        self.none = none
        self.detailAfter = detailAfter
        self.detailEnds = detailEnds
        self.allBytes = all.map { Array($0.utf8) }
        self.anyBytes = any.map { Array($0.utf8) }
        self.noneBytes = none.map { Array($0.utf8) }
        self.detailAfterBytes = detailAfter.map { Array($0.utf8) }
        self.detailEndBytes = detailEnds.map { Array($0.utf8) }
        self.seenOn = seenOn
        self.example = example
        self.source = source
    }

    /// The detail this signature reads from `message` when it matches, or nil when it does not match.
    public func match(_ message: String) -> (matched: Bool, detail: String?) {
        let found: String?? = ByteSearch.withBytes(of: message) { bytes -> String?? in
            for needle in allBytes where ByteSearch.firstOffset(of: needle, in: bytes) == nil { return .none }
            for needle in noneBytes where ByteSearch.firstOffset(of: needle, in: bytes) != nil { return .none }
            if anyBytes.isEmpty { return .some(nil) }
            for (index, needle) in anyBytes.enumerated() where ByteSearch.firstOffset(of: needle, in: bytes) != nil {
                return .some(any[index])
            }
            return .none
        }
        guard case .some(let found) = found else { return (false, nil) }
        if let marker = detailAfterBytes, let detail = ByteSearch.withBytes(of: message, { bytes -> String? in
            guard let at = ByteSearch.firstOffset(of: marker, in: bytes) else { return nil }
            let rest = UnsafeBufferPointer(rebasing: bytes[(at + marker.count)...])
            var end = rest.count
            for terminator in detailEndBytes + [[UInt8(ascii: "\n")]] {
                if let offset = ByteSearch.firstOffset(of: terminator, in: rest), offset < end { end = offset }
            }
            if end > 0, rest[end - 1] == UInt8(ascii: ".") { end -= 1 }
            return end > 0 ? String(decoding: UnsafeBufferPointer(rebasing: rest[..<end]), as: UTF8.self) : nil
        }) {
            return (true, detail)
        }
        if detailAfterBytes != nil, !anyIsDetail { return (true, nil) }
        return (true, anyIsDetail ? found : nil)
    }
}
