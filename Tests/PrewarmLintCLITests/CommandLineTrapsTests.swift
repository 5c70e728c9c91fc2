import Foundation
import Testing

/// What a new user types that the command line once refused or answered wrongly: help on every subcommand, options
/// before the subcommand, `--quiet` and `--color` wherever output is written, suggestions that are valid commands.
@Suite("the command line's conventions")
struct CommandLineTrapsTests {
    typealias CLI = EventsCommandTests
    static let root = EventsCommandTests.repositoryRoot
    static let scene = LintCommandTests.scene

    @Test("--help and -h on every subcommand print its help, exit 0", arguments: ["lint", "sessions", "stats", "compare", "events", "rules", "explain", "formats"])
    func helpOnEverySubcommand(subcommand: String) throws {
        for flag in ["--help", "-h"] {
            let run = try CLI.run([subcommand, flag], in: Self.root)
            #expect(run.status == 0, "\(subcommand) \(flag): \(run.stderr)")
            #expect(run.stdout.contains("USAGE: prewarm-lint \(subcommand)"), "\(subcommand) \(flag): \(run.stdout.prefix(300))")
        }
    }

    @Test("options before the subcommand are its options: `-q sessions FILE`, `--date D stats FILE`")
    func optionsBeforeTheSubcommand() throws {
        let before = try CLI.run(["-q", "--date", "2024-03-18", "sessions", Self.scene], in: Self.root)
        let after = try CLI.run(["sessions", "-q", "--date", "2024-03-18", Self.scene], in: Self.root)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout == after.stdout)
        #expect(before.stdout.contains("prewarm-then-launch, certain"), "\(before.stdout)")
    }

    @Test("--quiet and --color are taken by every subcommand that writes output", arguments: ["sessions", "stats", "events"])
    func quietAndColorEverywhere(subcommand: String) throws {
        let run = try CLI.run([subcommand, "--quiet", "--color", "never", "--date", "2024-03-18", Self.scene], in: Self.root)
        #expect(run.status == 0 || run.status == 1, "\(subcommand): \(run.stderr)")
        #expect(!run.stderr.contains("Unknown option"), "\(subcommand): \(run.stderr)")
        let compare = try CLI.run(["compare", "-q", "--no-color", "--date", "2024-03-18", Self.scene, "--", Self.scene], in: Self.root)
        #expect(!compare.stderr.contains("Unknown option"), "\(compare.stderr)")
    }

    @Test("--output with a format and no path suggests a command that runs")
    func outputSuggestion() throws {
        let run = try CLI.run(["--output", "json", Self.scene], in: Self.root)
        #expect(run.status == 64)
        #expect(run.stderr.contains("`--output json=report.json`"), "\(run.stderr)")
        let junit = try CLI.run(["--output", "junit", Self.scene], in: Self.root)
        #expect(junit.stderr.contains("`--output junit=report.xml`"), "\(junit.stderr)")
    }

    @Test("--config naming the file beside the input: used, with no warning that it is not")
    func configBesideTheInputGiven() throws {
        let folder = try LintCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent(Self.scene), to: folder.appendingPathComponent("log.txt"))
        try Data("rules: {}\n".utf8).write(to: folder.appendingPathComponent(".prewarm-lint.yml"))
        // Named relatively, from the folder's parent.
        let name = folder.lastPathComponent
        let run = try CLI.run(["--date", "2024-03-18", "--config", "\(name)/./.prewarm-lint.yml", "\(name)/log.txt"], in: folder.deletingLastPathComponent())
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!run.stderr.contains("not used"), "\(run.stderr)")
        #expect(run.stderr.contains("note: configuration used"), "\(run.stderr)")
    }
}
