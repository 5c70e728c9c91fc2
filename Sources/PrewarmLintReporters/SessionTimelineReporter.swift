import Foundation
import PrewarmLintClassifier
import PrewarmLintInsights
public import PrewarmLintRules
import PrewarmLintModel
public import PrewarmLintSessions

/// A readable timeline per session, for a terminal (`prewarm-lint sessions`).
///
/// ```
/// com.example.ledger[2231] (Ledger Pro): prewarm-then-launch, certain (log.txt:2)
///   07:41:02.118 prewarm request      log.txt:1
///   07:41:02.163 process start        log.txt:3   +45 ms
///   07:41:03.010 suspended            log.txt:5   +847 ms   running-suspended
///   09:12:44.501 activation           log.txt:6   +1 h 31 min
///   prewarm → activation 1 h 31 min; activation → active 1 ms
///   callbacks before activation: log.txt:4
/// ```
public struct SessionTimelineReporter: Sendable {
    /// A timeline reporter.
    public init() {}

    /// One session's timeline: its milestones, with the app's own points among them (`main`,
    /// `did-finish-launching` when it logs them, and the named `markers` of the configuration).
    public func render(_ session: LaunchSession, id: String, markers: [LintConfiguration.Marker] = []) -> String {
        var lines: [String] = []
        var title = "\(id)"
        if let pid = session.app.pid { title += " pid \(pid)" }
        if let name = session.app.processName, name != session.app.bundleID { title += " (\(name))" }
        title += ": \(session.kind.rawValue), \(session.confidence.rawValue)"
        if let decidedBy = session.decidedBy { title += " (\(decidedBy))" }
        lines.append(title)
        var entries: [(time: LogTimestamp, label: String, evidence: EventOrigin, detail: String?)] = session.milestones.map {
            ($0.time, Self.label($0.name), $0.evidence, $0.detail)
        }
        for point in LaunchPoints.of(session, markers: markers) where point.isMarker || point.name == "main" || point.name == "did-finish-launching" {
            let detail = point.reportedMilliseconds.map { "app says \(PhaseSummary.duration($0))" }
            entries.append((point.time, point.isMarker ? "▸ \(point.name)" : point.name.replacingOccurrences(of: "-", with: " "), point.evidence, detail))
        }
        // What a report says of the process that no log line does: the launch MetricKit measured, the lock state.
        for event in session.events where event.meaning == .slowLaunchDiagnostic || event.meaning == .deviceLockState {
            let label = event.meaning == .slowLaunchDiagnostic ? "slow launch" : "lock state"
            let detail = event.meaning == .slowLaunchDiagnostic ? "MetricKit launchDuration \(event.detail ?? "?")" : String(event.firstLine)
            entries.append((event.time, label, event.origin, detail))
        }
        entries = entries.enumerated().sorted { lhs, rhs in
            let a = lhs.element.time.microsecondsSinceEpoch, b = rhs.element.time.microsecondsSinceEpoch
            return a != b ? a < b : lhs.offset < rhs.offset
        }.map(\.element)
        var previous: Int64?
        for entry in entries {
            let civil = CivilDateTime(microsecondsSinceEpoch: entry.time.microsecondsSinceEpoch, utcOffsetSeconds: entry.time.utcOffsetSeconds)
            let clock = String(civil.iso8601(utcOffsetSeconds: entry.time.utcOffsetSeconds).dropFirst(11).prefix(12))
            var line = "  \(clock) \(pad(entry.label, 16)) \(pad(entry.evidence.description, 28))"
            if let previous { line += " " + pad("+" + Self.duration(entry.time.microsecondsSinceEpoch - previous), 16) }
            if let detail = entry.detail { line += " " + detail }
            lines.append(line.trailingSpacesRemoved())
            previous = entry.time.microsecondsSinceEpoch
        }
        let durations = [
            ("prewarm → activation", LaunchSession.Milestone.Name.prewarmRequest, LaunchSession.Milestone.Name.activation),
            ("launch request → activation", .launchRequest, .activation),
            ("activation → active", .activation, .active),
            ("process start → active", .processStart, .active),
        ].compactMap { label, from, to in session.milliseconds(from: from, to: to).map { "\(label) \(Self.duration($0 * 1000))" } }
        if let launch = session.userPerceivedLaunch {
            lines.append("  launch \(UserPerceivedLaunch.milliseconds(launch.microseconds)) (\(launch.label))")
        }
        if !durations.isEmpty { lines.append("  " + durations.joined(separator: "; ")) }
        if !session.callbacksBeforeActivation.isEmpty {
            lines.append("  app callbacks before activation: " + session.callbacksBeforeActivation.map(\.description).joined(separator: ", "))
        }
        for reason in session.incompleteEvidence { lines.append("  evidence incomplete: \(reason)") }
        return lines.joined(separator: "\n")
    }

    static func label(_ name: LaunchSession.Milestone.Name) -> String {
        UserPerceivedLaunch.spoken(name)
    }

    /// `845 ms`, `3.2 s`, `1 h 31 min`: `SpokenDuration.text(microseconds:)`, as every report says it.
    static func duration(_ microseconds: Int64) -> String { SpokenDuration.text(microseconds: microseconds) }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

extension String {
    func trailingSpacesRemoved() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
