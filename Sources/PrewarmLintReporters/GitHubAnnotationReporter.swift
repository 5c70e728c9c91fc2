import PrewarmLintModel
import PrewarmLintRules

/// GitHub Actions workflow commands: each finding becomes an annotation on its log line
/// (`::error file=logs/device.log,line=9,title=keychain-while-locked::…`).
/// Property values escape `%`, CR, LF, `:` and `,`; messages escape `%`, CR and LF, as the runner expects; other
/// control characters are shown as `\xNN`.
///
/// GitHub shows ``shownPerLevel`` annotations of each level (error, warning, notice) per step and drops the rest
/// unsaid: past that, the last one of a level shown says how many of the level are not shown, and a plain line at the
/// end (always in the step's log) says it again.
public struct GitHubAnnotationReporter: Sendable {
    /// The annotations of one level GitHub shows per step.
    public static let shownPerLevel = 10

    /// A reporter; it has no settings.
    public init() {}

    /// The report in this format.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The annotations, handed to `output` in pieces of about 64 KiB: a report of many findings is never whole in
    /// memory.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        var out = ""
        // How many annotations of each level the run has, to say past GitHub's limit how many are not shown.
        var total: [String: Int] = [:]
        total["error", default: 0] += report.inputs.filter { $0.error != nil }.count + (report.partial ? 1 : 0)
        for finding in report.findings { total[Self.command(finding.severity), default: 0] += 1 }
        var written: [String: Int] = [:]
        var notShown: [(command: String, count: Int)] = []
        /// Whether an annotation of `command` is shown; the last one shown of a level past the limit says the rest.
        func shown(_ command: String) -> Bool {
            let count = written[command, default: 0]
            written[command] = count + 1
            guard let all = total[command], all > Self.shownPerLevel else { return true }
            if count < Self.shownPerLevel - 1 { return true }
            if count == Self.shownPerLevel - 1 {
                let rest = all - (Self.shownPerLevel - 1)
                notShown.append((command, rest))
                out += "::\(command) title=\(Self.escapeProperty("prewarm-lint: \(rest) more not shown"))::\(Self.escapeData("\(rest) more \(command) annotations of this run are not shown: GitHub shows \(Self.shownPerLevel) of each level per step (the step's log and --format text list every one)"))\n"
            }
            return false
        }
        // What kept the run from being whole comes first: inputs that could not be read, an interruption.
        for input in report.inputs {
            guard let error = input.error, shown("error") else { continue }
            out += "::error file=\(Self.escapeProperty(input.path)),title=\(Self.escapeProperty("prewarm-lint: unreadable input"))::\(Self.escapeData(error))\n"
        }
        if report.partial, shown("error") {
            out += "::error title=\(Self.escapeProperty("prewarm-lint: interrupted"))::\(Self.escapeData("the results cover what was read until then"))\n"
        }
        for finding in report.findings {
            let command = Self.command(finding.severity)
            guard shown(command) else {
                // Past the limit, each finding is still a line of the step's log.
                out += "\(command): \(Self.escapeData(finding.location.map { "\($0.input):\($0.line): " } ?? ""))[\(finding.ruleID)] \(Self.escapeData(finding.message))\n"
                if out.utf8.count >= 1 << 16 {
                    output(out)
                    out = ""
                }
                continue
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
        if !notShown.isEmpty {
            out += "prewarm-lint: not shown as annotations (GitHub shows \(Self.shownPerLevel) of each level per step): "
                + notShown.map { "\($0.count) \($0.command)" }.joined(separator: ", ") + "; each is a line above\n"
        }
        if !out.isEmpty { output(out) }
    }

    private static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
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
