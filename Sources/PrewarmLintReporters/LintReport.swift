import PrewarmLintClassifier
import Synchronization
public import PrewarmLintModel
public import PrewarmLintSessions
public import PrewarmLintRules
public import PrewarmLintInsights
public import PrewarmLintSpool

/// What a run found: inputs, sessions, findings, diagnostics. Every reporter renders this value;
/// ``render()`` gives the JSON report, schema version 1: what other tools parse. Documented in
/// `docs/report-schema.md`.
///
/// ```
/// {"schemaVersion": 1, "tool": {"name", "version"}, "configuration": {"source", "path"},
///  "inputs": [{"path", "format", "events", "diagnostics", "eventsUnworded"?, "devices"?}],
///  "sessions": [{"id", "bundleID", "process", "pid", "kind", "confidence", "start", "end",
///                "milestones": [{"name", "time", "evidence": {"path", "line"}}],
///                "durations": {"<name>Ms": int, …}, "evidenceIncomplete", …}],
///  "findings": [{"rule", "severity", "message", "session", "app", "location": {"path", "line"},
///                "evidence": [{"path", "line", "time", "label", "text"}], "missingEvidence"}],
///  "diagnostics": [{"path", "line", "code", "message"}]}
/// ```
/// Keys are written in a fixed order and every array in a deterministic one, so the same inputs
/// give the same bytes. Adding keys is compatible; renaming or removing one is breaking.
public struct LintReport: Sendable {
    /// The version of the JSON report (`docs/report-schema.md`).
    public static let schemaVersion = 1

    /// One input's line in the report.
    public struct Input: Sendable {
        /// The input as the user named it.
        public var path: String
        /// The format id it was read as; nil when it was not read.
        public var format: String?
        /// Events read from it.
        public var events: Int
        /// Diagnostics it produced.
        public var diagnostics: Int
        /// Set when the input could not be read.
        public var error: String?
        /// Events read whose wording the input lacks (`DecoderStatistics.eventsUnworded`): what they said, launches
        /// and hazards among it, could not be read.
        public var eventsUnworded = 0
        /// The devices and systems the input says it came from (`DeviceIdentity`), in a stable order.
        public var devices: [DeviceIdentity] = []

        /// The ``error`` of an input the run was interrupted before it read any of it (Ctrl-C before its turn): not a
        /// failure of the input, counted apart.
        public static let interruptedBeforeReading = "interrupted before any of it was read (a FIFO whose writer never came, or the run stopped before its turn)"

        /// Whether the run was interrupted before it read any of this input.
        public var isInterruptedBeforeReading: Bool { error == Self.interruptedBeforeReading }

        /// An input's line.
        public init(path: String, format: String?, events: Int, diagnostics: Int, error: String? = nil) {
            self.path = path
            self.format = format
            self.events = events
            self.diagnostics = diagnostics
            self.error = error
        }
    }

