import Foundation
import PrewarmLintClassifier
import PrewarmLintModel
public import PrewarmLintSessions

/// A launch or scene-create watchdog killed the process.
public struct LaunchWatchdog: Rule {
    /// The rule, as ``RuleRegistry/builtIn`` holds it.
    public init() {}

    /// The message it gives: `watchdog-kill`.
    public static let killed = RuleMessage(id: "watchdog-kill", shape: "‹event› watchdog killed ‹app› (0x8BADF00D) ‹in a … session›[, visibility ‹visibility›][: ‹allowance›][; a background kill during a prewarm: work at launch ran out the prewarm's budget | (typical of prewarm and background launches)]")
    /// The message it gives: `watchdog-not-enforced`.
    public static let notEnforced = RuleMessage(id: "watchdog-not-enforced", shape: "‹watchdog› watchdog budget exceeded ‹in a … session›, but the process was not killed[ (allowance ‹time›)][: ‹reason›; without that, this launch would have been killed]")

    /// Its id, severity, rationale, options, and the examples that test and document it.
    public let description = RuleDescription(
        id: "launch-watchdog",
        name: "Launch watchdog",
        defaultSeverity: .error,
        summary: "A launch or scene-create watchdog killed the app (0x8BADF00D, watchdog transgression); the finding says with which visibility. A watchdog that fired and killed nothing (a debugged process) is a warning, never a kill.",
        rationale: """
        The watchdog kills a launch that does not finish within its budget: seconds of wall time for a \
        foreground launch, a few seconds of CPU for a scene-create in the background. A kill with \
        `WatchdogVisibility: Background` is typical of prewarm and background launches, where the \
        process gets less CPU and anything that waits (the keychain while locked, a network call, a \
        lock held by a suspended thread) runs out the clock; the user never sees it, except as a \
        cold launch the next time and a crash report with `0x8BADF00D`. Move blocking work off the \
        launch path and out of scene creation.

        Only watchdogs that guard a launch count: `scene-create` and `process-launch` (or a kill that does not \
        name its event). A `process-exit` watchdog (`Failed to terminate gracefully after 5.0s`) or a \
        `scene-update` one kills a process that was quitting or already running: not a launch. Nor is a kill \
        assertiond made (`Termination Reason: Namespace ASSERTIOND, Code 0x8badf00d`, `has active assertions beyond \
        permitted time`) more than 20 s after the process started: that ends a background task that overran its time \
        (`beginBackgroundTask` never ended); its line is counted as a hazard no finding reports.

        Kill evidence is a termination only: runningboardd's `RBSTerminateContext` with `0x8BADF00D`, a \
        `watchdog transgression`, FrontBoard's exit status `watchdog(2343432205)` or, on iOS 13–14, its exit context \
        `<FBProcessExitContext: 0x…; watchdog ("watchdog provision violated">`. FrontBoard also logs \
        watchdogs it does not enforce — `Ignoring <FBProcessWatchdog …; name: process-launch> for reason: \
        process is being debugged`, `Provision violated for watchdog process-launch`, `Not terminating …` — \
        and the process goes on: that is a warning (the launch exceeded its budget, and without the \
        debugger it would have been killed), not an error.
        """,
        reportsEvidence: [.watchdog],
        messages: [Self.killed, Self.notEnforced],
        decided: .atItsLine,
        triggeringExamples: [
            RuleExample("scene-create watchdog in the background (real-logs 19's context, as runningboardd logs it)",
                "06:10:00.001000 runningboardd[33]: Acquiring assertion targeting [app<com.example.ledger(501)>:2231] from originator [osservice<com.apple.SpringBoard>:34] with description <RBSAssertionDescriptor| \"FBWorkspace (BackgroundActive)\" ID:33-34-4107 target:2231 attributes:[\n"
                    + "\t<RBSRunningReasonAttribute| runningReason:10001>,\n\t<RBSCPUAccessGrant| role:NonUserInteractive>\n\t]>\n"
                    + "▶ E 06:10:08.910000 runningboardd[33]: [app<com.example.ledger(501)>:2231] Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression: app<com.example.ledger(501)>:2231 exhausted CPU time allowance of 3.37 seconds\n"
                    + "\tWatchdogEvent: scene-create\n\tWatchdogVisibility: Background\n\t) reportType:CrashLog maxTerminationResistance:Interactive>\n"
                    + "06:10:08.920000 SpringBoard[34]: [app<com.example.ledger>:2231] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:frontboard(10) code:watchdog(2343432205)>>."),
            RuleExample("iOS 13–14: FrontBoard's exit context names the watchdog that killed a background launch (FBProcessExitContext's description of a watchdog exit)",
                "06:10:00.000000 SpringBoard[34]: Application process state changed for com.example.ledger: <SBApplicationProcessState: 0x281a5ea00; pid: 2231; taskState: Running; visibility: Background>\n"
                    + "▶ E 06:10:09.910000 SpringBoard[34]: [application<com.example.ledger>:2231] Process exited: <FBProcessExitContext: 0x283a6c960; watchdog (\"watchdog provision violated\">."),
            RuleExample("a debugged launch over its budget, not killed: a warning, not a kill (the lines of flutter/flutter#68558)",
                "08:16:28.223956 SpringBoard[34]: [FBSystemService][0x7f7e] Received request to open \"com.example.ledger\" from debugserver:1461.\n"
                    + "08:16:28.442645 SpringBoard[34]: Application process state changed for com.example.ledger: <SBApplicationProcessState: 0x2836ef980; pid: 2231; taskState: Running; visibility: Foreground>\n"
                    + "08:16:48.296225 SpringBoard[34]: [application<com.example.ledger>:2231] Ignoring <FBProcessWatchdog: 0x28175f7f0; name: process-launch> for reason: process is being debugged\n"
                    + "▶ E 08:16:48.297075 SpringBoard[34]: [application<com.example.ledger>:2231] Provision violated for watchdog process-launch: <FBSProcessResourceProvision: 0x281830800; allowance: <; FBSProcessResourceAllowance; type: realTime; timeValue: 20.0s>; violated: YES>\n"
                    + "E 08:16:48.297709 SpringBoard[34]: Not terminating \"application<com.example.ledger>:2231\""),
        ],
        nonTriggeringExamples: [
            RuleExample("a process-exit watchdog kills a process slow to quit, not a launch (the reasons of public Call of Duty watchdog reports, as runningboardd logs them)",
                "06:10:00.001000 runningboardd[33]: [app<com.example.ledger(501)>:2231] Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:[app<com.example.ledger(501)>:2231] Failed to terminate gracefully after 5.0s\n"
                    + "\tProcessVisibility: Unknown\n\tProcessState: Running\n\tWatchdogEvent: process-exit\n\tWatchdogVisibility: Background\n\t) reportType:CrashLog maxTerminationResistance:Interactive>"),
            RuleExample("a jetsam kill is not a watchdog",
                ExampleLog.prewarm(at: "06:02:11") + "\n"
                    + ExampleLog.suspend(at: "06:02:12") + "\n"
                    + ExampleLog.jetsam(at: "07:30:00")),
        ]
    )

