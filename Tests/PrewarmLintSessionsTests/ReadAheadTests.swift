import Foundation
import PrewarmLint
import PrewarmLintModel
import PrewarmLintTesting
import Testing

/// `SessionPipeline.readAheadMinimumBytes`: with more than one job, a single input is read and classified on a
/// thread of its own while the calling thread builds its sessions. Everything the pipeline returns, and the order
/// in which `onSession` and `onDiagnostic` see sessions and diagnostics, must be what one thread gives.
@Suite("reading a single input ahead on a second thread")
struct ReadAheadTests {
    /// A run's result with what its callbacks saw, in order.
    struct Observed: Equatable {
        var outcome: GatedReadingTests.Outcome
        var closedEarly: Int
        /// Each input's summary but its statistics (in `outcome`): it is not `Equatable`.
        var summaries: [SummaryFields]
        /// Each session as `onSession` saw it, in the order it closed.
        var handedOn: [LaunchSession]
        /// Each diagnostic as `onDiagnostic` saw it.
        var said: [ReaderDiagnostic]
        /// The two callbacks' calls interleaved: "s" for a session, "d" for a diagnostic.
        var calls: String
    }

    struct SummaryFields: Equatable {
        var input: String, format: LogFormat?, isCompressed: Bool, failure: String?, skippedAsNotALog: Bool, interrupted: Bool
        init(_ summary: InputSummary) {
            (input, format, isCompressed, failure) = (summary.input, summary.format, summary.isCompressed, summary.failure.map { "\($0)" })
            (skippedAsNotALog, interrupted) = (summary.skippedAsNotALog, summary.interrupted)
        }
    }

    static func observe(_ input: DiscoveredInput, options: ReadOptions, readingAhead: Bool, maximumOpenSessions: Int = 10_000) -> Observed {
        observe([input], options: options, jobs: readingAhead ? 2 : 1, maximumOpenSessions: maximumOpenSessions)
    }

    /// A run of `inputs` with `jobs`, reading ahead whatever the input's size; `threads` starts its threads.
    static func observe(_ inputs: [DiscoveredInput], options: ReadOptions, jobs: Int, maximumOpenSessions: Int = 10_000,
                        threads: ThreadStarter = ThreadStarter()) -> Observed {
        var pipeline = SessionPipeline(reader: InputReader(options: options), maximumOpenSessions: maximumOpenSessions)
        pipeline.jobs = jobs
        pipeline.threads = threads
        pipeline.readAheadMinimumBytes = 0
        var handedOn: [LaunchSession] = []
        var said: [ReaderDiagnostic] = []
        var calls = ""
        let result = pipeline.run(inputs, onDiagnostic: { diagnostic in
            said.append(diagnostic)
            calls += "d"
        }, onSession: { session in
            handedOn.append(session)
            calls += "s"
            return session
        })
        return Observed(outcome: GatedReadingTests.Outcome(result), closedEarly: result.sessionsClosedEarly, summaries: result.summaries.map(SummaryFields.init),
                        handedOn: handedOn, said: said, calls: calls)
    }

    /// A generated day written as `name` in `folder`, as an input named on the command line, with the sessions it holds.
    static func writtenDay(_ configuration: DeviceLogGenerator.Configuration, named name: String,
                             in folder: TemporaryFolder) throws -> (input: DiscoveredInput, sessions: Int) {
        let (bytes, truth) = DeviceLogGenerator.generate(configuration)
        return (try input(bytes, named: name, in: folder), truth.count)
    }

    /// `bytes` written as `name` in `folder`, as an input named on the command line.
    static func input(_ bytes: some Sequence<UInt8>, named name: String, in folder: TemporaryFolder) throws -> DiscoveredInput {
        DiscoveredInput(input: .file(try folder.write(bytes, named: name)), foundInDirectory: false)
    }

