import Foundation
import PrewarmLint
import Synchronization
import Testing

@Suite("a log linted while it arrives")
struct LiveLintTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus")
    static let analyzer = LogAnalyzer(options: ReadOptions(timeInference: TimeInference(
        date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024, utcOffsetSeconds: 0, referenceInstant: 1_710_720_000_000_000)))

    /// What a finding is, whenever it is given: its rule, app, pid and deciding line.
    struct Decision: Hashable, CustomStringConvertible {
        var rule: String
        var app: String
        var pid: Int?
        var line: Int?

        init(_ finding: Finding) {
            rule = finding.ruleID
            app = finding.appName
            pid = finding.app.pid
            line = finding.location?.line
        }

        var description: String { "\(rule) \(app)[\(pid.map(String.init) ?? "-")] line \(line.map(String.init) ?? "-")" }
    }

    /// A live run's updates and final report.
    struct LiveRun {
        var early: [Finding] = []
        var closed: [LiveLint.ClosedSession] = []
        var report: LintReport
    }

    /// `bytes` fed to a live run a line at a time; `pauses` says before which lines the input went quiet.
    static func live(_ bytes: [UInt8], named name: String, pauses: ([UInt8]) -> Bool) throws -> LiveRun {
        var live = LiveLint(inputName: name, analyzer: analyzer)
        var early: [Finding] = [], closed: [LiveLint.ClosedSession] = []
        func take(_ update: LiveLint.Update) {
            switch update {
            case .finding(let finding): early.append(finding)
            case .session(let session): closed.append(session)
            case .diagnostic, .report: break
            }
        }
        var start = 0
        while start < bytes.count {
            let end = (bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 }) ?? bytes.count
            let line = Array(bytes[start..<end])
            if pauses(line) { try live.pause(quietFor: 300_000, take) }
            try line.withUnsafeBytes { try live.push($0, take) }
            start = end
        }
        let report = try live.finish(take)
        return LiveRun(early: early, closed: closed, report: report)
    }

    /// Every corpus log (and bundled real log) read as a file, and fed to a live run a line at a time: the same
    /// findings (rule, app, pid, deciding line) and the same summary; a finding given early is one of the final
    /// findings.
    @Test("fed a line at a time, every corpus log gives the batch run's findings and summary", arguments: [false, true])
    func sameAnswerLineByLine(pausing: Bool) throws {
        let text = FindingTextReporter()
        var compared = 0, early = 0, findings = 0
        for input in InputDiscovery.expand([Self.corpus.path]).inputs {
            guard case .file(let path) = input.input, let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                  let batch = try? Self.analyzer.lint(bytes: bytes, named: path) else { continue }
            // A pause before a line that starts a record in every text format read here (a date, a month, a JSON object).
            let run = try Self.live(bytes, named: path) { line in
                pausing && line.first.map { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "{") } == true
            }
            // A paste holding the crash report of a process another block names: read as it comes, its blocks are not
            // merged by time (a stream is not cut), and the live run says so.
            if run.report.diagnostics.contains(where: { $0.message.contains("read as the paste came, the blocks were not merged by time") }) {
                continue
            }
            let batchDecisions = batch.findings.map(Decision.init)
            let liveDecisions = run.report.findings.map(Decision.init)
            #expect(Set(liveDecisions) == Set(batchDecisions), "\(path): live \(liveDecisions), batch \(batchDecisions)")
            #expect(text.summary(run.report) == text.summary(batch), "\(path)")
            let closedDecisions = Set(run.closed.flatMap { $0.findings.map(Decision.init) })
            #expect(closedDecisions == Set(batchDecisions), "\(path): closed sessions' findings differ")
            for finding in run.early {
                #expect(Set(batchDecisions).contains(Decision(finding)), "\(path): given early and not final: \(Decision(finding))")
            }
            compared += 1
            early += run.early.count
            findings += batchDecisions.count
        }
        #expect(compared > 60)
        print("live: \(compared) logs, \(early) of \(findings) findings given early, pausing \(pausing)")
        // Without a pause, a log shorter than the 64 KiB its format is sniffed from is read at its end.
        if pausing { #expect(early > 10, "few findings given early (\(early) of \(findings))") }
    }

    @Test("the live clock: nothing before the first bytes, a tick each quiet period while bytes keep coming, a pause after a quiet period and again each second of quiet")
    func liveClock() {
        var clock = LiveClock()
        let start = ContinuousClock().now
        func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
        #expect(clock.due(at: at(5_000)) == nil, "due before any bytes")
        // Bytes every 100 ms for a second: a tick every 250 ms or so, never a pause.
        var ticks = 0
        for milliseconds in stride(from: 0, through: 1_000, by: 100) {
            clock.arrived(at: at(milliseconds))
            switch clock.due(at: at(milliseconds)) {
            case .tick: ticks += 1
            case .pause: Issue.record("a pause while bytes kept coming, at \(milliseconds) ms")
            case nil: break
            }
        }
        #expect(ticks == 3, "ticks: \(ticks)")
        // Then quiet: a tick still (the lines held go on), no pause before 250 ms, one at it, none again until a second later.
        #expect(clock.due(at: at(1_200)) == .tick)
        #expect(clock.due(at: at(1_240)) == nil)
        #expect(clock.due(at: at(1_250)) == .pause(quietFor: .milliseconds(250)))
        #expect(clock.due(at: at(1_900)) == nil)
        #expect(clock.due(at: at(2_250)) == .pause(quietFor: .milliseconds(1_250)))
        // Bytes again: the pauses start over.
        clock.arrived(at: at(3_000))
        #expect(clock.due(at: at(3_100)) == .tick)
        #expect(clock.due(at: at(3_200)) == nil)
        #expect(clock.due(at: at(3_250)) == .pause(quietFor: .milliseconds(250)))
        #expect(LiveClock.microseconds(.seconds(Int64.max)) == .max)
    }

    @Test("a live run told when bytes came: a session whose process exited closes at the first pause past its grace, as the command line and the library both time it")
    func sessionsCloseByTheRunsClock() throws {
        let unused = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("scenarios/prewarm-unused-jetsam/log.ndjson")))
        var live = LiveLint(inputName: "t", analyzer: Self.analyzer)
        var closedAt: [Int] = []
        var now = 0
        func take(_ update: LiveLint.Update) { if case .session = update { closedAt.append(now) } }
        let start = ContinuousClock().now
        try unused.withUnsafeBytes { try live.push($0, arrivedAt: start, take) }
        // Asked every 100 ms, as `--follow` polls and the library's ticker wakes.
        for milliseconds in stride(from: 100, through: 5_000, by: 100) {
            now = milliseconds
            try live.wait(until: start + .milliseconds(milliseconds), take)
        }
        // The grace (2 s of log time) has passed at the pause 2.25 s after the last bytes: the first pause that late.
        #expect(closedAt == [2_300], "closed at \(closedAt) ms")
    }

    @Test("a session whose process exited closes after the grace, on the wall clock during a pause; one still alive stays open")
    func endedSessionsCloseAfterTheGrace() throws {
        // A prewarm killed by jetsam (an exit line), and a cold launch whose process is still alive.
        let unused = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("scenarios/prewarm-unused-jetsam/log.ndjson")))
        var live = LiveLint(inputName: "t", analyzer: Self.analyzer)
        var closed: [LiveLint.ClosedSession] = []
        func take(_ update: LiveLint.Update) { if case .session(let session) = update { closed.append(session) } }
        try unused.withUnsafeBytes { try live.push($0, take) }
        try live.pause(quietFor: 300_000, take)
        #expect(closed.isEmpty, "closed before its grace: \(closed.map(\.id))")
        try live.pause(quietFor: LiveLint.endedSessionGrace + 1_000_000, take)
        #expect(closed.map(\.session.kind) == [.prewarmUnused])
        #expect(closed.first?.findings.map(\.ruleID) == ["prewarm-wasted"])
        #expect(live.status.openSessions == 0)

        let cold = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("scenarios/cold-launch/log.ndjson")))
        var alive = LiveLint(inputName: "t", analyzer: Self.analyzer)
        var aliveClosed: [LiveLint.ClosedSession] = []
        try cold.withUnsafeBytes { try alive.push($0) { if case .session(let session) = $0 { aliveClosed.append(session) } } }
        try alive.pause(quietFor: 3_600_000_000) { if case .session(let session) = $0 { aliveClosed.append(session) } }
        #expect(aliveClosed.isEmpty)
        #expect(alive.status.openSessions == 1)
    }

    @Test("the library's live stream: a finding arrives while the input is still open, and the report ends the stream")
    func asyncLiveStream() async throws {
        let path = Self.corpus.appendingPathComponent("scenarios/prewarm-then-launch-scene-app/log.ndjson").path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
        // The input: its lines, then it stays open until the finding has been seen (at most 10 s).
        let seen = SeenFlag(), ended = SeenFlag()
        let chunks = AsyncStream<[UInt8]> { continuation in
            Task {
                for line in lines { continuation.yield(line) }
                for _ in 0..<1000 where !seen.value.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(10)) }
                ended.value.store(true, ordering: .relaxed)
                continuation.finish()
            }
        }
        var findings: [Finding] = []
        var report: LintReport?
        var beforeTheEnd = false
        for try await update in Self.analyzer.live(chunks, named: path) {
            switch update {
            case .finding(let finding):
                findings.append(finding)
                if finding.ruleID == "keychain-while-locked" {
                    beforeTheEnd = !ended.value.load(ordering: .relaxed)
                    seen.value.store(true, ordering: .relaxed)
                }
            case .report(let final): report = final
            case .session, .diagnostic: break
            }
        }
        #expect(beforeTheEnd, "no keychain-while-locked finding while the input was open: \(findings.map(\.ruleID))")
        let batch = try Self.analyzer.lint(bytes: bytes, named: path)
        let final = try #require(report)
        #expect(FindingTextReporter().summary(final) == FindingTextReporter().summary(batch))
        #expect(Set(final.findings.map(Decision.init)) == Set(batch.findings.map(Decision.init)))
    }
}

