import Foundation
import PrewarmLintModel
@testable import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// What a stranger's archive, report or payload can hold to crash, stall or swell a run: each case reads to an
/// answer, with a diagnostic naming what was not read.
@Suite("hostile archives, reports and payloads")
struct HostileReportTests {
    static let ledgerCrash = "Corpus/verdicts/report-lock-state-for-keychain-failure/Ledger Pro-2024-03-18-074102.ips"

    static func read(_ bytes: [UInt8], name: String = "bundle.tar", chunkSize: Int? = nil, limits: ReaderLimits = ReaderLimits()) -> ReaderVerifier.Outcome {
        ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: name, limits: limits), chunkSize: chunkSize)
    }

    /// A tar holding `depth` tars, one in another, each as a `.log` entry; the innermost holds the Ledger crash.
    static func nestedArchive(depth: Int) throws -> [UInt8] {
        var tar = TarArchiveBuilder()
        tar.add("Ledger Pro.ips", try CrashReportTests.bytes(ledgerCrash))
        tar.end()
        var inner = tar.bytes
        for level in 1..<depth {
            var outer = TarArchiveBuilder()
            outer.add("level\(level).log", inner)
            outer.end()
            inner = outer.bytes
        }
        return inner
    }

    @Test("archives nested inside archives: read three deep, the fourth refused and named, whatever the chunking")
    func nestedArchives() throws {
        let allowed = Self.read(try Self.nestedArchive(depth: 4))
        #expect(allowed.events.count == 3)
        #expect(allowed.events.first?.origin.input == "bundle.tar:level3.log:level2.log:level1.log:Ledger Pro.ips")
        #expect(!allowed.diagnostics.contains { $0.severity >= .warning })

        let archive = try Self.nestedArchive(depth: 5)
        let refused = Self.read(archive)
        #expect(refused.events.isEmpty)
        let warnings = refused.diagnostics.filter { $0.severity >= .warning }
        #expect(warnings.map(\.message) == ["1 entry is an archive nested more than 3 deep: not read (first: level1.log)"])
        #expect(warnings.first?.origin.input == "bundle.tar:level4.log:level3.log:level2.log")
        for chunk in [1, 700] { #expect(Self.read(archive, chunkSize: chunk) == refused, "chunks of \(chunk)") }
    }

    @Test("an archive nested 300 deep is read to the bound and no further: no stack overflow, a few readers in memory")
    func deepNesting() throws {
        let outcome = Self.read(try Self.nestedArchive(depth: 300), limits: ReaderLimits(maximumArchiveNesting: 2))
        #expect(outcome.failure == nil)
        #expect(outcome.events.isEmpty)
        #expect(outcome.diagnostics.contains { $0.message == "1 entry is an archive nested more than 2 deep: not read (first: level297.log)" })
    }

    @Test("a pax name holding a newline is read by its record's length: the entry is read under its whole name")
    func paxNameWithNewline() throws {
        var tar = TarArchiveBuilder()
        tar.add("crashes\n~~~~\n/Ledger Pro.ips", try CrashReportTests.bytes(Self.ledgerCrash), style: .pax)
        tar.end()
        let outcome = Self.read(tar.bytes)
        #expect(outcome.events.count == 3)
        #expect(outcome.events.first?.origin.input == #"bundle.tar:crashes\x0A~~~~\x0A/Ledger Pro.ips"#)
        #expect(TarArchiveDecoder.paxRecords(Array("12 path=a\nb\n11 size=42\n".utf8)).map { String(decoding: $0.value, as: UTF8.self) } == ["a\nb", "42"])
        #expect(TarArchiveDecoder.paxRecords(Array("99 path=x\n".utf8)).isEmpty)
        #expect(TarArchiveDecoder.paxRecords(Array("3 path=x\n".utf8)).isEmpty)
    }

    @Test("thousands of unread entries with long names: counted, and only the first name kept, cut to 256 bytes")
    func unreadNamesBounded() {
        var tar = TarArchiveBuilder()
        let long = String(repeating: "n", count: 4000)
        for index in 0..<2000 { tar.add("\(index)-\(long).ips", Array("not a report\n".utf8), style: .pax) }
        tar.end()
        let outcome = Self.read(tar.bytes)
        let unread = outcome.diagnostics.filter { $0.code == .unreadReport && $0.severity == .warning }
        #expect(unread.count == 1)
        #expect(unread.first?.message.hasPrefix("2000 .ips entries are not a report prewarm-lint reads (first: 0-nnn") == true)
        #expect(unread.first.map { $0.message.utf8.count < 400 } == true)
    }

    /// A JetsamEvent report listing `count` processes, each killed.
    static func jetsam(processes count: Int) -> [UInt8] {
        var text = #"{"bug_type":"298","timestamp":"2024-03-18 05:40:00.00 -0700","os_version":"iPhone OS 17.4 (21E219)"}"# + "\n"
        text += "{\n  \"bug_type\": \"298\",\n  \"date\": \"2024-03-18 05:40:00.04 -0700\",\n  \"processes\": [\n"
        text += (0..<count).map { #"    {"pid": \#(1000 + $0), "name": "proc\#($0)", "states": ["daemon"], "reason": "idle-exit"}"# }.joined(separator: ",\n")
        text += "\n  ]\n}\n"
        return Array(text.utf8)
    }

    @Test("a JetsamEvent report of 40,000 processes is read in linear time, each kill at its own line")
    func largeJetsamLinear() {
        let report = Self.jetsam(processes: 40_000)
        let start = ContinuousClock.now
        let outcome = Self.read(report, name: "JetsamEvent.ips")
        let elapsed = ContinuousClock.now - start
        #expect(outcome.events.count == 40_000)
        #expect(outcome.events.first.map { ($0.process, $0.origin.line) } ?? ("", 0) == ("proc0", 6))
        #expect(outcome.events.last.map { ($0.process, $0.origin.line) } ?? ("", 0) == ("proc39999", 40_005))
        // Linear takes ~1 s in a debug build; counting lines from the array's start for each element took minutes.
        #expect(elapsed < .seconds(10), "\(elapsed)")
    }

    @Test("MetricKit numbers out of range are kept as written and said, never computed with: a 10^16 ms launch, a 2^63−1 bucket")
    func metricKitNumbersOutOfRange() {
        let payload = #"{"timeStampBegin":"2025-11-01 00:00:00","timeStampEnd":"2025-11-01 23:59:00","appLaunchDiagnostics":["#
            + MetricKitTests.launchDiagnostic("10000000000000000 ms") + "," + MetricKitTests.launchDiagnostic("1e308 s") + "]}"
        let outcome = ReaderVerifier.read(Array(payload.utf8), configuration: ReaderConfiguration(inputName: "metrickit.json"))
        #expect(outcome.events.map(\.message) == ["MetricKit app launch diagnostic: launchDuration 10000000000000000 ms (as written: not read as a number)",
                                                   "MetricKit app launch diagnostic: launchDuration 1e308 s (as written: not read as a number)"])
        #expect(outcome.diagnostics.last?.message.hasPrefix("2 app launch diagnostics' launchDuration could not be read") == true)
        #expect(MetricKitLaunchMetrics.milliseconds("604800000 ms") == 604_800_000)
        #expect(MetricKitLaunchMetrics.milliseconds("604800001 ms") == nil)

        let histogram = #"{"timeStampEnd":"2024-03-19 00:00:00 +0000","metaData":{"appVersion":"1.0"},"applicationLaunchMetrics":{"histogrammedTimeToFirstDraw":{"histogramNumBuckets":2,"histogramValue":{"0":{"bucketStart":"1000 ms","bucketEnd":"1010 ms","bucketCount":9223372036854775807},"1":{"bucketStart":"1010 ms","bucketEnd":"1020 ms","bucketCount":5}}}}}"#
        var collector = MetricKitLaunchCollector()
        Array(histogram.utf8).withUnsafeBytes { collector.feed($0) }
        let (metrics, _) = collector.finish()
        #expect(metrics.first?.histograms[.timeToFirstDraw]?.map(\.count) == [5])
        #expect(collector.unreadableBuckets == 1)
        #expect(MetricKitLaunchMetrics.bucketCount("4294967296") == 4_294_967_296)
        #expect(MetricKitLaunchMetrics.bucketCount("4294967297") == nil)
        #expect(MetricKitLaunchMetrics.bucketCount("-1") == nil)
    }
}
