import Foundation
import ArgumentParser
import PrewarmLint

struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the input formats prewarm-lint reads, with the identifiers --input-format takes."
    )

    func run() {
        for format in LogFormat.allCases {
            let id = format.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0)
            print("\(id)\(format.displayName)")
        }
    }
}
