import PrewarmLint

/// The `events` filters: every given condition must hold.
struct EventFilter {
    var processes: Set<String>
    var pids: Set<Int>
    var since: TimeBound?
    var until: TimeBound?
    var grep: String?

    func accepts(_ event: LogEvent) -> Bool {
        if !processes.isEmpty, !processes.contains(event.process) { return false }
        if !pids.isEmpty, !(event.pid.map(pids.contains) ?? false) { return false }
        if let since, since.compare(event) < 0 { return false }
        if let until, until.compare(event) > 0 { return false }
        if let grep, event.message.range(of: grep, options: .caseInsensitive) == nil { return false }
        return true
    }
}

/// A `--since`/`--until` bound: an instant when the text has an offset; otherwise a local time,
/// compared with each event's time in the offset it was written in.
struct TimeBound {
    var civil: CivilDateTime
    var offsetSeconds: Int?

    init?(_ text: String) {
        guard let partial = PartialTimestamp(parsing: text), let year = partial.year, let month = partial.month, let day = partial.day
        else { return nil }
        civil = CivilDateTime(year: year, month: month, day: day, hour: partial.hour, minute: partial.minute,
                              second: partial.second, microsecond: partial.microsecond)
        guard civil.isValid else { return nil }
        offsetSeconds = partial.utcOffsetSeconds
    }

    /// -1 when the event is before the bound, 0 at it, 1 after it.
    func compare(_ event: LogEvent) -> Int {
        if let offsetSeconds {
            let bound = civil.microsecondsSinceEpoch(utcOffsetSeconds: offsetSeconds)
            let instant = event.timestamp.microsecondsSinceEpoch
            return instant < bound ? -1 : instant > bound ? 1 : 0
        }
        let local = CivilDateTime(microsecondsSinceEpoch: event.timestamp.microsecondsSinceEpoch,
                                  utcOffsetSeconds: event.timestamp.utcOffsetSeconds)
        return local < civil ? -1 : civil < local ? 1 : 0
    }
}
