import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// Every rule's examples, rendered as a Console copy, as ndjson and as a plist, and read through the whole
/// pipeline: a triggering example fires exactly on its marked lines (one finding per marked line,
/// pointing at it), a non-triggering one fires nothing — for that rule alone and with every rule on.
@Suite("rule examples")
struct RuleExampleTests {
    static let rules = RuleRegistry.builtIn.rules.map(\.description)
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let cases: [(rule: String, example: Int, triggering: Bool)] = rules.flatMap { rule in
        rule.triggeringExamples.indices.map { (rule.id, $0, true) } + rule.nonTriggeringExamples.indices.map { (rule.id, $0, false) }
    }

    @Test("every rule: a unique kebab-case id, examples both ways (a new rule needs no edit here)")
    func registry() {
        let ids = RuleRegistry.builtIn.ids
        #expect(ids.count >= 10)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(!id.isEmpty && id.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
                     && !id.hasPrefix("-") && !id.hasSuffix("-") && !id.contains("--"), "\(id) is not kebab-case")
        }
        for rule in Self.rules {
            #expect(!rule.triggeringExamples.isEmpty, "\(rule.id) has no triggering example")
            #expect(!rule.nonTriggeringExamples.isEmpty, "\(rule.id) has no non-triggering example")
            for example in rule.triggeringExamples { #expect(!example.markedLines.isEmpty, "\(rule.id): '\(example.title)' marks no line") }
            for example in rule.nonTriggeringExamples { #expect(example.markedLines.isEmpty, "\(rule.id): '\(example.title)' marks a line") }
            // Its messages, declared (issue 17): at least one, ids unique and kebab-case, each with its words.
            let messages = rule.messages.map(\.id)
            #expect(!messages.isEmpty, "\(rule.id) declares no message")
            #expect(Set(messages).count == messages.count, "\(rule.id) declares a message id twice")
            for message in rule.messages {
                #expect(!message.shape.isEmpty && message.id.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }, "\(rule.id): \(message.id)")
            }
        }
    }

    @Test("every finding gives a message its rule declares, and every declared message is given by one of its examples or the corpus")
    func declaredMessages() throws {
        var given: [String: Set<String>] = [:]
        for rule in Self.rules {
            for example in rule.triggeringExamples {
                let report = try RuleExampleRendering.ndjson.lint(example, registry: .builtIn)
                for finding in report.findings { given[finding.ruleID, default: []].insert(finding.messageID ?? "(none)") }
            }
        }
        // A launch timer's start and end markers come from a team's configuration (no built-in line means them).
        let timer = RuleExample("a configured launch timer started during prewarm, stopped after activation",
            ExampleLog.prewarm(at: "06:02:11") + "\n" + ExampleLog.app("06:02:11.400000", "launch timer start") + "\n"
                + ExampleLog.suspend(at: "06:02:12") + "\n" + ExampleLog.activateExisting(at: "08:14:02") + "\n"
                + ExampleLog.app("08:14:02.802000", "launch timer stop", marked: true))
        let markers = LintConfiguration(markers: [.init(text: "launch timer start", meaning: .launchTimerStart),
                                                  .init(text: "launch timer stop", meaning: .launchTimerEnd)])
        for finding in try RuleExampleRendering.ndjson.lint(timer, configuration: markers).findings {
            given[finding.ruleID, default: []].insert(finding.messageID ?? "(none)")
        }
        let corpus = LintRun(options: ReadOptions(), toolVersion: "test", separately: true)
            .run(InputDiscovery.expand([Self.packageRoot.appendingPathComponent("Corpus").path]).inputs)
        for finding in corpus.findings { given[finding.ruleID, default: []].insert(finding.messageID ?? "(none)") }
        for rule in Self.rules {
            let declared = Set(rule.messages.map(\.id))
            let seen = given[rule.id] ?? []
            #expect(seen.isSubset(of: declared), "\(rule.id) gave \(seen.subtracting(declared).sorted()), not declared")
            #expect(declared.isSubset(of: seen), "\(rule.id) declares \(declared.subtracting(seen).sorted()), never given by an example or the corpus")
        }
    }

    /// `example` cut right after its `index`-th marked line (and the further lines of that line's record).
    static func cut(_ example: RuleExample, afterMarked index: Int) -> RuleExample {
        var kept: [Substring] = []
        var marked = -1
        for raw in example.text.split(separator: "\n", omittingEmptySubsequences: true) {
            let startsRecord = !raw.hasPrefix("\t")
            if startsRecord, marked == index { break }
            if startsRecord, raw.hasPrefix("▶ ") { marked += 1 }
            kept.append(raw)
        }
        return RuleExample(example.title, date: example.date, kept.joined(separator: "\n"))
    }

    /// What a live run and a batch run must agree on for a finding: its rule, app, pid and deciding line.
    static func decision(_ finding: Finding) -> String {
        "\(finding.ruleID) \(finding.appName) \(finding.app.pid.map(String.init) ?? "-") \(finding.evidence.first?.time.iso8601 ?? "") \(finding.evidence.first?.text ?? "")"
    }

    @Test("a rule decided at its line finds, in each example cut right after a marked line, what the whole example finds there: the same rule, app, pid and line",
          arguments: RuleRegistry.builtIn.rules.map(\.description).filter { $0.decided == .atItsLine }.map(\.id))
    func decidedAtItsLine(id: String) throws {
        let rule = try #require(Self.rules.first { $0.id == id })
        for example in rule.triggeringExamples {
            let whole = try RuleExampleRendering.consoleCopy.lint(example, registry: .builtIn).findings.filter { $0.ruleID == id }
            for (index, line) in example.markedLines.enumerated() {
                let atLine = whole.filter { $0.evidence.first?.text == RuleExampleRendering.quoted(line) }.map(Self.decision)
                #expect(!atLine.isEmpty, "\(id) '\(example.title)': no finding on marked line \(index)")
                let cut = try RuleExampleRendering.consoleCopy.lint(Self.cut(example, afterMarked: index), registry: .builtIn)
                let found = Set(cut.findings.filter { $0.ruleID == id }.map(Self.decision))
                for decision in atLine {
                    #expect(found.contains(decision), "\(id) '\(example.title)': cut after marked line \(index), no \(decision); found \(found.sorted())")
                }
            }
        }
    }

    @Test("fires exactly on the marked lines, in every rendering", arguments: cases.indices)
    func example(index: Int) throws {
        let (id, number, triggering) = Self.cases[index]
        let rule = try #require(Self.rules.first { $0.id == id })
        let example = triggering ? rule.triggeringExamples[number] : rule.nonTriggeringExamples[number]
        let expected = example.markedLines.map { ($0.time, RuleExampleRendering.quoted($0)) }
        for rendering in RuleExampleRendering.allCases {
            for registry in [RuleRegistry.builtIn.filter { $0.id == id }, .builtIn] {
                let report = try rendering.lint(example, registry: registry)
                // `Icon tapped: <private>` is how iOS prints a tap: reported as redacted evidence, and expected.
                // A hazard line a rule does not look at is counted, not a reading problem (the protected-data
                // example after the activation).
                #expect(report.diagnostics.filter { $0.severity >= .warning && $0.code != .redactedEvidence && $0.code != .hazardNotReported }.isEmpty,
                        "\(id) '\(example.title)' (\(rendering.rawValue)) reads with diagnostics: \(report.diagnostics)")
                let findings = report.findings.filter { $0.ruleID == id }
                let actual = findings.map { finding in
                    (String(finding.evidence.first?.time.iso8601.dropFirst(11).prefix(15) ?? ""), finding.evidence.first?.text ?? "")
                }
                #expect(actual.map(\.0) == expected.map(\.0) && actual.map(\.1) == expected.map(\.1),
                        "\(id) '\(example.title)' (\(rendering.rawValue)): fired on \(actual), expected \(expected)")
                for finding in findings {
                    // slow-activation grades by duration; launch-watchdog warns of a watchdog that killed nothing.
                    #expect(finding.severity == rule.defaultSeverity || id == "slow-activation"
                            || (id == "launch-watchdog" && finding.severity == .warning && finding.message.contains("not killed")))
                    #expect(!finding.message.isEmpty && !finding.message.contains("\n"))
                    #expect(finding.sessionID.hasPrefix(ExampleLog.bundle + "#"))
                }
            }
        }
    }
}

