/// The daemons' lines the rule examples are built from, one function per story step, for the app
/// `com.example.ledger` (process `Ledger Pro`, pid 2231 unless given).
///
/// Every message is the template the daemon prints, from `docs/research/message-templates.md`
/// and the real excerpts of `Corpus/real-logs/` (named per step); pids of the daemons are those
/// of the scenario corpus (dasd 105, runningboardd 33, SpringBoard 34, securityd 115).
/// `at` is a clock time `HH:MM:SS`; steps spread their lines over the following milliseconds.
public enum ExampleLog {
    /// The example app's bundle id.
    public static let bundle = "com.example.ledger"
    /// The example app's process name.
    public static let process = "Ledger Pro"

    /// dasd's attempt and runningboardd's `DAS Prewarm launch` request (real-logs 01, 37), the
    /// process tracked and managed.
    public static func prewarm(at time: String, pid: Int = 2231) -> String {
        """
        \(time).118420 dasd[105]: Attempting prewarm for \(bundle)
        \(time).120871 runningboardd[33]: Executing launch request for app<\(bundle)(501)> (DAS Prewarm launch)
        \(time).163002 runningboardd[33]: Now tracking process: [app<\(bundle)(501)>:\(pid)]
        \(time).163410 runningboardd[33]: [app<\(bundle)(501)>:\(pid)] This process will be managed.
        """
    }

    /// The prewarmed process suspended (runningboardd's `Calculated state` and `Suspending task.`).
    public static func suspend(at time: String, pid: Int = 2231) -> String {
        """
        \(time).010022 runningboardd[33]: Calculated state for app<\(bundle)(501)>: running-suspended (role: None) (endowments: <private>)
        \(time).010411 runningboardd[33]: [app<\(bundle)(501)>:\(pid)] Suspending task.
        """
    }

    /// The user taps the icon of the existing process: FrontBoard makes it visible (real-logs 08),
    /// runningboardd computes it active.
    public static func activateExisting(at time: String, pid: Int = 2231, activeAfter: String = ".503120") -> String {
        """
        \(time).401120 SpringBoard[34]: Icon tapped: <private>
        \(time).501337 SpringBoard[34]: [app<\(bundle)>:\(pid)] Setting process visibility to: Foreground
        \(time)\(activeAfter) runningboardd[33]: Calculated state for app<\(bundle)(501)>: running-active (role: UserInteractiveFocal) (endowments: <private>)
        """
    }

    /// A cold launch up to bootstrap: icon tap, foreground-interactive bootstrap (real-logs 14), the
    /// process tracked.
    public static func coldLaunch(at time: String, pid: Int = 2231) -> String {
        """
        \(time).401120 SpringBoard[34]: Icon tapped: <private>
        \(time).402031 SpringBoard[34]: Bootstrapping app<\(bundle)> with intent foreground-interactive
        \(time).411820 runningboardd[33]: Now tracking process: [app<\(bundle)(501)>:\(pid)]
        \(time).412301 runningboardd[33]: [app<\(bundle)(501)>:\(pid)] This process will be managed.
        """
    }

    /// The cold-launched process shown: `Bootstrap success!` and `Foreground` (real-logs 14, 08).
    public static func bootstrapSuccess(at time: String, pid: Int = 2231) -> String {
        """
        \(time).702913 SpringBoard[34]: [app<\(bundle)>:\(pid)] Bootstrap success!
        \(time).703380 SpringBoard[34]: [app<\(bundle)>:\(pid)] Setting process visibility to: Foreground
        """
    }

    /// runningboardd computes the shown process active (the `active` milestone).
    public static func active(at time: String) -> String {
        "\(time) runningboardd[33]: Calculated state for app<\(bundle)(501)>: running-active (role: UserInteractiveFocal) (endowments: <private>)"
    }

    /// securityd's -25308 for the app (real-logs 03). `marked` puts `▶ ` before it.
    public static func keychainLocked(at time: String, pid: Int = 2231, marked: Bool = false) -> String {
        (marked ? "▶ " : "") + "E \(time) securityd[115]: \(process)[\(pid)]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308 \"ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.\" UserInfo={numberOfErrorsDeep=0, NSDescription=ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.}"
    }

    /// The kernel's jetsam kill and FrontBoard's exit line (real-logs 39).
    public static func jetsam(at time: String, pid: Int = 2231, marked: Bool = false) -> String {
        """
        \(marked ? "▶ " : "")\(time).100000 kernel[0]: 8042.118 memorystatus: killing_specific_process pid \(pid) [\(process)] (per-process-limit 10 3s rf:- type:app) 51200KB - memorystatus_available_pages: 12345
        \(time).120000 SpringBoard[34]: [app<\(bundle)>:\(pid)] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(7)>>.
        """
    }

    /// An app line of `Ledger Pro`.
    public static func app(_ time: String, _ message: String, pid: Int = 2231, marked: Bool = false) -> String {
        (marked ? "▶ " : "") + "\(time) \(process)[\(pid)]: \(message)"
    }
}
