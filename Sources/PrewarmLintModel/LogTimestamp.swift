/// When an event was emitted: the instant, the text it was read from, and what was inferred.
///
/// Export formats drop parts of the time: a Console.app copy has no date
/// (`21:28:47.038326-0500`), `idevicesyslog` has no year and no UTC offset
/// (`May  2 11:13:48.554160`), `log show --style compact` has no offset. Readers fill the gaps
/// (from options, other lines of the same input, or the file's modification time) and record
/// what they filled in ``inferred``, so a report can say how sure it is of a time.
///
/// The instant is kept in microseconds since 1970-01-01 UTC: every format prewarm-lint reads has
/// at most microsecond precision except `xctrace` (nanoseconds), and 64-bit microseconds cover
/// years far beyond 9999 without overflow.
public struct LogTimestamp: Sendable, Hashable, Comparable {
    /// Which parts of the time were not in the input and had to be inferred.
    public struct InferredParts: OptionSet, Sendable, Hashable {
        /// The parts, one bit each.
        public let rawValue: UInt8
        /// The parts of these bits.
        @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The year (formats such as `idevicesyslog` print `May  2` without one).
        public static let year = InferredParts(rawValue: 1 << 0)
        /// The whole date (Console.app copies print only the time of day).
        public static let date = InferredParts(rawValue: 1 << 1)
        /// The UTC offset (`log show --style compact`, `idevicesyslog`, pymobiledevice3).
        public static let utcOffset = InferredParts(rawValue: 1 << 2)

        /// The names of the inferred parts, in a fixed order: `year`, `date`, `utcOffset`.
        public var names: [String] {
            var result: [String] = []
            if contains(.year) { result.append("year") }
            if contains(.date) { result.append("date") }
            if contains(.utcOffset) { result.append("utcOffset") }
            return result
        }
    }

    /// The instant, in microseconds since 1970-01-01T00:00:00Z.
    public var microsecondsSinceEpoch: Int64
    /// The UTC offset the time was written in (or was assumed to be), in seconds east of UTC.
    public var utcOffsetSeconds: Int
    /// The timestamp exactly as it appeared in the input.
    public var text: String {
        get { storedText.string }
        set { storedText = TimestampText(newValue) }
    }
    /// ``text``, stored without a heap allocation when it is short.
    public var storedText: TimestampText
    /// What had to be inferred to compute ``microsecondsSinceEpoch``.
    public var inferred: InferredParts

    /// Creates a timestamp.
    public init(microsecondsSinceEpoch: Int64, utcOffsetSeconds: Int, text: String, inferred: InferredParts = []) {
        self.init(microsecondsSinceEpoch: microsecondsSinceEpoch, utcOffsetSeconds: utcOffsetSeconds,
                  storedText: TimestampText(text), inferred: inferred)
    }

    /// Creates a timestamp whose text is already a ``TimestampText`` (what readers do: no allocation).
    @inlinable public init(microsecondsSinceEpoch: Int64, utcOffsetSeconds: Int, storedText: TimestampText, inferred: InferredParts = []) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
        self.utcOffsetSeconds = utcOffsetSeconds
        self.storedText = storedText
        self.inferred = inferred
    }

    /// Orders by instant only.
    public static func < (lhs: LogTimestamp, rhs: LogTimestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    /// The instants a log's time may name, in microseconds since the epoch: the years 1970 through 2100, with a day's
    /// margin at each end for any UTC offset. A time outside them is an unreadable field (``isReadable(_:)``), said as
    /// such by the reader, never an event: no device wrote it, and the difference of any two readable instants — even
    /// in nanoseconds — fits in 64 bits, so no arithmetic on read times can overflow.
    public static let readableInstants: ClosedRange<Int64> = (-86_400 * 1_000_000)...((4_133_980_800 + 86_400) * 1_000_000)

    /// Whether an instant lies in ``readableInstants``.
    @inlinable public static func isReadable(_ microsecondsSinceEpoch: Int64) -> Bool {
        readableInstants.contains(microsecondsSinceEpoch)
    }

    /// What a reader says of a time outside ``readableInstants``: `'…' is not a time between 1970 and 2100`.
    public static func unreadableTimeMessage(_ text: String) -> String {
        "'\(text)' is not a time between 1970 and 2100; record skipped"
    }

    /// The microseconds from `start` to `end`, clamped to what 64 bits hold: what every duration between two instants
    /// is computed with, so that instants made by a library caller (not range-checked like read ones) cannot trap.
    @inlinable public static func microseconds(from start: Int64, to end: Int64) -> Int64 {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        guard overflow else { return difference }
        return end > start ? .max : .min
    }

    /// The microseconds from `earlier` to this instant (``microseconds(from:to:)``).
    @inlinable public func microseconds(since earlier: LogTimestamp) -> Int64 {
        Self.microseconds(from: earlier.microsecondsSinceEpoch, to: microsecondsSinceEpoch)
    }

    /// The instant as ISO 8601 in the timestamp's own UTC offset, with microseconds:
    /// `2023-07-19T08:22:51.916784+03:00`.
    public var iso8601: String {
        CivilDateTime(microsecondsSinceEpoch: microsecondsSinceEpoch, utcOffsetSeconds: utcOffsetSeconds)
            .iso8601(utcOffsetSeconds: utcOffsetSeconds)
    }
}

extension Int64 {
    /// `lhs + rhs`, held at `Int64`'s ends instead of trapping: sums of durations a library caller's instants may make.
    @inlinable public static func addingSaturated(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? (rhs > 0 ? .max : .min) : sum
    }
}
