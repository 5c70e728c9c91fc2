import Foundation
import PrewarmLintModel
@testable import PrewarmLintReaders
import Testing

/// The real macOS 12 Persist file read into events for three processes, with the uuidtext files copied beside it (its
/// shared cache's strings are not public: those entries keep their arguments only).
@Suite("unified-log events")
struct TraceV3EventReaderTests {
    /// The copied uuidtext files, by UUID; no shared cache. The archive's other images (their files are not copied)
    /// are named `/usr/libexec/other`, with no strings, as a full archive would name them something else.
    struct SampleStrings: UnifiedLogStrings {
        func uuidText(_ uuid: UnifiedLogUUID) -> UUIDTextFile? {
            guard let bytes = try? TraceV3ArchiveTests.bytes("uuidtext/" + UUIDTextFile.relativePath(of: uuid)) else {
                return try? UUIDTextFile(bytes: [0x99, 0x88, 0x77, 0x66, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0] + Array("/usr/libexec/other\0".utf8))
            }
            return try? UUIDTextFile(bytes: bytes)
        }
        func sharedCache(_ uuid: UnifiedLogUUID) -> SharedCacheStrings? { nil }
    }

    /// The kernel's, dasd's and runningboardd's entries, read once for the tests that look at them.
    static let threeRead = Result { try read(.named(["kernel", "dasd", "runningboardd"], apps: false)) }

