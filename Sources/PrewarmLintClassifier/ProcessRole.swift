/// What part a process plays in a launch.
///
/// From `../shared/domain.md` §1: dasd decides when to prewarm; runningboardd (assertiond before
/// iOS 14) owns every app process's lifecycle; SpringBoard (with FrontBoard inside it) handles the
/// tap and activates scenes; securityd serves the keychain; the kernel reports sandbox denials and
/// jetsam kills; the app is the process being launched.
public enum ProcessRole: String, Sendable, Hashable, CaseIterable, Codable {
    case dasd
    /// `runningboardd`, and `assertiond` on iOS 13 and earlier.
    case runningboardd
    /// `SpringBoard`, and FrontBoard logging inside it.
    case springboard
    case app
    case securityd
    case kernel
    case other

    /// The role of a process known by its name alone; `nil` for names that could be an app.
    ///
    /// An app is recognised later, from daemon lines naming its identity and pid
    /// (see ``ProcessDirectory``), because an app can be called anything.
    public static func known(processName name: String) -> ProcessRole? {
        switch name {
        case "dasd": .dasd
        case "runningboardd", "assertiond": .runningboardd
        case "SpringBoard": .springboard
        case "securityd": .securityd
        case "kernel": .kernel
        default: systemProcesses.contains(name) ? .other : nil
        }
    }

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