    /// The version of the tool that made the report.
    public var toolVersion: String
    /// Every input, in the order read.
    public var inputs: [Input]
    /// The sessions, in time order (their lines dropped: outlines); in a temporary file when there are many.
    public var sessions: ReportList<LaunchSession>
    /// One per session: ``sessionIDs(_:)`` of all the run's sessions (kept when sessions are filtered).
    public var sessionIDs: ReportList<String>
    /// When several inputs were read separately (`--separately`): the input each run of listed sessions came from, in
    /// listing order (one input's sessions are listed together). Empty when the inputs were read as one device's logs,
    /// or there was one.
    /// Every report that lists sessions names each one's input beside it.
    public var separateInputs: [SessionGroup] = []
    /// The findings, by session and time.
    public var findings: ReportList<Finding>
    /// Every diagnostic of the run.
    public var diagnostics: [ReaderDiagnostic]
    /// Findings a baseline suppressed (counted, not listed).
    public var baselineSuppressed: Int
    /// Sessions the run built and checked (their findings are in ``findings``) beyond those listed in ``sessions``: a
    /// run lists at most `LintRun.maximumSessionsListed`. The summary counts them, by kind, so that a long log's
    /// session count is not the listing's.
    public var notListed = UnlistedSessions()
    /// How many sessions were checked and not listed (``notListed``'s count).
    public var sessionsNotListed: Int { notListed.count }
    /// Set when the run was interrupted: the report covers what was read until then.
    public var partial: Bool
    /// The configuration file in effect, as the run named it; nil: the built-in defaults. Every report that a reader may
    /// take for the tool's whole verdict names it (JSON, SARIF, HTML, Markdown, the text summary): a file can turn rules
    /// off or narrow the apps, so "no findings" means little without it.
    public var configuration: String?
    /// ``configuration`` as reports say it: the file's path, or `defaults`.
    public var configurationName: String { configuration ?? "defaults" }
    /// Why apps were or were not prewarmed, as dasd's lines state it.
    public var prewarmDecisions: [PrewarmDecision]
    /// dyld's launch statistics read from the inputs' text, in input order, each with the session a line joins it to.
    public var preMainStatistics: [PreMainReading] = []
    /// Statistics blocks read beyond those an input keeps (`UntimedEvidence.maximumKept`), counted.
    public var preMainStatisticsNotKept = 0
    /// Lines read alone that match a known signature (`FragmentReading`), in input order.
    public var fragments: [FragmentReading] = []
    /// Fragments read beyond those an input keeps (`UntimedEvidence.maximumKept`), counted, matching or not.
    public var fragmentsNotKept = 0
    /// How many threads may write the JSON report's sessions and findings (1: the calling thread
    /// only). The text is the same whatever the number; more only makes a large report faster, which
    /// matters when many inputs were read in parallel and the report is what remains.
    public var renderingJobs = 1
    /// Events dropped because another input of the same device held the same one (not in the JSON report: a count of
    /// the run, for its summary line).
    public var duplicateEvents = 0
    /// Starts the threads that render (the calling thread renders alone when the system refuses them).
    package var threads = ThreadStarter()

    /// A report; ``sessionIDs`` are computed from the sessions when not given.
    public init(toolVersion: String, inputs: [Input], sessions: [LaunchSession], sessionIDs: [String]? = nil, findings: [Finding] = [],
                diagnostics: [ReaderDiagnostic], baselineSuppressed: Int = 0, partial: Bool = false,
                prewarmDecisions: [PrewarmDecision] = []) {
        self.init(toolVersion: toolVersion, inputs: inputs, sessions: ReportList(sessions),
                  sessionIDs: ReportList(sessionIDs ?? Self.sessionIDs(sessions)), findings: ReportList(findings), diagnostics: diagnostics,
                  baselineSuppressed: baselineSuppressed, partial: partial, prewarmDecisions: prewarmDecisions)
    }

    /// A piece of a live run's answer for a renderer to print: findings given early, a session as it closes with its
    /// findings, or (`partial`) the end marker of a stopped run. Not a run's answer, which `ReportAssembly` builds for
    /// every way in (the command line, `--follow`, `LogAnalyzer`).
    public static func excerpt(findings: [Finding], session: (session: LaunchSession, id: String)? = nil, partial: Bool = false,
                               toolVersion: String) -> LintReport {
        LintReport(toolVersion: toolVersion, inputs: [], sessions: session.map { [$0.session] } ?? [],
                   sessionIDs: session.map { [$0.id] } ?? [], findings: findings, diagnostics: [], partial: partial)
    }

    /// A report of these lists (a run's, spooled to a temporary file when it had many sessions): one id per session.
    public init(toolVersion: String, inputs: [Input], sessions: ReportList<LaunchSession>, sessionIDs: ReportList<String>,
                findings: ReportList<Finding>, diagnostics: [ReaderDiagnostic], baselineSuppressed: Int = 0, partial: Bool = false,
                prewarmDecisions: [PrewarmDecision] = []) {
        precondition(sessions.count == sessionIDs.count, "one id per session")
        self.toolVersion = toolVersion
        self.inputs = inputs
        self.sessions = sessions
        self.sessionIDs = sessionIDs
        self.findings = findings
        self.diagnostics = diagnostics
        self.baselineSuppressed = baselineSuppressed
        self.partial = partial
        self.prewarmDecisions = prewarmDecisions
    }

