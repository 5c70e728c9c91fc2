import Foundation
import PrewarmLint
import Testing

/// A line of a log found alone, in a paste no reader takes, is still read for what it shows, and for no more.
@Suite("a line read alone")
struct LogFragmentTests {
    static let analyzer = PastedDocumentTests.analyzer

    @Test("the DYLDLaunch attribute line pasted alone (real excerpt 37) is a prewarm request in a fragment: no session, evidence incomplete")
    func attributeLineAlone() throws {
        let bytes = try [UInt8](Data(contentsOf: PastedDocumentTests.corpus.appendingPathComponent("formats/document-message-fragment-alone/log.txt")))
        let report = try Self.analyzer.lint(bytes: bytes, named: "forum.txt")
        #expect(report.inputs.first?.format == "document" && report.inputs.first?.error == nil)
        let reading = try #require(report.fragments.first)
        // The `# shows:` header quotes the attribute in a sentence: prose, no fragment.
        #expect(report.fragments.count == 1)
        #expect(reading.fragment.origin.line == 7)
        #expect(reading.meaning == .prewarmRequest && reading.signatureID == "rb-dasd-dyldlaunch-attribute")
        #expect(reading.fragment.process == nil && reading.fragment.pid == nil && reading.fragment.time == nil)
        #expect(report.sessions.isEmpty)
        let text = FindingTextReporter().render(report)
        #expect(text.contains("forum.txt:7: prewarm-request (rb-dasd-dyldlaunch-attribute): read alone, it joins no session; no process, pid, time in the line: evidence incomplete"))
        #expect(text.contains("1 line read alone (a fragment: evidence incomplete)"))
    }

    @Test("SpringBoard's forced crash report of a launch it gave up on, quoted alone (chaitin/passionfruit#21): a watchdog fragment of WeChat[899]")
    func forcedReportOfALaunchAlone() throws {
        // The body, verbatim: a sentence and the one quoted SpringBoard line (iOS 11).
        let body = """
            The launching took too much time that SpringBoard kills the app

            > Forcing crash report of <FBApplicationProcess: 0x130e8c4b0; WeChat; pid: 899> (reason: 1, description: com.tencent.xin failed to launch after 20.00s (launchIntent: foreground-interactive))
            """
        let report = try Self.analyzer.lint(bytes: Array(body.utf8), named: "issue.md")
        let reading = try #require(report.fragments.first)
        #expect(report.fragments.count == 1)
        #expect(reading.meaning == .watchdog && reading.signatureID == "watchdog-failed-in-time")
        #expect(reading.fragment.process == "WeChat" && reading.fragment.pid == 899 && reading.fragment.origin.line == 3)
        #expect(report.diagnostics.contains { $0.code == .hazardNotReported })
    }

    @Test("a keychain failure behind securityd's column in an issue's prose is hazard evidence said, never a clean pass; the same code quoted in a sentence is not")
    func keychainFailureInProse() throws {
        let body = """
            My users get logged out after an update. The device console showed:

            securityd[115]: SecItemCopyMatching: errSecInteractionNotAllowed (-25308)

            Our crash reporter also shows -25308 from securityd now and then.
            """
        let report = try Self.analyzer.lint(bytes: Array(body.utf8), named: "issue.md")
        let reading = try #require(report.fragments.first)
        #expect(report.fragments.count == 1)
        #expect(reading.meaning == .keychainFailure && reading.fragment.process == "securityd" && reading.fragment.pid == 115)
        #expect(reading.fragment.origin.line == 3)
        let warning = try #require(report.diagnostics.first { $0.code == .hazardNotReported })
        #expect(warning.severity == .warning && warning.message.hasPrefix("1 keychain-failure line in no finding: read alone"))
        #expect(FindingTextReporter().summary(report).hasPrefix("no findings, but hazard lines were read"))
        #expect(FindingTextReporter().render(report).hasPrefix(
            "what happened: A keychain failure was read in a line pasted alone (issue.md:3): no log around it shows which launch it was in"))
        // Prose alone, however close to a log's words, is not read.
        #expect(throws: (any Error).self) {
            try Self.analyzer.lint(bytes: Array("The error is -25308 (errSecInteractionNotAllowed) from securityd.\n".utf8), named: "notes.txt")
        }
    }

    @Test("a line shaped like a log line in a block a reader takes is that log's line, not a fragment; past 32 a block, the rest are counted")
    func onlyWhereNoReaderTakes() throws {
        let log = try [UInt8](Data(contentsOf: PastedDocumentTests.corpus.appendingPathComponent("real-logs/03-salesforce3437-securityd-25308-keychain-locked.log")))
        let report = try Self.analyzer.lint(bytes: PastedDocumentTests.Shape.fenced.paste(log), named: "issue.md")
        #expect(report.fragments.isEmpty && !report.findings.isEmpty)
        // A block of 40 such lines that no reader takes: 32 read alone, 8 counted.
        let lines = (0..<40).map { "securityd[115]: SecItemCopyMatching: errSecInteractionNotAllowed (-25308) \($0)" }.joined(separator: "\n")
        let many = try Self.analyzer.lint(bytes: Array("Seen:\n\n```\n\(lines)\n```\n".utf8), named: "issue.md")
        #expect(many.fragments.count == 32)
        #expect(many.diagnostics.contains { $0.message.contains("8 more lines shaped like log lines were not read alone") })
    }

    @Test("lines read alone that no signature knows take no place of a known one: the keychain failure after 90 of them is kept and said")
    func unknownFragmentsKeepNoPlace() throws {
        // Three blocks of 30 lines behind securityd's column that mean nothing known, then the failure in a block of its own.
        let block = (0..<30).map { "securityd[115]: SecDbConnection: opened connection \($0)" }.joined(separator: "\n")
        let body = (0..<3).map { "Seen \($0):\n\n```\n\(block)\n```\n" }.joined(separator: "\n")
            + "\nThen:\n\n```\nsecurityd[115]: SecItemCopyMatching: errSecInteractionNotAllowed (-25308)\n```\n"
        let report = try Self.analyzer.lint(bytes: Array(body.utf8), named: "issue.md")
        #expect(report.fragments.map(\.meaning) == [.keychainFailure])
        #expect(report.fragmentsNotKept == 0)
        #expect(report.diagnostics.contains { $0.code == .hazardNotReported && $0.severity == .warning && $0.message.contains("read alone") })
    }

    @Test("a hazard line read alone whose rules the user turned off is a note that says so, as a session's line is")
    func fragmentOfARuleTurnedOff() throws {
        let body = "The console showed:\n\nsecurityd[115]: SecItemCopyMatching: errSecInteractionNotAllowed (-25308)\n"
        let off = LintConfiguration(rules: ["keychain-while-locked": .init(enabled: false), "keychain-before-activation": .init(enabled: false)])
        let analyzer = LogAnalyzer(options: Self.analyzer.options, linter: Linter(configuration: off))
        let report = try analyzer.lint(bytes: Array(body.utf8), named: "issue.md")
        #expect(report.fragments.map(\.meaning) == [.keychainFailure])
        let account = try #require(report.diagnostics.first { $0.code == .hazardNotReported })
        #expect(account.severity == .note)
        #expect(account.message.hasPrefix("1 keychain-failure line in no finding: its rule is off (keychain-"))
        // Turned on, the same line is a warning: no rule could check it.
        let on = try Self.analyzer.lint(bytes: Array(body.utf8), named: "issue.md")
        #expect(on.diagnostics.first { $0.code == .hazardNotReported }?.severity == .warning)
    }
}
