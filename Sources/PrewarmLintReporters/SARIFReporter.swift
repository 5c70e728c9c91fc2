import PrewarmLintSessions
public import PrewarmLintRules
import PrewarmLintModel

/// SARIF 2.1.0 (OASIS), for code-scanning dashboards: the rules run, one result per finding at its
/// decisive line with the other evidence as related locations, reader diagnostics as tool
/// notifications. Validated against the OASIS schema in the tests.
public struct SARIFReporter: Sendable {
    /// The rules of the run, listed in the SARIF driver.
    public var rules: [RuleDescription]
    /// Where each rule's page is: `{id}` in it is replaced by the rule's id (`https://example.com/docs/rules/{id}.md`);
    /// each rule's `helpUri`. Nil: none is written (the rule's help travels as `help.markdown` either way).
    public var ruleDocumentationURL: String?
    /// The checkout the inputs' paths are made relative to (`%SRCROOT%`, written in `originalUriBaseIds`), an
    /// absolute path; `workingDirectory` is where relative input paths start. Nil: relative paths are taken as
    /// relative to the checkout already, and no `originalUriBaseIds` is written (code scanning supplies it).
    public var sourceRoot: (root: String, workingDirectory: String)?

    /// A SARIF reporter listing `rules`.
    public init(rules: [RuleDescription], ruleDocumentationURL: String? = nil, sourceRoot: (root: String, workingDirectory: String)? = nil) {
        self.rules = rules
        self.ruleDocumentationURL = ruleDocumentationURL
        self.sourceRoot = sourceRoot
    }

