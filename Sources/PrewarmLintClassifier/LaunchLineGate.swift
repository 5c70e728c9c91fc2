import PrewarmLintModel

/// The read path's one drop rule: whether a record may matter to the classifier, judged from its head — the process's
/// launch role, its pid, the bytes of its message's first line — before an event is built of it.
///
/// `EventClassifier.classifyIfMeaningful` drops, with nothing learnt, a line whose process has no launch role (not
/// dasd, runningboardd, SpringBoard, securityd or the kernel), is not an app it has learnt of by pid, and matches none
/// of the templates that name an app; a line of dasd, runningboardd or SpringBoard that matches none of their
/// templates and names no app; and a line of securityd or the kernel that matches none of their templates and whose
/// client or target (`Ledger Pro[2231]/1#4`, `target Samsara:377`) is not an app's pid — the classifier learns a name
/// from such a line only for an app's pid. The gate answers the same from bytes: the templates' texts
/// (`SignatureTable.mayNameApp(in:role:)`, `mayMatch(in:role:)`), the marks of an app identity
/// (`AppIdentityParser.mayHoldIdentity(in:)`) and what the classifier has learnt (``LearntApps``). It may admit more
/// than the classifier keeps, never less: the tests compare every session, finding and decision with and without it.
///
/// What depends on the classifier's state is answered for what the gate can know (``Knowledge``): the classifier of the
/// input up to the record; nothing yet, on a thread reading ahead (a pid's question is left for when the record is
/// reached, ``Verdict/refusedUnlessLearnt(pid:)``); or inputs merged as one device's logs, classified together after
/// the merge, where another input may teach what makes a line matter.
public struct LaunchLineGate: Sendable {
    /// What the gate knows of the classifier when it judges a record.
    public enum Knowledge: Sendable {
        /// The classifier of this input, up to the record: ``LearntApps`` holds what it has learnt.
        case classifier
        /// Nothing yet: the record is judged ahead of the classifier, and questions of a pid are left open.
        case ahead
        /// Inputs merged as one device's logs and classified after the merge: what another input teaches is unknown.
        case merged
    }

    /// The gate's answer.
    public enum Verdict: Sendable, Equatable {
        /// The record may matter: an event is built of it.
        case admitted
        /// The record cannot matter, whatever the classifier learns.
        case refused
        /// The record cannot matter unless, when it is reached, the classifier holds an app for `pid`.
        case refusedUnlessLearnt(pid: Int)
    }

    /// The templates the classifier knows.
    public let table: SignatureTable

    /// A gate for a classifier of `table`.
    public init(table: SignatureTable) {
        self.table = table
    }

    /// The verdict on a record of a process of launch role `role` (`ProcessRole.known(processName:)`; nil: none),
    /// pid `pid` (when the format prints one), whose message starts with `firstLine` (undecoded; it may hold more than
    /// the message — `log show`'s prefixes before it, pymobiledevice3's labels after it — and a refusal holds whatever
    /// surrounds the message there), knowing `knowledge`, the classifier having learnt `learnt` (read for
    /// ``Knowledge/classifier`` only).
    ///
    /// Inlinable: asked of nearly every record, it is compiled into the caller's loop rather than called across modules
    /// with what the classifier learnt handed over (docs/performance.md).
    @inlinable
    public func verdict(role: ProcessRole?, pid: Int?, firstLine: UnsafeRawBufferPointer, knowing knowledge: Knowledge,
                        learnt: borrowing LearntApps) -> Verdict {
        switch role {
        case .other?:
            return .refused
        case .dasd?, .runningboardd?, .springboard?:
            // Such a line teaches the classifier only through a template it matches or an app it names.
            return table.mayMatch(in: firstLine, role: role!) || AppIdentityParser.mayHoldIdentity(in: firstLine) ? .admitted : .refused
        case .securityd?, .kernel?:
            // They name a pid's process in lines no template needs; the classifier learns that name only for an app's
            // pid, which is then a run of digits of the line. Ahead or merged, the pid's app may be learnt later.
            guard case .classifier = knowledge else { return .admitted }
            return table.mayMatch(in: firstLine, role: role!) || learnt.namesAppPID(firstLine) ? .admitted : .refused
        case .app?:
            // Merged, an app's line is wanted for a template only (another input pairs its name).
            guard case .merged = knowledge else { return .admitted }
            return table.mayMatch(in: firstLine, role: .app) || table.mayNameApp(in: firstLine, role: .other) ? .admitted : .refused
        case nil:
            switch knowledge {
            case .classifier:
                if let pid, learnt.pids.contains(pid) { return .admitted }
                // A line without a pid (a Console copy without the PID column) may be an app's, joined by name:
                // admitted when an app template may match it.
                if pid == nil, learnt.joinsNames, table.mayMatch(in: firstLine, role: .app) { return .admitted }
                return table.mayNameApp(in: firstLine, role: .other) ? .admitted : .refused
            case .ahead:
                if table.mayNameApp(in: firstLine, role: .other) { return .admitted }
                if let pid { return .refusedUnlessLearnt(pid: pid) }
                return table.mayMatch(in: firstLine, role: .app) ? .admitted : .refused
            case .merged:
                // A process another input may name as an app.
                return table.mayMatch(in: firstLine, role: .app) || table.mayNameApp(in: firstLine, role: .other) ? .admitted : .refused
            }
        }
    }
}

