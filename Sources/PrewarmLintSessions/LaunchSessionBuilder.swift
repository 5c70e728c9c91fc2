import PrewarmLintModel
public import PrewarmLintClassifier

/// Rebuilds launch sessions from classified events: a pure state machine (events in, sessions
/// out; no I/O, no clock), one session per app process lifetime.
///
/// Lines are joined by app, not by time: dasd and runningboardd name the bundle
/// (`Executing launch request for app<com.x(501)> (DAS Prewarm launch)`), runningboardd and
/// FrontBoard add the pid (`[app<com.x(501)>:2231] …`), and a later line about the same bundle with
/// another pid is another process. A session ends when a new one starts for its app, or at
/// ``finish()``; exit lines (FrontBoard's `Process exited`, runningboardd's `termination reported
/// by launchd`) mark it terminated without opening a new one, since several follow each exit.
///
/// How the kind is decided (`docs/research/domain.md` §2 and §6):
/// - runningboardd's `DAS Prewarm launch` request or the dasd `DYLDLaunch` attribute: prewarm, certain;
///   dasd's own attempt lines alone: prewarm, likely;
/// - then an activation of that process: `prewarm-then-launch`; its end (an exit line, or the app's next
///   process) with no activation before: `prewarm-unused`; neither before the log ends:
///   `prewarm-outcome-unknown` (the log does not show that the prewarm went unused);
/// - a foreground-interactive bootstrap or FBApplicationProcess assertion: `cold-launch`, certain;
///   an icon tap alone: likely;
/// - an `FBWorkspace (BackgroundActive)` assertion: `background-launch`, certain; a launch request or a process
///   start followed by `running-active (role: Background)` before any activation: `background-launch`, likely;
/// - SpringBoard's `Received request to open "<bundle>" from debugserver`: `debugger-launch`, certain;
/// - an activation with no start in the log after a suspended, not visible state: `prewarm-then-launch`,
///   a guess (said so in `incompleteEvidence`); after nothing at all: `unknown`.
/// SpringBoard's `Prewarming for launch of` and dasd's closure generation never make a prewarm.
public struct LaunchSessionBuilder: Sendable {
    private var open: [String: LaunchSession] = [:]
    /// Open sessions in the order they opened, as (app, sequence) with lazy deletion: an entry counts
    /// only while `sequenceOf[app]` still holds its sequence. Its size follows the open sessions.
    private var openingOrder: [(key: String, sequence: Int)] = []
    private var openingHead = 0
    private var sequenceOf: [String: Int] = [:]
    private var nextSequence = 0
    private var terminated: Set<String> = []
    /// Apps whose termination milestone is FrontBoard's pending exit: a later exit status replaces its detail.
    private var endedByPendingExit: Set<String> = []
    /// Apps seen going to the background before any start or activation in the log: their next
    /// activation is a resume.
    private var backgrounded: [String: EventOrigin] = [:]
    /// The last tap that named no app (iOS 26's `SBIconView touches began`), not yet claimed: the next user
    /// launch request, or activation of a process already there, within ``tapClaimWindow`` claims it.
    private var pendingTap: ClassifiedEvent?
    /// How long after a tap a launch may claim it: the bootstrap came 94–170 ms after the tap in real cold
    /// launches (real-logs 44–46); two seconds leaves room for a slow SpringBoard, not for another tap.
    public static let tapClaimWindow: Int64 = 2_000_000

    /// How many sessions may be open at once (distinct apps with a live process); beyond it the
    /// oldest-opened is closed early and says so. Keeps memory bounded whatever the log.
    public let maximumOpenSessions: Int
    /// Sessions closed early because of ``maximumOpenSessions``.
    public private(set) var closedEarly = 0

    /// How many bytes of kept lines the open sessions may hold together (each line's text and about 128 bytes of its
    /// other fields): past it, further lines are counted, not kept, until sessions close. The count of open sessions
    /// alone bounds nothing useful — 10,000 sessions of 512 lines of a kilobyte are 5 GB.
    public let maximumKeptBytes: Int
    /// Lines counted and not kept because of ``maximumKeptBytes``.
    public private(set) var linesNotKeptForBudget = 0
    /// Bytes of kept lines the open sessions hold now.
    public private(set) var keptBytes = 0
    /// Open sessions that lost lines to the budget, with how many.
    private var budgetDrops: [String: Int] = [:]

    /// A builder keeping at most `maximumOpenSessions` sessions open, and at most `maximumKeptBytes` of their lines.
    public init(maximumOpenSessions: Int = 10_000, maximumKeptBytes: Int = 16 << 20) {
        self.maximumOpenSessions = max(1, maximumOpenSessions)
        self.maximumKeptBytes = max(0, maximumKeptBytes)
    }

