import PrewarmLintClassifier
import Testing

/// runningboardd's `termination reported by launchd (%u, %llu, %u)` (RunningBoard.m:2499): the exit reason's namespace,
/// code and `wait4` status, as the classifier keeps them (the termination signature's detail).
@Suite("launchd's exit status")
struct LaunchdExitStatusTests {
    @Test("the real statuses: signals by number and name; another namespace by its numbers only")
    func realStatuses() throws {
        // (2, 6, 6): real excerpt 46; the others: docs/research/message-templates.md.
        let cases: [(String, UInt32, UInt64, UInt32, String)] = [
            ("(2, 6, 6)", 2, 6, 6, "signal 6 (SIGABRT)"),
            ("(2, 9, 9)", 2, 9, 9, "signal 9 (SIGKILL)"),
            ("(2, 10, 10)", 2, 10, 10, "signal 10 (SIGBUS)"),
            ("(2, 15, 15)", 2, 15, 15, "signal 15 (SIGTERM)"),
            ("(2, 31, 31)", 2, 31, 31, "signal 31"),
            ("(15, 3135099228, 9)", 15, 3_135_099_228, 9, "reason namespace 15, code 3135099228"),
        ]
        for (text, namespace, code, status, words) in cases {
            let exit = try #require(LaunchdExitStatus(text), "\(text)")
            #expect(exit.namespace == namespace && exit.code == code && exit.status == status, "\(text)")
            #expect(exit.signal == (namespace == 2 ? code : nil))
            #expect(exit.explanation == words)
        }
    }

    @Test("anything else is not a status: no numbers are made up")
    func notAStatus() {
        for text in ["", "()", "(2, 6)", "(2, 6, 6, 6)", "2, 6, 6", "(2, 6, 6) ", "(a, 6, 6)", "(2, -6, 6)", "(2,, 6)",
                     "(4294967296, 6, 6)", "(2, 6, 4294967296)", "(2, 99999999999999999999999, 6)", "without exit status"] {
            #expect(LaunchdExitStatus(text) == nil, "\(text)")
        }
    }
}
