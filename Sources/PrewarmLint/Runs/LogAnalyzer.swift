public import PrewarmLintReaders
import PrewarmLintClassifier
public import PrewarmLintSessions
public import PrewarmLintRules
public import PrewarmLintReporters

/// The library's front door: logs in (paths, bytes, or any `AsyncSequence` of byte chunks), events,
/// sessions, findings and reports out. A value: no global state, `Sendable`, each call independent.
///
/// ```swift
/// import PrewarmLint
///
/// let analyzer = LogAnalyzer()
/// let report = analyzer.lint(paths: ["logs/"])
/// print(MarkdownReporter().render(report))
///
/// // Streaming: findings as the sessions they belong to close.
/// for try await finding in analyzer.findings(of: chunks, named: "device.log") {
///     print(finding.ruleID, finding.message)
/// }
/// ```
/// Streams stop when the consuming task is cancelled (the producer checks between chunks), and
/// finish by throwing `ReaderError` when the input is not a log or is corrupt
/// gzip; problems inside an input are `ReaderDiagnostic` values, never prints.
public struct LogAnalyzer: Sendable {
    /// How inputs are read: format, time inference, limits.
    public var options: ReadOptions
    /// The rules and their configuration (markers included).
    public var linter: Linter
    /// Sessions open at once before the oldest is closed early.
    public var maximumOpenSessions: Int
    /// Closed sessions kept in memory before they are spooled to a temporary file (as ``LintRun/sessionsInMemory``).
    public var sessionsInMemory = 8_192

    /// An analyzer; every setting has a default.
    public init(options: ReadOptions = ReadOptions(), linter: Linter = Linter(), maximumOpenSessions: Int = 10_000) {
        self.options = options
        self.linter = linter
        self.maximumOpenSessions = maximumOpenSessions
    }

    // MARK: Files

    /// Lints files and folders (read recursively), as `prewarm-lint PATH…` does; paths that do not
    /// exist are inputs with an error in the report.
    public func lint(paths: [String], separately: Bool = false, toolVersion: String = LogAnalyzer.libraryVersion) -> LintReport {
        let discovery = InputDiscovery.expand(paths)
        var run = LintRun(options: options, linter: linter, toolVersion: toolVersion, separately: separately,
                          maximumOpenSessions: maximumOpenSessions)
        run.sessionsInMemory = sessionsInMemory
        var report = run.run(discovery.inputs)
        report.inputs = discovery.failures.map { LintReport.Input(path: $0.path, format: nil, events: 0, diagnostics: 0, error: $0.message) }
            + report.inputs
        return report
    }

    /// The version reports name when the caller does not give one.
    public static let libraryVersion = "0.1.0"

    // MARK: Bytes in memory

    /// Lints one input held in memory (a paste, a download).
    ///
    /// A pasted document of several logs (an issue body with a crash report and a Console copy) is read as its files
    /// would be: each log an input of its own, merged by time.
    public func lint(bytes: [UInt8], named name: String) throws(ReaderError) -> LintReport {
        if let document = PastedDocument.cut(bytes: bytes, options: options) {
            var run = LintRun(options: options, linter: linter, toolVersion: LogAnalyzer.libraryVersion, maximumOpenSessions: maximumOpenSessions)
            run.sessionsInMemory = sessionsInMemory
            run.document = document
            return run.run([DiscoveredInput(input: .file(name), foundInDirectory: false)])
        }
        var state = InputLint(name: name, analyzer: self)
        try state.push(bytes) { _, _, _ in }
        try state.finish { _, _, _ in }
        return state.report()
    }

    // MARK: Byte chunks, as they come

    /// Events and reader diagnostics of an input arriving in chunks, as they are decoded: every event, none skipped.
    public func outputs<Chunks: AsyncSequence & Sendable>(of chunks: Chunks, named name: String) -> AsyncThrowingStream<ReaderOutput, any Error>
    where Chunks.Element == [UInt8] {
        let configuration = readerConfiguration(named: name, skipping: false)
        let format = options.format
        return stream(of: chunks) { continuation in
            var reader = LogStreamReader(configuration: configuration, format: format)
            return ({ chunk throws(ReaderError) in
                try withBytes(of: chunk) { (bytes) throws(ReaderError) in try reader.read(bytes) { continuation.yield($0) } }
            }, { () throws(ReaderError) in
                try reader.finish { continuation.yield($0) }
            })
        }
    }

    /// Launch sessions of an input arriving in chunks, each as soon as the log shows it closed.
    public func sessions<Chunks: AsyncSequence & Sendable>(of chunks: Chunks, named name: String) -> AsyncThrowingStream<LaunchSession, any Error>
    where Chunks.Element == [UInt8] {
        lintStream(of: chunks, named: name) { session, _, continuation in continuation.yield(session) }
    }

