import Foundation
@testable import PrewarmLint
@testable import PrewarmLintReporters
import PrewarmLintTesting
import Testing

/// Reports of many sessions keep them in pages of a temporary file (`LintRun.sessionsInMemory`,
/// `ClosedSessionSpool`, `ReportList`): such a report must be the same report, byte for byte, in every format.
@Suite("sessions spooled to a temporary file")
struct SpooledReportTests {
    /// Every built-in renderer, as the CLI configures them.
    static let renderers = ReportRenderers.builtIn(rules: RuleRegistry.builtIn.rules.map(\.description))

    static func rendered(_ report: LintReport) -> [String] {
        renderers.map { renderer in
            var text = ""
            renderer.render(report, to: { text += $0 })
            return text
        }
    }

    /// A lint run with the day's options, and (`inMemory` sessions, pages of `pageLength`) spooling past that many.
    static func lintRun(sessionsInMemory inMemory: Int? = nil, pageLength: Int? = nil) -> LintRun {
        var run = LintRun(options: GatedReadingTests.dayOptions, toolVersion: "test")
        if let inMemory { run.sessionsInMemory = inMemory }
        if let pageLength { run.spoolPageLength = pageLength }
        return run
    }

    static func day(seed: UInt64, in folder: TemporaryFolder, named name: String) throws -> DiscoveredInput {
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: seed, targetBytes: 3_000_000, format: .ndjson, apps: 30, sessionsPerDay: 8_000))
        return DiscoveredInput(input: .file(try folder.write(bytes, named: name)), foundInDirectory: false)
    }

    @Test("runs of 1, 7 and 100 sessions merged, then pages of 5 read back: the same report in all eight formats as in memory",
          arguments: [1, 7, 100])
    func sameReport(runLength: Int) throws {
        let folder = try TemporaryFolder("prewarm-lint-spool")
        defer { folder.remove() }
        let input = try Self.day(seed: 61, in: folder, named: "day.ndjson")
        let inMemory = Self.lintRun().run([input])
        let spooling = Self.lintRun(sessionsInMemory: runLength, pageLength: 5)
        let spooled = spooling.run([input])
        #expect(!inMemory.sessions.isSpooled)
        #expect(spooled.sessions.isSpooled && spooled.findings.isSpooled && spooled.sessionIDs.isSpooled)
        #expect(inMemory.sessions.count > 200, "enough sessions for several runs, and pages beyond the eight cached")
        #expect(inMemory.findings.count > 50)
        #expect(spooled.sessions == inMemory.sessions)
        #expect(spooled.sessionIDs == inMemory.sessionIDs)
        #expect(spooled.findings == inMemory.findings)
        for (index, (spooledText, text)) in zip(Self.rendered(spooled), Self.rendered(inMemory)).enumerated() {
            #expect(spooledText == text, "\(Self.renderers[index].formatName) differs")
        }
        // Rendered on two threads, from the pages, as a run with --jobs 2 does.
        var twoThreads = spooled
        twoThreads.renderingJobs = 2
        #expect(twoThreads.render() == inMemory.render())
    }

    /// Reporters walk a spooled report's lists in order: each page read back a few times in all, not once per session
    /// looked up. (The text report searched the ids from the first for each session with findings, and Markdown went
    /// through every finding for each session row and each rule: eight device days of 16,193 sessions took 10 s in
    /// text and 7 s in Markdown, against 2 s in JSON.)
    @Test("text, Markdown, HTML, NDJSON, SARIF, GitHub and JUnit read each page of a spooled report a bounded number of times, and stream")
    func pagesReadBounded() throws {
        let folder = try TemporaryFolder("prewarm-lint-pages-read")
        defer { folder.remove() }
        let input = try Self.day(seed: 61, in: folder, named: "day.ndjson")
        let inMemory = Self.lintRun().run([input])
        let spooling = Self.lintRun(sessionsInMemory: 5, pageLength: 5)
        func reads(_ body: (LintReport) -> Void) -> (sessions: Int, ids: Int, findings: Int, pages: (Int, Int, Int)) {
            let report = spooling.run([input])
            body(report)
            return (report.sessions.pagesRead, report.sessionIDs.pagesRead, report.findings.pagesRead,
                    (report.sessions.pageCount, report.sessionIDs.pageCount, report.findings.pageCount))
        }
        let text = FindingTextReporter()
        var pieces: [String] = []
        let textReads = reads { report in
            text.render(report) { pieces.append($0) }
        }
        let (sessionPages, idPages, findingPages) = textReads.pages
        #expect(sessionPages > 40 && findingPages > 10, "pages beyond the eight cached")
        #expect(pieces.joined() == text.render(inMemory) && pieces.count > 10, "the same text, a session at a time")
        #expect(textReads.ids <= idPages + 1, "ids read once: \(textReads.ids) of \(idPages) pages")
        #expect(textReads.sessions <= 2 * sessionPages + 1 && textReads.findings <= 2 * findingPages + 1,
                "sessions \(textReads.sessions) of \(sessionPages), findings \(textReads.findings) of \(findingPages)")
        let markdownReads = reads { report in #expect(MarkdownReporter().render(report) == MarkdownReporter().render(inMemory)) }
        #expect(markdownReads.findings <= 6 * findingPages && markdownReads.ids <= 4 * idPages + 1,
                "Markdown read findings \(markdownReads.findings) of \(findingPages) pages, ids \(markdownReads.ids) of \(idPages)")
        // The HTML page groups sessions by app: the sessions read twice (and once for the summary), their articles kept in
        // a file of their own, not the sessions in memory.
        var htmlPieces: [String] = []
        let htmlReads = reads { report in HTMLReporter().render(report) { htmlPieces.append($0) } }
        #expect(htmlPieces.joined() == HTMLReporter().render(inMemory) && htmlPieces.count > 10)
        #expect(htmlReads.sessions <= 3 * sessionPages + 1 && htmlReads.findings <= 4 * findingPages + 1 && htmlReads.ids <= 3 * idPages + 1,
                "HTML read sessions \(htmlReads.sessions) of \(sessionPages) pages, findings \(htmlReads.findings) of \(findingPages), ids \(htmlReads.ids) of \(idPages)")
        for renderer in [FindingNDJSONReporter() as any ReportRenderer, SARIFReporter(rules: RuleRegistry.builtIn.rules.map(\.description)),
                         GitHubAnnotationReporter(), JUnitReporter()] {
            var chunks: [String] = []
            let streamed = reads { report in renderer.render(report) { chunks.append($0) } }
            #expect(chunks.joined() == renderer.render(inMemory), "\(renderer.formatName): the same text in pieces")
            #expect(chunks.count > 1 && chunks.allSatisfy { $0.utf8.count < 80 * 1024 }, "\(renderer.formatName) in pieces of ~64 KiB: \(chunks.count)")
            #expect(streamed.findings <= 2 * findingPages + 1, "\(renderer.formatName) read findings \(streamed.findings) of \(findingPages) pages")
        }
    }

    @Test("a selection of a spooled list: the elements at those positions, read from the pages, as the same selection of an array")
    func selection() throws {
        let folder = try TemporaryFolder("prewarm-lint-selection")
        defer { folder.remove() }
        let input = try Self.day(seed: 61, in: folder, named: "day.ndjson")
        let spooling = Self.lintRun(sessionsInMemory: 5, pageLength: 5)
        let spooled = spooling.run([input])
        let inMemory = ReportList(Array(spooled.sessions))
        #expect(spooled.sessions.isSpooled && !inMemory.isSpooled)
        let positions = Array(stride(from: 2, to: spooled.sessions.count, by: 3))
        let selected = spooled.sessions.selecting(positions)
        #expect(selected.isSpooled && selected.count == positions.count)
        #expect(selected.elementsEqual(positions.map { inMemory[$0] }), "the elements at those positions")
        #expect(selected == inMemory.selecting(positions))
        // A selection of a selection, and a transform of one.
        let again = [0, 1, positions.count - 1]
        #expect(selected.selecting(again).elementsEqual(again.map { inMemory[positions[$0]] }), "a selection of the selection")
        let renamed = selected.mapElements { session in
            var session = session
            session.app.processName = "renamed"
            return session
        }
        #expect(renamed.count == positions.count && renamed.allSatisfy { $0.app.processName == "renamed" })
        #expect(renamed.map(\.start) == selected.map(\.start))
    }

    @Test("findings out of the listing's order (a report made by hand): each session's timeline and HTML badges are still found")
    func textFindingsOutOfOrder() throws {
        let folder = try TemporaryFolder("prewarm-lint-findings-order")
        defer { folder.remove() }
        let input = try Self.day(seed: 61, in: folder, named: "day.ndjson")
        let run = Self.lintRun().run([input])
        let reversed = LintReport(toolVersion: "test", inputs: run.inputs, sessions: Array(run.sessions), sessionIDs: Array(run.sessionIDs),
                                  findings: Array(run.findings).reversed(), diagnostics: [])
        let text = FindingTextReporter().render(reversed)
        let ids = Set(run.findings.map(\.sessionID))
        #expect(ids.count > 20)
        for id in ids { #expect(text.contains("\n  │ \(id) "), "the timeline of \(id)") }
        // The HTML page finds each session's findings too: its article carries a badge for each.
        let html = HTMLReporter().render(reversed)
        for id in ids {
            let article = html.components(separatedBy: "<article class=\"session\" id=\"\(HTMLReporter.anchor(id))\">").dropFirst().first?
                .components(separatedBy: "</article>").first ?? ""
            #expect(article.components(separatedBy: "class=\"badge severity").count - 1 == run.findings.filter { $0.sessionID == id }.count,
                    "the badges of \(id)")
        }
    }

    @Test("past the listing's limit: the summary counts every session checked by kind, says the launch median is of the listed ones, and the warning is given as it comes")
    func notListed() throws {
        let folder = try TemporaryFolder("prewarm-lint-not-listed")
        defer { folder.remove() }
        let input = try Self.day(seed: 61, in: folder, named: "day.ndjson")
        let whole = Self.lintRun().run([input])
        var limited = Self.lintRun()
        limited.sessionsListed = 50
        var given: [ReaderDiagnostic] = []
        let report = limited.run([input]) { given.append($0) }
        let total = whole.sessions.count
        #expect(total > 200)
        #expect(report.sessions.count == 50 && report.sessionsNotListed == total - 50 && whole.sessionsNotListed == 0)
        #expect(report.findings == whole.findings, "every session is checked")
        #expect(Array(report.sessions) == Array(whole.sessions.prefix(50)) && Array(report.sessionIDs) == Array(whole.sessionIDs.prefix(50)))
        let warning = "\(total - 50) sessions beyond the first 50 are checked and their findings reported, but not listed"
        #expect(given.contains { $0.code == .sessionLimit && $0.message == warning })
        #expect(given.first { $0.code == .sessionLimit }?.description == "\(input.input.name): warning: \(warning) [session-limit]")
        // Kinds and incomplete evidence are of every session checked: what the whole listing says.
        let summary = FindingTextReporter().summary(report)
        let kinds = FindingTextReporter.kindCounts(whole.sessions)
        #expect(kinds != FindingTextReporter.kindCounts(report.sessions))
        #expect(summary.contains(" in \(total) sessions (\(kinds)) from 1 input"), "\(summary)")
        #expect(FindingTextReporter().summary(whole).contains(" in \(total) sessions (\(kinds)) from 1 input"))
        // (This day's sessions all have their evidence; `unlistableNotKept` counts incomplete ones not listed.)
        #expect(!whole.sessions.contains(where: \.evidenceIncomplete) && !summary.contains("evidence incomplete"))
        #expect(summary.contains(" listed launches"), "the launch median is of the listed sessions, and says so: \(summary)")
        var unlisted = UnlistedSessions()
        for session in whole.sessions.dropFirst(50) { unlisted.add(kind: session.kind, evidenceIncomplete: session.evidenceIncomplete) }
        #expect(report.notListed == unlisted)
        let html = HTMLReporter().render(report)
        for (kind, count) in SessionTally(whole.sessions).byKind {
            #expect(html.contains("\(kind.rawValue)</td><td class=\"number\">\(count)</td>"), "HTML's sessions per kind: \(kind)")
        }
        // For pipelines, the JSON report says it too, without parsing a warning; Markdown no longer says "all in --format json".
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.render().utf8)) as? [String: Any])
        #expect(json["sessionsNotListed"] as? Int == total - 50)
        let byKind = try #require(json["sessionsNotListedByKind"] as? [String: Int])
        #expect(byKind == Dictionary(uniqueKeysWithValues: unlisted.byKind.map { ($0.key.rawValue, $0.value) }))
        #expect(json["sessionsNotListedEvidenceIncomplete"] == nil, "present when some are")
        var incomplete = report
        incomplete.notListed.add(kind: .unknown, evidenceIncomplete: true)
        let incompleteJSON = try #require(try JSONSerialization.jsonObject(with: Data(incomplete.render().utf8)) as? [String: Any])
        #expect(incompleteJSON["sessionsNotListedEvidenceIncomplete"] as? Int == 1 && incompleteJSON["sessionsNotListed"] as? Int == total - 49)
        #expect(FindingTextReporter().summary(incomplete).contains("1 unknown) from 1 input; launch median 92 ms of 6 listed launches (`stats` for more); evidence incomplete in 1 session"))
        #expect((json["sessions"] as? [Any])?.count == 50)
        let wholeJSON = try #require(try JSONSerialization.jsonObject(with: Data(whole.render().utf8)) as? [String: Any])
        #expect(wholeJSON["sessionsNotListed"] == nil && wholeJSON["sessionsNotListedByKind"] == nil)
        let markdown = MarkdownReporter().render(report)
        #expect(markdown.contains("(in `--format json` or `--format html`; \(total - 50) more were checked and not listed)"))
        #expect(!markdown.contains("sessions (all in `--format json`"))
    }

    @Test("redacted as each page is read back: the same report as redacted in memory")
    func redacted() throws {
        let folder = try TemporaryFolder("prewarm-lint-spool-redacted")
        defer { folder.remove() }
        let input = try Self.day(seed: 66, in: folder, named: "day.ndjson")
        let inMemory = Self.lintRun().run([input])
        let spooling = Self.lintRun(sessionsInMemory: 50)
        let spooled = spooling.run([input])
        #expect(spooled.findings.isSpooled)
        let json = JSONReportRenderer(), text = FindingTextReporter()
        #expect(json.render(Redactor().redact(spooled)) == json.render(Redactor().redact(inMemory)))
        #expect(text.render(Redactor().redact(spooled)) == text.render(Redactor().redact(inMemory)))
    }

    @Test("inputs read separately on two threads, each spooling its own runs: the same report as in memory")
    func separately() throws {
        let folder = try TemporaryFolder("prewarm-lint-spool-separately")
        defer { folder.remove() }
        let inputs = [try Self.day(seed: 62, in: folder, named: "a.ndjson"), try Self.day(seed: 63, in: folder, named: "b.ndjson")]
        var memory = LintRun(options: GatedReadingTests.dayOptions, toolVersion: "test", separately: true)
        memory.jobs = 2
        var spooling = memory
        spooling.sessionsInMemory = 9
        spooling.spoolPageLength = 3
        let (inMemory, spooled) = (memory.run(inputs), spooling.run(inputs))
        #expect(spooled.sessions.isSpooled)
        #expect(Self.rendered(spooled) == Self.rendered(inMemory))
    }

    @Test("`prewarm-lint sessions`' listing, spooled, together and separately: the same sessions and ids as in memory, and as a lint lists them")
    func listedSessions() throws {
        let folder = try TemporaryFolder("prewarm-lint-spool-sessions")
        defer { folder.remove() }
        let inputs = [try Self.day(seed: 67, in: folder, named: "a.ndjson"), try Self.day(seed: 68, in: folder, named: "b.ndjson")]
        for separately in [false, true] {
            // The run `prewarm-lint sessions` makes: every session listed, none checked.
            var listing = LintRun(options: GatedReadingTests.dayOptions, linter: Linter(registry: RuleRegistry(rules: [])), toolVersion: "test",
                                  separately: separately)
            listing.checksSessions = false
            listing.sessionsListed = .max
            let inMemory = listing.run(inputs)
            listing.sessionsInMemory = 11
            let spooled = listing.run(inputs)
            #expect(!inMemory.sessions.isSpooled && spooled.sessions.isSpooled && !spooled.diagnostics.contains { $0.code == .stateLimit })
            #expect(spooled.findings.isEmpty && !spooled.diagnostics.contains { $0.code == .hazardNotReported })
            #expect(spooled.sessions.count > 400)
            #expect(spooled.sessions == inMemory.sessions && spooled.sessionIDs == inMemory.sessionIDs, "separately: \(separately)")
            // The sessions and names a lint of the same inputs lists.
            let lint = LintRun(options: GatedReadingTests.dayOptions, toolVersion: "test", separately: separately).run(inputs)
            #expect(Array(spooled.sessions) == Array(lint.sessions), "separately: \(separately)")
            #expect(Array(spooled.sessionIDs) == Array(lint.sessionIDs), "separately: \(separately)")
        }
    }

    @Test("the library's analyzer of bytes spools as a lint does: the same report, its ids those given as sessions closed")
    func analyzerOfBytes() throws {
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: 69, targetBytes: 3_000_000, format: .ndjson, apps: 30, sessionsPerDay: 8_000))
        var analyzer = LogAnalyzer(options: GatedReadingTests.dayOptions)
        let inMemory = try analyzer.lint(bytes: bytes, named: "day.ndjson")
        analyzer.sessionsInMemory = 7
        let spooled = try analyzer.lint(bytes: bytes, named: "day.ndjson")
        #expect(!inMemory.sessions.isSpooled && spooled.sessions.isSpooled)
        #expect(inMemory.sessions.count > 200 && inMemory.findings.count > 50)
        #expect(spooled.render() == inMemory.render())
        #expect(FindingTextReporter().render(spooled) == FindingTextReporter().render(inMemory))
    }

    @Test("no temporary file can be made: the sessions stay in memory, the report is whole, and a warning says so")
    func noTemporaryFile() throws {
        let folder = try TemporaryFolder("prewarm-lint-spool-failing")
        defer { folder.remove() }
        let input = try Self.day(seed: 64, in: folder, named: "day.ndjson")
        let inMemory = Self.lintRun().run([input])
        var failing = Self.lintRun()
        failing.sessionsInMemory = 5
        failing.temporaryDirectory = folder.url.appendingPathComponent("no-such-folder").path
        let report = failing.run([input])
        #expect(!report.sessions.isSpooled)
        #expect(report.sessions == inMemory.sessions && report.findings == inMemory.findings && report.sessionIDs == inMemory.sessionIDs)
        let warning = try #require(report.diagnostics.first { $0.message.contains("kept in memory instead of a temporary file") })
        #expect(warning.severity == .warning)
        #expect(warning.message.contains("no-such-folder"))
        #expect(report.diagnostics.count == inMemory.diagnostics.count + 1)
    }

    @Test("a session and its findings read back equal, every kept line included, from every real excerpt and a generated day")
    func roundTrip() throws {
        let folder = try TemporaryFolder("prewarm-lint-spool-codec")
        defer { folder.remove() }
        var sessions = RealLogSessionsTests.files.flatMap(RealLogSessionsTests.sessions)
        let input = try Self.day(seed: 65, in: folder, named: "day.ndjson")
        sessions += SessionPipeline(reader: InputReader(options: GatedReadingTests.dayOptions)).run([input]).sessions
        #expect(sessions.count > 200)
        #expect(sessions.contains { !$0.events.isEmpty && $0.decidedBy != nil && $0.firstSeen != nil })
        let linter = Linter()
        var findingsSeen = 0
        for session in sessions {
            let findings = linter.findings(inUnlisted: session)
            findingsSeen += findings.count
            var writer = SpoolWriter()
            session.spool(into: &writer)
            writer.array(findings)
            let (readSession, readFindings, atEnd) = try writer.bytes.withUnsafeBytes { bytes in
                var reader = SpoolReader(bytes)
                return (try LaunchSession(unspooling: &reader), try reader.array(Finding.self), reader.isAtEnd)
            }
            #expect(readSession == session)
            #expect(readFindings == findings)
            #expect(atEnd)
        }
        #expect(findingsSeen > 50)
    }

    @Test("the codec writes every stored property of the types it spools (a property added later must be spooled too)")
    func everyProperty() throws {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let origin = EventOrigin(input: "a", line: 1, byteOffset: 0)
        let time = LogTimestamp(microsecondsSinceEpoch: 0, utcOffsetSeconds: 0, text: "t")
        let app = AppIdentity(bundleID: "com.example")
        let event = SessionEvent(origin: origin, time: time, process: "p", pid: 1, role: .app, meaning: .appLifecycle, text: "x")
        let finding = Finding(ruleID: "r", severity: .warning, message: "m", sessionID: "s", sessionKind: .coldLaunch, app: app, evidence: [])
        #expect(labels(origin) == EventOrigin.spooledProperties)
        #expect(labels(time) == LogTimestamp.spooledProperties)
        #expect(labels(app) == AppIdentity.spooledProperties)
        #expect(labels(LaunchSession.Milestone(name: .tap, time: time, evidence: origin)) == LaunchSession.Milestone.spooledProperties)
        #expect(labels(event) == SessionEvent.spooledProperties)
        #expect(labels(LaunchSession(app: app)) == LaunchSession.spooledProperties)
        #expect(labels(Finding.Evidence(event, label: "l")) == Finding.Evidence.spooledProperties)
        #expect(labels(finding) == Finding.spooledProperties)
    }

    @Test("the merge lists by start, then app, then the order sessions closed, whatever the runs", arguments: [1, 2, 3, 100])
    func mergeOrder(runLength: Int) {
        func session(_ app: String, at second: Int64?, _ tag: String) -> LaunchSession {
            var session = LaunchSession(app: AppIdentity(bundleID: app), incompleteEvidence: [tag])
            if let second {
                let origin = EventOrigin(input: "x", line: 1, byteOffset: 0)
                session.milestones = [.init(name: .processStart, time: LogTimestamp(microsecondsSinceEpoch: second * 1_000_000, utcOffsetSeconds: 0, text: "\(second)"), evidence: origin)]
            }
            return session
        }
        // Closed in this order; equal start and app (b at 5 s, twice; two without a start) keep it.
        let closed = [session("com.b", at: 5, "b5-first"), session("com.a", at: 9, "a9"), session("com.z", at: nil, "z-none"),
                      session("com.b", at: 5, "b5-second"), session("com.a", at: 5, "a5"), session("com.c", at: nil, "c-none"),
                      session("com.b", at: 5, "b5-third")]
        var spool = ClosedSessionSpool(runLength: runLength, directory: nil)
        for one in closed {
            spool.add(one, findings: [])
            #expect(spool.pendingCount < runLength, "at most a run in memory")
        }
        spool.close()
        #expect(spool.isSpooled == (runLength < closed.count))
        let order = spool.entries().map { $0.decodedSession().incompleteEvidence[0] }
        #expect(order == ["c-none", "z-none", "a5", "b5-first", "b5-second", "b5-third", "a9"])
    }

    /// A session whose start is later than the `listingLimit` earliest so far cannot be listed: the spool keeps its key,
    /// name and findings, not the session. The listing, its ids and its findings must be those of a spool that keeps
    /// every session, whatever the order sessions close in (an earlier one after later ones; starts equal to the latest
    /// listed, which the app and the order decide).
    @Test("sessions that cannot be listed are not kept: the same listing, ids and findings", arguments: [2, 100])
    func unlistableNotKept(runLength: Int) {
        func session(_ app: String, at second: Int64) -> LaunchSession {
            var session = LaunchSession(app: AppIdentity(bundleID: app))
            session.kind = second.isMultiple(of: 20) ? .prewarmUnused : .coldLaunch
            if second > 30 { session.incompleteEvidence = ["late"] }
            let origin = EventOrigin(input: "x", line: Int(second), byteOffset: 0)
            session.milestones = [.init(name: .processStart, time: LogTimestamp(microsecondsSinceEpoch: second * 1_000_000, utcOffsetSeconds: 0, text: "\(second)"), evidence: origin)]
            return session
        }
        // Closed in this order. With a limit of 3: 40 starts after 10, 20 and 30 (not kept); 5 replaces 30; 30 and 50
        // start after 5, 10 and 20 (not kept); 1 replaces 20; com.b at 10 is kept (as late as the latest of 1, 5, 10,
        // but listed before com.c at 10).
        let closed = [session("com.c", at: 10), session("com.a", at: 20), session("com.a", at: 30), session("com.c", at: 40),
                      session("com.a", at: 5), session("com.c", at: 30), session("com.a", at: 50), session("com.c", at: 1),
                      session("com.b", at: 10)]
        var limited = ClosedSessionSpool(runLength: runLength, directory: nil, listingLimit: 3)
        var whole = ClosedSessionSpool(runLength: runLength, directory: nil)
        for one in closed {
            let findings = [Finding(ruleID: "r", severity: .warning, message: "at \(one.start!.text)", sessionID: "", sessionKind: .unknown,
                                    app: one.app, evidence: [])]
            limited.add(one, findings: findings)
            whole.add(one, findings: findings)
        }
        limited.close()
        whole.close()
        #expect(limited.notKept == 3 && whole.notKept == 0)
        let listed = ClosedSessionSpool.listing([limited], limit: 3, sessionsInMemory: 100, directory: nil)
        let expected = ClosedSessionSpool.listing([whole], limit: 3, sessionsInMemory: 100, directory: nil)
        #expect(Array(listed.sessions).map { $0.start?.text } == ["1", "5", "10"])
        #expect(Array(listed.sessions).map { $0.app.bundleID } == ["com.c", "com.a", "com.b"])
        #expect(listed.sessions == expected.sessions && listed.ids == expected.ids)
        #expect(listed.findings == expected.findings && listed.findings.count == closed.count)
        #expect(Array(listed.findings).map(\.sessionID).contains("com.c#4"), "unkept sessions still take their ids")
        #expect(listed.total == 9 && listed.notListed.count == 6 && expected.notListed == listed.notListed)
        // Not listed: 20, 30, 30, 40, 50 and com.c at 10 (after com.b).
        #expect(listed.notListed.byKind == [.prewarmUnused: 2, .coldLaunch: 4] && listed.notListed.evidenceIncomplete == 2)
    }

    @Test("damaged bytes throw instead of reading past their end")
    func damaged() {
        var writer = SpoolWriter()
        LaunchSession(app: AppIdentity(bundleID: "com.example.ledger")).spool(into: &writer)
        for cut in 0..<writer.bytes.count {
            Array(writer.bytes[..<cut]).withUnsafeBytes { bytes in
                var reader = SpoolReader(bytes)
                #expect(throws: SpoolReader.DamagedSpool.self) { try LaunchSession(unspooling: &reader) }
            }
        }
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        huge.withUnsafeBytes { bytes in
            var reader = SpoolReader(bytes)
            #expect(throws: SpoolReader.DamagedSpool.self) { try reader.string() }
        }
    }
}
