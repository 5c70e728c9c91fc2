public import Foundation

/// A golden file that records itself once, then fails until reviewed (argument-parser's
/// `assertSnapshot`): with `PREWARM_LINT_RECORD=1` in the environment the actual text is written and
/// the comparison still fails, so a recording run can never pass CI.
public enum GoldenFile {
    /// Compares `actual` with the file at `url`; nil when they match, else what to say. `name`
    /// names the case in messages.
    public static func compare(_ actual: String, with url: URL, name: String) throws -> String? {
        let file = "\(name)/\(url.lastPathComponent)"
        if ProcessInfo.processInfo.environment["PREWARM_LINT_RECORD"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return "recorded a new \(file): review it, then run the tests again without PREWARM_LINT_RECORD"
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            return "\(file) is missing: run the tests with PREWARM_LINT_RECORD=1 to record it"
        }
        if expected == actual { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, (a, b)) in zip(expectedLines, actualLines).enumerated() where a != b {
            return "\(file) differs at line \(index + 1):\n  expected: \(a)\n  actual:   \(b)"
        }
        return "\(file) has \(expectedLines.count) lines, the result has \(actualLines.count)"
    }
}
