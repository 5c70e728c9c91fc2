public import PrewarmLintModel
public import PrewarmLintClassifier

/// One lifetime of one app process, rebuilt from the lines of several daemons and the app itself.
///
/// The questions of `docs/research/domain.md` §6: which app and pid; how the process was born and
/// which line says so; when it was suspended, activated, killed; how long each phase took; which
/// app callbacks ran before the user came; and how sure we are.
public struct LaunchSession: Sendable, Hashable {
    /// How the process came to be running.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// The user tapped and a new process was bootstrapped for it.
        case coldLaunch = "cold-launch"
        /// dasd prewarmed the process, and it ended (an exit line, or the app's next process) without the
        /// user activating it.
        case prewarmUnused = "prewarm-unused"
        /// dasd prewarmed the process, and the log ends before it shows what became of it: no activation,
        /// no end. The prewarm is as sure as its ``Confidence`` says; that it went unused is not shown.
        case prewarmOutcomeUnknown = "prewarm-outcome-unknown"
        /// dasd prewarmed the process, and the user later activated that same process.
        case prewarmThenLaunch = "prewarm-then-launch"
        /// Launched into the background (push, fetch, BGTask).
        case backgroundLaunch = "background-launch"
        /// Launched by the debugger (`Received request to open "<bundle>" from debugserver:…`): Xcode's Run,
        /// `flutter run`, `ios-deploy`. Its timings include the debugger's.
        case debuggerLaunch = "debugger-launch"
        /// A process that was already running (suspended) was brought back by the user.
        case resume
        /// The log does not say how the process started.
        case unknown
    }

    /// How sure the kind is.
    public enum Confidence: String, Sendable, Hashable, CaseIterable, Codable {
        /// Proven by the line that decides it (runningboardd's `DAS Prewarm launch` request, a foreground-interactive bootstrap).
        case certain
        /// Several lines agree but the deciding one is missing (dasd's attempt without runningboardd's request).
        case likely
        /// Inferred from indirect evidence (a suspended, not visible state before any request).
        case guess
    }

    /// A point in the session's life, with the line that shows it.
    public struct Milestone: Sendable, Hashable {
        /// The milestones a session can have.
        public enum Name: String, Sendable, Hashable, CaseIterable, Codable {
            /// The milestones in the order a launch usually reaches them: a prewarm or launch request,
            /// the process start, its suspension, the user's activation, the active state, the first
            /// frame (the app's marker), the exit — and the points of the launch the user waits for: the
            /// tap on the icon, the first screen (FrontBoard's `scene content state changed: ready`) and
            /// the launch's completion (SpringBoard's `Dropping launch assertion.`).
            case prewarmRequest, launchRequest, processStart, suspended, activation, active, firstFrame, termination
            /// The user's tap on the icon (SpringBoard's `SBIconView touches began`, `Icon tapped`).
            case tap
            /// The first screen: FrontBoard's `scene content state changed: ready` for the app's scene.
            case firstScreen
            /// SpringBoard's `Dropping launch assertion.`: the launch is complete.
            case launchComplete
        }
        /// Which milestone.
        public var name: Name
        /// When it happened.
        public var time: LogTimestamp
        /// The line that shows it.
        public var evidence: EventOrigin
        /// What the line adds: a state, an exit status.
        public var detail: String?
        /// The line ``detail`` is read from, when it is not the one at ``evidence``: the exit status launchd reported
        /// after the line that marked the end (SpringBoard's `Now flagged as pending exit`, real excerpt 46). Nil when
        /// ``evidence``'s line says it.
        public var detailEvidence: EventOrigin?

        /// A milestone shown by the line at `evidence`, its detail too.
        public init(name: Name, time: LogTimestamp, evidence: EventOrigin, detail: String? = nil) {
            self.init(name: name, time: time, evidence: evidence, detail: detail, detailEvidence: nil)
        }

        /// A milestone shown by the line at `evidence`, its detail by the line at `detailEvidence` (nil: the same line).
        public init(name: Name, time: LogTimestamp, evidence: EventOrigin, detail: String?, detailEvidence: EventOrigin?) {
            self.name = name
            self.time = time
            self.evidence = evidence
            self.detail = detail
            self.detailEvidence = detailEvidence
        }
    }

    /// The app, as precisely as the log names it.
    public var app: AppIdentity
    /// How the process came to be running.
    public var kind: Kind
    /// How sure ``kind`` is.
    public var confidence: Confidence
    /// The line that decided the kind.
    public var decidedBy: EventOrigin?
    /// In the order they happened; each name at most once (the first occurrence).
    public var milestones: [Milestone]
    /// The app's own lifecycle lines (`didFinishLaunching`…) logged before activation, in order: the first
    /// ``callbackLimit``; the rest are counted in ``callbacksBeforeActivationNotKept``.
    public var callbacksBeforeActivation: [EventOrigin]
    /// Lifecycle lines before activation beyond ``callbackLimit``, counted, not kept.
    public var callbacksBeforeActivationNotKept = 0
    /// Why the evidence is incomplete (redacted identities, a log that begins mid-session, no end), empty when it is not.
    public var incompleteEvidence: [String]
    /// The launch-relevant lines of this process, in the order they were consumed (time order),
    /// with their text: what rules read and findings quote. At most ``eventLimit`` are kept; the
    /// rest are counted in ``eventsNotKept``.
    public var events: [SessionEvent] = []
    /// Lines of this session beyond ``eventLimit``, counted, not kept.
    public var eventsNotKept = 0
    /// When the first and the last line of this session were logged (kept or not): where a session
    /// without milestones (hazard lines of a process whose launch is not in the log) sits in time.
    public var firstSeen: LogTimestamp?
    /// See ``firstSeen``.
    public var lastSeen: LogTimestamp?

    /// Where the session starts on the timeline: its first milestone, else its first line.
    public var start: LogTimestamp? { milestones.first?.time ?? firstSeen }
    /// Where the session ends on the timeline: its last milestone, else its last line.
    public var end: LogTimestamp? { milestones.last?.time ?? lastSeen }
    /// How many lines a session keeps with their text; past it, a line is kept only while the session holds fewer
    /// than ``linesKeptOfEachMeaning`` of its meaning, so at most `eventLimit` + that many of each meaning in all.
    public static let eventLimit = 512
    /// How many lines of each meaning a session keeps past ``eventLimit``.
    public static let linesKeptOfEachMeaning = 4
    /// How many of the app's lifecycle lines before activation a session names (``callbacksBeforeActivation``).
    public static let callbackLimit = 64

    /// Notes an app lifecycle line logged before activation: named while fewer than ``callbackLimit`` are, else counted.
    public mutating func noteCallbackBeforeActivation(_ origin: EventOrigin) {
        if callbacksBeforeActivation.count < Self.callbackLimit {
            callbacksBeforeActivation.append(origin)
        } else {
            callbacksBeforeActivationNotKept += 1
        }
    }

    /// A session; the builder fills it as lines arrive.
    public init(app: AppIdentity, kind: Kind = .unknown, confidence: Confidence = .guess, decidedBy: EventOrigin? = nil,
                milestones: [Milestone] = [], callbacksBeforeActivation: [EventOrigin] = [], incompleteEvidence: [String] = []) {
        self.app = app
        self.kind = kind
        self.confidence = confidence
        self.decidedBy = decidedBy
        self.milestones = milestones
        self.callbacksBeforeActivation = callbacksBeforeActivation
        self.incompleteEvidence = incompleteEvidence
    }

    /// The session without its kept lines but those that are points of the launch (the app's
    /// lifecycle callbacks and named markers) and what a report says of it (the launch MetricKit measured, the
    /// lock state): what reports and statistics need, a few hundred bytes.
    public func outline() -> LaunchSession {
        var outline = self
        outline.events = []
        for index in events.indices where events[index].meaning == .appLifecycle || events[index].meaning == .launchMarker
            || events[index].meaning == .slowLaunchDiagnostic || events[index].meaning == .deviceLockState || events[index].pointName != nil {
            outline.events.append(events[index])
        }
        return outline
    }

    /// The kept lines of a meaning, in order. (By index: `filter` and `first(where:)` copied every line they
    /// looked at, retaining and releasing its strings, for every session a rule checks.)
    public func events(withMeaning meaning: EventMeaning) -> [SessionEvent] {
        var found: [SessionEvent] = []
        for index in events.indices where events[index].meaning == meaning { found.append(events[index]) }
        return found
    }

    /// The first kept line of a meaning.
    public func firstEvent(withMeaning meaning: EventMeaning) -> SessionEvent? {
        for index in events.indices where events[index].meaning == meaning { return events[index] }
        return nil
    }

    /// The kept line at an origin (a milestone's evidence, a deciding line).
    public func event(at origin: EventOrigin) -> SessionEvent? { events.first { $0.origin == origin } }

    /// Whether the evidence is incomplete: the session must not be reported as clean.
    public var evidenceIncomplete: Bool { !incompleteEvidence.isEmpty }

    /// The milestone of a name, if it happened.
    public func milestone(_ name: Milestone.Name) -> Milestone? {
        milestoneIndex(name).map { milestones[$0] }
    }

    /// Whether the milestone of a name happened (without copying it out).
    public func hasMilestone(_ name: Milestone.Name) -> Bool { milestoneIndex(name) != nil }

    /// Where the milestone of a name is. (By index: `first(where:)` and `contains(where:)` copied every
    /// milestone they looked at, retaining and releasing its strings.)
    private func milestoneIndex(_ name: Milestone.Name) -> Int? {
        for index in milestones.indices where milestones[index].name == name { return index }
        return nil
    }

    /// The launch the user waited for: from the tap (else the launch request of a cold or debugger launch,
    /// else the activation of a process that was already there) to the first screen (else the best later
    /// proxy: the app's first frame, the launch's completion, the active state), as the lines show them.
    /// Nil for a session nobody was shown to launch (a prewarm never activated, a background launch, a session
    /// whose start is not in the log) unless a tap starts it.
    public var userPerceivedLaunch: UserPerceivedLaunch? {
        let start: Milestone?
        if let tap = milestone(.tap) {
            start = tap
        } else {
            switch kind {
            case .coldLaunch, .debuggerLaunch: start = milestone(.launchRequest) ?? milestone(.processStart)
            case .prewarmThenLaunch, .resume: start = milestone(.activation)
            // A session whose start is not in the log was not shown to be launched by anyone: no launch time.
            case .backgroundLaunch, .prewarmUnused, .prewarmOutcomeUnknown, .unknown: start = nil
            }
        }
        guard let start else { return nil }
        for name in UserPerceivedLaunch.ends {
            if let end = milestone(name), end.time.microsecondsSinceEpoch >= start.time.microsecondsSinceEpoch {
                return UserPerceivedLaunch(start: start, end: end)
            }
        }
        return nil
    }

    /// Milliseconds from the first milestone to the second, when both happened.
    public func milliseconds(from start: Milestone.Name, to end: Milestone.Name) -> Int64? {
        guard let a = milestone(start), let b = milestone(end) else { return nil }
        return b.time.microseconds(since: a.time) / 1000
    }
}

