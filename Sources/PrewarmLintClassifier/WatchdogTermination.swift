import Foundation
/// What a watchdog kill's text says: runningboardd's `<RBSTerminateContext| … 0x8BADF00D explanation:… >`, as a
/// log line, a crash report's `Termination Reason:` block or an `.ips` termination's reasons.
///
/// ```
/// <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression:
///   application<jp.go.mhlw.covid19radar>:27928 exhausted CPU time allowance of 3.37 seconds
/// ProcessVisibility: Background
/// WatchdogEvent: scene-create
/// WatchdogVisibility: Background
/// WatchdogCPUStatistics: ( … "Elapsed application CPU time (seconds): 3.658, 41% CPU" ) …>
/// ```
/// (real-logs 19). Every field is optional: a log line may hold the first line only.
public struct WatchdogTermination: Sendable, Hashable {
    /// The allowance a watchdog measures.
    public enum Allowance: String, Sendable, Hashable {
        /// CPU time — the background budget (`exhausted CPU time allowance of 3.37 seconds`).
        case cpu
        /// Wall-clock time — the foreground budget (`exhausted real (wall clock) time allowance of 19.94 seconds`).
        case wallClock = "wall-clock"
    }

    /// `scene-create`, `scene-update`, `process-launch`, `process-exit` (`WatchdogEvent:`), `resume` or `suspend`
    /// (iOS ≤ 11's `failed to resume in time`), or nil.
    public var event: String?
    /// `Background`, `Foreground` (`WatchdogVisibility:`, else `ProcessVisibility:`), or nil.
    public var visibility: String?
    /// What the allowance measured, and how many seconds it was.
    public var allowance: (kind: Allowance, seconds: Double)? {
        get { allowanceKind.map { ($0, allowanceSeconds) } }
        set { allowanceKind = newValue?.kind; allowanceSeconds = newValue?.seconds ?? 0 }
    }
    /// The app's CPU time when it was killed (`Elapsed application CPU time (seconds): 3.658`), or nil.
    public var applicationCPUSeconds: Double?

    private var allowanceKind: Allowance?
    private var allowanceSeconds: Double = 0

    /// The fields `text` holds.
    public init(text: String) {
        event = Self.word(after: "WatchdogEvent: ", in: text)
        visibility = Self.word(after: "WatchdogVisibility: ", in: text) ?? Self.word(after: "ProcessVisibility: ", in: text)
        if let seconds = Self.number(after: "exhausted CPU time allowance of ", in: text) {
            allowance = (.cpu, seconds)
        } else if let seconds = Self.number(after: "exhausted real (wall clock) time allowance of ", in: text) {
            allowance = (.wallClock, seconds)
        }
        applicationCPUSeconds = Self.number(after: "Elapsed application CPU time (seconds): ", in: text)
        // iOS ≤ 11 said it in words: `… failed to launch in time`, `… failed to launch after 20.00s (launchIntent:
        // foreground-interactive)`, `… failed to resume in time`.
        if text.contains(" failed to launch ") {
            event = event ?? "process-launch"
            if allowance == nil, let seconds = Self.number(after: " failed to launch after ", in: text) { allowance = (.wallClock, seconds) }
        } else if text.contains(" failed to resume in time") {
            event = event ?? "resume"
        } else if text.contains(" failed to suspend in time") {
            event = event ?? "suspend"
        }
        if visibility == nil, let intent = Self.word(after: "launchIntent: ", in: text) {
            visibility = intent.hasPrefix("foreground") ? "Foreground" : intent.hasPrefix("background") ? "Background" : nil
        }
        if event == nil {
            // An explanation without the WatchdogEvent line: `scene-create watchdog transgression: …`.
            for name in ["scene-create", "scene-update", "process-launch", "process-exit"] where text.contains(name + " watchdog") {
                event = name
                break
            }
        }
    }

    /// Whether the watchdog guards a launch: `scene-create` and `process-launch`, or one that does not say.
    /// `process-exit` (a process slow to quit) and `scene-update` (a running app's scene) are not launches.
    public var guardsLaunch: Bool {
        guard let event else { return true }
        return event == "scene-create" || event == "process-launch"
    }

    /// `CPU time allowance of 2.00 s exhausted (the app used 2.11 s of CPU)`, or nil when the text has no allowance.
    public var allowancePhrase: String? {
        guard let allowance else { return nil }
        var phrase = "\(allowance.kind == .cpu ? "CPU" : "wall-clock") time allowance of \(Self.seconds(allowance.seconds)) exhausted"
        if let applicationCPUSeconds { phrase += " (the app used \(Self.seconds(applicationCPUSeconds)) of CPU)" }
        return phrase
    }

    static func seconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    static func word(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let value = text[range.upperBound...].prefix { $0.isLetter || $0 == "-" }
        return value.isEmpty ? nil : String(value)
    }

    static func number(after marker: String, in text: String) -> Double? {
        guard let range = text.range(of: marker) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        guard let value = Double(digits), value.isFinite, value < 1e9 else { return nil }
        return value
    }
}
