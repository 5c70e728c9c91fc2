import Foundation

public import PrewarmLintModel

/// An event with what it means for a launch.
public struct ClassifiedEvent: Sendable, Hashable {
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

    public init(event: LogEvent, role: ProcessRole, meaning: EventMeaning? = nil, signatureID: String? = nil,
                subject: AppIdentity? = nil, detail: String? = nil) {
        self.event = event
        self.role = role
        self.meaning = meaning
        self.signatureID = signatureID
        self.subject = subject
        self.detail = detail
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
    public let table: SignatureTable
    public private(set) var directory = ProcessDirectory()

    public init(table: SignatureTable = .builtIn) {
        self.table = table
    }

    public mutating func classify(_ event: LogEvent) -> ClassifiedEvent {
        let role = self.role(of: event)
        var result = ClassifiedEvent(event: event, role: role)
        if role != .other || mayBeApp(event) {
            if let (signature, detail) = table.match(event.message, role: role == .other ? .other : role) {
                result.meaning = signature.meaning
                result.signatureID = signature.id
                result.detail = detail
            }
        }
        switch role {
        case .app:
            result.subject = directory.app(pid: event.pid, name: event.process)
        case .dasd, .runningboardd, .springboard:
            if let identity = AppIdentityParser.firstIdentity(in: event.message) {
                directory.learn(identity)
                result.subject = identity
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
            // A client line naming an app (`Received state update for 2231 (app<…>, …`) is about that app.
            if result.meaning != nil, let identity = AppIdentityParser.firstIdentity(in: event.message) {
                directory.learn(identity)
                result.subject = identity
            }
        }
        if role == .app, let pid = event.pid { directory.learn(name: event.process, pid: pid) }
        return result
    }

    private func role(of event: LogEvent) -> ProcessRole {
        if let known = ProcessRole.known(processName: event.process) { return known }
        if event.subsystem == "com.apple.FrontBoard" && event.process == "SpringBoard" { return .springboard }
        if directory.app(pid: event.pid, name: event.process) != nil { return .app }
        return .other
    }

    /// An unknown process whose line looks like an app's own (lifecycle, keychain, data protection).
    private func mayBeApp(_ event: LogEvent) -> Bool {
        ProcessRole.known(processName: event.process) == nil
    }

    static func securityClient(_ message: String) -> (name: String, pid: Int)? {
        guard let slash = message.range(of: "]/"), let open = message[..<slash.lowerBound].lastIndex(of: "[") else { return nil }
        guard let pid = Int(message[message.index(after: open)..<slash.lowerBound]) else { return nil }
        let name = String(message[..<open])
        return name.isEmpty ? nil : (name, pid)
    }

    /// `memorystatus: set assertion priority(10) target Samsara Internal:377`,
    /// `Sandbox: Ledger Pro(2231) deny(1) …`, `killing_specific_process pid 2231 [Ledger Pro]`.
    static func kernelTarget(_ message: String) -> (name: String, pid: Int)? {
        if let range = message.range(of: " target "), let colon = message[range.upperBound...].lastIndex(of: ":"),
           let pid = Int(message[message.index(after: colon)...]) {
            return (String(message[range.upperBound..<colon]), pid)
        }
        if let range = message.range(of: "Sandbox: "), let open = message[range.upperBound...].firstIndex(of: "("),
           let close = message[open...].firstIndex(of: ")"), let pid = Int(message[message.index(after: open)..<close]) {
            return (String(message[range.upperBound..<open]), pid)
        }
        if let range = message.range(of: " pid "), let open = message[range.upperBound...].firstIndex(of: "["),
           let close = message[open...].firstIndex(of: "]"),
           let pid = Int(message[range.upperBound..<open].trimmingCharacters(in: .whitespaces)) {
            return (String(message[message.index(after: open)..<close]), pid)
        }
        return nil
    }
}
