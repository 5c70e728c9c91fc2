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
    public static let libraryVersion = "0.1.0-dev"

    // MARK: Bytes in memory

    /// Lints one input held in memory (a paste, a download).
    public func lint(bytes: [UInt8], named name: String) throws(ReaderError) -> LintReport {
        var state = InputLint(name: name, analyzer: self, skipping: true)
        try state.read(bytes: bytes) { _ in }
        try state.finish { _ in }
        return state.report()
    }

    // MARK: Byte chunks, as they come

    /// Events and reader diagnostics of an input arriving in chunks, as they are decoded.
    public func outputs<Chunks: AsyncSequence & Sendable>(of chunks: Chunks, named name: String) -> AsyncThrowingStream<ReaderOutput, any Error>
    where Chunks.Element == [UInt8] {
        stream(of: chunks, named: name, skipping: false) { item, continuation in
            if case .output(let output) = item { continuation.yield(output) }
        }
    }

    /// Launch sessions of an input arriving in chunks, each as soon as the log shows it closed.
    public func sessions<Chunks: AsyncSequence & Sendable>(of chunks: Chunks, named name: String) -> AsyncThrowingStream<LaunchSession, any Error>
    where Chunks.Element == [UInt8] {
        stream(of: chunks, named: name, skipping: true) { item, continuation in
            if case .session(let session, _) = item { continuation.yield(session) }
        }
    }

    /// Findings of an input arriving in chunks, each as soon as its session closes.
    public func findings<Chunks: AsyncSequence & Sendable>(of chunks: Chunks, named name: String) -> AsyncThrowingStream<Finding, any Error>
    where Chunks.Element == [UInt8] {
        stream(of: chunks, named: name, skipping: true) { item, continuation in
            if case .session(_, let findings) = item { for finding in findings { continuation.yield(finding) } }
        }
    }

    /// The whole report of an input arriving in chunks.
    public func lint<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, named name: String) async throws -> LintReport
    where Chunks.Element == [UInt8] {
        var state = InputLint(name: name, analyzer: self, skipping: true)
        for try await chunk in chunks {
            try Task.checkCancellation()
            try state.read(bytes: chunk) { _ in }
        }
        try state.finish { _ in }
        return state.report()
    }

    private func stream<Chunks: AsyncSequence & Sendable, Element>(
        of chunks: Chunks, named name: String, skipping: Bool,
        _ deliver: @escaping @Sendable (InputLint.Item, AsyncThrowingStream<Element, any Error>.Continuation) -> Void
    ) -> AsyncThrowingStream<Element, any Error> where Chunks.Element == [UInt8] {
        let analyzer = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var state = InputLint(name: name, analyzer: analyzer, skipping: skipping)
                    for try await chunk in chunks {
                        try Task.checkCancellation()
                        try state.read(bytes: chunk) { deliver($0, continuation) }
                    }
                    try state.finish { deliver($0, continuation) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// One input linted incrementally: reader → ``SessionStream`` → linter, keeping what a report needs.
struct InputLint {
    enum Item {
        case output(ReaderOutput)
        case session(LaunchSession, [Finding])
    }

    private let name: String
    private let linter: Linter
    private var reader: LogStreamReader
    private var stream: SessionStream
    /// The closed sessions' outlines and findings, spooled past a few thousand (``LintRun/sessionsInMemory``).
    private var closed: ClosedSessionSpool
    private var diagnostics = DiagnosticSample()
    private var names = SessionListing.Names()
    private var unreported: [UnreportedHazard] = []

    /// `skipping`: whether the reader may skip, unbuilt, the records the session stream would drop
    /// unread (daemons by name, and its record filter), as the session pipeline's does; not when the
    /// caller wants every event (`outputs(of:named:)`).
    init(name: String, analyzer: LogAnalyzer, skipping: Bool) {
        self.name = name
        linter = analyzer.linter
        closed = ClosedSessionSpool(runLength: analyzer.sessionsInMemory, directory: nil)
        var inference = analyzer.options.timeInference
        inference.referenceInstant = inference.referenceInstant ?? analyzer.options.standardInputReferenceInstant
        stream = SessionStream(inputName: name, signatures: analyzer.linter.configuration.signatureTable(),
                               maximumOpenSessions: analyzer.maximumOpenSessions)
        let configuration = ReaderConfiguration(inputName: name, timeInference: inference, limits: analyzer.options.limits,
                                                skippedProcesses: skipping ? ProcessRole.namesWithoutLaunchLines : [],
                                                recordFilter: skipping ? stream.recordFilter : nil)
        reader = LogStreamReader(configuration: configuration, format: analyzer.options.format)
    }

    mutating func read(bytes: [UInt8], _ deliver: (Item) -> Void) throws(ReaderError) {
        var failure: ReaderError?
        bytes.withUnsafeBytes { buffer in
            do throws(ReaderError) { try read(buffer, deliver) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    mutating func read(_ chunk: UnsafeRawBufferPointer, _ deliver: (Item) -> Void) throws(ReaderError) {
        var closed: [LaunchSession] = []
        var outputs: [ReaderOutput] = []
        try reader.read(chunk) { output in
            outputs.append(output)
            if case .event(let event) = output { closed += stream.consume(event) }
        }
        for output in outputs {
            if case .diagnostic(let diagnostic) = output { diagnostics.add(diagnostic) }
            deliver(.output(output))
        }
        for session in closed { deliver(check(session)) }
    }

    mutating func finish(_ deliver: (Item) -> Void) throws(ReaderError) {
        var outputs: [ReaderOutput] = []
        var closed: [LaunchSession] = []
        try reader.finish { output in
            outputs.append(output)
            if case .event(let event) = output { closed += stream.consume(event) }
        }
        let end = stream.finish()
        closed += end.sessions
        for diagnostic in end.diagnostics { diagnostics.add(diagnostic) }
        for output in outputs {
            if case .diagnostic(let diagnostic) = output { diagnostics.add(diagnostic) }
            deliver(.output(output))
        }
        for diagnostic in end.diagnostics { deliver(.output(.diagnostic(diagnostic))) }
        for session in closed { deliver(check(session)) }
    }

    /// Checks a closed session, names it `app#n` by the order the app's sessions closed, and keeps its outline.
    private mutating func check(_ session: LaunchSession) -> Item {
        let id = names.next(for: session)
        let findings = linter.findings(in: [session], ids: [id])
        LintRun.add(linter.unreportedHazards(in: session, findings: findings), to: &unreported)
        closed.add(session, findings: findings, id: id)
        return .session(session, findings)
    }

    func report() -> LintReport {
        let statistics = reader.statistics
        let input = LintReport.Input(path: name, format: reader.format?.rawValue, events: statistics.events,
                                     diagnostics: statistics.diagnostics.values.reduce(0, +))
        // In time order, as every report lists sessions; ids stay those the findings were given (the order they closed).
        // (A copy: reading it back changes nothing, so the report may be asked for again.)
        let listing = ClosedSessionSpool.listing([closed], limit: .max, sessionsInMemory: closed.runLength, directory: nil)
        var notes = diagnostics.diagnostics + LintRun.diagnostics(of: unreported)
        if let failure = listing.failures.first {
            notes.append(ClosedSessionSpool.keptInMemoryDiagnostic(total: listing.total, failure: failure, input: name))
        }
        return LintReport(toolVersion: LogAnalyzer.libraryVersion, inputs: [input], sessions: listing.sessions,
                          sessionIDs: listing.ids, findings: listing.findings, diagnostics: notes,
                          prewarmDecisions: stream.decisions)
    }
}
