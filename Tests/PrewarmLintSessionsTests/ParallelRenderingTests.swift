import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// `LintReport.renderingJobs`: the JSON report's sessions and findings written by several threads, a
/// window at a time, must be the same text as written by one.
@Suite("rendering the JSON report on several threads")
struct ParallelRenderingTests {
    @Test("1, 2, 3 and 7 threads write the same bytes, in pieces of about 64 KiB")
    func sameText() throws {
        let folder = try TemporaryFolder("prewarm-lint-render")
        defer { folder.remove() }
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: 51, targetBytes: 3_000_000, format: .ndjson, apps: 40, sessionsPerDay: 4_000))
        let path = try folder.write(bytes, named: "day.ndjson")
        var report = LintRun(options: GatedReadingTests.dayOptions, toolVersion: "test").run([DiscoveredInput(input: .file(path), foundInDirectory: false)])
        #expect(report.sessions.count > 300)
        #expect(report.findings.count > 300)
        // Repeated, for several windows of 256 elements per thread and a last window cut short
        // (the renderer does not mind that they repeat).
        report.sessions = ReportList(Array(repeating: report.sessions, count: 7).flatMap { $0 })
        report.sessionIDs = ReportList(Array(repeating: report.sessionIDs, count: 7).flatMap { $0 })
        report.findings = ReportList(Array(repeating: report.findings, count: 7).flatMap { $0 })
        report.renderingJobs = 1
        var pieces: [String] = []
        report.render { pieces.append($0) }
        let single = pieces.joined()
        #expect(pieces.count > 10)
        for jobs in [2, 3, 7] {
            report.renderingJobs = jobs
            var parallelPieces: [String] = []
            report.render { parallelPieces.append($0) }
            #expect(parallelPieces.joined() == single, "\(jobs) threads")
            // Flushed as it goes: no piece much longer than 64 KiB plus one window of elements.
            #expect(parallelPieces.dropLast().allSatisfy { $0.utf8.count < 4 << 20 }, "\(jobs) threads")
        }
        // And it is JSON, with every session once.
        let object = try JSONSerialization.jsonObject(with: Data(single.utf8)) as? [String: Any]
        #expect((object?["sessions"] as? [Any])?.count == report.sessions.count)
    }
}
