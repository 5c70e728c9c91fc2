import ArgumentParser
import Foundation

/// The shell completion scripts (`--generate-completion-script bash|zsh|fish`): ArgumentParser's, with the default
/// subcommand completed where a user types it. ArgumentParser completes a default subcommand's options only after its
/// name, so `prewarm-lint --format <TAB>` offered the subcommands' names and `prewarm-lint logs/<TAB>` nothing; here,
/// when the first word names no subcommand, the words complete as `lint`'s — its options, their values and paths — and
/// the first word also offers the subcommands' names.
enum CompletionScripts {
    /// The shell asked for by `arguments`, when they ask for a completion script (`--generate-completion-script SHELL`
    /// or `=SHELL`); nil otherwise, and for a shell ArgumentParser does not know (it then says so itself).
    static func requestedShell(_ arguments: [String]) -> CompletionShell? {
        let option = "--generate-completion-script"
        for (index, argument) in arguments.enumerated() {
            if argument == option, index + 1 < arguments.count { return CompletionShell(rawValue: arguments[index + 1]) }
            if argument.hasPrefix(option + "=") { return CompletionShell(rawValue: String(argument.dropFirst(option.count + 1))) }
        }
        return nil
    }

    /// The subcommands' names, as the generated scripts list them.
    static var subcommands: [String] {
        PrewarmLintCommand.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// The subcommands `help` explains.
    static var explained: [String] {
        PrewarmLintCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// The completion script for `shell`. Unchanged when ArgumentParser's script no longer has the shape edited here
    /// (the completion tests then fail).
    static func script(for shell: CompletionShell) -> String {
        let script = PrewarmLintCommand.completionScript(for: shell)
        let names = subcommands
        switch shell {
        case .bash:
            let fallback = """
                    *)
                        # Offer subcommand completions
                        COMPREPLY+=($(compgen -W '\(names.joined(separator: " "))' -- "${cur}"))
                        ;;
                """
            let completed = """
                    *)
                        # The default subcommand's completions (lint's options, their values, paths), as if `lint` had
                        # been typed; as the first word, the subcommands' names too.
                        COMPREPLY=()
                        if [[ "${COMP_CWORD}" -eq 1 ]]; then
                            COMPREPLY+=($(compgen -W '\(names.joined(separator: " "))' -- "${cur}"))
                        fi
                        unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                        _prewarm-lint_lint
                        ;;
                """
            // `help <TAB>`: the subcommands it explains.
            let help = "_prewarm-lint_help() {\n    repeating_flags=()\n    non_repeating_flags=(--version)\n    repeating_options=()\n    non_repeating_options=()\n    __prewarm-lint_offer_flags_options -1\n}"
            let helpCompleted = "_prewarm-lint_help() {\n    COMPREPLY=($(compgen -W '\(Self.explained.joined(separator: " "))' -- \"${cur}\"))\n}"
            return script.replacingOccurrences(of: fallback, with: completed).replacingOccurrences(of: help, with: helpCompleted)
        case .zsh:
            let anchor = """
                    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
                    case "${state}" in
                    command)
                """
            let completed = """
                    # The default subcommand (lint): unless the first word names a subcommand, lint's options, their
                    # values and paths, as if `lint` had been typed; as the first word, the subcommands' names too.
                    if [[ "${words[2]}" != (\(names.joined(separator: "|"))) || "${CURRENT}" -eq 2 ]]; then
                        if [[ "${CURRENT}" -eq 2 && "${words[2]}" != -* ]]; then
                            local -ar default_subcommands=(\(names.joined(separator: " ")))
                            _describe -V subcommand default_subcommands && ret=0
                        fi
                        _prewarm-lint_lint && ret=0
                        return "${ret}"
                    fi

                """ + anchor
            return script.replacingOccurrences(of: anchor, with: completed)
                .replacingOccurrences(of: "'*:subcommands:'", with: "'*:subcommands:(\(Self.explained.joined(separator: " ")))'")
        case .fish:
            // lint's own parsing line, repeated for a first word that names no subcommand.
            let lintCase = "        case 'lint'\n"
            guard let caseRange = script.range(of: lintCase),
                  let lineEnd = script[caseRange.upperBound...].firstIndex(of: "\n") else { return script }
            let parsing = script[caseRange.upperBound..<lineEnd].trimmingCharacters(in: .whitespaces)
            let last = """
                        case 'help'
                            __prewarm-lint_parse_subcommand -r 1 'version'
                        end
                """
            let completed = """
                        case 'help'
                            __prewarm-lint_parse_subcommand -r 1 'version'
                        case '*'
                            # The default subcommand: lint's completions, as if `lint` had been typed.
                            set -p unparsed_tokens lint
                            \(parsing)
                        end
                """
            // As the first word, the subcommands' names too.
            let names = subcommands.joined(separator: " ")
            let firstWord = "\ncomplete -c prewarm-lint -n 'test (count (__prewarm-lint_tokens -pc)) -eq 1' -fa '\(names)'\n"
            // `help <TAB>`: the subcommands it explains.
            let help = "complete -c prewarm-lint -n 'test (count (__prewarm-lint_tokens -pc)) -eq 2; and contains help (__prewarm-lint_tokens -pc)' -fa '\(Self.explained.joined(separator: " "))'\n"
            return script.replacingOccurrences(of: last, with: completed) + firstWord + help
        default:
            return script
        }
    }
}
