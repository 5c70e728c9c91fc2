import Foundation
public import PrewarmLintModel
import PrewarmLintReaders
import Synchronization
public import PrewarmLintClassifier
public import PrewarmLintSessions

/// Reads inputs and rebuilds their launch sessions.
///
/// The order of the stages, and why:
/// 1. read each input (`InputReader`), in the order given (`InputDiscovery` sorts them by path);
/// 2. classify its events — the classifier learns which pids and names are apps from earlier lines —
///    and keep only those that mean something for a launch (a small share of a device log);
/// 3. put them in time order before any session decision depends on it, and
/// 4. feed them to one `LaunchSessionBuilder`.
///
/// A single input is classified in input order and streams through a small reorder window
/// (`reorderWindow` events) straight into the builder, so memory stays bounded whatever its size.
/// Several inputs are one device's logs, however they were cut: they are merged by time *before*
/// they are classified, by one classifier, so what one input teaches (the pid of an app, the name of
/// its process) holds for the lines of the others, and one log cut in 3 or in 10,000 pieces gives the
/// sessions and findings of the whole. The same event seen in two inputs (same instant, pid, process
/// and message) is dropped before it is classified — two exports of one window must not make two
/// sessions. Up to ``maximumMergedStreams`` inputs are read at once, each through its own reorder
/// window into a bounded queue, and merged as they come; beyond, the events that may matter of all
/// inputs are collected (their messages cut at ``collectedMessageLimit`` bytes) and sorted.
public struct SessionPipeline: Sendable {
    /// Reads each input.
    public var reader: InputReader
    /// The templates the classifier knows: the built-in table, with a team's markers first
    /// (`LintConfiguration.signatureTable()`).
    public var signatures: SignatureTable
    /// Sessions open at once before the oldest is closed early (see `LaunchSessionBuilder`).
    public var maximumOpenSessions: Int
    /// Pids the classifier remembers as apps, per input (see `ProcessDirectory`).
    public var maximumRememberedPIDs: Int
    /// Inputs read at once (threads) by ``runSeparately(_:onDiagnostic:onSession:)`` and when more than
    /// ``maximumMergedStreams`` inputs are merged; up to that many merged inputs are always read together,
    /// a thread each. Output is the same for any value: results are put back in
    /// input order; diagnostics are then reported per input, in order, once all are read.
    public var jobs = 1
    /// Starts the pipeline's threads. When the system refuses one, the work it was for is done on the calling thread
    /// (a single input read without reading ahead, merged inputs collected and sorted), with the same result.
    package var threads = ThreadStarter()

    /// A pipeline; every limit has a default. The reader skips the events of daemons that never log
    /// about a launch (`ProcessRole.namesWithoutLaunchLines`): the classifier would drop them unread,
    /// so their messages are not even decoded; they are still counted in each input's summary.
    public init(reader: InputReader, signatures: SignatureTable = .builtIn, maximumOpenSessions: Int = 10_000,
                maximumRememberedPIDs: Int = ProcessDirectory.defaultCapacity) {
        var reader = reader
        reader.options.skippedProcesses.formUnion(ProcessRole.namesWithoutLaunchLines)
        self.reader = reader
        self.signatures = signatures
        self.maximumOpenSessions = maximumOpenSessions
        self.maximumRememberedPIDs = maximumRememberedPIDs
    }

    /// The result of a run.
    public struct Result: Sendable {
        /// The sessions, in time order.
        public var sessions: [LaunchSession] = []
        /// One summary per input, in input order.
        public var summaries: [InputSummary] = []
        /// Every diagnostic, input by input.
        public var diagnostics: [ReaderDiagnostic] = []
        /// Events dropped because another input had the same one.
        public var duplicateEvents = 0
        /// Sessions closed early because more than ``SessionPipeline/maximumOpenSessions`` were open.
        public var sessionsClosedEarly = 0
        /// The prewarm decisions dasd's lines state, input by input.
        public var decisions: [PrewarmDecision] = []
        /// Set when inputs merged as one device's logs hold two live processes of one app at once (a pid of
        /// one input comes back after another input's pid of the same app): they cannot be one device's
        /// logs, but separate captures (runs of one app logged apart, dates inferred alike).
        public var separateCaptures: SeparateCaptures?

