import PrewarmLintModel
import PrewarmLintReaders
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension InputReader {
    /// A `.logarchive` read natively (no exporter installed): each tracev3 file read by its own reader with the
    /// archive's strings and clock (``UnifiedLogArchiveFiles``), only the chunksets of the processes a launch needs,
    /// then the files' events merged by time. Each file's events arrive sorted at its end, so the archive's chosen
    /// events are held until the last file is read: memory grows with them (not with the archive's other entries).
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
        let (context, strings) = UnifiedLogArchiveFiles.context(archive: root, allProcesses: options.readsAllUnifiedLogProcesses)
        defer { strings.close() }
        var runs: [[LogEvent]] = []
        let prefix = root.hasSuffix("/") ? root : root + "/"
        for path in files {
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
                try reader.finish(emit: collect)
            } catch {
                summary.failure = summary.failure ?? error
            }
            summary.statistics.add(reader.statistics)
            runs.append(events)
        }
        // The files' runs merged by time; of one instant, the earlier file's first.
        var heads = runs.map { $0.startIndex }
        while true {
            var best: Int?
            for run in runs.indices where heads[run] < runs[run].endIndex {
                if let current = best,
                   runs[current][heads[current]].timestamp.microsecondsSinceEpoch <= runs[run][heads[run]].timestamp.microsecondsSinceEpoch { continue }
                best = run
            }
            guard let run = best else { break }
            emit(.event(runs[run][heads[run]]))
            heads[run] += 1
        }
        return summary
    }
}
