import Foundation
import PrewarmLint
import Testing

/// dyld's launch statistics (`DYLD_PRINT_STATISTICS`) read from what people paste, and joined to a launch only where a
/// line proves it.
@Suite("dyld's launch statistics")
struct PreMainStatisticsTests {
    static let corpus = PastedDocumentTests.corpus
    static let analyzer = PastedDocumentTests.analyzer

    /// trustwallet/trust-wallet-ios#812's summary block, verbatim (Corpus/formats/document-dyld-statistics-summary).
    static func summaryBlock() throws -> String {
        let comment = try String(contentsOf: corpus.appendingPathComponent("formats/document-dyld-statistics-summary/comment.md"), encoding: .utf8)
        return comment.components(separatedBy: "\n").dropFirst(2).joined(separator: "\n")
    }

    /// A real cold launch (Corpus/real-logs/44: MobileJarvisNative, pid 9964, its process started at 21:28:47.041), and an
    /// Xcode console of the app whose first lines are dyld's statistics, then the app's first line (pid `pid`).
    static func launchAndConsole(pid: Int, time: String = "21:28:47.200000") throws -> (log: [UInt8], console: [UInt8]) {
        let log = try [UInt8](Data(contentsOf: corpus.appendingPathComponent("real-logs/44-juniper-ios26-full-cold-launch-first-screen-1859bad.log")))
        let console = try summaryBlock() + "2024-03-18 \(time)-0500 MobileJarvisNative[\(pid):77001] [Reporter] SDK init success\n"
            + "2024-03-18 21:28:47.300000-0500 MobileJarvisNative[\(pid):77001] configured\n"
        return (log, Array(console.utf8))
    }

    @Test("a summary pasted bare is read: the pre-main time, its parts and slowest initializers, about no session")
    func summaryPastedBare() throws {
        let report = try Self.analyzer.lint(bytes: Array(try String(contentsOf: Self.corpus.appendingPathComponent(
            "formats/document-dyld-statistics-summary/comment.md"), encoding: .utf8).utf8), named: "comment.md")
        let reading = try #require(report.preMainStatistics.first)
        #expect(report.preMainStatistics.count == 1)
        #expect(reading.statistics.milliseconds == 722.04)
        #expect(reading.statistics.phases.map(\.phase) == [.dylibLoading, .rebaseBinding, .objcSetup, .initializers])
        #expect(reading.statistics.time(of: .rebaseBinding)?.milliseconds == 375.07)
        #expect(reading.statistics.initializers.map(\.image) == ["libSystem.dylib", "libMainThreadChecker.dylib", "Trust"])
        #expect(reading.statistics.launch == nil && reading.session == nil)
        #expect(reading.statistics.origin.line == 3 && reading.statistics.lineCount == 9)
        let text = FindingTextReporter().render(report)
        #expect(text.contains("pre-main 722.04 ms: dylib loading 192.04 ms, rebase/binding 375.07 ms, ObjC setup 80.15 ms, initializers 74.63 ms"))
        #expect(text.contains("dyld's launch statistics only (1 block)"))
        #expect(!text.contains("not a recognized log format"))
    }

    @Test("the summary and the details of one launch pasted together are one reading; the details alone give the summary's time")
    func summaryAndDetails() throws {
        let comment = try String(contentsOf: Self.corpus.appendingPathComponent("formats/document-dyld-statistics-summary-and-details/comment.md"),
                                 encoding: .utf8)
        let both = try #require(try Self.analyzer.lint(bytes: Array(comment.utf8), named: "comment.md").preMainStatistics.first)
        #expect(both.statistics.preMainTime?.milliseconds == 89.70 && both.statistics.detailsTotal?.milliseconds == 783.05)
        #expect(both.statistics.imagesLoaded == 396 && both.statistics.imagesFromSharedCache == 390)
        // The details alone: dyld's total less the debugger's pause and the shared cache's rebinding, as the summary counts.
        let details = comment.components(separatedBy: "\n").filter { $0.hasPrefix("  total") }.joined(separator: "\n") + "\n"
        let alone = try #require(try Self.analyzer.lint(bytes: Array(details.utf8), named: "details.txt").preMainStatistics.first)
        #expect(alone.statistics.preMainTime == nil && alone.statistics.isComputed)
        #expect(abs((alone.statistics.milliseconds ?? 0) - 89.70) < 0.05)
    }

