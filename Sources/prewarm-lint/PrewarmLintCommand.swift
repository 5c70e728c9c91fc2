import Foundation
import ArgumentParser
import PrewarmLint

@main
struct PrewarmLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prewarm-lint",
        abstract: "Turn exported iOS device logs into answers: was this launch prewarmed, and what broke because of it?",
        discussion: """
        Reads `log show` (default, compact, syslog, json, ndjson), Console.app copies, idevicesyslog, \
        pymobiledevice3, the Xcode console, unifiedlog_iterator JSONL, property lists and xctrace exports, and \
        the reports around them (crash and jetsam reports, .ips or text, pasted ones too; MetricKit payloads; \
        sysdiagnose archives and .logarchive folders), from files, directories, .gz files or standard input \
        (`-`, or a pipe). The format is sniffed from the content, never from the name (`prewarm-lint formats`).

        `prewarm-lint logs/` lints (the default command); `sessions` shows the launch sessions, `events` \
        the classified events.

        \(ExitStatusText.help(success: "when nothing is found at or above --fail-on", one: "when a finding is (for compare, when a phase regressed)", following: true))
        """,
        version: ToolVersion.described,
        subcommands: [LintCommand.self, SessionsCommand.self, StatsCommand.self, CompareCommand.self, EventsCommand.self, RulesCommand.self,
                      ExplainCommand.self, FormatsCommand.self],
        defaultSubcommand: LintCommand.self
    )

    /// Runs with the arguments decoded without loss: a file name that is not UTF-8 stays openable
    /// (`CommandLine.arguments` would have repaired it to U+FFFD).
    static func main() {
        let arguments = Array(FileSystemName.commandLineArguments().dropFirst())
        if let shell = CompletionScripts.requestedShell(arguments) {
            print(CompletionScripts.script(for: shell))
            return
        }
        main(subcommandFirst(arguments))
    }

    /// The arguments with a subcommand named after options moved to the front (`prewarm-lint -q sessions FILE` is
    /// `prewarm-lint sessions -q FILE`), as SwiftLint takes its global options on either side of the subcommand. A word
    /// that names a file, or that follows `--`, is a path.
    static func subcommandFirst(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-"), first != "--" else { return arguments }
        let names = Set(configuration.subcommands.compactMap { $0.configuration.commandName })
        for (index, word) in arguments.enumerated() {
            if word == "--" { return arguments }
            guard names.contains(word), !FileManager.default.fileExists(atPath: word) else { continue }
            var reordered = arguments
            reordered.remove(at: index)
            return [word] + reordered
        }
        return arguments
    }
}

enum ToolVersion {
    /// The version reports carry (`toolVersion`).
    static let current = "0.1.0"

    /// What `--version` prints: the version and, when the binary sits in the git checkout it was built in
    /// (`swift run`, `.build/…/prewarm-lint`), that checkout's commit — read from `.git` without running git.
    static var described: String {
        guard let commit = SourceCheckout.commit(above: SourceCheckout.executablePath()) else { return current }
        return "\(current) (commit \(commit.hash.prefix(12))\(commit.branch.map { " on \($0)" } ?? ""), the checkout this binary was built in)"
    }
}
