/// The exit status in runningboardd's `<process> termination reported by launchd (%u, %llu, %u)`: the exit reason's
/// namespace, its code, and the `wait4` status (`docs/research/message-templates.md`, from RunningBoard.m:2499).
///
/// ```
/// [app<com.hightowerai.MobileJarvisNative(BED36376-…)>:99896] termination reported by launchd (2, 6, 6)
/// ```
/// (real excerpt 46: the app ended on `SIGABRT` 0.6 s after its first screen, its kernel line `Corpse allowed 1 of 5`).
/// Namespace 2 is the kernel's signal namespace (`OS_REASON_SIGNAL`): the code is the signal's number, as the real
/// `(2, 9, 9)` (`SIGKILL`), `(2, 10, 10)` (`SIGBUS`) and `(2, 15, 15)` (`SIGTERM`) show. Other namespaces are named by
/// their number only: what their codes mean is not read here.
public struct LaunchdExitStatus: Sendable, Hashable {
    /// The exit reason's namespace.
    public var namespace: UInt32
    /// The exit reason's code in that namespace.
    public var code: UInt64
    /// The `wait4` status.
    public var status: UInt32

    /// The status written `(namespace, code, status)`, as the line has it (the classifier's detail); nil for any
    /// other text.
    public init?(_ text: String) {
        var utf8 = Substring(text).utf8
        guard utf8.first == UInt8(ascii: "("), utf8.last == UInt8(ascii: ")") else { return nil }
        utf8 = utf8.dropFirst().dropLast()
        let fields = utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        func number(_ field: Substring.UTF8View.SubSequence) -> UInt64? {
            let digits = field.drop { $0 == .init(ascii: " ") }
            guard !digits.isEmpty, digits.count <= 20, digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
            return UInt64(Substring(digits))
        }
        guard let namespace = number(fields[0]).flatMap(UInt32.init(exactly:)), let code = number(fields[1]),
              let status = number(fields[2]).flatMap(UInt32.init(exactly:)) else { return nil }
        self.namespace = namespace
        self.code = code
        self.status = status
    }

    /// The signal that ended the process, when the reason is a signal (namespace 2).
    public var signal: UInt64? { namespace == 2 ? code : nil }

    /// The signals' names on Apple's platforms, by number (`<sys/signal.h>`: 7 is `SIGEMT` and 10 `SIGBUS` there).
    static let signalNames: [UInt64: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT", 8: "SIGFPE",
        9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
    ]

    /// In words, for a person: `signal 6 (SIGABRT)`; `reason namespace 15, code 3135099228` for another namespace.
    public var explanation: String {
        if let signal {
            return Self.signalNames[signal].map { "signal \(signal) (\($0))" } ?? "signal \(signal)"
        }
        return "reason namespace \(namespace), code \(code)"
    }
}
