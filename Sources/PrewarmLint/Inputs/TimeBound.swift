public import PrewarmLintModel
import PrewarmLintReaders
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `--since`/`--until` bound: an instant when the text has an offset; otherwise a local time,
/// compared with each event's time in the offset it was written in.
public struct TimeBound: Sendable, Hashable {
    /// The bound's date and time.
    public var civil: CivilDateTime
    /// Its UTC offset when the text gave one; nil: a wall-clock time, compared in each line's own offset.
    public var offsetSeconds: Int?

    /// The bound `text` writes (`2024-05-02 11:13:48`, with optional fraction and offset); nil when it is not one.
    public init?(_ text: String) {
        guard let partial = PartialTimestamp(parsing: text), let year = partial.year, let month = partial.month, let day = partial.day
        else { return nil }
        civil = CivilDateTime(year: year, month: month, day: day, hour: partial.hour, minute: partial.minute,
                              second: partial.second, microsecond: partial.microsecond)
        guard civil.isValid else { return nil }
        offsetSeconds = partial.utcOffsetSeconds
    }

    /// -1 when a line at `timestamp` is before the bound, 0 at it, 1 after it.
    public func compare(_ timestamp: LogTimestamp) -> Int {
        if let offsetSeconds {
            let bound = civil.microsecondsSinceEpoch(utcOffsetSeconds: offsetSeconds)
            let instant = timestamp.microsecondsSinceEpoch
            return instant < bound ? -1 : instant > bound ? 1 : 0
        }
        let local = CivilDateTime(microsecondsSinceEpoch: timestamp.microsecondsSinceEpoch, utcOffsetSeconds: timestamp.utcOffsetSeconds)
        return local < civil ? -1 : civil < local ? 1 : 0
    }
}

extension TimeInference {
    /// A file's modification time as the instant a log without a date is placed before (``referenceInstant``); nil when
    /// it is not a time between 1970 and 2100 (`touch -d` sets any), so no day is inferred from it.
    static func referenceInstant(modificationTime status: stat) -> Int64? {
        #if canImport(Darwin)
        let seconds = Int64(status.st_mtimespec.tv_sec)
        #else
        let seconds = Int64(status.st_mtim.tv_sec)
        #endif
        let (instant, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        return !overflow && LogTimestamp.isReadable(instant) ? instant : nil
    }
}