    /// Findings of an input arriving in chunks, each as soon as its session closes.
    public func findings<Chunks: AsyncSequence & Sendable>(of chunks: Chunks, named name: String) -> AsyncThrowingStream<Finding, any Error>
    where Chunks.Element == [UInt8] {
        lintStream(of: chunks, named: name) { _, findings, continuation in
            for finding in findings { continuation.yield(finding) }
        }
    }

    /// The whole report of an input arriving in chunks.
    public func lint<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, named name: String) async throws -> LintReport
    where Chunks.Element == [UInt8] {
        var state = InputLint(name: name, analyzer: self)
        for try await chunk in chunks {
            try Task.checkCancellation()
            try state.push(chunk) { _, _, _ in }
        }
        try state.finish { _, _, _ in }
        return state.report()
    }

    /// How an input named `name` is read; `skipping`: whether the reader may leave unbuilt the records of the processes
    /// that write no launch line (as the session pipeline's does), not when the caller wants every event.
    func readerConfiguration(named name: String, skipping: Bool) -> ReaderConfiguration {
        var inference = options.timeInference
        inference.referenceInstant = inference.referenceInstant ?? options.standardInputReferenceInstant
        return ReaderConfiguration(inputName: name, timeInference: inference, limits: options.limits,
                                   skippedProcesses: skipping ? ProcessRole.namesWithoutLaunchLines : [])
    }

    /// Each closed session of `chunks` and its findings, handed to `deliver` as it closes.
    private func lintStream<Chunks: AsyncSequence & Sendable, Element>(
        of chunks: Chunks, named name: String,
        _ deliver: @escaping @Sendable (LaunchSession, [Finding], AsyncThrowingStream<Element, any Error>.Continuation) -> Void
    ) -> AsyncThrowingStream<Element, any Error> where Chunks.Element == [UInt8] {
        let analyzer = self
        return stream(of: chunks) { continuation in
            var state = InputLint(name: name, analyzer: analyzer)
            return ({ chunk throws(ReaderError) in
                try state.push(chunk) { deliver($0, $2, continuation) }
            }, { () throws(ReaderError) in
                try state.finish { deliver($0, $2, continuation) }
            })
        }
    }

    /// A stream fed by a task that reads `chunks`: `start` makes, for the stream's continuation, what takes each chunk
    /// and what ends the input. The task stops at the next chunk once the stream's consumer is gone.
    private func stream<Chunks: AsyncSequence & Sendable, Element>(
        of chunks: Chunks,
        _ start: @escaping @Sendable (AsyncThrowingStream<Element, any Error>.Continuation)
            -> (take: ([UInt8]) throws(ReaderError) -> Void, end: () throws(ReaderError) -> Void)
    ) -> AsyncThrowingStream<Element, any Error> where Chunks.Element == [UInt8] {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let (take, end) = start(continuation)
                    for try await chunk in chunks {
                        try Task.checkCancellation()
                        try take(chunk)
                    }
                    try end()
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// One input linted as its bytes are pushed in: the session pipeline's single-input stages (`PushedBytesSource` →
/// `AssemblingConsumer`), each closed session checked as it closes, keeping what a report needs.
struct InputLint {
    private typealias Sink = SessionPipeline.ConsumingSink<SessionPipeline.AssemblingConsumer>

    private let name: String
    private let linter: Linter
    private let signatures: SignatureTable
    private var source: SessionPipeline.PushedBytesSource
    private var sink: Sink
    private var outcome: SessionPipeline.SourceOutcome?
    private var endDiagnostics: [ReaderDiagnostic] = []
    /// The closed sessions' outlines and findings, spooled past a few thousand (``LintRun/sessionsInMemory``).
    private var closed: ClosedSessionSpool
    private var names = SessionListing.Names()
    private var unreported: [UnreportedHazard] = []
    private let maximumOpenSessions: Int

    init(name: String, analyzer: LogAnalyzer, onDiagnostic: @escaping (ReaderDiagnostic) -> Void = { _ in }) {
        self.name = name
        linter = analyzer.linter
        maximumOpenSessions = analyzer.maximumOpenSessions
        signatures = analyzer.linter.configuration.signatureTable()
        closed = ClosedSessionSpool(runLength: analyzer.sessionsInMemory, directory: nil, listingLimit: LintRun.maximumSessionsListed)
        source = SessionPipeline.PushedBytesSource(configuration: analyzer.readerConfiguration(named: name, skipping: true),
                                                   format: analyzer.options.format,
                                                   signatures: signatures,
                                                   maximumRememberedPIDs: ProcessDirectory.defaultCapacity, filtersRecords: true)
        sink = Sink(consumer: SessionPipeline.AssemblingConsumer(
            assembly: SessionAssembly(maximumOpenSessions: analyzer.maximumOpenSessions),
            onDiagnostic: onDiagnostic, onSession: { $0 }))
    }

    /// Reads the next bytes of the input; each session they closed, with its findings, to `deliver`.
    mutating func push(_ bytes: [UInt8], _ deliver: (LaunchSession, String, [Finding]) -> Void) throws(ReaderError) {
        try withBytes(of: bytes) { (chunk) throws(ReaderError) in try source.push(chunk, into: &sink) }
        checkClosed(deliver)
    }

    /// ``push(_:_:)`` of bytes the caller holds.
    mutating func push(_ chunk: UnsafeRawBufferPointer, _ deliver: (LaunchSession, String, [Finding]) -> Void) throws(ReaderError) {
        try source.push(chunk, into: &sink)
        checkClosed(deliver)
    }

    /// For a log still arriving: when `pausing`, the reader decides what a pause decides
    /// (`LogStreamReader.pause(endingRecords:emit:)`, ending records when `endingRecords`); the
    /// lines the reorder window held stamped before `releasing` (all when nil) go to the builder, and when
    /// `closingEndedBefore` is given, the sessions whose process ended and that had no line since before it close.
    /// Each session closed, with its id and findings, to `deliver`.
    mutating func settle(pausing: Bool, endingRecords: Bool = true, keepsUnfinished: Bool = false, releasing: Int64?,
                         closingEndedBefore instant: Int64?, _ deliver: (LaunchSession, String, [Finding]) -> Void) throws(ReaderError) {
        if pausing { try source.pause(endingRecords: endingRecords, keepsUnfinished: keepsUnfinished, into: &sink) }
        sink.consumer.settle(releasing: releasing, closingEndedBefore: instant)
        checkClosed(deliver)
    }

    /// The session stages after the reader, for a log still arriving to ask what it is open.
    var assembly: SessionAssembly {
        get { sink.consumer.assembly }
        _modify { yield &sink.consumer.assembly }
    }

    /// Lines the reader has framed so far.
    var linesRead: Int { source.linesRead }

    /// Ends the input; each session still open, with its findings, to `deliver`.
    mutating func finish(_ deliver: (LaunchSession, String, [Finding]) -> Void) throws(ReaderError) {
        let outcome = try source.finish(into: &sink)
        self.outcome = outcome
        endDiagnostics = sink.consumer.finish(after: outcome)
        checkClosed(deliver)
    }

    /// Checks the sessions closed since last asked.
    private mutating func checkClosed(_ deliver: (LaunchSession, String, [Finding]) -> Void) {
        guard !sink.consumer.sessions.isEmpty else { return }
        let sessions = sink.consumer.sessions
        sink.consumer.sessions.removeAll()
        for session in sessions {
            let (id, findings) = check(session)
            deliver(session, id, findings)
        }
    }

    /// The id an open session will have when it closes, if it is the next of its app to: what a finding given early
    /// names its session by.
    func expectedID(of session: LaunchSession) -> String { names.peek(for: session) }

    /// Checks a closed session, names it `app#n` by the order the app's sessions closed, and keeps its outline; its
    /// findings.
    private mutating func check(_ session: LaunchSession) -> (id: String, findings: [Finding]) {
        let id = names.next(for: session)
        let findings = linter.findings(in: [session], ids: [id])
        ReportAssembly.add(linter.unreportedHazards(in: session, findings: findings), to: &unreported)
        closed.add(session, findings: findings, id: id)
        return (id, findings)
    }

    /// The report of everything read so far, assembled as every run's is (``ReportAssembly``).
    func report(toolVersion: String = LogAnalyzer.libraryVersion, partial: Bool = false) -> LintReport {
        var summary = outcome?.summary ?? InputSummary(input: name)
        summary.format = summary.format ?? source.format
        var assembly = ReportAssembly(toolVersion: toolVersion, maximumOpenSessions: maximumOpenSessions,
                                      sessionsListed: LintRun.maximumSessionsListed, firstInput: name, linter: linter)
        assembly.add(summary)
        assembly.readerDiagnostics = sink.consumer.diagnostics.diagnostics + endDiagnostics
        assembly.sessionsClosedEarly = sink.consumer.assembly.closedEarly
        assembly.add(unreported)
        assembly.decisions = outcome?.decisions ?? []
        assembly.partial = partial
        // In time order, as every report lists sessions; ids stay those the findings were given (the order they closed).
        // (A copy: reading it back changes nothing, so the report may be asked for again.)
        let listing = ClosedSessionSpool.listing([closed], limit: LintRun.maximumSessionsListed, sessionsInMemory: closed.runLength, directory: nil)
        return assembly.report(listing: listing)
    }
}

/// `body` run on the bytes of `array`, its typed error passed on (`withUnsafeBytes` rethrows any error).
private func withBytes(of array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ReaderError) -> Void) throws(ReaderError) {
    var failure: ReaderError?
    array.withUnsafeBytes { bytes in
        do throws(ReaderError) { try body(bytes) } catch { failure = error }
    }
    if let failure { throw failure }
}
