import PrewarmLintModel
import HeapModule
import PrewarmLintReaders
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension InputReader {
    /// A `.logarchive` read natively: each tracev3 file read by its own reader with the archive's strings and clock
    /// (``UnifiedLogArchiveFiles``), only the chunksets of the processes a launch needs, then the files' events merged
    /// by time. A file's events arrive sorted at its end, so the files are read in the order their headers say they
    /// began, and after each one the events held that come before the next file's start are handed on: memory holds
    /// the events of the files that overlap in time (a Persist file and the Special, Signpost and HighVolume files of
    /// its hours), not the archive's.
    ///
    /// `name`: the input's name in the report (the folder as named, or `sysdiagnose.tar.gz:NAME.logarchive`).
    func readUnifiedLogArchive(_ root: String, name inputName: String, emit: (ReaderOutput) -> Void) -> InputSummary {
        var summary = InputSummary(input: inputName)
        summary.format = .logArchive
        let files = UnifiedLogArchiveFiles.tracev3Files(archive: root)
        guard !files.isEmpty else {
            summary.failure = ReaderError(code: .unreadable, input: inputName,
                                          message: "a unified log archive with no tracev3 file (in Persist/, Special/, Signpost/, HighVolume/ or its root)")
            return summary
        }
        let (context, strings) = UnifiedLogArchiveFiles.context(archive: root, allProcesses: options.readsAllUnifiedLogProcesses,
                                                                since: options.since, until: options.until)
        defer { strings.close() }
        var runs = HeldRuns()
        var overflows = 0
        let prefix = root.hasSuffix("/") ? root : root + "/"
        // Read in the order the files began (a file whose header cannot be read first: it fails at once).
        let ordered = files.map { (path: $0, start: UnifiedLogArchiveFiles.startMicroseconds(of: $0) ?? .min) }
            .enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        for (index, (path, _)) in ordered.enumerated() {
            if options.interruption?.isRaised == true {
                summary.interrupted = true
                break
            }
            let relative = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
            let name = inputName + "/" + relative
            var configuration = ReaderConfiguration(inputName: name, timeInference: options.timeInference, limits: options.limits,
                                                    skippedProcesses: options.skippedProcesses)
            configuration.unifiedLog = context
            var reader = LogStreamReader(configuration: configuration, format: .unifiedLog)
            var events: [LogEvent] = []
            func collect(_ output: ReaderOutput) {
                if case .event(let event) = output { events.append(event) } else { emit(output) }
            }
            guard let file = FileBytes(path: path) else {
                summary.failure = summary.failure ?? ReaderError(code: .unreadable, input: inputName, message: "cannot open \(relative)")
                continue
            }
            defer { file.close() }
            // Not a tracev3 file (its first bytes are not a header chunk's): this input cannot be read as an archive.
            let head = file.bytes(at: 0, count: 16)
            guard head.withUnsafeBytes({ FormatSniffer.sniff($0, isComplete: false, allowsDocument: false) }) == .unifiedLog else {
                summary.failure = summary.failure ?? ReaderError(code: .unreadable, input: inputName, message: "\(relative) is not a tracev3 file: its first bytes are not a unified log header")
                continue
            }
            do throws(ReaderError) {
                var offset = 0
                while offset < file.size {
                    if options.interruption?.isRaised == true {
                        summary.interrupted = true
                        break
                    }
                    let chunk = file.bytes(at: offset, count: options.chunkSize)
                    if chunk.isEmpty { break }
                    let outcome: Result<Void, ReaderError> = chunk.withUnsafeBytes { raw in
                        Result { () throws(ReaderError) in try reader.read(raw, emit: collect) }
                    }
                    try outcome.get()
                    offset += chunk.count
                }
                // Interrupted: the file is not at its end, and is not said to be cut (its events, held to its end, are
                // not handed on).
                if !summary.interrupted { try reader.finish(emit: collect) }
            } catch {
                summary.failure = summary.failure ?? error
            }
            summary.statistics.add(reader.statistics)
            runs.add(events)
            // What comes before the next file's start can come from no file still to read.
            runs.emit(before: index + 1 < ordered.count ? ordered[index + 1].start : .max) { emit(.event($0)) }
            // Files overlapping in time past what is held (a real archive's overlap: a Persist file and the Special,
            // Signpost and HighVolume files of its hours): what is held is handed on, and said.
            if runs.count > HeldRuns.maximumHeld {
                overflows += 1
                runs.emit(before: .max) { emit(.event($0)) }
            }
        }
        runs.emit(before: .max) { emit(.event($0)) }
        if overflows > 0 {
            let diagnostic = ReaderDiagnostic(
                code: .stateLimit, severity: .warning,
                message: "the archive's files overlap in time past the \(HeldRuns.maximumHeld) events held to merge them (\(overflows) time\(overflows == 1 ? "" : "s")): some events of later files came before earlier ones' and sessions across them may be split",
                origin: EventOrigin(input: inputName, line: 0, byteOffset: 0))
            summary.statistics.diagnostics[.warning, default: 0] += 1
            emit(.diagnostic(diagnostic))
        }
        return summary
    }
}

/// The sorted runs of events of the files read, merged by time as far as a bound: of one instant, the earlier
/// file's first. Each run's next event waits in a heap, so handing on an event costs the logarithm of the runs held,
/// however many files overlap.
struct HeldRuns {
    private struct Head: Comparable {
        var time: Int64
        var run: Int
        static func < (lhs: Head, rhs: Head) -> Bool { (lhs.time, lhs.run) < (rhs.time, rhs.run) }
    }
    private var runs: [Int: (events: [LogEvent], head: Int)] = [:]
    private var heads = Heap<Head>()
    private var added = 0
    /// The events held.
    private(set) var count = 0
    /// The most events held between files (a real archive's overlapping files hold well under it).
    static let maximumHeld = 250_000

    mutating func add(_ events: [LogEvent]) {
        guard let first = events.first else { return }
        runs[added] = (events, 0)
        heads.insert(Head(time: first.timestamp.microsecondsSinceEpoch, run: added))
        added += 1
        count += events.count
    }

    /// Hands on, in time order, every event held earlier than `bound` (microseconds since 1970; `.max`: all).
    mutating func emit(before bound: Int64, _ emit: (LogEvent) -> Void) {
        while let next = heads.min, bound == .max || next.time < bound {
            _ = heads.popMin()
            guard var run = runs.removeValue(forKey: next.run) else { continue }
            emit(run.events[run.head])
            run.head += 1
            count -= 1
            if run.head < run.events.count {
                heads.insert(Head(time: run.events[run.head].timestamp.microsecondsSinceEpoch, run: next.run))
                runs[next.run] = run
            }
        }
    }
}
