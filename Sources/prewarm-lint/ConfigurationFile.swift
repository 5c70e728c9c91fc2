import ArgumentParser
import Foundation
import PrewarmLint
import Yams

/// `.prewarm-lint.yml`: found in the working directory or above it (the repository the run is in), or named with
/// `--config`; read with Yams into a ``LintConfiguration``. Never one beside or inside the inputs: an input is what
/// somebody sent (a bug report's bundle), and a configuration there could silence every finding. One found there is
/// named in a warning, with the `--config` that would apply it.
///
/// ```yaml
/// apps: [com.example.ledger]          # only sessions of these apps
/// disabled: [prewarm-wasted]          # rules turned off
/// rules:
///   slow-activation: {warning-ms: 800, error-ms: 3000}
///   launch-work-during-prewarm: {severity: error}
///   blocking-call-before-first-frame: off
/// markers:                            # the app's own lines, taught to the tool
///   - {match: "token missing", meaning: keychain-failure}
///   - {match: "Analytics session started", meaning: app-work}
/// ```
/// An unknown key, rule, option or meaning is an error naming it and its line.
struct ConfigurationFile {
    static let fileName = ".prewarm-lint.yml"
    /// The format version this prewarm-lint reads (`version: 1`; a file without the key is read as version 1).
    static let version = 1