@Suite("rule behaviour")
struct RuleBehaviourTests {
    @Test("slow-activation: thresholds are options, and an error above error-ms")
    func slowActivationThresholds() throws {
        let rule = SlowActivation().description
        let example = rule.triggeringExamples[1]  // 2.7 s from the tap to the app's first frame (no first-screen line)
        let only = RuleRegistry.builtIn.filter { $0.id == rule.id }
        let defaults = try RuleExampleRendering.ndjson.lint(example, registry: only)
        #expect(defaults.findings.map(\.severity) == [.warning])
        #expect(defaults.findings.first?.message == "launch took 2.7 s (tap → first frame; no first-screen line), more than 1000 ms")
        let strict = LintConfiguration(rules: [rule.id: .init(options: ["warning-ms": 500, "error-ms": 2000])])
        let tightened = try RuleExampleRendering.ndjson.lint(example, registry: only, configuration: strict)
        #expect(tightened.findings.map(\.severity) == [.error])
        let relaxed = LintConfiguration(rules: [rule.id: .init(options: ["warning-ms": 3000])])
        #expect(try RuleExampleRendering.ndjson.lint(example, registry: only, configuration: relaxed).findings.isEmpty)
    }

    @Test("configuration turns rules off, overrides severity and limits apps")
    func configuration() throws {
        let example = KeychainWhileLocked().description.triggeringExamples[0]
        let off = LintConfiguration(rules: ["keychain-while-locked": .init(enabled: false)])
        #expect(try RuleExampleRendering.consoleCopy.lint(example, configuration: off).findings.allSatisfy { $0.ruleID != "keychain-while-locked" })
        let softer = LintConfiguration(rules: ["keychain-while-locked": .init(severity: .info)])
        let findings = try RuleExampleRendering.consoleCopy.lint(example, configuration: softer).findings
        #expect(findings.first { $0.ruleID == "keychain-while-locked" }?.severity == .info)
        let otherApp = LintConfiguration(apps: ["com.example.notes"])
        #expect(try RuleExampleRendering.consoleCopy.lint(example, configuration: otherApp).findings.isEmpty)
    }

