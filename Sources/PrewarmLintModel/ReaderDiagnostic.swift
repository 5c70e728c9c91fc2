/// A problem in the input that did not stop reading: a malformed line, invalid UTF-8, a truncated record.
///
/// Bad input is data: every line a reader cannot turn into an event is either part of a
/// diagnostic like this one or counted as a known non-event line (a header, a preamble) in the
/// input's summary. Nothing is dropped silently.
public struct ReaderDiagnostic: Sendable, Hashable {
    /// How serious the problem is for the analysis.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// Informational: something was assumed (a year, a time zone) or skipped on purpose.
        case note
        /// Part of the input could not be used; the result may be incomplete.
        case warning
        /// The input as a whole could not be used.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders `note < warning < error`.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A stable, kebab-case identifier of the kind of problem, for filtering and for reports.
    public var code: DiagnosticCode
    /// How serious it is.
    public var severity: Severity
    /// What went wrong, in one lowercase line without a trailing period.
    public var message: String
    /// Where: the input and the first line concerned.
    public var origin: EventOrigin
    /// How many input lines this diagnostic accounts for (0 when it concerns no line, such as an assumption).
    public var lineCount: Int

    /// Creates a diagnostic.
    public init(code: DiagnosticCode, severity: Severity, message: String, origin: EventOrigin, lineCount: Int = 1) {
        self.code = code
        self.severity = severity
        self.message = message
        self.origin = origin
        self.lineCount = lineCount
    }
}

extension ReaderDiagnostic: CustomStringConvertible {
    /// `path:line: severity: message [code]`, the way compilers print diagnostics; `path: severity: …` for what is
    /// about the input as a whole (line 0: a limit of the run, a budget), which no line of it shows. Always one line
    /// (``DisplayText/singleLine(_:)``): what a message quotes of an input cannot start a line of its own.
    public var description: String {
        let place = origin.line > 0 ? "\(origin.input):\(origin.line)" : origin.input
        return DisplayText.singleLine("\(place): \(severity.rawValue): \(message) [\(code.rawValue)]")
    }
}