    /// The findings of this rule in `session`.
    public func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard let kill = session.events(withMeaning: .watchdog).first(where: { Self.guardsLaunch($0, in: session) }) else {
            return notEnforced(session, in: context)
        }
        let watchdog = WatchdogTermination(text: kill.text)
        let what = watchdog.event.map { "\($0) watchdog" } ?? kill.detail.map { $0.trimmingCharacters(in: " ") } ?? "watchdog"
        var message = "\(what) killed \(session.app.bundleID ?? session.app.processName ?? "the app") (0x8BADF00D) \(session.kindPhrase)"
        if let visibility = watchdog.visibility {
            message += ", visibility \(visibility)"
        }
        if let allowance = watchdog.allowancePhrase { message += ": \(allowance)" }
        if watchdog.visibility == "Background" {
            message += session.kind == .prewarmUnused || session.kind == .prewarmThenLaunch
                ? "; a background kill during a prewarm: work at launch ran out the prewarm's budget"
                : " (typical of prewarm and background launches)"
        }
        var evidence = [Finding.Evidence(kill, label: "watchdog")]
        if let decided = session.decidedBy, decided != kill.origin, let line = session.event(at: decided) {
            evidence.append(Finding.Evidence(line, label: "session kind"))
        }
        return [context.finding(Self.killed, message, evidence: evidence)]
    }

    /// Whether the kill at `line` is a launch's watchdog: one guarding a launch (``WatchdogTermination/guardsLaunch``),
    /// unless assertiond made it (`Namespace ASSERTIOND`, `has active assertions beyond permitted time`) naming no launch
    /// watchdog: that ends a background task that overran its time, a launch only when the process started at most
    /// ``launchBudget`` before (no launch budget is longer); a kill whose start is unknown is not called a launch's.
    static func guardsLaunch(_ line: SessionEvent, in session: LaunchSession) -> Bool {
        let watchdog = WatchdogTermination(text: line.text)
        guard watchdog.guardsLaunch else { return false }
        let text = line.text.uppercased()
        guard watchdog.event == nil, text.contains("ASSERTIOND") || text.contains("ASSERTIONS BEYOND PERMITTED TIME") else { return true }
        guard let started = session.milestones.first(where: { $0.name == .processStart || $0.name == .launchRequest })?.time else { return false }
        return LogTimestamp.microseconds(from: started.microsecondsSinceEpoch, to: line.time.microsecondsSinceEpoch) <= Self.launchBudget
    }

    /// The longest a launch watchdog waits: 20 s of wall time in the foreground (`timeValue: 20.0s`).
    static let launchBudget: Int64 = 20_000_000

    /// A watchdog that FrontBoard did not enforce: a warning naming the budget and the reason.
    private func notEnforced(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        let lines = session.events(withMeaning: .watchdogNotEnforced)
        guard let first = lines.first else { return [] }
        let violated = lines.first { $0.text.containsUTF8("Provision violated for watchdog") }
        let watchdog = violated.flatMap { Self.word(after: "Provision violated for watchdog ", in: $0.text) }
            ?? Self.word(after: "name: ", in: first.text) ?? "launch"
        var message = "\(watchdog) watchdog budget exceeded \(session.kindPhrase), but the process was not killed"
        if let allowance = violated.flatMap({ Self.word(after: "timeValue: ", in: $0.text) }) { message += " (allowance \(allowance))" }
        if let reason = lines.lazy.compactMap(\.detail).first(where: { !$0.isEmpty && !$0.hasPrefix("<") }) {
            message += ": \(reason); without that, this launch would have been killed"
        }
        let ordered = (violated.map { [$0] } ?? []) + lines.filter { $0.origin != violated?.origin }
        let evidence = ordered.prefix(3).map { Finding.Evidence($0, label: "watchdog not enforced") }
        return [context.finding(Self.notEnforced, message, severity: min(context.severity, .warning), evidence: Array(evidence))]
    }

    /// The token after `marker` (`name: process-launch>` → `process-launch`).
    static func word(after marker: String, in text: String) -> String? {
        guard let range = text.rangeOfUTF8(marker) else { return nil }
        let value = text[range.upperBound...].prefix { !" ;:>\"".contains($0) }
        return value.isEmpty ? nil : String(value)
    }

    /// `WatchdogVisibility: Background` → `Background`.
    static func value(of key: String, in text: String) -> String? {
        guard let range = text.rangeOfUTF8(key + ": ") else { return nil }
        let rest = text[range.upperBound...]
        let value = rest.prefix { $0.isLetter }
        return value.isEmpty ? nil : String(value)
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
