import PrewarmLintModel
public import PrewarmLintReaders
import PrewarmLintClassifier
import PrewarmLintSpool
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What happened to one input: its format, counts, and why it failed if it did.
public struct InputSummary: Sendable {
    /// The input as the user named it.
    public var input: String
    /// The format it was read as; nil when it could not be read.
    public var format: LogFormat?
    /// Whether it was gzip-compressed.
    public var isCompressed = false
    /// Lines, events and diagnostics counted while reading.
    public var statistics = DecoderStatistics()
    /// Lines of the input that the decoder took as judged by a thread reading ahead (`ScanAhead`): for tests and
    /// measurements.
    package var linesJudgedAhead = 0
    /// Line tables of chunks judged ahead that were filled again rather than made anew: for tests.
    package var lineTablesReused = 0
    /// Chunks the thread reading ahead judged and lent to the decoder (how many follows the two threads' speeds): for
    /// tests and measurements.
    package var chunksJudgedAhead = 0
    /// Set when the input could not be read at all.
    public var failure: ReaderError?
    /// True when the input was found in a directory and is not a log: skipped with a note.
    public var skippedAsNotALog = false
    /// True when reading stopped early because the run was interrupted.
    public var interrupted = false
    /// What the input held that has no time of its own: dyld's launch statistics and the lines read alone that the
    /// classifier knows, kept by the stage that classified the input's records.
    public var untimed = UntimedEvidence()

    /// An empty summary of `input`.
    public init(input: String) { self.input = input }
}

/// Options for reading inputs.
public struct ReadOptions: Sendable {
    /// Used instead of sniffing (`--input-format`).
    public var format: LogFormat?
    /// `--date`, `--year`, `--utc-offset`; the reference instant is filled per input from its modification time.
    public var timeInference: TimeInference
    /// The reference instant for standard input, which has no modification time (the CLI passes the current time).
    public var standardInputReferenceInstant: Int64?
    /// The limits that keep memory bounded (line, message and record length).
    public var limits: ReaderLimits
    /// Bytes read per system call.
    public var chunkSize: Int
    /// Raised (by a Ctrl-C handler) to stop reading at the next chunk; what was read is kept.
    public var interruption: Interruption?
    /// Processes whose events are counted but not built or emitted (see `ReaderConfiguration.skippedProcesses`).
    /// ``SessionPipeline`` adds the daemons that never log about a launch.
    public var skippedProcesses: Set<String> = []
    /// Lines before this bound (`--since`) are left out, counted in an `outside-time-window` note; a session whose
    /// start they held says its start is missing.
    public var since: TimeBound?
    /// Lines after this bound (`--until`) are left out, counted the same way.
    public var until: TimeBound?
    /// The program that exports a `.logarchive` instead of the native reader (`--exporter`: ``LogArchiveTool/find(environment:)``);
    /// nil, the default: archives and sysdiagnoses' unified logs are read natively.
    public var logArchiveTool: LogArchiveTool?
    /// Whether the native unified-log reader reads every process's entries (`--all-processes`), not only the
    /// chunksets holding a process a launch needs (the launch daemons, the kernel, the apps).
    public var readsAllUnifiedLogProcesses = false

    /// Options; every one has a default.
    public init(format: LogFormat? = nil, timeInference: TimeInference = TimeInference(), standardInputReferenceInstant: Int64? = nil,
                limits: ReaderLimits = ReaderLimits(), chunkSize: Int = 1 << 20, interruption: Interruption? = nil) {
        self.format = format
        self.timeInference = timeInference
        self.standardInputReferenceInstant = standardInputReferenceInstant
        self.limits = limits
        self.chunkSize = max(1, chunkSize)
        self.interruption = interruption
    }
}