/// The launch a user waited for, between two milestones of a session (``LaunchSession/userPerceivedLaunch``).
public struct UserPerceivedLaunch: Sendable, Hashable {
    /// Where it starts: the tap, else the launch request, the process start or the activation.
    public var start: LaunchSession.Milestone
    /// Where it ends: the first screen, else a proxy (``endIsProxy``).
    public var end: LaunchSession.Milestone

    /// The ends tried, best first: the first screen, then the proxies.
    public static let ends: [LaunchSession.Milestone.Name] = [.firstScreen, .firstFrame, .launchComplete, .active]

    /// The launch between two milestones.
    public init(start: LaunchSession.Milestone, end: LaunchSession.Milestone) {
        self.start = start
        self.end = end
    }

    /// Its length in microseconds, to the microsecond of the lines.
    public var microseconds: Int64 { end.time.microseconds(since: start.time) }
    /// Whether it ends at a stand-in for the first screen.
    public var endIsProxy: Bool { end.name != .firstScreen }
    /// `tap → first screen`, `launch request → active; no first-screen line`.
    public var label: String {
        "\(Self.spoken(start.name)) → \(Self.spoken(end.name))" + (endIsProxy ? "; no first-screen line" : "")
    }

    /// `229 ms`, `1.4 s`: a launch's length rounded to the millisecond (to the nearest, not down).
    public static func milliseconds(_ microseconds: Int64) -> String {
        let milliseconds = (microseconds + 500) / 1000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        return "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }

    /// A milestone as reports say it (`first screen`).
    public static func spoken(_ name: LaunchSession.Milestone.Name) -> String {
        switch name {
        case .prewarmRequest: "prewarm request"
        case .launchRequest: "launch request"
        case .processStart: "process start"
        case .suspended: "suspended"
        case .activation: "activation"
        case .active: "active"
        case .firstFrame: "first frame"
        case .termination: "termination"
        case .tap: "tap"
        case .firstScreen: "first screen"
        case .launchComplete: "launch complete"
        }
    }
}

/// One line of a session, kept with what rules need and findings quote.
public struct SessionEvent: Sendable, Hashable {
    /// Where the line is.
    public var origin: EventOrigin
    /// When it happened.
    public var time: LogTimestamp
    /// The process that logged it.
    public var process: String
    /// Its pid, when the format has one.
    public var pid: Int?
    /// The role of that process.
    public var role: ProcessRole
    /// What the line means for a launch.
    public var meaning: EventMeaning
    /// The signature that matched it.
    public var signatureID: String?
    /// The value the template carries (a state, an exit status, a callback).
    public var detail: String?
    /// The team's marker this line is, by name (`ClassifiedEvent/pointName`).
    public var pointName: String?
    /// The message, at most ``textLimit`` bytes (cut on a character boundary, marked `…`); a
    /// multi-line message keeps its lines (a watchdog's `WatchdogVisibility:` is on a later one).
    public var text: String

