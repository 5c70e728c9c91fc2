import Foundation

public import PrewarmLintModel

/// An event with what it means for a launch.
public struct ClassifiedEvent: Sendable, Hashable {
    /// The event as read.
    public var event: LogEvent
    /// The role of the process that logged it.
    public var role: ProcessRole
    /// What the line means, when it matches a known template.
    public var meaning: EventMeaning?
    /// The id of the ``MessageSignature`` that matched.
    public var signatureID: String?
    /// The app the line is about: named in a daemon's message, or the logging process itself when it is an app.
    public var subject: AppIdentity?
    /// The value the template carries: a state (`running-suspended-NotVisible`), a visibility
    /// (`Foreground`), an exit status, the callback an app line names.
    public var detail: String?
    /// The name of the team's marker that matched (`MessageSignature/pointName`): the point of the launch
    /// this line is.
    public var pointName: String?

    /// What the matched signature tells the session builder beyond the meaning (``SignatureFacts``).
    public var facts: SignatureFacts = []

    /// A classified event.
    public init(event: LogEvent, role: ProcessRole, meaning: EventMeaning? = nil, signatureID: String? = nil,
                subject: AppIdentity? = nil, detail: String? = nil, pointName: String? = nil, facts: SignatureFacts = []) {
        self.event = event
        self.role = role
        self.meaning = meaning
        self.signatureID = signatureID
        self.subject = subject
        self.detail = detail
        self.pointName = pointName
        self.facts = facts
    }
}

/// Gives every event a process role and, when it matches a known template, a meaning and the app it concerns.
///
/// A small state machine over events in log order: it learns from daemon lines which pids and
/// names are apps (``ProcessDirectory``), so an app's own lines are recognised as the app's once a
/// daemon has named it. Lines an app logs before any daemon names it stay `other`; the session
/// builder joins them by pid later.
///
/// Usage:
/// ```swift
/// var classifier = EventClassifier()
/// let classified = classifier.classify(event)
/// if classified.meaning == .prewarmRequest { … }
/// ```
public struct EventClassifier: Sendable {
    /// The templates it knows.
    public let table: SignatureTable
    /// What the classifier has learnt about which pids are apps.
    public private(set) var directory: ProcessDirectory
    private var roleCache = ProcessRoleCache()
    /// The meaning of the last event given to ``classifyIfMeaningful(_:)``, even when it was not
    /// returned for lack of an app (a redacted identity).
    public private(set) var lastMeaning: EventMeaning?
    /// The id of the signature the last event given to ``classifyIfMeaningful(_:)`` matched, even
    /// when it was not returned (a line naming no app, such as dasd's `Prewarm not yet allowed.`).
    public private(set) var lastSignatureID: String?
    /// The prewarm decision the last event's signature states (dasd's lines), or nil.
    public private(set) var lastDecision: PrewarmDecisionReason?
    /// The role the last event given to ``classifyIfMeaningful(_:)`` has by its process's name alone
    /// (``ProcessRole/known(processName:)``), or nil.
    public private(set) var lastKnownRole: ProcessRole?

    /// `directoryCapacity`: how many pids the classifier remembers as apps (``ProcessDirectory``).
    public init(table: SignatureTable = .builtIn, directoryCapacity: Int = ProcessDirectory.defaultCapacity) {
        self.table = table
        self.directory = ProcessDirectory(capacity: directoryCapacity)
    }

    /// Classifies an event, and returns it only when it means something for a launch (a meaning
    /// and an app it concerns): the fast path for pipelines that drop the rest, which never copies
    /// the events it drops.
    public mutating func classifyIfMeaningful(_ event: LogEvent) -> ClassifiedEvent? {
        // A known daemon that plays no part in launches (locationd, wifid…): nothing to learn or match.
        let known = roleCache.role(of: event.process)
        lastKnownRole = known
        if known == .other {
            lastMeaning = nil
            lastSignatureID = nil
            lastDecision = nil
            return nil
        }
        // A process not known as an app can only matter through a line that names its app.
        var analysis = analyze(event, known: known, namingOnlyForOther: true)
        lastMeaning = analysis.meaning
        lastSignatureID = analysis.signatureID
        lastDecision = analysis.decision
        // A tap that names no app (iOS 26's `SBIconView touches began`) is kept: the launch that follows claims it.
        guard let meaning = analysis.meaning, analysis.hasSubject || meaning == .tap else { return nil }
        // The analysis's strings are moved into the event, not copied (retained here and released with the analysis).
        return ClassifiedEvent(event: event, role: analysis.role, meaning: meaning, signatureID: analysis.signatureID.take(),
                               subject: analysis.subject.take(), detail: analysis.detail.take(), pointName: analysis.pointName.take(),
                               facts: analysis.facts)
    }

