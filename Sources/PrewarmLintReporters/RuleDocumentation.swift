public import PrewarmLintRules

/// `docs/rules/<id>.md` and the index `docs/rules/README.md`, generated from the rules'
/// descriptions (`prewarm-lint rules --write-docs docs/rules`); a test fails when the committed
/// files differ from what this renders.
public struct RuleDocumentation: Sendable {
    /// A documentation renderer.
    public init() {}

    /// The page of one rule (`docs/rules/<id>.md`).
    public func page(_ rule: RuleDescription) -> String {
        var out = "<!-- Generated from Sources/PrewarmLintRules by `prewarm-lint rules --write-docs docs/rules`. Do not edit. -->\n"
        out += "# `\(rule.id)`: \(rule.name)\n\n"
        out += help(rule)
        if !rule.messages.isEmpty {
            out += "\n## Messages\n\nEvery message the rule gives (‹what varies›, [optional parts]); a finding's `messageID` says which.\n\n"
            out += "| id | message |\n|---|---|\n"
            for message in rule.messages { out += "| `\(message.id)` | \(message.shape.replacingAll("|", with: "\\|")) |\n" }
        }
        out += "\n## Fires on\n\nEach example is a log, one event per line as `time process[pid]: message` (a tab starts a continuation "
        out += "line); `▶` marks the line the finding points at, `E` an error-level event. The tests render every example as a "
        out += "Console.app copy, as `log show --style ndjson` and as a property list, and check the rule fires exactly there.\n"
        for example in rule.triggeringExamples { out += Self.example(example) }
        out += "\n## Stays silent on\n"
        for example in rule.nonTriggeringExamples { out += Self.example(example) }
        return out
    }

    /// What a finding's reader needs of the rule, without its examples: severity, summary, why, options. The
    /// middle of ``page(_:)``, and SARIF's `help.markdown` (what code scanning shows beside an alert).
    public func help(_ rule: RuleDescription) -> String {
        var out = "Default severity: **\(rule.defaultSeverity.rawValue)**\n\n"
        out += "Decided: **\(rule.decided.rawValue)**"
        out += rule.decided == .atItsLine ? " (once its deciding line has been read, the finding is known but for the session's final words)\n\n"
            : " (the finding needs what follows its line in the session)\n\n"
        out += rule.summary + "\n\n## Why\n\n" + rule.rationale + "\n"
        if !rule.options.isEmpty {
            out += "\n## Options\n\n| option | default | meaning |\n|---|---:|---|\n"
            for option in rule.options {
                out += "| `\(option.name)` | \(Self.number(option.defaultValue)) | \(option.help) |\n"
            }
            out += "\nIn `.prewarm-lint.yml`:\n\n```yaml\nrules:\n  \(rule.id):\n"
            for option in rule.options { out += "    \(option.name): \(Self.number(option.defaultValue))\n" }
            out += "```\n"
        }
        return out
    }

    /// The index of the rules (`docs/rules/README.md`).
    public func index(_ rules: [RuleDescription]) -> String {
        var out = "<!-- Generated from Sources/PrewarmLintRules by `prewarm-lint rules --write-docs docs/rules`. Do not edit. -->\n"
        out += "# Rules\n\n| id | default | fires when |\n|---|---|---|\n"
        for rule in rules { out += "| [`\(rule.id)`](\(rule.id).md) | \(rule.defaultSeverity.rawValue) | \(rule.summary) |\n" }
        return out
    }

    static func example(_ example: RuleExample) -> String {
        "\n### \(example.title)\n\n```text\n\(example.text)\n```\n"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }
}
