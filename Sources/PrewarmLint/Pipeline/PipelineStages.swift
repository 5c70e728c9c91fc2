import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintClassifier
import PrewarmLintSessions

// The pieces `SessionPipeline.run` puts together: a source per input (read through the gate), a sink that hands the
// source's items to the builder's thread (at once, in batches through a queue, or collected), and the consumer that
// builds the sessions. Generic values rather than closures, so that each event is moved, never copied, on its way.

/// One input read through the gate, its items handed to a sink in input order.
protocol EventSource: Sendable {
    /// What the source hands on: a classified event (a single input, classified as it is read) or an event (an input
    /// of several, classified after the merge).
    associatedtype Item: TimeOrdered & Sendable
    /// Reads the input with `pipeline`'s reader, as `handoff` has it delivered, into `sink`.
    func read<Sink: EventSink>(with pipeline: SessionPipeline, handoff: SessionPipeline.Arrangement.Handoff,
                               into sink: inout Sink) -> SessionPipeline.SourceOutcome where Sink.Item == Item
}

/// Where a source puts what it reads.
protocol EventSink {
    associatedtype Item
    /// The next item, moved in.
    mutating func hand(_ item: consuming Item)
    /// A diagnostic meant to be seen in its place among the items.
    mutating func note(_ diagnostic: ReaderDiagnostic)
    /// The items after this are a part of the input that is a capture of its own (``ReaderOutput/partStart(_:)``).
    mutating func startPart()
}

extension EventSink {
    mutating func startPart() {}
}

/// What the builder's thread does with the items of the sources, in order.
protocol EventConsumer {
    associatedtype Item
    /// Takes the next item, from source `source`; false: stop reading.
    mutating func consume(_ item: consuming Item, from source: Int) -> Bool
    /// A source's diagnostic, in its place among its items.
    mutating func note(_ diagnostic: ReaderDiagnostic)
    /// The source's next items are a part of it that is a capture of its own (``ReaderOutput/partStart(_:)``).
    mutating func startPart()
}

extension EventConsumer {
    mutating func startPart() {}
}

extension SessionPipeline {
    /// A single input's source: each event classified as it is read (the gate follows the classifier line by line),
    /// the launch-relevant ones handed on, each reader diagnostic noted in its place.
    struct ClassifyingSource: EventSource {
        typealias Item = ClassifiedEvent
        let input: DiscoveredInput

        func read<Sink: EventSink>(with pipeline: SessionPipeline, handoff: Arrangement.Handoff,
                                   into sink: inout Sink) -> SourceOutcome where Sink.Item == ClassifiedEvent {
            var stage = ClassifyingStage(inputName: input.input.name, signatures: pipeline.signatures,
                                         maximumRememberedPIDs: pipeline.maximumRememberedPIDs)
            let aheadGate = handoff == .readingThreads && pipeline.filtersRecords ? stage.aheadGate : nil
            let summary = pipeline.reader.read(input.input, foundInDirectory: input.foundInDirectory, offering: pipeline.filtersRecords,
                                               offers: { stage.takes(&$0) }, aheadGate: aheadGate,
                                               scanningAheadWith: aheadGate == nil ? nil : pipeline.threads) { output in
                stage.take(output, into: &sink)
            }
            return stage.outcome(summary: summary)
        }
    }

    /// What a single input's source does with each reader output, whether the source pulls the input's bytes
    /// (``ClassifyingSource``) or is pushed them (``PushedBytesSource``): an event is classified (the gate following the
    /// classifier line by line) and handed on when it may matter; a line read alone is classified and kept when a
    /// signature knows it, as dyld's statistics are; a diagnostic is noted in its place.
    struct ClassifyingStage {
        private var classifier: InputClassifier
        private let signatures: SignatureTable
        /// What the input held that has no time of its own.
        private var untimed = UntimedEvidence()

        init(inputName: String, signatures: SignatureTable, maximumRememberedPIDs: Int) {
            classifier = InputClassifier(inputName: inputName, signatures: signatures, maximumRememberedPIDs: maximumRememberedPIDs)
            self.signatures = signatures
        }

        /// Whether the classifier could want the record the input's reader offers: the reader leaves the others unbuilt.
        @inline(__always)
        mutating func takes(_ offer: inout RecordOffer) -> Bool { classifier.takes(&offer) }

