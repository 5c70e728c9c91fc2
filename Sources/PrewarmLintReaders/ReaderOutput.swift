public import PrewarmLintModel

/// What a decoder hands on: an event, or a diagnostic about input it could not use.
public enum ReaderOutput: Sendable {
    /// An event read from the input.
    case event(LogEvent)
    /// Something the reader could not use, with where and why.
    case diagnostic(ReaderDiagnostic)
    /// dyld's launch statistics, read from the input's text (`PreMainStatistics`): evidence with no time of its own.
    case preMainStatistics(PreMainStatistics)
    /// A line no reader took that still shows what a log line shows (`LogFragment`): evidence read alone.
    case fragment(LogFragment)
    /// A part of the input that is a capture of its own begins at this line (a pasted document's next block): its
    /// lines' times are their own, so a time earlier than the part before is no step of the device's clock.
    case partStart(EventOrigin)

    /// The output with its origin counted from `start` (`InputPosition.placing(_:)`).
    func placed(at start: InputPosition) -> ReaderOutput {
        switch self {
        case .event(var event):
            event.origin = start.placing(event.origin)
            return .event(event)
        case .diagnostic(var diagnostic):
            diagnostic.origin = start.placing(diagnostic.origin)
            return .diagnostic(diagnostic)
        case .preMainStatistics(var statistics):
            statistics.origin = start.placing(statistics.origin)
            if let launch = statistics.launch { statistics.launch!.evidence = start.placing(launch.evidence) }
            return .preMainStatistics(statistics)
        case .fragment(var fragment):
            fragment.origin = start.placing(fragment.origin)
            return .fragment(fragment)
        case .partStart(let origin):
            return .partStart(start.placing(origin))
        }
    }
}

/// Why a line that is not part of an event was skipped without a diagnostic.
public enum SkippedLineReason: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// Blank lines between records.
    case blank
    /// A column header (`Timestamp  Thread  Type …`).
    case header
    /// Lines the exporter prints before the records (`Filtering the log data using …`, `[connected]`).
    case preamble
    /// Lines the exporter prints after the records (the `log show` totals, `{"count":N,"finished":1}`).
    case trailer
    /// JSON punctuation between the records of a `log show --style json` array (`[`, `]`, `,`); a pasted document's
    /// fences and tags.
    case structure
    /// A pasted document's text that no reader takes: its prose (``LogFormat/document``).
    case prose

    /// Orders by name, for stable summaries.
    public static func < (lhs: SkippedLineReason, rhs: SkippedLineReason) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Counts a decoder keeps for its input's summary.
///
/// Every line is accounted for: `lines == eventLines + skipped.values.sum + diagnosedLines`.
public struct DecoderStatistics: Sendable, Hashable {
    /// Lines read.
    public var lines = 0
    /// Events read, emitted or not.
    public var events = 0
    /// Events read but not emitted, being of a process in ``ReaderConfiguration/skippedProcesses`` or
    /// refused by the reader's caller (`RecordOffer`) before they were built.
    public var eventsSkipped = 0
    /// Lines that are part of an event.
    public var eventLines = 0
    /// Events read whose wording the input lacks: unified-log entries whose format string is not in the archive (or
    /// that the exporter could not find), read for their arguments only. Launches and hazards among them go unseen.
    public var eventsUnworded = 0
    /// Lines skipped on purpose, by reason.
    public var skipped: [SkippedLineReason: Int] = [:]
    /// Lines accounted for by diagnostics (their `lineCount`s).
    public var diagnosedLines = 0
    /// Diagnostics produced, by severity.
    public var diagnostics: [ReaderDiagnostic.Severity: Int] = [:]
    /// The devices and systems the input says it came from (`DeviceIdentity`), each once, at most
    /// ``maximumDeviceIdentities`` (a folder of a fleet's reports says each of its devices).
    public private(set) var deviceIdentities: [DeviceIdentity] = []
    /// The most device identities kept per input.
    public static let maximumDeviceIdentities = 64

    /// No counts yet.
    public init() {}

    /// Keeps `identity`, once; nothing when it says nothing or the input said ``maximumDeviceIdentities`` already.
    package mutating func note(_ identity: DeviceIdentity) {
        guard identity.system != nil || identity.build != nil || identity.model != nil || identity.reference != nil,
              !deviceIdentities.contains(identity), deviceIdentities.count < Self.maximumDeviceIdentities else { return }
        deviceIdentities.append(identity)
    }

    mutating func skip(_ reason: SkippedLineReason, lines count: Int = 1) {
        skipped[reason, default: 0] += count
    }

    mutating func count(_ diagnostic: ReaderDiagnostic) {
        diagnostics[diagnostic.severity, default: 0] += 1
        diagnosedLines += diagnostic.lineCount
    }

