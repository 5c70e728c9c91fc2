import ArgumentParser
import PrewarmLint

@main
struct PrewarmLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prewarm-lint",
        abstract: "Turn exported iOS device logs into answers: was this launch prewarmed, and what broke because of it?",
        discussion: """
        Reads `log show` (default, compact, syslog, json, ndjson), Console.app copies, idevicesyslog, \
        pymobiledevice3, the Xcode console and unifiedlog_iterator JSONL, from files, directories, \
        .gz files or standard input (`-`). The format is sniffed from the content, never from the name.

        `prewarm-lint logs/` lints (the default command); `sessions` shows the launch sessions, `events` \
        the classified events.
        """,
        version: ToolVersion.current,
        subcommands: [LintCommand.self, SessionsCommand.self, StatsCommand.self, CompareCommand.self, EventsCommand.self, RulesCommand.self,
                      ExplainCommand.self, FormatsCommand.self],
        defaultSubcommand: LintCommand.self
    )

    /// Runs with the arguments decoded without loss: a file name that is not UTF-8 stays openable
    /// (`CommandLine.arguments` would have repaired it to U+FFFD).
    static func main() {
        main(Array(FileSystemName.commandLineArguments().dropFirst()))
    }
}

enum ToolVersion {
    static let current = "0.1.0-dev"
}
