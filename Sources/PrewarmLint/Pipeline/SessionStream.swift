#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import PrewarmLintModel
public import PrewarmLintClassifier
public import PrewarmLintSessions
package import PrewarmLintReaders

/// Launch sessions from one input's events as they are read: the incremental core of
/// ``SessionPipeline``, for callers that have events rather than files (bytes from a network
/// stream, events of their own reader).
///
/// Events go in in input order; each is classified (the classifier learns which pids are apps from
/// earlier lines of the same input), the launch-relevant ones are put in time order through a small
/// reorder window (``SessionPipeline/reorderWindow`` events), and the session builder closes
/// sessions as later lines show them ended. Memory follows the open sessions and the window, not
/// the input.
///
/// ```swift
/// var stream = SessionStream(inputName: "device.log")
/// for event in events { for session in stream.consume(event) { print(session.kind) } }
/// let end = stream.finish()   // the sessions still open, and what the input lacked
/// ```
public struct SessionStream: Sendable {
    private let inputName: String
    private var stage: SessionPipeline.ClassifyingStage
    private var sink: AssemblySink

    /// A stream for one input.
    ///
    /// - Parameters:
    ///   - inputName: names the input in the diagnostics `finish()` returns.
    ///   - signatures: the templates to classify with (the built-in table, a team's markers first).
    ///   - maximumOpenSessions: sessions open at once before the oldest is closed early.
    ///   - maximumRememberedPIDs: pids remembered as apps.
    public init(inputName: String, signatures: SignatureTable = .builtIn, maximumOpenSessions: Int = 10_000,
                maximumRememberedPIDs: Int = ProcessDirectory.defaultCapacity) {
        self.inputName = inputName
        stage = SessionPipeline.ClassifyingStage(inputName: inputName, signatures: signatures, maximumRememberedPIDs: maximumRememberedPIDs)
        sink = AssemblySink(assembly: SessionAssembly(maximumOpenSessions: maximumOpenSessions))
    }

    /// Whether this stream could want the record its input's reader offers (`ReaderConfiguration.offersRecords`), so
    /// that the reader leaves unbuilt the records this stream would drop unread.
    package mutating func takes(_ offer: inout RecordOffer) -> Bool {
        stage.takes(&offer)
    }

    /// Sessions closed early because too many were open at once.
    public var closedEarly: Int { sink.assembly.closedEarly }

    /// Takes the next event of the input; returns the sessions it let close (usually none).
    public mutating func consume(_ event: LogEvent) -> [LaunchSession] {
        stage.take(.event(event), into: &sink)
        guard !sink.closed.isEmpty else { return [] }
        defer { sink.closed.removeAll() }
        return sink.closed
    }

    /// The prewarm decisions the input's dasd lines stated so far.
    public var decisions: [PrewarmDecision] { stage.decisions }

    /// Ends the input: the sessions still open, and the diagnostics about what the input lacked
    /// (launch lines naming their app `<private>`, pids forgotten past the limit).
    public mutating func finish() -> (sessions: [LaunchSession], diagnostics: [ReaderDiagnostic]) {
        var sessions: [LaunchSession] = []
        let diagnostics = finish { sessions.append($0) }
        return (sessions, diagnostics)
    }

    /// Ends the input: the sessions still open handed to `body` one at a time, each freed from the stream before the
    /// next closes; returns the diagnostics about what the input lacked (as ``finish()`` does).
    public mutating func finish(_ body: (LaunchSession) -> Void) -> [ReaderDiagnostic] {
        sink.assembly.finish(body)
        return stage.endDiagnostics() + sink.assembly.diagnostics(input: inputName)
    }

    /// The classified events into the assembly, the sessions they close kept until taken.
    private struct AssemblySink: EventSink, Sendable {
        var assembly: SessionAssembly
        var closed: [LaunchSession] = []

        mutating func hand(_ item: consuming ClassifiedEvent) { closed += assembly.consume(item) }
        /// (Events only: there is no reader diagnostic.)
        mutating func note(_ diagnostic: ReaderDiagnostic) {}
    }
}