        /// The gate, for a thread that reads the input ahead of the classifier.
        var aheadGate: LaunchLineGate { classifier.gating.aheadGate }

        mutating func take<Sink: EventSink>(_ output: ReaderOutput, into sink: inout Sink) where Sink.Item == ClassifiedEvent {
            switch output {
            case .event(let event):
                guard let classified = classifier.classify(event) else { return }
                sink.hand(classified)
            case .diagnostic(let diagnostic):
                sink.note(diagnostic)
            case .preMainStatistics, .fragment:
                untimed.keep(output, classifiedBy: signatures)
            case .partStart:
                sink.startPart()
            }
        }

        /// The prewarm decisions the input's dasd lines stated so far.
        var decisions: [PrewarmDecision] { classifier.decisions }

        /// What the classifier must report at the end of the input.
        func endDiagnostics() -> [ReaderDiagnostic] { classifier.finish() }

        /// The source's outcome at the end of its input, read as `summary` says, with the untimed evidence kept.
        func outcome(summary: InputSummary) -> SourceOutcome {
            var summary = summary
            summary.untimed = untimed
            return SourceOutcome(summary: summary, decisions: decisions, classifierDiagnostics: endDiagnostics())
        }
    }

    /// A single input whose bytes are pushed in as they come (``LogAnalyzer``'s bytes and byte streams): read by a
    /// reader of its own, through the same stage as a file (``ClassifyingStage``), into the sink each push is given.
    struct PushedBytesSource {
        private let name: String
        private var reader: LogStreamReader
        private var stage: ClassifyingStage

        /// A source named `name`, read with `configuration` (its records offered to the stage when `filtersRecords`).
        init(configuration: ReaderConfiguration, format: LogFormat?, signatures: SignatureTable, maximumRememberedPIDs: Int,
             filtersRecords: Bool) {
            name = configuration.inputName
            stage = ClassifyingStage(inputName: configuration.inputName, signatures: signatures, maximumRememberedPIDs: maximumRememberedPIDs)
            var configuration = configuration
            configuration.offersRecords = filtersRecords
            reader = LogStreamReader(configuration: configuration, format: format)
        }

        /// The format the input was found to be in, once known.
        var format: LogFormat? { reader.format }

        /// Reads the next bytes of the input into `sink`.
        mutating func push<Sink: EventSink>(_ chunk: UnsafeRawBufferPointer, into sink: inout Sink) throws(ReaderError)
        where Sink.Item == ClassifiedEvent {
            try Self.read(chunk, with: &reader, through: &stage, into: &sink)
        }

        /// The input paused: what the reader decides at a pause goes into `sink` (see
        /// `LogStreamReader.pause(endingRecords:emit:)`).
        mutating func pause<Sink: EventSink>(endingRecords: Bool, keepsUnfinished: Bool = false, into sink: inout Sink) throws(ReaderError)
        where Sink.Item == ClassifiedEvent {
            try reader.pause(endingRecords: endingRecords, keepsUnfinished: keepsUnfinished, offers: { stage.takes(&$0) }) { output in
                stage.take(output, into: &sink)
            }
        }

        /// Lines the reader has framed so far.
        var linesRead: Int { reader.statistics.lines }

        /// Ends the input: what the reader held back goes into `sink`; the source's outcome.
        mutating func finish<Sink: EventSink>(into sink: inout Sink) throws(ReaderError) -> SourceOutcome
        where Sink.Item == ClassifiedEvent {
            try Self.read(nil, with: &reader, through: &stage, into: &sink)
            var summary = InputSummary(input: name)
            summary.format = reader.format
            summary.statistics = reader.statistics
            return stage.outcome(summary: summary)
        }

        /// `chunk` read (nil: the end of input), each output through `stage` into `sink`.
        private static func read<Sink: EventSink>(_ chunk: UnsafeRawBufferPointer?, with reader: inout LogStreamReader,
                                                  through stage: inout ClassifyingStage, into sink: inout Sink) throws(ReaderError)
        where Sink.Item == ClassifiedEvent {
            let take: (ReaderOutput) -> Void = { output in stage.take(output, into: &sink) }
            if let chunk {
                try reader.read(chunk, offers: { stage.takes(&$0) }, emit: take)
            } else {
                try reader.finish(offers: { stage.takes(&$0) }, emit: take)
            }
        }
    }

