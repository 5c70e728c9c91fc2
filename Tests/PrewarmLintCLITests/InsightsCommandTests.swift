import Foundation
import PrewarmLintTesting
import Testing

/// `prewarm-lint stats` and `compare` end to end.
@Suite("prewarm-lint stats and compare")
struct InsightsCommandTests {
    typealias CLI = EventsCommandTests
    static let root = CLI.repositoryRoot

    @Test("stats reads the markers of the corpus' .prewarm-lint.yml and flags the prewarmed process-start numbers")
    func stats() throws {
        let run = try CLI.run(["stats", "--config", "Corpus/insights/.prewarm-lint.yml", "Corpus/insights/launches-mixed"], in: Self.root)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("com.example.ledger — cold-launch, 24 sessions\n"))
        #expect(run.stdout.contains("com.example.ledger — prewarm-then-launch, 24 sessions\n"))
        #expect(run.stdout.contains("  activation → first-frame-marker "))
        #expect(run.stdout.contains("⚠ spans the suspension of prewarmed sessions: not a launch time"))
        let csv = try CLI.run(["stats", "--config", "Corpus/insights/.prewarm-lint.yml", "--format", "csv", "Corpus/insights/launches-mixed"], in: Self.root)
        #expect(csv.stdout == (try String(contentsOf: Self.root.appendingPathComponent("Corpus/insights/launches-mixed/expected-stats.csv"), encoding: .utf8)))
    }

    /// A report lists 100,000 sessions; statistics are of every one. (They were of the listed ones, silently: 300,000
    /// launches of 100 apps read "1000 sessions" an app, and the listed sessions were gathered into an array, 137 MB
    /// for a million.)
    @Test("stats counts every session, past the report's listing of 100,000")
    func statsPastListing() throws {
        let folder = try TemporaryFolder("prewarm-lint-stats-many")
        defer { folder.remove() }
        // runningboardd's `Now tracking process: [app<…>:pid]` (real excerpts 44–46), as `log show --style compact`: each
        // new pid of an app is a new process, so a session of its own.
        var text = "Timestamp               Ty Process[PID:TID]\n"
        text.reserveCapacity(12_000_000)
        for index in 0..<100_500 {
            let (hours, rest) = (index / 3600, index % 3600)
            let time = "2024-03-\(String(format: "%02d", 1 + hours / 24)) \(String(format: "%02d:%02d:%02d", hours % 24, rest / 60, rest % 60)).000"
            text += "\(time) Df runningboardd[33:2b28] [com.apple.runningboard:process] Now tracking process: [app<com.example.app\(index % 2)(501)>:\(10_000 + index)]\n"
        }
        let path = try folder.write(Array(text.utf8), named: "launches.log")
        let run = try CLI.run(["stats", "--config", "Corpus/insights/.prewarm-lint.yml", path], in: Self.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("com.example.app0 — unknown, 50250 sessions\n") && run.stdout.contains("com.example.app1 — unknown, 50250 sessions\n"),
                "\(run.stdout.prefix(300))")
    }

    @Test("stats shows MetricKit's launch histograms per app version: launches, median and p90 read from the buckets, the optimized share")
    func metricKit() throws {
        let run = try CLI.run(["stats", "--config", "Corpus/insights/.prewarm-lint.yml", "--format", "json", "Corpus/insights/metrickit-metric-payloads"], in: Self.root)
        #expect(run.status == 0)
        // Worked out by hand from the buckets (see the folder's SOURCE.md): 3.1.0's first draws 3 + 5 + 2, the
        // median the 5th launch, 2/5 into the 1010–1020 ms bucket; its p90 the 9th, half-way into 2000–2010 ms.
        #expect(run.stdout.contains(#""metricKit":[{"appVersion":"3.1.0","payloads":1,"time-to-first-draw":{"launches":10,"medianMs":1014,"p90Ms":2005},"optimized-time-to-first-draw":{"launches":10,"medianMs":408.333,"p90Ms":507.5},"resume":{"launches":7,"medianMs":15,"p90Ms":19},"optimizedShare":0.5}"#))
        #expect(run.stdout.contains(#"{"appVersion":"3.2.0","payloads":1,"time-to-first-draw":{"launches":8,"medianMs":1010,"p90Ms":2800},"optimized-time-to-first-draw":{"launches":24,"medianMs":305,"p90Ms":309},"extended-launch":{"launches":20,"medianMs":1505,"p90Ms":1509},"optimizedShare":0.75}],"metricKitUnreadableBuckets":1"#))
        let text = try CLI.run(["stats", "--config", "Corpus/insights/.prewarm-lint.yml", "Corpus/insights/metrickit-metric-payloads"], in: Self.root)
        #expect(text.stdout.contains("    optimized (prewarmed) by the system: 75% of first draws\n"))
        #expect(text.stdout.contains("  1 bucket not read: a localized value"))
    }

    @Test("compare: exit 0 for the same distribution, 1 for a slower build, 64 without --")
    func compare() throws {
        let same = try CLI.run(["compare", "--config", "Corpus/insights/.prewarm-lint.yml", "Corpus/insights/launches-mixed", "--", "Corpus/insights/launches-same-build"], in: Self.root)
        #expect(same.status == 0)
        #expect(!same.stdout.contains("REGRESSION"))
        let slower = try CLI.run(["compare", "--config", "Corpus/insights/.prewarm-lint.yml", "--format", "json", "Corpus/insights/launches-mixed", "--", "Corpus/insights/launches-slower-build"], in: Self.root)
        #expect(slower.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(slower.stdout.utf8)) as? [String: Any])
        #expect(report["regressed"] as? Bool == true)
        let rows = try #require(report["rows"] as? [[String: Any]])
        #expect(rows.filter { $0["verdict"] as? String == "regression" }.compactMap { $0["phase"] as? String }
                == ["activation → first-frame-marker", "activation → first-frame-marker"])
        // In text, the last line names each phase that moved; counts read as counts, a difference with a minus sign.
        let text = try CLI.run(["compare", "--config", "Corpus/insights/.prewarm-lint.yml", "Corpus/insights/launches-mixed", "--", "Corpus/insights/launches-slower-build"], in: Self.root)
        #expect(text.stdout.hasSuffix("\n10 phases compared: 2 regressed (com.example.ledger cold-launch activation → first-frame-marker +78 ms; "
            + "com.example.ledger prewarm-then-launch activation → first-frame-marker +87 ms), 8 with no significant change\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("about – runs") && !text.stdout.contains(" 1 runs") && !text.stdout.contains("(-"), "\(text.stdout)")
        let usage = try CLI.run(["compare", "--config", "Corpus/insights/.prewarm-lint.yml", "Corpus/insights/launches-mixed", "Corpus/insights/launches-same-build"], in: Self.root)
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("separate the two sets with --: prewarm-lint compare BASELINE… -- CANDIDATE…"))
    }
}