    /// The warning that lines were counted and not kept because of ``maximumKeptBytes``, if any were.
    public func keptBytesDiagnostic(input: String) -> ReaderDiagnostic? {
        guard linesNotKeptForBudget > 0 else { return nil }
        return ReaderDiagnostic(code: .stateLimit, severity: .warning,
                                message: "\(linesNotKeptForBudget) launch lines were counted but not kept: the open sessions already held \(maximumKeptBytes >> 20) MiB of lines; the sessions that lost lines say so",
                                origin: EventOrigin(input: input, line: 0, byteOffset: 0), lineCount: 0)
    }

    /// What a kept line counts against ``maximumKeptBytes``.
    @inline(__always) static func keptCost(of event: SessionEvent) -> Int { event.text.utf8.count + 128 }

    /// What fills an open session's slot while the session is out of it, being changed.
    private static let vacant = LaunchSession(app: AppIdentity(processName: "", pid: nil))

    /// Takes one event; returns the sessions this event closed (usually none).
    public mutating func consume(_ classified: ClassifiedEvent) -> [LaunchSession] {
        if classified.meaning == .tap, classified.subject == nil {
            pendingTap = classified
            return []
        }
        guard let meaning = classified.meaning, let subject = classified.subject, let key = subject.bundleID ?? subject.processName
        else { return [] }
        var closed: [LaunchSession] = []
        // The app's session is swapped out of its slot while it changes, a vacant session left there, and swapped
        // back: its arrays stay uniquely referenced and grow in place (a copy left in the dictionary made every
        // appended line copy the session's whole list), the session itself is never copied (its strings and arrays
        // retained and released), and the key is hashed once per line (removing the session and storing it again
        // hashed it twice). The slot's index stays valid until something is added to or removed from `open`, and
        // nothing is between the two swaps.
        // (Only an open session can be terminated: `close` forgets both.)
        if let slot = open.index(forKey: key) {
            var current = Self.vacant
            swap(&current, &open.values[slot])
            let isTerminated = terminated.contains(key)
            if !startsNewProcess(classified, meaning: meaning, subject: subject, after: current, terminated: isTerminated) {
                if isTerminated {
                    // More lines about the exited process (FrontBoard's clean-up, runningboardd's bookkeeping) add
                    // nothing to its milestones; they are kept as its lines.
                    record(classified, meaning: meaning, in: &current, key: key)
                    if meaning == .termination, classified.detail != nil,
                       current.milestone(.termination)?.detail == nil || endedByPendingExit.contains(key) {
                        endedByPendingExit.remove(key)
                        current.milestones = current.milestones.map { $0.name == .termination ? LaunchSession.Milestone(
                            name: .termination, time: $0.time, evidence: $0.evidence, detail: classified.detail) : $0 }
                    }
                } else {
                    update(&current, with: classified, meaning: meaning, subject: subject, key: key)
                }
                swap(&current, &open.values[slot])
                return closed
            }
            // The next process shows this one ended. Its exit line matters only where the end decides the
            // verdict: a prewarm that was never activated ended unused, and when or why is not in the log.
            if !isTerminated, current.kind == .prewarmOutcomeUnknown || current.kind == .prewarmUnused {
                current.incompleteEvidence.append("no exit line before the next process of this app: when and why the prewarmed process ended is not in the log")
            }
            if current.kind == .prewarmOutcomeUnknown { current.kind = .prewarmUnused }
            closed.append(close(key, current))
        }
        // A session starts with a line about its start or its life, not with an exit or a bare state;
        // an app going to the background is the exception: it was in use before the log began.
        guard opensSession(meaning) || classified.facts.contains(.wentToBackground) else { return closed }
        var current = LaunchSession(app: subject)
        nextSequence += 1
        sequenceOf[key] = nextSequence
        openingOrder.append((key, nextSequence))
        // `open` holds the other sessions: this one counts too.
        if openingOrder.count - openingHead > 2 * (open.count + 1) + 1024 {
            // Most entries are of closed sessions: keep the live ones (amortized O(1) per session).
            openingOrder = openingOrder[openingHead...].filter { sequenceOf[$0.key] == $0.sequence }
            openingHead = 0
        }
        if open.count + 1 > maximumOpenSessions, let oldest = oldestOpen(), oldest != key, var early = open[oldest] {
            early.incompleteEvidence.append("closed early: more than \(maximumOpenSessions) sessions were open at once")
            closedEarly += 1
            closed.append(close(oldest, early))
        }
        update(&current, with: classified, meaning: meaning, subject: subject, key: key)
        open[key] = current
        return closed
    }