    /// One record read whole, as every record-based decoder (JSON, plist, xctrace) accounts for it: the
    /// notes its time resolution made, a warning when its text had to be repaired, its lines, and its
    /// event — not emitted when nil, a record of a skipped process, which is counted all the same.
    mutating func accept(_ event: LogEvent?, lines: Int, origin: EventOrigin, notes: [String], invalidUTF8: Bool,
                         emit: (ReaderOutput) -> Void) {
        var diagnostics = notes.map { ReaderDiagnostic(code: .inferredTime, severity: .note, message: $0, origin: origin, lineCount: 0) }
        if invalidUTF8 {
            diagnostics.append(ReaderDiagnostic(code: .invalidUTF8, severity: .warning, message: "bytes that are not UTF-8 were replaced with U+FFFD",
                                                origin: origin, lineCount: 0))
        }
        for diagnostic in diagnostics {
            count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
        events += 1
        eventLines += lines
        if let event { emit(.event(event)) } else { eventsSkipped += 1 }
    }
}

/// Limits that keep a reader's memory bounded whatever the input.
public struct ReaderLimits: Sendable, Hashable {
    /// The longest line kept whole; the rest of a longer line is skipped with a `line-too-long` diagnostic.
    public var maximumLineLength: Int
    /// The longest multi-line message kept; later lines are counted but not kept (`message-too-long`).
    public var maximumMessageLength: Int
    /// The longest JSON record (an object of a `log show --style json` array) kept.
    public var maximumRecordLength: Int
    /// How many archives an archive may be inside and still be read: a tar inside a tar's entry (a sysdiagnose
    /// attached inside a bug-report bundle) is read, one nested deeper than this is refused and named. Each level holds a reader's
    /// buffers, so the bound is the bound on memory and on the readers' nesting.
    public var maximumArchiveNesting: Int

    /// Limits; the defaults are 1 MiB per line, 4 MiB per message or record, and archives inside at most three others.
    public init(maximumLineLength: Int = 1 << 20, maximumMessageLength: Int = 4 << 20, maximumRecordLength: Int = 4 << 20,
                maximumArchiveNesting: Int = 3) {
        self.maximumLineLength = maximumLineLength
        self.maximumMessageLength = maximumMessageLength
        self.maximumRecordLength = maximumRecordLength
        self.maximumArchiveNesting = maximumArchiveNesting
    }
}

/// Everything a decoder needs besides the bytes: the input's name, time inference and limits.
public struct ReaderConfiguration: Sendable {
    /// The input as the user named it, copied into every `EventOrigin`.
    public var inputName: String
    /// What to assume for the parts of a time the input does not print.
    public var timeInference: TimeInference
    /// The limits that keep memory bounded.
    public var limits: ReaderLimits
    /// Processes whose events the consumer does not want: their records are read, their times resolved
    /// and their lines accounted for, but their messages are never decoded and no event is emitted
    /// (``DecoderStatistics/eventsSkipped`` counts them). Empty: every event is emitted.
    public var skippedProcesses: Set<String>
    /// Whether the text and JSON readers (not the XML ones, which hand events on in batches) offer each record's head to
    /// their caller before building it (`RecordOffer`), so that the caller may leave unbuilt the records it does not
    /// want. False: every record is built. The session pipeline's reading, within the package.
    package var offersRecords = false
    /// Takes a tar archive's `*.logarchive/` entries (a sysdiagnose's unified log) so that it can be exported
    /// after the archive is read; nil: they are passed over and a note gives the command that exports them.
    public var archiveEntryExtractor: (any ArchiveEntryExtractor)?
    /// Records a thread reading ahead found the decoder would count and not keep (``RecordPrescan``): asked by the
    /// ndjson decoder for each line, on the decoder's thread. Nil: every line is judged where it is decoded.
    package var prescan: (any RecordPrescan)?
    /// Where the bytes read start in the input (`InputPosition.beginning` for a whole input): a region of a document
    /// is read with the line and byte offset of its first byte, and every event and diagnostic read from it points at
    /// the document's line. The format is sniffed from the region alone.
    public var start = InputPosition.beginning
    /// Whether the input is a region of a pasted document: it is never read as a document itself.
    var isDocumentRegion = false
    /// The format the input's plan found when it sniffed the same head (the first ``FormatSniffer/sampleSize`` bytes, its
    /// line endings made as the reader makes them): taken instead of sniffing it again. Nil: the reader sniffs.
    package var sniffedFormat: LogFormat?
    /// What a tracev3 file is read with (its archive's strings and clock, the processes to read); nil: read alone.
    package var unifiedLog: UnifiedLogContext?
    /// Whether the input is a part of a pasted document, read as a document from a cut (``DocumentPartition``) while
    /// other parts are read as inputs of their own: a part with no log in it is not refused (its blocks no reader
    /// takes are said), since the document it is cut from holds logs.
    package var isDocumentPart = false
    /// The byte offsets (in the whole document, sorted) of the first lines of a document's log blocks that repeat an
    /// earlier block line for line (``DocumentPartition/repeatedRegions``): each is passed over, counted in one note.
    package var repeatedRegions: [Int] = []
    /// How many archives this input is inside (0: a file of its own); an archive deeper than
    /// ``ReaderLimits/maximumArchiveNesting`` is refused.
    var archiveDepth = 0

