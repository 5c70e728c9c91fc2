public import PrewarmLintModel
import Synchronization
public import PrewarmLintReaders
public import PrewarmLintSessions
public import PrewarmLintRules
public import PrewarmLintReporters

/// One input linted while it is still arriving (a device's log piped in, a file being appended to): each finding as
/// soon as its deciding line has been read when its rule is decided at its line, each session and the rest of its
/// findings as soon as it closes, and at the end the report a batch run of the same bytes gives.
///
/// The caller reads the input and hands over what comes (``push(_:_:)``), says when the input has been quiet for a
/// while (``pause(quietFor:_:)``, after ``quietPeriod`` on the wall clock) and ends it (``finish(partial:_:)``, at its end or
/// when the user stops the run). How fast the bytes come changes when an answer is given, not what it is:
/// - a record that later lines could continue (a multi-line message) ends at a pause, as a writer that sends whole
///   records has sent it whole;
/// - lines held in the reorder window to put them in time order go on at a pause;
/// - a session whose process ended (an exit line) closes once no line has come for ``endedSessionGrace`` of log time
///   after its last one (during a pause, the log's time runs on with the wall clock from its latest line), instead of
///   at the app's next process or the end of the input;
/// - a rule decided at its line (`RuleDescription.decided`) is checked on the open sessions lines went to: a finding
///   given early has its rule, app, pid and deciding line as final, and its message says what was known then (its
///   session has no id yet); the finding comes again, in its final words, with its session when it closes.
///
/// Memory follows the open sessions, not the length of the stream: closed sessions are kept as outlines, spooled to a
/// temporary file past a few thousand, for the final report.
///
/// ```swift
/// var live = LiveLint(inputName: "-")
/// try live.push(bytes) { update in print(update) }     // as bytes come
/// try live.pause(quietFor: 300_000) { update in … }    // when nothing came for a while
/// let report = try live.finish { update in … }        // at the end, or on Ctrl-C
/// ```
public struct LiveLint {
    /// What the run has to say as the input arrives.
    public enum Update: Sendable {
        /// A finding its deciding line decides (a rule decided at its line), given as soon as the line has been read:
        /// its rule, app, pid and deciding line are final; its message says what was known then, and its session is
        /// named by the id it will have when it closes (when it is the next of its app to close, as nearly always).
        case finding(Finding)
        /// A session has closed: its findings in their final words (those given early among them, said so).
        case session(ClosedSession)
        /// A reader diagnostic, in its place.
        case diagnostic(ReaderDiagnostic)
        /// The input has ended (or the user stopped the run): the report of everything read, as a batch run of the same
        /// bytes gives it. The last update.
        case report(LintReport)
    }

    /// A session as it closed, with its findings.
    public struct ClosedSession: Sendable {
        /// The session.
        public var session: LaunchSession
        /// Its id in the final report: `app#n`, n counting the app's sessions in the order they closed.
        public var id: String
        /// Its findings, final.
        public var findings: [Finding]
        /// For each finding, whether it was given early (``Update/finding(_:)``).
        public var givenEarly: [Bool]
    }

    /// How far the run is, for a status line.
    public struct Status: Sendable, Hashable {
        /// Lines read.
        public var lines: Int
        /// Sessions open.
        public var openSessions: Int
        /// Findings given so far (early, or with their closed sessions).
        public var findings: Int

        /// A status.
        public init(lines: Int, openSessions: Int, findings: Int) {
            self.lines = lines
            self.openSessions = openSessions
            self.findings = findings
        }
    }

    /// How long the input must have been quiet, on the wall clock, before the caller says it paused: 250 ms. A writer
    /// that sends whole records (idevicesyslog, `log stream`, pymobiledevice3 write a record at a time) leaves no such
    /// gap inside a record, and a finding then comes well within a second of its line.
    public static let quietPeriod: Duration = .milliseconds(250)

    /// How long, in log time, a session whose process ended stays open for the lines that follow the exit: 2 s. The
    /// lines after an exit (FrontBoard's clean-up, runningboardd's and launchd's exit status) came within 0.1 s of it
    /// in the real logs read; a later line about the app is its next process, which closes the session anyway.
    public static let endedSessionGrace: Int64 = 2_000_000

    /// How long, on the wall clock, a pause must last to end a record whose text leaves a bracket or a quote open (a
    /// RunningBoard descriptor before its attribute lines): 5 s. Shorter pauses end every other record.
    public static let unfinishedRecordGrace: Int64 = 5_000_000