/// Reads files and standard input through a `LogStreamReader`, chunk by chunk.
///
/// Usage:
/// ```swift
/// let summary = InputReader(options: ReadOptions()).read(.file("device.log")) { output in
///     if case .event(let event) = output { print(event.message) }
/// }
/// ```
public struct InputReader: Sendable {
    /// How inputs are read.
    public var options: ReadOptions
    /// Bytes of standard input already read (to tell whether it is a pasted document, ``PastedDocument``): read first.
    package var standardInputHead: [UInt8] = []
    /// The formats the inputs' heads were sniffed as while they were planned (``InputPlan``): not sniffed again.
    package var sniffedFormats: [LogInput: LogFormat] = [:]

    /// A reader with these options.
    public init(options: ReadOptions) {
        self.options = options
    }

    /// Reads one input to the end. Never throws: a failure is in the summary, and everything
    /// emitted before it stays valid.
    public func read(_ input: LogInput, foundInDirectory: Bool = false, emit: (ReaderOutput) -> Void) -> InputSummary {
        read(input, foundInDirectory: foundInDirectory, offering: false, offers: takesEveryRecord, aheadGate: nil, scanningAheadWith: nil,
             emit: emit)
    }

    /// ``read(_:foundInDirectory:emit:)``, each text and JSON record offered to `offers` before it is built when
    /// `offering` (`RecordOffer`: the session pipeline leaves unbuilt what its gate refuses). With `aheadGate` and
    /// `scanningAheadWith`, a regular, uncompressed file's lines (ndjson or text) are judged a few chunks ahead of the
    /// decoder on a thread from it (`ScanAhead`), by that gate knowing nothing yet: the same output, the work shared
    /// between two cores.
    ///
    /// With `part`, only that part of a pasted document is read, as a document (``DocumentPartition``), from the
    /// document's bytes (a descriptor is left open): `input` names the document.
    package func read(_ input: LogInput, foundInDirectory: Bool = false, part: DocumentPartRead? = nil, offering: Bool, offers: RecordOffers,
                      aheadGate: LaunchLineGate?, scanningAheadWith threads: ThreadStarter?, emit: (ReaderOutput) -> Void) -> InputSummary {
        // An input refused whole (its first diagnostic a refusal, no event before it) is an unreadable input,
        // not an empty log: remembered here, set as the summary's failure at the end.
        var refusal: ReaderDiagnostic?
        var eventsEmitted = 0
        var outside = (before: 0, after: 0, first: nil as EventOrigin?)
        let since = options.since, until = options.until
        let counting: (ReaderOutput) -> Void = { output in
            switch output {
            case .event(let event):
                // `--since`/`--until`: a line outside the window is left out.
                if let since, since.compare(event.timestamp) < 0 {
                    outside.before += 1
                    outside.first = outside.first ?? event.origin
                    return
                }
                if let until, until.compare(event.timestamp) > 0 {
                    outside.after += 1
                    outside.first = outside.first ?? event.origin
                    return
                }
                eventsEmitted += 1
            case .diagnostic(let diagnostic):
                if diagnostic.code == .refusedInput, eventsEmitted == 0, refusal == nil { refusal = diagnostic }
            case .preMainStatistics, .fragment, .partStart:
                break
            }
            emit(output)
        }
        var summary = if let part {
            readPart(part, of: input, offers: offers, offering: offering, emit: counting)
        } else {
            readToEnd(input, foundInDirectory: foundInDirectory, offering: offering, offers: offers,
                      aheadGate: offering ? aheadGate : nil, scanningAheadWith: threads, emit: counting)
        }
        if outside.before + outside.after > 0, let first = outside.first {
            var parts: [String] = []
            if outside.before > 0 { parts.append("\(outside.before) before --since") }
            if outside.after > 0 { parts.append("\(outside.after) after --until") }
            summary.statistics.diagnostics[.note, default: 0] += 1
            emit(.diagnostic(ReaderDiagnostic(code: .outsideTimeWindow, severity: .note,
                                              message: "lines outside the time window left out: \(parts.joined(separator: ", "))", origin: first,
                                              lineCount: 0)))
        }
        if summary.failure == nil, let refusal, eventsEmitted == 0 {
            summary.failure = ReaderError(code: .refused, input: input.name, message: "refused: \(refusal.message)")
        }
        return summary
    }