/// The kind of a ``ReaderDiagnostic``: a stable identifier that reports and filters use.
///
/// A struct rather than an enum so that adding a code is not a breaking change.
public struct DiagnosticCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code as reports spell it (`orphan-lines`).
    public var rawValue: String
    /// A code of this spelling.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code as reports spell it.
    public var description: String { rawValue }

    /// A line that has the shape of no record of the input's format and cannot continue one.
    public static let malformedLine = DiagnosticCode(rawValue: "malformed-line")
    /// A line stamped well before the lines before it (a clock set back, two captures joined): read in the input's order.
    public static let clockStep = DiagnosticCode(rawValue: "clock-step")
    /// A pasted document's log blocks that repeat an earlier block line for line: read once.
    public static let repeatedRegion = DiagnosticCode(rawValue: "repeated-region")
    /// Carriage returns without a line feed (classic Mac OS line ends, mixed ends, a stray one) read as line ends.
    public static let lineEndings = DiagnosticCode(rawValue: "line-endings")
    /// Continuation lines before the first record (the input starts mid-record, or has a pasted preamble).
    public static let orphanLines = DiagnosticCode(rawValue: "orphan-lines")
    /// Bytes that are not valid UTF-8; they were replaced with U+FFFD.
    public static let invalidUTF8 = DiagnosticCode(rawValue: "invalid-utf8")
    /// A line longer than the reader's limit; the rest of it was skipped.
    public static let lineTooLong = DiagnosticCode(rawValue: "line-too-long")
    /// A multi-line message longer than the reader's limit; later lines were not kept.
    public static let messageTooLong = DiagnosticCode(rawValue: "message-too-long")
    /// A JSON record that is not valid JSON or misses required keys.
    public static let invalidRecord = DiagnosticCode(rawValue: "invalid-record")
    /// The input ended inside a record.
    public static let truncatedInput = DiagnosticCode(rawValue: "truncated-input")
    /// A timestamp that could not be read; the record was skipped.
    public static let invalidTimestamp = DiagnosticCode(rawValue: "invalid-timestamp")
    /// Part of a timestamp (year, date, UTC offset) was missing and was inferred.
    public static let inferredTime = DiagnosticCode(rawValue: "inferred-time")
    /// The input is not in any format prewarm-lint reads.
    public static let unrecognizedFormat = DiagnosticCode(rawValue: "unrecognized-format")
    /// Launch-relevant lines whose app is redacted (`<private>`): they cannot be joined to a session.
    public static let redactedEvidence = DiagnosticCode(rawValue: "redacted-evidence")
    /// Hazard evidence (a keychain, data-protection or watchdog line) that names no process it could be
    /// tied to (securityd's `s3dl_query_row: … (-25308)`): counted, and in no finding.
    public static let unattributedEvidence = DiagnosticCode(rawValue: "unattributed-evidence")
    /// Hazard evidence tied to a session that no finding reports (its rule is off, the app is left out, or the
    /// rule does not report on such a session): counted by reason, with the first line.
    public static let hazardNotReported = DiagnosticCode(rawValue: "hazard-not-reported")
    /// Zero bytes after the last gzip member (padding `gzip -t` accepts): passed over.
    public static let gzipPadding = DiagnosticCode(rawValue: "gzip-padding")
    /// Inputs linted together held two live processes of one app at once: they were read separately.
    public static let separateCaptures = DiagnosticCode(rawValue: "separate-captures")
    /// Lines without a pid whose process name the log pairs with two different apps: not joined to either.
    public static let ambiguousProcessName = DiagnosticCode(rawValue: "ambiguous-process-name")
    /// The input could not be opened or read.
    public static let unreadableInput = DiagnosticCode(rawValue: "unreadable-input")
    /// XML that is not well-formed: the parse stops there, with libxml2's message, line and column.
    public static let malformedXML = DiagnosticCode(rawValue: "malformed-xml")
    /// An XML document refused for safety: it declares entities (billion laughs, external entities)
    /// or nests deeper than the limit. Nothing is expanded or fetched.
    public static let refusedInput = DiagnosticCode(rawValue: "refused-input")
    /// A limit on sessions was reached (too many open at once, too many to list); what it cost is said.
    public static let sessionLimit = DiagnosticCode(rawValue: "session-limit")
    /// A limit on what the classifier remembers was reached (pids known as apps); what it cost is said.
    public static let stateLimit = DiagnosticCode(rawValue: "state-limit")
    /// A report of a kind not read (an `.ips` of `bug_type` 409, 238, a hang, a panic): named, passed over.
    public static let unreadReport = DiagnosticCode(rawValue: "unread-report")
    /// What an archive (a sysdiagnose) held and what of it was read.
    public static let archiveContents = DiagnosticCode(rawValue: "archive-contents")
    /// Columns read by their shape because the paste lost what separated them (a Console copy's tabs turned into spaces):
    /// what may have been guessed wrong is said.
    public static let guessedColumns = DiagnosticCode(rawValue: "guessed-columns")
    /// A block of a pasted document whose lines a tool printing device logs prefixed (flutter's `[DEVICE LOG]`): the
    /// prefix taken off, the tool's own lines counted as prose (a note, once per block).
    public static let toolPrefix = DiagnosticCode(rawValue: "tool-prefix")
    /// A block of a pasted document (fenced, quoted, indented, `<pre>`) that no reader takes: named with its lines.
    public static let unreadRegion = DiagnosticCode(rawValue: "unread-region")
    /// Unified-log entries whose format string the exporter could not find (their message a placeholder), counted by
    /// process: what they said cannot be read.
    public static let unresolvedFormatString = DiagnosticCode(rawValue: "unresolved-format-string")
    /// The exporter of a unified log archive is older than the first version that reads the newest archives, or did
    /// not say its version.
    public static let exporterVersion = DiagnosticCode(rawValue: "exporter-version")
    /// Lines that look like a kill or a termination of an app that no signature reads (a new wording): counted, the
    /// first quoted.
    public static let unreadKillLine = DiagnosticCode(rawValue: "unread-kill-line")
    /// Lines before `--since` or after `--until`, left out (counted).
    public static let outsideTimeWindow = DiagnosticCode(rawValue: "outside-time-window")
}
