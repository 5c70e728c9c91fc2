import PrewarmLintClassifier
import PrewarmLintModel
@testable import PrewarmLintReporters
import PrewarmLintRules
import PrewarmLintSessions
import Testing

/// `--redact` runs each pattern's regular expression only where a scan of the bytes finds what its matches must
/// contain. What it writes must be what running all six on every text writes (`redactEveryPattern`), on texts made to
/// sit at the edges of each scan: near-UUIDs, keys split by other bytes, secrets one byte short, Unicode letters that
/// fold to ASCII ones (`ſ` to `s`, the Kelvin sign to `k`), combining marks.
@Suite("redaction")
struct RedactorTests {
    static let fragments = [
        "@", "a", "Z", "0", "9", "f", "-", "_", "+", "/", "=", ":", " ", "\t", "\"", "'", ".", ",", "}", "<", ">",
        "com", "io", "Bearer ", "bearer  x", "BEARER\t", "beare", "token", "Token=", "TOKEN : ", "access_token:", "refresh_Token = \"",
        "api_key", "apikey=", "API_KEY:", "session_id", "sessionId=", "password: ", "passwd=", "secret'", "to_ken=", "tok en=",
        "/Users/", "/home/", "/users/", "Users/", "ſecret=", "to\u{212A}en:", "é", "e\u{301}", "👍", "\u{00A0}",
        "1234abcd-12ab-34cd-56ef-1234567890ab", "1234ABCD-12AB-34CD-56EF-1234567890A", "ABCDEF01", "-1234-", "-12ab-34cd-",
        "x@y.io", "user.name+tag@mail.example.co.uk", "a@b", "@example.com", "me@", "ledger", "Ledger Pro[2231]",
        "abcdefghijklmnopqrstuvwxyz012345", "abcdefghijklmnopqrstuvwxyz01234", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef", "0123456789",
        "eyJhbGciOiJIUzI1NiJ9", "==", "a\u{301}bcdefghijklmnopqrstuvwxyz0123456",
    ]

    @Test("the scanned redaction writes what every pattern run on every text writes")
    func sameAsEveryPattern() {
        var generator = SystemRandomNumberGenerator()
        let redactor = Redactor()
        var redactedSome = 0
        for _ in 0..<2_500 {
            let text = (0..<Int.random(in: 1...10, using: &generator)).map { _ in Self.fragments.randomElement(using: &generator)! }.joined()
            let expected = redactor.redactEveryPattern(text)
            #expect(redactor.redact(text) == expected, "\(text.debugDescription)")
            if expected != text { redactedSome += 1 }
        }
        #expect(redactedSome > 500, "the texts must give every pattern work: \(redactedSome)")
        for fragment in Self.fragments {
            #expect(redactor.redact(fragment) == redactor.redactEveryPattern(fragment), "\(fragment.debugDescription)")
        }
        // An input's name: every pattern but the long secret's.
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 1...10, using: &generator)).map { _ in Self.fragments.randomElement(using: &generator)! }.joined()
            #expect(redactor.redactInputName(text) == redactor.redactEveryPattern(text, leavingOut: .longSecret), "\(text.debugDescription)")
        }
    }

    @Test("an input's name keeps its file: user names, e-mails and UUIDs go, a long run of a path's characters stays")
    func inputNames() throws {
        let redactor = Redactor()
        // A real excerpt's name, as a user keeps it beside others (the project's real-log excerpt 03), and a
        // sysdiagnose's folder as `sysdiagnose` names it.
        let excerpt = "bug-4411/real-logs/03-salesforce3437-securityd-25308-keychain-locked.log"
        #expect(redactor.redact(excerpt) == "<token>.log", "as a text, the path's run reads as a secret")
        #expect(redactor.redactInputName(excerpt) == excerpt)
        #expect(redactor.redactInputName("/Users/ann/Downloads/sysdiagnose_2024.03.18_07-41-02-0700_iPhone-OS_iPhone_21E236/logs.txt")
                == "/Users/<user>/Downloads/sysdiagnose_2024.03.18_07-41-02-0700_iPhone-OS_iPhone_21E236/logs.txt")
        #expect(redactor.redactInputName("/home/ann/ann@example.com/1234abcd-12ab-34cd-56ef-1234567890ab.log") == "/home/<user>/<email>/<uuid>.log")
        // In a report: every location names the file; a secret in a line is still a token.
        let origin = EventOrigin(input: excerpt, line: 7, byteOffset: 0)
        let time = LogTimestamp(microsecondsSinceEpoch: 1_710_772_862_000_000, utcOffsetSeconds: 0, text: "t")
        var session = LaunchSession(app: AppIdentity(bundleID: "com.salesforce.chatter", pid: 3437), decidedBy: origin)
        session.milestones = [.init(name: .processStart, time: time, evidence: origin)]
        let line = SessionEvent(origin: origin, time: time, process: "securityd", pid: 118, role: .securityd, meaning: .keychainFailure,
                                text: "SecItemCopyMatching token=abcdefghijklmnopqrstuvwxyz0123456789 (-25308)")
        let finding = Finding(ruleID: "keychain-while-locked", severity: .error, message: "m", sessionID: "com.salesforce.chatter#1",
                              sessionKind: .unknown, app: session.app, evidence: [Finding.Evidence(line, label: "keychain")])
        let report = redactor.redact(LintReport(toolVersion: "test", inputs: [LintReport.Input(path: excerpt, format: "log-show", events: 1, diagnostics: 0)],
                                                sessions: [session], findings: [finding], diagnostics: []))
        #expect(report.inputs.map { $0.path } == [excerpt])
        #expect(report.sessions.first?.decidedBy?.input == excerpt && report.sessions.first?.milestones.first?.evidence.input == excerpt)
        let evidence = try #require(report.findings.first?.evidence.first)
        #expect(evidence.origin.input == excerpt)
        #expect(evidence.text == "securityd[118]: SecItemCopyMatching token=<token> (-25308)")
    }

    @Test("a daemon's line runs no regular expression; each pattern's mark makes its own run")
    func scan() {
        typealias Possible = Redactor.PossibleMatches
        #expect(Possible("runningboardd[33]: Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)").isEmpty)
        #expect(Possible("bench-data/parallel-8x250/day-1.log-show").isEmpty)
        #expect(Possible("user=me@example.com") == [.email])
        #expect(Possible("Authorization: Bearer x") == [.bearer])
        #expect(Possible("api_key = x") == [.keyedSecret])
        #expect(Possible("api_key x").isEmpty, "a key with no = or : after it anywhere")
        #expect(Possible("item 1234abcd-12ab-34cd-56ef-1234567890ab") == [.uuid, .longSecret])
        #expect(Possible("item 1234abcd-12ab-34cd-56ef-1234567890a") == [.longSecret], "one hex digit short: no UUID")
        #expect(Possible("at /Users/ann") == [.home])
        #expect(Possible(String(repeating: "a1", count: 16)) == [.longSecret])
        #expect(Possible(String(repeating: "a1", count: 15) + "a").isEmpty)
        #expect(Possible("ſecret: x") == [.bearer, .keyedSecret], "past ASCII, Unicode case folding is the regular expression's")
        // What the CLI's test shows, through the scan.
        #expect(Redactor().redact("user=ann@example.com token=abcd1234 container=/Users/ann/Library/1234abcd-12ab-34cd-56ef-1234567890ab")
                == "user=<email> token=<token> container=/Users/<user>/Library/<uuid>")
    }
}