    /// Classifies any event: its role always, a meaning and an app when a template matches.
    public mutating func classify(_ event: LogEvent) -> ClassifiedEvent {
        let analysis = analyze(event, known: roleCache.role(of: event.process))
        return ClassifiedEvent(event: event, role: analysis.role, meaning: analysis.meaning, signatureID: analysis.signatureID,
                               subject: analysis.subject, detail: analysis.detail, pointName: analysis.pointName, facts: analysis.facts)
    }

    /// What ``ClassifiedEvent`` says about an event, without the event.
    private struct Analysis {
        var role: ProcessRole
        var meaning: EventMeaning?
        var signatureID: String?
        var subject: AppIdentity?
        var detail: String?
        var pointName: String?
        var facts: SignatureFacts = []
        var decision: PrewarmDecisionReason?

        /// Whether it names an app, asked in place (`subject != nil` from outside copied the identity).
        var hasSubject: Bool {
            if case .some = subject { return true }
            return false
        }
    }

    private mutating func analyze(_ event: LogEvent, known: ProcessRole?, namingOnlyForOther: Bool = false) -> Analysis {
        let role = self.role(of: event, known: known)
        var result = Analysis(role: role)
        // An unknown process may be an app not yet named by a daemon: its own lines are tried too.
        if role != .other || known == nil {
            // A report's event names its app itself: every template is tried, as for an app's line.
            let namingOnly = namingOnlyForOther && role == .other && event.reportedBundleID == nil
            if let (position, detail) = table.matchPosition(event.message, role: role, namingOnly: namingOnly) {
                result.meaning = table.signatures[position].meaning
                result.signatureID = table.signatures[position].id
                result.detail = detail
                result.pointName = table.signatures[position].pointName
                result.facts = table.signatures[position].facts
                result.decision = table.signatures[position].decision
            }
        }
        switch role {
        case .app:
            result.subject = directory.app(pid: event.pid, name: event.process)
        case .dasd, .runningboardd, .springboard:
            if let mention = AppIdentityParser.firstMention(in: event.message) {
                directory.learn(mention.identity)
                // A nested identity names the host of the process the line is about (an extension, a
                // WebKit service): the line is not about the app.
                if !mention.isNested { result.subject = mention.identity }
            }
        case .securityd:
            // `Ledger Pro[2231]/1#4 LF=0 copy_matching …`: the client's name and pid.
            if let client = Self.securityClient(event.message) {
                directory.learn(name: client.name, pid: client.pid)
                result.subject = directory.app(pid: client.pid, name: client.name) ?? AppIdentity(processName: client.name, pid: client.pid)
            }
        case .kernel:
            if let target = Self.kernelTarget(event.message) {
                directory.learn(name: target.name, pid: target.pid)
                result.subject = directory.app(pid: target.pid, name: target.name) ?? AppIdentity(processName: target.name, pid: target.pid)
            }
        case .other:
            // A pid-less line an app's template matches, of a name the log paired with two apps: counted.
            if known == nil, event.pid == nil, directory.ambiguousNames.contains(event.process),
               table.matchPosition(event.message, role: .app) != nil {
                directory.noteLineWithoutPID(name: event.process)
            }
            // A crash report names its process's app itself (`Identifier:`, `bundleInfo`).
            if result.meaning != nil, let bundleID = event.reportedBundleID, AppIdentityParser.isBundleIdentifier(bundleID) {
                let identity = AppIdentity(bundleID: bundleID, processName: event.process, pid: event.pid)
                directory.learn(identity)
                result.subject = identity
            // A client line naming an app (`Received state update for 2231 (app<…>, …`) is about that app.
            } else if result.meaning != nil, let mention = AppIdentityParser.firstMention(in: event.message) {
                directory.learn(mention.identity)
                if !mention.isNested { result.subject = mention.identity }
            } else if known == nil, let meaning = result.meaning, meaning.isHazardEvidence {
                // A hazard in the process's own line (`SecItemCopyMatching … -25308` in a Console copy
                // filtered to the app): the process itself, whether or not a daemon named it.
                result.subject = AppIdentity(processName: event.process, pid: event.pid)
            }
        }
        if role == .app, let pid = event.pid { directory.learn(name: event.process, pid: pid) }
        return result
    }