        /// An empty result.
        public init() {}

        /// Adds `other`, the result of later inputs read apart from these: its sessions, summaries, diagnostics and
        /// decisions after this one's, its counts to this one's.
        public mutating func append(_ other: Result) {
            sessions += other.sessions
            summaries += other.summaries
            diagnostics += other.diagnostics
            duplicateEvents += other.duplicateEvents
            sessionsClosedEarly += other.sessionsClosedEarly
            decisions += other.decisions
        }
    }

    /// How many launch-relevant events a single input may hold back to put out-of-order lines in order.
    public static let reorderWindow = 512

    /// Runs the pipeline on each input alone (a folder of unrelated logs), results in input order.
    public func runSeparately(_ inputs: [DiscoveredInput], onDiagnostic: (ReaderDiagnostic) -> Void = { _ in },
                              onSession: (LaunchSession) -> LaunchSession? = { $0 }) -> Result {
        var result = Result()
        for input in inputs {
            result.append(run([input], onDiagnostic: onDiagnostic, onSession: onSession))
        }
        return result
    }

    /// Runs the pipeline. `onDiagnostic` sees each reader diagnostic as it happens; `onSession` each
    /// session as it closes, and returns what to keep of it (nil: nothing) — a caller that checks
    /// sessions as they close (``LintRun``) keeps only their outline, so memory follows the open
    /// sessions, not the log.
    public func run(_ inputs: [DiscoveredInput], onDiagnostic: (ReaderDiagnostic) -> Void = { _ in },
                    onSession: (LaunchSession) -> LaunchSession? = { $0 }) -> Result {
        if inputs.isEmpty { return Result() }
        if inputs.count == 1 { return runStreaming(inputs[0], onDiagnostic: onDiagnostic, onSession: onSession) }
        if inputs.count <= maximumMergedStreams, let result = runMerging(inputs, onDiagnostic: onDiagnostic, onSession: onSession) {
            return result
        }
        return runCollecting(inputs, onDiagnostic: onDiagnostic, onSession: onSession)
    }

    /// Several inputs as one device's logs, collected: each input is read on its own (several at once, up to
    /// ``jobs``), what may matter is kept, then merged in time order and classified by one classifier. Beyond
    /// ``maximumMergedStreams`` inputs, and when the system refuses the threads of ``runMerging(_:onDiagnostic:onSession:)``.
    private func runCollecting(_ inputs: [DiscoveredInput], onDiagnostic: (ReaderDiagnostic) -> Void,
                               onSession: (LaunchSession) -> LaunchSession?) -> Result {
        var result = Result()
        var kept: [(event: LogEvent, input: Int)] = []
        // Each input is read on its own, several at once, and what may matter is kept; then merged in time
        // order and classified by one classifier, so any number of threads gives the same.
        let pipeline = self
        let reads = InputParallelism.map(count: inputs.count, jobs: jobs, threads: threads,
                                         sizes: InputParallelism.sizes(of: inputs)) { index -> (Result, [LogEvent]) in
            var one = Result()
            var events: [LogEvent] = []
            pipeline.readForMerge(inputs[index], into: &one) { event in
                var compact = event
                compact.message = Self.collectedMessage(event.message)
                events.append(compact)
            }
            return (one, events)
        }
        for (index, (one, events)) in reads.enumerated() {
            for diagnostic in one.diagnostics { onDiagnostic(diagnostic) }
            result.diagnostics += one.diagnostics
            result.summaries += one.summaries
            kept += events.map { ($0, index) }
        }
        // Stable sort by time, then input order, then position in the input.
        kept.sort { lhs, rhs in
            let a = lhs.event, b = rhs.event
            if a.timestamp.microsecondsSinceEpoch != b.timestamp.microsecondsSinceEpoch {
                return a.timestamp.microsecondsSinceEpoch < b.timestamp.microsecondsSinceEpoch
            }
            if lhs.input != rhs.input { return lhs.input < rhs.input }
            return a.origin.byteOffset < b.origin.byteOffset
        }
        var merged = MergedSessionBuilder(pipeline: self, inputName: inputs[0].input.name, inputNames: inputs.map(\.input.name))
        for (event, input) in kept {
            result.sessions += merged.consume(event, from: input).compactMap(onSession)
        }
        merged.finish(into: &result, onDiagnostic: onDiagnostic, onSession: onSession)
        Self.sortSessions(&result.sessions)
        return result
    }