    /// Keeps the line in the session, completes the app's identity and applies the line's meaning.
    private mutating func update(_ session: inout LaunchSession, with classified: ClassifiedEvent, meaning: EventMeaning,
                                 subject: AppIdentity, key: String) {
        record(classified, meaning: meaning, in: &session, key: key)
        if session.app.pid == nil { session.app.pid = subject.pid }
        if session.app.bundleID == nil { session.app.bundleID = subject.bundleID }
        if session.app.processName == nil { session.app.processName = subject.processName }
        apply(classified, meaning: meaning, to: &session, key: key)
    }

    /// The meanings that start a process.
    private static let processStartMeanings: Set<EventMeaning> = [.prewarmRequest, .userLaunchRequest, .backgroundLaunchRequest,
                                                                  .debuggerLaunchRequest, .processStart]

    /// Whether this line is about a new process of an app that already has a session.
    private func startsNewProcess(_ classified: ClassifiedEvent, meaning: EventMeaning, subject: AppIdentity,
                                  after session: LaunchSession, terminated: Bool) -> Bool {
        if let pid = subject.pid, let known = session.app.pid, pid != known { return true }
        if terminated { return Self.processStartMeanings.contains(meaning) || meaning == .tap }
        // (A pending exit is the process's end, as a termination is.)
        // Once activated, the process cannot be prewarmed or bootstrapped again: such a line means
        // the previous process is gone (its exit line missing from the log).
        guard session.hasMilestone(.activation) else { return false }
        let bootstraps = classified.facts.contains(.bootstrapsProcess)
        return meaning == .prewarmRequest || meaning == .debuggerLaunchRequest || (meaning == .userLaunchRequest && bootstraps)
    }

    /// Ends the input: every open session, in the order they opened.
    public mutating func finish() -> [LaunchSession] {
        var result: [LaunchSession] = []
        for (key, sequence) in openingOrder[openingHead...] where sequenceOf[key] == sequence {
            if let session = open[key] { result.append(close(key, session)) }
        }
        openingOrder.removeAll()
        openingHead = 0
        terminated.removeAll()
        endedByPendingExit.removeAll()
        backgrounded.removeAll()
        pendingTap = nil
        return result
    }

    /// Closes the session of `key` (given as it ends) and forgets the app's per-session state.
    private mutating func close(_ key: String, _ session: LaunchSession) -> LaunchSession {
        open[key] = nil
        sequenceOf[key] = nil
        // (Each forgets its key only where it may hold it: a removal hashes the key even from an empty set.)
        if !terminated.isEmpty { terminated.remove(key) }
        if !endedByPendingExit.isEmpty { endedByPendingExit.remove(key) }
        if !backgrounded.isEmpty { backgrounded[key] = nil }
        for index in session.events.indices { keptBytes -= Self.keptCost(of: session.events[index]) }
        let droppedForBudget = budgetDrops.isEmpty ? 0 : budgetDrops.removeValue(forKey: key) ?? 0
        return finalize(session, droppedForBudget: droppedForBudget)
    }

    /// The app whose open session opened first; drops stale entries on the way.
    private mutating func oldestOpen() -> String? {
        while openingHead < openingOrder.count {
            let (key, sequence) = openingOrder[openingHead]
            if sequenceOf[key] == sequence { return key }
            openingHead += 1
        }
        if openingHead > 4096 {
            openingOrder.removeFirst(openingHead)
            openingHead = 0
        }
        return nil
    }

    /// Keeps the line with its text, up to ``LaunchSession/eventLimit`` and while the open sessions' lines stay within
    /// ``maximumKeptBytes``.
    private mutating func record(_ classified: ClassifiedEvent, meaning: EventMeaning, in session: inout LaunchSession, key: String) {
        if session.firstSeen == nil { session.firstSeen = classified.event.timestamp }
        session.lastSeen = classified.event.timestamp
        guard session.events.count < LaunchSession.eventLimit else {
            session.eventsNotKept += 1
            return
        }
        let event = classified.event
        let kept = SessionEvent(origin: event.origin, time: event.timestamp, process: event.process, pid: event.pid,
                                role: classified.role, meaning: meaning, signatureID: classified.signatureID,
                                detail: classified.detail, text: SessionEvent.keptText(event.message),
                                pointName: classified.pointName)
        let cost = Self.keptCost(of: kept)
        guard keptBytes + cost <= maximumKeptBytes else {
            session.eventsNotKept += 1
            linesNotKeptForBudget += 1
            budgetDrops[key, default: 0] += 1
            return
        }
        keptBytes += cost
        // Room for a few lines at once: growing one line at a time reallocated on each of a short session's lines.
        if session.events.isEmpty { session.events.reserveCapacity(8) }
        session.events.append(kept)
    }