    private var input: InputLint
    private let toolVersion: String
    /// The rules decided at their line, checked on the open sessions lines went to.
    private let earlyLinter: Linter
    /// The findings given early whose sessions are still open, by the process they were given for: looking one up
    /// and forgetting a closed session's are one hash each, whatever the number of open sessions.
    private var givenEarly: [EarlyOwner: [EarlyKey]] = [:]
    private let diagnostics = DiagnosticInbox()
    private var findingsGiven = 0
    /// Whether ``finish(partial:_:)`` was called: every call after it is refused (``refuseAfterFinish()``).
    private var finished = false
    /// The input's name, for the errors a misuse is told with.
    private let inputName: String
    /// The latest instant among the lines read at the last tick: the lines stamped up to it have waited a tick.
    private var latestAtLastTick: Int64?
    /// Up to when, in log time, the open sessions were last looked at for ended ones while bytes came.
    private var endedCheckedAt = Int64.min / 2
    /// When bytes came, ticks and pauses are due (``push(_:arrivedAt:_:)``, ``wait(until:_:)``).
    private var clock = LiveClock()

    /// What makes a finding given early the same as one of its session's final findings: its rule, pid and deciding
    /// line (its app's name may be completed later, a process name first, then the bundle id).
    private struct EarlyKey: Equatable {
        var ruleID: String
        var app: String
        var pid: Int?
        var line: EventOrigin?

        init(_ finding: Finding) {
            ruleID = finding.ruleID
            app = finding.appName
            pid = finding.app.pid
            line = finding.location
        }

        static func == (lhs: EarlyKey, rhs: EarlyKey) -> Bool {
            lhs.ruleID == rhs.ruleID && lhs.pid == rhs.pid && lhs.line == rhs.line
        }

        /// The process it was given for.
        var owner: EarlyOwner { pid.map(EarlyOwner.pid) ?? .app(app) }
    }

    /// The process a finding given early was given for: its pid, else its app's name.
    private enum EarlyOwner: Hashable {
        case pid(Int)
        case app(String)

        /// The owner of `session`'s findings.
        init(_ session: LaunchSession) {
            self = session.app.pid.map(EarlyOwner.pid) ?? .app(session.app.bundleID ?? session.app.processName ?? "unknown app")
        }
    }

    /// The reader diagnostics said since last asked (the reader's stages hand them on as they come).
    private final class DiagnosticInbox {
        var waiting: [ReaderDiagnostic] = []
    }

    /// A run over the input named `inputName`, read, classified and checked as `analyzer` says; its report names
    /// `toolVersion`.
    public init(inputName: String, analyzer: LogAnalyzer = LogAnalyzer(), toolVersion: String = LogAnalyzer.libraryVersion) {
        let inbox = diagnostics
        input = InputLint(name: inputName, analyzer: analyzer) { inbox.waiting.append($0) }
        self.inputName = inputName
        input.assembly.tracksTouchedApps()
        self.toolVersion = toolVersion
        var early = analyzer.linter
        early.registry = early.registry.filter { $0.decided == .atItsLine }
        earlyLinter = early
    }

    /// How far the run is.
    public var status: Status {
        Status(lines: input.linesRead, openSessions: input.assembly.openSessions, findings: findingsGiven)
    }

    /// How late, in log time, a line may come after later-stamped ones and still be put before them while lines keep
    /// coming: 1 s (a device's log is in time order but for a few lines a few milliseconds late). Past it, the reorder
    /// window hands its lines on (a batch run holds them for 512 launch lines, which a live device may take minutes to
    /// log); a pause hands on every line.
    public static let reorderDelay: Int64 = 1_000_000

    /// Reads the next bytes of the input.
    /// - Throws: `ReaderError` when the input is not a supported log; what was said before stands.
    /// - Throws: `ReaderError` with code `misuse` after ``finish(partial:_:)``: the bytes are not read.
    public mutating func push(_ chunk: UnsafeRawBufferPointer, _ update: (Update) -> Void) throws(ReaderError) {
        try refuseAfterFinish("push")
        var checked = endedCheckedAt
        defer { endedCheckedAt = checked }
        try answering(update) { (input, closed) throws(ReaderError) in
            try input.push(chunk, closed)
            // The log's own time says what may go on; the open sessions are walked for ended ones once the log has
            // moved on by a tenth of a second, not on every chunk.
            guard let latest = input.assembly.latestRead else { return }
            let closing = latest - Self.endedSessionGrace >= checked + 100_000
            if closing { checked = latest - Self.endedSessionGrace }
            try input.settle(pausing: false, releasing: latest - Self.reorderDelay,
                             closingEndedBefore: closing ? latest - Self.endedSessionGrace : nil, closed)
        }
    }