    /// How much of a message the merge of more than ``maximumMergedStreams`` inputs keeps while it
    /// collects them: what classification reads (an RBS descriptor's attributes are within it).
    public static let collectedMessageLimit = 4096

    static func collectedMessage(_ message: String) -> String {
        message.utf8.count <= collectedMessageLimit ? message : String(decoding: message.utf8.prefix(collectedMessageLimit), as: UTF8.self)
    }

    /// Whether each input's reader is told which text records the classifier would drop unread, so
    /// that it skips them without building them (`RecordFilter`; on by default). The results are
    /// the same either way (but for the summaries' `eventsSkipped`): the tests compare them.
    public var filtersRecords = true

    /// Whether reading merged inputs stops as soon as they show they are separate captures (one app's two
    /// processes alive at once, ``Result/separateCaptures``): for a caller that then reads each input on its own
    /// and discards the merged result, which would be read to the end for nothing. The result is then partial:
    /// only `separateCaptures` is meant to be used.
    public var stopsAtSeparateCaptures = false

    /// Inputs merged as one device's logs are streamed when there are at most this many (a thread each);
    /// beyond, their launch-relevant events are collected and sorted. Both give the same sessions.
    public var maximumMergedStreams = 32

    /// Several inputs as one device's logs, streamed: each input is read and classified on a thread of its
    /// own, put in time order through a reorder window, and handed over in batches through a small bounded
    /// queue; this thread merges the streams by (time, input, position) — the order a sort of everything
    /// would give — drops the events two inputs share, and builds the sessions. Memory follows the open
    /// sessions and the queues, not the inputs' lengths.
    /// Nil when the system refuses one of the threads: the threads started are stopped, and nothing was handed on.
    private func runMerging(_ inputs: [DiscoveredInput], onDiagnostic: (ReaderDiagnostic) -> Void,
                            onSession: (LaunchSession) -> LaunchSession?) -> Result? {
        // A flag of this merge's own (raised by Ctrl-C too): it stops the reading threads once the inputs show they
        // are separate captures, when the caller asked for that.
        let stop = Interruption(parent: reader.options.interruption)
        var stoppable = self
        stoppable.reader.options.interruption = stop
        let pipeline = stoppable
        let queues = inputs.map { _ in BatchQueue<MovedRun<LogEvent>>(capacity: 4) }
        let outcomes = inputs.map { _ in InputOutcome() }
        for (index, input) in inputs.enumerated() {
            let queue = queues[index], outcome = outcomes[index]
            let started = threads.startDetached {
                var one = Result()
                var window = ReorderWindow<LogEvent>(size: Self.reorderWindow)
                // Moved out by the merge, not copied.
                var batch = MovedRun<LogEvent>(capacity: Self.batchSize)
                // Handed over at 256 events, or sooner once their messages hold 1 MiB (messages may be 4 MiB long).
                var batchBytes = 0
                func release(_ event: consuming LogEvent) {
                    batchBytes += event.messageBytes
                    batch.append(event)
                    if batch.isFull || batchBytes >= Self.readAheadBatchBytes {
                        queue.push(batch)
                        batch = MovedRun<LogEvent>(capacity: Self.batchSize)
                        batchBytes = 0
                    }
                }
                pipeline.readForMerge(input, into: &one) { event in window.insert(event, release: release) }
                window.drain(release)
                if batch.count > 0 { queue.push(batch) }
                outcome.result = one
                queue.push(nil)
            }
            if !started {
                // Stopped at their next chunk; their queues emptied so that none waits to push.
                stop.raise()
                for earlier in 0..<index { while queues[earlier].pop() != nil {} }
                return nil
            }
        }

        var result = Result()
        var merged = MergedSessionBuilder(pipeline: self, inputName: inputs[0].input.name, inputNames: inputs.map(\.input.name))
        // Each input's current batch (never empty: a thread hands over only batches that hold events).
        var heads: [MovedRun<LogEvent>?] = queues.map { $0.pop() }
        while true {
            // The earliest head; on a tie the first input's, as a stable sort by input would give.
            var chosen: Int?
            var earliest = Int64.max
            for input in heads.indices {
                guard let instant = heads[input]?.peekFirst({ $0.timestamp.microsecondsSinceEpoch }) else { continue }
                if chosen == nil || instant < earliest {
                    chosen = input
                    earliest = instant
                }
            }
            guard let input = chosen, let head = heads[input], let event = head.takeFirst() else { break }
            if head.isExhausted { heads[input] = queues[input].pop() }
            result.sessions += merged.consume(event, from: input).compactMap(onSession)
            if stopsAtSeparateCaptures, let captures = merged.separateCaptures {
                // Not one device's logs: the caller reads each input on its own. The readers stop at their next
                // chunk; their queues are emptied so that none waits to push.
                stop.raise()
                for index in heads.indices where heads[index] != nil {
                    while queues[index].pop() != nil {}
                }
                result.separateCaptures = captures
                break
            }
        }
        // Every input's thread has ended (its queue said so): their summaries and diagnostics, in input order.
        for outcome in outcomes {
            guard let one = outcome.result else { continue }
            // Stopped early, the readers were cut short on purpose: only how far they read is kept (what they would
            // say of a cut line is not true of the input, which the caller reads again).
            if result.separateCaptures != nil {
                result.summaries += one.summaries
                continue
            }
            for diagnostic in one.diagnostics { onDiagnostic(diagnostic) }
            result.diagnostics += one.diagnostics
            result.summaries += one.summaries
        }
        if result.separateCaptures != nil { return result }  // stopped early: the caller reads the inputs again
        merged.finish(into: &result, onDiagnostic: onDiagnostic, onSession: onSession)
        Self.sortSessions(&result.sessions)
        return result
    }