/// What follows classification for one input: the reorder window puts the classified events in time order, and the
/// session builder closes sessions as later lines show them ended. It follows the classifying stage
/// (`SessionPipeline.ClassifyingStage`) on the same thread, or on another when the pipeline reads ahead.
struct SessionAssembly: Sendable {
    private var window = ReorderWindow<ClassifiedEvent>(size: SessionPipeline.reorderWindow)
    private var builder: LaunchSessionBuilder

    init(maximumOpenSessions: Int) {
        builder = LaunchSessionBuilder(maximumOpenSessions: maximumOpenSessions)
    }

    /// Sessions closed early because too many were open at once.
    var closedEarly: Int { builder.closedEarly }

    /// What a log still arriving asks of the lines handed to the builder.
    private var handedOn = HandedOn()

    /// How far before the latest line read a line may be stamped and still be put in time order: a line stamped
    /// earlier than that is a clock step (the device's clock set back, two captures joined, one process's lines far
    /// behind): everything the window holds goes on first, and the line after it, in the input's order, whenever it
    /// arrives — the same rule live and batch (``settle(releasing:closingEndedBefore:)``).
    static let clockStep: Int64 = 2_000_000

    /// Lines taken as a clock step, and the first one's origin and how far back it was.
    private(set) var clockSteps = 0
    private var firstClockStep: (origin: EventOrigin, back: Int64)?

    /// Whether a part of the input that is a capture of its own has started since the last line (a pasted document's
    /// next block): its first line's time is its own, never a clock step.
    private var partStarted = false

    /// The lines after this are a part of the input that is a capture of its own (`ReaderOutput.partStart`): a line
    /// stamped earlier than the part before goes on as a clock step's does (what is held first, in the input's order),
    /// without being said to be one.
    mutating func startPart() {
        partStarted = true
    }

    /// Takes the next classified event, in input order; returns the sessions it let close (usually none).
    mutating func consume(_ classified: consuming ClassifiedEvent) -> [LaunchSession] {
        var closed: [LaunchSession] = []
        let instant = classified.event.timestamp.microsecondsSinceEpoch
        let newPart = partStarted
        partStarted = false
        if let latest = latestRead, instant < latest - Self.clockStep {
            // A clock step (or a new part): what is held goes on before it; the log's time starts again from it.
            if !newPart { clockSteps += 1 }
            if !newPart, firstClockStep == nil { firstClockStep = (classified.event.origin, LogTimestamp.microseconds(from: instant, to: latest)) }
            window.drain { released in
                handedOn.note(released)
                closed += builder.consume(released)
            }
            latestRead = instant
        }
        if latestRead.map({ instant > $0 }) ?? true { latestRead = instant }
        // Moved through the window to the builder (no copy, retained and released, of each event's strings).
        window.insert(classified) { released in
            handedOn.note(released)
            closed += builder.consume(released)
        }
        return closed
    }

    /// The latest instant of a line handed to the builder.
    var latestInstant: Int64? { handedOn.latestInstant }
    /// The latest instant of a line taken in (held in the window or handed on).
    private(set) var latestRead: Int64?

    /// What is noted of each line handed to the builder: its instant, and for a log still arriving the apps (their
    /// keys: bundle id, else process name) whose sessions lines went to since last asked (nil: not asked for).
    private struct HandedOn: Sendable {
        var latestInstant: Int64?
        var touched: [String]?

        @inline(__always)
        mutating func note(_ released: borrowing ClassifiedEvent) {
            let instant = released.event.timestamp.microsecondsSinceEpoch
            if latestInstant.map({ instant > $0 }) ?? true { latestInstant = instant }
            if touched != nil, let subject = released.subject, let name = subject.bundleID ?? subject.processName,
               touched!.last != name {
                touched!.append(name)
            }
        }
    }

    /// Starts noting the apps whose sessions lines go to (``takeTouched()``).
    mutating func tracksTouchedApps() {
        if handedOn.touched == nil { handedOn.touched = [] }
    }

