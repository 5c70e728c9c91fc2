import Foundation
import Testing

/// End-to-end runs of the built binary on the real 2.6 MB macOS tracev3 file (seconds each in a debug build): run in
/// CI's stage after the tests (`PREWARM_LINT_SOAK=1`), with the memory bounds, not in the suite's five minutes.
@Suite("prewarm-lint on a real unified-log file",
       .enabled(if: ProcessInfo.processInfo.environment["PREWARM_LINT_SOAK"] == "1",
                "end to end on a real tracev3 file, run with PREWARM_LINT_SOAK=1 (CI's stage after the tests)"))
struct ArchiveEndToEndTests {
    typealias CLI = EventsCommandTests

    @Test("a tracev3 file named alone: events reads it with the archive around it, its strings and clock, as lint does")
    func looseTraceV3FileWithItsArchive() throws {
        let file = EventsCommandTests.repositoryRoot.appendingPathComponent("Tests/PrewarmLintReadersTests/UnifiedLogSamples/macos12/Persist/0000000000000001.tracev3").path
        let events = try CLI.run(["events", "--process", "dasd", file])
        #expect(events.status == 0, "\(events.stderr)")
        // dasd's own strings are in the samples' uuidtext folder; its clock in their timesync folder.
        #expect(events.stdout.contains("Allocating 1.04% of budget based on usage"), "\(events.stdout.prefix(600))")
        #expect(!events.stderr.contains("[inferred-time]"), "\(events.stderr)")
        // As lint says: the entries whose strings are neither in the samples' four uuidtext files nor in a shared cache.
        #expect(events.stderr.contains("warning: 64046 log entries whose format string the archive lacks"), "\(events.stderr)")
    }

    @Test("an archive's folders that are symbolic links (Persist/, a uuidtext folder) are not followed: the archive reads as if they were not there")
    func archiveFoldersThatAreLinksAreNotFollowed() throws {
        let folder = try LintCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = EventsCommandTests.repositoryRoot.appendingPathComponent("Tests/PrewarmLintReadersTests/UnifiedLogSamples/macos12")
        // Persist/ a link to the samples' own: no tracev3 file in the archive.
        let linkedPersist = folder.appendingPathComponent("p.logarchive")
        try FileManager.default.createDirectory(at: linkedPersist, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: linkedPersist.appendingPathComponent("Persist"), withDestinationURL: samples.appendingPathComponent("Persist"))
        let persist = try CLI.run(["--no-color", linkedPersist.path])
        #expect(persist.status == 2 && persist.stderr.contains("a unified log archive with no tracev3 file"), "\(persist.stderr)")
        // dasd's uuidtext folder (6B) a link to the samples' own: its strings not read (copied, they are: the test
        // `looseTraceV3FileWithItsArchive` of `events`).
        let linkedStrings = folder.appendingPathComponent("s.logarchive")
        try FileManager.default.createDirectory(at: linkedStrings.appendingPathComponent("Persist"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: samples.appendingPathComponent("Persist/0000000000000001.tracev3"),
                                         to: linkedStrings.appendingPathComponent("Persist/0000000000000001.tracev3"))
        try FileManager.default.createSymbolicLink(at: linkedStrings.appendingPathComponent("6B"), withDestinationURL: samples.appendingPathComponent("uuidtext/6B"))
        // A `Diagnostics` link to a folder holding the file's timesync: not followed either (its times from the header).
        try FileManager.default.createSymbolicLink(at: linkedStrings.appendingPathComponent("Diagnostics"), withDestinationURL: samples)
        // (dasd is pid 71; unnamed without its uuidtext file, it is still read: an unnamed process cannot be ruled out.)
        let strings = try CLI.run(["events", "--pid", "71", linkedStrings.path])
        #expect(strings.status == 0, "\(strings.stderr)")
        #expect(strings.stdout.contains("[71]") && !strings.stdout.contains("Allocating 1.04% of budget based on usage"), "\(strings.stdout.prefix(800))")
        #expect(strings.stderr.contains("[inferred-time]"), "\(strings.stderr)")
    }

    @Test("Ctrl-C while an archive's tracev3 file is read natively: the run ends interrupted (130), the file not said to be cut")
    func interruptedArchiveReadIsNotCut() throws {
        let folder = try LintCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("a.logarchive")
        try FileManager.default.createDirectory(at: archive.appendingPathComponent("Persist"), withIntermediateDirectories: true)
        // The real 2.6 MB macOS file, every process read: a debug build takes seconds over it, a release build one.
        try FileManager.default.copyItem(at: EventsCommandTests.repositoryRoot.appendingPathComponent("Tests/PrewarmLintReadersTests/UnifiedLogSamples/macos12/Persist/0000000000000001.tracev3"),
                                         to: archive.appendingPathComponent("Persist/0000000000000001.tracev3"))
        let run = try CLI.run(["--no-color", "--all-processes", archive.path], interruptAfter: 0.4, signal: SIGINT)
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("interrupted: the output covers what was read until then"), "\(run.stderr)")
        #expect(!run.stderr.contains("cut:") && !run.stderr.contains("could not be read past"), "\(run.stderr)")
    }
}
