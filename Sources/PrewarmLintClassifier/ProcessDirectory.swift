/// What the log has taught so far about which processes are apps: their pids, names and bundle ids.
///
/// Daemon lines name apps by identity and pid (`[app<com.example.ledger(501)>:2231]`); securityd
/// (`Ledger Pro[2231]/1#4 LF=0 …`, iOS 9–10 `securityd_xpc_dictionary_handler Ledger Pro[2231] …`) and
/// the kernel (`target Samsara Internal:377`, `Sandbox: Ledger Pro(2231) deny`) pair a process name
/// with that pid. Together they say that process `Ledger Pro` with pid 2231 is the app
/// `com.example.ledger`, so its own lines can be classified as the app's — also the lines of a format
/// without a pid column (a Console copy without it), joined by name when the log makes that
/// unambiguous: the name was last paired with one app's pid, and never with two different apps.
///
/// Bounded: at most ``capacity`` pids are remembered (the oldest are forgotten first), and a name only
/// while its pid is.
public struct ProcessDirectory: Sendable {
    /// The default of ``capacity``.
    public static let defaultCapacity = 100_000
    /// How many pids are remembered at most.
    public let capacity: Int

    /// Bundle id by pid, from daemon identities.
    public private(set) var bundleByPID: [Int: String] = [:]
    /// Process name by pid, from securityd, kernel and the processes' own lines.
    public private(set) var nameByPID: [Int: String] = [:]
    /// The pid a process name was last paired with, for the lines that carry a name and no pid.
    public private(set) var pidByName: [String: Int] = [:]
    /// Names paired with the pids of two different apps: lines carrying such a name and no pid are
    /// not joined to either (``ambiguousNameLines`` counts them).
    public private(set) var ambiguousNames: Set<String> = []
    /// Lines without a pid that an app's template matches, whose process name was ambiguous when they came.
    public private(set) var ambiguousNameLines = 0
    /// The remembered pids in the order learnt, as a ring: `order[next]` is the oldest once full.
    private var order: [Int] = []
    private var next = 0
    /// Pids forgotten to stay within ``capacity``.
    public private(set) var forgotten = 0
    /// How many times a pid was remembered so far; with ``lastRemembered`` and ``lastForgotten``, what
    /// lets a copy of the keys of ``bundleByPID`` follow it one change at a time.
    public private(set) var pidsRemembered = 0
    /// The pid remembered last.
    public private(set) var lastRemembered: Int?
    /// The pid forgotten to make room for ``lastRemembered``, if one was.
    public private(set) var lastForgotten: Int?

    /// An empty directory remembering at most `capacity` pids.
    public init(capacity: Int = ProcessDirectory.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// The app a process is, when the log has said so. A line without a pid is joined by its process
    /// name when that name is unambiguous (see the type's comment).
    public func app(pid: Int?, name: String) -> AppIdentity? {
        guard let pid = pid ?? joinablePID(name: name), let bundle = bundleByPID[pid] else { return nil }
        if let known = nameByPID[pid], !name.isEmpty, known != name { return nil }  // pid reused by another process
        return AppIdentity(bundleID: bundle, processName: nameByPID[pid] ?? (name.isEmpty ? nil : name), pid: pid)
    }

    /// The pid a line that carries only `name` belongs to: the app pid the name was last paired with,
    /// unless the name was paired with two apps.
    public func joinablePID(name: String) -> Int? {
        guard !name.isEmpty, let pid = pidByName[name], !ambiguousNames.contains(name), bundleByPID[pid] != nil else { return nil }
        return pid
    }

    /// Counts a pid-less line of `name` that could not be joined because the name is ambiguous.
    mutating func noteLineWithoutPID(name: String) {
        if ambiguousNames.contains(name) { ambiguousNameLines += 1 }
    }

    mutating func learn(_ identity: AppIdentity) {
        guard let pid = identity.pid, pid > 0, let bundle = identity.bundleID else { return }
        let previous = bundleByPID[pid]
        guard previous != bundle else { return }
        if previous == nil { remember(pid) }
        bundleByPID[pid] = bundle
        // A new app on this pid: the old name no longer holds.
        if let name = nameByPID.removeValue(forKey: pid), pidByName[name] == pid { pidByName[name] = nil }
    }

    /// `name` is the process at `pid`: remembered only for an app's pid (a name paired with another pid
    /// teaches nothing the classifier uses, and the gate refuses such lines).
    mutating func learn(name: String, pid: Int) {
        guard pid > 0, !name.isEmpty, let bundle = bundleByPID[pid] else { return }
        if let known = nameByPID[pid] {
            guard known != name else { return }
            if pidByName[known] == pid { pidByName[known] = nil }
        }
        nameByPID[pid] = name
        pair(name, with: pid, bundle: bundle)
    }

    /// `name` is the process of the app `bundle` at `pid`.
    private mutating func pair(_ name: String, with pid: Int, bundle: String) {
        if let other = pidByName[name], other != pid, let otherBundle = bundleByPID[other], otherBundle != bundle {
            ambiguousNames.insert(name)
        }
        pidByName[name] = pid
    }

    private mutating func remember(_ pid: Int) {
        // A ring, not `removeFirst()`: with a million distinct pids, shifting a full array per pid
        // would take hours (found by the adversarial tests).
        pidsRemembered += 1
        lastRemembered = pid
        lastForgotten = nil
        if order.count < capacity {
            order.append(pid)
            return
        }
        let oldest = order[next]
        lastForgotten = oldest
        bundleByPID[oldest] = nil
        if let name = nameByPID.removeValue(forKey: oldest), pidByName[name] == oldest {
            pidByName[name] = nil
            ambiguousNames.remove(name)
        }
        forgotten += 1
        order[next] = pid
        next = (next + 1) % capacity
    }
}