    /// Launch-relevant events handed from a reading thread to the merge at a time.
    static let batchSize = 256

    /// One input's summary, diagnostics and decisions, written by its thread before it closes its queue.
    private final class InputOutcome: @unchecked Sendable {
        var result: Result?
    }

    /// One input, streamed through a ``SessionStream``.
    private func runStreaming(_ input: DiscoveredInput, onDiagnostic: (ReaderDiagnostic) -> Void,
                              onSession: (LaunchSession) -> LaunchSession?) -> Result {
        if jobs > 1, Self.isRegularFile(input.input, ofAtLeast: readAheadMinimumBytes),
           let result = runReadingAhead(input, onDiagnostic: onDiagnostic, onSession: onSession) {
            return result
        }
        var result = Result()
        var stream = SessionStream(inputName: input.input.name, signatures: signatures, maximumOpenSessions: maximumOpenSessions,
                                   maximumRememberedPIDs: maximumRememberedPIDs)
        var sessions: [LaunchSession] = []
        var diagnostics = DiagnosticSample()
        let summary = reader.read(input.input, foundInDirectory: input.foundInDirectory, recordFilter: filtersRecords ? stream.recordFilter : nil) { output in
            switch output {
            case .event(let event):
                sessions += stream.consume(event).compactMap(onSession)
            case .diagnostic(let diagnostic):
                diagnostics.add(diagnostic)
                onDiagnostic(diagnostic)
            }
        }
        let endDiagnostics = stream.finish { session in
            if let kept = onSession(session) { sessions.append(kept) }
        }
        for diagnostic in endDiagnostics { onDiagnostic(diagnostic) }
        result.sessions = sessions
        result.diagnostics = diagnostics.diagnostics + endDiagnostics
        result.summaries = [summary]
        result.sessionsClosedEarly = stream.closedEarly
        result.decisions = stream.decisions
        Self.sortSessions(&result.sessions)
        return result
    }

