// Compiled against the public API only: no `@testable` import anywhere in this target, so an
// internal type leaking into what a consumer needs fails to build here (issue 8).
import Foundation
import PrewarmLint
import Testing

/// A caller's own rule, written with the protocol the built-in rules use: a prewarmed session the
/// user activated more than `hours` later.
struct LongPrewarmGap: Rule {
    static let hours = RuleOption(name: "hours", defaultValue: 1, help: "Hours between the prewarm and the activation.")

    let description = RuleDescription(
        id: "long-prewarm-gap", name: "Long prewarm gap", defaultSeverity: .info,
        summary: "The user activated a prewarmed process more than `hours` after the prewarm.",
        rationale: "State captured at prewarm (a token, a feature flag, a cached feed) is that old at the user's launch.",
        options: [Self.hours],
        triggeringExamples: [RuleExample("prewarmed at 06:02, opened at 08:14", ExampleLog.prewarm(at: "06:02:11") + "\n"
            + ExampleLog.suspend(at: "06:02:12") + "\n" + ExampleLog.activateExisting(at: "08:14:02"))],
        nonTriggeringExamples: [])

    func check(_ session: LaunchSession, in context: RuleContext) -> [Finding] {
        guard let gap = session.milliseconds(from: .prewarmRequest, to: .activation),
              Double(gap) > context.option(Self.hours) * 3_600_000,
              let activation = session.evidence(.activation, label: "activation") else { return [] }
        return [context.finding("activated \(SpokenDuration.text(microseconds: gap * 1000)) after the prewarm", evidence: [activation])]
    }
}

/// A caller's own report format.
struct KindCounts: ReportRenderer {
    let formatName = "kinds"
    func render(_ report: LintReport) -> String {
        let kinds = Dictionary(grouping: report.sessions, by: \.kind)
        return LaunchSession.Kind.allCases.compactMap { kind in kinds[kind].map { "\(kind.rawValue) \($0.count)" } }.joined(separator: "\n") + "\n"
    }
}

@Suite("public API")
struct PublicAPITests {
    static let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/scenarios/prewarm-then-launch-scene-app/log.ndjson")

