public import PrewarmLintModel

/// What a reader may use to complete timestamps that lack a year, a date or a UTC offset.
///
/// Order of precedence: the input's own lines, then these options, then ``referenceInstant``
/// (the caller passes the file's modification time; for standard input the CLI passes the
/// current time), and for the UTC offset, UTC. Whatever was filled in is marked in
/// `LogTimestamp.inferred` and reported once per input as an `inferred-time` note.
public struct TimeInference: Sendable, Hashable {
    /// The date of the first event, for formats without a date (`--date`).
    public var date: CivilDateTime?
    /// The year of the first event, for formats without a year (`--year`).
    public var year: Int?
    /// The UTC offset, for formats without one (`--utc-offset`), in seconds east of UTC.
    public var utcOffsetSeconds: Int?
    /// An instant at or after the end of the log, such as the file's modification time, in
    /// microseconds since the epoch: the date or year is taken from it when nothing else gives one.
    public var referenceInstant: Int64?
    /// What the reference is, for the note that says it was used (`file modification time`).
    public var referenceDescription: String

    /// What to assume; nothing by default.
    public init(date: CivilDateTime? = nil, year: Int? = nil, utcOffsetSeconds: Int? = nil,
                referenceInstant: Int64? = nil, referenceDescription: String = "file modification time") {
        self.date = date
        self.year = year
        self.utcOffsetSeconds = utcOffsetSeconds
        self.referenceInstant = referenceInstant
        self.referenceDescription = referenceDescription
    }
}

/// Turns ``PartialTimestamp``s into `LogTimestamp`s for one input, in input order.
///
/// For a format without a date or year, each event is placed on the day (or year) that puts it
/// nearest to the previous event, so a log crossing midnight or New Year keeps its order while
/// a few out-of-order lines (common in Console copies) do not move the date.
public struct TimestampResolver: Sendable {
    /// What is assumed for the parts a format does not print.
    public let inference: TimeInference
    private var lastInstant: Int64?
    private var currentDate: (year: Int, month: Int, day: Int)?
    /// The instant of midnight of ``currentDate`` at `offset`: a date-less line's instant is this plus its time of
    /// day, so placing it is two comparisons, not three dates built and counted on every line.
    private var currentDayStart: (offset: Int, instant: Int64)?
    private var currentYear: Int?
    private var lastSeenOffset: Int?
    /// The last date resolved and its day count: consecutive records are mostly of one day.
    private var lastDay: (year: Int, month: Int, day: Int, days: Int64)?
    /// Notes about assumptions made, not yet handed to the caller.
    private var pendingNotes: [String] = []
    private var notedParts: LogTimestamp.InferredParts = []
    /// What a time placed on a day by the lines before it inferred, made once: the parts are static properties of
    /// another module, and reading them was two calls to their accessors on every line of a Console copy.
    private let dateAndYear: LogTimestamp.InferredParts = [.date, .year]

    /// A resolver for one input.
    public init(inference: TimeInference) {
        self.inference = inference
    }

    /// Completes a partial timestamp; nil when its fields do not name a real time.
    public mutating func resolve(_ partial: PartialTimestamp, text: String) -> LogTimestamp? {
        resolve(partial, text: TimestampText(text))
    }

    /// Completes a partial timestamp whose text is kept as a `TimestampText`.
    public mutating func resolve(_ partial: PartialTimestamp, text: TimestampText) -> LogTimestamp? {
        advance(past: partial)?.timestamp(text: text)
    }

    /// Takes in the timestamp of a record that is not kept (skipped or refused by a filter): the resolver
    /// moves on exactly as `resolve(_:text:)` would, so later times come out the same, without the text
    /// and the timestamp being made. False when the fields do not name a real time.
    public mutating func pass(_ partial: PartialTimestamp) -> Bool {
        advance(past: partial) != nil
    }

