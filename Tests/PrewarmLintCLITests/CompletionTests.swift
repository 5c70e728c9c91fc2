import Foundation
import Testing

/// The completion scripts, run in the shells they are for (`.ci/run` installs bash, zsh and fish): what a user gets
/// on a tab.
@Suite("shell completion", .serialized)
struct CompletionTests {
    typealias CLI = EventsCommandTests
    static let harness = CLI.repositoryRoot.appendingPathComponent("Tests/PrewarmLintCLITests/Completion")

    enum Shell: String, CaseIterable, CustomTestStringConvertible {
        case bash, zsh, fish
        var testDescription: String { rawValue }

        /// The shells installed (every one in CI): a missing one's tests are skipped with a line (``InstalledTools``).
        static var installed: [Shell] { allCases.filter { InstalledTools.runs($0.rawValue, package: $0.rawValue) } }
    }

    /// A folder as a user's: a log folder, a configuration file, a file that is neither.
    static func userFolder() throws -> URL {
        let folder = try LintCommandTests.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try Data("rules: {}\n".utf8).write(to: folder.appendingPathComponent("team.yml"))
        try Data("notes\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        return folder
    }

    /// What `shell` offers at the end of `line`, run in `folder`, with the script `prewarm-lint` generates for it
    /// (folders without their trailing `/`).
    static func completions(_ shell: Shell, _ line: String, in folder: URL) throws -> Set<String> {
        let generated = try CLI.run(["--generate-completion-script", shell.rawValue], in: folder)
        try #require(generated.status == 0)
        let script = folder.appendingPathComponent("completion.\(shell.rawValue)")
        try Data(generated.stdout.utf8).write(to: script)
        let arguments: [String]
        switch shell {
        case .bash:
            var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.last == nil { words.append("") }
            arguments = ["bash", Self.harness.appendingPathComponent("complete.bash").path, script.path] + words
        case .zsh:
            arguments = ["zsh", Self.harness.appendingPathComponent("complete.zsh").path, script.path, line]
        case .fish:
            arguments = ["fish", "-c", "source \(script.path); complete -C '\(line)'"]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shell.rawValue) is installed by .ci/run")
        // fish prints a description after a tab.
        return Set(printed.split(separator: "\n").map { line in
            var completion = String(line.split(separator: "\t", maxSplits: 1).first ?? "")
            if completion.hasSuffix("/") { completion.removeLast() }
            return completion
        })
    }

    @Test("without a subcommand's name, the words complete as lint's: its options' values, files for --config, paths; the first word offers the subcommands too",
          arguments: Shell.installed)
    func defaultSubcommand(_ shell: Shell) throws {
        let folder = try Self.userFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.completions(shell, "prewarm-lint --format ", in: folder)
                == ["text", "json", "ndjson", "sarif", "markdown", "html", "github", "junit", "fleet", "otlp"])
        let configs = try Self.completions(shell, "prewarm-lint --config ", in: folder)
        #expect(configs.contains("team.yml") && !configs.contains("notes.txt"))
        #expect(try Self.completions(shell, "prewarm-lint lo", in: folder).contains("logs"))
        #expect(try Self.completions(shell, "prewarm-lint --format json lo", in: folder).contains("logs"))
        #expect(try Self.completions(shell, "prewarm-lint --rule keychain-w", in: folder) == ["keychain-while-locked"])
        #expect(try Self.completions(shell, "prewarm-lint se", in: folder).contains("sessions"))
        // After a subcommand's name, its own.
        #expect(try Self.completions(shell, "prewarm-lint sessions --format ", in: folder) == ["text", "json"])
        #expect(try Self.completions(shell, "prewarm-lint lint --baseline no", in: folder) == ["notes.txt"])
    }

    @Test("every subcommand's values and paths complete: --output's formats, events' meanings, compare's paths, help's subcommands", arguments: Shell.installed)
    func valuesAndPaths(_ shell: Shell) throws {
        let folder = try Self.userFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.completions(shell, "prewarm-lint --output js", in: folder) == ["json="])
        #expect(try Self.completions(shell, "prewarm-lint events --meaning keychain-f", in: folder) == ["keychain-failure"])
        #expect(try Self.completions(shell, "prewarm-lint compare lo", in: folder).contains("logs"))
        #expect(try Self.completions(shell, "prewarm-lint help se", in: folder) == ["sessions"])
    }
}
