import Foundation
import Testing

/// `prewarm-lint stats` and `compare` end to end.
@Suite("prewarm-lint stats and compare")
struct InsightsCommandTests {
    typealias CLI = EventsCommandTests
    static let root = CLI.repositoryRoot

    @Test("stats reads the markers of the corpus' .prewarm-lint.yml and flags the prewarmed process-start numbers")
    func stats() throws {
        let run = try CLI.run(["stats", "Corpus/insights/launches-mixed"], in: Self.root)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("com.example.ledger — cold-launch, 24 sessions\n"))
        #expect(run.stdout.contains("com.example.ledger — prewarm-then-launch, 24 sessions\n"))
        #expect(run.stdout.contains("  activation → first-frame-marker "))
        #expect(run.stdout.contains("⚠ spans the suspension of prewarmed sessions: not a launch time"))
        let csv = try CLI.run(["stats", "--format", "csv", "Corpus/insights/launches-mixed"], in: Self.root)
        #expect(csv.stdout == (try String(contentsOf: Self.root.appendingPathComponent("Corpus/insights/launches-mixed/expected-stats.csv"), encoding: .utf8)))
    }

    @Test("compare: exit 0 for the same distribution, 1 for a slower build, 64 without --")
    func compare() throws {
        let same = try CLI.run(["compare", "Corpus/insights/launches-mixed", "--", "Corpus/insights/launches-same-build"], in: Self.root)
        #expect(same.status == 0)
        #expect(!same.stdout.contains("REGRESSION"))
        let slower = try CLI.run(["compare", "--format", "json", "Corpus/insights/launches-mixed", "--", "Corpus/insights/launches-slower-build"], in: Self.root)
        #expect(slower.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(slower.stdout.utf8)) as? [String: Any])
        #expect(report["regressed"] as? Bool == true)
        let rows = try #require(report["rows"] as? [[String: Any]])
        #expect(rows.filter { $0["verdict"] as? String == "regression" }.compactMap { $0["phase"] as? String }
                == ["activation → first-frame-marker", "activation → first-frame-marker"])
        let usage = try CLI.run(["compare", "Corpus/insights/launches-mixed", "Corpus/insights/launches-same-build"], in: Self.root)
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("separate the two sets with --: prewarm-lint compare BASELINE… -- CANDIDATE…"))
    }
}