    /// An input of several merged as one device's logs: every event that may matter once all inputs are known (the
    /// gate judging for merged inputs), through a reorder window when `windowed`, each message cut at
    /// ``SessionPipeline/collectedMessageLimit`` when `compacted`; its diagnostics kept for the end.
    struct MergedSource: EventSource {
        typealias Item = LogEvent
        let input: DiscoveredInput
        /// The part of a pasted document it is, when it is one (``PastedDocument``).
        var part: DocumentPartRead?
        let windowed: Bool
        let compacted: Bool

        func read<Sink: EventSink>(with pipeline: SessionPipeline, handoff: Arrangement.Handoff,
                                   into sink: inout Sink) -> SourceOutcome where Sink.Item == LogEvent {
            var diagnostics = DiagnosticSample()
            var window = ReorderWindow<LogEvent>(size: windowed ? SessionPipeline.reorderWindow : 1)
            var gating = LaunchLineGating(table: pipeline.signatures, followsClassifier: false)
            var untimed = UntimedEvidence()
            var summary = pipeline.reader.read(input.input, foundInDirectory: input.foundInDirectory, part: part, offering: pipeline.filtersRecords,
                                               offers: { gating.takes(&$0) }, aheadGate: nil, scanningAheadWith: nil) { output in
                switch output {
                case .event(let event):
                    if compacted {
                        var compact = event
                        compact.message = SessionPipeline.collectedMessage(event.message)
                        sink.hand(compact)
                    } else if windowed {
                        window.insert(event) { sink.hand($0) }
                    } else {
                        sink.hand(event)
                    }
                case .diagnostic(let diagnostic):
                    diagnostics.add(diagnostic)
                case .preMainStatistics, .fragment:
                    untimed.keep(output, classifiedBy: pipeline.signatures)
                case .partStart:
                    break  // a part of a document merged with others is an input of its own already
                }
            }
            if windowed { window.drain { sink.hand($0) } }
            summary.untimed = untimed
            return SourceOutcome(summary: summary, diagnostics: diagnostics.diagnostics)
        }
    }

    /// Hands each item straight to the consumer, on the reading thread (``Arrangement/Handoff/sameThread``); once the
    /// consumer says stop, the rest are dropped.
    struct ConsumingSink<Consumer: EventConsumer>: EventSink {
        var consumer: Consumer
        private var consuming = true

        init(consumer: Consumer) {
            self.consumer = consumer
        }

        mutating func hand(_ item: consuming Consumer.Item) {
            if consuming { consuming = consumer.consume(item, from: 0) }
        }

        mutating func note(_ diagnostic: ReaderDiagnostic) {
            consumer.note(diagnostic)
        }

        mutating func startPart() {
            if consuming { consumer.startPart() }
        }
    }

    /// Keeps every item and note, to be sorted with the other sources' (``Arrangement/Handoff/collected``).
    struct CollectingSink<Item: Sendable>: EventSink, Sendable {
        var items: [Item] = []
        var notes: [ReaderDiagnostic] = []

        mutating func hand(_ item: consuming Item) { items.append(item) }
        mutating func note(_ diagnostic: ReaderDiagnostic) { notes.append(diagnostic) }
    }

    /// What a reading thread hands over at a time: items, moved in by the thread and out by the consumer (never
    /// copied), and the notes among them, each with the number of items before it.
    final class Batch<Item>: @unchecked Sendable {
        let items = MovedRun<Item>(capacity: SessionPipeline.batchSize)
        private(set) var notes: [(itemsBefore: Int, diagnostic: ReaderDiagnostic)] = []
        /// The notes handed on so far.
        private var notesTaken = 0

        /// Whether it holds nothing: no item, no note.
        var isEmpty: Bool { items.count == 0 && notes.isEmpty }
        /// Whether nothing is left to take: no item, no note.
        var isExhausted: Bool { items.isExhausted && notesTaken == notes.count }

        func note(_ diagnostic: ReaderDiagnostic) {
            notes.append((items.count, diagnostic))
        }