/// A flag the test sets and the input's task reads.
final class SeenFlag: Sendable {
    let value = Atomic<Bool>(false)
}

@Suite("a live run with many open sessions")
struct LiveLintOpenSessionsTests {
    /// `count` apps prewarmed one after another, each reading the locked keychain, none ever activated or ended: every
    /// session stays open to the end and has findings given early.
    static func neverEndingPrewarms(_ count: Int) -> [UInt8] {
        var text = ""
        for index in 0..<count {
            let pid = 10_000 + index, bundle = "com.example.app\(index)"
            let start = Int64(index) * 200_000
            func time(_ offset: Int64) -> String {
                let microseconds = start + offset * 1000
                let seconds = microseconds / 1_000_000
                return String(format: "%02d:%02d:%02d.%06d-0700", 7 + seconds / 3600, seconds / 60 % 60, seconds % 60, microseconds % 1_000_000)
            }
            text += "33\tdefault\t\(time(0))\trunningboardd\tExecuting launch request for app<\(bundle)(501)> (DAS Prewarm launch)\n"
            text += "33\tdefault\t\(time(1))\trunningboardd\tNow tracking process: [app<\(bundle)(501)>:\(pid)]\n"
            text += "\(pid)\tdefault\t\(time(2))\tApp\(index)\tdidFinishLaunchingWithOptions applicationState=2 ActivePrewarm=1\n"
            text += "115\terror\t\(time(3))\tsecurityd\tApp\(index)[\(pid)]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308 \"ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.\"\n"
        }
        return Array(text.utf8)
    }