    /// With more than one of ``jobs``, a single input of at least this many bytes (a regular file) is read and
    /// classified on a thread of its own, a few batches ahead of this thread, which builds and hands on its
    /// sessions (``run(_:onDiagnostic:onSession:)``): the two stages overlap on two cores. The result, and the order
    /// in which `onSession` and `onDiagnostic` see sessions and diagnostics, are the same as on one thread.
    /// Standard input and pipes are read on the calling thread, so that their diagnostics are seen as they come.
    public var readAheadMinimumBytes = 1 << 20

    /// Whether `input` is a regular file of at least `minimum` bytes (a `.gz` counts compressed).
    static func isRegularFile(_ input: LogInput, ofAtLeast minimum: Int) -> Bool {
        input.regularFileSize.map { $0 >= minimum } ?? false
    }

    /// What a single input's read-ahead thread hands over at a time: classified events in input order, and the
    /// reader's diagnostics, each with the number of events of the batch that came before it.
    private struct ReadAheadBatch: Sendable {
        /// Moved in by the reading thread, moved out by the building thread: never copied.
        var events = MovedRun<ClassifiedEvent>(capacity: SessionPipeline.batchSize)
        var diagnostics: [(eventsBefore: Int, diagnostic: ReaderDiagnostic)] = []
    }

    /// The message bytes past which a batch (of a read-ahead thread, or of a merged input's) is handed over before it
    /// holds ``batchSize`` events.
    static let readAheadBatchBytes = 1 << 20

    /// What the read-ahead thread knows at the end of its input, written before it ends its queue.
    private final class ReadAheadOutcome: @unchecked Sendable {
        var summary: InputSummary?
        var decisions: [PrewarmDecision] = []
        var diagnostics: [ReaderDiagnostic] = []
    }

