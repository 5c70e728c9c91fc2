import PrewarmLintClassifier
import PrewarmLintReaders

/// The session pipeline's `RecordFilter`: admits a record only when the classifier could keep it
/// or learn from it.
///
/// `EventClassifier.classifyIfMeaningful` drops, with nothing learnt, a line whose process has no
/// launch role (not dasd, runningboardd, SpringBoard, securityd or the kernel), is not an app it
/// has learnt of by pid, and matches none of the templates that name an app; and a line of dasd,
/// runningboardd or SpringBoard that matches none of their templates and names no app; and a line
/// of securityd or the kernel that matches none of their templates and whose client or target
/// (`Ledger Pro[2231]/1#4`, `target Samsara:377`, `Sandbox: geod(412)`) is not an app's pid — the
/// classifier learns a name from such a line only for an app's pid. This filter
/// answers the same from the record's bytes: the process's role by name, the pids the classifier's
/// `ProcessDirectory` holds (mirrored here one change at a time by ``follow(_:)``), the texts the
/// templates need (`SignatureTable.mayNameApp(in:role:)`, `mayMatch(in:role:)`) and the marks of
/// an app identity (`AppIdentityParser.mayHoldIdentity(in:)`). It may admit more
/// than the classifier keeps (a pid reused by another process, a line holding an anchor and no
/// match), never less: the tests compare every session, finding and decision with and without it.
///
/// One input's filter is read by that input's decoder and updated by its classifier, both on the
/// thread that reads the input, one after the other (a decoder asks only once every earlier event
/// has been classified): hence `@unchecked Sendable`.
final class LaunchLineFilter: RecordFilter, @unchecked Sendable {
    private let table: SignatureTable
    // Unchecked: read and written on one thread (above), and a checked access was a runtime call per line.
    @exclusivity(unchecked) private var roles = ProcessRoleCache()
    /// The keys of the classifier's `ProcessDirectory.bundleByPID`.
    @exclusivity(unchecked) private var appPIDs = PIDSet()
    /// `ProcessDirectory.pidsRemembered` when last followed.
    private var followed = 0
    /// Whether the directory pairs any process name with an app's pid: then a line without a pid may be
    /// an app's, joined by its name.
    private var joinsNames = false

    /// Whether the filter follows a classifier of its own input (``follow(_:)``). A filter that does not —
    /// one input among several merged as one device's logs, classified together after the merge — cannot
    /// know which pids and names the other inputs taught: it admits every line that may matter once
    /// they are known (an app template may match it, or it pairs a name with a pid).
    let followsClassifier: Bool

    init(table: SignatureTable, followsClassifier: Bool = true) {
        self.table = table
        self.followsClassifier = followsClassifier
    }

    /// For a thread that reads the input ahead of the classifier (`RecordPrescan`): a `LaunchLineAheadFilter`. A
    /// merged input's filter has none (its inputs are read on a thread each already).
    func makeAheadFilter() -> (any AheadRecordFilter)? {
        followsClassifier ? LaunchLineAheadFilter(table: table) : nil
    }

    /// The pids the classifier holds an app for: what ``admits(process:pid:firstLine:)`` asks of a line of a process
    /// with no role of its own.
    func admitsLearnt(pid: Int) -> Bool {
        appPIDs.contains(pid)
    }

    func admits(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        admits(role: roles.role(of: process), pid: pid, firstLine: firstLine)
    }

    /// The process's launch role, if it has one (`ProcessRole.known(processName:)`): all the filter asks of its name.
    func processClass(of process: String) -> RecordFilterProcessClass? {
        RecordFilterProcessClass(role: roles.role(of: process))
    }

    func admits(processClass: RecordFilterProcessClass, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        admits(role: processClass.role, pid: pid, firstLine: firstLine)
    }

    private func admits(role: ProcessRole?, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        if !followsClassifier { return admitsForMerge(role: role, firstLine: firstLine) }
        if let role {
            switch role {
            case .other:
                return false
            case .dasd, .runningboardd, .springboard:
                // Such a line teaches the classifier only through a template it matches or an app it names.
                return table.mayMatch(in: firstLine, role: role) || AppIdentityParser.mayHoldIdentity(in: firstLine)
            case .securityd, .kernel:
                // They name a pid's process in lines no template needs; the classifier learns that name only
                // for an app's pid, which is then a run of digits of the line.
                return table.mayMatch(in: firstLine, role: role) || namesAppPID(firstLine)
            case .app:
                return true
            }
        }
        if let pid, appPIDs.contains(pid) { return true }
        // A line without a pid (a Console copy without the PID column) may be an app's, joined by name:
        // admitted when an app template may match it.
        if pid == nil, joinsNames, table.mayMatch(in: firstLine, role: .app) { return true }
        return table.mayNameApp(in: firstLine, role: .other)
    }