    static let corpusFiles: [String] = {
        let root = GatedReadingTests.packageRoot.appendingPathComponent("Corpus")
        let walker = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                  !path.hasSuffix(".md"), !path.hasSuffix(".yml") else { continue }
            files.append(path)
        }
        return files.sorted()
    }()

    @Test("every file of Corpus/ (logs, reports and what is not a log): the same result, sessions and diagnostics in the same order")
    func corpus() throws {
        #expect(Self.corpusFiles.count > 200)
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2022, month: 6, day: 8), year: 2022))
        var withSessions = 0, withDiagnostics = 0
        for file in Self.corpusFiles {
            let path = GatedReadingTests.packageRoot.appendingPathComponent("Corpus").appendingPathComponent(file).path
            let input = DiscoveredInput(input: .file(path), foundInDirectory: true)
            let one = Self.observe(input, options: options, readingAhead: false)
            let two = Self.observe(input, options: options, readingAhead: true)
            #expect(one == two, "\(file)")
            if !one.handedOn.isEmpty { withSessions += 1 }
            if !one.said.isEmpty { withDiagnostics += 1 }
        }
        // The comparison must have had something to compare.
        #expect(withSessions > 50)
        #expect(withDiagnostics > 20)
    }

    @Test("a generated device day, every format: the same result and order", arguments: DeviceLogFormat.allCases)
    func generatedDay(format: DeviceLogFormat) throws {
        let folder = try TemporaryFolder("prewarm-lint-read-ahead")
        defer { folder.remove() }
        let (input, sessions) = try Self.writtenDay(.init(seed: 37, targetBytes: 600_000, format: format, apps: 10, sessionsPerDay: 600),
                                                      named: "day.\(format.rawValue)", in: folder)
        let one = Self.observe(input, options: GatedReadingTests.dayOptions, readingAhead: false)
        let two = Self.observe(input, options: GatedReadingTests.dayOptions, readingAhead: true)
        #expect(one.handedOn.count >= sessions / 2, "the day must hold sessions to compare")
        #expect(one == two)
    }

    /// Launches back to back, the app's line of every seventh holding a byte that is not UTF-8 (a warning each), so
    /// that events and diagnostics interleave inside batches; with few sessions allowed open, sessions also close early.
    /// The order of the two callbacks' calls is what shows where each diagnostic was put back among the events.
    @Test("dense launches, a diagnostic every few lines, sessions closed early: the same result and order")
    func denseWithDiagnostics() throws {
        var log = Array("Timestamp               Ty Process[PID:TID]\n".utf8)
        for index in 0..<3_000 {
            let app = "com.example.app\(index % 37)", pid = 1_000 + index
            let second = index / 10, fraction = (index % 10) * 100_000
            let time = String(format: "2024-03-01 %02d:%02d:%02d.%06d", second / 3600, second / 60 % 60, second % 60, fraction)
            log += "\(time) Df runningboardd[33:2b28] [com.apple.runningboard:process] Executing launch request for app<\(app)(501)> (DAS Prewarm launch)\n".utf8
            log += "\(time) Df runningboardd[33:2b28] [com.apple.runningboard:process] Now tracking process: [app<\(app)(501)>:\(pid)]\n".utf8
            log += "\(time) Df \(app.split(separator: ".").last!)[\(pid):1] [\(app):lifecycle] applicationState is background".utf8
            if index % 7 == 0 { log += [0x20, 0xFF] }
            // Two long messages early: the batch holding them is handed over by its bytes, before it holds 256
            // events, so that later batches end out of step with the reorder window's releases, and diagnostics
            // come after a release within a batch.
            if index == 3 || index == 4 { log += Array(repeating: UInt8(ascii: "x"), count: 600_000) }
            log.append(0x0A)
        }
        let folder = try TemporaryFolder("prewarm-lint-read-ahead")
        defer { folder.remove() }
        let input = try Self.input(log, named: "dense.log", in: folder)
        let options = ReadOptions(timeInference: TimeInference(year: 2024))
        let one = Self.observe(input, options: options, readingAhead: false, maximumOpenSessions: 5)
        let two = Self.observe(input, options: options, readingAhead: true, maximumOpenSessions: 5)
        #expect(one.handedOn.count > 2_000)
        #expect(one.closedEarly > 0)
        #expect(one.said.count > 300)
        #expect(one.calls.contains("sd") && one.calls.contains("ds"))
        #expect(one == two)
    }

    @Test("an input interrupted before it is read: the same (empty) result, and the run returns")
    func interrupted() throws {
        let folder = try TemporaryFolder("prewarm-lint-read-ahead")
        defer { folder.remove() }
        let (input, _) = try Self.writtenDay(.init(seed: 41, targetBytes: 200_000, format: .logShow, apps: 5, sessionsPerDay: 100),
                                               named: "day.log", in: folder)
        var options = GatedReadingTests.dayOptions
        let flag = Interruption()
        flag.raise()
        options.interruption = flag
        let one = Self.observe(input, options: options, readingAhead: false)
        let two = Self.observe(input, options: options, readingAhead: true)
        #expect(one == two)
    }

    @Test("a whole lint of a launch-dense file bigger than the threshold: the same report bytes on one job and on two")
    func lintReport() throws {
        let folder = try TemporaryFolder("prewarm-lint-read-ahead")
        defer { folder.remove() }
        let (input, _) = try Self.writtenDay(.init(seed: 43, targetBytes: 2_500_000, format: .ndjson, apps: 30, sessionsPerDay: 20_000),
                                               named: "dense.ndjson", in: folder)
        func report(jobs: Int) -> String {
            var run = LintRun(options: GatedReadingTests.dayOptions, toolVersion: "test")
            run.jobs = jobs
            let report = run.run([input])
            var text = ""
            report.render { text += $0 }
            return text
        }
        let one = report(jobs: 1)
        #expect(one.utf8.count > 500_000)
        #expect(report(jobs: 2) == one)
    }
}