    private func readToEnd(_ input: LogInput, foundInDirectory: Bool, offering: Bool, offers: RecordOffers, aheadGate: LaunchLineGate?,
                           scanningAheadWith threads: ThreadStarter?, emit: (ReaderOutput) -> Void) -> InputSummary {
        var summary = InputSummary(input: input.name)
        var descriptor: Int32
        var child: pid_t?
        var exporterWarned = false
        var inference = options.timeInference
        switch input {
        case .standardInput:
            descriptor = 0
            inference.referenceInstant = inference.referenceInstant ?? options.standardInputReferenceInstant
            inference.referenceDescription = "current time (standard input has no file date)"
        case .logArchive(let path):
            // Without an exporter, the archive is read natively.
            guard let tool = options.logArchiveTool else { return readUnifiedLogArchive(path, name: input.name, emit: emit) }
            if let old = tool.versionWarning() {
                exporterWarned = true
                emit(.diagnostic(ReaderDiagnostic(code: .exporterVersion, severity: .warning, message: old,
                                                  origin: EventOrigin(input: input.name, line: 0, byteOffset: 0), lineCount: 0)))
            }
            switch tool.start(archive: path, since: options.since, until: options.until) {
            case .failure(let problem):
                summary.failure = ReaderError(code: .unreadable, input: input.name, message: problem.message)
                return summary
            case .success(let started):
                descriptor = started.descriptor
                child = started.pid
            }
        case .file(let path):
            // A FIFO is opened without blocking (with no writer, a blocking open never returns and Ctrl-C could
            // not reach the report); the reader then waits for its writer below, interruptibly.
            var pathStatus = stat()
            let isFIFO = FileSystemName.withPlatformPath(path, { stat($0, &pathStatus) }) == 0 && (pathStatus.st_mode & S_IFMT) == S_IFIFO
            descriptor = FileSystemName.withPlatformPath(path) { open($0, isFIFO ? O_RDONLY | O_NONBLOCK | O_CLOEXEC : O_RDONLY | O_CLOEXEC) }
            if isFIFO, descriptor >= 0 {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                while options.interruption?.isRaised != true {
                    waiting.revents = 0
                    if poll(&waiting, 1, 200) > 0, waiting.revents & Int16(POLLIN | POLLHUP) != 0 { break }
                }
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            }
            guard descriptor >= 0 else {
                let code = errno
                let hint = code == EACCES ? " (check the file's permissions)" : code == ENOENT ? " (check the path)" : ""
                summary.failure = ReaderError(code: .unreadable, input: input.name, message: "cannot open: \(String(cString: strerror(code)))\(hint)")
                return summary
            }
            var status = stat()
            if fstat(descriptor, &status) == 0 {
                if (status.st_mode & S_IFMT) == S_IFDIR {
                    close(descriptor)
                    summary.failure = ReaderError(code: .unreadable, input: input.name, message: "is a directory")
                    return summary
                }
                inference.referenceInstant = inference.referenceInstant ?? TimeInference.referenceInstant(modificationTime: status)
            }
        }
        defer { if descriptor != 0 { close(descriptor) } }

        // A sysdiagnose's unified log is taken out of the archive, for the exporter or the native reader (read after
        // the archive's reports).
        let extraction: LogArchiveExtraction? = if case .logArchive = input { nil } else { LogArchiveExtraction() }
        defer { extraction?.remove() }
        var configuration = ReaderConfiguration(inputName: input.name, timeInference: inference, limits: options.limits,
                                                skippedProcesses: options.skippedProcesses, offersRecords: offering)
        configuration.archiveEntryExtractor = extraction
        configuration.sniffedFormat = sniffedFormats[input]
        // A tracev3 file named alone is read with the archive around it (its strings and clock), when there is one.
        var unifiedLogFiles: UnifiedLogArchiveFiles?
        if case .file(let path) = input, sniffedFormats[input] == .unifiedLog || options.format == .unifiedLog
            || (sniffedFormats[input] == nil && options.format == nil && Self.startsAsTraceV3(descriptor)) {
            let (context, files) = UnifiedLogArchiveFiles.context(aroundFile: path, allProcesses: options.readsAllUnifiedLogProcesses,
                                                                  since: options.since, until: options.until)
            configuration.unifiedLog = context
            unifiedLogFiles = files
        }
        defer { unifiedLogFiles?.close() }
        // Lines judged ahead (`ScanAhead`), once the format is known and its decoder can judge: a regular file's.
        var scanAhead: ScanAhead?
        if let threads, case .file(let path) = input, aheadGate != nil,
           fileSize(descriptor) >= 4 * options.chunkSize {
            scanAhead = ScanAhead(path: path, fileSize: fileSize(descriptor), chunkSize: options.chunkSize, threads: threads)
            configuration.prescan = scanAhead
        }
        defer { scanAhead?.finish() }
        var reader = LogStreamReader(configuration: configuration, format: options.format)
        // The archive's reports are held (the archive emits them, sorted, at its end) to be merged by time into
        // the exported log's events; everything else passes straight on.
        var held: [LogEvent] = []
        let passOn = emit
        let emit: (ReaderOutput) -> Void = { output in
            if case .event(let event) = output, extraction?.archiveRoot != nil { held.append(event) } else { passOn(output) }
        }
        let buffer = Self.allocateReadBuffer(byteCount: options.chunkSize)
        defer { buffer.deallocate() }
        var loop = ReadLoop(origin: child.map { .toolOutput(descriptor, tool: $0) } ?? .descriptor(descriptor))
        if case .standardInput = input { loop.head = standardInputHead }
        loop.scanAhead = scanAhead
        do throws(ReaderError) {
            let end = try loop.run(into: &reader, buffer: buffer, interruption: options.interruption, offers: offers, emit: emit,
                                   beforeChunk: { extraction?.inputBytesRead = Int64($0) },
                                   afterChunk: { reader, bytesRead in
                                       // Once the format is known, a regular file's next chunks are judged ahead.
                                       if let scanAhead, !scanAhead.started, reader.format != nil {
                                           scanAhead.start(reader.makePrescanner(), judgedBy: aheadGate!, from: bytesRead)
                                       }
                                   })
            switch end {
            case .end:
                try reader.finish(offers: offers, emit: emit)
            case .interrupted:
                // Stop here: what was read stands; an input not begun is not reported as empty.
                if loop.readAny { try reader.finish(offers: offers, emit: emit) }
                summary.interrupted = true
            case .failed(let reason):
                try reader.finish(offers: offers, emit: emit)
                summary.failure = ReaderError(code: .unreadable, input: input.name, message: "\(reason); the input is cut short")
            }
        } catch {
            summary.failure = error
            summary.skippedAsNotALog = foundInDirectory && error.code == .unrecognizedFormat
            if case .standardInput = input, error.code == .unrecognizedFormat, loop.bytesRead == 0 {
                // `idevicesyslog | prewarm-lint -` with no device: the command before the pipe printed its error and
                // wrote nothing.
                summary.failure = ReaderError(code: error.code, input: input.name,
                                              message: "standard input is empty: nothing was piped in (when a command writes to the pipe, its own error is above)")
            }
        }
        if let child {
            // The exporting tool: stopped when the run is interrupted; its exit status decides whether the archive was read.
            let stopped = summary.interrupted || summary.failure != nil
            close(descriptor)
            descriptor = 0
            let status = loop.toolStatus ?? (stopped ? LogArchiveTool.stop(child) : LogArchiveTool.wait(child))
            if status != 0, !summary.interrupted, case .logArchive(let path) = input {
                // The tool's failure is the input's, before anything said about its (empty, cut) output.
                let command = options.logArchiveTool?.commandLine(archive: path, since: options.since, until: options.until) ?? "the log archive's tool"
                summary.failure = ReaderError(code: .unreadable, input: input.name,
                                              message: "`\(command)` exited with status \(status) (its messages are above); what it wrote before is kept")
            }
        }
        summary.format = reader.format
        summary.isCompressed = reader.isCompressed
        summary.linesJudgedAhead = scanAhead?.linesJudged ?? 0
        summary.lineTablesReused = scanAhead?.tablesReused ?? 0
        summary.chunksJudgedAhead = scanAhead?.chunksLent ?? 0
        summary.statistics = reader.statistics
        if exporterWarned { summary.statistics.diagnostics[.warning, default: 0] += 1 }
        if let extraction, extraction.archiveRoot != nil || extraction.problem != nil {
            exportExtractedArchive(extraction, of: input, summary: &summary, held: held, configuration: configuration, offers: offers,
                                   emit: passOn)
        }
        return summary
    }

