import PrewarmLintSpool
import PrewarmLintSessions
import PrewarmLintRules
import PrewarmLintModel
import PrewarmLintInsights
import PrewarmLintClassifier

/// Replaces user data in a report so it can be pasted in public (`--redact`): e-mail addresses,
/// bearer tokens and long secrets, UUIDs (container and item identifiers), and user names in home
/// paths. Bundle ids, process names, pids, times and the daemons' words are kept: the report must
/// still prove what it says.
///
/// An input's name (the path a line's location names) is redacted for e-mails, UUIDs and user names, not for long
/// secrets: a path's run of 32 letters, digits, `/` and `-` is a path, and a location reading `..<token>.log:7` points
/// nowhere (``redactInputName(_:)``).
public struct Redactor: Sendable {
    /// A redactor.
    public init() {}

    /// The report with every finding message, evidence line, diagnostic and path redacted.
    public func redact(_ report: LintReport) -> LintReport {
        var copy = report
        let redactor = self
        // Each input's name is redacted once: every line's origin names one of them (sixteen thousand sessions
        // name their few inputs a hundred thousand times).
        let inputNames = Dictionary(report.inputs.map { ($0.path, redactInputName($0.path)) }, uniquingKeysWith: { first, _ in first })
        @Sendable func redactInput(_ name: String) -> String { inputNames[name] ?? redactor.redactInputName(name) }
        copy.findings = report.findings.mapElements { finding in
            var redacted = finding
            redacted.message = redactor.redact(finding.message)
            redacted.evidence = finding.evidence.map { evidence in
                var line = evidence
                line.text = redactor.redact(evidence.text)
                line.origin.input = redactInput(evidence.origin.input)
                return line
            }
            return redacted
        }
        copy.diagnostics = report.diagnostics.map(redact)
        for index in copy.inputs.indices {
            copy.inputs[index].path = redactInputName(copy.inputs[index].path)
            // A device's reference (a crash report's incident, a boot's UUID, a sysdiagnose's name) identifies it.
            for device in copy.inputs[index].devices.indices {
                copy.inputs[index].devices[device].reference = copy.inputs[index].devices[device].reference.map(redact)
            }
        }
        copy.sessions = report.sessions.mapElements { session in
            var redacted = session
            redacted.milestones = session.milestones.map { milestone in
                var line = milestone
                line.evidence.input = redactInput(milestone.evidence.input)
                return line
            }
            if let decided = session.decidedBy { redacted.decidedBy?.input = redactInput(decided.input) }
            redacted.callbacksBeforeActivation = session.callbacksBeforeActivation.map {
                EventOrigin(input: redactInput($0.input), line: $0.line, byteOffset: $0.byteOffset)
            }
            redacted.events = []
            return redacted
        }
        // What the report says besides sessions: dasd's decisions, pasted lines, pre-main statistics, inputs read apart.
        for index in copy.prewarmDecisions.indices {
            copy.prewarmDecisions[index].text = redact(copy.prewarmDecisions[index].text)
            copy.prewarmDecisions[index].evidence.input = redactInput(copy.prewarmDecisions[index].evidence.input)
            copy.prewarmDecisions[index].app = copy.prewarmDecisions[index].app.map(redact)
        }
        for index in copy.fragments.indices {
            copy.fragments[index].fragment.text = redact(copy.fragments[index].fragment.text)
            copy.fragments[index].fragment.message = redact(copy.fragments[index].fragment.message)
            copy.fragments[index].fragment.origin.input = redactInput(copy.fragments[index].fragment.origin.input)
            copy.fragments[index].detail = copy.fragments[index].detail.map(redact)
        }
        for index in copy.preMainStatistics.indices {
            copy.preMainStatistics[index].statistics.origin.input = redactInput(copy.preMainStatistics[index].statistics.origin.input)
            if let launch = copy.preMainStatistics[index].statistics.launch {
                copy.preMainStatistics[index].statistics.launch?.evidence.input = redactInput(launch.evidence.input)
            }
        }
        for index in copy.separateInputs.indices {
            copy.separateInputs[index].input = redactInput(copy.separateInputs[index].input)
        }
        return copy
    }

