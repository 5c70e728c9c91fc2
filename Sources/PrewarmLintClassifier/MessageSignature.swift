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
    /// The OS versions it was seen on (`iOS 14–26`).
    public var seenOn: String
    /// A real message it matches, verbatim but for `…` where a long descriptor was cut.
    public var example: String
    /// Where the example comes from (a `Corpus/real-logs/` excerpt or a decompiled template).
    public var source: String
    /// For a team's named marker: its name, the point of the launch its lines are (`did-finish-launching`),
    /// carried on every line it classifies (`ClassifiedEvent/pointName`), whatever its meaning.
    public var pointName: String?
    /// What a line of this signature tells the session builder beyond its meaning (see ``SignatureFacts``): typed,
    /// so that renaming a signature's id cannot change a session's kind.
    public var facts: SignatureFacts
    /// The prewarm decision a line of this signature states (dasd's), or nil.
    public var decision: PrewarmDecisionReason?

    /// A signature; see the properties for each part.
    public init(id: String, roles: Set<ProcessRole>, meaning: EventMeaning, all: [String] = [], any: [String] = [], anyIsDetail: Bool = false,
                none: [String] = [], detailAfter: String? = nil, detailEnds: [String] = [" (", ","],
                seenOn: String, example: String, source: String, pointName: String? = nil, facts: SignatureFacts = [],
                decision: PrewarmDecisionReason? = nil) {
        self.id = id
        self.roles = roles
        self.meaning = meaning
        self.all = all
        self.any = any
        self.anyIsDetail = anyIsDetail
        self.none = none
        self.detailAfter = detailAfter
        self.detailEnds = detailEnds
        self.seenOn = seenOn
        self.example = example
        self.source = source
        self.pointName = pointName
        self.facts = facts
        self.decision = decision
    }

    /// The detail this signature reads from `message` when it matches, or nil when it does not match.
    public func match(_ message: String) -> (matched: Bool, detail: String?) {
        SignatureMatcher(self).match(message)
    }
}

/// A ``MessageSignature`` compiled for matching: its texts as bytes, in an immutable object, so
/// trying a signature against a line copies nothing (a struct of arrays and strings would be
/// retained and released field by field for every signature tried on every line).
final class SignatureMatcher: Sendable {
    let all: [[UInt8]]
    let any: [[UInt8]]
    let anyTexts: [String]
    let none: [[UInt8]]
    let anyIsDetail: Bool
    let detailAfter: [UInt8]?
    let detailEnds: [[UInt8]]

    init(_ signature: MessageSignature) {
        all = signature.all.map { Array($0.utf8) }
        any = signature.any.map { Array($0.utf8) }
        anyTexts = signature.any
        none = signature.none.map { Array($0.utf8) }
        anyIsDetail = signature.anyIsDetail
        detailAfter = signature.detailAfter.map { Array($0.utf8) }
        detailEnds = (signature.detailEnds + ["\n"]).map { Array($0.utf8) }
    }

    func match(_ message: String) -> (matched: Bool, detail: String?) {
        ByteSearch.withBytes(of: message) { match($0) }
    }

    /// Matches the bytes of a message; the detail is decoded only on a match.
    /// Whether the texts the signature needs are all in `bytes` (its `none` texts not checked): true
    /// whenever ``match(_:)`` is, and still true for any longer text holding `bytes`.
    func mayMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for needle in all where ByteSearch.firstOffset(of: needle, in: bytes) == nil { return false }
        return any.isEmpty || any.contains { ByteSearch.firstOffset(of: $0, in: bytes) != nil }
    }

    func match(_ bytes: UnsafeBufferPointer<UInt8>) -> (matched: Bool, detail: String?) {
        for needle in all where ByteSearch.firstOffset(of: needle, in: bytes) == nil { return (false, nil) }
        for needle in none where ByteSearch.firstOffset(of: needle, in: bytes) != nil { return (false, nil) }
        var found: String?
        if !any.isEmpty {
            guard let index = any.firstIndex(where: { ByteSearch.firstOffset(of: $0, in: bytes) != nil }) else { return (false, nil) }
            found = anyTexts[index]
        }
        if let marker = detailAfter, let at = ByteSearch.firstOffset(of: marker, in: bytes) {
            let rest = UnsafeBufferPointer(rebasing: bytes[(at + marker.count)...])
            var end = rest.count
            for terminator in detailEnds {
                if let offset = ByteSearch.firstOffset(of: terminator, in: rest), offset < end { end = offset }
            }
            if end > 0, rest[end - 1] == UInt8(ascii: ".") { end -= 1 }
            if end > 0 { return (true, String(decoding: UnsafeBufferPointer(rebasing: rest[..<end]), as: UTF8.self)) }
            if !anyIsDetail { return (true, nil) }
        } else if detailAfter != nil, !anyIsDetail {
            return (true, nil)
        }
        return (true, anyIsDetail ? found : nil)
    }
}

/// What a signature's lines tell the session builder beyond their ``EventMeaning``.
public struct SignatureFacts: OptionSet, Sendable, Hashable {
    /// The facts as bits.
    public let rawValue: UInt8
    /// A set of facts.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A prewarm request in runningboardd's own words (`… (DAS Prewarm launch)`, the `DYLDLaunch` attribute): the
    /// prewarm is certain, where dasd's lines say it was attempted (likely).
    public static let certainPrewarm = SignatureFacts(rawValue: 1 << 0)
    /// A new process bootstrapped for the user (`Bootstrapping … with intent foreground-interactive`, the user
    /// launch assertion): after an activation, it means the previous process is gone.
    public static let bootstrapsProcess = SignatureFacts(rawValue: 1 << 1)
    /// The process became active in the foreground (`running-active`): the `active` milestone.
    public static let activeInForeground = SignatureFacts(rawValue: 1 << 2)
    /// FrontBoard set the process's visibility to Background: it was in use before, so the line opens a session.
    public static let wentToBackground = SignatureFacts(rawValue: 1 << 3)
    /// FrontBoard starts a new process for the app (`Asked to bootstrap a new process`), whatever asked for it: a
    /// launch request of a process that was not running, so not a prewarmed one.
    public static let startsNewProcess = SignatureFacts(rawValue: 1 << 4)
}