    @Test("16,000 sessions that never end: the live run's work per line does not grow with them (within 10× of twice the batch run), the same answer")
    func manyOpenSessions() throws {
        let bytes = Self.neverEndingPrewarms(16_000)
        let clock = ContinuousClock()
        var batch: LintReport?
        let batchTime = try clock.measure { batch = try LiveLintTests.analyzer.lint(bytes: bytes, named: "open") }
        var live = LiveLint(inputName: "open", analyzer: LiveLintTests.analyzer)
        var early = 0
        var report: LintReport?
        let liveTime = try clock.measure {
            var start = 0
            while start < bytes.count {
                let end = min(start + 4096, bytes.count)
                try bytes[start..<end].withUnsafeBytes { chunk in
                    try live.push(chunk) { if case .finding = $0 { early += 1 } }
                }
                start = end
            }
            report = try live.finish { _ in }
        }
        #expect(report?.findings.count == batch?.findings.count)
        #expect(report?.findings.count == 48_000)
        #expect(early > 0)
        #expect(liveTime < batchTime * 20, "live \(liveTime), batch \(batchTime)")
    }
}

@Suite("a live run used wrongly")
struct LiveLintMisuseTests {
    static let scene = LiveLintTests.corpus.appendingPathComponent("scenarios/prewarm-then-launch-scene-app/log.txt")

