import ArgumentParser
import Foundation
import PrewarmLint

/// Options every command that reads logs shares: inputs, and how to read them.
struct ReadingOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Log files, directories (read recursively) or - for standard input.", valueName: "path"), completion: .file())
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp("Threads (default: every core): inputs read at once with --separately; a single file of 1 MiB or more read and classified on one thread while its sessions are built on another; writers of the JSON report. The output is the same for any value. Merged inputs (up to 32) are always read together, a thread each.", valueName: "n"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var input: InputOptions

    mutating func validate() throws {
        // `cat device.log | prewarm-lint`: with no path and a pipe or a file on standard input, that is the input.
        if paths.isEmpty, Self.standardInputIsData { paths = ["-"] }
        if paths.isEmpty { throw ValidationError("give at least one path, or - to read standard input") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
    }

    func readOptions(now: Int64) throws -> ReadOptions { try input.readOptions(now: now) }

    /// Whether standard input is a pipe or a file (not a terminal, not `/dev/null`): something was sent to it.
    static var standardInputIsData: Bool {
        var status = stat()
        guard fstat(0, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG || type == S_IFSOCK
    }
}

/// How to read inputs: format, time inference, limits (`compare` takes its paths its own way).
struct InputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Read every input as this format instead of sniffing it (see `prewarm-lint formats`).", valueName: "format"),
            completion: .list(LogFormat.allCases.map(\.rawValue)))
    var inputFormat: String?

    @Option(name: .long, help: ArgumentHelp("The date of the first event, for formats without one (Console.app copies).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(name: .long, help: ArgumentHelp("The year of the first event, for formats without one (idevicesyslog).", valueName: "YYYY"))
    var year: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The UTC offset of times printed without one (compact style, idevicesyslog, pymobiledevice3).", valueName: "±HH:MM"))
    var utcOffset: String?

    @Option(name: .long, help: ArgumentHelp("Only lines at or after this time (`2024-05-02 11:13:48`, with an optional offset; without one, in each line's own offset).", valueName: "time"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only lines at or before this time.", valueName: "time"))
    var until: String?

    @Option(name: .long, help: ArgumentHelp("Longest line kept whole, in bytes; longer ones are cut and reported (default 1 MiB).", valueName: "bytes"))
    var maxLineLength: Int?

    @Option(name: .long, help: ArgumentHelp("Longest multi-line message or record kept, in bytes (default 4 MiB).", valueName: "bytes"))
    var maxMessageLength: Int?

    @Flag(name: .long, help: ArgumentHelp("Read unified log archives (a .logarchive, a sysdiagnose's) through the installed exporter instead of natively: Apple's `log` on macOS, else `unifiedlog_iterator` on the PATH (PREWARM_LINT_LOG_TOOL or PREWARM_LINT_UNIFIEDLOG_ITERATOR name another)."))
    var exporter = false

    @Flag(name: .long, help: ArgumentHelp("Read every process's entries of a unified log natively, not only the chunks holding the launch daemons, the kernel and the apps (for `events`, or a comparison with another reader)."))
    var allProcesses = false

    func validate() throws {
        for (name, value) in [("--max-line-length", maxLineLength), ("--max-message-length", maxMessageLength)] {
            if let value, value < 1024 { throw ValidationError("\(name) must be at least 1024 bytes, not \(value)") }
        }
        if let inputFormat, LogFormat(rawValue: inputFormat) == nil {
            throw ValidationError("unknown input format '\(inputFormat)'; one of: \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        _ = try parsedDate()
        _ = try parsedOffset()
        if let since, TimeBound(since) == nil { throw ValidationError("--since must look like 2024-05-02 11:13:48[.ffffff][+02:00], not '\(since)'") }
        if let until, TimeBound(until) == nil { throw ValidationError("--until must look like 2024-05-02 11:13:48[.ffffff][+02:00], not '\(until)'") }
        if let year, !(1...9999).contains(year) { throw ValidationError("--year must be between 1 and 9999, not \(year)") }
        if exporter, LogArchiveTool.find() == nil { throw ValidationError("--exporter: \(LogArchiveTool.installHint)") }
        if exporter, allProcesses { throw ValidationError("--all-processes is the native reader's; the exporter reads what it reads") }
    }

    func parsedDate() throws -> CivilDateTime? {
        guard let date else { return nil }
        guard let civil = CivilDateTime(dateText: date) else {
            throw ValidationError("--date must be a real day written like 2024-05-02, not '\(date)'")
        }
        return civil
    }

    func parsedOffset() throws -> Int? {
        guard let utcOffset else { return nil }
        guard let seconds = CivilDateTime.utcOffsetSeconds(fromText: utcOffset) else {
            throw ValidationError("--utc-offset must look like +02:00, -0500 or Z, not '\(utcOffset)'")
        }
        return seconds
    }

    /// The reading options, with the Ctrl-C flag of ``SignalHandling`` (installed here: every
    /// command that reads logs goes through this).
    func readOptions(now: Int64) throws -> ReadOptions {
        SignalHandling.install()
        var limits = ReaderLimits()
        if let maxLineLength { limits.maximumLineLength = maxLineLength }
        if let maxMessageLength {
            limits.maximumMessageLength = maxMessageLength
            limits.maximumRecordLength = maxMessageLength
        }
        var options = ReadOptions(
            format: inputFormat.flatMap(LogFormat.init(rawValue:)),
            timeInference: TimeInference(date: try parsedDate(), year: year, utcOffsetSeconds: try parsedOffset()),
            standardInputReferenceInstant: now,
            limits: limits,
            interruption: SignalHandling.interruption
        )
        options.logArchiveTool = exporter ? LogArchiveTool.find() : nil
        options.readsAllUnifiedLogProcesses = allProcesses
        options.since = since.flatMap(TimeBound.init)
        options.until = until.flatMap(TimeBound.init)
        return options
    }
}