    /// A reader's diagnostic with its message and input's name redacted.
    public func redact(_ diagnostic: ReaderDiagnostic) -> ReaderDiagnostic {
        var redacted = diagnostic
        redacted.message = redact(diagnostic.message)
        redacted.origin.input = redactInputName(diagnostic.origin.input)
        return redacted
    }

    /// One text, redacted.
    ///
    /// Each pattern's regular expression runs only where a scan of the bytes finds what a match of it must contain
    /// (`PossibleMatches`), and every later one once a replacement has changed the text: the same text as
    /// `redactEveryPattern(_:)`, which runs all six on every text. (Swift's `Regex` is slow per byte: run on every evidence
    /// line and path, it was most of a `--redact` lint.)
    public func redact(_ text: String) -> String { redact(text, leavingOut: []) }

    /// An input's name, redacted as a text is but for long secrets: the user names in its home folder, e-mails and UUIDs
    /// go; the rest stays, so that a location still names its file (`sysdiagnose_…_iPhone-OS_iPhone_21E236/logs.txt`,
    /// `03-salesforce3437-securityd-25308-keychain-locked.log`).
    public func redactInputName(_ name: String) -> String { redact(name, leavingOut: .longSecret) }

    private func redact(_ text: String, leavingOut left: PossibleMatches) -> String {
        let possible = PossibleMatches(text).subtracting(left)
        guard !possible.isEmpty else { return text }
        var out = text
        var changed = false
        for pattern in Self.patterns where !left.contains(pattern.possible) && (changed || possible.contains(pattern.possible)) {
            let before = out
            pattern.apply(&out)
            if !changed, out != before { changed = true }
        }
        return out
    }

    /// One text with every pattern run on it, in order (but those `left` out): what ``redact(_:)`` must equal, and with
    /// long secrets left out what ``redactInputName(_:)`` must (the tests compare them).
    func redactEveryPattern(_ text: String, leavingOut left: PossibleMatches = []) -> String {
        var out = text
        for pattern in Self.patterns where !left.contains(pattern.possible) { pattern.apply(&out) }
        return out
    }

    /// The patterns in the order they run, each with what its matches must contain.
    private static let patterns: [(possible: PossibleMatches, apply: @Sendable (inout String) -> Void)] = [
        (.email, { $0.replace(email, with: "<email>") }),
        (.bearer, { $0.replace(bearer) { match in "\(match.output.1)<token>" } }),
        (.keyedSecret, { $0.replace(keyedSecret) { match in "\(match.output.1)<token>" } }),
        (.uuid, { $0.replace(uuid, with: "<uuid>") }),
        (.home, { $0.replace(home) { match in "\(match.output.1)<user>" } }),
        (.longSecret, { text in
            text.replace(longSecret) { match in
                let value = match.output
                let hasDigit = value.contains { $0.isNumber }, hasLetter = value.contains { $0.isLetter }
                return hasDigit && hasLetter ? "<token>" : String(value)
            }
        }),
    ]

