/// The type of a log event: its `os_log` level, or the kind of a non-log event.
///
/// Formats spell these differently (`Default`/`Df`/`default`/`<Notice>`/`NOTICE`, and Console.app
/// localizes them: German `standard`, `fehler`); readers map them all onto this one set.
/// `idevicesyslog`'s `Notice` and pymobiledevice3's `NOTICE` are `os_log`'s default level.
public enum MessageType: String, Sendable, Hashable, CaseIterable, Codable {
    case `default`
    case info
    case debug
    case error
    case fault
    /// An activity event (`log show` type `Activity` or compact `A`, ndjson `activityCreateEvent`).
    case activity
    /// A signpost event (ndjson `signpostEvent`).
    case signpost
    /// A type the reader did not recognise; the event is kept.
    case unknown
}