/// What the classifier has learnt that the gate asks: the pids it holds an app for (the keys of
/// `ProcessDirectory.bundleByPID`), and whether it pairs any process name with an app's pid. Follows a classifier's
/// directory one change at a time (``follow(_:)``), after every event.
public struct LearntApps: Sendable {
    /// The pids the classifier holds an app for.
    @usableFromInline package private(set) var pids = PIDSet()
    /// Whether the directory pairs a process name with an app's pid: then a line without a pid may be an app's.
    public private(set) var joinsNames = false
    /// `ProcessDirectory.pidsRemembered` when last followed.
    private var followed = 0

    /// Nothing learnt.
    public init() {}

    /// Whether the classifier holds an app for `pid`.
    public func holdsApp(pid: Int) -> Bool { pids.contains(pid) }

    /// Brings what is learnt up to date with the classifier's directory after an event was classified.
    public mutating func follow(_ directory: ProcessDirectory) {
        joinsNames = !directory.pidByName.isEmpty
        guard directory.pidsRemembered != followed else { return }
        if directory.pidsRemembered == followed + 1, let pid = directory.lastRemembered {
            if let forgotten = directory.lastForgotten { pids.remove(forgotten) }
            pids.insert(pid)
        } else {
            // More than one change since last time (not done by the pipeline, which follows every event).
            pids = PIDSet(directory.bundleByPID.keys)
        }
        followed = directory.pidsRemembered
    }

    /// Whether a run of digits of `text` (at most nine: the classifier reads no longer pid) is a pid the classifier
    /// holds an app for. A necessary condition for any longer text too: the readers add only later lines or a label
    /// suffix (`[subsystem:category]`), which do not lengthen a run.
    @usableFromInline func namesAppPID(_ text: UnsafeRawBufferPointer) -> Bool {
        guard !pids.isEmpty else { return false }
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
            if digits > 0, digits <= 9, pids.contains(value) { return true }
            value = 0
            digits = 0
        }
        return digits > 0 && digits <= 9 && pids.contains(value)
    }
}

/// A set of process ids for questions asked on every line: the pids below 131,072 (all that iOS hands out in practice)
/// as bits, looked up with one load instead of a hash; any other pid in a `Set`.
@usableFromInline package struct PIDSet: Sendable {
    private static let bitCount = 1 << 17
    private var words = [UInt64](repeating: 0, count: PIDSet.bitCount / 64)
    private var others: Set<Int> = []
    package private(set) var count = 0

    package init() {}

    package init(_ pids: some Sequence<Int>) {
        for pid in pids { insert(pid) }
    }

    package var isEmpty: Bool { count == 0 }

    @usableFromInline package func contains(_ pid: Int) -> Bool {
        guard pid >= 0, pid < Self.bitCount else { return others.contains(pid) }
        return words.withUnsafeBufferPointer { $0[pid >> 6] & (1 << UInt64(pid & 63)) != 0 }
    }

    package mutating func insert(_ pid: Int) {
        guard !contains(pid) else { return }
        count += 1
        guard pid >= 0, pid < Self.bitCount else { others.insert(pid); return }
        words[pid >> 6] |= 1 << UInt64(pid & 63)
    }

    package mutating func remove(_ pid: Int) {
        guard contains(pid) else { return }
        count -= 1
        guard pid >= 0, pid < Self.bitCount else { others.remove(pid); return }
        words[pid >> 6] &= ~(1 << UInt64(pid & 63))
    }
}