    /// `{"source": "defaults"}` or `{"source": "file", "path": …}`: the configuration in effect (JSON and SARIF).
    public func writeConfiguration(to writer: inout JSONTextWriter) {
        writer.beginObject()
        if let configuration {
            writer.field("source", "file")
            writer.field("path", configuration)
        } else {
            writer.field("source", "defaults")
        }
        writer.endObject()
    }

    /// Findings per severity, highest first, for summaries.
    public var findingCounts: [(severity: Severity, count: Int)] {
        var counts: [Severity: Int] = [:]
        for finding in findings { counts[finding.severity, default: 0] += 1 }
        return [Severity.error, .warning, .info].map { severity in (severity, counts[severity] ?? 0) }
    }

    /// A run of listed sessions that came from one input (``separateInputs``).
    public struct SessionGroup: Sendable, Hashable {
        /// The input, as the run named it.
        public var input: String
        /// The indices of its sessions in ``LintReport/sessions``.
        public var sessions: Range<Int>

        /// The sessions at `sessions` came from `input`.
        public init(input: String, sessions: Range<Int>) {
            self.input = input
            self.sessions = sessions
        }

        /// The input of `groups` (in listing order) that the session at `index` came from; nil when none holds it.
        public static func input(ofSessionAt index: Int, in groups: [SessionGroup]) -> String? {
            // The first group whose end is past `index`.
            var low = 0, high = groups.count
            while low < high {
                let middle = (low + high) / 2
                if groups[middle].sessions.upperBound <= index { low = middle + 1 } else { high = middle }
            }
            return low < groups.count && groups[low].sessions.contains(index) ? groups[low].input : nil
        }

        /// `groups` for the sessions at `positions` (increasing) of theirs, numbered anew from 0.
        public static func selecting(_ positions: [Int], from groups: [SessionGroup]) -> [SessionGroup] {
            var selected: [SessionGroup] = []
            var next = 0
            for group in groups {
                let start = next
                while next < positions.count, group.sessions.contains(positions[next]) { next += 1 }
                if next > start { selected.append(SessionGroup(input: group.input, sessions: start..<next)) }
            }
            return selected
        }
    }

    /// Narrows the listed sessions to those at `positions` (ascending): their ids, the groups they were read in, and
    /// dyld's statistics joined to them (a reading joined to a session left out goes with it). The findings stay.
    public mutating func select(sessionsAt positions: [Int]) {
        let wanted = Set(positions)
        var kept: Set<String> = []
        for (index, id) in sessionIDs.enumerated() where wanted.contains(index) { kept.insert(id) }
        sessions = sessions.selecting(positions)
        sessionIDs = sessionIDs.selecting(positions)
        separateInputs = SessionGroup.selecting(positions, from: separateInputs)
        preMainStatistics = preMainStatistics.filter { $0.session.map(kept.contains) ?? true }
    }

    /// The input the listed session at `index` came from, when the inputs were read separately (``separateInputs``);
    /// nil otherwise.
    public func input(ofSessionAt index: Int) -> String? {
        SessionGroup.input(ofSessionAt: index, in: separateInputs)
    }

    /// The session with this id: a search of ``sessionIDs`` from the first. For the sessions of many ids (each
    /// finding's, say), walk ``sessionIDs`` and ``sessions`` in order instead: findings come in the listing's order,
    /// and on a report spooled to pages each search from the first reads the ids' pages again.
    public func session(id: String) -> LaunchSession? {
        sessionIDs.firstIndex(of: id).map { sessions[$0] }
    }

    /// Stable session ids: the app, then the session's number for that app in time order (`com.example.ledger#2`).
    public static func sessionIDs(_ sessions: [LaunchSession]) -> [String] { SessionListing.ids(sessions) }

    /// The durations a session reports, in milliseconds, by key.
    public static func durations(of session: LaunchSession) -> [(key: String, milliseconds: Int64)] {
        durationPairs.compactMap { key, from, to in session.milliseconds(from: from, to: to).map { (key.description, $0) } }
    }

    /// Each duration's key and the milestones it is measured between, in the order the report lists them (made once,
    /// not for each session written).
    static let durationPairs: [(key: StaticString, from: LaunchSession.Milestone.Name, to: LaunchSession.Milestone.Name)] = [
        ("prewarmToActivationMs", .prewarmRequest, .activation),
        ("launchRequestToActivationMs", .launchRequest, .activation),
        ("activationToActiveMs", .activation, .active),
        ("processStartToActiveMs", .processStart, .active),
        ("processStartToActivationMs", .processStart, .activation),
    ]