    /// Which patterns a text may match, from one pass over its bytes: for each, something every match contains. A
    /// pattern left out cannot match; one put in may not (its regular expression decides).
    struct PossibleMatches: OptionSet {
        let rawValue: UInt8
        /// An `@`.
        static let email = PossibleMatches(rawValue: 1 << 0)
        /// `bearer` in any case (any text with a byte past ASCII: Unicode case folding is the regular expression's).
        static let bearer = PossibleMatches(rawValue: 1 << 1)
        /// One of the secret's keys (`token`, `password`, `passwd`, `secret`, `api_key`, `apikey`, `session_id`,
        /// `sessionid`) in any case, then `=` or `:`; past ASCII, as for `bearer`.
        static let keyedSecret = PossibleMatches(rawValue: 1 << 2)
        /// Eight hex digits, a hyphen, four, a hyphen, four, a hyphen, four, a hyphen, twelve.
        static let uuid = PossibleMatches(rawValue: 1 << 3)
        /// `/Users/` or `/home/`.
        static let home = PossibleMatches(rawValue: 1 << 4)
        /// 32 bytes in a row of `A-Za-z0-9+/_-`.
        static let longSecret = PossibleMatches(rawValue: 1 << 5)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(_ text: String) {
            var found: PossibleMatches = []
            var copy = text
            copy.withUTF8 { bytes in
                var run = 0
                var pastASCII = false
                var hasSeparator = false
                for (index, byte) in bytes.enumerated() {
                    if byte >= 0x80 { pastASCII = true }
                    if byte == UInt8(ascii: "@") { found.insert(.email) }
                    if byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":") { hasSeparator = true }
                    if Self.isSecretByte(byte) {
                        run += 1
                        if run >= 32 { found.insert(.longSecret) }
                    } else {
                        run = 0
                    }
                    if byte == UInt8(ascii: "-"), index >= 8, Self.isUUID(bytes, hyphenAt: index) { found.insert(.uuid) }
                    if byte == UInt8(ascii: "/"), Self.starts(bytes, at: index, with: "/Users/") || Self.starts(bytes, at: index, with: "/home/") {
                        found.insert(.home)
                    }
                }
                if pastASCII || Self.contains(bytes, anyCaseOf: ["bearer"]) { found.insert(.bearer) }
                if pastASCII || hasSeparator && Self.contains(bytes, anyCaseOf: ["token", "password", "passwd", "secret", "api_key",
                                                                                  "apikey", "session_id", "sessionid"]) {
                    found.insert(.keyedSecret)
                }
            }
            self = found
        }

        @inline(__always) private static func isSecretByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }

        @inline(__always) private static func isHex(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
            default: false
            }
        }

        /// Whether a UUID's shape has its first hyphen at `hyphen`.
        private static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>, hyphenAt hyphen: Int) -> Bool {
            let start = hyphen - 8
            guard start >= 0, start + 36 <= bytes.count else { return false }
            for offset in 0..<36 {
                let byte = bytes[start + offset]
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard byte == UInt8(ascii: "-") else { return false }
                } else {
                    guard isHex(byte) else { return false }
                }
            }
            return true
        }

        private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, with literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
            return true
        }

        /// An ASCII capital as its small letter; any other byte as it is.
        @inline(__always) private static func lowercased(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }

        /// Whether any of the (lowercase ASCII) words is in the bytes, in any ASCII case.
        private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, anyCaseOf words: [StaticString]) -> Bool {
            for word in words {
                let count = word.utf8CodeUnitCount
                guard count <= bytes.count else { continue }
                var index = 0
                search: while index + count <= bytes.count {
                    for offset in 0..<count where lowercased(bytes[index + offset]) != word.utf8Start[offset] {
                        index += 1
                        continue search
                    }
                    return true
                }
            }
            return false
        }
    }

    nonisolated(unsafe) static let email = #/[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}/#
    nonisolated(unsafe) static let bearer = #/(?i)(bearer\s+)[A-Za-z0-9._~+/=\-]+/#
    nonisolated(unsafe) static let keyedSecret = #/(?i)((?:access_?token|refresh_?token|token|password|passwd|secret|api_?key|session_?id)["']?\s*[=:]\s*["']?)[^\s"',;&}]+/#
    nonisolated(unsafe) static let uuid = #/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/#
    nonisolated(unsafe) static let home = #/(/(?:Users|home)/)[^/\s]+/#
    /// 32+ characters of a base64 or hex alphabet with letters and digits: an API key, a JWT part.
    nonisolated(unsafe) static let longSecret = #/[A-Za-z0-9+/_\-]{32,}={0,2}/#
}
