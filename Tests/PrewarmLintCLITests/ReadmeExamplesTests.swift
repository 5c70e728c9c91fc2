import Foundation
import Testing

/// The README's examples are what the tool prints: each `$ prewarm-lint …` line of a code block is run from the
/// repository's root (standard error with standard output, as a terminal shows them) and its output compared with the
/// lines under it.
///
/// How an example may shorten what is printed, and nothing else: `…` inside a line stands for any text (a long path, the
/// rest of a message); a line that is only `…` (after its indentation and the timeline's `│`, such as `  …` or
/// `  │   …the session's timeline`) stands for any number of lines. Every other line must be there, in order, and
/// nothing may follow the last one unless an elision line ends the example.
@Suite("README examples")
struct ReadmeExamplesTests {
    struct Example: CustomStringConvertible {
        var command: String
        var expected: [String]
        var line: Int
        var description: String { "README.md:\(line): $ \(command)" }
    }

    /// The examples of a Markdown document: in every fenced block, each line starting `$ prewarm-lint ` and the lines
    /// under it up to the next `$ ` or the block's end.
    static func examples(in markdown: String) -> [Example] {
        var examples: [Example] = []
        var inBlock = false
        var current: Example?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            if text.hasPrefix("```") {
                if let example = current.take() { examples.append(example) }
                inBlock.toggle()
                continue
            }
            guard inBlock else { continue }
            if text.hasPrefix("$ ") {
                if let example = current.take() { examples.append(example) }
                if text.hasPrefix("$ prewarm-lint ") { current = Example(command: String(text.dropFirst(2)), expected: [], line: index + 1) }
            } else {
                current?.expected.append(text)
            }
        }
        return examples
    }

    /// Whether a line stands for any number of lines.
    static func isElision(_ line: String) -> Bool {
        let content = line.drop { $0 == " " || $0 == "│" }
        return content.hasPrefix("…") && !content.hasPrefix("…/")
    }

    /// Whether `actual` is the line `expected` shows (each `…` of it any text; trailing spaces ignored).
    static func matches(_ expected: String, _ actual: String) -> Bool {
        let pattern = expected.trimmingTrailingSpaces.components(separatedBy: "…").map(NSRegularExpression.escapedPattern(for:))
            .joined(separator: ".*")
        guard let regex = try? NSRegularExpression(pattern: "^" + pattern + "$") else { return false }
        let text = actual.trimmingTrailingSpaces
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Nil when `actual` is what `expected` shows; else the first expected line not found, and where it was looked for.
    static func mismatch(expected: [String], actual: [String]) -> String? {
        var next = 0
        var skipping = false
        for line in expected {
            if isElision(line) {
                skipping = true
                continue
            }
            if skipping {
                guard let found = actual[next...].firstIndex(where: { matches(line, $0) }) else {
                    return "not printed after output line \(next + 1): \(line)"
                }
                next = found + 1
            } else {
                guard next < actual.count, matches(line, actual[next]) else {
                    return "output line \(next + 1) is \(next < actual.count ? actual[next] : "(the end)"), expected: \(line)"
                }
                next += 1
            }
            skipping = false
        }
        if !skipping, next < actual.count { return "printed beyond the example, from output line \(next + 1): \(actual[next])" }
        return nil
    }

    static let readme = EventsCommandTests.repositoryRoot.appendingPathComponent("README.md")

    /// The documents whose `$ prewarm-lint …` examples are run: the README, and the docs its examples moved to.
    static let documents = [readme] + ["docs/formats.md", "docs/events-schema.md", "docs/report-schema.md"].map { EventsCommandTests.repositoryRoot.appendingPathComponent($0) }

    @Test("every command the README (and the docs beside it) shows prints what it says it prints")
    func readmeExamples() throws {
        let examples = try Self.documents.flatMap { Self.examples(in: try String(contentsOf: $0, encoding: .utf8)) }
        #expect(examples.count >= 10)
        let binaries = EventsCommandTests.binary.deletingLastPathComponent().path
        for example in examples {
            let run = try EventsCommandTests.run(["-c", "{ \(example.command)\n} 2>&1"], in: EventsCommandTests.repositoryRoot,
                                                 executable: URL(fileURLWithPath: "/bin/sh"),
                                                 environment: ["PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                                                               "NO_COLOR": "1"])
            var actual = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if actual.last == "" { actual.removeLast() }
            let expected = example.expected.reversed().drop { $0.isEmpty }.reversed().map { $0 }
            #expect(Self.mismatch(expected: expected, actual: actual) == nil, "\(example)")
        }
    }

    @Test("the comparison holds a line to its text: a changed word, a missing line or more output is a mismatch")
    func comparisonCanFail() {
        let printed = ["logs/a.log:7: warning: [rule] the app ran", "    line 7  evidence", "1 finding"]
        #expect(Self.mismatch(expected: ["…/a.log:7: warning: [rule] the app ran", "    line 7  evidence", "1 finding"], actual: printed) == nil)
        #expect(Self.mismatch(expected: ["…: warning: [rule] …", "…", "1 finding"], actual: printed) == nil)
        #expect(Self.mismatch(expected: ["…/a.log:7: warning: [rule] the app slept", "…"], actual: printed) != nil)
        #expect(Self.mismatch(expected: ["…/a.log:7: warning: [rule] the app ran", "1 finding"], actual: printed) != nil)
        #expect(Self.mismatch(expected: ["…/a.log:7: warning: [rule] the app ran", "    line 7  evidence"], actual: printed) != nil)
        #expect(Self.mismatch(expected: ["…", "2 findings"], actual: printed) != nil)
        #expect(Self.isElision("  │   …the session's timeline"))
        #expect(!Self.isElision("…/log.txt:7: warning"))
    }

    @Test("examples are found in fenced blocks only, each with the lines under it")
    func examplesAreFound() {
        let markdown = "$ prewarm-lint not in a block\n```\n$ prewarm-lint a.log\none\n\n$ prewarm-lint b.log\ntwo\n```\n"
        let found = Self.examples(in: markdown)
        #expect(found.map(\.command) == ["prewarm-lint a.log", "prewarm-lint b.log"])
        #expect(found.map(\.expected) == [["one", ""], ["two"]])
        #expect(found.map(\.line) == [3, 6])
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