    /// `{"path": …, "line": …}`.
    public static func writeOrigin(_ origin: EventOrigin, to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.field("path", origin.input)
        writer.field("line", origin.line)
        writer.endObject()
    }

    /// The report as one line of JSON and a line break.
    public func render() -> String {
        var text = ""
        render { text += $0 }
        return text
    }

    /// The report as one line of JSON and a line break, handed to `output` in pieces of about 64 KiB
    /// (a session or a finding is never split), so a report of many sessions is never whole in memory.
    public func render(to output: (String) -> Void) {
        render(toUTF8: { output(String(decoding: $0, as: UTF8.self)) })
    }

    /// ``render(to:)`` as its UTF-8 bytes, valid only during each call: no `String` is made of the pieces (each
    /// made one was a check of every byte, and a report of many sessions is most of what a launch-dense lint
    /// writes).
    public func render(toUTF8 output: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONTextWriter()
        writer.beginObject()
        writer.field("schemaVersion", Self.schemaVersion)
        writer.key("tool")
        writer.beginObject()
        writer.field("name", "prewarm-lint")
        writer.field("version", toolVersion)
        writer.endObject()
        writer.key("configuration")
        writeConfiguration(to: &writer)
        writer.key("inputs")
        writer.beginArray()
        for input in inputs {
            writer.beginObject()
            writer.field("path", input.path)
            writer.field("format", input.format)
            writer.field("events", input.events)
            writer.field("diagnostics", input.diagnostics)
            if input.eventsUnworded > 0 { writer.field("eventsUnworded", input.eventsUnworded) }
            if !input.devices.isEmpty {
                writer.key("devices")
                writer.beginArray()
                for device in input.devices {
                    writer.beginObject()
                    writer.field("source", device.source.rawValue)
                    if let system = device.system { writer.field("system", system) }
                    if let version = device.version { writer.field("version", version) }
                    if let build = device.build { writer.field("build", build) }
                    if let model = device.model { writer.field("model", model) }
                    if let reference = device.reference { writer.field("reference", reference) }
                    writer.endObject()
                }
                writer.endArray()
            }
            if let error = input.error { writer.field("error", error) }
            writer.endObject()
        }
        writer.endArray()
        writer.key("sessions")
        writer.beginArray()
        let sessions = self.sessions, sessionIDs = self.sessionIDs, groups = separateInputs
        writeElements(count: sessions.count, to: &writer, output: output) { index, writer in
            Self.write(sessions[index], id: sessionIDs[index], input: SessionGroup.input(ofSessionAt: index, in: groups), to: &writer)
        }
        writer.endArray()
        writer.key("findings")
        writer.beginArray()
        let findings = self.findings
        writeElements(count: findings.count, to: &writer, output: output) { index, writer in
            Self.write(findings[index], to: &writer)
        }
        writer.endArray()
        if !prewarmDecisions.isEmpty {
            writer.key("prewarmDecisions")
            writer.beginArray()
            let decisions = prewarmDecisions
            writeElements(count: decisions.count, to: &writer, output: output) { index, writer in
                Self.write(decisions[index], to: &writer)
            }
            writer.endArray()
        }
        if !preMainStatistics.isEmpty {
            writer.key("preMainStatistics")
            writer.beginArray()
            for reading in preMainStatistics { PreMainReading.write(reading, to: &writer) }
            writer.endArray()
        }
        if preMainStatisticsNotKept > 0 { writer.field("preMainStatisticsNotKept", preMainStatisticsNotKept) }
        if !fragments.isEmpty {
            writer.key("fragments")
            writer.beginArray()
            for reading in fragments { FragmentReading.write(reading, to: &writer) }
            writer.endArray()
        }
        if fragmentsNotKept > 0 { writer.field("fragmentsNotKept", fragmentsNotKept) }
        if sessionsNotListed > 0 {
            writer.field("sessionsNotListed", sessionsNotListed)
            writer.key("sessionsNotListedByKind")
            writer.beginObject()
            for kind in LaunchSession.Kind.allCases {
                if let count = notListed.byKind[kind] { writer.field(kind.rawValue, count) }
            }
            writer.endObject()
            if notListed.evidenceIncomplete > 0 { writer.field("sessionsNotListedEvidenceIncomplete", notListed.evidenceIncomplete) }
        }
        if baselineSuppressed > 0 { writer.field("baselineSuppressed", baselineSuppressed) }
        if partial { writer.key("partial"); writer.bool(true) }
        writer.key("diagnostics")
        writer.beginArray()
        for diagnostic in diagnostics {
            writer.beginObject()
            writer.field("path", diagnostic.origin.input)
            writer.field("line", diagnostic.origin.line)
            writer.field("code", diagnostic.code.rawValue)
            writer.field("severity", diagnostic.severity.rawValue)
            writer.field("message", diagnostic.message)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.appendLineBreak()
        writer.takeBytes(output)
    }

    /// Writes `count` elements of an open array (sessions, findings, decisions) with `write`, handing
    /// the text to `output` about every 64 KiB. With several ``renderingJobs``, a window of elements at
    /// a time is split among threads, each writing its part into a writer of its own; the parts are
    /// then appended in order, so the text is the same, and memory holds one window, never the whole array.
    private func writeElements(count: Int, to writer: inout JSONTextWriter, output: (UnsafeRawBufferPointer) -> Void,
                               write: @escaping @Sendable (Int, inout JSONTextWriter) -> Void) {
        func flushIfLong() {
            if writer.byteCount >= 1 << 16 { writer.takeBytes(output) }
        }
        let jobs = max(1, renderingJobs)
        guard jobs > 1, count >= 2 * Self.elementsPerPart else {
            for index in 0..<count {
                write(index, &writer)
                flushIfLong()
            }
            return
        }
        let window = jobs * Self.elementsPerPart
        let parts = RenderedParts(count: jobs)
        var start = 0
        while start < count {
            let end = min(count, start + window), windowStart = start
            let perPart = (end - start + jobs - 1) / jobs
            // Each thread takes the next part until none is left (the calling thread all of them, if it is alone).
            let next = Atomic<Int>(0)
            threads.runSharing(helpers: jobs - 1) {
                while true {
                    let part = next.add(1, ordering: .relaxed).oldValue
                    guard part < jobs else { return }
                    let lower = min(end, windowStart + part * perPart), upper = min(end, lower + perPart)
                    var partWriter = JSONTextWriter.elements()
                    for index in lower..<upper { write(index, &partWriter) }
                    parts.store(partWriter, at: part)
                }
            }
            for part in 0..<jobs {
                writer.appendElements(of: parts.take(at: part))
                flushIfLong()
            }
            start = end
        }
    }

    /// Elements one thread writes at a time when several render (a few hundred KiB of sessions).
    static let elementsPerPart = 256

    /// Writes one prewarm decision: `{"app", "reason", "explanation", "time", "evidence", "text"}`.
    public static func write(_ decision: PrewarmDecision, to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.field("app", decision.app)
        writer.field("reason", decision.reason.rawValue)
        writer.field("explanation", decision.reason.explanation)
        writer.field("time", decision.time)
        writer.key("evidence")
        writeOrigin(decision.evidence, to: &writer)
        writer.field("text", decision.text)
        writer.endObject()
    }

    /// Writes one finding object (also one line of `--format ndjson`).
    /// `early`: the finding was given as its line came, before its session closed (a live run's ndjson): written
    /// `"early": true`, its words those its lines decided so far; the session's record at its close has the final ones.
    public static func write(_ finding: Finding, to writer: inout JSONTextWriter, withLocations: Bool = true, early: Bool = false) {
        writer.beginObject()
        writer.field("rule", finding.ruleID)
        if early {
            writer.key("early")
            writer.bool(true)
        }
        writer.field("severity", finding.severity.rawValue)
        writer.field("message", finding.message)
        writer.field("session", finding.sessionID)
        writer.field("sessionKind", finding.sessionKind.rawValue)
        writer.field("app", finding.appName)
        writer.field("pid", finding.app.pid)
        writer.key("location")
        if let location = finding.location {
            if withLocations { writeOrigin(location, to: &writer) } else { writer.string(finding.evidence.first?.text) }
        } else {
            writer.string(nil)
        }
        writer.key("evidence")
        writer.beginArray()
        for evidence in finding.evidence {
            writer.beginObject()
            if withLocations {
                writer.field("path", evidence.origin.input)
                writer.field("line", evidence.origin.line)
            }
            writer.field("time", evidence.time)
            writer.field("label", evidence.label)
            writer.field("text", evidence.text)
            writer.endObject()
        }
        writer.endArray()
        writer.field("missingEvidence", finding.missingEvidence)
        writer.endObject()
    }

    /// Writes one session object. `evidence` writes a line reference; by default `{"path","line"}`
    /// (test goldens write the line's text instead, so one golden holds for every rendering).
    /// `input`: the input the session came from, written when the inputs were read separately.
    public static func write(_ session: LaunchSession, id: String, input: String? = nil, to writer: inout JSONTextWriter,
                             evidence: (EventOrigin, inout JSONTextWriter) -> Void = LintReport.writeOrigin) {
        func origin(_ origin: EventOrigin) { evidence(origin, &writer) }
        writer.beginObject()
        writer.field("id", id)
        if let input { writer.field("input", input) }
        writer.field("bundleID", session.app.bundleID)
        writer.field("process", session.app.processName)
        writer.field("pid", session.app.pid)
        writer.field("kind", session.kind.rawValue)
        writer.field("confidence", session.confidence.rawValue)
        writer.key("decidedBy")
        if let decidedBy = session.decidedBy { origin(decidedBy) } else { writer.string(nil) }
        writer.field("start", session.start)
        writer.field("end", session.end)
        writer.key("milestones")
        writer.beginArray()
        for milestone in session.milestones {
            writer.beginObject()
            writer.field("name", milestone.name.rawValue)
            writer.field("time", milestone.time)
            if let detail = milestone.detail { writer.field("detail", detail) }
            writer.key("evidence")
            origin(milestone.evidence)
            if let detailEvidence = milestone.detailEvidence {
                writer.key("detailEvidence")
                origin(detailEvidence)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key("durations")
        writer.beginObject()
        for (key, from, to) in durationPairs {
            if let milliseconds = session.milliseconds(from: from, to: to) { writer.field(key, milliseconds) }
        }
        writer.endObject()
        writer.key("launch")
        if let launch = session.userPerceivedLaunch {
            writer.beginObject()
            writer.field("from", launch.start.name.rawValue)
            writer.field("to", launch.end.name.rawValue)
            writer.field("microseconds", launch.microseconds)
            writer.key("proxy")
            writer.bool(launch.endIsProxy)
            writer.endObject()
        } else {
            writer.string(nil)
        }
        writer.key("callbacksBeforeActivation")
        writer.beginArray()
        for callback in session.callbacksBeforeActivation { origin(callback) }
        writer.endArray()
        if session.callbacksBeforeActivationNotKept > 0 {
            writer.field("callbacksBeforeActivationNotKept", session.callbacksBeforeActivationNotKept)
        }
        writer.key("evidenceIncomplete")
        writer.bool(session.evidenceIncomplete)
        writer.key("incompleteEvidence")
        writer.beginArray()
        for reason in session.incompleteEvidence { writer.string(reason) }
        writer.endArray()
        writer.endObject()
    }
}

/// The writers of the rendering threads, one slot each: each thread writes its own slot only, and
/// the caller reads them once the threads are joined. Raw storage, since concurrent writes
/// to one array (even to different elements) would be overlapping accesses.
private final class RenderedParts: @unchecked Sendable {
    private let writers: UnsafeMutablePointer<JSONTextWriter>
    private let count: Int

    init(count: Int) {
        self.count = count
        writers = .allocate(capacity: count)
        writers.initialize(repeating: JSONTextWriter.elements(), count: count)
    }

    deinit {
        writers.deinitialize(count: count)
        writers.deallocate()
    }

    func store(_ writer: JSONTextWriter, at part: Int) { writers[part] = writer }

    func take(at part: Int) -> JSONTextWriter {
        defer { writers[part] = JSONTextWriter.elements() }
        return writers[part]
    }
}