    @Test("a team's markers teach the classifier its own lines")
    func markers() throws {
        // Without markers, "Token missing, showing login" means nothing; as a keychain-failure marker it fires.
        let example = RuleExample("a marker", """
            \(ExampleLog.prewarm(at: "06:02:11"))
            ▶ 06:02:11.366104 Ledger Pro[2231]: Token missing, showing login
            \(ExampleLog.suspend(at: "06:02:12"))
            """)
        let only = RuleRegistry.builtIn.filter { $0.id == "keychain-while-locked" }
        #expect(try RuleExampleRendering.consoleCopy.lint(example, registry: only).findings.isEmpty)
        let taught = LintConfiguration(markers: [.init(text: "Token missing", meaning: .keychainFailure)])
        let findings = try RuleExampleRendering.consoleCopy.lint(example, registry: only, configuration: taught).findings
        #expect(findings.map(\.evidence.first?.text) == ["Ledger Pro[2231]: Token missing, showing login"])
        // Prewarmed and suspended when the example ends: what became of it is not shown.
        #expect(findings.first?.sessionKind == .prewarmOutcomeUnknown)
    }

    @Test("a finding in a guessed session says what evidence is missing")
    func missingEvidence() throws {
        // No prewarm request in the log: the kind is inferred from the suspended state.
        let example = RuleExample("guess", """
            \(ExampleLog.suspend(at: "06:02:12"))
            ▶ 06:02:12.366104 Ledger Pro[2231]: 10.24.0 - [FirebaseAnalytics][I-ACS023007] Analytics v.10.24.0 started
            \(ExampleLog.activateExisting(at: "08:14:02"))
            """)
        let report = try RuleExampleRendering.consoleCopy.lint(example, registry: RuleRegistry.builtIn.filter { $0.id == "launch-work-during-prewarm" })
        let finding = try #require(report.findings.first)
        #expect(finding.missingEvidence?.contains("guess") == true)
    }