    /// How much of a message is kept.
    public static let textLimit = 1024

    /// The first line of ``text``: what a one-line quote shows.
    public var firstLine: Substring {
        // On the bytes, not on `Character`s (grapheme breaking is costly, and every quoted line passes here):
        // the first line feed or carriage return that is not part of a CR LF pair, as comparing
        // characters with "\n" and "\r" finds (a CR LF is one character, equal to neither). Such a byte is
        // always at a character boundary.
        let end = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\r"):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { index += 2; continue }
                    return index
                case UInt8(ascii: "\n"):
                    return index
                default:
                    index += 1
                }
            }
            return nil
        }
        guard let found = end else {
            return text.firstIndex(where: { $0 == "\n" || $0 == "\r" }).map { text[..<$0] } ?? Substring(text)
        }
        guard let offset = found else { return Substring(text) }
        return text[..<text.utf8.index(text.utf8.startIndex, offsetBy: offset)]
    }

    /// A kept line.
    public init(origin: EventOrigin, time: LogTimestamp, process: String, pid: Int?, role: ProcessRole, meaning: EventMeaning,
                signatureID: String? = nil, detail: String? = nil, text: String, pointName: String? = nil) {
        self.origin = origin
        self.time = time
        self.process = process
        self.pid = pid
        self.role = role
        self.meaning = meaning
        self.signatureID = signatureID
        self.detail = detail
        self.text = text
        self.pointName = pointName
    }

    /// The kept form of a message: cut at ``textLimit`` bytes.
    public static func keptText(_ message: String) -> String {
        guard message.utf8.count > textLimit else { return message }
        var end = message.utf8.index(message.startIndex, offsetBy: textLimit)
        while end > message.startIndex, !message.unicodeScalars.indices.contains(end) { end = message.utf8.index(before: end) }
        return String(message[..<end]) + "…"
    }

    /// `process[pid]: first line`, as a log line names its sender.
    public var quoted: String {
        if let pid { return "\(process)[\(pid)]: \(firstLine)" }
        return "\(process): \(firstLine)"
    }
}

extension LaunchSession {
    /// Whether `launch` (the app's line right after dyld's launch statistics, `PreMainStatistics.Launch`) is of this
    /// session: the same pid and process, the session started by that line. Of several sessions of one pid, the
    /// statistics are about the one that started last before the line.
    public func isLaunch(of launch: PreMainStatistics.Launch) -> Bool {
        guard app.pid == launch.pid, app.processName == nil || app.processName == launch.process,
              let start = start?.microsecondsSinceEpoch else { return false }
        return start <= launch.before.microsecondsSinceEpoch
    }
}