    /// A part of a pasted document: its bytes read from the descriptor (at their offsets, so that parts are read on
    /// several threads at once), as a document read from the part's first line.
    private func readPart(_ part: DocumentPartRead, of input: LogInput, offers: RecordOffers, offering: Bool,
                          emit: (ReaderOutput) -> Void) -> InputSummary {
        var summary = InputSummary(input: input.name)
        var inference = options.timeInference
        inference.referenceInstant = inference.referenceInstant ?? part.referenceInstant
        if case .standardInput = input { inference.referenceDescription = "current time (standard input has no file date)" }
        if let description = part.referenceDescription {
            inference.referenceInstant = part.referenceInstant
            inference.referenceDescription = description
        }
        var configuration = ReaderConfiguration(inputName: input.name, timeInference: inference, limits: options.limits,
                                                skippedProcesses: options.skippedProcesses, offersRecords: offering)
        configuration.start = part.part.start
        configuration.isDocumentPart = !part.isWhole
        configuration.repeatedRegions = part.repeatedRegions
        var reader = LogStreamReader(configuration: configuration, format: .document)
        let buffer = Self.allocateReadBuffer(byteCount: options.chunkSize)
        defer { buffer.deallocate() }
        var loop = ReadLoop(origin: .part(part.bytes, start: part.part.start.byteOffset, end: part.part.end))
        do throws(ReaderError) {
            let end = try loop.run(into: &reader, buffer: buffer, interruption: options.interruption, offers: offers, emit: emit)
            try reader.finish(offers: offers, emit: emit)
            switch end {
            case .end: break
            case .interrupted: summary.interrupted = true
            case .failed(let reason):
                summary.failure = ReaderError(code: .unreadable, input: input.name, message: "\(reason); the input is cut short")
            }
        } catch {
            summary.failure = error
        }
        summary.format = reader.format
        summary.statistics = reader.statistics
        return summary
    }

