/// One unified-log event, whichever export format it was read from.
///
/// Every reader of prewarm-lint produces this one value, so the stages after reading
/// (classification, sessions, rules, reporters) never care whether a line came from a
/// Console.app copy, `log show --style ndjson` or `idevicesyslog`. Fields a format does not
/// carry are `nil` (or empty for ``process``): a Console copy without the PID column has no
/// ``pid``; `idevicesyslog` prints no subsystem or category.
///
/// The event always says where it came from (``origin``), so any finding built on it can quote
/// the exact input line.
public struct LogEvent: Sendable, Hashable {
    /// When the event was emitted, with the text it was read from and what had to be inferred.
    public var timestamp: LogTimestamp
    /// The name of the process that logged (`runningboardd`, `SpringBoard`, `My App`); empty when the format omits it.
    public var process: String
    /// The process identifier, when the format has one.
    public var pid: Int?
    /// The library or binary that called `os_log` (`RunningBoard`, `FrontBoard`), when given.
    public var senderImage: String?
    /// The `os_log` subsystem (`com.apple.runningboard`), when given and not empty.
    public var subsystem: String?
    /// The `os_log` category (`process`, `assertion`), when given and not empty.
    public var category: String?
    /// The message type (log level), or the kind of a non-log event (activity, signpost).
    public var type: MessageType
    /// The thread identifier, when given.
    public var threadID: UInt64?
    /// The activity identifier, when given and not zero.
    public var activityID: UInt64?
    /// The composed message, with every line of a multi-line message joined by `"\n"`.
    public var message: String
    /// Where the event was read: the input, its first line and byte offset.
    public var origin: EventOrigin
    /// For an event read from a crash or jetsam report, the bundle identifier the report gives for its process
    /// (`Identifier:`, `bundleInfo.CFBundleIdentifier`): what names the app, where a log would have a daemon's
    /// `app<…>` line. nil for log lines.
    public var reportedBundleID: String?

    /// Creates an event from its parts.
    @inlinable public init(
        timestamp: LogTimestamp,
        process: String,
        pid: Int? = nil,
        senderImage: String? = nil,
        subsystem: String? = nil,
        category: String? = nil,
        type: MessageType = .default,
        threadID: UInt64? = nil,
        activityID: UInt64? = nil,
        message: String,
        origin: EventOrigin,
        reportedBundleID: String? = nil
    ) {
        self.timestamp = timestamp
        self.process = process
        self.pid = pid
        self.senderImage = senderImage
        self.subsystem = subsystem
        self.category = category
        self.type = type
        self.threadID = threadID
        self.activityID = activityID
        self.message = message
        self.origin = origin
        self.reportedBundleID = reportedBundleID
    }
}
