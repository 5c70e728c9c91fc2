import PrewarmLintModel

/// What part a process plays in a launch.
///
/// From `docs/research/domain.md` §1: dasd decides when to prewarm; runningboardd (assertiond before
/// iOS 14) owns every app process's lifecycle; SpringBoard (with FrontBoard inside it) handles the
/// tap and activates scenes; securityd serves the keychain; the kernel reports sandbox denials and
/// jetsam kills; the app is the process being launched.
public enum ProcessRole: String, Sendable, Hashable, CaseIterable, Codable {
    /// `dasd`, the Duet Activity Scheduler: it decides when to prewarm.
    case dasd
    /// `runningboardd`, and `assertiond` on iOS 13 and earlier.
    case runningboardd
    /// `SpringBoard`, and FrontBoard logging inside it.
    case springboard
    /// The app being launched (a process a daemon line names as an app).
    case app
    /// `securityd`, which serves the keychain.
    case securityd
    /// The kernel: sandbox denials, jetsam kills, assertion priorities.
    case kernel
    /// Any other process.
    case other

    /// The role of a process known by its name alone; `nil` for names that could be an app.
    ///
    /// An app is recognised later, from daemon lines naming its identity and pid
    /// (see ``ProcessDirectory``), because an app can be called anything.
    public static func known(processName name: String) -> ProcessRole? {
        switch name {
        case "dasd": .dasd
        // A Console copy whose columns were chosen as Library, not Process (flutter/flutter#67116), names the daemons
        // by their framework: RunningBoard is runningboardd's, FrontBoard SpringBoard's. No process is called so.
        case "runningboardd", "assertiond", "RunningBoard": .runningboardd
        case "SpringBoard", "FrontBoard": .springboard
        case "securityd": .securityd
        case "kernel": .kernel
        default: systemProcesses.contains(name) ? .other : nil
        }
    }

    /// The process names whose lines the classifier never reads (``known(processName:)`` is
    /// ``other``): system daemons that log much and never about a launch. A reader may skip their
    /// events without decoding them; nothing a launch session or a finding needs is lost.
    public static var namesWithoutLaunchLines: Set<String> { systemProcesses }

    /// System daemons that commonly appear around launches and are never the app under study.
    static let systemProcesses: Set<String> = [
        "backboardd", "trustd", "locationd", "mediaserverd", "launchd", "launchservicesd", "lsd", "cfprefsd",
        "containermanagerd", "symptomsd", "wifid", "bluetoothd", "powerd", "thermalmonitord", "CommCenter",
        "apsd", "nsurlsessiond", "itunesstored", "installd", "mobileassetd", "tccd", "UserEventAgent",
        "ReportCrash", "watchdogd", "diagnosticd", "logd", "distnoted", "notifyd", "configd", "sharingd",
        "identityservicesd", "routined", "duetexpertd", "coreduetd", "dmd", "loginwindow", "PosterBoard",
        "remotepairingd", "chronod", "backupd", "searchd", "suggestd", "useractivityd", "mDNSResponder",
    ]
}

/// Remembers ``ProcessRole/known(processName:)`` for the process names seen lately (a
/// `ProcessNameCache`): the lookup compares against five names and hashes into a set.
public struct ProcessRoleCache: Sendable {
    @usableFromInline var cache = ProcessNameCache<ProcessRole?>()

    /// An empty cache.
    public init() {}

    /// ``ProcessRole/known(processName:)`` of the name spelt by `bytes` (UTF-8): no `String` is made unless the name
    /// is not remembered.
    @inlinable
    public mutating func role(ofBytes bytes: UnsafeRawBufferPointer) -> ProcessRole? {
        if let role = cache.value(forBytes: bytes) { return role }
        return role(of: String(decoding: bytes, as: UTF8.self))
    }

    /// ``ProcessRole/known(processName:)`` of `name`.
    public mutating func role(of name: String) -> ProcessRole? {
        if let role = cache.value(for: name) { return role }
        let role = ProcessRole.known(processName: name)
        cache.remember(role, for: name)
        return role
    }
}