    /// Reads the unified log taken out of a sysdiagnose archive as part of that input
    /// (`sysdiagnose.tar.gz:system_logs.logarchive`): natively, or through the log archive's tool when one is installed;
    /// the archive's report events (`held`, in time order) merged in by time. Its failure is a warning of the
    /// archive — its reports were read — not an unreadable input.
    private func exportExtractedArchive(_ extraction: LogArchiveExtraction, of input: LogInput, summary: inout InputSummary, held: [LogEvent],
                                        configuration: ReaderConfiguration, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        var pending = held[...]
        let origin = EventOrigin(input: input.name, line: 1, byteOffset: 0)
        func say(_ severity: ReaderDiagnostic.Severity, _ code: DiagnosticCode, _ message: String) {
            summary.statistics.diagnostics[severity, default: 0] += 1
            emit(.diagnostic(ReaderDiagnostic(code: code, severity: severity, message: message, origin: origin, lineCount: 0)))
        }
        defer { for event in pending { emit(.event(event)) } }
        if let problem = extraction.problem { say(.warning, .truncatedInput, problem) }
        if extraction.refused > 0 {
            say(.warning, .unreadReport, "\(extraction.refused) entr\(extraction.refused == 1 ? "y" : "ies") of the unified log not extracted: a `..` or `.` in the name, a name given twice or too long to create, or a second .logarchive")
        }
        guard let root = extraction.archiveRoot, let name = extraction.archiveName, summary.failure == nil, !summary.interrupted else { return }
        extraction.closeFile()
        let megabytes = (extraction.bytesWritten + 500_000) / 1_000_000
        func merged(_ output: ReaderOutput) {
            if case .event(let event) = output {
                while let first = pending.first, first.timestamp.microsecondsSinceEpoch <= event.timestamp.microsecondsSinceEpoch {
                    emit(.event(first))
                    pending = pending.dropFirst()
                }
            }
            emit(output)
        }
        guard let tool = options.logArchiveTool else {
            say(.note, .archiveContents, "its unified log (\(name), \(extraction.files) file\(extraction.files == 1 ? "" : "s"), \(megabytes) MB) read natively (no exporter installed)")
            let native = readUnifiedLogArchive(root, name: input.name + ":" + name, emit: merged)
            summary.statistics.add(native.statistics)
            if native.interrupted { summary.interrupted = true }
            if let failure = native.failure { say(.warning, .truncatedInput, "its unified log could not be read whole: \(failure.message)") }
            return
        }
        let command = tool.commandLine(archive: name, since: options.since, until: options.until)
        if let old = tool.versionWarning() { say(.warning, .exporterVersion, old) }
        switch tool.start(archive: root, since: options.since, until: options.until) {
        case .failure(let problem):
            say(.warning, .unreadReport, "its unified log (\(name)) could not be exported: \(problem.message)")
            return
        case .success(let started):
            say(.note, .archiveContents, "its unified log (\(name), \(extraction.files) file\(extraction.files == 1 ? "" : "s"), \(megabytes) MB) exported with `\(command)`")
            var toolConfiguration = configuration
            toolConfiguration.inputName = input.name + ":" + name
            toolConfiguration.archiveEntryExtractor = nil
            var reader = LogStreamReader(configuration: toolConfiguration)
            var failure: ReaderError?
            var exited: Int32?
            let end = drain(started.descriptor, of: started.pid, into: &reader, offers: offers, emit: merged, failure: &failure, status: &exited)
            close(started.descriptor)
            let status = exited ?? (end == .interrupted || failure != nil ? LogArchiveTool.stop(started.pid) : LogArchiveTool.wait(started.pid))
            summary.statistics.add(reader.statistics)
            if end == .interrupted {
                summary.interrupted = true
            } else if status != 0 {
                say(.warning, .truncatedInput, "`\(command)` exited with status \(status) (its messages are above): its unified log is read up to there")
            } else if let failure {
                say(.warning, .truncatedInput, "its unified log's export could not be read: \(failure.message)")
            }
        }
    }