    private func role(of event: LogEvent, known: ProcessRole?) -> ProcessRole {
        // (`known` is `ProcessRole.known(processName:)`, looked up once per name.)
        if let known { return known }
        if event.subsystem == "com.apple.FrontBoard" && event.process == "SpringBoard" { return .springboard }
        if directory.app(pid: event.pid, name: event.process) != nil { return .app }
        return .other
    }

    /// `Ledger Pro[2231]/1#4 LF=0 copy_matching …` (iOS 11–26) and
    /// `securityd_xpc_dictionary_handler Ledger Pro[2231] copy_matching …` (iOS 9–10, macOS): securityd's
    /// client, by name and pid.
    static func securityClient(_ message: String) -> (name: String, pid: Int)? {
        ByteSearch.withBytes(of: message) { bytes in
            if let handler = ByteSearch.firstOffset(of: Array("securityd_xpc_dictionary_handler ".utf8), in: bytes) {
                let start = handler + 33
                // The name may hold spaces: the client ends at the first `[digits] `.
                var open = start
                while open < bytes.count {
                    if bytes[open] == UInt8(ascii: "[") {
                        var close = open + 1
                        while close < bytes.count, bytes[close] >= 0x30, bytes[close] <= 0x39 { close += 1 }
                        if close < bytes.count, bytes[close] == UInt8(ascii: "]"), open > start, let pid = number(bytes, from: open + 1, to: close) {
                            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<open]), as: UTF8.self), pid)
                        }
                    }
                    open += 1
                }
                return nil
            }
            guard let slash = ByteSearch.firstOffset(of: Array("]/".utf8), in: bytes) else { return nil }
            var open = slash - 1
            while open >= 0, bytes[open] != UInt8(ascii: "[") { open -= 1 }
            guard open > 0, let pid = number(bytes, from: open + 1, to: slash) else { return nil }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<open]), as: UTF8.self), pid)
        }
    }

    /// `memorystatus: set assertion priority(10) target Samsara Internal:377`,
    /// `Sandbox: Ledger Pro(2231) deny(1) …`, `killing_specific_process pid 2231 [Ledger Pro]`:
    /// the kernel's target, by name and pid.
    static func kernelTarget(_ message: String) -> (name: String, pid: Int)? {
        ByteSearch.withBytes(of: message) { bytes in
            if let target = ByteSearch.firstOffset(of: Array(" target ".utf8), in: bytes) {
                let start = target + 8
                var colon = bytes.count - 1
                while colon > start, bytes[colon] != UInt8(ascii: ":") { colon -= 1 }
                if colon > start, let pid = number(bytes, from: colon + 1, to: bytes.count) {
                    return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<colon]), as: UTF8.self), pid)
                }
            }
            if let sandbox = ByteSearch.firstOffset(of: Array("Sandbox: ".utf8), in: bytes) {
                let start = sandbox + 9
                var open = start
                while open < bytes.count, bytes[open] != UInt8(ascii: "(") { open += 1 }
                var close = open
                while close < bytes.count, bytes[close] != UInt8(ascii: ")") { close += 1 }
                if close < bytes.count, let pid = number(bytes, from: open + 1, to: close) {
                    return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<open]), as: UTF8.self), pid)
                }
            }
            // `memorystatus: killing_specific_process pid 2231 [Ledger Pro] (…)`
            if let pidAt = ByteSearch.firstOffset(of: Array(" pid ".utf8), in: bytes) {
                var end = pidAt + 5
                while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
                if end + 1 < bytes.count, bytes[end] == .init(ascii: " "), bytes[end + 1] == UInt8(ascii: "["),
                   let pid = number(bytes, from: pidAt + 5, to: end) {
                    var close = end + 2
                    while close < bytes.count, bytes[close] != UInt8(ascii: "]") { close += 1 }
                    if close < bytes.count {
                        return (String(decoding: UnsafeBufferPointer(rebasing: bytes[(end + 2)..<close]), as: UTF8.self), pid)
                    }
                }
            }
            return nil
        }
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard start < end, end - start <= 9 else { return nil }
        var value = 0
        for index in start..<end {
            guard bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
            value = value * 10 + Int(bytes[index] - 0x30)
        }
        return value
    }
}