    /// The configuration of one input.
    public init(inputName: String, timeInference: TimeInference = TimeInference(), limits: ReaderLimits = ReaderLimits(),
                skippedProcesses: Set<String> = []) {
        self.inputName = inputName
        self.timeInference = timeInference
        self.limits = limits
        self.skippedProcesses = skippedProcesses
    }

    /// The configuration of one input whose records are offered to the caller before they are built, when
    /// `offersRecords`.
    package init(inputName: String, timeInference: TimeInference = TimeInference(), limits: ReaderLimits = ReaderLimits(),
                 skippedProcesses: Set<String> = [], offersRecords: Bool) {
        self.init(inputName: inputName, timeInference: timeInference, limits: limits, skippedProcesses: skippedProcesses)
        self.offersRecords = offersRecords
    }
}

/// A streaming decoder: bytes in, events and diagnostics out, with an explicit end of input.
///
/// The contract, as in swift-nio's `ByteToMessageDecoder`: ``decode(_:emit:)`` may be called with
/// chunks of any size, split anywhere (inside a UTF-8 sequence, between `\r` and `\n`); the
/// output must be the same as for the whole input at once. ``decodeLast(emit:)`` is called
/// exactly once at the end and must account for every byte still held.
package protocol LogDecoder {
    /// The format this decoder reads.
    var format: LogFormat { get }
    /// Counts for the input's summary.
    var statistics: DecoderStatistics { get }
    /// Consumes the next chunk of input.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void)
    /// Ends the input: emits what is pending and reports what is incomplete.
    mutating func decodeLast(emit: (ReaderOutput) -> Void)
    /// ``decode(_:emit:)``, each record offered to `offers` before it is built when the configuration says so
    /// (``ReaderConfiguration/offersRecords``).
    mutating func decode(_ bytes: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void)
    /// ``decodeLast(emit:)``, offering as ``decode(_:offers:emit:)`` does.
    mutating func decodeLast(offers: RecordOffers, emit: (ReaderOutput) -> Void)
    /// The input paused: a live stream has sent nothing for a while. A record that later lines could still continue
    /// (a multi-line message) ends now, as a writer that sends whole records has sent it whole; a line cut short waits
    /// for its end, and what spans records (the year, the layout) stays. Nothing by default: most formats end each
    /// record at its own last byte. `keepsUnfinished`: a record that looks cut short (``openRecordLooksUnfinished``) is
    /// not ended — what a decoder of decoders (a document's) passes to the readers of its parts, whose records it only
    /// knows once they have decided their format.
    mutating func decodePause(keepsUnfinished: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void)
    /// Whether the record open looks cut short: its text so far leaves a bracket or a quote open (RunningBoard's
    /// `<RBSAssertionDescriptor| "DAS` before its attribute lines), so that a short pause should not end it. False by
    /// default.
    var openRecordLooksUnfinished: Bool { get }
    /// Read to its end, why the input holds nothing this decoder's format could read, so that it is refused as not a
    /// log (a document none of whose blocks is one); nil when it holds something, as by default.
    var endsUnread: String? { get }
    /// A judge of this decoder's lines for a thread reading ahead of it (``RecordPrescan``), made from what the decoder
    /// has learnt so far; nil when its format, its configuration (records not offered) or what it has read leaves
    /// nothing to judge ahead.
    func makePrescanner() -> (any LinePrescanner)?
}

extension LogDecoder {
    /// None.
    package func makePrescanner() -> (any LinePrescanner)? { nil }

    /// A decoder that offers no record decodes as ever.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        decode(bytes, emit: emit)
    }

    /// A decoder that offers no record ends as ever.
    package mutating func decodeLast(offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        decodeLast(emit: emit)
    }

    /// Nothing is held past a record's last byte.
    package mutating func decodePause(keepsUnfinished: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void) {}

    /// No record is held open.
    package var openRecordLooksUnfinished: Bool { false }

    /// An input of a log format holds what its records hold.
    package var endsUnread: String? { nil }
}
