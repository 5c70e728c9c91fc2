public import PrewarmLintModel
public import PrewarmLintClassifier

/// How every report lists sessions and names them — the one ordering and the one id scheme of the CLI, the JSON
/// report and ``LaunchSession``'s library callers.
public enum SessionListing {
    /// Sorts `items` in listing order: by the session's start (its first milestone, else its first line), then by
    /// app; items equal in both keep their order (the order the sessions closed).
    public static func sort<Item>(_ items: inout [Item], by session: (Item) -> LaunchSession) {
        let keyed = items.enumerated().map { (key: Key(session($0.element), order: $0.offset), item: $0.element) }
        items = keyed.sorted { $0.key < $1.key }.map(\.item)
    }

    /// Where a session goes in the listing: its start, then its app, then the order it closed in (what ``sort(_:by:)``
    /// sorts by, and what a run spooled to a temporary file is merged by).
    public struct Key: Comparable, Sendable {
        /// The session's start in microseconds (0 for a session with no time).
        public var start: Int64
        /// The app as it is written (`com.example.ledger[2231]`).
        public var app: String
        /// The order the session closed in.
        public var order: Int

        /// The key of `session`, the `order`-th to close.
        public init(_ session: LaunchSession, order: Int) {
            self.init(start: session.start?.microsecondsSinceEpoch ?? 0, app: session.app.description, order: order)
        }

        /// A key of these parts (as read back from a spooled run).
        public init(start: Int64, app: String, order: Int) {
            self.start = start
            self.app = app
            self.order = order
        }

        /// Start, then app, then order.
        public static func < (lhs: Key, rhs: Key) -> Bool {
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.app != rhs.app { return lhs.app < rhs.app }
            return lhs.order < rhs.order
        }
    }

    /// Session ids: the app (bundle id, else process name), then the session's number for that app in the order
    /// they are named (`com.example.ledger#2`). Reports name sessions in listing order; a stream names them as they
    /// close.
    ///
    /// Each app's count is kept under two 64-bit hashes of its name and its length, not under the name: a million apps'
    /// counts take about 40 MB, where their names took three times that. Two names share a count only if both hashes
    /// and their lengths agree.
    public struct Names: Sendable {
        private struct NameHash: Hashable {
            var first: UInt64 = 0xCBF2_9CE4_8422_2325
            var second: UInt64 = 5381

            init(_ name: inout String) {
                name.withUTF8 { bytes in
                    for byte in bytes {
                        first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                        second = second &* 33 &+ UInt64(byte)
                    }
                    second ^= UInt64(truncatingIfNeeded: bytes.count) << 48
                }
            }
        }

        private var counts: [NameHash: UInt32] = [:]

        /// No session named yet.
        public init() {}

        /// The next session's id.
        public mutating func next(for session: LaunchSession) -> String {
            next(forApp: Self.name(of: session))
        }

        /// The id of the next session of the app named `name` (``name(of:)``).
        public mutating func next(forApp name: String) -> String {
            // The count is raised and read in one lookup, and the id written into a string of its final length, once
            // per session listed.
            func raise(_ count: inout UInt32) -> UInt32 {
                count &+= 1
                return count
            }
            var name = name
            let count = raise(&counts[NameHash(&name), default: 0])
            return name.withUTF8 { nameBytes in
                DecimalText.withDigits(of: Int64(count)) { digits in
                    String(unsafeUninitializedCapacity: nameBytes.count + 1 + digits.count) { buffer in
                        let base = UnsafeMutableRawPointer(buffer.baseAddress!)
                        if let source = nameBytes.baseAddress { base.copyMemory(from: source, byteCount: nameBytes.count) }
                        base.storeBytes(of: UInt8(ascii: "#"), toByteOffset: nameBytes.count, as: UInt8.self)
                        if let source = digits.baseAddress {
                            (base + nameBytes.count + 1).copyMemory(from: source, byteCount: digits.count)
                        }
                        return nameBytes.count + 1 + digits.count
                    }
                }
            }
        }

        /// The id the next session of `session`'s app will get, without naming it: an open session's, when it is the next
        /// of its app to close.
        public func peek(for session: LaunchSession) -> String {
            var name = Self.name(of: session)
            return "\(name)#\((counts[NameHash(&name)] ?? 0) + 1)"
        }

        /// What a session's id is made of: its bundle id, else its process name, else `unknown`.
        public static func name(of session: LaunchSession) -> String {
            session.app.bundleID ?? session.app.processName ?? "unknown"
        }
    }

    /// The ids of `sessions`, named in this order.
    public static func ids(_ sessions: [LaunchSession]) -> [String] {
        var names = Names()
        return sessions.map { names.next(for: $0) }
    }

    /// dyld's launch statistics joined to the listed sessions: for each of `launches` (a block's launch, the app's
    /// line after it; nil where no line names one), the position in `sessions` of the session it is about — of those
    /// that are its launch (``LaunchSession/isLaunch(of:)``), the one that started last —, or nil.
    public static func sessions(ofLaunches launches: [PreMainStatistics.Launch?], in sessions: some Sequence<LaunchSession>) -> [Int?] {
        var found = [(start: Int64, position: Int)?](repeating: nil, count: launches.count)
        let named = launches.indices.filter { launches[$0] != nil }
        guard !named.isEmpty else { return Array(repeating: nil, count: launches.count) }
        for (position, session) in sessions.enumerated() {
            guard let start = session.start?.microsecondsSinceEpoch else { continue }
            for index in named where session.isLaunch(of: launches[index]!) && start >= found[index]?.start ?? .min {
                found[index] = (start, position)
            }
        }
        return found.map { $0?.position }
    }
}

extension AppIdentity {
    /// Whether this app is one of `names` (its bundle id or its process name); every app when `names` is empty —
    /// the `apps` of the configuration and the `--app` of the CLI.
    public func isSelected(by names: Set<String>) -> Bool {
        names.isEmpty || bundleID.map(names.contains) == true || processName.map(names.contains) == true
    }
}