    static func chunks(_ bytes: [UInt8], size: Int) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(bytes.count, offset + size)]))
                offset += size
            }
            continuation.finish()
        }
    }

    @Test("bytes in memory: lint, with a custom rule added to the built-in registry and a custom renderer")
    func bytesWithCustomRuleAndRenderer() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.scene))
        let analyzer = LogAnalyzer(linter: Linter(registry: RuleRegistry.builtIn.adding(LongPrewarmGap())))
        let report = try analyzer.lint(bytes: bytes, named: "pasted.ndjson")
        #expect(report.sessions.map(\.kind) == [.prewarmThenLaunch])
        #expect(report.findings.map(\.ruleID) == ["launch-work-during-prewarm", "state-assumed-at-launch", "keychain-before-activation",
                                                  "keychain-while-locked", "long-prewarm-gap"])
        #expect(report.findings.last?.message == "activated 1 h 31 min after the prewarm")
        #expect(KindCounts().render(report) == "prewarm-then-launch 1\n")
        // Every built-in renderer renders it.
        for renderer in ReportRenderers.builtIn(rules: analyzer.linter.registry.rules.map(\.description)) {
            #expect(renderer.render(report).hasSuffix("\n"), "\(renderer.formatName)")
        }
    }

    @Test("byte chunks as an AsyncSequence: events, sessions and findings stream out, the same as the whole input")
    func asyncStreams() async throws {
        let bytes = try [UInt8](Data(contentsOf: Self.scene))
        let analyzer = LogAnalyzer()
        var events = 0
        for try await output in analyzer.outputs(of: Self.chunks(bytes, size: 7), named: "live") {
            if case .event = output { events += 1 }
        }
        #expect(events == 13)
        var kinds: [LaunchSession.Kind] = []
        for try await session in analyzer.sessions(of: Self.chunks(bytes, size: 64), named: "live") { kinds.append(session.kind) }
        #expect(kinds == [.prewarmThenLaunch])
        var rules: [String] = []
        for try await finding in analyzer.findings(of: Self.chunks(bytes, size: 1000), named: "live") { rules.append(finding.ruleID) }
        #expect(rules == ["launch-work-during-prewarm", "state-assumed-at-launch", "keychain-before-activation", "keychain-while-locked"])
        let report = try await analyzer.lint(Self.chunks(bytes, size: 3), named: "live")
        #expect(report.findings.map(\.sessionID) == Array(repeating: "com.example.ledger#1", count: 4))
    }

    @Test("bytes in memory give the sessions, findings and decisions of the same file linted by path, for every corpus case")
    func bytesAsFiles() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus")
        let analyzer = LogAnalyzer(options: ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024,
                                                                                   utcOffsetSeconds: 0, referenceInstant: 1_710_720_000_000_000)))
        var compared = 0, sessions = 0
        for input in InputDiscovery.expand([corpus.path]).inputs {
            guard case .file(let path) = input.input, let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                  let inMemory = try? analyzer.lint(bytes: bytes, named: path) else { continue }
            let byPath = analyzer.lint(paths: [path])
            #expect(inMemory.sessions == byPath.sessions, "\(path)")
            #expect(inMemory.findings == byPath.findings, "\(path)")
            #expect(inMemory.prewarmDecisions == byPath.prewarmDecisions, "\(path)")
            compared += 1
            sessions += inMemory.sessions.count
        }
        #expect(compared > 60)
        #expect(sessions > 150)
    }

    @Test("not a log: the stream throws the typed reader error with its code")
    func typedErrors() async {
        let analyzer = LogAnalyzer()
        do {
            for try await _ in analyzer.outputs(of: Self.chunks(Array("hello\nworld\n".utf8), size: 4), named: "note.txt") {}
            Issue.record("no error thrown")
        } catch let error as ReaderError {
            #expect(error.code == .unrecognizedFormat)
            #expect(error.input == "note.txt")
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(throws: ReaderError.self) { try analyzer.lint(bytes: [0, 0, 0], named: "zeros") }
    }

    // The limit only catches a stream that never ends: on a 2-core machine the tests that wait for a child process
    // hold both threads of the cooperative pool, and this test's tasks may wait minutes for one.
    @Test("cancelling the consumer stops the producer", .timeLimit(.minutes(5)))
    func cancellation() async throws {
        let bytes = try [UInt8](Data(contentsOf: Self.scene))
        // An endless source: only cancellation ends the stream.
        let endless = AsyncStream<[UInt8]> { continuation in
            let task = Task {
                while !Task.isCancelled {
                    continuation.yield(bytes)
                    try? await Task.sleep(nanoseconds: 1_000_000)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        // The consumer says when it has seen output, then is cancelled; the stream must end.
        let (started, signal) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var seen = 0
            for try await _ in LogAnalyzer().outputs(of: endless, named: "endless") {
                seen += 1
                if seen == 1 { signal.yield() }
            }
            return seen
        }
        for await _ in started { break }
        consumer.cancel()
        let seen = try await consumer.value
        #expect(seen > 0)
    }

    @Test("the registry is a value: filter it, configure severities and markers")
    func registryAndConfiguration() throws {
        let only = RuleRegistry.builtIn.filter { $0.defaultSeverity == .error }
        #expect(only.ids == ["keychain-while-locked", "protected-data-before-unlock", "launch-watchdog"])
        var configuration = LintConfiguration()
        configuration.rules["keychain-while-locked"] = .init(severity: .warning)
        let report = try LogAnalyzer(linter: Linter(registry: only, configuration: configuration))
            .lint(bytes: [UInt8](Data(contentsOf: Self.scene)), named: "x")
        #expect(report.findings.map(\.severity) == [.warning])
    }
}
