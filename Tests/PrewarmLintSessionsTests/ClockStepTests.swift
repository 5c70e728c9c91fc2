import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// A log whose time goes back (a clock step: the device's clock set back, two captures joined) gives the same final
/// answer live and batch, however the lines arrive.
@Suite("a log whose time goes back")
struct ClockStepTests {
    static let analyzer = LogAnalyzer(options: ReadOptions(timeInference: TimeInference(
        date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024, utcOffsetSeconds: 0, referenceInstant: 1_710_720_000_000_000)))

    /// What a finding is, whenever it is given: its rule, app, pid and deciding line.
    static func decision(_ finding: Finding) -> String {
        "\(finding.ruleID) \(finding.appName)[\(finding.app.pid ?? -1)] line \(finding.location?.line ?? -1)"
    }

    /// `bytes` fed to a live run a line at a time, a pause of 0.3 s before the lines `pauses` picks and a tick after
    /// each other line it picks.
    static func live(_ bytes: [UInt8], pauses: (Int) -> Bool, ticks: (Int) -> Bool) throws -> LintReport {
        var live = LiveLint(inputName: "day.ndjson", analyzer: analyzer)
        var index = 0, start = 0
        while start < bytes.count {
            let end = (bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 }) ?? bytes.count
            if pauses(index) { try live.pause(quietFor: 300_000) { _ in } }
            try Array(bytes[start..<end]).withUnsafeBytes { try live.push($0) { _ in } }
            if ticks(index) { try live.tick { _ in } }
            start = end
            index += 1
        }
        return try live.finish { _ in }
    }

    /// A generated `log show --style ndjson` day with every line from line `from` on that `shifts` picks stamped
    /// `seconds` earlier.
    static func steppedBack(seed: UInt64, from: Int, seconds: Double, shifts: ([UInt8]) -> Bool = { _ in true }) -> [UInt8] {
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: seed, targetBytes: 600_000, format: .ndjson, apps: 10, sessionsPerDay: 300))
        var out: [UInt8] = []
        let key = Array("\"timestamp\":\"".utf8)
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var line = Array(line)
            if index >= from, shifts(line), let at = line.indices.first(where: { line[$0...].starts(with: key) }) {
                // `2024-03-18 07:41:02.118420-0700`: the clock's hours, minutes and microseconds, less `seconds`.
                let clock = at + key.count + 11
                let text = String(decoding: line[clock..<(clock + 15)], as: UTF8.self)
                let parts = text.split(separator: ":")
                let micros = (Int64(parts[0])! * 3600 + Int64(parts[1])! * 60) * 1_000_000 + Int64(Double(parts[2])! * 1_000_000)
                    - Int64(seconds * 1_000_000)
                let stepped = String(format: "%02lld:%02lld:%09.6f", micros / 3_600_000_000, micros / 60_000_000 % 60,
                                     Double(micros % 60_000_000) / 1_000_000)
                line.replaceSubrange(clock..<(clock + 15), with: Array(stepped.utf8))
            }
            out += line
            out.append(0x0A)
        }
        out.removeLast()
        return out
    }

    @Test("a clock set back 8.6 s in the middle of a device day: the live run's findings and summary are the batch run's, with ticks and pauses anywhere",
          arguments: [(UInt64(3), 700), (UInt64(5), 1500), (UInt64(7), 2600)])
    func sameAnswerLiveAndBatch(seed: UInt64, from: Int) throws {
        try Self.compare(Self.steppedBack(seed: seed, from: from, seconds: 8.6))
    }

    @Test("one app's lines 8.6 s behind the others' (its clock, or its lines, late): the live run's answer is the batch run's",
          arguments: ["com.acme", "com.example", "runningboardd"])
    func oneAppBehind(app: String) throws {
        let name = Array(app.utf8)
        let batch = try Self.compare(Self.steppedBack(seed: 11, from: 300, seconds: 8.6) { line in
            line.indices.contains { line[$0...].starts(with: name) }
        })
        let said = batch.diagnostics.filter { $0.code == .clockStep }
        #expect(said.count == 1)
        #expect(said.first?.message.contains("stamped more than 2.0 s before a line above them (the first ") == true, "\(said)")
    }

    /// The batch run of `bytes`, after checking that a live run gives its answer.
    @discardableResult
    static func compare(_ bytes: [UInt8]) throws -> LintReport {
        let batch = try Self.analyzer.lint(bytes: bytes, named: "day.ndjson")
        #expect(batch.findings.count > 10)
        let text = FindingTextReporter()
        for every in [37, 211] {
            let run = try Self.live(bytes, pauses: { $0 % every == 0 }, ticks: { $0 % 5 == 0 })
            let live = Set(run.findings.map(Self.decision)), expected = Set(batch.findings.map(Self.decision))
            #expect(live == expected, "pausing every \(every) lines: live only \(live.subtracting(expected).sorted().prefix(5)), batch only \(expected.subtracting(live).sorted().prefix(5))")
            #expect(text.summary(run) == text.summary(batch), "pausing every \(every) lines")
        }
        return batch
    }
}
