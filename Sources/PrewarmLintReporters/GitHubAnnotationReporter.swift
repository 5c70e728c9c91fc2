import PrewarmLintModel
import PrewarmLintRules

/// GitHub Actions workflow commands: each finding becomes an annotation on its log line
/// (`::error file=logs/device.log,line=9,title=keychain-while-locked::…`).
/// Property values escape `%`, CR, LF, `:` and `,`; messages escape `%`, CR and LF, as the runner expects.
public struct GitHubAnnotationReporter: Sendable {
    /// A reporter; it has no settings.
    public init() {}

    /// The report in this format.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The annotations, handed to `output` in pieces of about 64 KiB: a report of many findings is never whole in
    /// memory.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        var out = ""
        // What kept the run from being whole comes first: inputs that could not be read, an interruption.
        for input in report.inputs {
            guard let error = input.error else { continue }
            out += "::error file=\(Self.escapeProperty(input.path)),title=\(Self.escapeProperty("prewarm-lint: unreadable input"))::\(Self.escapeData(error))\n"
        }
        if report.partial {
            out += "::error title=\(Self.escapeProperty("prewarm-lint: interrupted"))::\(Self.escapeData("the results cover what was read until then"))\n"
        }
        for finding in report.findings {
            let command = switch finding.severity {
            case .error: "error"
            case .warning: "warning"
            case .info: "notice"
            }
            var properties: [String] = []
            if let location = finding.location {
                properties.append("file=\(Self.escapeProperty(location.input))")
                properties.append("line=\(location.line)")
            }
            properties.append("title=\(Self.escapeProperty("\(finding.ruleID) (\(finding.sessionID))"))")
            out += "::\(command) \(properties.joined(separator: ","))::\(Self.escapeData(finding.message))\n"
            if out.utf8.count >= 1 << 16 {
                output(out)
                out = ""
            }
        }
        if !out.isEmpty { output(out) }
    }

    static func escapeData(_ text: String) -> String {
        text.replacingAll("%", with: "%25").replacingAll("\r", with: "%0D").replacingAll("\n", with: "%0A")
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingAll(":", with: "%3A").replacingAll(",", with: "%2C")
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}
