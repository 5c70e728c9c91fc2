import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

@Suite("launch insights")
struct InsightsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let insights = root.appendingPathComponent("Corpus/insights")
    /// The markers of `Corpus/insights/.prewarm-lint.yml`.
    static let markers = [
        LintConfiguration.Marker(text: "LaunchTimer: main", name: "main-marker", carriesElapsed: true),
        LintConfiguration.Marker(text: "LaunchTimer: did finish launching", name: "did-finish-launching-marker", carriesElapsed: true),
        LintConfiguration.Marker(text: "LaunchTimer: first frame", name: "first-frame-marker", carriesElapsed: true),
    ]

    static func statistics(_ folder: String) -> LaunchStatistics {
        let report = LogAnalyzer(linter: Linter(registry: RuleRegistry(rules: []), configuration: LintConfiguration(markers: markers)))
            .lint(paths: [insights.appendingPathComponent(folder).path])
        return LaunchStatistics(sessions: report.sessions, markers: markers, decisions: report.prewarmDecisions)
    }

    @Test("runs of one app captured apart, linted together: two live processes at once make them separate captures, each read on its own")
    func separateCaptures() throws {
        let folder = try TemporaryFolder("prewarm-lint-captures")
        defer { folder.remove() }
        // Three runs of the iOS 26 cold launch, as three Console copies without a date: the same times of day.
        let run = try String(contentsOf: Self.root.appendingPathComponent("Corpus/scenarios/cold-launch-ios26/log.txt"), encoding: .utf8)
        let paths = try [2231, 2240, 2251].map { pid in
            try folder.write(Array(run.replacingOccurrences(of: "2231", with: String(pid)).utf8), named: "run-\(pid).txt")
        }
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18)))
        let report = LintRun(options: options, linter: Linter(registry: RuleRegistry(rules: [])), toolVersion: "test")
            .run(paths.map { DiscoveredInput(input: .file($0), foundInDirectory: true) })
        #expect(report.sessions.map(\.app.pid) == [2231, 2240, 2251])
        #expect(report.sessions.map(\.userPerceivedLaunch?.microseconds) == [228_520, 228_520, 228_520])
        let note = try #require(report.diagnostics.first { $0.code == .separateCaptures })
        #expect(note.message.contains("hold two processes of com.example.ledger alive at once"))
        #expect(note.severity == .warning)
    }

    @Test("merged inputs that show they are separate captures stop being read there when the caller reads them again one by one; the lint's report is the same either way")
    func separateCapturesStopReading() throws {
        let folder = try TemporaryFolder("prewarm-lint-captures-stop")
        defer { folder.remove() }
        // The iOS 26 cold launch as two Console copies of two runs (pids 2231 and 2240), each followed by 20,000
        // prewarm requests of other apps later that day (runningboardd's line, as in real-logs 01, in the copy's
        // columns: PID, Type, Time, Process, Message): launch lines,
        // which the readers hand on, so they cannot run ahead of the merge by more than its queues hold.
        let run = try String(contentsOf: Self.root.appendingPathComponent("Corpus/scenarios/cold-launch-ios26/log.txt"), encoding: .utf8)
        let filler = (0..<20_000).map { "33\tdefault\t2\($0 / 3600 + 1):\(String(format: "%02d", $0 / 60 % 60)):\(String(format: "%02d", $0 % 60)).000000-0700\trunningboardd\tExecuting launch request for app<com.filler.app\($0 % 50)(501)> (DAS Prewarm launch)" }
            .joined(separator: "\n") + "\n"
        let paths = try [2231, 2240].map { pid in
            try folder.write(Array((run.replacingOccurrences(of: "2231", with: String(pid)) + filler).utf8), named: "run-\(pid).txt")
        }
        let inputs = paths.map { DiscoveredInput(input: .file($0), foundInDirectory: true) }
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18)), chunkSize: 4096)
        var pipeline = SessionPipeline(reader: InputReader(options: options))
        let whole = pipeline.run(inputs)
        pipeline.stopsAtSeparateCaptures = true
        let stopped = pipeline.run(inputs)
        #expect(whole.separateCaptures != nil && stopped.separateCaptures == whole.separateCaptures)
        let read = { (result: SessionPipeline.Result) in result.summaries.reduce(0) { $0 + $1.statistics.lines } }
        #expect(read(whole) > 40_000)
        #expect(read(stopped) < read(whole) / 2, "the merged reading went on after the inputs showed they are separate captures")
        // The lint (which stops there and reads each input again) reports what reading them separately reports.
        let lint = LintRun(options: options, linter: Linter(registry: .builtIn), toolVersion: "test")
        var apart = lint
        apart.separately = true
        let together = lint.run(inputs), separately = apart.run(inputs)
        #expect(together.sessions.filter { $0.app.bundleID == "com.example.ledger" }.map(\.app.pid) == [2231, 2240])
        // The same sessions and findings (listed in one order together, input by input apart).
        func outline(_ session: LaunchSession) -> String { "\(session.app) \(session.kind) \(session.start?.iso8601 ?? "-") \(session.milestones.count)" }
        #expect(together.sessions.map(outline).sorted() == separately.sessions.map(outline).sorted())
        #expect(together.findings.map { "\($0.ruleID) \($0.app) \($0.message)" }.sorted() == separately.findings.map { "\($0.ruleID) \($0.app) \($0.message)" }.sorted())
        #expect(Set(together.diagnostics.filter { $0.code != .separateCaptures }) == Set(separately.diagnostics))
    }

    @Test("a marker with both a meaning and a name stays a point of the launch: on the timeline and in stats")
    func markerWithMeaningAndName() throws {
        let markers = [LintConfiguration.Marker(text: "sceneDidBecomeActive", meaning: .firstFrame, name: "first-paint")]
        let report = LogAnalyzer(options: ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18))),
                                 linter: Linter(registry: RuleRegistry(rules: []), configuration: LintConfiguration(markers: markers)))
            .lint(paths: [Self.root.appendingPathComponent("Corpus/scenarios/cold-launch/log.txt").path])
        let session = try #require(report.sessions.first)
        // The meaning still makes it the first frame…
        #expect(session.milestone(.firstFrame) != nil)
        // …and the name a point, in the kept outline that timelines and stats read.
        let point = try #require(LaunchPoints.of(session, markers: markers).first { $0.name == "first-paint" })
        #expect(point.isMarker)
        #expect(SessionTimelineReporter().render(session, id: "x", markers: markers).contains("▸ first-paint"))
        let statistics = LaunchStatistics(sessions: report.sessions, markers: markers)
        #expect(statistics.groups.first?.phases.contains { $0.phase.name == "activation → first-paint" } == true)
    }

    @Test("a timeline's columns are as wide as their widest entry, filled to characters, not bytes; its lines end without spaces; milestones out of order are put in time order, ties as given")
    func timelineColumns() {
        func at(_ milliseconds: Int64) -> LogTimestamp {
            LogTimestamp(microsecondsSinceEpoch: 1_710_772_862_000_000 + milliseconds * 1000, utcOffsetSeconds: -25200, text: "t")
        }
        // An input name past ASCII (`Protokoll-Grüße.log`, 19 characters in 21 bytes), as a German user's export may be.
        let origin = { (line: Int) in EventOrigin(input: "Protokoll-Grüße.log", line: line, byteOffset: 0) }
        var session = LaunchSession(app: AppIdentity(bundleID: "com.example.ledger", pid: 2231), kind: .coldLaunch, confidence: .certain)
        session.milestones = [
            .init(name: .activation, time: at(300), evidence: origin(12)),
            .init(name: .processStart, time: at(45), evidence: origin(3), detail: "  "),
            .init(name: .launchRequest, time: at(0), evidence: origin(1)),
            .init(name: .tap, time: at(0), evidence: origin(2)),
        ]
        let lines = SessionTimelineReporter().render(session, id: "com.example.ledger#1").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6, "\(lines)")
        #expect(lines.dropFirst().prefix(4).map { String($0) } == [
            "  07:41:02.000 launch request Protokoll-Grüße.log:1",
            "  07:41:02.000 tap            Protokoll-Grüße.log:2  +0 ms",
            "  07:41:02.045 process start  Protokoll-Grüße.log:3  +45 ms",
            "  07:41:02.300 activation     Protokoll-Grüße.log:12 +255 ms",
        ])
    }

    @Test("48 launches: cold and prewarmed apart; measured from process start, the prewarmed group is flagged as spanning the suspension")
    func mixedLaunches() throws {
        let statistics = Self.statistics("launches-mixed")
        #expect(statistics.groups.map { "\($0.app) \($0.kind.rawValue) \($0.sessions)" }
                == ["com.example.ledger cold-launch 24", "com.example.ledger prewarm-then-launch 24"])
        let cold = try #require(statistics.groups.first { $0.kind == .coldLaunch })
        let prewarmed = try #require(statistics.groups.first { $0.kind == .prewarmThenLaunch })
        func phase(_ group: LaunchStatistics.Group, _ name: String) throws -> (LaunchPhase, PhaseSummary) {
            let entry = try #require(group.phases.first { $0.phase.name == name }, "\(name) not measured")
            return (entry.phase, entry.summary)
        }
        // What the user waited for is the same in both groups…
        let (userPhase, coldUser) = try phase(cold, "activation → first-frame-marker")
        let (_, prewarmedUser) = try phase(prewarmed, "activation → first-frame-marker")
        #expect(userPhase.userPerceived)
        #expect(coldUser.count == 24 && prewarmedUser.count == 24)
        #expect((80...140).contains(coldUser.median) && (80...140).contains(prewarmedUser.median))
        // …but from process start, the prewarmed median is minutes, flagged; the cold one is not.
        let (startPhase, prewarmedStart) = try phase(prewarmed, "process-start → first-frame-marker")
        let (_, coldStart) = try phase(cold, "process-start → first-frame-marker")
        #expect(prewarmedStart.median > 5 * 60_000)
        #expect(coldStart.median < 1000)
        #expect(prewarmed.includesSuspension(startPhase))
        #expect(!cold.includesSuspension(startPhase))
        let (reportedPhase, reported) = try phase(prewarmed, "first-frame-marker (reported by the app)")
        #expect(prewarmed.includesSuspension(reportedPhase), "the app's own launch timer includes the prewarm")
        #expect(reported.median > 5 * 60_000)
        // A phase that ends before the suspension is a real (background) number, not flagged.
        let (mainPhase, _) = try phase(prewarmed, "process-start → main-marker")
        #expect(!prewarmed.includesSuspension(mainPhase))
        // The text report says it.
        let text = StatisticsReporter().render(statistics)
        #expect(text.contains("⚠ spans the suspension of prewarmed sessions: not a launch time"))
    }

    @Test("the stats report of launches-mixed, in every format, matches its goldens", arguments: StatisticsReporter.Format.allCases)
    func goldens(format: StatisticsReporter.Format) throws {
        // Paths relative to the repository, so the goldens hold wherever it is cloned.
        let text = StatisticsReporter(format: format).render(Self.statistics("launches-mixed"))
            .replacingOccurrences(of: Self.root.path + "/", with: "")
        let name = "expected-stats." + (format == .markdown ? "md" : format == .text ? "txt" : format.rawValue)
        if let problem = try GoldenFile.compare(text, with: Self.insights.appendingPathComponent("launches-mixed/\(name)"), name: "launches-mixed") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test("why (not) prewarmed: every decision dasd's lines state, with its app or the device")
    func decisions() {
        let statistics = Self.statistics("prewarm-decisions")
        #expect(statistics.decisions.map { "\($0.app ?? "(device)") \($0.reason.rawValue)" } == [
            "(device) before-first-unlock", "(device) not-yet-allowed", "com.example.notes developer-opt-out",
            "com.example.ledger already-running", "com.example.ledger attempted", "com.example.ledger attempt-failed",
            "com.example.ledger attempted", "com.example.ledger assertion-lost", "(device) disabled",
        ])
        #expect(statistics.decisions.map(\.evidence.line) == Array(2...10))
    }

    @Test("compare: the same distribution is no regression; 80 ms later first frames are")
    func compareCorpus() {
        let baseline = Self.statistics("launches-mixed")
        let same = LaunchComparison(baseline: baseline, candidate: Self.statistics("launches-same-build"))
        #expect(!same.regressed)
        #expect(same.rows.allSatisfy { $0.verdict == .noSignificantChange })
        let slower = LaunchComparison(baseline: baseline, candidate: Self.statistics("launches-slower-build"))
        #expect(slower.regressed)
        #expect(slower.rows.filter { $0.verdict == .regression }.map(\.phase.name) == ["activation → first-frame-marker", "activation → first-frame-marker"])
    }

    /// Sessions whose activation → active takes the given milliseconds.
    static func sessions(_ durations: [Double]) -> [LaunchSession] {
        durations.enumerated().map { index, milliseconds in
            let start = Int64(1_710_772_862_000_000) + Int64(index) * 60_000_000
            let origin = EventOrigin(input: "synthetic", line: index + 1, byteOffset: 0)
            return LaunchSession(app: AppIdentity(bundleID: "com.example.ledger"), kind: .coldLaunch, confidence: .certain, milestones: [
                .init(name: .activation, time: LogTimestamp(microsecondsSinceEpoch: start, utcOffsetSeconds: 0, text: "t"), evidence: origin),
                .init(name: .active, time: LogTimestamp(microsecondsSinceEpoch: start + Int64(milliseconds * 1000), utcOffsetSeconds: 0, text: "t"), evidence: origin),
            ])
        }
    }

    /// Log-normal launch times around `median` ms, from a seeded generator.
    static func sample(count: Int, median: Double, seed: UInt64) -> [Double] {
        var state = seed
        func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (Double((z ^ (z >> 31)) >> 11) + 0.5) / Double(1 << 53)
        }
        return (0..<count).map { _ in
            let normal = (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
            return median * exp(0.25 * normal)
        }
    }

    @Test("seeded samples: pairs from one distribution are not called regressions; a known +25% shift is found (power ≥ 90% at 40 runs)")
    func compareSynthetic() {
        var falseAlarms = 0
        var found = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let baseline = LaunchStatistics(sessions: Self.sessions(Self.sample(count: 40, median: 400, seed: seed)))
            let same = LaunchStatistics(sessions: Self.sessions(Self.sample(count: 40, median: 400, seed: seed + 1000)))
            let shifted = LaunchStatistics(sessions: Self.sessions(Self.sample(count: 40, median: 500, seed: seed + 2000)))
            if LaunchComparison(baseline: baseline, candidate: same).regressed { falseAlarms += 1 }
            if LaunchComparison(baseline: baseline, candidate: shifted).regressed { found += 1 }
        }
        #expect(falseAlarms <= 1, "\(falseAlarms) of 20 same-distribution pairs called a regression")
        // At 40 runs per side and this spread (σ of log ≈ 0.25), the rank test's power for a 25% shift is
        // about 95%: a miss now and then is the statistics, not a bug.
        #expect(found >= 18, "found \(found) of 20 shifted pairs")
    }

    @Test("the rank test against hand-computed values; sample sizes")
    func rankTest() {
        let (u, p) = RankTest.mannWhitney([1, 2, 3], [4, 5, 6])
        #expect(u == 0)
        #expect(abs(p - 0.0809) < 0.001)
        #expect(RankTest.mannWhitney([1, 2, 3, 4], [1, 2, 3, 4]).p == 1)
        // σ = 50 ms: a 20 ms shift needs 2·(2.80·50/20)² / (3/π) ≈ 103 runs per side.
        #expect(RankTest.runsToDetect(difference: 20, spread: 50) == 103)
        // The median within ±10 ms at σ = 50: (1.96·1.2533·50/10)² ≈ 151.
        #expect(RankTest.runsForMedian(within: 10, spread: 50) == 151)
        #expect(PhaseSummary.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == 9)
        #expect(PhaseSummary.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50) == 5)
    }

    @Test("dasd's decision lines are read with their app", arguments: [
        ("DASPREWARM Refusing to prewarm com.example.notes because it not allowed by developer", "developer-opt-out", "com.example.notes"),
        ("BundleID com.example.ledger is already running. Skipping from Prewarm", "already-running", "com.example.ledger"),
        ("Class C not yet available.", "before-first-unlock", nil),
        ("Prewarm not yet allowed.", "not-yet-allowed", nil),
        ("DASDPREWARM Encountered error launching com.example.ledger: Error Domain=X Code=1", "attempt-failed", "com.example.ledger"),
        ("Encountered error with prelaunch (1) of com.example.ledger: Error Domain=RBSRequestErrorDomain Code=5", "attempt-failed",
         "com.example.ledger"),
        ("DASDPREWARM Prewarm of com.example.ledger succeeded", "succeeded", "com.example.ledger"),
        ("Prewarm terminated for com.example.ledger", "terminated", "com.example.ledger"),
        ("Updating timeline: <private>", nil, nil),
    ] as [(String, String?, String?)])
    func decisionLines(line: String, reason: String?, app: String?) throws {
        // `log show --style syslog` (formats.md §1.4): the decision comes out of the whole pipeline.
        let log = "Timestamp                       (process)[PID]\n2021-10-20 08:14:02.118203+0200  localhost dasd[105]: \(line)\n"
        let report = try LogAnalyzer(linter: Linter(registry: RuleRegistry(rules: []))).lint(bytes: Array(log.utf8), named: "decision.log")
        #expect(report.prewarmDecisions.map(\.reason.rawValue) == (reason.map { [$0] } ?? []))
        #expect(report.prewarmDecisions.first?.app == app)
        #expect(report.prewarmDecisions.first?.evidence.line == (reason == nil ? nil : 2))
    }

    @Test("every decision has a dasd signature, and every dasd signature id it names exists")
    func decisionSignatures() {
        let ids = Set(SignatureTable.builtIn.signatures.map(\.id))
        let named = ids.filter { PrewarmDecision.Reason(signatureID: $0) != nil }
        #expect(Set(named.compactMap { PrewarmDecision.Reason(signatureID: $0) }) == Set(PrewarmDecision.Reason.allCases))
        for id in named {
            #expect(SignatureTable.builtIn.signatures.first { $0.id == id }?.roles == [.dasd], "\(id)")
        }
    }
}