    /// The apps whose sessions lines went to since last asked, each once, in the order they were first touched.
    mutating func takeTouched() -> [String] {
        guard let names = handedOn.touched, !names.isEmpty else { return [] }
        handedOn.touched = []
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The open session of the app keyed `name`, as it would be handed on if it closed now (see
    /// `LaunchSessionBuilder.openSession(named:)`).
    func openSession(named name: String) -> LaunchSession? { builder.openSession(named: name) }

    /// How many sessions are open.
    var openSessions: Int { builder.openSessions }

    /// For a log still arriving: the lines held in the window stamped before `releasing` (all of them when nil) go to
    /// the builder, and when `closingEndedBefore` is given, the sessions whose process ended and that had no line since
    /// before it close. The sessions that closed.
    mutating func settle(releasing: Int64?, closingEndedBefore instant: Int64?) -> [LaunchSession] {
        var closed: [LaunchSession] = []
        func hand(_ released: consuming ClassifiedEvent) {
            handedOn.note(released)
            closed += builder.consume(released)
        }
        if let releasing { window.release(before: releasing, hand) } else { window.drain(hand) }
        if let instant { builder.closeEnded(quietSince: instant) { closed.append($0) } }
        return closed
    }

    /// Ends the input: the sessions still held or open.
    mutating func finish() -> [LaunchSession] {
        var sessions: [LaunchSession] = []
        finish { sessions.append($0) }
        return sessions
    }

    /// Ends the input: what ``finish()`` returns, handed to `body` one session at a time.
    mutating func finish(_ body: (LaunchSession) -> Void) {
        window.drain { released in
            handedOn.note(released)
            for session in builder.consume(released) { body(session) }
        }
        builder.finish(body)
    }

    /// What the builder must report at the end (lines counted but not kept), and the clock steps taken.
    func diagnostics(input: String) -> [ReaderDiagnostic] {
        var diagnostics = [builder.keptBytesDiagnostic(input: input)].compactMap { $0 }
        if let first = firstClockStep {
            let lines = clockSteps == 1 ? "1 line is" : "\(clockSteps) lines are"
            diagnostics.append(ReaderDiagnostic(
                code: .clockStep, severity: .note,
                message: "\(lines) stamped more than \(SpokenDuration.text(microseconds: Self.clockStep)) before a line above them (the first \(SpokenDuration.text(microseconds: first.back)) back: a clock set back, captures joined, or one process's lines behind): each read in the input's order, after the lines above it",
                origin: first.origin, lineCount: 0))
        }
        return diagnostics
    }
}

/// The classifier of one input, with what it must report at the end: launch lines naming their app
/// `<private>` (they cannot be joined to a session), and pids forgotten past the directory's limit.
struct InputClassifier: Sendable {
    private let inputName: String
    private var classifier: EventClassifier
    private var redactedFirst: EventOrigin?
    private var redactedCount = 0
    /// Hazard lines that name no process a session could be built for, by meaning.
    private var unattributedFirst: EventOrigin?
    private var unattributedCount: [EventMeaning: Int] = [:]
    /// Lines that look like an app's kill that no signature reads.
    private var unreadKills = UnreadKillLines()
    /// dasd's prewarm decisions, as the lines state them (at most ``maximumDecisions``).
    private(set) var decisions: [PrewarmDecision] = []
    static let maximumDecisions = 10_000

    /// Answers this input's reader, record by record, whether the classifier could want a record; kept up to date here.
    private(set) var gating: LaunchLineGating

    init(inputName: String, signatures: SignatureTable, maximumRememberedPIDs: Int) {
        self.inputName = inputName
        classifier = EventClassifier(table: signatures, directoryCapacity: maximumRememberedPIDs)
        gating = LaunchLineGating(table: signatures)
    }

    /// Whether the classifier could want the record the reader offers (``LaunchLineGating``).
    @inline(__always)
    mutating func takes(_ offer: inout RecordOffer) -> Bool {
        gating.takes(&offer)
    }

    /// The event classified, when it means something for a launch.
    mutating func classify(_ event: LogEvent) -> ClassifiedEvent? {
        let classified = classifier.classifyIfMeaningful(event)
        gating.follow(classifier.directory)
        // What is asked of the classified event, read in place: optional chaining on it (`classified?.subject`) copied
        // the whole event, its strings retained and released, for every line kept.
        let isKept: Bool
        if case .some = classified { isKept = true } else { isKept = false }
        let namesNoApp = classified.map { $0.subject == nil } ?? true
        if let reason = classifier.lastDecision,
           decisions.count < Self.maximumDecisions {
            decisions.append(PrewarmDecision(reason: reason, app: classified.flatMap { $0.subject?.bundleID }, time: event.timestamp,
                                             evidence: event.origin, text: SessionEvent.keptText(event.message)))
        }
        // Redacted: a launch line that names no app but `<private>` (`Icon tapped: <private>`, `app<<private>>`),
        // kept (a tap, claimed by time) or not; a line naming an app nested in another process (an extension's
        // state) is about that process, not redacted.
        if classifier.lastMeaning != nil, namesNoApp, Self.mentionsPrivate(event.message),
           isKept || AppIdentityParser.firstMention(in: event.message) == nil {
            if redactedFirst == nil { redactedFirst = event.origin }
            redactedCount += 1
        } else if !isKept, let meaning = classifier.lastMeaning, meaning.isHazardEvidence {
            if unattributedFirst == nil { unattributedFirst = event.origin }
            unattributedCount[meaning, default: 0] += 1
        } else if !isKept, classifier.lastSignatureID == nil {
            unreadKills.note(event, role: classifier.lastKnownRole)
        }
        return classified
    }

    /// Whether `message` holds `<private>`: a byte search (Foundation's `contains` on the string is a character
    /// search, on every line).
    static func mentionsPrivate(_ message: String) -> Bool {
        let needle: StaticString = "<private>"
        var copy = message
        return copy.withUTF8 { bytes in
            let length = needle.utf8CodeUnitCount
            guard bytes.count >= length, let base = bytes.baseAddress else { return false }
            var from = 0
            while from <= bytes.count - length {
                // Each `<` by memchr, then the rest compared.
                guard let found = memchr(base + from, Int32(UInt8(ascii: "<")), bytes.count - length + 1 - from) else { return false }
                let at = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                if memcmp(base + at, needle.utf8Start, length) == 0 { return true }
                from = at + 1
            }
            return false
        }
    }

    /// The diagnostics of the end of the input.
    func finish() -> [ReaderDiagnostic] {
        var diagnostics: [ReaderDiagnostic] = []
        if let first = redactedFirst {
            let what = redactedCount == 1 ? "1 launch line names its app" : "\(redactedCount) launch lines name their app"
            diagnostics.append(ReaderDiagnostic(code: .redactedEvidence, severity: .warning,
                                                message: "\(what) as <private>: joined to a session by time at best (a tap), else not at all; sessions may be incomplete",
                                                origin: first, lineCount: 0))
        }
        if let first = unattributedFirst {
            let total = unattributedCount.values.reduce(0, +)
            let kinds = unattributedCount.keys.map(\.rawValue).sorted().joined(separator: ", ")
            diagnostics.append(ReaderDiagnostic(code: .unattributedEvidence, severity: .warning,
                                                message: "\(total) hazard line\(total == 1 ? "" : "s") (\(kinds)) name\(total == 1 ? "s" : "") no process a session could be built for (such as securityd's s3dl_query_row); in no finding",
                                                origin: first, lineCount: 0))
        }
        if unreadKills.count > 0 {
            let lines = unreadKills.count == 1 ? "1 line looks" : "\(unreadKills.count) lines look"
            let quotes = unreadKills.quoted.map { "\"\($0.text)\" (line \($0.origin.line))" }.joined(separator: "; ")
            diagnostics.append(ReaderDiagnostic(code: .unreadKillLine, severity: .warning,
                                                message: "\(lines) like a kill of an app that no signature reads (a wording not known yet), in no session: \(quotes)",
                                                origin: unreadKills.quoted[0].origin, lineCount: 0))
        }
        let directory = classifier.directory
        if directory.ambiguousNameLines > 0 {
            let names = directory.ambiguousNames.sorted().prefix(3).joined(separator: ", ")
            diagnostics.append(ReaderDiagnostic(code: .ambiguousProcessName, severity: .warning,
                                                message: "\(directory.ambiguousNameLines) lines without a pid name a process the log pairs with two different apps (\(names)); not joined to either",
                                                origin: EventOrigin(input: inputName, line: 0, byteOffset: 0), lineCount: 0))
        }
        if directory.forgotten > 0 {
            diagnostics.append(ReaderDiagnostic(code: .stateLimit, severity: .warning,
                                                message: "more than \(directory.capacity) app pids in this input: the \(directory.forgotten) oldest were forgotten, so their later lines may not be recognised as the app's",
                                                origin: EventOrigin(input: inputName, line: 0, byteOffset: 0)))
        }
        return diagnostics
    }
}
