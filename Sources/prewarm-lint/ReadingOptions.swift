import ArgumentParser
import PrewarmLint

/// Options every command that reads logs shares: inputs, format and time inference.
struct ReadingOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Log files, directories (read recursively) or - for standard input.", valueName: "path"))
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp("Read every input as this format instead of sniffing it (see `prewarm-lint formats`).", valueName: "format"))
    var inputFormat: String?

    @Option(name: .long, help: ArgumentHelp("The date of the first event, for formats without one (Console.app copies).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(name: .long, help: ArgumentHelp("The year of the first event, for formats without one (idevicesyslog).", valueName: "YYYY"))
    var year: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The UTC offset of times printed without one (compact style, idevicesyslog, pymobiledevice3).", valueName: "±HH:MM"))
    var utcOffset: String?

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one path, or - to read standard input") }
        if let inputFormat, LogFormat(rawValue: inputFormat) == nil {
            throw ValidationError("unknown input format '\(inputFormat)'; one of: \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        _ = try parsedDate()
        _ = try parsedOffset()
        if let year, !(1...9999).contains(year) { throw ValidationError("--year must be between 1 and 9999, not \(year)") }
    }

    func parsedDate() throws -> CivilDateTime? {
        guard let date else { return nil }
        let parts = date.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            throw ValidationError("--date must look like 2024-05-02, not '\(date)'")
        }
        let civil = CivilDateTime(year: year, month: month, day: day)
        guard civil.isValid else { throw ValidationError("--date '\(date)' is not a real date") }
        return civil
    }

    func parsedOffset() throws -> Int? {
        guard let utcOffset else { return nil }
        guard let seconds = UTCOffsetText.parse(utcOffset) else {
            throw ValidationError("--utc-offset must look like +02:00, -0500 or Z, not '\(utcOffset)'")
        }
        return seconds
    }

    func readOptions(now: Int64) throws -> ReadOptions {
        ReadOptions(
            format: inputFormat.flatMap(LogFormat.init(rawValue:)),
            timeInference: TimeInference(date: try parsedDate(), year: year, utcOffsetSeconds: try parsedOffset()),
            standardInputReferenceInstant: now
        )
    }
}

enum UTCOffsetText {
    /// `+02:00`, `-0500`, `+2`, `Z`.
    static func parse(_ text: String) -> Int? {
        if text == "Z" || text == "UTC" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.allSatisfy(\.isNumber), !digits.isEmpty else { return nil }
        let hours: Int, minutes: Int
        switch digits.count {
        case 1, 2: hours = Int(digits)!; minutes = 0
        case 4: hours = Int(digits.prefix(2))!; minutes = Int(digits.suffix(2))!
        default: return nil
        }
        guard hours <= 23, minutes <= 59 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