    static func read(_ choice: UnifiedLogProcessChoice) throws -> (events: [LogEvent], reader: TraceV3EventReader) {
        let timesync = try TimesyncDatabase(bytes: try TraceV3ArchiveTests.bytes("timesync/0000000000000002.timesync"))
        var reader = TraceV3EventReader(inputName: "Persist/0000000000000001.tracev3", strings: SampleStrings(), timesync: timesync, choice: choice)
        var events: [LogEvent] = []
        let bytes = try TraceV3ArchiveTests.bytes("Persist/0000000000000001.tracev3")
        try bytes.withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in
            var start = 0
            while start < raw.count {  // in 1 MiB reads, as an input is read
                let end = min(raw.count, start + (1 << 20))
                try reader.push(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
        }
        try reader.finish { events.append($0) }
        return (events, reader)
    }

    @Test("the kernel's, dasd's and runningboardd's entries: only the chunksets holding them read, times in order, the kernel's initialize_screen as plaso gives it")
    func threeProcesses() throws {
        let (events, reader) = try Self.threeRead.get()
        #expect(reader.structure.chunksets == 160 && reader.structure.chunksetsSkipped == 27)  // the kernel logs in most of them
        #expect(reader.unreadEntries == 0)
        #expect(Set(events.map(\.process)) == ["kernel", "dasd", "runningboardd"])
        #expect(reader.unresolvedByProcess.keys.sorted() == ["dasd", "kernel", "runningboardd"])
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.timestamp.microsecondsSinceEpoch <= $1.timestamp.microsecondsSinceEpoch })
        let screen = try #require(events.first { $0.message.hasPrefix("initialize_screen") })
        #expect(screen.message == "initialize_screen: b=BE3A18000, w=00000280, h=00000470, r=00000A00, d=00000000\n")
        #expect(screen.process == "kernel" && screen.pid == 0 && screen.type == .default)
        #expect(screen.timestamp.microsecondsSinceEpoch == 1_673_487_335_240_424)  // plaso: 01:35:35.240424708 UTC
        #expect(screen.timestamp.text == "2023-01-11T17:35:35.240424-08:00")
        // runningboardd's strings are all in the missing shared cache: every entry unresolved, its arguments kept.
        let runningboardd = events.filter { $0.process == "runningboardd" }
        #expect(!runningboardd.isEmpty && reader.unresolvedByProcess["runningboardd"] == runningboardd.count)
        #expect(runningboardd.allSatisfy { $0.message.hasPrefix("<unresolved format string>") })
        #expect(runningboardd.contains { $0.message == "<unresolved format string> [daemon<com.apple.runningboardd>:105]" })
        // dasd: 6 entries from its own strings, 257 from the shared cache (counted independently from the flags), and a
        // simpledump, its message a string already.
        let dasd = events.filter { $0.process == "dasd" }
        #expect(dasd.count == 264 && reader.unresolvedByProcess["dasd"] == 257)
        #expect(dasd.contains { $0.message == "Allocating 1.04% of budget based on usage" })
        #expect(dasd.contains { $0.message.hasPrefix("assertion failed: 21G320: libsystemstats.dylib + 25540") && $0.pid == 71 })
    }

    @Test("an entry whose values are in an oversize chunk (kernelmanagerd's, its strings not in these samples): its values read from that chunk, as plaso gives them")
    func oversizeValues() throws {
        // These samples name every image they lack `/usr/libexec/other` (``SampleStrings``): kernelmanagerd among them.
        let (events, reader) = try Self.read(.named(["other"], apps: false))
        // plaso: "kernel collection content:\n\tsystem kext collection: <none>\n\tauxiliary kext collection: <none>\n…"
        let collection = try #require(events.first { $0.pid == 50 && $0.message.contains("system kext collection") })
        #expect(collection.message.hasPrefix("<unresolved format string> system kext collection <none> auxiliary kext collection <none>"),
                "\(collection.message.prefix(300))")
        #expect(collection.message.contains("/System/Library/DriverExtensions/com.apple.DriverKit-Apple16X50PCI.dext"))
        #expect(reader.oversizeMissing == 0 && reader.structure.oversizeEntries > 0)
    }

    @Test("an entry naming its image by the caller's address: the kernel's corecrypto lines from the kext's own strings")
    func imageByAddress() throws {
        let (events, reader) = try Self.threeRead.get()
        let corecrypto = events.filter { $0.senderImage == "corecrypto" }
        #expect(corecrypto.contains { $0.message == "FIPSPOST_KEXT [111744311] fipspost_post:160: PASSED: (0 ms) - fipspost_post_hmac\n" })
        #expect(corecrypto.count == 21 && corecrypto.first?.message == "corecrypto_kext_start called\n")
        #expect(corecrypto.allSatisfy { !$0.message.contains("<decode: missing data>") && $0.process == "kernel" && $0.pid == 0 })
        #expect(reader.unresolvedByProcess["kernel"] ?? 0 < 24_604)  // other kexts' strings are not copied
    }

    @Test("a file whose archive has none of its strings (the public iPadOS 15 file): every chunkset read, every entry an event with its pid and arguments, counted by image")
    func noStringsAtAll() throws {
        struct NoStrings: UnifiedLogStrings {
            func uuidText(_ uuid: UnifiedLogUUID) -> UUIDTextFile? { nil }
            func sharedCache(_ uuid: UnifiedLogUUID) -> SharedCacheStrings? { nil }
        }
        var reader = TraceV3EventReader(inputName: "f85", strings: NoStrings(), timesync: TimesyncDatabase(),
                                        choice: .named(["runningboardd", "dasd"], apps: true))
        var events: [LogEvent] = []
        try TraceV3StructureTests.iPadOSPersist.withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in try reader.push(raw) }
        try reader.finish { events.append($0) }
        #expect(reader.structure.chunksets == 47 && reader.structure.chunksetsSkipped == 0)
        #expect(events.count == 8_158 && reader.unreadEntries == 0)
        #expect(reader.unresolvedByProcess.values.reduce(0, +) == 8_158)
        #expect(reader.unresolvedByProcess.keys.allSatisfy { $0.hasPrefix("image ") })
        #expect(events.allSatisfy { $0.process.isEmpty && $0.pid != nil && $0.message.hasPrefix("<unresolved format string>") })
        // 28 entries keep their values in an oversize chunk (counted from the flags): 27 in this file's, read back into
        // them; one in a chunk this file does not hold, counted and said.
        #expect(events.filter { $0.message.contains("<decode: missing data>") }.count == 1 && reader.oversizeMissing == 1)
        #expect(reader.structure.oversizeEntries == 30)
    }

    @Test("a file of more entries than a reader holds: the first kept, the rest counted, nothing dropped unsaid")
    func moreEntriesThanHeld() throws {
        var reader = TraceV3EventReader(inputName: "f85", strings: NoUnifiedLogStrings(), timesync: TimesyncDatabase(), choice: .all,
                                        maximumEventsHeld: 1_000)
        var events: [LogEvent] = []
        try TraceV3StructureTests.iPadOSPersist.withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in try reader.push(raw) }
        try reader.finish { events.append($0) }
        #expect(events.count == 1_000 && reader.eventsNotKept == 7_158 && reader.entriesRead == 8_158)
    }

    @Test("a file that turns unreadable after its entries (the real 944-byte file and 16 bytes of 0xff, in one read): its 5 entries kept, the error said")
    func entriesBeforeAnUnreadableChunkAreKept() throws {
        let url = TraceV3ArchiveTests.samples.deletingLastPathComponent().appendingPathComponent("0000000000000030.tracev3")
        let bytes = try [UInt8](Data(contentsOf: url)) + [UInt8](repeating: 0xff, count: 16)
        var reader = TraceV3EventReader(inputName: "tiny", strings: NoUnifiedLogStrings(), timesync: TimesyncDatabase(), choice: .all)
        var pushError: UnifiedLogError?
        bytes.withUnsafeBytes { raw in
            do throws(UnifiedLogError) { try reader.push(raw) } catch { pushError = error }
        }
        var events: [LogEvent] = []
        #expect(throws: UnifiedLogError.self) { try reader.finish { events.append($0) } }
        #expect(pushError?.offset == 944, "\(String(describing: pushError))")
        #expect(events.count == 5 && reader.entriesRead == 5)
    }

    @Test("runningboardd and dasd only: the 30 chunksets of 187 the catalogs say hold them are decompressed")
    func launchDaemonsOnly() throws {
        let (events, reader) = try Self.read(.named(["dasd", "runningboardd"], apps: false))
        #expect(reader.structure.chunksets == 30 && reader.structure.chunksetsSkipped == 157)
        #expect(Set(events.map(\.process)) == ["dasd", "runningboardd"] && events.count == 958 + 264)
    }
}
