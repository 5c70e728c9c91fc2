import Foundation
import PrewarmLint
@testable import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// A real macOS 12.6.2 unified log (plaso's test archive, copied with its provenance into `UnifiedLogSamples/`): the
/// Persist file with its timesync file and the uuidtext files of four images; plaso's own test of these files is the
/// oracle for times, image paths and messages.
@Suite("unified-log archive files")
struct TraceV3ArchiveTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("UnifiedLogSamples/macos12")
    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: samples.appendingPathComponent(path))) }
    static let kernel = UnifiedLogUUID(hex: "D1CD0AAF523E312F92996116B1D511FE")!
    static let runningboardd = UnifiedLogUUID(hex: "3C90E149E7C732F2A2FA12C504A3E904")!
    static let dasd = UnifiedLogUUID(hex: "6B1AFACAA23437E5B29019DB8A3061FD")!

    @Test("timesync: the boot record and its sync points as plaso reads them; continuous time becomes wall-clock time from the last sync point before it")
    func timesync() throws {
        let database = try TimesyncDatabase(bytes: try Self.bytes("timesync/0000000000000002.timesync"))
        let boot = try #require(database.boots.first)
        #expect(database.boots.count == 1)
        #expect(boot.uuid.description == "DCA6F382-13F5-4A21-BF2B-4F1BE8B136BD")
        #expect(boot.timebaseNumerator == 125 && boot.timebaseDenominator == 3)
        #expect(boot.wallNanoseconds == 1_673_487_330_693_054_000 && boot.minutesWest == 480)
        #expect(boot.syncs.map(\.continuousTime) == [0, 1_442_026_097, 1_456_903_364, 3_233_844_123, 3_319_955_942])
        #expect(boot.syncs[1].wallNanoseconds == 1_673_487_385_699_687_000)
        // At a sync point, its wall time; 3 ticks later, 125 ns later; before the first, from the boot record.
        #expect(database.wallNanoseconds(continuousTime: 1_442_026_097, boot: boot.uuid) == 1_673_487_385_699_687_000)
        #expect(database.wallNanoseconds(continuousTime: 1_442_026_100, boot: boot.uuid) == 1_673_487_385_699_687_125)
        #expect(database.wallNanoseconds(continuousTime: 3, boot: boot.uuid) == 1_673_487_330_693_054_125)
        #expect(database.wallNanoseconds(continuousTime: .max, boot: boot.uuid) == .max)
        #expect(database.wallNanoseconds(continuousTime: 3, boot: Self.kernel) == nil)
    }

    @Test("uuidtext: the image's path from its footer and a format string by the offset a tracepoint names")
    func uuidtext() throws {
        let dasd = try UUIDTextFile(bytes: try Self.bytes("uuidtext/" + UUIDTextFile.relativePath(of: Self.dasd)))
        #expect(dasd.imagePath == "/usr/libexec/dasd")
        let runningboardd = try UUIDTextFile(bytes: try Self.bytes("uuidtext/" + UUIDTextFile.relativePath(of: Self.runningboardd)))
        #expect(runningboardd.imagePath == "/usr/libexec/runningboardd")  // its strings are all in the shared cache
        #expect(runningboardd.string(at: 0) == nil)
        let kernel = try UUIDTextFile(bytes: try Self.bytes("uuidtext/D1/CD0AAF523E312F92996116B1D511FE"))
        #expect(kernel.imagePath == "/kernel")
        #expect(kernel.string(at: 0x4CEC0) == "initialize_screen: b=%08llX, w=%08X, h=%08X, r=%08X, d=%08X\n")
        #expect(throws: UnifiedLogError.self) { try UUIDTextFile(bytes: Array(try Self.bytes("uuidtext/D1/CD0AAF523E312F92996116B1D511FE").prefix(40))) }
    }

    /// The names of the images whose uuidtext files are here, by UUID.
    static func imageNames() throws -> [UnifiedLogUUID: String] {
        var names: [UnifiedLogUUID: String] = [:]
        for uuid in [kernel, runningboardd, dasd] {
            let file = try UUIDTextFile(bytes: try bytes("uuidtext/" + UUIDTextFile.relativePath(of: uuid)))
            names[uuid] = String(file.imagePath.split(separator: "/").last ?? "")
        }
        return names
    }

    @Test("launch-targeted: of the Persist file's 187 chunksets, the catalogs say 30 hold runningboardd or dasd; only those are decompressed, the rest counted")
    func onlyTheChunksetsOfTheProcessesAsked() throws {
        let names = try Self.imageNames()
        var outline = TraceFileOutline { catalog, chunkset in
            chunkset.processIndexes.contains { index in
                guard let process = catalog.process(index: index), Int(process.mainUUIDIndex) < catalog.uuids.count else { return false }
                return ["runningboardd", "dasd"].contains(names[catalog.uuids[Int(process.mainUUIDIndex)]])
            }
        }
        try Self.bytes("Persist/0000000000000001.tracev3").withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in try outline.push(raw) }
        try outline.finish()
        #expect(outline.catalogs.count == 37)
        #expect(outline.chunksets == 30)
        #expect(outline.chunksetsSkipped == 157)
        // The whole file, for comparison (read once with the log entries' tests).
        let everything = try FirehoseLogEntryTests.readOnce.get().outline
        #expect(everything.chunksets == 187 && everything.chunksetsSkipped == 0)
        #expect(everything.tracepoints.total == 74_433)
        #expect(everything.chunksByTag == [TraceChunk.Tag.firehose: 2_563, TraceChunk.Tag.simpledump: 8_562, TraceChunk.Tag.oversize: 1])
        #expect(outline.decodedBytes * 5 < everything.decodedBytes)
    }

    @Test("a tracev3 file whose archive lacks its strings: its events counted as unworded, the run said incomplete, not a clean pass; the file with LZBITMAP chunksets gives the same report")
    func unwordedEventsMakeTheRunIncomplete() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unworded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The real 944-byte macOS file alone: no uuidtext or dsc folder beside it.
        let tiny = try [UInt8](Data(contentsOf: Self.samples.deletingLastPathComponent().appendingPathComponent("0000000000000030.tracev3")))
        let original = folder.appendingPathComponent("a/0000000000000030.tracev3")
        let rewritten = folder.appendingPathComponent("b/0000000000000030.tracev3")
        for (url, bytes) in [(original, tiny), (rewritten, try #require(TraceV3Rewriter.withLZBitmapChunksets(tiny)))] {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let report = LogAnalyzer().lint(paths: [original.path])
        #expect(report.inputs.map(\.format) == ["tracev3"])
        #expect(report.inputs.map(\.events) == [5] && report.inputs.map(\.eventsUnworded) == [5])
        let summary = FindingTextReporter().summary(report)
        #expect(summary.hasPrefix("no findings in what could be read in 0 sessions"), "\(summary)")
        #expect(summary.contains("evidence incomplete: 5 of 5 events could not be worded"), "\(summary)")
        #expect(report.render().contains("\"eventsUnworded\":5"))
        let iOS27 = LogAnalyzer().lint(paths: [rewritten.path])
        #expect(iOS27.render().replacingOccurrences(of: "/b/", with: "/a/") == report.render())
    }

    @Test("an archive's files are read in the order they began, and each file's events are handed on before a later file is read: in time order, the same events as the files hold")
    func filesReadInTheOrderTheyBegan() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)/system_logs.logarchive")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        // The real 944-byte file as three files of three days (its header's wall clock moved: with no timesync, its
        // entries' times follow it); the third day's in Persist/ sorts before the second day's in Special/ by name.
        let tiny = try [UInt8](Data(contentsOf: Self.samples.deletingLastPathComponent().appendingPathComponent("0000000000000030.tracev3")))
        func shifted(days: UInt64) -> [UInt8] {
            var bytes = tiny
            let seconds = bytes[32..<40].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } + days * 86_400
            for index in 0..<8 { bytes[32 + index] = UInt8(truncatingIfNeeded: seconds >> (8 * UInt64(index))) }
            return bytes
        }
        for (name, bytes) in [("Persist/0000000000000001.tracev3", shifted(days: 0)), ("Persist/0000000000000002.tracev3", shifted(days: 2)),
                              ("Special/0000000000000001.tracev3", try #require(TraceV3Rewriter.withLZBitmapChunksets(shifted(days: 1))))] {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        var said: [String] = []
        var times: [Int64] = []
        let summary = InputReader(options: ReadOptions()).read(.logArchive(folder.path)) { output in
            switch output {
            case .event(let event):
                said.append("event " + String(event.origin.input.split(separator: "/").suffix(2).joined(separator: "/")))
                times.append(event.timestamp.microsecondsSinceEpoch)
            case .diagnostic(let diagnostic) where diagnostic.code == .unresolvedFormatString:
                said.append("unworded " + String(diagnostic.origin.input.split(separator: "/").suffix(2).joined(separator: "/")))
            default: break
            }
        }
        #expect(summary.failure == nil && summary.format == .logArchive && summary.statistics.events == 15)
        #expect(times == times.sorted() && times.count == 15)
        #expect(times[5] - times[0] == 86_400_000_000 && times[10] - times[5] == 86_400_000_000)
        // Day 0's events go before day 1's file is done; day 1's before day 2's.
        let persist1 = "Persist/0000000000000001.tracev3", special = "Special/0000000000000001.tracev3", persist2 = "Persist/0000000000000002.tracev3"
        #expect(said == ["unworded " + persist1] + Array(repeating: "event " + persist1, count: 5)
            + ["unworded " + special] + Array(repeating: "event " + special, count: 5)
            + ["unworded " + persist2] + Array(repeating: "event " + persist2, count: 5), "\(said)")
    }

    @Test("--since and --until: chunksets whose catalog range ends a day before the window or starts a day after it are not decompressed, said in the note; the events kept are those a full read keeps")
    func chunksetsOutsideTheWindowAreSkipped() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID().uuidString)/system_logs.logarchive")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        // The real 944-byte file (one chunkset, 5 entries within 21 ms) as five files of five days.
        let tiny = try [UInt8](Data(contentsOf: Self.samples.deletingLastPathComponent().appendingPathComponent("0000000000000030.tracev3")))
        for day in 0..<5 {
            var bytes = tiny
            let seconds = bytes[32..<40].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } + UInt64(day) * 86_400
            for index in 0..<8 { bytes[32 + index] = UInt8(truncatingIfNeeded: seconds >> (8 * UInt64(index))) }
            let url = folder.appendingPathComponent("Persist/000000000000000\(day + 1).tracev3")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        func read(_ options: ReadOptions) -> (events: [LogEvent], notes: [String]) {
            var events: [LogEvent] = [], notes: [String] = []
            _ = InputReader(options: options).read(.logArchive(folder.path)) { output in
                if case .event(let event) = output { events.append(event) }
                if case .diagnostic(let diagnostic) = output, diagnostic.code == .archiveContents { notes.append(diagnostic.message) }
            }
            return (events, notes)
        }
        let all = read(ReadOptions()).events
        #expect(all.count == 25)
        // Day 3's five entries, bounded by their own times.
        var window = ReadOptions()
        window.since = try #require(TimeBound(all[15].timestamp.text))
        window.until = try #require(TimeBound(all[19].timestamp.text))
        let (kept, notes) = read(window)
        #expect(kept.map(\.origin) == all[15..<20].map(\.origin))
        // Days 0 and 1 end more than a day before the window: not decompressed. Days 2 and 4, within a day of it, are
        // read, and their entries left out one by one.
        #expect(notes.filter { $0.contains("hold entries only outside --since/--until") }.count == 2, "\(notes)")
    }
}