    @Test("a pause of Int64.max closes what ended and traps nothing; a negative pause is refused as misuse")
    func absurdPauses() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.scene))
        var live = LiveLint(inputName: "scene", analyzer: LiveLintTests.analyzer)
        try bytes.withUnsafeBytes { try live.push($0) { _ in } }
        #expect(throws: ReaderError.self) { try live.pause(quietFor: -1) { _ in } }
        do {
            try live.pause(quietFor: -1) { _ in }
        } catch {
            #expect(error.code == .misuse)
        }
        try live.pause(quietFor: .max) { _ in }
        let report = try live.finish { _ in }
        #expect(report.findings.count == 4)
    }

    @Test("bytes, ticks and pauses after finish are refused as misuse, and a second finish too; the report stands")
    func afterFinish() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.scene))
        var live = LiveLint(inputName: "scene", analyzer: LiveLintTests.analyzer)
        try bytes.withUnsafeBytes { try live.push($0) { _ in } }
        let report = try live.finish { _ in }
        #expect(report.findings.count == 4)
        var refused: [ReaderError.Code] = []
        var updates = 0
        for call in 0..<4 {
            do {
                switch call {
                case 0: try bytes.withUnsafeBytes { try live.push($0) { _ in updates += 1 } }
                case 1: try live.tick { _ in updates += 1 }
                case 2: try live.pause(quietFor: 1_000_000) { _ in updates += 1 }
                default: _ = try live.finish { _ in updates += 1 }
                }
            } catch {
                refused.append((error as? ReaderError)?.code ?? ReaderError.Code(rawValue: "other"))
            }
        }
        #expect(refused == [.misuse, .misuse, .misuse, .misuse])
        #expect(updates == 0)
    }
}

@Suite("a live run's pauses")
struct LiveLintPauseTests {
    @Test("a pause of 0.4 s inside RunningBoard's multi-line descriptor does not end it: the prewarm evidence on its next lines is kept, as in a batch run; 5 s does")
    func pauseInsideADescriptor() throws {
        // The scenario's Console copy without dasd's and RunningBoard's single-line prewarm lines and the app's own
        // `ActivePrewarm=1`, the descriptor named otherwise: only its `DYLDLaunch` attribute line shows the prewarm.
        let path = LiveLintTests.corpus.appendingPathComponent("scenarios/prewarm-then-launch-scene-app/log.txt")
        let bytes = try String(decoding: Data(contentsOf: path), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("Attempting prewarm") && !$0.contains("Executing launch request") && !$0.contains("ActivePrewarm") }
            .joined(separator: "\n").replacingOccurrences(of: "\"DAS Prewarm launch\"", with: "\"Launching\"").utf8.map { $0 }
        let batch = try LiveLintTests.analyzer.lint(bytes: bytes, named: "log")
        let session = try #require(Array(batch.sessions).first)
        #expect(session.kind == .prewarmThenLaunch && session.confidence == .certain)
        // The line that opens the descriptor (`with description <RBSAssertionDescriptor| "DAS`), its attribute lines after.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
        let opening = try #require(lines.firstIndex { String(decoding: $0, as: UTF8.self).contains("<RBSAssertionDescriptor| \"Launching") })
        for (pause, certain) in [(Int64(400_000), true), (1_500_000, true), (LiveLint.unfinishedRecordGrace, false)] {
            var live = LiveLint(inputName: "log", analyzer: LiveLintTests.analyzer)
            for (index, line) in lines.enumerated() {
                try line.withUnsafeBytes { try live.push($0) { _ in } }
                if index == opening { try live.pause(quietFor: pause) { _ in } }
            }
            let report = try live.finish { _ in }
            let kind = try #require(Array(report.sessions).first)
            if certain {
                #expect(kind.kind == session.kind && kind.confidence == session.confidence, "a pause of \(pause) µs: \(kind.kind) \(kind.confidence), batch \(session.kind) \(session.confidence)")
                #expect(Set(report.findings.map(LiveLintTests.Decision.init)) == Set(batch.findings.map(LiveLintTests.Decision.init)))
            } else {
                // Ended by the long pause: its attribute lines come as lines of their own.
                #expect(report.diagnostics.contains { $0.code == .orphanLines || $0.code == .malformedLine } || kind.confidence != .certain,
                        "\(report.diagnostics.map(\.code))")
            }
        }
    }
}
