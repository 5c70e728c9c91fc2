import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// Every hazard line `events` classifies (keychain-failure, data-protection-failure, watchdog) reaches the
/// lint report: in a session a finding reports it in, or counted in a named exclusion (a warning
/// diagnostic: `unattributed-evidence`, `hazard-not-reported`, `redacted-evidence`). Never a clean pass
/// while such a line was read.
@Suite("hazard accounting")
struct HazardAccountingTests {
    static let inputs: [String] = {
        // The whole corpus, its real excerpts (Corpus/real-logs) included.
        InputDiscovery.expand([repositoryRoot.appendingPathComponent("Corpus").path]).inputs.compactMap { input in
            if case .file(let path) = input.input, !path.hasSuffix(".json") || path.hasSuffix("log.json") { return path }
            return nil
        }
    }()

    /// The number a diagnostic's message starts with (`3 keychain-failure lines in no finding: …`).
    static func leadingCount(_ message: String) -> Int { Int(message.prefix { $0.isNumber }) ?? 0 }

    @Test("the corpus holds hazard lines of every kind, and the accounting is checked on all of it")
    func corpusHasHazards() throws {
        #expect(Self.inputs.count > 60)
    }

    @Test("no hazard line classified by events is absent from the findings or the counted exclusions", arguments: inputs)
    func accounted(path: String) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18)))
        // What `prewarm-lint events` says: every event classified in input order.
        var classifier = EventClassifier()
        var hazards: [EventOrigin: EventMeaning] = [:]
        let summary = InputReader(options: options).read(.file(path)) { output in
            guard case .event(let event) = output else { return }
            let classified = classifier.classify(event)
            if let meaning = classified.meaning, meaning.isHazardEvidence { hazards[event.origin] = meaning }
        }
        guard summary.failure == nil else { return }  // not a log: nothing classified, nothing to account for

        // The sessions, whole, and what the rules say of each.
        let linter = Linter()
        var inSessions: [EventOrigin: EventMeaning] = [:]
        var reported = 0, unreported = 0
        let input = DiscoveredInput(input: .file(path), foundInDirectory: false)
        _ = SessionPipeline(reader: InputReader(options: options)).run([input], onSession: { session in
            let findings = linter.findings(inUnlisted: session)
            let unreportedHere = linter.unreportedHazards(in: session, findings: findings).reduce(0) { $0 + $1.count }
            unreported += unreportedHere
            for event in session.events where event.meaning.isHazardEvidence {
                inSessions[event.origin] = event.meaning
            }
            reported += session.events.filter(\.meaning.isHazardEvidence).count - unreportedHere
            return nil
        })
        // Every hazard line the sessions hold was classified so by `events` too.
        for (origin, meaning) in inSessions { #expect(hazards[origin] == meaning, "\(name):\(origin.line) is \(meaning) in a session only") }
        let outside = hazards.keys.filter { inSessions[$0] == nil }.count

        let report = LintRun(options: options, toolVersion: "test").run([input])
        func counted(_ code: DiagnosticCode) -> Int {
            report.diagnostics.filter { $0.code == code }.reduce(0) { $0 + Self.leadingCount($1.message) }
        }
        #expect(counted(.hazardNotReported) == unreported, "\(name): \(unreported) unreported hazard lines, the report counts \(counted(.hazardNotReported))")
        #expect(outside <= counted(.unattributedEvidence) + counted(.redactedEvidence),
                "\(name): \(outside) hazard lines in no session; counted: \(report.diagnostics.map(\.description))")
        if !hazards.isEmpty {
            #expect(!report.findings.isEmpty || report.diagnostics.contains { $0.code == .hazardNotReported || $0.code == .unattributedEvidence },
                    "\(name): hazard lines read, and the report is clean")
        }
        if reported > 0 { #expect(!report.findings.isEmpty) }
    }
}