    /// The report in this format.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The report as text, handed to `output` in pieces of about 64 KiB.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        render(report) { bytes in output(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The report's UTF-8, handed to `output` in pieces of about 64 KiB (each valid only during the call): a report
    /// of many findings is never whole in memory.
    public func render(_ report: LintReport, toUTF8 output: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONTextWriter()
        writer.beginObject()
        writer.field("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
        writer.field("version", "2.1.0")
        writer.key("runs")
        writer.beginArray()
        writer.beginObject()
        writer.key("tool")
        writer.beginObject()
        writer.key("driver")
        writer.beginObject()
        writer.field("name", "prewarm-lint")
        writer.field("semanticVersion", report.toolVersion)
        if let base = ruleDocumentationURL, let index = Self.documentationIndex(base) { writer.field("informationUri", index) }
        writer.key("rules")
        writer.beginArray()
        for rule in rules {
            writer.beginObject()
            writer.field("id", rule.id)
            writer.field("name", Self.pascalCase(rule.id))
            writer.key("shortDescription")
            text(rule.summary, to: &writer)
            writer.key("fullDescription")
            text(rule.rationale, to: &writer)
            if let base = ruleDocumentationURL {
                writer.field("helpUri", base.contains("{id}") ? base.replacing("{id}", with: rule.id) : base + rule.id)
            }
            writer.key("help")
            writer.beginObject()
            writer.field("text", rule.summary + "\n\n" + rule.rationale)
            writer.field("markdown", "# `\(rule.id)`: \(rule.name)\n\n" + RuleDocumentation().help(rule))
            writer.endObject()
            writer.key("defaultConfiguration")
            writer.beginObject()
            writer.field("level", Self.level(rule.defaultSeverity))
            writer.endObject()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endObject()
        if let sourceRoot {
            writer.key("originalUriBaseIds")
            writer.beginObject()
            writer.key("%SRCROOT%")
            writer.beginObject()
            writer.field("uri", "file://" + Self.uri(sourceRoot.root.hasSuffix("/") ? sourceRoot.root : sourceRoot.root + "/"))
            writer.endObject()
            writer.endObject()
        }
        // One code-scanning category for the tool's results (`--category` of upload-sarif, when not given).
        writer.key("automationDetails")
        writer.beginObject()
        writer.field("id", "prewarm-lint/")
        writer.endObject()
        writer.key("invocations")
        writer.beginArray()
        writer.beginObject()
        writer.key("executionSuccessful")
        writer.bool(report.inputs.allSatisfy { $0.error == nil } && !report.partial)
        writer.key("toolExecutionNotifications")
        writer.beginArray()
        // Why the run did not succeed comes first: each input that could not be read, with the reason; an interruption.
        for input in report.inputs {
            guard let error = input.error else { continue }
            notification("cannot read \(input.path): \(error)", level: "error", id: "unreadable-input",
                         at: EventOrigin(input: input.path, line: 1, byteOffset: 0), to: &writer)
        }
        if report.partial {
            notification("interrupted: the results cover what was read until then", level: "error", id: "interrupted", at: nil, to: &writer)
        }
        for diagnostic in report.diagnostics {
            notification(diagnostic.message, level: diagnostic.severity == .note ? "note" : (diagnostic.severity == .error ? "error" : "warning"),
                         id: diagnostic.code.rawValue, at: diagnostic.origin, to: &writer)
        }
        writer.endArray()
        // The configuration in effect, in the invocation's property bag: rules a file turned off are absent from `rules`.
        writer.key("properties")
        writer.beginObject()
        writer.key("configuration")
        report.writeConfiguration(to: &writer)
        writer.endObject()
        writer.endObject()
        writer.endArray()
        writer.key("results")
        writer.beginArray()
        let indexByID = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var fingerprints = Fingerprints()
        for finding in report.findings {
            writer.beginObject()
            writer.field("ruleId", finding.ruleID)
            if let index = indexByID[finding.ruleID] { writer.field("ruleIndex", index) }
            writer.field("level", Self.level(finding.severity))
            writer.key("message")
            text(finding.message, to: &writer)
            writer.key("locations")
            writer.beginArray()
            if let decisive = finding.evidence.first { location(decisive.origin, snippet: decisive.text, to: &writer) }
            writer.endArray()
            writer.key("relatedLocations")
            writer.beginArray()
            for (index, evidence) in finding.evidence.enumerated().dropFirst() {
                location(evidence.origin, snippet: evidence.text, message: evidence.label, id: index, to: &writer)
            }
            writer.endArray()
            writer.key("partialFingerprints")
            writer.beginObject()
            writer.field("prewarmLintFinding/v2", fingerprints.next(for: finding))
            writer.endObject()
            writer.key("properties")
            writer.beginObject()
            writer.field("session", finding.sessionID)
            writer.field("sessionKind", finding.sessionKind.rawValue)
            writer.field("app", finding.appName)
            if let missing = finding.missingEvidence { writer.field("missingEvidence", missing) }
            writer.endObject()
            writer.endObject()
            if writer.byteCount >= 1 << 16 { writer.takeBytes(output) }
        }
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        writer.appendLineBreak()
        writer.takeBytes(output)
    }

    /// One `toolExecutionNotification`: a message, its level, the descriptor's id, where.
    private func notification(_ message: String, level: String, id: String, at origin: EventOrigin?, to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.key("message")
        text(message, to: &writer)
        writer.field("level", level)
        writer.key("descriptor")
        writer.beginObject()
        writer.field("id", id)
        writer.endObject()
        if let origin {
            writer.key("locations")
            writer.beginArray()
            location(origin, snippet: nil, to: &writer)
            writer.endArray()
        }
        writer.endObject()
    }

    private func text(_ value: String, to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.field("text", value)
        writer.endObject()
    }

    private func location(_ origin: EventOrigin, snippet: String?, message: String? = nil, id: Int? = nil, to writer: inout JSONTextWriter) {
        writer.beginObject()
        if let id { writer.field("id", id) }
        writer.key("physicalLocation")
        writer.beginObject()
        writer.key("artifactLocation")
        writer.beginObject()
        // A path inside the checkout relative to it (`%SRCROOT%`), as code scanning resolves it; any other as a
        // `file://` URI.
        switch Self.place(origin.input, sourceRoot: sourceRoot) {
        case .inCheckout(let relative):
            writer.field("uri", Self.uri(relative))
            writer.field("uriBaseId", "%SRCROOT%")
        case .absolute(let path):
            writer.field("uri", "file://" + Self.uri(path))
        }
        writer.endObject()
        writer.key("region")
        writer.beginObject()
        writer.field("startLine", max(1, origin.line))
        if let snippet {
            writer.key("snippet")
            text(snippet, to: &writer)
        }
        writer.endObject()
        writer.endObject()
        if let message {
            writer.key("message")
            text(message, to: &writer)
        }
        writer.endObject()
    }

    enum Place: Equatable { case inCheckout(String), absolute(String) }

    /// Where an input's path points: inside the checkout (relative to it), or elsewhere (absolute). Without a
    /// source root, a relative path is taken as the checkout's and an absolute one as elsewhere.
    static func place(_ path: String, sourceRoot: (root: String, workingDirectory: String)?) -> Place {
        guard let sourceRoot else { return path.hasPrefix("/") ? .absolute(path) : .inCheckout(path) }
        let absolute = normalized(path.hasPrefix("/") ? path : sourceRoot.workingDirectory + "/" + path)
        let root = normalized(sourceRoot.root)
        if absolute.hasPrefix(root == "/" ? "/" : root + "/") { return .inCheckout(String(absolute.dropFirst(root == "/" ? 1 : root.count + 1))) }
        return .absolute(absolute)
    }

    /// `/a/./b/../c/` → `/a/c` (the text alone: links are not followed).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The rules' index from the page pattern: `…/docs/rules/{id}.md` → `…/docs/rules/`.
    static func documentationIndex(_ pattern: String) -> String? {
        guard let slash = pattern.lastIndex(of: "/") else { return nil }
        return String(pattern[...slash])
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// `keychain-while-locked` → `KeychainWhileLocked`.
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A path as a URI reference: unreserved characters and `/` kept, the rest percent-encoded.
    static func uri(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return out
    }

    /// One fingerprint per finding, distinct within the run and stable across runs of the same logs: the finding's
    /// baseline key (rule, app, message with numbers as `#`) and its decisive line's text with numbers as `#` (so
    /// times, pids and addresses do not change it), and — for findings still alike — their order among those alike.
    /// (The baseline key alone gave 24 distinct findings of one report one fingerprint: code scanning merges such
    /// results into one alert.) Given in report order, one at a time, so a spooled report's findings are never
    /// collected for it.
    ///
    /// The occurrences are counted by a 64-bit hash of the key (FNV-1a), not the key itself: sixteen bytes a distinct
    /// finding, not its text.
    struct Fingerprints {
        private var seen: [UInt64: Int] = [:]

        mutating func next(for finding: Finding) -> String {
            let decisive = finding.evidence.first.map { SARIFReporter.numbersHidden("\($0.origin.input)|\($0.text)") } ?? ""
            let key = finding.baselineKey + "|" + decisive
            let hash = SARIFReporter.fnv1a(key)
            let occurrence = seen[hash, default: 0]
            seen[hash] = occurrence + 1
            return SARIFReporter.fingerprint(occurrence == 0 ? key : key + "|#\(occurrence)")
        }
    }

    /// Text with each run of digits (and hex digits after `0x`) as `#`.
    static func numbersHidden(_ text: String) -> String {
        var out = ""
        var inNumber = false
        for scalar in text.unicodeScalars {
            let isDigit = ("0"..."9").contains(scalar) || (inNumber && (("a"..."f").contains(scalar) || ("A"..."F").contains(scalar) || scalar == "x"))
            if isDigit {
                if !inNumber { out.append("#") }
                inNumber = true
            } else {
                inNumber = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// FNV-1a, 64 bits, of the text's UTF-8.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// FNV-1a, 64 bits, as hex: stable across runs and platforms (Swift's `Hasher` is seeded per process).
    static func fingerprint(_ text: String) -> String {
        let digits = String(fnv1a(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