    /// A timestamp resolved before its text is attached: what a text decoder keeps for a record it may
    /// not build (``resolve(_:text:)`` is ``advance(past:)`` and then ``timestamp(text:)``).
    struct ResolvedTime {
        var instant: Int64
        var offset: Int
        var inferred: LogTimestamp.InferredParts

        func timestamp(text: TimestampText) -> LogTimestamp {
            LogTimestamp(microsecondsSinceEpoch: instant, utcOffsetSeconds: offset, storedText: text, inferred: inferred)
        }
    }

    /// Whether notes wait to be taken (``takeNotes()``).
    var hasNotes: Bool { !pendingNotes.isEmpty }

    /// What `advance(past:)` does with a partial timestamp, of a packed one: without unpacking it when it is complete.
    mutating func advance(past packed: PackedTimestamp) -> ResolvedTime? {
        // A time of day with its offset after the first line (a Console copy's every line): placed on the nearest day
        // straight from the packed fields.
        if packed.month == PackedTimestamp.none || packed.day == PackedTimestamp.none, packed.offset != PackedTimestamp.none,
           currentDate != nil, lastInstant != nil {
            let offset = Int(packed.offset)
            lastSeenOffset = offset
            if let resolved = placeDateless(hour: Int(packed.hour), minute: Int(packed.minute), second: Int(packed.second),
                                            microsecond: Int(packed.microsecond), offset: offset, inferred: []) {
                return resolved
            }
        }
        guard packed.isComplete else { return advance(past: packed.partial) }
        return advanceComplete(year: Int(packed.year), month: Int(packed.month), day: Int(packed.day), hour: Int(packed.hour),
                               minute: Int(packed.minute), second: Int(packed.second), microsecond: Int(packed.microsecond),
                               offset: Int(packed.offset))
    }

    /// A timestamp with its date and offset: nothing to infer. The day count of its date is remembered for the next.
    private mutating func advanceComplete(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, microsecond: Int,
                                          offset: Int) -> ResolvedTime? {
        lastSeenOffset = offset
        let days: Int64
        if let last = lastDay, last.day == day, last.month == month, last.year == year {
            days = last.days
        } else {
            guard CivilDateTime.isValidDate(year: year, month: month, day: day) else { return nil }
            days = CivilDateTime.days(fromCivilYear: year, month: month, day: day)
            lastDay = (year, month, day, days)
        }
        guard CivilDateTime.isValidTime(hour: hour, minute: minute, second: second, microsecond: microsecond) else { return nil }
        let instant = CivilDateTime.microsecondsSinceEpoch(days: days, hour: hour, minute: minute, second: second,
                                                           microsecond: microsecond, utcOffsetSeconds: offset)
        guard LogTimestamp.isReadable(instant) else { return nil }
        lastInstant = instant
        return ResolvedTime(instant: instant, offset: offset, inferred: [])
    }

