/// What an event means for a launch, as far as one line can tell.
///
/// Two meanings exist to say what a line is *not*: ``launchPreparation`` is SpringBoard's
/// `Prewarming for launch of …`, printed on every user tap (real excerpt in
/// `docs/research/formats.md` §2.1), and ``closureGeneration`` is dasd's
/// `DAS DYLD3 Closure Generation` launch. Neither is a dasd prewarm.
public enum EventMeaning: String, Sendable, Hashable, CaseIterable, Codable {
    /// dasd asked for, or runningboardd executed, a prewarm launch.
    case prewarmRequest = "prewarm-request"
    /// dasd declined or failed to prewarm (opted out, not yet allowed, already running, error).
    case prewarmRefused = "prewarm-refused"
    /// dasd ended a prewarm (termination requested, assertion lost).
    case prewarmEnded = "prewarm-ended"
    /// SpringBoard's page prewarming during a user tap: not a dasd prewarm.
    case launchPreparation = "launch-preparation"
    /// dasd's dyld closure launch: not a prewarm.
    case closureGeneration = "closure-generation"
    /// The user touched an app icon (`SBIconView touches began`, `Icon tapped: …`, `Activating … from icon`): the
    /// start of the launch the user waits for. The iOS 26 line names no app: the launch that follows claims it.
    case tap
    /// The user started the launch (`foreground-interactive` bootstrap, FBApplicationProcess assertion).
    case userLaunchRequest = "user-launch-request"
    /// A launch into the background (push, background fetch, BGTask): `FBWorkspace (BackgroundActive)`.
    case backgroundLaunchRequest = "background-launch-request"
    /// runningboardd executed a launch request for another reason.
    case launchRequest = "launch-request"
    /// The process exists: job created, process tracked, managed.
    case processStart = "process-start"
    /// A lifecycle state was computed or set (see the event's detail).
    case stateChange = "state-change"
    /// The app became visible and interactive: bootstrap success, scene activated, foreground.
    case activation
    /// The process was suspended.
    case suspension
    /// The process ended (exit, kill, jetsam), with the reason in the detail.
    case termination
    /// FrontBoard flagged the process as exiting (`Now flagged as pending exit for reason: …`): its end, before the
    /// exit status (which a later termination line gives).
    case pendingExit = "pending-exit"
    /// A watchdog killed the process (0x8BADF00D, watchdog transgression): a termination.
    case watchdog
    /// A watchdog's budget was exceeded and the process was *not* killed (FrontBoard's `Ignoring
    /// <FBProcessWatchdog …> for reason: process is being debugged`, `Provision violated for watchdog
    /// …`, `Not terminating …`): a note on the timeline, never a kill.
    case watchdogNotEnforced = "watchdog-not-enforced"
    /// Someone other than the user asked SpringBoard to open the app: the debugger
    /// (`Received request to open "<bundle>" from debugserver:…`); the detail names the requester.
    case debuggerLaunchRequest = "debugger-launch-request"
    /// runningboardd computed `running-active (role: Background)`: the process runs, and the user does
    /// not see it (a launch for a push, a fetch, a BGTask, or an app the user just left).
    case backgroundRunning = "background-running"
    /// A keychain read failed because the keychain was locked (-25308, errSecInteractionNotAllowed).
    case keychainFailure = "keychain-failure"
    /// The app touched the keychain (a `SecItem…` activity or call).
    case keychainAccess = "keychain-access"
    /// A file, defaults or database error that means data protection (Operation not permitted, NSCocoaErrorDomain 257).
    case dataProtectionFailure = "data-protection-failure"
    /// One of the app's own lifecycle lines (`didFinishLaunching`, `sceneDidBecomeActive`, …); the detail names it.
    case appLifecycle = "app-lifecycle"
    /// Work the app does for a user it assumes is there: analytics, network requests, a session start.
    case appWork = "app-work"
    /// The app read `UIApplication.applicationState`; the detail is the state it read, when the line says.
    case stateQuery = "state-query"
    /// A call that may block the main thread at launch: pasteboard, contacts, permission checks, biometrics.
    case blockingCall = "blocking-call"
    /// The app's own "launch started" marker (a launch timer starts).
    case launchTimerStart = "launch-timer-start"
    /// The app's own "launch finished" marker (a launch timer stops).
    case launchTimerEnd = "launch-timer-end"
    /// The app reported how long its launch took (the value is in the message).
    case launchDuration = "launch-duration"
    /// The app drew its first frame (the app's own marker).
    case firstFrame = "first-frame"
    /// FrontBoard: the app's scene committed content (`scene content state changed: ready`): the first screen
    /// the user sees.
    case firstScreen = "first-screen"
    /// SpringBoard dropped the launch's assertion (`Dropping launch assertion.`): the launch is complete.
    case launchComplete = "launch-complete"
    /// One of the app's own launch markers, named in the configuration (`did-finish-launching`,
    /// `launch-end`); it may carry the elapsed time the app measured.
    case launchMarker = "launch-marker"
    /// The app took its background code path (skipped UI or session setup because it thought no user was there).
    case backgroundPath = "background-path"
    /// A crash report's lock state when it was written (`"isLocked" : 1`, `"wasUnlockedSinceBoot" : 0`): whether
    /// the device was locked, and whether it had been unlocked since boot — the keychain's own condition.
    case deviceLockState = "device-lock-state"
    /// A MetricKit app-launch diagnostic (`appLaunchDiagnostics`, iOS 16+): the system judged a launch of the app
    /// slow and measured it (`launchDuration`, in the message). Placed at its payload's end, not at the launch.
    case slowLaunchDiagnostic = "slow-launch-diagnostic"
}

extension EventMeaning {
    /// The meanings that are hazard evidence on their own: every such line reaches a lint report, as
    /// a finding or as a counted, named exclusion (see `docs/rules`).
    public var isHazardEvidence: Bool {
        self == .keychainFailure || self == .dataProtectionFailure || self == .watchdog
    }
}
