import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// The generator knows every session it wrote; the whole pipeline must find exactly those, with
/// their kinds, in every format — a day of many apps, sessions interleaved, hours between a
/// prewarm and its use, midnight crossed, multi-line descriptors, and mostly noise.
@Suite("a generated device day")
struct GeneratedDeviceDayTests {
    /// About 4 MB: a day crammed into fewer bytes, with enough sessions to interleave.
    static func configuration(_ format: DeviceLogFormat, seed: UInt64 = 11) -> DeviceLogGenerator.Configuration {
        DeviceLogGenerator.Configuration(seed: seed, targetBytes: 4 << 20, format: format, apps: 24, sessionsPerDay: 240, bytesPerDay: 4 << 20)
    }

    /// Year and date for the formats that print neither.
    static let analyzer = LogAnalyzer(options: ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024,
                                                                                      utcOffsetSeconds: DeviceLogGenerator.utcOffsetSeconds)))

    struct Rebuilt: Hashable, CustomStringConvertible {
        var bundleID: String
        var pid: Int
        var kind: String
        var description: String { "\(bundleID) pid \(pid): \(kind)" }
    }

    @Test("every session the generator wrote is rebuilt with its kind, and nothing else, in every format", arguments: DeviceLogFormat.allCases)
    func sessionsMatchTheTruth(format: DeviceLogFormat) throws {
        let (bytes, truth) = DeviceLogGenerator.generate(Self.configuration(format))
        #expect(truth.count > 150, "the day should hold a few hundred sessions")
        #expect(Set(truth.map(\.kind)) == ["cold-launch", "prewarm-then-launch", "prewarm-unused", "background-launch"])
        let report = try Self.analyzer.lint(bytes: bytes, named: "device-day.\(format.rawValue)")
        #expect(report.inputs.first?.format == format.rawValue)
        // Nothing unreadable: only notes on the date, year or offset a format does not print, and the
        // warning that SpringBoard's `Icon tapped: <private>` names no app (as on a real device).
        let unexpected = report.diagnostics.filter { $0.code != .inferredTime && $0.code != .redactedEvidence }
        #expect(unexpected.isEmpty, "\(unexpected.prefix(3).map(\.message))")
        #expect(report.diagnostics.contains { $0.code == .redactedEvidence && $0.message.contains("launch lines name their app as <private>") })

        let expected = Set(truth.map { Rebuilt(bundleID: $0.bundleID, pid: $0.pid, kind: $0.kind) })
        let rebuilt = Set(report.sessions.map { Rebuilt(bundleID: $0.app.bundleID ?? "?", pid: $0.app.pid ?? -1, kind: $0.kind.rawValue) })
        #expect(report.sessions.count == truth.count)
        let missing = expected.subtracting(rebuilt).sorted { $0.description < $1.description }
        let extra = rebuilt.subtracting(expected).sorted { $0.description < $1.description }
        #expect(missing.isEmpty && extra.isEmpty, "missing \(missing.prefix(5)), not written \(extra.prefix(5))")

        // keychain-while-locked fires once in each session the generator made read the keychain while locked.
        let lockedSessions = Set(truth.filter(\.keychainLocked).map(\.pid))
        #expect(!lockedSessions.isEmpty)
        let keychainFindings = report.findings.filter { $0.ruleID == "keychain-while-locked" }
        #expect(keychainFindings.count == lockedSessions.count)
        #expect(Set(keychainFindings.compactMap(\.app.pid)) == lockedSessions)
        // prewarm-wasted fires on every prewarm never used, and only there.
        let wasted = Set(report.findings.filter { $0.ruleID == "prewarm-wasted" }.compactMap(\.app.pid))
        #expect(wasted == Set(truth.filter { $0.kind == "prewarm-unused" }.map(\.pid)))
    }

    @Test("the same seed writes the same bytes; another seed another day")
    func deterministic() {
        let first = DeviceLogGenerator.generate(Self.configuration(.ndjson))
        let again = DeviceLogGenerator.generate(Self.configuration(.ndjson))
        let other = DeviceLogGenerator.generate(Self.configuration(.ndjson, seed: 12))
        #expect(first.bytes == again.bytes)
        #expect(first.sessions == again.sessions)
        #expect(first.bytes != other.bytes)
    }
}

/// Merged inputs are streamed (a thread per input, merged by time as they come) up to
/// `maximumMergedStreams`, and collected and sorted beyond: both must give the same sessions.
@Suite("merging several inputs")
struct MergedInputsTests {
    @Test("streamed and collected merges give the same sessions, summaries and duplicate counts")
    func streamedEqualsCollected() throws {
        let folder = try TemporaryFolder("prewarm-lint-merge")
        defer { folder.remove() }
        // One day in three exports (so the same events arrive from several inputs and must count once),
        // and another day on its own.
        var inputs: [DiscoveredInput] = []
        for (seed, formats) in [(21, [DeviceLogFormat.ndjson, .logShow, .consoleCopy]), (22, [.ndjson])] as [(UInt64, [DeviceLogFormat])] {
            let configuration = DeviceLogGenerator.Configuration(seed: seed, targetBytes: 400_000, apps: 10, sessionsPerDay: 400)
            inputs += try DeviceLogGenerator.writeExports(configuration, formats: formats, in: folder)
                .map { DiscoveredInput(input: .file($0), foundInDirectory: true) }
        }
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024,
                                                               utcOffsetSeconds: DeviceLogGenerator.utcOffsetSeconds))
        var streamed = SessionPipeline(reader: InputReader(options: options))
        streamed.maximumMergedStreams = 32
        var collected = streamed
        collected.maximumMergedStreams = 0
        collected.jobs = 2
        let a = streamed.run(inputs), b = collected.run(inputs)
        #expect(a.sessions.count > 20)
        #expect(a.duplicateEvents > 100, "the three exports of one day share their events")
        #expect(a.sessions == b.sessions)
        #expect(a.duplicateEvents == b.duplicateEvents)
        #expect(a.summaries.map(\.statistics) == b.summaries.map(\.statistics))
        #expect(a.diagnostics == b.diagnostics)
        #expect(a.decisions == b.decisions)
    }
}
