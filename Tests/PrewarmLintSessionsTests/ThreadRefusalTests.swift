import Foundation
import PrewarmLint
import PrewarmLintModel
import PrewarmLintTesting
import Testing

/// The system may refuse a thread (a user's process limit, a container's pid limit). Every place that starts one
/// then does the work on the calling thread, with the same result: before, Foundation's `Thread` and
/// `concurrentPerform` left the caller waiting forever (a lint under `prlimit --nproc=1` never ended). Each run here
/// is given a minute on a thread of the test's own: one that waits fails the test instead of hanging the test run.
@Suite("threads the system refuses")
struct ThreadRefusalTests {
    static let refusing = ThreadStarter(refusesThreads: true)

    /// What `body` returns, or nil when it has not returned within `seconds` (it is then left waiting).
    static func finishes<T>(within seconds: Double = 60, _ body: @escaping @Sendable () -> T) -> T? {
        let slot = Slot<T>(), done = DispatchSemaphore(value: 0)
        Thread {
            slot.value = body()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + seconds) == .success ? slot.value : nil
    }

    /// Written by the thread before it signals; read after the signal.
    private final class Slot<T>: @unchecked Sendable { var value: T? }

    @Test("a single input read ahead: read on the calling thread, the same result and order")
    func readAhead() throws {
        let folder = try TemporaryFolder("prewarm-lint-thread-refusal")
        defer { folder.remove() }
        let (input, _) = try ReadAheadTests.writtenDay(.init(seed: 53, targetBytes: 400_000, format: .logShow, apps: 10, sessionsPerDay: 600),
                                                         named: "day.log", in: folder)
        let one = ReadAheadTests.observe([input], options: GatedReadingTests.dayOptions, jobs: 1)
        let refused = try #require(Self.finishes { ReadAheadTests.observe([input], options: GatedReadingTests.dayOptions, jobs: 2, threads: Self.refusing) })
        #expect(one.handedOn.count > 50)
        #expect(refused == one)
    }

    /// Two halves of a day, merged as one device's logs: a thread each when they can be had, else collected and sorted.
    @Test("inputs merged as one device's logs: collected on the calling thread, the same result", arguments: [1, 2])
    func merged(jobs: Int) throws {
        let folder = try TemporaryFolder("prewarm-lint-thread-refusal")
        defer { folder.remove() }
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: 59, targetBytes: 400_000, format: .ndjson, apps: 10, sessionsPerDay: 600))
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let half = lines.count / 2
        let first = Array(lines[..<half].joined(separator: [0x0A])) + [0x0A]
        let second = Array(lines[half...].joined(separator: [0x0A]))
        let inputs = [try ReadAheadTests.input(first, named: "first.ndjson", in: folder),
                      try ReadAheadTests.input(second, named: "second.ndjson", in: folder)]
        let streamed = ReadAheadTests.observe(inputs, options: GatedReadingTests.dayOptions, jobs: jobs)
        let refused = try #require(Self.finishes { ReadAheadTests.observe(inputs, options: GatedReadingTests.dayOptions, jobs: jobs, threads: Self.refusing) })
        #expect(streamed.handedOn.count > 50)
        #expect(refused.outcome == streamed.outcome)
        #expect(refused.summaries == streamed.summaries)
    }

    /// `--separately` reads inputs several at once, and a report of more than 512 sessions is written by several
    /// threads: both on the calling thread alone when refused.
    @Test("a whole lint, inputs read separately and a large report: the same bytes as on one job", arguments: [false, true])
    func lintReport(separately: Bool) throws {
        let folder = try TemporaryFolder("prewarm-lint-thread-refusal")
        defer { folder.remove() }
        var collected: [DiscoveredInput] = []
        for seed in 0..<3 {
            collected.append(try ReadAheadTests.writtenDay(.init(seed: 61 + UInt64(seed), targetBytes: 500_000, format: .ndjson, apps: 20,
                                                                   sessionsPerDay: 8_000), named: "dense-\(seed).ndjson", in: folder).input)
        }
        let inputs = collected
        @Sendable func report(jobs: Int, threads: ThreadStarter = ThreadStarter()) -> String {
            var run = LintRun(options: GatedReadingTests.dayOptions, toolVersion: "test", separately: separately)
            run.jobs = jobs
            run.threads = threads
            var text = ""
            run.run(inputs).render { text += $0 }
            return text
        }
        let one = report(jobs: 1)
        #expect(one.utf8.count > 500_000)
        let refused = try #require(Self.finishes { report(jobs: 2, threads: Self.refusing) })
        #expect(refused == one)
    }
}