    @Test("baselines match by rule, app and message, not by numbers")
    func baseline() throws {
        let example = PrewarmWasted().description.triggeringExamples[0]
        let findings = try RuleExampleRendering.ndjson.lint(example).findings
        let baseline = Baseline(text: Baseline(findings: findings).text)
        #expect(baseline.filter(findings).kept.isEmpty)
        #expect(baseline.filter(findings).suppressed == findings.count)
        var moved = Array(findings)
        moved[0].message = moved[0].message.replacingOccurrences(of: "2 h 1 min", with: "3 h 5 min")
        #expect(baseline.filter(moved).kept.isEmpty, "durations changed between runs must still match")
        moved[0].ruleID = "other-rule"
        #expect(baseline.filter(moved).kept.count == 1)
    }

    @Test("reported durations are read with their units")
    func reportedDurations() {
        #expect(ReportedDuration.microseconds(in: "App launch took 7326 ms") == 7_326_000)
        #expect(ReportedDuration.microseconds(in: "launch time: 1.5 s") == 1_500_000)
        #expect(ReportedDuration.microseconds(in: "stop 7326 0") == 7_326_000)
        #expect(ReportedDuration.microseconds(in: "v2 launch took 3 min") == 180_000_000)
        #expect(ReportedDuration.microseconds(in: "no number") == nil)
    }

    @Test("application state lines")
    func applicationState() {
        #expect(ApplicationStateText.readsBackground("didFinishLaunchingWithOptions applicationState=2 ActivePrewarm=1"))
        #expect(ApplicationStateText.readsBackground("applicationState: background"))
        #expect(ApplicationStateText.readsBackground("state is UIApplicationStateBackground"))
        #expect(!ApplicationStateText.readsBackground("application(_:didFinishLaunchingWithOptions:) applicationState=1"))
        #expect(!ApplicationStateText.readsBackground("applicationState=0"))
    }
}

@Suite("lines by meaning")
struct LinesByMeaningTests {
    private func line(_ number: Int, _ meaning: EventMeaning) -> SessionEvent {
        SessionEvent(origin: EventOrigin(input: "x.log", line: number, byteOffset: 0),
                     time: LogTimestamp(microsecondsSinceEpoch: Int64(number), utcOffsetSeconds: 0, text: "t\(number)"),
                     process: "Ledger", pid: 1, role: .app, meaning: meaning, text: "line \(number)")
    }

    @Test("a slice's lines of some meanings, in order, and the first of one: the slice's own, wherever it starts")
    func slices() {
        let lines = [line(1, .keychainAccess), line(2, .appWork), line(3, .keychainFailure), line(4, .appWork), line(5, .keychainAccess)]
        let tail = lines[2...]
        #expect(tail.events(withMeaning: .keychainAccess, .keychainFailure).map(\.origin.line) == [3, 5])
        #expect(tail.events(withMeaning: .appWork).map(\.origin.line) == [4])
        #expect(tail.events(withMeaning: .dataProtectionFailure).isEmpty)
        #expect(tail.firstEvent(withMeaning: .appWork)?.origin.line == 4)
        #expect(lines[...].firstEvent(withMeaning: .keychainAccess)?.origin.line == 1)
        #expect(lines[1..<4].firstEvent(withMeaning: .keychainAccess) == nil)
        #expect(lines[0..<0].events(withMeaning: .appWork).isEmpty)
    }
}
