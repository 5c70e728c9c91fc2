import PrewarmLintModel

/// What a tracev3 file is read with: its archive's strings and clock, and the processes to read. The input layer
/// makes it from the files around the tracev3 file (a decoder opens nothing); without it, a tracev3 file is read alone:
/// every process, no strings, times from its header.
package struct UnifiedLogContext: Sendable {
    package var strings: any UnifiedLogStrings
    package var timesync: TimesyncDatabase
    package var choice: UnifiedLogProcessChoice
    /// Whether entries between two times (a chunkset's range, as wall-clock times) may include one the run keeps (the
    /// `--since`/`--until` window); nil: every chunkset may.
    package var window: (@Sendable (_ first: LogTimestamp, _ last: LogTimestamp) -> Bool)?

    package init(strings: any UnifiedLogStrings, timesync: TimesyncDatabase, choice: UnifiedLogProcessChoice,
                 window: (@Sendable (_ first: LogTimestamp, _ last: LogTimestamp) -> Bool)? = nil) {
        self.strings = strings
        self.timesync = timesync
        self.choice = choice
        self.window = window
    }

    /// A file read alone.
    package static let alone = UnifiedLogContext(strings: NoUnifiedLogStrings(), timesync: TimesyncDatabase(), choice: .all)
}

/// An archive with none of its strings.
package struct NoUnifiedLogStrings: UnifiedLogStrings {
    package init() {}
    package func uuidText(_ uuid: UnifiedLogUUID) -> UUIDTextFile? { nil }
    package func sharedCache(_ uuid: UnifiedLogUUID) -> SharedCacheStrings? { nil }
}

/// Reads a tracev3 file (``LogFormat/unifiedLog``) through ``TraceV3EventReader``: its events at the end of the file,
/// sorted by time. Entries are counted as lines: each read one is an event; one that cannot be read is said in an
/// `invalid-record` diagnostic; entries whose format string the archive lacks in one `unresolved-format-string`
/// warning by process; the chunksets passed over (no process chosen in them) in a note. A structure that cannot be
/// read ends the file there, in an error that says which, where and why; what came before is kept.
struct TraceV3LogDecoder: LogDecoder {
    let format = LogFormat.unifiedLog
    private let configuration: ReaderConfiguration
    private var reader: TraceV3EventReader
    private var skipping: RecordSkipping
    private var collected = DecoderStatistics()
    private var failure: UnifiedLogError?
    private let timesync: TimesyncDatabase

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
        let context = configuration.unifiedLog ?? .alone
        timesync = context.timesync
        reader = TraceV3EventReader(inputName: configuration.inputName, strings: context.strings, timesync: context.timesync, choice: context.choice,
                                    window: context.window)
        skipping = RecordSkipping(configuration, offering: false)
    }

    var statistics: DecoderStatistics { collected }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        guard failure == nil else { return }
        do throws(UnifiedLogError) { try reader.push(bytes) } catch { failure = error }
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        var events: [LogEvent] = []
        do throws(UnifiedLogError) {
            try reader.finish { events.append($0) }
        } catch {
            failure = failure ?? error
        }
        collected.lines += reader.entriesRead + reader.unreadEntries
        collected.events += events.count
        collected.eventLines += events.count
        for event in events {
            if skipping.skips(process: event.process) {
                collected.eventsSkipped += 1
            } else {
                emit(.event(event))
            }
        }
        func report(_ code: DiagnosticCode, _ severity: ReaderDiagnostic.Severity, _ message: String, lines: Int = 0, at offset: Int = 0) {
            let diagnostic = ReaderDiagnostic(code: code, severity: severity, message: message,
                                              origin: EventOrigin(input: configuration.inputName, line: 0, byteOffset: offset), lineCount: lines)
            collected.count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
        let structure = reader.structure
        if let header = structure.header {
            collected.note(DeviceIdentity(build: header.build, model: header.hardwareModel, source: .unifiedLog, reference: header.bootUUID?.description))
        }
        if let header = structure.header, !timesync.boots.contains(where: { $0.uuid == header.bootUUID }), collected.events > 0 {
            report(.inferredTime, .note, "times from the file's header (its start): the archive's timesync records of its boot are not here, so they may be off by the clock's drift since")
        }
        let outsideWindow = structure.chunksetsOutsideWindow, notChosen = structure.chunksetsSkipped - outsideWindow
        if structure.chunksetsSkipped > 0 {
            let reasons = [notChosen > 0 ? "\(notChosen) hold none of the processes a launch needs" : nil,
                           outsideWindow > 0 ? "\(outsideWindow) hold entries only outside --since/--until" : nil].compactMap { $0 }
            report(.archiveContents, .note, "read \(structure.chunksets) of \(structure.chunksets + structure.chunksetsSkipped) chunksets: of the others, \(reasons.joined(separator: ", ")) (their catalogs say so)")
        }
        if reader.eventsNotKept > 0 {
            report(.stateLimit, .warning, "\(reader.eventsNotKept) log entries past the first \(reader.maximumEventsHeld) of this file were read but not kept (a file's entries are held until its end, to be sorted); read the archive with an exporter to see them",
                   lines: reader.eventsNotKept)
        }
        if reader.oversizeMissing > 0 {
            report(.archiveContents, .note, "\(reader.oversizeMissing) log entries keep their values in an oversize chunk this file does not hold (another file of the archive): those values show as <decode: missing data>")
        }
        if reader.unreadEntries > 0 {
            report(.invalidRecord, .warning, "\(reader.unreadEntries) log entries could not be read" + (reader.firstUnreadEntry.map { ", the first: \($0)" } ?? ""),
                   lines: reader.unreadEntries)
        }
        if !reader.unresolvedByProcess.isEmpty {
            let total = reader.unresolvedByProcess.values.reduce(0, +)
            collected.eventsUnworded += total
            let byProcess = reader.unresolvedByProcess.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(8)
                .map { "\($0.key.isEmpty ? "(no name)" : $0.key) \($0.value)" }.joined(separator: ", ")
            report(.unresolvedFormatString, .warning,
                   "\(total) log entries whose format string the archive lacks (its dsc or uuidtext files), by process: \(byProcess)\(reader.unresolvedByProcess.count > 8 ? ", …" : ""); their arguments are read, their wording is not")
        }
        if let failure {
            report(failure.reason.hasPrefix("cut") ? .truncatedInput : .invalidRecord, .error,
                   "the tracev3 file could not be read past this point: \(failure); what came before is read", at: failure.offset)
        }
    }
}
