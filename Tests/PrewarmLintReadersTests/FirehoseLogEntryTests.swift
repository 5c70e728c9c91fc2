import Foundation
@testable import PrewarmLintReaders
import Testing

/// Log entries of the real macOS 12 Persist file read to their arguments and rendered with their format strings; the
/// printf subset a launch's lines use.
@Suite("firehose log entries")
struct FirehoseLogEntryTests {
    typealias Argument = FirehoseLogEntry.Argument

    /// Every non-activity entry of the file, with its process's main image UUID (read once for the suite).
    static let readOnce = Result { try readEntries() }
    static func entries() throws -> [(entry: Result<FirehoseLogEntry, UnifiedLogError>, tracepoint: FirehoseTracepoint, image: UnifiedLogUUID?)] {
        try readOnce.get().entries
    }

    static func readEntries() throws -> (entries: [(entry: Result<FirehoseLogEntry, UnifiedLogError>, tracepoint: FirehoseTracepoint, image: UnifiedLogUUID?)],
                                         outline: TraceFileOutline) {
        var found: [(entry: Result<FirehoseLogEntry, UnifiedLogError>, tracepoint: FirehoseTracepoint, image: UnifiedLogUUID?)] = []
        var outline = TraceFileOutline()
        try TraceV3ArchiveTests.bytes("Persist/0000000000000001.tracev3").withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in
            try outline.push(raw) { firehose in
                let image = firehose.process.flatMap { Int($0.mainUUIDIndex) < firehose.catalog.uuids.count ? firehose.catalog.uuids[Int($0.mainUUIDIndex)] : nil }
                for tracepoint in firehose.chunk.tracepoints where tracepoint.kind == .nonActivity {
                    let entry = firehose.payload.withUnsafeBytes { payload in
                        Result { () throws(UnifiedLogError) in
                            try FirehoseLogEntry(data: UnsafeRawBufferPointer(rebasing: payload[tracepoint.data]), flags: tracepoint.flags, at: tracepoint.data.lowerBound)
                        }
                    }
                    found.append((entry, tracepoint, image))
                }
            }
        }
        return (found, outline)
    }

    @Test("every log entry of a real macOS Persist file reads to its arguments; where their format strings are, as the flags say; its simpledumps are read")
    func everyEntryOfARealFile() throws {
        let entries = try Self.entries()
        #expect(entries.count == 65_183)
        // 8,562 simpledumps: launchd's 8,504 (plaso 20260720 reads as many for pid 1) and 58 of other processes.
        let outline = try Self.readOnce.get().outline
        #expect(outline.simpleDumps == 8_562 && outline.chunksByTag[TraceChunk.Tag.simpledump] == 8_562)
        var sources: [String: Int] = [:]
        for (entry, _, _) in entries {
            switch entry {
            case .success(let entry):
                switch entry.formatSource {
                case .mainExecutable: sources["main", default: 0] += 1
                case .sharedCache: sources["shared cache", default: 0] += 1
                case .absolute: sources["absolute", default: 0] += 1
                case .uuidRelative: sources["uuid", default: 0] += 1
                }
            case .failure(let error):
                Issue.record("\(error)")
            }
        }
        // Counted independently (Python, from the tracepoints' flags): the shared cache's share is the 44% of the notes.
        #expect(sources == ["main": 15_825, "shared cache": 23_673, "absolute": 24_606, "uuid": 1_079])
    }

    @Test("the kernel's initialize_screen entry renders as plaso renders it; every kernel and dasd entry whose string is in its uuidtext has an argument for each conversion")
    func resolvedEntriesRender() throws {
        let kernel = try UUIDTextFile(bytes: try TraceV3ArchiveTests.bytes("uuidtext/D1/CD0AAF523E312F92996116B1D511FE"))
        let dasd = try UUIDTextFile(bytes: try TraceV3ArchiveTests.bytes("uuidtext/6B/1AFACAA23437E5B29019DB8A3061FD"))
        var rendered: [UnifiedLogUUID: [String]] = [:]
        for (result, tracepoint, image) in try Self.entries() {
            guard case .success(let entry) = result, entry.formatSource == .mainExecutable, let image,
                  let file = image == TraceV3ArchiveTests.kernel ? kernel : image == TraceV3ArchiveTests.dasd ? dasd : nil,
                  let format = file.string(at: tracepoint.formatStringLocation) else { continue }
            rendered[image, default: []].append(UnifiedLogFormatter.render(format, entry.arguments))
        }
        #expect(rendered[TraceV3ArchiveTests.kernel]?.contains("initialize_screen: b=BE3A18000, w=00000280, h=00000470, r=00000A00, d=00000000\n") == true)
        #expect((rendered[TraceV3ArchiveTests.kernel]?.count ?? 0) > 100)
        // dasd's own strings (the rest of its lines are formatted from the shared cache, which the archive lacks).
        #expect(rendered[TraceV3ArchiveTests.dasd]?.contains("Set budget balance for <private> to  546133.33") == true)
        #expect(rendered[TraceV3ArchiveTests.dasd]?.contains("Allocating 1.04% of budget based on usage") == true)
        let short = rendered.values.joined().filter { $0.contains("<decode: missing data>") }
        #expect(short.isEmpty, "\(short.prefix(3))")
    }

    @Test("printf as os_log writes it: annotations, flags, width and precision, a width from an argument, missing data", arguments: [
        ("%{public}s launched by %{private}s", [Argument.string("com.acme.chat"), .privateValue], "com.acme.chat launched by <private>"),
        ("[%{public}@] %@", [.string(nil), .string("x")], "[(null)] x"),
        ("%{bool}d %{BOOL}d %{bool}d", [.number(1), .number(0), .number(0)], "true NO false"),
        ("%{errno}d", [.number(1)], "[1: Operation not permitted]"),
        ("%{time_t}d", [.number(1_673_487_335)], "2023-01-12 01:35:35+0000"),
        ("%{public,uuid_t}.16P", [.bytes([0xDC, 0xA6, 0xF3, 0x82, 0x13, 0xF5, 0x4A, 0x21, 0xBF, 0x2B, 0x4F, 0x1B, 0xE8, 0xB1, 0x36, 0xBD])],
         "DCA6F382-13F5-4A21-BF2B-4F1BE8B136BD"),
        ("%.*s|%-6s|%5d|%05d|%#llx|%x|100%%", [.precision(3), .string("abcdef"), .string("ab"), .number(42), .number(-42), .number(255), .number(-1)],
         "abc|ab    |   42|-0042|0xff|ffffffff|100%"),
        ("pid %d, %s", [.number(7)], "pid 7, <decode: missing data>"),
        ("%f|%10.2lf|%.0f|%2.2f|%.2f", [.number(Int64(bitPattern: (-0.5).bitPattern)), .number(Int64(bitPattern: 546_133.333_333_333_4.bitPattern)),
                                    .number(Int64(bitPattern: 2.5.bitPattern)), .number(Int64(bitPattern: 1.041_666_666_666_666_5.bitPattern)),
                                    .number(Int64(bitPattern: 0.125.bitPattern))],
         "-0.500000| 546133.33|2|1.04|0.12"),
        ("%lu %zu %hhd %u %hhu %d %p", [.number(-1), .number(3), .number(-2), .number(-1), .number(-1), .number(4_294_967_295), .number(4_096)],
         "18446744073709551615 3 -2 4294967295 255 -1 0x1000"),
    ] as [(String, [Argument], String)])
    func printf(format: String, arguments: [Argument], expected: String) {
        #expect(UnifiedLogFormatter.render(format, arguments) == expected)
    }

    @Test("hostile entries: an argument past the string area, an unknown kind, a cut descriptor are errors; a huge width is not honoured")
    func hostileEntries() {
        func entry(_ bytes: [UInt8], flags: UInt16 = 0x2) -> UnifiedLogError? {
            bytes.withUnsafeBytes { raw in
                do throws(UnifiedLogError) { _ = try FirehoseLogEntry(data: raw, flags: flags); return nil } catch { return error }
            }
        }
        // caller address, 1 argument: a string at 0 of 200 bytes, and a 3-byte string area
        #expect(entry([0, 0, 0, 0, 0, 1, 0x22, 4, 0, 0, 200, 0, 0x61, 0x62, 0]) != nil)
        #expect(entry([0, 0, 0, 0, 0, 1, 0x77, 4, 0, 0, 1, 0])?.reason == "argument kind 0x77")
        #expect(entry([0, 0, 0, 0, 0, 2, 0x02, 8, 1, 2]) != nil)
        #expect(entry([0, 0, 0, 0], flags: 0x6) != nil)  // 0x6: no format string location
        #expect(UnifiedLogFormatter.render("%999999999d", [.number(1)]) == "1")
    }

    /// The layout of iOS 27's persona is known from public reports only (mandiant/macos-UnifiedLogs#152: flag 0x0040,
    /// 4 bytes before the arguments in most entries, none where the catalog names the persona); no real file is public.
    @Test("an entry with iOS 27's persona flag reads the same arguments whether its 4 persona bytes are there or not")
    func personaFlag() throws {
        func read(_ bytes: [UInt8], flags: UInt16) throws -> [Argument] {
            try bytes.withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in try FirehoseLogEntry(data: raw, flags: flags).arguments }
        }
        let caller: [UInt8] = [0x10, 0x20, 0, 0]
        let persona: [UInt8] = [0xE8, 0x03, 0, 0]  // 1000
        // a number (42) and a string ("abc" at 0, 4 bytes) / a number alone
        let two: [UInt8] = [0x02, 2, 0x00, 4, 42, 0, 0, 0, 0x22, 4, 0, 0, 4, 0] + Array("abc\0".utf8)
        let one: [UInt8] = [0x02, 1, 0x00, 4, 42, 0, 0, 0]
        for flags: UInt16 in [0x0042, 0x0242] {
            let subsystem: [UInt8] = flags & 0x0200 != 0 ? [7, 0] : []
            #expect(try read(caller + subsystem + persona + two, flags: flags) == [.number(42), .string("abc")])
            #expect(try read(caller + subsystem + two, flags: flags) == [.number(42), .string("abc")])
            #expect(try read(caller + subsystem + persona + one, flags: flags) == [.number(42)])
            #expect(try read(caller + subsystem + one, flags: flags) == [.number(42)])
        }
        // Without the flag, 4 bytes before the arguments are not a persona.
        #expect(try read(caller + one, flags: 0x0002) == [.number(42)])
        #expect((try? read(caller + persona + one, flags: 0x0002)) != [.number(42)])
    }
}