    private func opensSession(_ meaning: EventMeaning) -> Bool {
        switch meaning {
        case .tap, .prewarmRequest, .userLaunchRequest, .backgroundLaunchRequest, .debuggerLaunchRequest, .launchRequest, .processStart,
             .suspension, .activation, .appLifecycle, .termination, .pendingExit, .watchdog, .watchdogNotEnforced, .keychainFailure,
             .dataProtectionFailure, .slowLaunchDiagnostic:
            true
        default:
            false
        }
    }

    private mutating func apply(_ classified: ClassifiedEvent, meaning: EventMeaning, to session: inout LaunchSession, key: String) {
        let event = classified.event
        // (The session is passed, not captured: a nested function capturing it copied the whole session twice a call.)
        func mark(_ name: LaunchSession.Milestone.Name, in session: inout LaunchSession) {
            guard !session.hasMilestone(name) else { return }
            // Room for a session's usual milestones at once, as for its lines.
            if session.milestones.isEmpty { session.milestones.reserveCapacity(6) }
            session.milestones.append(LaunchSession.Milestone(name: name, time: event.timestamp, evidence: event.origin, detail: classified.detail))
        }
        switch meaning {
        case .prewarmRequest:
            mark(.prewarmRequest, in: &session)
            let certain = classified.facts.contains(.certainPrewarm)
            if !session.wasPrewarmedSoFar || (certain && session.confidence != .certain) {
                session.kind = session.hasMilestone(.activation) ? .prewarmThenLaunch : .prewarmOutcomeUnknown
                session.confidence = certain ? .certain : .likely
                session.decidedBy = event.origin
            }
        case .tap:
            mark(.tap, in: &session)
            // An icon tap naming the app, and nothing else: a cold launch, likely.
            if session.kind == .unknown && !session.hasMilestone(.processStart) {
                session.kind = .coldLaunch
                session.confidence = .likely
                session.decidedBy = event.origin
            }
        case .userLaunchRequest:
            claimTap(for: &session, at: event.timestamp, key: key)
            pendingTap = nil  // a tap belongs to the launch that follows it, or to none
            mark(.launchRequest, in: &session)
            if session.kind == .unknown && !session.hasMilestone(.processStart) {
                session.kind = .coldLaunch
                session.confidence = .certain
                session.decidedBy = event.origin
            }
        case .backgroundLaunchRequest:
            mark(.launchRequest, in: &session)
            if session.kind == .unknown {
                session.kind = .backgroundLaunch
                session.confidence = .certain
                session.decidedBy = event.origin
            }
        case .debuggerLaunchRequest:
            mark(.launchRequest, in: &session)
            if session.kind == .unknown || (session.kind == .coldLaunch && session.confidence != .certain) {
                session.kind = .debuggerLaunch
                session.confidence = .certain
                session.decidedBy = event.origin
            }
        case .backgroundRunning:
            // A launch this log shows the start of, running in the background before any activation.
            if session.kind == .unknown, !session.hasMilestone(.activation),
               session.hasMilestone(.launchRequest) || session.hasMilestone(.processStart) {
                session.kind = .backgroundLaunch
                session.confidence = .likely
                session.decidedBy = event.origin
            }
        case .launchRequest:
            mark(.launchRequest, in: &session)
        case .stateChange:
            if classified.facts.contains(.wentToBackground), !session.hasMilestone(.activation),
               !session.hasMilestone(.launchRequest), !session.hasMilestone(.prewarmRequest), backgrounded[key] == nil {
                backgrounded[key] = event.origin
            }
        case .processStart:
            mark(.processStart, in: &session)
        case .suspension:
            if !session.hasMilestone(.activation) { mark(.suspended, in: &session) }
        case .activation:
            // A process already there (prewarmed, suspended) is activated by the tap the user made; an activation
            // of a process already active (a resume within the session) takes the tap too, so it is never left
            // for another app's launch.
            if !session.hasMilestone(.activation), !session.hasMilestone(.launchRequest) || session.wasPrewarmedSoFar {
                claimTap(for: &session, at: event.timestamp, key: key)
            }
            pendingTap = nil
            if !session.hasMilestone(.activation) {
                mark(.activation, in: &session)
                resolveKindAtActivation(&session, key: key)
            }
            if classified.facts.contains(.activeInForeground) { mark(.active, in: &session) }
        case .termination, .pendingExit:
            mark(.termination, in: &session)
            terminated.insert(key)
            if meaning == .pendingExit { endedByPendingExit.insert(key) }
            if session.kind == .prewarmOutcomeUnknown { session.kind = .prewarmUnused }
        case .watchdog:
            // The watchdog's explanation is the exit reason; the exit lines that follow add nothing.
            mark(.termination, in: &session)
            terminated.insert(key)
            if session.kind == .prewarmOutcomeUnknown { session.kind = .prewarmUnused }
        case .appLifecycle:
            if !session.hasMilestone(.activation) { session.callbacksBeforeActivation.append(event.origin) }
        case .firstFrame:
            mark(.firstFrame, in: &session)
        case .firstScreen:
            mark(.firstScreen, in: &session)
        case .launchComplete:
            mark(.launchComplete, in: &session)
        default:
            break
        }
    }