    /// The input has been quiet for `microseconds` of wall-clock time (at least ``quietPeriod``): what waited for
    /// later lines is decided now.
    /// - Throws: `ReaderError` with code `misuse` for a negative pause or one after ``finish(partial:_:)``: nothing is
    ///   decided. A pause of any length a clock can measure is taken (the log's time is held at 2100's end).
    public mutating func pause(quietFor microseconds: Int64, _ update: (Update) -> Void) throws(ReaderError) {
        try refuseAfterFinish("pause")
        guard microseconds >= 0 else {
            throw ReaderError(code: .misuse, input: inputName, message: "a pause of \(microseconds) µs: a quiet period cannot be negative")
        }
        // A record whose text leaves a bracket or a quote open (a descriptor before its attribute lines) is not ended by
        // a short pause: a slow link may split it.
        let keepsUnfinished = microseconds < Self.unfinishedRecordGrace
        try answering(update) { (input, closed) throws(ReaderError) in
            try input.settle(pausing: true, keepsUnfinished: keepsUnfinished, releasing: nil, closingEndedBefore: nil, closed)
            // The log's time runs on with the wall clock from its latest line.
            guard let latest = input.assembly.latestRead else { return }
            let now = min(Int64.addingSaturated(latest, microseconds), LogTimestamp.readableInstants.upperBound)
            try input.settle(pausing: false, releasing: nil, closingEndedBefore: now - Self.endedSessionGrace, closed)
        }
    }

    /// Reads bytes that came at `now`, and ticks when they have kept coming for a ``quietPeriod`` (``LiveClock``): what
    /// a caller reading a live input calls for each chunk, with ``wait(until:_:)`` when nothing came.
    public mutating func push(_ chunk: UnsafeRawBufferPointer, arrivedAt now: ContinuousClock.Instant, _ update: (Update) -> Void)
    throws(ReaderError) {
        try push(chunk, update)
        clock.arrived(at: now)
        if clock.due(at: now) != nil { try tick(update) }
    }

    /// Nothing came by `now` (call it at least every ``quietPeriod``): a pause once the input has been quiet for a
    /// ``quietPeriod`` (again each second of quiet), a tick while bytes keep coming (``LiveClock``).
    public mutating func wait(until now: ContinuousClock.Instant, _ update: (Update) -> Void) throws(ReaderError) {
        try refuseAfterFinish("wait")
        switch clock.due(at: now) {
        case .tick: try tick(update)
        case .pause(let quiet):
            try pause(quietFor: LiveClock.microseconds(quiet), update)
        case nil: break
        }
    }

    /// Throws `misuse` when the run has finished: what it said stands, and nothing more is read.
    private func refuseAfterFinish(_ call: String) throws(ReaderError) {
        guard finished else { return }
        throw ReaderError(code: .misuse, input: inputName, message: "\(call) after finish: the live run has ended and gave its report; start a new LiveLint")
    }

    /// Bytes have kept coming for a ``quietPeriod`` since the last tick or pause (call it that often while they do):
    /// the lines that were already in the reorder window at the last tick go on (they had that long for a late line to
    /// come before them), and a format not known yet is decided from the complete lines held, when they are enough,
    /// rather than after the 64 KiB a file's format is sniffed from (a slow stream takes minutes to send them). Records
    /// are not ended: more lines are coming.
    public mutating func tick(_ update: (Update) -> Void) throws(ReaderError) {
        try refuseAfterFinish("tick")
        // Only lines too early for a later line to be put before them (``SessionAssembly/clockStep``): what a batch run
        // puts in order, this does too.
        let releasing = latestAtLastTick.map { min($0 + 1, (input.assembly.latestRead ?? $0) - SessionAssembly.clockStep) }
        defer { latestAtLastTick = input.assembly.latestRead }
        try answering(update) { (input, closed) throws(ReaderError) in
            try input.settle(pausing: true, endingRecords: false, releasing: releasing, closingEndedBefore: nil, closed)
        }
    }

    /// Ends the input (its end, or the user stopped the run): the sessions still open close; the report of the run,
    /// as a batch run of the same bytes gives it (`partial` marks a run the user stopped).
    public mutating func finish(partial: Bool = false, _ update: (Update) -> Void) throws(ReaderError) -> LintReport {
        try refuseAfterFinish("finish")
        finished = true
        try answering(update) { (input, closed) throws(ReaderError) in try input.finish(closed) }
        let report = input.report(toolVersion: toolVersion, partial: partial)
        update(.report(report))
        return report
    }

