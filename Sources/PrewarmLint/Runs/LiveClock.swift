/// The one clock of a live run: from when its bytes arrive, when it pauses and when it ticks (``LiveLint``). The
/// command line's `--follow` and the library's ``LogAnalyzer/live(_:named:toolVersion:)`` both ask it, so the same
/// arrivals close sessions and print answers at the same moments.
///
/// - A **tick** each ``LiveLint/quietPeriod`` while bytes keep coming: the lines that have waited that long in the
///   reorder window go on.
/// - A **pause** once nothing has come for a quiet period, then again each second of quiet: what waited for later
///   lines is decided, and a session whose process ended closes once its grace has passed.
///
/// Instants are on a monotonic clock (`ContinuousClock`), never the wall clock a user may set.
public struct LiveClock: Sendable {
    /// What is due at an instant.
    public enum Due: Sendable, Hashable {
        /// Bytes kept coming: a tick.
        case tick
        /// Nothing came for this long: a pause.
        case pause(quietFor: Duration)
    }

    /// When bytes last came; nil before the first.
    private var lastArrival: ContinuousClock.Instant?
    /// When the run last ticked (or its first bytes came).
    private var lastTick: ContinuousClock.Instant?
    /// When the run last paused in the quiet since the last bytes.
    private var lastPause: ContinuousClock.Instant?

    /// How often a pause is repeated while the input stays quiet.
    public static let pauseRepeat: Duration = .seconds(1)

    /// `duration` in whole microseconds, held at `Int64.max` (a pause of any length a clock can measure is taken).
    public static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 1_000_000 else { return .max }
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    /// A clock before any bytes.
    public init() {}

    /// Bytes came at `now`.
    public mutating func arrived(at now: ContinuousClock.Instant) {
        lastArrival = now
        lastPause = nil
        if lastTick == nil { lastTick = now }
    }

    /// What is due at `now`, if anything (and it is then taken as done): a pause after a quiet period (again each
    /// second of quiet), else a tick each quiet period while bytes keep coming. Nothing before the first bytes.
    public mutating func due(at now: ContinuousClock.Instant) -> Due? {
        guard let lastArrival else { return nil }
        let quiet = now - lastArrival
        if quiet >= LiveLint.quietPeriod {
            guard lastPause.map({ now - $0 >= Self.pauseRepeat }) ?? true else { return nil }
            lastPause = now
            return .pause(quietFor: quiet)
        }
        if let lastTick, now - lastTick >= LiveLint.quietPeriod {
            self.lastTick = now
            return .tick
        }
        return nil
    }
}