    /// Completes a partial timestamp, moving on as ``resolve(_:text:)`` does; nil when its fields do not name a real time.
    mutating func advance(past partial: PartialTimestamp) -> ResolvedTime? {
        if let year = partial.year, let month = partial.month, let day = partial.day, let offset = partial.utcOffsetSeconds {
            return advanceComplete(year: year, month: month, day: day, hour: partial.hour, minute: partial.minute,
                                   second: partial.second, microsecond: partial.microsecond, offset: offset)
        }
        var inferred: LogTimestamp.InferredParts = []
        let offset: Int
        if let own = partial.utcOffsetSeconds {
            offset = own
            lastSeenOffset = own
        } else {
            inferred.insert(.utcOffset)
            if let given = inference.utcOffsetSeconds {
                offset = given
                if firstTime(.utcOffset) { pendingNotes.append("UTC offset not in the input; using \(CivilDateTime.offsetText(given, colon: true)) from --utc-offset") }
            } else if let seen = lastSeenOffset {
                offset = seen
            } else {
                offset = 0
                if firstTime(.utcOffset) { pendingNotes.append("UTC offset not in the input; assuming +00:00 (pass --utc-offset)") }
            }
        }

        // A date-less line after the first: on the current day, or the one before or after — whichever puts it
        // nearest the previous line (the same choice as `placeOnNearestDay`, ties to the earlier day).
        if partial.month == nil || partial.day == nil,
           let resolved = placeDateless(hour: partial.hour, minute: partial.minute, second: partial.second,
                                        microsecond: partial.microsecond, offset: offset, inferred: inferred) {
            return resolved
        }

        var civil = CivilDateTime(year: partial.year ?? 0, month: partial.month ?? 1, day: partial.day ?? 1,
                                  hour: partial.hour, minute: partial.minute, second: partial.second,
                                  microsecond: partial.microsecond)
        if partial.month == nil || partial.day == nil {
            inferred.insert(.date)
            inferred.insert(.year)
            civil = placeOnNearestDay(civil, offset: offset)
        } else if partial.year == nil {
            inferred.insert(.year)
            civil = placeInNearestYear(civil, offset: offset)
        }
        guard civil.isValid, (0...9999).contains(civil.year) else { return nil }
        let instant = civil.microsecondsSinceEpoch(utcOffsetSeconds: offset)
        guard LogTimestamp.isReadable(instant) else { return nil }
        lastInstant = instant
        return ResolvedTime(instant: instant, offset: offset, inferred: inferred)
    }

