import ArgumentParser
import Foundation

/// `--color auto|always|never` (and `--no-color`, the same as `never`), for every command that colours its output.
/// `auto` colours a terminal only, and never when `NO_COLOR` is set (no-color.org); `always` colours a pipe too (for
/// `less -R`), whatever `NO_COLOR` says.
struct ColorOptions: ParsableArguments {
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Option(name: .long, help: ArgumentHelp("Colour: auto (a terminal, unless NO_COLOR is set), always, never.", valueName: "when"))
    var color: Choice = .auto

    @Flag(name: .long, help: "Never use colour (the same as --color never).")
    var noColor = false

    /// Whether to colour standard output.
    var enabled: Bool {
        if noColor { return false }
        switch color {
        case .never: return false
        case .always: return true
        case .auto: return StandardStreams.stdoutIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        }
    }
}

/// `-q`/`--quiet` for the subcommands besides `lint` (which says more under the same flag): no status lines on standard
/// error — the note naming the configuration file used —, as SwiftLint's `--quiet`; what the command prints, its
/// warnings and errors as ever.
struct StatusOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "No status lines on standard error (the note naming the configuration file); results, warnings and errors as ever.")
    var quiet = false
}
