import PrewarmLintModel
import PrewarmLintRules

/// GitHub Actions workflow commands: each finding becomes an annotation on its log line
/// (`::error file=logs/device.log,line=9,title=keychain-while-locked::…`).
/// Property values escape `%`, CR, LF, `:` and `,`; messages escape `%`, CR and LF, as the runner expects; other
/// control characters are shown as `\xNN`.
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

    static func escapeData(_ text: String) -> String { escape(text, property: false) }

    static func escapeProperty(_ text: String) -> String { escape(text, property: true) }

    /// `%`, CR and LF (and in a property `:` and `,`) as the runner decodes them; every other control character shown as
    /// `\xNN`, an invisible format character as `<U+202E>` (``DisplayText/name(_:)``), so none reaches the log viewer. By scalar: a CR LF is one `Character`, and
    /// compared with "\n" it is not one.
    private static func escape(_ text: String, property: Bool) -> String {
        // Most text needs nothing: no `%`, `:` or `,` (in a property) and no control character.
        if !text.unicodeScalars.contains(where: {
            $0 == "%" || (property && ($0 == ":" || $0 == ",")) || DisplayText.isControl($0.value) || DisplayText.isInvisibleFormat($0.value)
        }) {
            return text
        }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            default:
                if DisplayText.isControl(scalar.value) || DisplayText.isInvisibleFormat(scalar.value) {
                    out += escape(DisplayText.name(String(scalar)), property: property)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

extension String {
    /// Each `target` replaced, by scalar: a `Character` comparison misses a line feed inside a CR LF pair.
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        guard unicodeScalars.contains(target) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if scalar == target { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