    /// Whether the regular file open at `descriptor` starts as a tracev3 file does (read where it is, the descriptor's
    /// position unmoved): for a reader the plan did not sniff, as `events` reads.
    private static func startsAsTraceV3(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard descriptor > 0, fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
        var head = [UInt8](repeating: 0, count: 16)
        let got = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, 16, 0) }
        return got == 16 && head.withUnsafeBytes { FormatSniffer.isUnifiedLog($0) }
    }

    /// The size of the regular file open at `descriptor`; 0 for anything else.
    private func fileSize(_ descriptor: Int32) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int(status.st_size)
    }

    /// The buffer a read loop reads into, aligned to a page.
    ///
    /// The kernel copies a file's page-cache pages into it, and `read` from a regular file moves through the file in
    /// chunks of whole pages, so each copy runs from the start of a page to the same offset in the buffer. A buffer 16
    /// bytes past a page's start (what `malloc` returns for a block this large) puts every destination 16 bytes past
    /// its source. On AMD processors the kernel's copy (`rep movsb`) is much slower at such a short distance, and not
    /// at a page's start (glibc's `memmove` avoids such distances on AMD; the kernel's copy does not).
    static func allocateReadBuffer(byteCount: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: pageAlignment)
    }

    /// The system's page size, at least 4 KiB.
    private static let pageAlignment: Int = {
        #if canImport(Darwin)
        let size = Int(getpagesize())
        #else
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        #endif
        return max(4096, size)
    }()

    private enum DrainEnd { case endOfInput, interrupted, readFailed }

    /// Reads `descriptor` to its end into `reader`, stopping early when the run is interrupted; the reader is
    /// finished either way, and a decoding failure is put in `failure`.
    /// Waits until `descriptor`, the output of the tool `child`, has bytes or its end (true), or half a second
    /// has passed (false: the caller checks for an interruption and asks again). When the tool has exited meanwhile,
    /// `status` is its exit status and what it left running is killed with its process group, so that the output's
    /// end comes even when a process the tool started kept the pipe open.
    static func awaitOutput(_ descriptor: Int32, of child: pid_t, status: inout Int32?) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&waiting, 1, 500)
        if ready > 0 { return true }
        if ready < 0 { return false }  // a signal (EINTR): the caller checks for an interruption first
        if let exited = LogArchiveTool.reapIfExited(child) {
            status = exited
            return true
        }
        return false
    }

    private func drain(_ descriptor: Int32, of child: pid_t, into reader: inout LogStreamReader, offers: RecordOffers, emit: (ReaderOutput) -> Void,
                       failure: inout ReaderError?, status: inout Int32?) -> DrainEnd {
        let buffer = Self.allocateReadBuffer(byteCount: options.chunkSize)
        defer { buffer.deallocate() }
        var loop = ReadLoop(origin: .toolOutput(descriptor, tool: child))
        defer { status = loop.toolStatus }
        var end = DrainEnd.endOfInput
        do throws(ReaderError) {
            switch try loop.run(into: &reader, buffer: buffer, interruption: options.interruption, offers: offers, emit: emit) {
            case .end: break
            case .interrupted: end = .interrupted
            case .failed: end = .readFailed
            }
            try reader.finish(offers: offers, emit: emit)
        } catch {
            failure = error
        }
        return end
    }
}

