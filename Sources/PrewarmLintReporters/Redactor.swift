import PrewarmLintSessions
import PrewarmLintRules
import PrewarmLintModel

/// Replaces user data in a report so it can be pasted in public (`--redact`): e-mail addresses,
/// bearer tokens and long secrets, UUIDs (container and item identifiers), and user names in home
/// paths. Bundle ids, process names, pids, times and the daemons' words are kept: the report must
/// still prove what it says.
public struct Redactor: Sendable {
    /// A redactor.
    public init() {}

    /// The report with every finding message, evidence line, diagnostic and path redacted.
    public func redact(_ report: LintReport) -> LintReport {
        var copy = report
        let redactor = self
        copy.findings = report.findings.mapElements { finding in
            var redacted = finding
            redacted.message = redactor.redact(finding.message)
            redacted.evidence = finding.evidence.map { evidence in
                var line = evidence
                line.text = redactor.redact(evidence.text)
                line.origin.input = redactor.redact(evidence.origin.input)
                return line
            }
            return redacted
        }
        for index in copy.diagnostics.indices {
            copy.diagnostics[index].message = redact(copy.diagnostics[index].message)
            copy.diagnostics[index].origin.input = redact(copy.diagnostics[index].origin.input)
        }
        for index in copy.inputs.indices { copy.inputs[index].path = redact(copy.inputs[index].path) }
        copy.sessions = report.sessions.mapElements { session in
            var redacted = session
            redacted.milestones = session.milestones.map { milestone in
                var line = milestone
                line.evidence.input = redactor.redact(milestone.evidence.input)
                return line
            }
            if let decided = session.decidedBy { redacted.decidedBy?.input = redactor.redact(decided.input) }
            redacted.callbacksBeforeActivation = session.callbacksBeforeActivation.map {
                EventOrigin(input: redactor.redact($0.input), line: $0.line, byteOffset: $0.byteOffset)
            }
            redacted.events = []
            return redacted
        }
        return copy
    }

    /// One text, redacted.
    public func redact(_ text: String) -> String {
        var out = text
        out.replace(Self.email, with: "<email>")
        out.replace(Self.bearer) { match in "\(match.output.1)<token>" }
        out.replace(Self.keyedSecret) { match in "\(match.output.1)<token>" }
        out.replace(Self.uuid, with: "<uuid>")
        out.replace(Self.home) { match in "\(match.output.1)<user>" }
        out.replace(Self.longSecret) { match in
            let value = match.output
            let hasDigit = value.contains { $0.isNumber }, hasLetter = value.contains { $0.isLetter }
            return hasDigit && hasLetter ? "<token>" : String(value)
        }
        return out
    }

    nonisolated(unsafe) static let email = #/[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}/#
    nonisolated(unsafe) static let bearer = #/(?i)(bearer\s+)[A-Za-z0-9._~+/=\-]+/#
    nonisolated(unsafe) static let keyedSecret = #/(?i)((?:access_?token|refresh_?token|token|password|passwd|secret|api_?key|session_?id)["']?\s*[=:]\s*["']?)[^\s"',;&}]+/#
    nonisolated(unsafe) static let uuid = #/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/#
    nonisolated(unsafe) static let home = #/(/(?:Users|home)/)[^/\s]+/#
    /// 32+ characters of a base64 or hex alphabet with letters and digits: an API key, a JWT part.
    nonisolated(unsafe) static let longSecret = #/[A-Za-z0-9+/_\-]{32,}={0,2}/#
}
