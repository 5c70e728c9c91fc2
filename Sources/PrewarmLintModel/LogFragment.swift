/// A line of a log found alone — in a pasted block no reader takes, in a forum post's prose — that still shows what
/// a log line shows: a process column (`securityd[115]: …`), or a start in RunningBoard's own spelling
/// (`<RBSDomainAttribute| …>`, `Executing launch request for app<…>`), whatever else the line lacks. It is read with what it shows and no more: its process and pid when it
/// names them, its time as printed when it has one; never a session of its own.
public struct LogFragment: Sendable, Hashable {
    /// The line, its paste markers taken off, on one line (at most ``maximumLength`` bytes).
    public var text: String
    /// Where it was read.
    public var origin: EventOrigin
    /// The process the line names (`securityd` of `securityd[115]:`), or nil.
    public var process: String?
    /// Its pid, when the line names one.
    public var pid: Int?
    /// The time as the line prints it (`21:28:47.041563`), or nil: a date and a time zone the line may lack are not
    /// guessed.
    public var time: String?
    /// The message: what follows the process column, or the whole line.
    public var message: String
    /// Whether the line starts in RunningBoard's own spelling (a descriptor's attribute, a launch request) rather than
    /// behind a process column: only runningboardd writes it.
    public var isRunningBoardSyntax: Bool

    /// The longest line kept as a fragment.
    public static let maximumLength = 1024

    /// A fragment.
    public init(text: String, origin: EventOrigin, process: String?, pid: Int?, time: String?, message: String, isRunningBoardSyntax: Bool) {
        self.text = text
        self.origin = origin
        self.process = process
        self.pid = pid
        self.time = time
        self.message = message
        self.isRunningBoardSyntax = isRunningBoardSyntax
    }
}
