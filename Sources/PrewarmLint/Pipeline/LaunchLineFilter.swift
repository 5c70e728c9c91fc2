import PrewarmLintClassifier
import PrewarmLintReaders

/// The session pipeline's `RecordFilter`: asks the classifier's gate (`LaunchLineGate`, the one drop rule) of each
/// record, knowing what this input's classifier has learnt (`LearntApps`, brought up to date by ``follow(_:)`` after
/// every event) — or, for an input merged with others and classified after the merge, knowing that another input may
/// teach what makes a line matter.
///
/// One input's filter is read by that input's decoder and updated by its classifier, both on the thread that reads the
/// input, one after the other (a decoder asks only once every earlier event has been classified): hence
/// `@unchecked Sendable`.
final class LaunchLineFilter: RecordFilter, @unchecked Sendable {
    private let gate: LaunchLineGate
    // Unchecked: read and written on one thread (above), and a checked access was a runtime call per line.
    @exclusivity(unchecked) private var roles = ProcessRoleCache()
    @exclusivity(unchecked) private var learnt = LearntApps()
    private let knowledge: LaunchLineGate.Knowledge

    /// Whether the filter follows a classifier of its own input (``follow(_:)``); one that does not judges as for
    /// merged inputs.
    var followsClassifier: Bool { if case .classifier = knowledge { true } else { false } }

    init(table: SignatureTable, followsClassifier: Bool = true) {
        gate = LaunchLineGate(table: table)
        knowledge = followsClassifier ? .classifier : .merged
    }

    /// For a thread that reads the input ahead of the classifier (`RecordPrescan`): the gate, knowing nothing yet. A
    /// merged input's filter has none (its inputs are read on a thread each already).
    func makeAheadFilter() -> (any AheadRecordFilter)? {
        followsClassifier ? LaunchLineAheadFilter(gate: gate) : nil
    }

    /// The pids the classifier holds an app for: the question left open by a record judged ahead.
    func admitsLearnt(pid: Int) -> Bool {
        learnt.holdsApp(pid: pid)
    }

    func admits(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        gate.verdict(role: roles.role(of: process), pid: pid, firstLine: firstLine, knowing: knowledge, learnt: learnt) == .admitted
    }

    /// The process's launch role, if it has one (`ProcessRole.known(processName:)`): all the gate asks of its name.
    func processClass(of process: String) -> RecordFilterProcessClass? {
        RecordFilterProcessClass(role: roles.role(of: process))
    }

    func admits(processClass: RecordFilterProcessClass, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        gate.verdict(role: processClass.role, pid: pid, firstLine: firstLine, knowing: knowledge, learnt: learnt) == .admitted
    }

    /// Brings what the gate knows up to date with the classifier's directory after an event was classified.
    func follow(_ directory: ProcessDirectory) {
        learnt.follow(directory)
    }
}

/// ``LaunchLineFilter``'s gate for a thread reading the input ahead of the classifier (`RecordPrescan`), knowing
/// nothing yet. A filter of its own, since the role cache is not shared across threads: made on the reading thread,
/// then asked by the judging thread alone (hence unchecked).
final class LaunchLineAheadFilter: AheadRecordFilter, @unchecked Sendable {
    private let gate: LaunchLineGate
    private var roles = ProcessRoleCache()
    private let nothingLearnt = LearntApps()

    init(gate: LaunchLineGate) {
        self.gate = gate
    }

    func judge(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> AheadJudgement {
        judge(role: roles.role(of: process), pid: pid, firstLine: firstLine)
    }

    /// The process's launch role, as ``LaunchLineFilter/processClass(of:)``.
    func judgingClass(of process: String) -> RecordFilterProcessClass? {
        RecordFilterProcessClass(role: roles.role(of: process))
    }

    func judge(judgingClass: RecordFilterProcessClass, pid: Int?, firstLine: UnsafeRawBufferPointer) -> AheadJudgement {
        judge(role: judgingClass.role, pid: pid, firstLine: firstLine)
    }

    private func judge(role: ProcessRole?, pid: Int?, firstLine: UnsafeRawBufferPointer) -> AheadJudgement {
        switch gate.verdict(role: role, pid: pid, firstLine: firstLine, knowing: .ahead, learnt: nothingLearnt) {
        case .admitted: .admitted
        case .refused: .refused
        case .refusedUnlessLearnt(let pid): .refusedUnlessLearnt(pid: pid)
        }
    }
}

extension RecordFilterProcessClass {
    /// The class of a process of launch role `role` (nil: none), for ``LaunchLineFilter`` and ``LaunchLineAheadFilter``.
    init(role: ProcessRole?) {
        let code: UInt8 = switch role {
        case nil: 0
        case .dasd: 1
        case .runningboardd: 2
        case .springboard: 3
        case .app: 4
        case .securityd: 5
        case .kernel: 6
        case .other: 7
        }
        self.init(rawValue: code)
    }

    /// The launch role of a process of this class (``init(role:)``).
    var role: ProcessRole? {
        switch rawValue {
        case 1: .dasd
        case 2: .runningboardd
        case 3: .springboard
        case 4: .app
        case 5: .securityd
        case 6: .kernel
        case 7: .other
        default: nil
        }
    }
}