/// A part of a pasted document to read as an input of its own (``DocumentPartition``): where it lies, in the document's
/// bytes, and the instant that dates its lines when they have no date.
package struct DocumentPartRead: Sendable {
    package var part: DocumentPartition.Part
    package var bytes: DocumentBytes
    package var referenceInstant: Int64?
    /// What dates the part's lines when it is not the file's modification time (a crash report's `Date/Time:` in the same
    /// paste, ``DocumentReportDate``): it beats the time inference's own reference.
    package var referenceDescription: String?
    /// The document's log blocks that repeat an earlier one (``DocumentPartition/repeatedRegions``), passed over.
    package var repeatedRegions: [Int] = []
    /// Whether the part is the whole document (one log in it): a document with no log in it is then refused.
    package var isWhole: Bool { part.start == .beginning && part.end == nil }
}

/// Where a pasted document's bytes are: a file open at a descriptor, standard input copied to a temporary file, or
/// memory (a paste handed to the library).
package enum DocumentBytes: Sendable {
    case file(OpenFile)
    case spooled(SpoolFile)
    case memory([UInt8])

    /// Up to `buffer.count` bytes at `offset` into `buffer`: their count, 0 at the end, -1 on a failure (`errno`). Safe
    /// from several threads at once.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        switch self {
        case .file(let file):
            while true {
                let count = pread(file.descriptor, buffer.baseAddress, buffer.count, off_t(offset))
                if count < 0, errno == EINTR { continue }
                return count
            }
        case .spooled(let file):
            return file.read(into: buffer, at: offset)
        case .memory(let bytes):
            guard offset < bytes.count else { return 0 }
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            return count
        }
    }
}

/// A file open for reading, closed with its last user.
package final class OpenFile: Sendable {
    let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { SystemCall.close(descriptor) }
}
