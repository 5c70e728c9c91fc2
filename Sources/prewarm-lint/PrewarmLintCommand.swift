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

        Exit status: 0 when nothing is found at or above --fail-on and every input was read; 1 when a finding is \
        (for compare, when a phase regressed); 2 when an input could not be read (the report of the others is \
        still written); 64 on a usage or configuration error; 128 + N when signal N ended the run, after the \
        partial report (130 for Ctrl-C).
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
        main(arguments)
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