        /// Hands the notes that come before the next item to `consumer`.
        func takeNotes<Consumer: EventConsumer>(into consumer: inout Consumer) {
            while notesTaken < notes.count, notes[notesTaken].itemsBefore <= items.taken {
                consumer.note(notes[notesTaken].diagnostic)
                notesTaken += 1
            }
        }
    }

    /// Fills batches on a reading thread and hands each over through `queue` (``Arrangement/Handoff/readingThreads``):
    /// at ``SessionPipeline/batchSize`` items or notes, or sooner once the items' messages hold
    /// ``SessionPipeline/readAheadBatchBytes`` (messages may be 4 MiB long), so that the queue's memory is bounded in
    /// bytes too.
    struct BatchingSink<Item: TimeOrdered & Sendable>: EventSink {
        let queue: BatchQueue<Batch<Item>>
        private var batch = Batch<Item>()
        private var batchBytes = 0

        init(queue: BatchQueue<Batch<Item>>) {
            self.queue = queue
        }

        mutating func hand(_ item: consuming Item) {
            batchBytes += item.messageBytes
            batch.items.append(item)
            if batch.items.isFull || batchBytes >= SessionPipeline.readAheadBatchBytes { handOver() }
        }

        mutating func note(_ diagnostic: ReaderDiagnostic) {
            batch.note(diagnostic)
            if batch.notes.count == SessionPipeline.batchSize { handOver() }
        }

        /// Hands over what is left, then the end.
        mutating func end() {
            if !batch.isEmpty { queue.push(batch) }
            queue.push(nil)
        }

        private mutating func handOver() {
            queue.push(batch)
            batch = Batch<Item>()
            batchBytes = 0
        }
    }

    /// A single input's consumer: its classified events through the reorder window to the builder
    /// (``SessionAssembly``), each closed session to `onSession`, each reader diagnostic to `onDiagnostic`.
    struct AssemblingConsumer: EventConsumer {
        typealias Item = ClassifiedEvent
        var assembly: SessionAssembly
        let onDiagnostic: (ReaderDiagnostic) -> Void
        let onSession: (LaunchSession) -> LaunchSession?
        var sessions: [LaunchSession] = []
        var diagnostics = DiagnosticSample()

        mutating func consume(_ event: consuming ClassifiedEvent, from source: Int) -> Bool {
            sessions += assembly.consume(event).compactMap(onSession)
            return true
        }

        mutating func startPart() {
            assembly.startPart()
        }

        mutating func note(_ diagnostic: ReaderDiagnostic) {
            diagnostics.add(diagnostic)
            onDiagnostic(diagnostic)
        }

        /// For a log still arriving (see ``SessionAssembly/settle(releasing:closingEndedBefore:)``): the sessions that
        /// closed to `onSession`.
        mutating func settle(releasing: Int64?, closingEndedBefore instant: Int64?) {
            sessions += assembly.settle(releasing: releasing, closingEndedBefore: instant).compactMap(onSession)
        }

        /// Ends the input whose source ended with `outcome`: the sessions still open to `onSession` (those it keeps
        /// into ``sessions``); the diagnostics of the end (the classifier's, then the builder's), each also to
        /// `onDiagnostic`.
        mutating func finish(after outcome: SourceOutcome) -> [ReaderDiagnostic] {
            assembly.finish { session in
                if let kept = onSession(session) { sessions.append(kept) }
            }
            let end = outcome.classifierDiagnostics + assembly.diagnostics(input: outcome.summary.input)
            end.forEach(onDiagnostic)
            return end
        }
    }

    /// Several inputs' consumer: their events, merged, through one ``MergedSessionBuilder``; stops once they show they
    /// are separate captures, when `stopsAtSeparateCaptures`.
    struct MergingConsumer: EventConsumer {
        typealias Item = LogEvent
        var merged: MergedSessionBuilder
        let stopsAtSeparateCaptures: Bool
        let onSession: (LaunchSession) -> LaunchSession?
        var sessions: [LaunchSession] = []

        mutating func consume(_ event: consuming LogEvent, from source: Int) -> Bool {
            sessions += merged.consume(event, from: source).compactMap(onSession)
            return !(stopsAtSeparateCaptures && merged.separateCaptures != nil)
        }

        /// (Merged sources keep their diagnostics for the end.)
        mutating func note(_ diagnostic: ReaderDiagnostic) {}
    }
}