    /// A date-less time after the first line: on the current day, or the one before or after — whichever puts it
    /// nearest the previous line (the same choice as `placeOnNearestDay`, ties to the earlier day), from the cached
    /// midnight of the current day. Nil when there is no line before it or the time is not a real one (the caller
    /// then takes the general way, which says why).
    private mutating func placeDateless(hour: Int, minute: Int, second: Int, microsecond: Int, offset: Int,
                                        inferred given: LogTimestamp.InferredParts) -> ResolvedTime? {
        guard let current = currentDate, let last = lastInstant,
              CivilDateTime.isValidTime(hour: hour, minute: minute, second: second, microsecond: microsecond) else { return nil }
        let day: Int64 = 86_400_000_000
        let start: Int64
        if let cached = currentDayStart, cached.offset == offset {
            start = cached.instant
        } else {
            start = CivilDateTime(year: current.year, month: current.month, day: current.day).microsecondsSinceEpoch(utcOffsetSeconds: offset)
        }
        let timeOfDay = (Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)) * 1_000_000 + Int64(microsecond)
        var dayStart = start
        if start + timeOfDay - last >= day / 2 {
            dayStart -= day
        } else if last - (start + timeOfDay) > day / 2 {
            dayStart += day
        }
        if dayStart != start {
            let moved = CivilDateTime(microsecondsSinceEpoch: dayStart, utcOffsetSeconds: offset)
            currentDate = (moved.year, moved.month, moved.day)
        }
        currentDayStart = (offset, dayStart)
        let inferred = given.union(dateAndYear)
        let instant = dayStart + timeOfDay
        guard LogTimestamp.isReadable(instant) else { return nil }
        lastInstant = instant
        return ResolvedTime(instant: instant, offset: offset, inferred: inferred)
    }

    /// Takes the notes about assumptions made since the last call (each assumption is noted once per input).
    public mutating func takeNotes() -> [String] {
        defer { pendingNotes.removeAll() }
        return pendingNotes
    }

    /// Whether an assumption is to be noted: the first time per input. Callers build the note's text only
    /// then — built for every event, it was one allocation per event of a log without dates or offsets.
    private mutating func firstTime(_ part: LogTimestamp.InferredParts) -> Bool {
        guard !notedParts.contains(part) else { return false }
        notedParts.insert(part)
        return true
    }

    private mutating func placeOnNearestDay(_ time: CivilDateTime, offset: Int) -> CivilDateTime {
        var candidate = time
        guard let current = currentDate else {
            // The first date-less event: take the date from --date, else from the reference instant.
            if let given = inference.date {
                (candidate.year, candidate.month, candidate.day) = (given.year, given.month, given.day)
                if firstTime(.date) { pendingNotes.append("date not in the input; using \(Self.dateText(given)) from --date") }
            } else if let reference = inference.referenceInstant {
                let referenceLocal = CivilDateTime(microsecondsSinceEpoch: reference, utcOffsetSeconds: offset)
                (candidate.year, candidate.month, candidate.day) = (referenceLocal.year, referenceLocal.month, referenceLocal.day)
                // A log cannot be written after its file: an event later in the day than the reference is from the day before.
                if candidate.microsecondsSinceEpoch(utcOffsetSeconds: offset) > reference {
                    candidate = candidate.previousDay()
                }
                if firstTime(.date) { pendingNotes.append("date not in the input; assuming \(Self.dateText(candidate)) from the \(inference.referenceDescription) (pass --date)") }
            } else {
                candidate.year = 2000
                if firstTime(.date) { pendingNotes.append("date not in the input and no reference time; assuming 2000-01-01 (pass --date)") }
            }
            currentDate = (candidate.year, candidate.month, candidate.day)
            currentDayStart = nil
            return candidate
        }
        (candidate.year, candidate.month, candidate.day) = current
        if let last = lastInstant {
            let options = [candidate.previousDay(), candidate, candidate.nextDay()]
            candidate = options.min { lhs, rhs in
                abs(lhs.microsecondsSinceEpoch(utcOffsetSeconds: offset) - last)
                    < abs(rhs.microsecondsSinceEpoch(utcOffsetSeconds: offset) - last)
            }!
        }
        currentDate = (candidate.year, candidate.month, candidate.day)
        currentDayStart = nil
        return candidate
    }

    private mutating func placeInNearestYear(_ time: CivilDateTime, offset: Int) -> CivilDateTime {
        var candidate = time
        guard let year = currentYear else {
            if let given = inference.year {
                candidate.year = given
                if firstTime(.year) { pendingNotes.append("year not in the input; using \(given) from --year") }
            } else if let given = inference.date {
                candidate.year = given.year
                if firstTime(.year) { pendingNotes.append("year not in the input; using \(given.year) from --date") }
            } else if let reference = inference.referenceInstant {
                let referenceLocal = CivilDateTime(microsecondsSinceEpoch: reference, utcOffsetSeconds: offset)
                candidate.year = referenceLocal.year
                if candidate.isValid, candidate.microsecondsSinceEpoch(utcOffsetSeconds: offset) > reference {
                    candidate.year -= 1
                }
                if firstTime(.year) { pendingNotes.append("year not in the input; assuming \(candidate.year) from the \(inference.referenceDescription) (pass --year)") }
            } else {
                candidate.year = 2000
                if firstTime(.year) { pendingNotes.append("year not in the input and no reference time; assuming 2000 (pass --year)") }
            }
            // February 29th in an assumed non-leap year: the nearest leap year before it.
            while !candidate.isValid, candidate.month == 2, candidate.day == 29, candidate.year > 0 { candidate.year -= 1 }
            currentYear = candidate.year
            return candidate
        }
        candidate.year = year
        if let last = lastInstant {
            var best = candidate
            var bestDistance = Int64.max
            for delta in [-1, 0, 1] {
                var option = candidate
                option.year = year + delta
                guard option.isValid else { continue }
                let distance = abs(option.microsecondsSinceEpoch(utcOffsetSeconds: offset) - last)
                if distance < bestDistance {
                    best = option
                    bestDistance = distance
                }
            }
            candidate = best
        }
        currentYear = candidate.year
        return candidate
    }

    private static func dateText(_ civil: CivilDateTime) -> String {
        String(civil.iso8601(utcOffsetSeconds: 0).prefix(10))
    }
}