    @Test("a value dyld could not have measured is said as printed, never computed with")
    func unbelievableValue() throws {
        let issue = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("formats/document-dyld-statistics-unbelievable-value/issue.md")))
        let report = try Self.analyzer.lint(bytes: issue, named: "issue.md")
        let reading = try #require(report.preMainStatistics.first)
        let libSystem = try #require(reading.statistics.initializers.first { $0.image == "libSystem.B.dylib" })
        #expect(libSystem.time.milliseconds == nil && libSystem.time.percent == 146_403_308.2)
        #expect(reading.statistics.unbelievable == ["libSystem.B.dylib : 411015771.5 seconds (146403308.2%)"])
        #expect(reading.statistics.milliseconds == 5200)
        let text = FindingTextReporter().render(report)
        #expect(text.contains("not a time dyld could measure: “libSystem.B.dylib : 411015771.5 seconds (146403308.2%)”"))
        #expect(text.contains("slowest initializers: FRDFangorn 2.1 s, Polymorph 1.6 s"))
    }

    @Test("statistics an Xcode console shows before the app's first line join that process's launch, pasted with the device's log or linted with its file")
    func joinedByTheAppsNextLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pre-main-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (log, console) = try Self.launchAndConsole(pid: 9964)
        let session = "com.hightowerai.MobileJarvisNative#1"
        // Pasted together, either first; and as two files, the console's a document of its own.
        let logFile = directory.appendingPathComponent("device.log"), consoleFile = directory.appendingPathComponent("xcode.txt")
        try Data(log).write(to: logFile)
        try Data(console).write(to: consoleFile)
        let reports = [
            try Self.analyzer.lint(bytes: PastedDocumentTests.Shape.fenced.paste(log) + Array("\nXcode's console:\n\n".utf8)
                                   + PastedDocumentTests.Shape.fenced.paste(console), named: "issue.md"),
            try Self.analyzer.lint(bytes: PastedDocumentTests.Shape.quoted.paste(console) + PastedDocumentTests.Shape.tildes.paste(log), named: "issue.md"),
            Self.analyzer.lint(paths: [consoleFile.path, logFile.path]),
            // Pasted bare after the log's block, a blank line between the statistics and the app's lines.
            try Self.analyzer.lint(bytes: PastedDocumentTests.Shape.fenced.paste(log) + Array("\n".utf8) + Array(try Self.summaryBlock().utf8)
                                   + Array("\n".utf8) + console[try Self.summaryBlock().utf8.count...], named: "issue.md"),
        ]
        for report in reports {
            let reading = try #require(report.preMainStatistics.first)
            #expect(reading.statistics.launch?.process == "MobileJarvisNative" && reading.statistics.launch?.pid == 9964)
            #expect(reading.session == session)
            #expect(report.sessions.count == 1 && report.sessions.first?.kind == .coldLaunch)
        }
        // The session's timeline shows dyld's pre-main beside the phases the system's lines measure.
        let timeline = SessionTimelineReporter().render(reports[0].sessions.first!, id: session, preMain: reports[0].preMainStatistics)
        #expect(timeline.contains("pre-main 722.04 ms: dylib loading 192.04 ms"))
        // Another pid's line, or a line before the launch, proves no join: the statistics stay alone, their process said.
        for (pid, time) in [(9965, "21:28:47.200000"), (9964, "21:28:40.000000")] {
            let (_, other) = try Self.launchAndConsole(pid: pid, time: time)
            let report = try Self.analyzer.lint(bytes: PastedDocumentTests.Shape.fenced.paste(log) + PastedDocumentTests.Shape.fenced.paste(other),
                                                named: "issue.md")
            let reading = try #require(report.preMainStatistics.first)
            #expect(reading.statistics.launch?.pid == pid && reading.session == nil)
            #expect(FindingTextReporter().render(report).contains("whose launch no session shows"))
        }
    }

    @Test("a block deep in an Xcode console, past what the sniffer looks at, is read there: the next run's line names its launch, the line before keeps none of it")
    func deepInAnXcodeConsole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The line shape of Corpus/real-logs/40 (fl_umeng#16), 250 lines of a first run; then dyld's block and a second run.
        var console = (0..<250).map { "2024-03-18 00:27:03.\(String(format: "%06d", $0))+0800 Runner[25951:23399161] [Reporter] line \($0)" }
        console += try Self.summaryBlock().components(separatedBy: "\n").dropLast()
        console += ["2024-03-18 00:28:10.100000+0800 Runner[26001:23400001] [Reporter] line 0", "2024-03-18 00:28:10.200000+0800 Runner[26001:23400001] [Reporter] line 1"]
        let bytes = Array((console.joined(separator: "\n") + "\n").utf8)
        let file = directory.appendingPathComponent("console.txt")
        try Data(bytes).write(to: file)
        // As a file (its lines judged ahead on another thread) and as bytes pushed in.
        for report in [Self.analyzer.lint(paths: [file.path]), try Self.analyzer.lint(bytes: bytes, named: file.path)] {
            #expect(report.inputs.first?.format == "xcode-console")
            let reading = try #require(report.preMainStatistics.first)
            #expect(reading.statistics.origin.line == 251 && reading.statistics.milliseconds == 722.04)
            #expect(reading.statistics.launch?.process == "Runner" && reading.statistics.launch?.pid == 26001)
            #expect(reading.statistics.launch?.evidence.line == 260)
        }
    }

    @Test("stats shows dyld's pre-main in the joined launch's group; compare tests it like a measured phase")
    func statsAndCompare() throws {
        let block = try Self.summaryBlock()
        func statistics(_ values: [String]) throws -> LaunchStatistics {
            let readings = try values.map { value in
                try #require(try Self.analyzer.lint(bytes: Array(block.replacingOccurrences(of: "722.04", with: value).utf8), named: "x.txt")
                    .preMainStatistics.first?.statistics)
            }
            return LaunchStatistics(sessions: [LaunchSession](), preMain: readings)
        }
        let baseline = try statistics(["722.04", "719.10", "725.50", "721.00", "723.80"])
        let group = try #require(baseline.groups.first)
        #expect(group.app == LaunchStatistics.unattributedPreMain && group.sessions == 0)
        #expect(group.phases.first { $0.phase.name == "pre-main (dyld)" }?.summary.median == 722.04)
        let slower = try statistics(["822.04", "819.10", "825.50", "821.00", "823.80"])
        let comparison = LaunchComparison(baseline: baseline, candidate: slower)
        #expect(comparison.rows.contains { $0.phase.name == "pre-main (dyld)" && $0.verdict == .regression })
        #expect(LaunchComparison(baseline: baseline, candidate: baseline).rows.allSatisfy { $0.verdict != .regression })
    }

    @Test("a hostile paste of a million statistics lines and 100,000 blocks: bounded, the blocks past the limit counted")
    func hostileBlocks() throws {
        var body = ""
        for index in 0..<100_000 {
            body += "Total pre-main time: \(index).00 milliseconds (100.0%)\n  initializer time: 1.00 milliseconds (1.0%)\n"
            body += index % 2 == 0 ? "           slowest intializers :\n  x : 1.00 milliseconds (1.0%)\n" : "prose\n"
        }
        let started = Date()
        let report = try Self.analyzer.lint(bytes: Array(body.utf8), named: "hostile.md")
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(report.preMainStatistics.count == UntimedEvidence.maximumKept)
        #expect(report.preMainStatistics.count + report.preMainStatisticsNotKept == 100_000)
        #expect(report.preMainStatistics.last?.statistics.milliseconds == Double(UntimedEvidence.maximumKept - 1))
    }
}
