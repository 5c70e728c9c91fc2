import PrewarmLintModel
public import PrewarmLintClassifier

/// Rebuilds launch sessions from classified events: a pure state machine (events in, sessions
/// out; no I/O, no clock), one session per app process lifetime.
///
/// Lines are joined by app, not by time: dasd and runningboardd name the bundle
/// (`Executing launch request for app<com.x(501)> (DAS Prewarm launch)`), runningboardd and
/// FrontBoard add the pid (`[app<com.x(501)>:2231] …`), and a later line about the same bundle with
/// another pid is another process; the lines of a launch that name the app and no pid, while the app's process is
/// alive, wait for the next line about the app to tell which process they start. A session ends when a new one starts
/// for its app, or at ``finish()``; exit lines (FrontBoard's `Process exited`, runningboardd's `termination reported
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
    /// An app's key (its bundle id, else its process name) with its hash worked out once: the slots' table rehashes
    /// the keys near one it removes, and a `String` hashes its bytes through SipHash each time.
    private struct AppKey: Hashable {
        let name: String
        let hash: UInt64

        init(_ name: String) {
            self.name = name
            // FNV-1a over the UTF-8 bytes (the table's `Hasher` still mixes it with the process's seed).
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            var copy = name
            copy.withUTF8 { bytes in
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            }
            self.hash = hash
        }

        static func == (lhs: AppKey, rhs: AppKey) -> Bool { lhs.hash == rhs.hash && lhs.name == rhs.name }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// An open session and what the builder knows of its app while it is open.
    private struct OpenSession {
        /// The app's key (its bundle id, else its process name).
        var key: AppKey
        /// The order it opened in; 0 while the slot is free.
        var sequence: Int
        /// The session; nil only while it is taken out to be changed (or the slot is free).
        var session: LaunchSession?
        /// Whether an exit line of its process was seen.
        var terminated = false
        /// Whether its termination milestone is FrontBoard's pending exit: a later exit status replaces its detail.
        var endedByPendingExit = false
        /// Where the app was seen going to the background before any start or activation in the log: its next
        /// activation is a resume.
        var backgrounded: EventOrigin?
        /// Where FrontBoard was seen bootstrapping a new process for the app (a launch request that starts a process
        /// that was not running): an activation soon after it is that process's cold launch.
        var bootstrapped: (origin: EventOrigin, time: LogTimestamp)?
        /// Lines it lost to ``maximumKeptBytes``.
        var budgetDrops = 0
        /// The bytes of room its session's array of lines was given, counted against ``maximumKeptBytes`` (the lines'
        /// texts are counted line by line).
        var eventRoom = 0
        /// The same for its array of held lines.
        var heldRoom = 0
        /// Once its session holds ``LaunchSession/eventLimit`` lines: how many lines of each meaning it holds, counted
        /// the first time a line of that meaning comes past the limit.
        var keptOfMeaning: [EventMeaning: Int] = [:]
        /// Launch lines that named the app and no pid while its process was alive (a request, a job created): not
        /// yet given to the session, because the next line about the app tells whose they are (see `holds`).
        var held: [ClassifiedEvent] = []
    }

    /// The slot of each app with an open session. Only the key's slot is hashed for: a session and its app's state
    /// live in the slot, so a line costs one lookup and a session one insertion and one removal of a small entry.
    /// (Held in a dictionary by key, sessions moved as it grew and shrank, and their order and the app's state took a
    /// hash in each of five more tables.)
    private var slotOf: [AppKey: Int] = [:]
    /// Open sessions, by slot; a slot freed by a closed session is taken by the next one to open.
    private var slots: [OpenSession] = []
    private var freeSlots: [Int] = []
    /// Open sessions in the order they opened, as (slot, sequence) with lazy deletion: an entry counts
    /// only while its slot still holds its sequence. Its size follows the open sessions.
    private var openingOrder: [(slot: Int, sequence: Int)] = []
    private var openingHead = 0
    private var nextSequence = 0
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

    /// How many bytes of kept lines the open sessions may hold together (each line as it is in memory: its struct, its
    /// text and the text's heap header; held lines too): past it, further lines are counted, not kept, until
    /// sessions close. The count of open sessions alone bounds nothing useful — 10,000 sessions of 512 lines of a
    /// kilobyte are 5 GB.
    public let maximumKeptBytes: Int
    /// Lines counted and not kept because of ``maximumKeptBytes``.
    public private(set) var linesNotKeptForBudget = 0
    /// Bytes of kept lines the open sessions hold now.
    public private(set) var keptBytes = 0

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

    /// What a kept line counts against ``maximumKeptBytes`` besides its place in its session's array: its text with the
    /// text's heap header. The array's room is counted as it is given, whole (``roomCost(_:first:)``): an array grows
    /// by doubling, and counted line by line (a struct of 208 bytes each), 10,000 open sessions held 6 MB more than
    /// their budget in room not yet used. (Counted as the text and 128 bytes, the budget let them hold 25 MB for
    /// 16 MiB counted.)
    @inline(__always) static func keptCost(of event: SessionEvent) -> Int { keptCost(ofText: event.text) }

    /// ``keptCost(of:)`` of a line whose kept text is `text`.
    @inline(__always) static func keptCost(ofText text: String) -> Int {
        text.utf8.count + 48
    }

    /// The bytes of room `array` is given for one more element: none while it has room; else, what growing it takes
    /// (`first` elements for an empty array, else as many again as it has).
    @inline(__always) static func roomCost<Element>(_ array: [Element], first: Int) -> Int {
        let capacity = array.capacity
        guard array.count == capacity else { return 0 }
        return (capacity == 0 ? first : capacity) * MemoryLayout<Element>.stride
    }

    /// Gives `array` room for one more element, as ``roomCost(_:first:)`` says; returns the bytes of room it was given
    /// (the allocator may round a little up).
    @inline(__always) static func makeRoom<Element>(in array: inout [Element], first: Int) -> Int {
        let capacity = array.capacity
        guard array.count == capacity else { return 0 }
        array.reserveCapacity(capacity == 0 ? first : 2 * capacity)
        return (array.capacity - capacity) * MemoryLayout<Element>.stride
    }

    /// Room for a session's first lines at once: growing one line at a time reallocated on each of a short session's
    /// lines. (Four, a prewarm's request, start and suspension and one more: more room is kept by each of up to
    /// 10,000 open sessions.)
    static let firstRoom = 4

    /// The key of a free slot.
    private static let noKey = AppKey("")

    /// The open session of `slot`, moved out of it (nil left there) to be changed and put back.
    @inline(__always) private static func takeSession(from slot: inout OpenSession) -> LaunchSession {
        guard let session = slot.session.take() else { preconditionFailure("an open slot holds its session") }
        return session
    }

    /// Takes one event; returns the sessions this event closed (usually none).
    public mutating func consume(_ classified: ClassifiedEvent) -> [LaunchSession] {
        if classified.meaning == .tap, classified.subject == nil {
            pendingTap = classified
            return []
        }
        guard let meaning = classified.meaning, let subject = classified.subject, let name = subject.bundleID ?? subject.processName
        else { return [] }
        let key = AppKey(name)
        var closed: [LaunchSession] = []
        // The app's session is taken out of its slot while it changes, nil left there, and put back: its arrays stay
        // uniquely referenced and grow in place (a copy left in the slot made every appended line copy the session's
        // whole list), the session itself is never copied (its strings and arrays retained and released), and the
        // key is hashed once per line. A slot stays the app's until its session closes. (A vacant session swapped in
        // instead was a copy of it, every field retained and released, on each line.)
        var heldForNext: [ClassifiedEvent] = []
        if let slot = slotOf[key] {
            var current = Self.takeSession(from: &slots[slot])
            let isTerminated = slots[slot].terminated
            if !isTerminated, holds(classified, meaning: meaning, subject: subject, in: current, slot: slot) {
                if slots[slot].held.count == Self.maximumHeldLines {
                    // The oldest held line is the live process's: a new process's own lines come right before it.
                    let oldest = slots[slot].held.removeFirst()
                    keptBytes -= Self.heldCost(of: oldest)
                    give(oldest, to: &current, slot: slot)
                }
                let room = Self.makeRoom(in: &slots[slot].held, first: 2)
                slots[slot].heldRoom += room
                keptBytes += Self.heldCost(of: classified) + room
                slots[slot].held.append(classified)
                slots[slot].session = current
                return closed
            }
            if !startsNewProcess(classified, meaning: meaning, subject: subject, after: current, terminated: isTerminated) {
                // Held lines were the live process's: this line is about it, or is not about a start.
                releaseHeld(slot, into: &current)
                if isTerminated {
                    // More lines about the exited process (FrontBoard's clean-up, runningboardd's bookkeeping) add
                    // nothing to its milestones; they are kept as its lines.
                    record(classified, meaning: meaning, in: &current, slot: slot)
                    if meaning == .termination, classified.detail != nil,
                       current.milestone(.termination)?.detail == nil || slots[slot].endedByPendingExit {
                        slots[slot].endedByPendingExit = false
                        // The end is still the line that marked it; the exit status is this line's, and says so.
                        current.milestones = current.milestones.map { $0.name == .termination ? LaunchSession.Milestone(
                            name: .termination, time: $0.time, evidence: $0.evidence, detail: classified.detail,
                            detailEvidence: $0.evidence == classified.event.origin ? nil : classified.event.origin) : $0 }
                    }
                } else {
                    update(&current, with: classified, meaning: meaning, subject: subject, slot: slot)
                }
                slots[slot].session = current
                return closed
            }
            // The lines held for this line go with the process it shows is new.
            heldForNext = takeHeld(slot)
            // The next process shows this one ended. Its exit line matters only where the end decides the
            // verdict: a prewarm that was never activated ended unused, and when or why is not in the log.
            if !isTerminated, current.kind == .prewarmOutcomeUnknown || current.kind == .prewarmUnused {
                current.incompleteEvidence.append("no exit line before the next process of this app: when and why the prewarmed process ended is not in the log")
            }
            if current.kind == .prewarmOutcomeUnknown { current.kind = .prewarmUnused }
            closed.append(close(slot, current))
        }
        // A session starts with a line about its start or its life, not with an exit or a bare state;
        // an app going to the background is the exception: it was in use before the log began.
        guard !heldForNext.isEmpty || opensSession(meaning) || classified.facts.contains(.wentToBackground) else { return closed }
        var current = LaunchSession(app: subject)
        nextSequence += 1
        let slot = freeSlots.popLast() ?? slots.count
        let opened = OpenSession(key: key, sequence: nextSequence, session: nil)
        if slot == slots.count { slots.append(opened) } else { slots[slot] = opened }
        slotOf[key] = slot
        openingOrder.append((slot, nextSequence))
        if openingOrder.count - openingHead > 2 * slotOf.count + 1024 {
            // Most entries are of closed sessions: keep the live ones (amortized O(1) per session).
            openingOrder = openingOrder[openingHead...].filter { slots[$0.slot].sequence == $0.sequence }
            openingHead = 0
        }
        if slotOf.count > maximumOpenSessions, let oldest = oldestOpen(), oldest != slot {
            var early = Self.takeSession(from: &slots[oldest])
            releaseHeld(oldest, into: &early)
            early.incompleteEvidence.append("closed early: more than \(maximumOpenSessions) sessions were open at once")
            closedEarly += 1
            closed.append(close(oldest, early))
        }
        for line in heldForNext { give(line, to: &current, slot: slot) }
        update(&current, with: classified, meaning: meaning, subject: subject, slot: slot)
        slots[slot].session = current
        return closed
    }

    /// The most launch lines held for one app at once: a launch logs four to six before its process has a pid (real
    /// excerpts 44–46); past this, the oldest held line is given to the live process.
    public static let maximumHeldLines = 16

    /// What a held line counts against ``maximumKeptBytes`` while it waits, besides its place in the slot's array of held
    /// lines (369 bytes, counted as the array's room, as a kept line's is): its message and timestamp text with their
    /// heap headers.
    @inline(__always) static func heldCost(of line: ClassifiedEvent) -> Int {
        line.event.message.utf8.count + 96
    }

    /// The meanings of the lines a launch logs before its process has a pid: the tap, the requests, SpringBoard's
    /// preparation and runningboardd's job (`Creating and launching job for: app<…>`).
    /// (A switch: a `Set`'s lookup hashes the meaning's name, on every line.)
    private static func isBeforeProcess(_ meaning: EventMeaning) -> Bool {
        switch meaning {
        case .tap, .prewarmRequest, .userLaunchRequest, .backgroundLaunchRequest, .debuggerLaunchRequest, .launchRequest,
             .launchPreparation, .processStart:
            true
        default:
            false
        }
    }

    /// Whether `classified`, about an app whose process is alive, is held until the next line about the app.
    ///
    /// A launch request names the app, not a pid, and runningboardd may log one for a process already there (`… is
    /// already running as …`). When the app's process has a pid, such a line may be about it, or about a new process
    /// whose start the log shows next (`Now tracking process: [app<…>:pid]` with another pid) because the live one
    /// ended with no exit line in the log (a suspended process killed for memory, its exit not in what was attached).
    /// Given to the live process at once, the new process lost its request, tap and kind (a prewarm's next prewarm was
    /// read as the old process's, and the new one "does not show how it started"); so such lines wait for the next
    /// line about the app: a new process takes them, anything else gives them to the live one, as does the end of the
    /// input.
    private func holds(_ classified: ClassifiedEvent, meaning: EventMeaning, subject: AppIdentity, in session: LaunchSession,
                       slot: Int) -> Bool {
        guard subject.pid == nil, session.app.pid != nil, Self.isBeforeProcess(meaning),
              keptBytes + Self.heldCost(of: classified) + Self.roomCost(slots[slot].held, first: 2) <= maximumKeptBytes
        else { return false }
        // A line that already shows a new process (a prewarm request after an activation) is not held.
        return !startsNewProcess(classified, meaning: meaning, subject: subject, after: session, terminated: false)
    }

    /// Takes the lines held in `slot` out of it, with what they counted against the budget.
    private mutating func takeHeld(_ slot: Int) -> [ClassifiedEvent] {
        guard !slots[slot].held.isEmpty else { return [] }
        let held = slots[slot].held
        slots[slot].held = []
        keptBytes -= slots[slot].heldRoom
        slots[slot].heldRoom = 0
        for line in held { keptBytes -= Self.heldCost(of: line) }
        return held
    }

    /// Gives the lines held in `slot` to its session, in their order.
    private mutating func releaseHeld(_ slot: Int, into session: inout LaunchSession) {
        for line in takeHeld(slot) { give(line, to: &session, slot: slot) }
    }

    /// Gives a held line to `session`, as if it came now. (Only lines with a meaning and a subject are held.)
    private mutating func give(_ line: ClassifiedEvent, to session: inout LaunchSession, slot: Int) {
        guard let meaning = line.meaning, let subject = line.subject else { return }
        update(&session, with: line, meaning: meaning, subject: subject, slot: slot)
    }

    /// Keeps the line in the session, completes the app's identity and applies the line's meaning.
    private mutating func update(_ session: inout LaunchSession, with classified: ClassifiedEvent, meaning: EventMeaning,
                                 subject: AppIdentity, slot: Int) {
        record(classified, meaning: meaning, in: &session, slot: slot)
        if session.app.pid == nil { session.app.pid = subject.pid }
        if session.app.bundleID == nil { session.app.bundleID = subject.bundleID }
        if session.app.processName == nil { session.app.processName = subject.processName }
        apply(classified, meaning: meaning, to: &session, slot: slot)
    }

    /// The meanings that start a process.
    private static func startsProcess(_ meaning: EventMeaning) -> Bool {
        switch meaning {
        case .prewarmRequest, .userLaunchRequest, .backgroundLaunchRequest, .debuggerLaunchRequest, .processStart: true
        default: false
        }
    }

    /// Whether this line is about a new process of an app that already has a session.
    private func startsNewProcess(_ classified: ClassifiedEvent, meaning: EventMeaning, subject: AppIdentity,
                                  after session: LaunchSession, terminated: Bool) -> Bool {
        if let pid = subject.pid, let known = session.app.pid, pid != known { return true }
        if terminated { return Self.startsProcess(meaning) || meaning == .tap }
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
        finish { result.append($0) }
        return result
    }

    /// Ends the input: every open session, in the order they opened, handed to `body` one at a time as it closes.
    /// What ``finish()`` returns, without holding them all at once: each session's slot is freed before the next
    /// closes, so a caller that spools each (the CLI) never holds every session open at the end and their report too.
    public mutating func finish(_ body: (LaunchSession) -> Void) {
        for (slot, sequence) in openingOrder[openingHead...] where slots[slot].sequence == sequence {
            var session = Self.takeSession(from: &slots[slot])
            releaseHeld(slot, into: &session)
            body(close(slot, session))
        }
        openingOrder.removeAll()
        openingHead = 0
        pendingTap = nil
    }

    /// Closes each session whose process's exit was seen and that has had no line since before `instant` (log time),
    /// handing it to `body`; the others stay open. For a log still arriving: the lines that follow an exit (FrontBoard's
    /// clean-up, the exit status) come within a moment of it, and what comes later about the app is its next process,
    /// which would close the session anyway. Open sessions are walked once.
    public mutating func closeEnded(quietSince instant: Int64, _ body: (LaunchSession) -> Void) {
        var index = openingHead
        while index < openingOrder.count {
            let (slot, sequence) = openingOrder[index]
            index += 1
            guard slots[slot].sequence == sequence, slots[slot].terminated, slots[slot].held.isEmpty,
                  let lastSeen = slots[slot].session?.lastSeen, lastSeen.microsecondsSinceEpoch < instant else { continue }
            body(close(slot, Self.takeSession(from: &slots[slot])))
        }
    }

    /// The open session of the app keyed `name` (its bundle id, else its process name) as it would be handed on if it
    /// closed now, but for the lines held for the app's next process; nil when the app has no open session. For a log
    /// still arriving, to check what a line already decides.
    public func openSession(named name: String) -> LaunchSession? {
        guard let slot = slotOf[AppKey(name)], let session = slots[slot].session else { return nil }
        return finalize(session, droppedForBudget: slots[slot].budgetDrops)
    }

    /// How many sessions are open.
    public var openSessions: Int { slotOf.count }

    /// Closes the session in `slot` (given as it ends, taken out of the slot) and frees the slot, with the app's
    /// per-session state.
    private mutating func close(_ slot: Int, _ session: LaunchSession) -> LaunchSession {
        assert(slots[slot].held.isEmpty, "held lines are given to a session or to the next process before it closes")
        slotOf[slots[slot].key] = nil
        let droppedForBudget = slots[slot].budgetDrops
        keptBytes -= slots[slot].eventRoom
        slots[slot] = OpenSession(key: Self.noKey, sequence: 0, session: nil)
        freeSlots.append(slot)
        for index in session.events.indices { keptBytes -= Self.keptCost(of: session.events[index]) }
        return finalize(session, droppedForBudget: droppedForBudget)
    }

    /// The slot of the open session that opened first; drops stale entries on the way.
    private mutating func oldestOpen() -> Int? {
        while openingHead < openingOrder.count {
            let (slot, sequence) = openingOrder[openingHead]
            if slots[slot].sequence == sequence { return slot }
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
    private mutating func record(_ classified: ClassifiedEvent, meaning: EventMeaning, in session: inout LaunchSession, slot: Int) {
        if session.firstSeen == nil { session.firstSeen = classified.event.timestamp }
        session.lastSeen = classified.event.timestamp
        if session.events.count >= LaunchSession.eventLimit {
            // Past the limit a line is still kept while its session holds fewer than a few lines of its meaning: a
            // flood of one kind of line (300,000 `didFinishLaunching`) cannot push out the first keychain failure.
            let kept = slots[slot].keptOfMeaning[meaning] ?? session.events.lazy.filter { $0.meaning == meaning }.count
            guard kept < LaunchSession.linesKeptOfEachMeaning else {
                slots[slot].keptOfMeaning[meaning] = kept
                session.eventsNotKept += 1
                return
            }
            slots[slot].keptOfMeaning[meaning] = kept + 1
        }
        // The line's fields are read in place (no `let event = classified.event`) and its cost is worked out from its
        // text before the kept line is made.
        let text = SessionEvent.keptText(classified.event.message)
        let cost = Self.keptCost(ofText: text)
        guard keptBytes + cost + Self.roomCost(session.events, first: Self.firstRoom) <= maximumKeptBytes else {
            session.eventsNotKept += 1
            linesNotKeptForBudget += 1
            slots[slot].budgetDrops += 1
            return
        }
        let room = Self.makeRoom(in: &session.events, first: Self.firstRoom)
        slots[slot].eventRoom += room
        keptBytes += cost + room
        session.events.append(SessionEvent(origin: classified.event.origin, time: classified.event.timestamp,
                                           process: classified.event.process, pid: classified.event.pid, role: classified.role,
                                           meaning: meaning, signatureID: classified.signatureID, detail: classified.detail,
                                           text: text, pointName: classified.pointName))
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

    private mutating func apply(_ classified: ClassifiedEvent, meaning: EventMeaning, to session: inout LaunchSession, slot: Int) {
        // (The line's fields are read in place, as in `record`.)
        // (The session is passed, not captured: a nested function capturing it copied the whole session twice a call.)
        func mark(_ name: LaunchSession.Milestone.Name, in session: inout LaunchSession) {
            guard !session.hasMilestone(name) else { return }
            // Room for a session's usual milestones at once, as for its lines.
            if session.milestones.isEmpty { session.milestones.reserveCapacity(4) }
            session.milestones.append(LaunchSession.Milestone(name: name, time: classified.event.timestamp, evidence: classified.event.origin, detail: classified.detail))
        }
        switch meaning {
        case .prewarmRequest:
            mark(.prewarmRequest, in: &session)
            let certain = classified.facts.contains(.certainPrewarm)
            if !session.wasPrewarmedSoFar || (certain && session.confidence != .certain) {
                session.kind = session.hasMilestone(.activation) ? .prewarmThenLaunch : .prewarmOutcomeUnknown
                session.confidence = certain ? .certain : .likely
                session.decidedBy = classified.event.origin
            }
        case .tap:
            mark(.tap, in: &session)
            // An icon tap naming the app, and nothing else: a cold launch, likely.
            if session.kind == .unknown && !session.hasMilestone(.processStart) {
                session.kind = .coldLaunch
                session.confidence = .likely
                session.decidedBy = classified.event.origin
            }
        case .userLaunchRequest:
            claimTap(for: &session, at: classified.event.timestamp, slot: slot)
            pendingTap = nil  // a tap belongs to the launch that follows it, or to none
            mark(.launchRequest, in: &session)
            if session.kind == .unknown && !session.hasMilestone(.processStart) {
                session.kind = .coldLaunch
                session.confidence = .certain
                session.decidedBy = classified.event.origin
            }
        case .backgroundLaunchRequest:
            mark(.launchRequest, in: &session)
            if session.kind == .unknown {
                session.kind = .backgroundLaunch
                session.confidence = .certain
                session.decidedBy = classified.event.origin
            }
        case .debuggerLaunchRequest:
            mark(.launchRequest, in: &session)
            if session.kind == .unknown || (session.kind == .coldLaunch && session.confidence != .certain) {
                session.kind = .debuggerLaunch
                session.confidence = .certain
                session.decidedBy = classified.event.origin
            }
        case .backgroundRunning:
            // A launch this log shows the start of, running in the background before any activation.
            if session.kind == .unknown, !session.hasMilestone(.activation),
               session.hasMilestone(.launchRequest) || session.hasMilestone(.processStart) {
                session.kind = .backgroundLaunch
                session.confidence = .likely
                session.decidedBy = classified.event.origin
            }
        case .launchRequest:
            mark(.launchRequest, in: &session)
            if classified.facts.contains(.startsNewProcess), slots[slot].bootstrapped == nil {
                slots[slot].bootstrapped = (classified.event.origin, classified.event.timestamp)
            }
        case .stateChange:
            if classified.facts.contains(.wentToBackground), !session.hasMilestone(.activation),
               !session.hasMilestone(.launchRequest), !session.hasMilestone(.prewarmRequest), slots[slot].backgrounded == nil {
                slots[slot].backgrounded = classified.event.origin
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
                claimTap(for: &session, at: classified.event.timestamp, slot: slot)
            }
            pendingTap = nil
            if !session.hasMilestone(.activation) {
                mark(.activation, in: &session)
                resolveKindAtActivation(&session, slot: slot)
            }
            if classified.facts.contains(.activeInForeground) { mark(.active, in: &session) }
        case .termination, .pendingExit:
            mark(.termination, in: &session)
            slots[slot].terminated = true
            if meaning == .pendingExit { slots[slot].endedByPendingExit = true }
            if session.kind == .prewarmOutcomeUnknown { session.kind = .prewarmUnused }
        case .watchdog:
            // The watchdog's explanation is the exit reason; the exit lines that follow add nothing.
            mark(.termination, in: &session)
            slots[slot].terminated = true
            if session.kind == .prewarmOutcomeUnknown { session.kind = .prewarmUnused }
            // FrontBoard's process-launch watchdog guards a process it is launching; in the foreground, that launch is
            // the user's, of a process that was not running (a prewarmed one is activated under scene-create's).
            if session.kind == .unknown, !session.hasMilestone(.prewarmRequest), !session.hasMilestone(.suspended) {
                let watchdog = WatchdogTermination(text: classified.event.message)
                if watchdog.event == "process-launch", watchdog.visibility == "Foreground" {
                    session.kind = .coldLaunch
                    session.confidence = .likely
                    session.decidedBy = classified.event.origin
                }
            }
        case .appLifecycle:
            if !session.hasMilestone(.activation) { session.noteCallbackBeforeActivation(classified.event.origin) }
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
    private mutating func claimTap(for session: inout LaunchSession, at time: LogTimestamp, slot: Int) {
        guard let tap = pendingTap else { return }
        let gap = time.microseconds(since: tap.event.timestamp)
        guard gap >= 0, gap <= Self.tapClaimWindow, !session.hasMilestone(.tap) else {
            if gap > Self.tapClaimWindow { pendingTap = nil }
            return
        }
        pendingTap = nil
        record(tap, meaning: .tap, in: &session, slot: slot)
        // The tap came before the lines already kept: its line goes where its time puts it.
        if session.events.last?.origin == tap.event.origin, let at = session.events.firstIndex(where: {
            $0.time.microsecondsSinceEpoch > tap.event.timestamp.microsecondsSinceEpoch
        }) {
            session.events.insert(session.events.removeLast(), at: at)
        }
        session.milestones.append(LaunchSession.Milestone(name: .tap, time: tap.event.timestamp, evidence: tap.event.origin, detail: nil))
        if let first = session.firstSeen, tap.event.timestamp.microsecondsSinceEpoch < first.microsecondsSinceEpoch { session.firstSeen = tap.event.timestamp }
    }

    /// How long after FrontBoard bootstraps a new process its activation still makes it a cold launch: 20 s, the
    /// longest launch a watchdog allows.
    static let bootstrapToActivation: Int64 = 20_000_000

    private func resolveKindAtActivation(_ session: inout LaunchSession, slot: Int) {
        switch session.kind {
        case .prewarmOutcomeUnknown, .prewarmUnused:
            session.kind = .prewarmThenLaunch
        case .unknown:
            if let background = slots[slot].backgrounded {
                // The app was in use before the log began, went to the background, and came back.
                session.kind = .resume
                session.confidence = .likely
                session.decidedBy = background
            } else if let bootstrap = slots[slot].bootstrapped, !session.hasMilestone(.suspended),
                      let activation = session.milestone(.activation),
                      (0...Self.bootstrapToActivation).contains(activation.time.microseconds(since: bootstrap.time)) {
                // A process FrontBoard started for the app, activated within a launch's time: not a prewarmed one (a
                // prewarm is dasd's, through runningboardd) — a cold launch, whatever asked for it.
                session.kind = .coldLaunch
                session.confidence = .likely
                session.decidedBy = bootstrap.origin
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
