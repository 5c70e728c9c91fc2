/// What the log has taught so far about which processes are apps: their pids, names and bundle ids.
///
/// Daemon lines name apps by identity and pid (`[app<com.example.ledger(501)>:2231]`); securityd
/// (`Ledger Pro[2231]/1#4 LF=0 …`) and the kernel (`target Samsara Internal:377`, `Sandbox: Ledger
/// Pro(2231) deny`) pair a process name with that pid. Together they say that process `Ledger Pro`
/// with pid 2231 is the app `com.example.ledger`, so its own lines can be classified as the app's.
///
/// Bounded: at most ``capacity`` pids are remembered (the oldest are forgotten first).
public struct ProcessDirectory: Sendable {
    /// The default of ``capacity``.
    public static let defaultCapacity = 100_000
    /// How many pids are remembered at most.
    public let capacity: Int

    /// Bundle id by pid, from daemon identities.
    public private(set) var bundleByPID: [Int: String] = [:]
    /// Process name by pid, from securityd, kernel and the processes' own lines.
    public private(set) var nameByPID: [Int: String] = [:]
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

    /// The app a process is, when the log has said so.
    public func app(pid: Int?, name: String) -> AppIdentity? {
        guard let pid, let bundle = bundleByPID[pid] else { return nil }
        if let known = nameByPID[pid], !name.isEmpty, known != name { return nil }  // pid reused by another process
        return AppIdentity(bundleID: bundle, processName: nameByPID[pid] ?? (name.isEmpty ? nil : name), pid: pid)
    }

    mutating func learn(_ identity: AppIdentity) {
        guard let pid = identity.pid, pid > 0, let bundle = identity.bundleID else { return }
        if bundleByPID[pid] != bundle {
            if bundleByPID[pid] == nil { remember(pid) }
            bundleByPID[pid] = bundle
            nameByPID[pid] = nil  // a new app on this pid: the old name no longer holds
        }
    }

    mutating func learn(name: String, pid: Int) {
        guard pid > 0, !name.isEmpty, bundleByPID[pid] != nil else { return }
        nameByPID[pid] = name
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
        nameByPID[oldest] = nil
        forgotten += 1
        order[next] = pid
        next = (next + 1) % capacity
    }
}
