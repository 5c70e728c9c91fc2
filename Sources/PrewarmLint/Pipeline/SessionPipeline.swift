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
        let plan = plan(inputs)
        var result = Result()
        for index in inputs.indices { result.append(run(plan.input(index), onDiagnostic: onDiagnostic, onSession: onSession)) }
        return result
    }

    /// The plan of `inputs` this pipeline reads (``InputPlan``): pasted documents among up to ``maximumMergedStreams``
    /// inputs cut into their parts, standard input's head read to tell.
    package func plan(_ inputs: [DiscoveredInput]) -> InputPlan {
        InputPlan(inputs, options: reader.options, cutsDocumentsUpTo: maximumMergedStreams)
    }

    /// Runs the pipeline. `onDiagnostic` sees each reader diagnostic as it happens; `onSession` each
    /// session as it closes, and returns what to keep of it (nil: nothing) — a caller that checks
    /// sessions as they close (``LintRun``) keeps only their outline, so memory follows the open
    /// sessions, not the log.
    public func run(_ inputs: [DiscoveredInput], onDiagnostic: (ReaderDiagnostic) -> Void = { _ in },
                    onSession: (LaunchSession) -> LaunchSession? = { $0 }) -> Result {
        if inputs.isEmpty { return Result() }
        return run(plan(inputs), onDiagnostic: onDiagnostic, onSession: onSession)
    }

    /// Runs the pipeline on `plan`'s sources.
    ///
    /// One path whatever the sources: each is read through the gate, its events are handed to the builder's thread in
    /// order (at once, through a reading thread's queue, or collected and sorted), classified as read (one source) or
    /// once merged (several: the parts of a pasted document too), and built into sessions, which are handed on as they
    /// close.
    package func run(_ plan: InputPlan, onDiagnostic: (ReaderDiagnostic) -> Void = { _ in },
                     onSession: (LaunchSession) -> LaunchSession? = { $0 }) -> Result {
        if plan.sources.isEmpty { return Result() }
        var pipeline = self
        pipeline.reader.standardInputHead = plan.standardInputHead
        pipeline.reader.sniffedFormats = plan.sniffedFormats
        var arrangement = pipeline.arrangement(for: plan)
        while true {
            let delivered = switch arrangement.classification {
            case .asRead: pipeline.runClassifyingAsRead(plan.sources[0].input, handoff: arrangement.handoff, onDiagnostic: onDiagnostic, onSession: onSession)
            case .afterMerge: pipeline.runMerged(plan, handoff: arrangement.handoff, onDiagnostic: onDiagnostic, onSession: onSession)
            }
            if var result = delivered {
                Self.sortSessions(&result.sessions)
                return result
            }
            // The system refused a thread: nothing was handed on, and the inputs are read again on fewer threads.
            arrangement.handoff = arrangement.fallback
        }
    }

    /// Runs the pipeline on `plan` read apart, when its sources turned out to be separate captures: each input on its
    /// own, a lone pasted document each part on its own (``InputPlan/apart``); summed up as the inputs they are.
    package func runApart(_ plan: InputPlan, onDiagnostic: (ReaderDiagnostic) -> Void = { _ in },
                          onSession: (LaunchSession) -> LaunchSession? = { $0 }) -> Result {
        // (A pasted document read alone merges its blocks to the end: a run reading sources apart is not stopped.)
        var alone = self
        alone.stopsAtSeparateCaptures = false
        var result = Result()
        for one in plan.apart { result.append(alone.run(one, onDiagnostic: onDiagnostic, onSession: onSession)) }
        result.summaries = plan.summaries(ofApart: result.summaries)
        return result
    }

    /// How a run's inputs reach the session builder: settings of the one pipeline, chosen from the inputs, their
    /// sizes and ``SessionPipeline/jobs`` (``arrangement(for:)``). Every arrangement gives the same sessions.
    struct Arrangement: Equatable {
        /// Where events are classified.
        enum Classification: Equatable {
            /// As the one input is read: the gate follows the input's classifier, line by line.
            case asRead
            /// After the inputs are merged by time, as one device's logs, by one classifier (what one input teaches
            /// holds for the others); the gate judges as for merged inputs.
            case afterMerge
        }

        /// How each source's events reach the builder's thread.
        enum Handoff: Equatable {
            /// Read on the builder's thread, each event handed on as it is read.
            case sameThread
            /// Each input read on a thread of its own, a few batches ahead, through a bounded queue; several inputs
            /// merged by (time, input, position) as they come.
            case readingThreads
            /// Each input read on its own (up to ``SessionPipeline/jobs`` at once), its events collected, then
            /// sorted by (time, input, position): for more inputs than threads to merge them
            /// (``SessionPipeline/maximumMergedStreams``), or when the system refuses those threads.
            case collected
        }

        var classification: Classification
        var handoff: Handoff

        /// What to do instead when the system refuses a thread.
        var fallback: Handoff {
            classification == .asRead ? .sameThread : .collected
        }
    }

    /// The arrangement for `plan`: one source that is a whole input is classified as it is read; several (or a part of
    /// a pasted document) after they are merged.
    func arrangement(for plan: InputPlan) -> Arrangement {
        guard plan.sources.count == 1, plan.sources[0].part == nil else {
            return Arrangement(classification: .afterMerge, handoff: plan.sources.count <= maximumMergedStreams ? .readingThreads : .collected)
        }
        let readsAhead = jobs > 1 && Self.isRegularFile(plan.sources[0].input.input, ofAtLeast: readAheadMinimumBytes)
        return Arrangement(classification: .asRead, handoff: readsAhead ? .readingThreads : .sameThread)
    }

    /// How much of a message the merge of more than ``maximumMergedStreams`` inputs keeps while it
    /// collects them: what classification reads (an RBS descriptor's attributes are within it).
    public static let collectedMessageLimit = 4096

    static func collectedMessage(_ message: String) -> String {
        message.utf8.count <= collectedMessageLimit ? message : String(decoding: message.utf8.prefix(collectedMessageLimit), as: UTF8.self)
    }

    /// Whether each input's reader is told which text records the classifier would drop unread, so
    /// that it skips them without building them (`LaunchLineGate`; on by default). The results are
    /// the same either way (but for the summaries' `eventsSkipped`): the tests compare them.
    public var filtersRecords = true

    /// Whether reading merged inputs stops as soon as they show they are separate captures (one app's two
    /// processes alive at once, ``Result/separateCaptures``): for a caller that then reads each input on its own
    /// and discards the merged result, which would be read to the end for nothing. The result is then partial:
    /// only `separateCaptures` and the summaries are meant to be used.
    public var stopsAtSeparateCaptures = false

    /// Inputs merged as one device's logs are streamed when there are at most this many (a thread each);
    /// beyond, their launch-relevant events are collected and sorted. Both give the same sessions.
    public var maximumMergedStreams = 32

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

    /// Launch-relevant events (or reader diagnostics) handed from a reading thread to the builder's at a time.
    static let batchSize = 256

    /// The message bytes past which a batch is handed over before it holds ``batchSize`` items.
    static let readAheadBatchBytes = 1 << 20

    // MARK: - The stages

    /// What a source knows at the end of its input: its summary, and what its classifier (when it has one) says then.
    struct SourceOutcome: Sendable {
        var summary: InputSummary
        var diagnostics: [ReaderDiagnostic] = []
        var decisions: [PrewarmDecision] = []
        var classifierDiagnostics: [ReaderDiagnostic] = []
    }

    /// One input classified as it is read, its events put in time order (``SessionAssembly``) and built into sessions:
    /// ``SessionStream``'s stages, the reading side on a thread of its own with ``Arrangement/Handoff/readingThreads``.
    /// Nil when the system refuses the thread.
    private func runClassifyingAsRead(_ input: DiscoveredInput, handoff: Arrangement.Handoff, onDiagnostic: (ReaderDiagnostic) -> Void,
                                      onSession: (LaunchSession) -> LaunchSession?) -> Result? {
        withoutActuallyEscaping(onDiagnostic) { onDiagnostic in
            withoutActuallyEscaping(onSession) { onSession in
                var builder = AssemblingConsumer(assembly: SessionAssembly(maximumOpenSessions: maximumOpenSessions),
                                                 onDiagnostic: onDiagnostic, onSession: onSession)
                guard let outcome = deliver([ClassifyingSource(input: input)], handoff: handoff, to: &builder)?.first else { return nil }
                let endDiagnostics = builder.finish(after: outcome)
                var result = Result()
                result.sessions = builder.sessions
                result.diagnostics = builder.diagnostics.diagnostics + endDiagnostics
                result.summaries = [outcome.summary]
                result.sessionsClosedEarly = builder.assembly.closedEarly
                result.decisions = outcome.decisions
                return result
            }
        }
    }

    /// Several sources as one device's logs: each read through a gate that judges for merged inputs, put in time order
    /// (through a reorder window as it is read, or by the sort of everything collected), merged by (time, source,
    /// position), the events two sources share dropped, and classified and built by one ``MergedSessionBuilder``.
    /// Memory follows the open sessions and the queues, not the inputs' lengths, but when collected. The reader
    /// diagnostics are handed to `onDiagnostic` source by source, once all are read (unless the sources turned out to be
    /// separate captures and ``stopsAtSeparateCaptures``). The parts of a pasted document are sources of their own,
    /// summed into its one summary (``InputPlan/summaries(from:)``). Nil when the system refuses a thread.
    private func runMerged(_ plan: InputPlan, handoff: Arrangement.Handoff,
                           onDiagnostic: (ReaderDiagnostic) -> Void, onSession: (LaunchSession) -> LaunchSession?) -> Result? {
        withoutActuallyEscaping(onSession) { onSession in
            let windowed = handoff != .collected, compacted = handoff == .collected
            let sources = plan.sources.map { MergedSource(input: $0.input, part: $0.part, windowed: windowed, compacted: compacted) }
            var merging = MergingConsumer(merged: MergedSessionBuilder(pipeline: self, inputName: plan.inputs[0].input.name,
                                                                       inputNames: plan.sources.map(\.name)),
                                          stopsAtSeparateCaptures: stopsAtSeparateCaptures, onSession: onSession)
            guard let outcomes = deliver(sources, sizes: plan.sourceSizes, handoff: handoff, to: &merging) else { return nil }
            var result = Result()
            result.sessions = merging.sessions
            var merged = merging.merged
            if stopsAtSeparateCaptures, let captures = merged.separateCaptures {
                // Not one device's logs: the caller reads each input on its own. The readers were cut short on purpose:
                // only how far they read is kept (what they would say of a cut line is not true of the input).
                result.summaries = plan.summaries(from: outcomes.map(\.summary))
                result.separateCaptures = captures
                return result
            }
            for outcome in outcomes {
                for diagnostic in outcome.diagnostics { onDiagnostic(diagnostic) }
                result.diagnostics += outcome.diagnostics
            }
            result.summaries = plan.summaries(from: outcomes.map(\.summary))
            merged.finish(into: &result, onDiagnostic: onDiagnostic, onSession: onSession)
            return result
        }
    }

    /// Reads `sources` and hands their items to `consumer` on this thread, with each source's index: one source's in
    /// its order, several merged by (instant, source, then each source's order) — the order a stable sort of everything
    /// by instant and source gives. A source notes the diagnostics meant to be seen in their place among its items
    /// (the consumer sees them there; collected, a source's notes come before every item). When `consumer` says to
    /// stop, the sources stop at their next chunk and nothing more is consumed. `sizes` (one per source) start the
    /// largest first when they are collected. The sources' outcomes, in source order; nil when the system refuses a
    /// thread (nothing was consumed then).
    ///
    /// Sources, sinks and consumers are generic values, not closures, and an item is an event, never an enum of an
    /// event or a diagnostic: through a closure of a generic type, or bound out of an enum, each event would be copied
    /// (its strings retained and released) on its way to the builder.
    private func deliver<Source: EventSource, Consumer: EventConsumer>(
        _ sources: [Source], sizes: [Int]? = nil, handoff: Arrangement.Handoff, to consumer: inout Consumer
    ) -> [SourceOutcome]? where Consumer.Item == Source.Item {
        switch handoff {
        case .sameThread:
            precondition(sources.count == 1, "several sources are merged on reading threads or collected")
            var sink = ConsumingSink(consumer: consumer)
            let outcome = sources[0].read(with: self, handoff: handoff, into: &sink)
            consumer = sink.consumer
            return [outcome]
        case .collected:
            let pipeline = self
            let reads = InputParallelism.map(count: sources.count, jobs: jobs, threads: threads, sizes: sizes) { index in
                var sink = CollectingSink<Source.Item>()
                let outcome = sources[index].read(with: pipeline, handoff: handoff, into: &sink)
                return (outcome, sink)
            }
            var all: [(item: Source.Item, source: Int)] = []
            for (index, (_, sink)) in reads.enumerated() {
                sink.notes.forEach { consumer.note($0) }
                all += sink.items.map { ($0, index) }
            }
            // Stable: by instant, then source, then the source's own order.
            all = all.enumerated().sorted { lhs, rhs in
                let a = lhs.element, b = rhs.element
                if a.item.orderingInstant != b.item.orderingInstant { return a.item.orderingInstant < b.item.orderingInstant }
                if a.source != b.source { return a.source < b.source }
                return lhs.offset < rhs.offset
            }.map(\.element)
            for (item, source) in all {
                guard consumer.consume(item, from: source) else { break }
            }
            return reads.map(\.0)
        case .readingThreads:
            return deliverFromThreads(sources, to: &consumer)
        }
    }

    /// ``deliver(_:sizes:handoff:to:)`` with a thread reading each source, a few batches ahead, into a bounded queue of
    /// its own.
    private func deliverFromThreads<Source: EventSource, Consumer: EventConsumer>(
        _ sources: [Source], to consumer: inout Consumer
    ) -> [SourceOutcome]? where Consumer.Item == Source.Item {
        // A flag of this delivery's own (raised by Ctrl-C too): it stops the reading threads when the consumer says so.
        let stop = Interruption(parent: reader.options.interruption)
        var stoppable = self
        stoppable.reader.options.interruption = stop
        let pipeline = stoppable
        let queues = sources.map { _ in BatchQueue<Batch<Source.Item>>(capacity: 4) }
        let outcomes = sources.map { _ in SourceOutcomeSlot() }
        for index in sources.indices {
            let queue = queues[index], slot = outcomes[index], source = sources[index]
            let started = threads.startDetached {
                var sink = BatchingSink<Source.Item>(queue: queue)
                slot.outcome = source.read(with: pipeline, handoff: .readingThreads, into: &sink)
                sink.end()
            }
            if !started {
                // Stopped at their next chunk; their queues emptied so that none waits to push.
                stop.raise()
                for earlier in 0..<index { while queues[earlier].pop() != nil {} }
                return nil
            }
        }
        // Each source's current batch (never exhausted: a thread hands over only batches that hold something).
        var heads: [Batch<Source.Item>?] = queues.map { $0.pop() }
        while true {
            // The earliest head; on a tie the first source's, as a stable sort by source would give. (A head with notes
            // only is taken first: its notes come before any later item.)
            var chosen: Int?
            var earliest = Int64.max
            for source in heads.indices {
                guard let head = heads[source] else { continue }
                let instant = head.items.peekFirst({ $0.orderingInstant }) ?? .min
                if chosen == nil || instant < earliest {
                    chosen = source
                    earliest = instant
                }
            }
            guard let source = chosen, let head = heads[source] else { break }
            head.takeNotes(into: &consumer)
            var consumed = true
            if let item = head.items.takeFirst() {
                consumed = consumer.consume(item, from: source)
                head.takeNotes(into: &consumer)
            }
            if head.isExhausted { heads[source] = queues[source].pop() }
            if !consumed {
                // The readers stop at their next chunk; their queues are emptied so that none waits to push.
                stop.raise()
                for index in heads.indices where heads[index] != nil {
                    while queues[index].pop() != nil {}
                }
                break
            }
        }
        // Every source's thread has ended (its queue said so): their outcomes.
        return outcomes.map { $0.outcome! }
    }

    /// A source's outcome, written by its thread before it ends its queue.
    private final class SourceOutcomeSlot: @unchecked Sendable {
        var outcome: SourceOutcome?
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
struct MergedSessionBuilder {
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