    /// Gives `session` the pending tap when it came at most ``tapClaimWindow`` before `time`; a tap is claimed once.
    private mutating func claimTap(for session: inout LaunchSession, at time: LogTimestamp, key: String) {
        guard let tap = pendingTap else { return }
        let gap = time.microsecondsSinceEpoch - tap.event.timestamp.microsecondsSinceEpoch
        guard gap >= 0, gap <= Self.tapClaimWindow, !session.hasMilestone(.tap) else {
            if gap > Self.tapClaimWindow { pendingTap = nil }
            return
        }
        pendingTap = nil
        record(tap, meaning: .tap, in: &session, key: key)
        // The tap came before the lines already kept: its line goes where its time puts it.
        if session.events.last?.origin == tap.event.origin, let at = session.events.firstIndex(where: {
            $0.time.microsecondsSinceEpoch > tap.event.timestamp.microsecondsSinceEpoch
        }) {
            session.events.insert(session.events.removeLast(), at: at)
        }
        session.milestones.append(LaunchSession.Milestone(name: .tap, time: tap.event.timestamp, evidence: tap.event.origin, detail: nil))
        if let first = session.firstSeen, tap.event.timestamp.microsecondsSinceEpoch < first.microsecondsSinceEpoch { session.firstSeen = tap.event.timestamp }
    }

    private func resolveKindAtActivation(_ session: inout LaunchSession, key: String) {
        switch session.kind {
        case .prewarmOutcomeUnknown, .prewarmUnused:
            session.kind = .prewarmThenLaunch
        case .unknown:
            if let background = backgrounded[key] {
                // The app was in use before the log began, went to the background, and came back.
                session.kind = .resume
                session.confidence = .likely
                session.decidedBy = background
            } else if session.hasMilestone(.suspended) {
                session.kind = .prewarmThenLaunch
                session.confidence = .guess
                session.decidedBy = session.milestone(.suspended)?.evidence
                session.incompleteEvidence.append("no prewarm request in the log: inferred from a suspended state before activation")
            }
        default:
            break
        }
    }

    private func finalize(_ session: LaunchSession, droppedForBudget: Int) -> LaunchSession {
        var result = session
        // Milestones mostly arrive in order: sorting them anyway copied the session's list (the caller's copy
        // still holds it) and cost more than the rest of closing.
        // (Their order: time, then line; `LogTimestamp` orders by the instant alone.)
        func order(_ index: Int) -> (Int64, Int) {
            (result.milestones[index].time.microsecondsSinceEpoch, result.milestones[index].evidence.line)
        }
        if result.milestones.indices.dropFirst().contains(where: { order($0) < order($0 - 1) }) {
            result.milestones.sort { ($0.time, $0.evidence.line) < ($1.time, $1.evidence.line) }
        }
        if result.kind == .unknown {
            result.incompleteEvidence.append("the log does not show how this process started")
        }
        if result.app.bundleID == nil, result.app.processName != nil {
            result.incompleteEvidence.append("no line names the app (bundle id) of this process: it is known by its process name only")
        }
        if result.eventsNotKept > 0, droppedForBudget > 0 {
            result.incompleteEvidence.append("\(result.eventsNotKept) more lines of this process were counted but not kept (limit \(LaunchSession.eventLimit) per session; \(droppedForBudget) because the open sessions held \(maximumKeptBytes >> 20) MiB of lines)")
        } else if result.eventsNotKept > 0 {
            result.incompleteEvidence.append("\(result.eventsNotKept) more lines of this process were counted but not kept (limit \(LaunchSession.eventLimit))")
        }
        return result
    }
}

extension LaunchSession {
    /// Whether a prewarm request was seen so far (before the kind is final).
    fileprivate var wasPrewarmedSoFar: Bool {
        kind == .prewarmOutcomeUnknown || kind == .prewarmUnused || kind == .prewarmThenLaunch
    }
}