    /// Runs `step` on the input, collecting the sessions it closes, then says what it decided (``answer(_:_:)``) —
    /// also when it failed, before the failure is thrown: what was read until then stands.
    private mutating func answering(_ update: (Update) -> Void,
                                    _ step: (inout InputLint, (LaunchSession, String, [Finding]) -> Void) throws(ReaderError) -> Void)
    throws(ReaderError) {
        var closed: [Closed] = []
        var failure: ReaderError?
        do throws(ReaderError) {
            try step(&input) { closed.append(Closed(session: $0, id: $1, findings: $2)) }
        } catch { failure = error }
        answer(closed, update)
        if let failure { throw failure }
    }

    /// A session that closed, with its id and findings.
    private struct Closed {
        var session: LaunchSession
        var id: String
        var findings: [Finding]
    }

    /// Says what the input's latest bytes decided: the reader's diagnostics, the sessions they closed with their
    /// findings, then the findings they decide on the sessions still open.
    private mutating func answer(_ closed: [Closed], _ update: (Update) -> Void) {
        for diagnostic in diagnostics.waiting { update(.diagnostic(diagnostic)) }
        diagnostics.waiting.removeAll()
        for one in closed {
            let given = one.findings.map { finding in
                let key = EarlyKey(finding)
                return givenEarly[key.owner]?.contains(key) ?? false
            }
            // The session is gone: what was given early of it is forgotten (memory follows the open sessions).
            givenEarly[EarlyOwner(one.session)] = nil
            findingsGiven += given.filter { !$0 }.count
            update(.session(ClosedSession(session: one.session, id: one.id, findings: one.findings, givenEarly: given)))
        }
        for app in input.assembly.takeTouched() {
            guard let session = input.assembly.openSession(named: app) else { continue }
            let id = input.expectedID(of: session)
            for var finding in earlyLinter.findings(inUnlisted: session) {
                let key = EarlyKey(finding)
                guard !(givenEarly[key.owner]?.contains(key) ?? false) else { continue }
                givenEarly[key.owner, default: []].append(key)
                findingsGiven += 1
                finding.sessionID = id
                update(.finding(finding))
            }
        }
    }
}

extension LogAnalyzer {
    /// A run over an input arriving in chunks (a device's log streamed from a socket, a child process's output), its
    /// updates as they are decided (``LiveLint``): the findings its lines decide, each session as it closes, the reader's
    /// diagnostics, and at the end of `chunks` the report. The pauses ``LiveLint`` needs are measured here, on the
    /// continuous clock: a ``LiveLint/quietPeriod`` with no chunk is a pause, and while chunks keep coming the run ticks
    /// that often. Stops when the consuming task is cancelled; ends by throwing `ReaderError` when the input is not a log.
    ///
    /// ```swift
    /// for try await update in LogAnalyzer().live(chunks, named: "device") {
    ///     if case .finding(let finding) = update { print(finding.ruleID, finding.message) }
    /// }
    /// ```
    public func live<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, named name: String,
                                                       toolVersion: String = LogAnalyzer.libraryVersion)
        -> AsyncThrowingStream<LiveLint.Update, any Error> where Chunks.Element == [UInt8] {
        let analyzer = self
        return AsyncThrowingStream { continuation in
            let run = LiveRunState(LiveLint(inputName: name, analyzer: analyzer, toolVersion: toolVersion))
            let clock = ContinuousClock()
            let say: @Sendable (LiveLint.Update) -> Void = { continuation.yield($0) }
            // The clock's side: what is due while nothing comes (a pause once the input is quiet, a tick while it keeps
            // coming), asked more often than a quiet period.
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    let now = clock.now
                    let failure: ReaderError? = run.state.withLock { live in
                        do throws(ReaderError) { try live.wait(until: now, say); return nil } catch { return error }
                    }
                    if let failure {
                        continuation.finish(throwing: failure)
                        return
                    }
                }
            }
            let reader = Task {
                do {
                    for try await chunk in chunks {
                        try Task.checkCancellation()
                        let now = clock.now
                        let failure: ReaderError? = run.state.withLock { live in
                            chunk.withUnsafeBytes { bytes in
                                do throws(ReaderError) { try live.push(bytes, arrivedAt: now, say); return nil } catch { return error }
                            }
                        }
                        if let failure { throw failure }
                    }
                    ticker.cancel()
                    try run.state.withLock { (live) throws(ReaderError) in _ = try live.finish(say) }
                    continuation.finish()
                } catch {
                    ticker.cancel()
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in
                reader.cancel()
                ticker.cancel()
            }
        }
    }
}

/// The run the reading task and the clock's task share.
private final class LiveRunState: Sendable {
    let state: Mutex<LiveLint>

    init(_ live: consuming sending LiveLint) {
        state = Mutex(live)
    }
}