    /// ``runStreaming(_:onDiagnostic:onSession:)`` on two threads: a thread of its own reads the input and classifies
    /// its events (the record filter follows the classifier there, line by line, as on one thread); this thread puts
    /// them in time order, builds the sessions, hands them to `onSession`, and the diagnostics to `onDiagnostic`, in
    /// the order they came. The stages meet only in a queue of a few batches, so memory stays bounded, and the
    /// builder sees the events in the same order as on one thread: the same sessions, in the same order.
    /// Nil when the system refuses the thread: nothing was read, and the caller reads on one thread.
    private func runReadingAhead(_ input: DiscoveredInput, onDiagnostic: (ReaderDiagnostic) -> Void,
                                 onSession: (LaunchSession) -> LaunchSession?) -> Result? {
        let queue = BatchQueue<ReadAheadBatch>(capacity: 4)
        let outcome = ReadAheadOutcome()
        let pipeline = self
        let started = threads.startDetached {
            var classifier = InputClassifier(inputName: input.input.name, signatures: pipeline.signatures,
                                             maximumRememberedPIDs: pipeline.maximumRememberedPIDs)
            let filter = pipeline.filtersRecords ? classifier.recordFilter : nil
            var batch = ReadAheadBatch()
            // Messages may be long (up to the message limit): a batch is also handed over once its messages hold
            // ``readAheadBatchBytes``, so that the queue's memory is bounded in bytes, not only in events.
            var batchBytes = 0
            let summary = pipeline.reader.read(input.input, foundInDirectory: input.foundInDirectory, recordFilter: filter,
                                               scanningAheadWith: pipeline.threads) { output in
                switch output {
                case .event(let event):
                    guard let classified = classifier.classify(event) else { return }
                    batchBytes += classified.messageBytes
                    batch.events.append(classified)
                    guard batch.events.isFull || batchBytes >= Self.readAheadBatchBytes else { return }
                case .diagnostic(let diagnostic):
                    batch.diagnostics.append((batch.events.count, diagnostic))
                    guard batch.diagnostics.count == Self.batchSize else { return }
                }
                queue.push(batch)
                batch = ReadAheadBatch()
                batchBytes = 0
            }
            if batch.events.count > 0 || !batch.diagnostics.isEmpty { queue.push(batch) }
            outcome.summary = summary
            outcome.decisions = classifier.decisions
            outcome.diagnostics = classifier.finish()
            queue.push(nil)
        }
        guard started else { return nil }

        var assembly = SessionAssembly(maximumOpenSessions: maximumOpenSessions)
        var sessions: [LaunchSession] = []
        var diagnostics = DiagnosticSample()
        while let batch = queue.pop() {
            // Each event is moved out of the batch, not copied (a copy retains each of its strings).
            for (eventsBefore, diagnostic) in batch.diagnostics {
                while batch.events.taken < eventsBefore, let event = batch.events.takeFirst() {
                    sessions += assembly.consume(event).compactMap(onSession)
                }
                diagnostics.add(diagnostic)
                onDiagnostic(diagnostic)
            }
            while let event = batch.events.takeFirst() { sessions += assembly.consume(event).compactMap(onSession) }
        }
        // The queue has ended: the thread has written its outcome.
        assembly.finish { session in
            if let kept = onSession(session) { sessions.append(kept) }
        }
        let endDiagnostics = outcome.diagnostics + assembly.diagnostics(input: input.input.name)
        for diagnostic in endDiagnostics { onDiagnostic(diagnostic) }
        var result = Result()
        result.sessions = sessions
        result.diagnostics = diagnostics.diagnostics + endDiagnostics
        result.summaries = [outcome.summary!]
        result.sessionsClosedEarly = assembly.closedEarly
        result.decisions = outcome.decisions
        Self.sortSessions(&result.sessions)
        return result
    }

    /// Reads one input of several merged as one device's logs: hands on every event that may matter once
    /// all inputs are known (`LaunchLineFilter` not following a classifier); diagnostics go to the result.
    private func readForMerge(_ input: DiscoveredInput, into result: inout Result, _ body: (LogEvent) -> Void) {
        var diagnostics = DiagnosticSample()
        let filter = filtersRecords ? LaunchLineFilter(table: signatures, followsClassifier: false) : nil
        let summary = reader.read(input.input, foundInDirectory: input.foundInDirectory, recordFilter: filter) { output in
            switch output {
            case .event(let event):
                body(event)
            case .diagnostic(let diagnostic):
                diagnostics.add(diagnostic)
            }
        }
        result.diagnostics += diagnostics.diagnostics
        result.summaries.append(summary)
    }

    static func sortSessions(_ sessions: inout [LaunchSession]) {
        SessionListing.sort(&sessions) { $0 }
    }


    /// What makes two events from two inputs the same event: process and message at the same
    /// instant, and the same pid when both inputs have one (a Console copy may lack the column).
    struct EventKey: Equatable {
        var pid: Int?
        var process: String
        var message: String
        init(_ event: LogEvent) {
            pid = event.pid
            process = event.process
            message = event.message
        }

        static func == (lhs: EventKey, rhs: EventKey) -> Bool {
            if let a = lhs.pid, let b = rhs.pid, a != b { return false }
            return lhs.process == rhs.process && lhs.message == rhs.message
        }
    }
}

/// What showed that merged inputs are separate captures: one app's two processes alive at once.
public struct SeparateCaptures: Sendable, Hashable {
    /// The app.
    public var app: String
    /// The two pids, as they came.
    public var pids: [Int]
    /// The inputs that hold them.
    public var inputs: [String]
}