    /// The answer for an input merged with others: what the classifier may keep or learn from once every
    /// input's lines are known.
    private func admitsForMerge(role: ProcessRole?, firstLine: UnsafeRawBufferPointer) -> Bool {
        switch role {
        case .other?:
            return false
        case .dasd?, .runningboardd?, .springboard?:
            return table.mayMatch(in: firstLine, role: role!) || AppIdentityParser.mayHoldIdentity(in: firstLine)
        case .securityd?, .kernel?:
            // They pair names with pids; whether the pid is an app's may be known from another input.
            return true
        case .app?, nil:
            // A process another input may name as an app.
            return table.mayMatch(in: firstLine, role: .app) || table.mayNameApp(in: firstLine, role: .other)
        }
    }

    /// Whether a run of digits of `text` (at most nine: the classifier reads no longer pid) is a pid the
    /// classifier holds an app for. A necessary condition for any longer text too: the readers add
    /// only later lines or a label suffix (`[subsystem:category]`), which do not lengthen a run.
    private func namesAppPID(_ text: UnsafeRawBufferPointer) -> Bool {
        guard !appPIDs.isEmpty else { return false }
        var value = 0, digits = 0, index = 0
        let count = text.count
        while index < count {
            // Outside a run, eight bytes at a time while none is a digit (most of a kernel line).
            if digits == 0 {
                while index + 8 <= count,
                      ByteClasses.decimalDigits(UInt64(littleEndian: text.loadUnaligned(fromByteOffset: index, as: UInt64.self))) == 0 {
                    index += 8
                }
                if index == count { break }
            }
            let digit = text[index] &- 0x30
            index += 1
            if digit <= 9 {
                value = value &* 10 &+ Int(digit)
                digits += 1
                continue
            }
            if digits > 0, digits <= 9, appPIDs.contains(value) { return true }
            value = 0
            digits = 0
        }
        return digits > 0 && digits <= 9 && appPIDs.contains(value)
    }

    /// Brings the pids up to date with the classifier's directory after an event was classified.
    func follow(_ directory: ProcessDirectory) {
        joinsNames = !directory.pidByName.isEmpty
        guard directory.pidsRemembered != followed else { return }
        if directory.pidsRemembered == followed + 1, let pid = directory.lastRemembered {
            if let forgotten = directory.lastForgotten { appPIDs.remove(forgotten) }
            appPIDs.insert(pid)
        } else {
            // More than one change since last time (not done by the pipeline, which follows every event).
            appPIDs = PIDSet(directory.bundleByPID.keys)
        }
        followed = directory.pidsRemembered
    }
}

/// ``LaunchLineFilter``'s answer for a thread reading the input ahead of the classifier (`RecordPrescan`): the same
/// questions with what depends on the classifier's directory left open. A line of a process with no launch role
/// (`.other`) is refused; one of dasd, runningboardd or SpringBoard is refused when no template of theirs may match it
/// and it names no app; a line of a process with no role at all is refused unless its pid is learnt as an app's
/// (without a pid, when no app template may match it either: then no name joins it to an app); lines of securityd and
/// the kernel may name any of the pids learnt, and are admitted. A filter of its own, since the role cache is not
/// shared across threads: made on the reading thread, then asked by the judging thread alone (hence unchecked).
final class LaunchLineAheadFilter: AheadRecordFilter, @unchecked Sendable {
    private let table: SignatureTable
    private var roles = ProcessRoleCache()

    init(table: SignatureTable) {
        self.table = table
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
        switch role {
        case .other?:
            return .refused
        case .dasd?, .runningboardd?, .springboard?:
            return table.mayMatch(in: firstLine, role: role!) || AppIdentityParser.mayHoldIdentity(in: firstLine) ? .admitted : .refused
        case .securityd?, .kernel?, .app?:
            return .admitted
        case nil:
            if table.mayNameApp(in: firstLine, role: .other) { return .admitted }
            if let pid { return .refusedUnlessLearnt(pid: pid) }
            return table.mayMatch(in: firstLine, role: .app) ? .admitted : .refused
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

/// A set of process ids for questions asked on every line: the pids below 131,072 (all that iOS hands out
/// in practice) as bits, looked up with one load instead of a hash; any other pid in a `Set`.
struct PIDSet {
    private static let bitCount = 1 << 17
    private var words = [UInt64](repeating: 0, count: PIDSet.bitCount / 64)
    private var others: Set<Int> = []
    private(set) var count = 0

    init() {}

    init(_ pids: some Sequence<Int>) {
        for pid in pids { insert(pid) }
    }

    var isEmpty: Bool { count == 0 }

    func contains(_ pid: Int) -> Bool {
        guard pid >= 0, pid < Self.bitCount else { return others.contains(pid) }
        return words.withUnsafeBufferPointer { $0[pid >> 6] & (1 << UInt64(pid & 63)) != 0 }
    }

    mutating func insert(_ pid: Int) {
        guard !contains(pid) else { return }
        count += 1
        guard pid >= 0, pid < Self.bitCount else { others.insert(pid); return }
        words[pid >> 6] |= 1 << UInt64(pid & 63)
    }

    mutating func remove(_ pid: Int) {
        guard contains(pid) else { return }
        count -= 1
        guard pid >= 0, pid < Self.bitCount else { others.remove(pid); return }
        words[pid >> 6] &= ~(1 << UInt64(pid & 63))
    }
}
