import Foundation
public import PrewarmLintModel
import PrewarmLintClassifier
public import PrewarmLintSessions
public import PrewarmLintConfiguration

/// A point of a launch on a session's timeline: a system milestone, an app callback, or one of
/// the app's own named markers.
public struct LaunchPoint: Sendable, Hashable {
    /// `process-start`, `activation`, `first-frame`, or a marker's configured name.
    public var name: String
    /// When it happened.
    public var time: LogTimestamp
    /// The line that shows it.
    public var evidence: EventOrigin
    /// The elapsed time the app itself logged on the line, in milliseconds, when its marker carries one.
    public var reportedMilliseconds: Double?
    /// True for a marker of the app's own (from the configuration).
    public var isMarker: Bool

    /// A point.
    public init(name: String, time: LogTimestamp, evidence: EventOrigin, reportedMilliseconds: Double? = nil, isMarker: Bool = false) {
        self.name = name
        self.time = time
        self.evidence = evidence
        self.reportedMilliseconds = reportedMilliseconds
        self.isMarker = isMarker
    }
}

/// The points of one session, in time order: the system milestones (`prewarm`, `launch-request`,
/// `process-start`, `suspended`, `activation`, `active`, `first-frame`, `exit`), the app's own
/// callbacks when it logs them (`main` for `UIApplicationMain`, `did-finish-launching`), and each
/// named marker of the configuration (its first occurrence).
public enum LaunchPoints {
    /// The system points, in the order a launch reaches them.
    public static let systemNames = ["tap", "prewarm", "launch-request", "process-start", "main", "did-finish-launching", "suspended",
                                     "activation", "active", "first-screen", "first-frame", "launch-complete", "exit"]

    /// The points of `session`; `markers` are the configuration's: a line a named marker matched carries its name
    /// (`SessionEvent.pointName`), and the marker says whether the line holds the app's elapsed time.
    public static func of(_ session: LaunchSession, markers: [LintConfiguration.Marker] = []) -> [LaunchPoint] {
        var points: [LaunchPoint] = []
        var seen: Set<String> = []
        func add(_ point: LaunchPoint) {
            guard seen.insert(point.name).inserted else { return }
            points.append(point)
        }
        for milestone in session.milestones {
            let name: String = switch milestone.name {
            case .prewarmRequest: "prewarm"
            case .launchRequest: "launch-request"
            case .processStart: "process-start"
            case .suspended: "suspended"
            case .activation: "activation"
            case .active: "active"
            case .firstFrame: "first-frame"
            case .termination: "exit"
            case .tap: "tap"
            case .firstScreen: "first-screen"
            case .launchComplete: "launch-complete"
            }
            add(LaunchPoint(name: name, time: milestone.time, evidence: milestone.evidence))
        }
        for event in session.events {
            if event.meaning == .appLifecycle {
                if event.detail == "UIApplicationMain" {
                    add(LaunchPoint(name: "main", time: event.time, evidence: event.origin))
                } else if event.detail == "didFinishLaunching" || event.text.containsUTF8("didFinishLaunching") {
                    add(LaunchPoint(name: "did-finish-launching", time: event.time, evidence: event.origin))
                }
            }
            if let name = event.pointName, let marker = markers.first(where: { $0.name == name }) {
                var reported: Double?
                if marker.carriesElapsed, let range = event.text.rangeOfUTF8(marker.text),
                   let microseconds = ReportedDuration.microseconds(in: String(event.text[range.upperBound...])) {
                    reported = Double(microseconds) / 1000
                }
                add(LaunchPoint(name: name, time: event.time, evidence: event.origin, reportedMilliseconds: reported, isMarker: true))
            }
        }
        return points.enumerated().sorted { lhs, rhs in
            let a = lhs.element.time.microsecondsSinceEpoch, b = rhs.element.time.microsecondsSinceEpoch
            return a != b ? a < b : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