/// The classifier and session builder of several inputs merged in time order, as one device's log: an
/// event another input already gave at the same instant (same pid, process and message) is counted as a
/// duplicate and dropped before it is classified; the rest go through one classifier, so what one input
/// teaches holds for all.
private struct MergedSessionBuilder {
    private var classifier: InputClassifier
    private var builder: LaunchSessionBuilder
    private var previousInstant: Int64?
    /// The events of the current instant: their input, key, and whether they meant something for a launch.
    private var seenAtInstant: [(input: Int, key: SessionPipeline.EventKey, relevant: Bool)] = []
    private var duplicates = 0
    /// Per app, the last pids seen (at most four) with their inputs: a pid coming back after another input's
    /// pid of the same app means two live processes at once.
    private var recentPIDs: [String: [(pid: Int, input: Int)]] = [:]
    private var inputNames: [String] = []
    private(set) var separateCaptures: SeparateCaptures?

    init(pipeline: SessionPipeline, inputName: String, inputNames: [String] = []) {
        self.inputNames = inputNames
        classifier = InputClassifier(inputName: inputName, signatures: pipeline.signatures, maximumRememberedPIDs: pipeline.maximumRememberedPIDs)
        builder = LaunchSessionBuilder(maximumOpenSessions: pipeline.maximumOpenSessions)
    }

    /// The sessions the event closed (none when it is a duplicate or means nothing for a launch).
    mutating func consume(_ event: LogEvent, from input: Int) -> [LaunchSession] {
        if event.timestamp.microsecondsSinceEpoch != previousInstant {
            previousInstant = event.timestamp.microsecondsSinceEpoch
            seenAtInstant.removeAll(keepingCapacity: true)
        }
        let key = SessionPipeline.EventKey(event)
        if let seen = seenAtInstant.first(where: { $0.input != input && $0.key == key }) {
            // Counted when it is a launch line, as the readers' filters differ in what else they hand on.
            if seen.relevant { duplicates += 1 }
            return []
        }
        let classified = classifier.classify(event)
        seenAtInstant.append((input, key, classified != nil))
        guard let classified else { return [] }
        if separateCaptures == nil, let subject = classified.subject, let pid = subject.pid, let app = subject.bundleID {
            noteProcess(app: app, pid: pid, input: input)
        }
        return builder.consume(classified)
    }

    private mutating func noteProcess(app: String, pid: Int, input: Int) {
        var recent = recentPIDs[app, default: []]
        if let last = recent.last, last.pid != pid, last.input != input,
           let earlier = recent.dropLast().last(where: { $0.pid == pid }), earlier.input != last.input {
            separateCaptures = SeparateCaptures(app: app, pids: [pid, last.pid],
                                                inputs: [input, last.input].map { $0 < inputNames.count ? inputNames[$0] : "input \($0 + 1)" })
        }
        recent.removeAll { $0.pid == pid }
        recent.append((pid, input))
        if recent.count > 4 { recent.removeFirst() }
        recentPIDs[app] = recent
    }

    /// Closes the sessions still open and records the counts, decisions and diagnostics in `result`.
    mutating func finish(into result: inout SessionPipeline.Result, onDiagnostic: (ReaderDiagnostic) -> Void,
                         onSession: (LaunchSession) -> LaunchSession?) {
        builder.finish { session in
            if let kept = onSession(session) { result.sessions.append(kept) }
        }
        result.sessionsClosedEarly = builder.closedEarly
        result.duplicateEvents = duplicates
        result.separateCaptures = separateCaptures
        result.decisions += classifier.decisions
        for diagnostic in classifier.finish() + [builder.keptBytesDiagnostic(input: result.summaries.first?.input ?? "-")].compactMap({ $0 }) {
            onDiagnostic(diagnostic)
            result.diagnostics.append(diagnostic)
        }
    }
}
