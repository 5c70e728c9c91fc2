/// The type of a log event: its `os_log` level, or the kind of a non-log event.
///
/// Formats spell these differently (`Default`/`Df`/`default`/`<Notice>`/`NOTICE`, and Console.app
/// localizes them: German `standard`, `fehler`); readers map them all onto this one set.
/// `idevicesyslog`'s `Notice` and pymobiledevice3's `NOTICE` are `os_log`'s default level.
public enum MessageType: String, Sendable, Hashable, CaseIterable, Codable {
    /// `os_log`'s default level (`Default`, `Df`, `Notice`).
    case `default`
    /// Info level.
    case info
    /// Debug level.
    case debug
    /// Error level.
    case error
    /// Fault level.
    case fault
    /// An activity event (`log show` type `Activity` or compact `A`, ndjson `activityCreateEvent`).
    case activity
    /// A signpost event (ndjson `signpostEvent`).
    case signpost
    /// A type the reader did not recognise; the event is kept.
    case unknown
}
