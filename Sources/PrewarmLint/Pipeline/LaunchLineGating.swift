import PrewarmLintClassifier
import PrewarmLintReaders

/// The session pipeline's answer to each record its reader offers (`RecordOffer`): the classifier's gate
/// (`LaunchLineGate`, the one drop rule) asked of the record's head, knowing what this input's classifier has learnt
/// (`LearntApps`, brought up to date by ``follow(_:)`` after every event) — or, for an input merged with others and
/// classified after the merge, knowing that another input may teach what makes a line matter.
///
/// Held by the consumer of the reader's output, beside the classifier, on the thread that reads the input; the reader
/// holds none of it.
struct LaunchLineGating {
    private let gate: LaunchLineGate
    private var roles = ProcessRoleCache()
    private var learnt = LearntApps()
    private let knowledge: LaunchLineGate.Knowledge

    /// A gating for a classifier of `table`: following this input's classifier, or judging for merged inputs.
    init(table: SignatureTable, followsClassifier: Bool = true) {
        gate = LaunchLineGate(table: table)
        knowledge = followsClassifier ? .classifier : .merged
    }

    /// The gate, for a thread reading the input ahead of the classifier (``AheadLaunchLineGating``).
    var aheadGate: LaunchLineGate { gate }

    /// Whether the offered record may matter: built when true. A record judged ahead as refused unless a pid is learnt
    /// asks that alone.
    @inline(__always)
    mutating func takes(_ offer: inout RecordOffer) -> Bool {
        if let pid = offer.unlessLearnt { return learnt.holdsApp(pid: pid) }
        let role = Self.role(of: &offer, roles: &roles)
        return gate.verdict(role: role, pid: offer.pid, firstLine: offer.message, knowing: knowledge, learnt: learnt) == .admitted
    }

    /// Brings what the gate knows up to date with the classifier's directory after an event was classified.
    mutating func follow(_ directory: ProcessDirectory) {
        learnt.follow(directory)
    }

    /// The launch role of the offer's process (`ProcessRole.known(processName:)`), all the gate asks of its name: read
    /// from the offer's name note once the reader remembers one, else worked out and noted.
    @inline(__always)
    static func role(of offer: inout RecordOffer, roles: inout ProcessRoleCache) -> ProcessRole? {
        if offer.nameNote != 0 { return ProcessRole(nameNote: offer.nameNote) }
        let role = roles.role(ofBytes: offer.processName)
        offer.nameNote = role.nameNote
        return role
    }
}

/// ``LaunchLineGating``'s judge for a thread reading the input ahead of the classifier (`ScanAhead`), knowing nothing
/// yet: what holds whatever the classifier learns first. Made on that thread, and used there alone.
struct AheadLaunchLineGating {
    private let gate: LaunchLineGate
    private var roles = ProcessRoleCache()
    private let nothingLearnt = LearntApps()

    init(gate: LaunchLineGate) {
        self.gate = gate
    }

    /// What can be said of the offered record ahead of the classifier.
    mutating func admission(_ offer: inout RecordOffer) -> RecordAdmission {
        let role = LaunchLineGating.role(of: &offer, roles: &roles)
        switch gate.verdict(role: role, pid: offer.pid, firstLine: offer.message, knowing: .ahead, learnt: nothingLearnt) {
        case .admitted: return .admitted
        case .refused: return .refused
        case .refusedUnlessLearnt(let pid): return .refusedUnlessLearnt(pid: pid)
        }
    }
}

extension ProcessRole? {
    /// The note a reader keeps with a process name of this role (`RecordOffer.nameNote`; 0 is no note).
    var nameNote: UInt8 {
        switch self {
        case nil: 1
        case .dasd?: 2
        case .runningboardd?: 3
        case .springboard?: 4
        case .app?: 5
        case .securityd?: 6
        case .kernel?: 7
        case .other?: 8
        }
    }
}

extension ProcessRole {
    /// The role a name note stands for (``Optional/nameNote``); nil for none (note 1).
    init?(nameNote: UInt8) {
        switch nameNote {
        case 2: self = .dasd
        case 3: self = .runningboardd
        case 4: self = .springboard
        case 5: self = .app
        case 6: self = .securityd
        case 7: self = .kernel
        case 8: self = .other
        default: return nil
        }
    }
}