    struct Problem: Error, CustomStringConvertible {
        var path: String
        var line: Int?
        var message: String
        var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): error: \(message)" }
    }

    /// The configuration a command uses: `explicit` (`--config`), else the nearest file in the working directory or
    /// above it unless `disabled` (`--no-config`); a problem is printed and exits 64. The file used is said in a note;
    /// one beside or above an input (`inputs`) that is not the one used is said in a warning.
    static func resolve(explicit: String?, disabled: Bool, inputs: [String], quiet: Bool = false) throws -> LintConfiguration {
        try resolveNamed(explicit: explicit, disabled: disabled, inputs: inputs, quiet: quiet).configuration
    }

    /// ``resolve(explicit:disabled:inputs:)`` and the path of the file used, as the reports name it (nil: defaults).
    /// `quiet` (`--quiet`): the note naming the file used is not printed (every report still names it).
    static func resolveNamed(explicit: String?, disabled: Bool, inputs: [String], quiet: Bool = false) throws -> (configuration: LintConfiguration, path: String?) {
        do {
            let path = explicit ?? (disabled ? nil : find(from: "-"))
            if !disabled {
                var named: Set<String> = []
                let used = path.map(canonical)
                for input in inputs where input != "-" {
                    guard let beside = find(from: input), canonical(beside) != used, named.insert(beside).inserted else { continue }
                    StandardStreams.err("\(FileSystemName.displayed(beside)): warning: not used: settings are read from the working directory or above it "
                        + "(your repository), never from beside the inputs, which may come from anyone; `--config \(FileSystemName.displayed(beside))` applies it")
                }
            }
            guard let path else { return (LintConfiguration(), nil) }
            let configuration = try load(path, rules: RuleRegistry.builtIn.rules.map(\.description))
            if !quiet { StandardStreams.err("\(FileSystemName.displayed(path)): note: configuration used") }
            return (configuration, path)
        } catch let problem as Problem {
            StandardStreams.err(DisplayText.singleLine(problem.description))
            throw ExitCode(64)
        }
    }

    /// A file's path as one file has one: absolute, `.` and `..` and symbolic links resolved.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The nearest `.prewarm-lint.yml` in the directory of `path` or above it.
    static func find(from path: String) -> String? {
        let manager = FileManager.default
        var directory: URL
        if path == "-" {
            directory = URL(fileURLWithPath: manager.currentDirectoryPath)
        } else {
            var isDirectory: ObjCBool = false
            let url = URL(fileURLWithPath: path).standardizedFileURL
            directory = manager.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue ? url : url.deletingLastPathComponent()
        }
        while true {
            let candidate = directory.appendingPathComponent(fileName).path
            if manager.fileExists(atPath: candidate) { return candidate }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }

    /// The largest configuration file read: a team's settings are a few lines.
    static let maximumBytes = 1 << 20

    static func load(_ path: String, rules: [RuleDescription]) throws -> LintConfiguration {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumBytes {
            throw Problem(path: path, line: nil, message: "the configuration file is \(size) bytes; at most \(maximumBytes) are read (it holds a few settings)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(path: path, line: nil, message: "cannot read the configuration file")
        }
        guard data.count <= maximumBytes else {
            throw Problem(path: path, line: nil, message: "the configuration file is over \(maximumBytes) bytes (it holds a few settings)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, line: nil, message: "the configuration file is not UTF-8")
        }
        return try parse(text, path: path, rules: rules)
    }

    static func parse(_ text: String, path: String, rules: [RuleDescription]) throws -> LintConfiguration {
        // Aliases are refused before Yams composes them: expanded by copy, nested aliases grow exponentially in
        // time and memory. The schema needs neither anchors nor aliases.
        if let line = Self.aliasLine(in: text) {
            throw Problem(path: path, line: line, message: "YAML anchors and aliases (&name, *name) are not accepted in a configuration file")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Problem(path: path, line: nil, message: "not valid YAML: \(error)")
        }
        var configuration = LintConfiguration()
        guard let root else { return configuration }
        guard let top = root.mapping else { throw Problem(path: path, line: line(root), message: "expected a mapping of settings at the top") }
        let ruleIDs = rules.map(\.id)
        for (keyNode, value) in top {
            let key = keyNode.string ?? ""
            switch key {
            case "apps":
                configuration.apps = try strings(value, path: path, what: "apps")
            case "disabled":
                for id in try strings(value, path: path, what: "disabled") {
                    guard ruleIDs.contains(id) else { throw unknownRule(id, node: value, path: path, known: ruleIDs) }
                    configuration.rules[id, default: .init()].enabled = false
                }
            case "rules":
                guard let mapping = value.mapping else { throw Problem(path: path, line: line(value), message: "'rules' must map rule ids to settings") }
                for (idNode, settingsNode) in mapping {
                    let id = idNode.string ?? ""
                    guard let rule = rules.first(where: { $0.id == id }) else { throw unknownRule(id, node: idNode, path: path, known: ruleIDs) }
                    configuration.rules[id] = try settings(settingsNode, rule: rule, path: path, existing: configuration.rules[id])
                }
            case "markers":
                guard let sequence = value.sequence else { throw Problem(path: path, line: line(value), message: "'markers' must be a list of {match, meaning}") }
                for item in sequence { configuration.markers.append(try marker(item, path: path)) }
            case "version":
                // The file's format version: 1, the only one; a file of a later version is refused rather than half read.
                guard let version = value.int else {
                    throw Problem(path: path, line: line(value), message: "'version' must be a whole number (this prewarm-lint reads version \(Self.version))")
                }
                guard version == Self.version else {
                    throw Problem(path: path, line: line(value), message: "configuration version \(version) is not one this prewarm-lint reads (it reads version \(Self.version)): upgrade prewarm-lint, or write the file for version \(Self.version)")
                }
            default:
                throw Problem(path: path, line: line(keyNode), message: "unknown key '\(key)'; the keys are version, apps, disabled, rules, markers")
            }
        }
        return configuration
    }

    private static func settings(_ node: Node, rule: RuleDescription, path: String, existing: LintConfiguration.RuleSettings?) throws -> LintConfiguration.RuleSettings {
        var settings = existing ?? LintConfiguration.RuleSettings()
        // `rule: off`, `rule: warning`: a shorthand for enabled/severity.
        if let scalar = node.scalar?.string {
            try apply(scalar, to: &settings, node: node, path: path, rule: rule.id)
            return settings
        }
        guard let mapping = node.mapping else { throw Problem(path: path, line: line(node), message: "settings of '\(rule.id)' must be a mapping or off/info/warning/error") }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "enabled":
                guard let flag = value.bool else { throw Problem(path: path, line: line(value), message: "'enabled' of '\(rule.id)' must be true or false") }
                settings.enabled = flag
            case "severity":
                try apply(value.string ?? "", to: &settings, node: value, path: path, rule: rule.id)
            default:
                guard rule.options.contains(where: { $0.name == key }) else {
                    let options = rule.options.map(\.name)
                    let known = (["enabled", "severity"] + options).joined(separator: ", ")
                    throw Problem(path: path, line: line(keyNode), message: "unknown setting '\(key)' for rule '\(rule.id)'; its settings are \(known)")
                }
                let option = rule.options.first { $0.name == key }!
                guard let number = value.float, number.isFinite, number >= 0, number <= option.maximum else {
                    throw Problem(path: path, line: line(value),
                                  message: "'\(key)' of '\(rule.id)' must be a number from 0 to \(Int(option.maximum)), not '\(value.string ?? "…")'")
                }
                settings.options[key] = number
            }
        }
        return settings
    }

    private static func apply(_ word: String, to settings: inout LintConfiguration.RuleSettings, node: Node, path: String, rule: String) throws {
        if word == "off" || word == "false" {
            settings.enabled = false
        } else if let severity = Severity(rawValue: word) {
            settings.severity = severity
        } else {
            throw Problem(path: path, line: line(node), message: "'\(word)' is not a severity for '\(rule)'; use off, info, warning or error")
        }
    }

    private static func marker(_ node: Node, path: String) throws -> LintConfiguration.Marker {
        guard let mapping = node.mapping else { throw Problem(path: path, line: line(node), message: "a marker must be {match: \"text\", meaning: …}") }
        var match: String?, meaning: EventMeaning?, name: String?, carriesElapsed = false
        for (keyNode, value) in mapping {
            switch keyNode.string ?? "" {
            case "match":
                guard let text = value.string, !text.isEmpty else { throw Problem(path: path, line: line(value), message: "a marker's 'match' must be non-empty text") }
                match = text
            case "meaning":
                let allowed = LintConfiguration.markerMeanings.map(\.rawValue)
                guard let word = value.string, let parsed = EventMeaning(rawValue: word), LintConfiguration.markerMeanings.contains(parsed) else {
                    throw Problem(path: path, line: line(value), message: "unknown marker meaning '\(value.string ?? "")'; one of: \(allowed.joined(separator: ", "))")
                }
                meaning = parsed
            case "name":
                guard let text = value.string, !text.isEmpty else { throw Problem(path: path, line: line(value), message: "a marker's 'name' must be non-empty text") }
                name = text
            case "elapsed":
                guard let flag = value.bool else { throw Problem(path: path, line: line(value), message: "a marker's 'elapsed' must be true or false") }
                carriesElapsed = flag
            default:
                throw Problem(path: path, line: line(keyNode), message: "unknown key '\(keyNode.string ?? "")' in a marker; the keys are match, meaning, name and elapsed")
            }
        }
        guard let match else { throw Problem(path: path, line: line(node), message: "a marker needs 'match'") }
        guard meaning != nil || name != nil else { throw Problem(path: path, line: line(node), message: "a marker needs a 'meaning' for the rules, a 'name' for timelines and stats, or both") }
        return LintConfiguration.Marker(text: match, meaning: meaning ?? .launchMarker, name: name, carriesElapsed: carriesElapsed)
    }

    private static func strings(_ node: Node, path: String, what: String) throws -> [String] {
        if let single = node.scalar?.string { return [single] }
        guard let sequence = node.sequence else { throw Problem(path: path, line: line(node), message: "'\(what)' must be a list") }
        return try sequence.map { item in
            guard let text = item.string else { throw Problem(path: path, line: line(item), message: "'\(what)' must list text values") }
            return text
        }
    }

    private static func unknownRule(_ id: String, node: Node, path: String, known: [String]) -> Problem {
        Problem(path: path, line: line(node), message: "unknown rule '\(id)'; the rules are \(known.joined(separator: ", "))")
    }

    private static func line(_ node: Node) -> Int? { node.mark.map { $0.line } }

    /// The line (1-based) of the first anchor (`&name`) or alias (`*name`) of `text`: a `&` or `*` followed by
    /// a name character where a YAML node may start (after indentation, `- `, `: `, `[`, `{`, `,`, `? `),
    /// outside quotes and comments; nil when there is none. Conservative: a plain scalar starting so would be
    /// read by YAML as an anchor or alias anyway.
    static func aliasLine(in text: String) -> Int? {
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var quote: Character?
            var previous: Character = " "
            var beforePrevious: Character = " "
            var atNodeStart = true
            for character in line {
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if character == "#", previous == " " || previous == "\t" || atNodeStart && previous == " " {
                    break
                } else if (character == "&" || character == "*"), atNodeStart || previous == "[" || previous == "{" || previous == ","
                            || ((previous == " " || previous == "\t") && [":", "-", "?", ",", "[", "{", " ", "\t"].contains(beforePrevious)) {
                    return lineNumber
                }
                if character != " " && character != "\t" { atNodeStart = false }
                beforePrevious = previous
                previous = character
            }
        }
        return nil
    }
}
