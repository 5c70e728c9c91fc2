import Foundation
@testable import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// The structure of real tracev3 files (copied with their provenance into `UnifiedLogSamples/`), read through, and
/// hostile variants of each structure.
@Suite("tracev3 structure")
struct TraceV3StructureTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("UnifiedLogSamples")
    static let iPadOSPersist = try! [UInt8](Data(contentsOf: samples.appendingPathComponent("0000000000000f85.tracev3")))
    static let macOSTiny = try! [UInt8](Data(contentsOf: samples.appendingPathComponent("0000000000000030.tracev3")))

    /// What an outline says, compared across cuts.
    struct Summary: Equatable {
        var header: TraceHeader?
        var catalogs: [TraceCatalog]
        var chunksets: Int
        var decodedBytes: Int
        var chunksByTag: [UInt32: Int]
        var tracepoints: TraceFileOutline.TracepointCounts
        var error: UnifiedLogError?
    }

    static func outline(_ bytes: [UInt8], cuts: [Int] = []) -> Summary {
        var outline = TraceFileOutline()
        var failure: UnifiedLogError?
        bytes.withUnsafeBytes { all in
            var start = 0
            do throws(UnifiedLogError) {
                for end in cuts + [all.count] where end > start {
                    try outline.push(UnsafeRawBufferPointer(rebasing: all[start..<min(end, all.count)]))
                    start = min(end, all.count)
                }
                try outline.finish()
            } catch {
                failure = error
            }
        }
        return Summary(header: outline.header, catalogs: outline.catalogs, chunksets: outline.chunksets, decodedBytes: outline.decodedBytes,
                       chunksByTag: outline.chunksByTag, tracepoints: outline.tracepoints, error: failure)
    }

    @Test("a real iPadOS 15.3.1 Persist file: its header, 6 catalogs, 47 LZ4 chunksets of 345 firehose, 30 oversize and 496 statedump chunks, 8,158 tracepoints")
    func iPadOSPersistFile() throws {
        let summary = Self.outline(Self.iPadOSPersist)
        #expect(summary.error == nil)
        let header = try #require(summary.header)
        #expect(header.build == "19D52")
        #expect(header.hardwareModel == "J96AP")
        #expect(header.timebaseNumerator == 125 && header.timebaseDenominator == 3)
        #expect(header.bootUUID?.description == "A6EBC8E3-0A1C-40E8-93B9-DA3A7F671D19")
        #expect(header.timeZonePath == "/var/db/timezone/zoneinfo/America/Toronto")
        #expect(header.minutesWest == 300 && header.daylightSaving)  // Toronto, UTC−5
        #expect(summary.catalogs.count == 6)
        #expect(summary.catalogs.map(\.chunksets.count) == [8, 9, 8, 9, 6, 7])
        #expect(summary.catalogs.map(\.processes.count) == [14, 19, 4, 28, 17, 16])
        #expect(summary.chunksets == 47)
        #expect(summary.chunksByTag == [TraceChunk.Tag.firehose: 345, TraceChunk.Tag.oversize: 30, TraceChunk.Tag.statedump: 496])
        #expect(summary.tracepoints.total == 8_158)
        // Every chunkset names processes its catalog lists, and is LZ4.
        for catalog in summary.catalogs {
            for chunkset in catalog.chunksets {
                #expect(chunkset.algorithm == 0x100)
                #expect(chunkset.start <= chunkset.end)
                for index in chunkset.processIndexes { #expect(catalog.process(index: index) != nil) }
            }
        }
        #expect(summary.decodedBytes == summary.catalogs.flatMap(\.chunksets).reduce(0) { $0 + Int($1.decodedSize) })
    }

    @Test("a real macOS file of 944 bytes: build 18D42 on a Mac mini in Zurich, one catalog of pid 14225, 5 tracepoints")
    func macOSTinyFile() throws {
        let summary = Self.outline(Self.macOSTiny)
        #expect(summary.error == nil)
        let header = try #require(summary.header)
        #expect(header.build == "18D42")
        #expect(header.hardwareModel == "Macmini7,1")
        #expect(header.timeZonePath?.hasSuffix("Europe/Zurich") == true)
        #expect(header.minutesWest == -60)  // east of UTC: stored as a signed 32-bit count
        #expect(summary.catalogs.count == 1)
        #expect(summary.catalogs.first?.processes.map(\.pid) == [14225])
        #expect(summary.chunksets == 1)
        #expect(summary.tracepoints.total == 5)
    }

    @Test("the same outline whatever the cut: byte by byte, in odd pieces, at random places", arguments: [1, 7, 4_093, 65_536])
    func sameOutlineInEveryCut(piece: Int) {
        let whole = Self.outline(Self.iPadOSPersist)
        // Pieces of 1 and 7 bytes over the file's first 120 KB (its header, first catalog and chunksets), the rest whole.
        let bytes = piece < 8 ? Array(Self.iPadOSPersist.prefix(120_000)) : Self.iPadOSPersist
        let reference = piece < 8 ? Self.outline(bytes) : whole
        let cuts = Array(stride(from: piece, to: bytes.count, by: piece))
        #expect(Self.outline(bytes, cuts: cuts) == reference)
        var generator = SeededGenerator(seed: UInt64(piece))
        let random = (0..<200).map { _ in Int.random(in: 0..<bytes.count, using: &generator) }.sorted()
        #expect(Self.outline(bytes, cuts: random) == reference)
    }

    @Test("a broken chunkset in the middle ends the reading there, whatever the cut: the chunksets after it are not counted")
    func brokenChunksetEndsTheReading() throws {
        var bytes = Self.iPadOSPersist
        var magics: [Int] = []
        var from = 0
        while let at = bytes[from...].firstRange(of: Array("bv41".utf8))?.lowerBound { magics.append(at); from = at + 4 }
        #expect(magics.count == 47)
        bytes[magics[20]] = UInt8(ascii: "X")  // the 21st chunkset's block magic
        let whole = Self.outline(bytes)
        #expect(whole.chunksets == 20)
        #expect(whole.error?.structure == "chunkset")
        #expect(whole.error?.reason.hasPrefix("block magic 0x") == true)
        for piece in [64, 1_000, 70_000] {
            #expect(Self.outline(bytes, cuts: Array(stride(from: piece, to: bytes.count, by: piece))) == whole)
        }
        // Bytes pushed after the error are not read: the same error again, the same counts.
        var outline = TraceFileOutline()
        let first = bytes.withUnsafeBytes { raw in Result { () throws(UnifiedLogError) in try outline.push(raw) } }
        let again = bytes.withUnsafeBytes { raw in Result { () throws(UnifiedLogError) in try outline.push(UnsafeRawBufferPointer(rebasing: raw[magics[30]...])) } }
        func failure(_ result: Result<Void, UnifiedLogError>) -> UnifiedLogError? { if case .failure(let error) = result { error } else { nil } }
        #expect(failure(first) == whole.error && failure(again) == whole.error)
        #expect(outline.chunksets == 20 && outline.failure == whole.error)
    }

    @Test("a chunk preamble declaring too much in the middle: the chunks before it in the same piece are read, as they are when cut apart")
    func oversizedChunkInTheMiddle() throws {
        var bytes = Self.iPadOSPersist
        var magics: [Int] = []
        var from = 0
        while let at = bytes[from...].firstRange(of: Array("bv41".utf8))?.lowerBound { magics.append(at); from = at + 4 }
        let preamble = magics[30] - 16  // the 31st chunkset's chunk preamble
        bytes.replaceSubrange((preamble + 8)..<(preamble + 16), with: [0, 0, 0, 0, 0, 0, 0, 0x40])
        let whole = Self.outline(bytes)
        #expect(whole.chunksets == 30)
        #expect(whole.error?.offset == preamble && whole.error?.reason.hasPrefix("declares ") == true)
        #expect(Self.outline(bytes, cuts: Array(stride(from: 4_096, to: bytes.count, by: 4_096))) == whole)
    }

    @Test("a file cut inside a chunkset: what came before is counted, the end says which chunk was cut, where, and by how much")
    func cutInsideAChunk() throws {
        let summary = Self.outline(Array(Self.iPadOSPersist.prefix(400_000)))
        let error = try #require(summary.error)
        #expect(error.structure == "chunk (tag 0x600d)")
        #expect(error.reason.hasPrefix("cut: "))
        #expect(error.offset < 400_000 && error.offset > 400_000 - 70_000)
        #expect(summary.chunksets > 20 && summary.chunksets < 47)
        let inPreamble = Self.outline(Array(Self.iPadOSPersist.prefix(16 + 208 + 5)))
        #expect(inPreamble.error == UnifiedLogError("chunk preamble", at: 224, "cut: 5 of 16 bytes"))
        #expect(inPreamble.header?.build == "19D52")
    }

    @Test("a chunk declaring 2⁶⁴ − 1 bytes ends the file with an error before anything is allocated for it")
    func hugeDeclaredChunk() {
        var bytes = Self.macOSTiny
        bytes.replaceSubrange(8..<16, with: [UInt8](repeating: 0xFF, count: 8))
        let summary = Self.outline(bytes)
        #expect(summary.error?.structure == "chunk preamble (tag 0x1000)")
        #expect(summary.error?.reason == "declares 18446744073709551615 bytes, at most 16777216 read")
        #expect(summary.header == nil)
    }

    @Test("LZ4: literals and an overlapping match decode; a match before the block, a length past the declared size and a cut input are errors")
    func lz4Blocks() throws {
        func decode(_ block: [UInt8], size: Int) throws(UnifiedLogError) -> [UInt8] {
            var output: [UInt8] = []
            try block.withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in try LZ4BlockDecoder.decode(raw, decodedSize: size, into: &output) }
            return output
        }
        // "ab", then 6 bytes from 2 back (overlapping), then the literal "c".
        #expect(try decode([0x22, 0x61, 0x62, 0x02, 0x00, 0x10, 0x63], size: 9) == Array("ababababc".utf8))
        #expect(throws: UnifiedLogError.self) { try decode([0x10, 0x61, 0x02, 0x00, 0x10, 0x63], size: 6) }  // 2 back, 1 decoded
        #expect(throws: UnifiedLogError.self) { try decode([0xF0] + [UInt8](repeating: 0xFF, count: 64), size: 1_000) }
        #expect(throws: UnifiedLogError.self) { try decode([0x22, 0x61, 0x62, 0x02], size: 9) }  // cut in the offset
        #expect(throws: UnifiedLogError.self) { try decode([0x22, 0x61, 0x62, 0x02, 0x00, 0x10, 0x63], size: 10) }  // short of the size
    }

    @Test("a chunkset: stored and LZ4 blocks up to bv4$, or one LZBITMAP stream; an unknown block magic is named; a block past the size read is refused")
    func chunksetBlocks() throws {
        func le(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let stored = le(TraceChunkset.storedBlock) + le(3) + Array("xyz".utf8)
        let lz4 = le(TraceChunkset.lz4Block) + le(9) + le(7) + [0x22, 0x61, 0x62, 0x02, 0x00, 0x10, 0x63]
        let stream = stored + lz4 + le(TraceChunkset.endOfStream)
        #expect(try stream.withUnsafeBytes { try TraceChunkset.decompress($0, maximumSize: 12) } == Array("xyzababababc".utf8))
        #expect(throws: UnifiedLogError.self) { try stream.withUnsafeBytes { try TraceChunkset.decompress($0, maximumSize: 11) } }
        let unknown = Array("bv42".utf8) + [UInt8](repeating: 0, count: 12)
        #expect { try unknown.withUnsafeBytes { try TraceChunkset.decompress($0, maximumSize: 100) } } throws: { error in
            (error as? UnifiedLogError)?.reason == "block magic 0x32347662 is not an LZ4 stream's (bv41, bv4-, bv4$) nor LZBITMAP's (ZBM)"
        }
        // An LZBITMAP stream where the first block would be, then padding; bytes after its end that are not padding.
        let lzbitmap = LZBitmapTests.handMade + [0, 0, 0]
        #expect(try lzbitmap.withUnsafeBytes { try TraceChunkset.decompress($0, maximumSize: 16) } == Array("abcdefghabcdefgh".utf8))
        #expect(throws: UnifiedLogError.self) { try (LZBitmapTests.handMade + [1]).withUnsafeBytes { try TraceChunkset.decompress($0, maximumSize: 16) } }
    }

    @Test("a catalog whose offsets pass its end, and a firehose chunk whose public data does, are errors naming the structure")
    func hostileCatalogAndFirehose() {
        var catalog = [UInt8](repeating: 0, count: 24)
        catalog[6] = 0xFF  // chunkset descriptions 255 bytes in, past a 24-byte payload
        #expect { try catalog.withUnsafeBytes { try TraceCatalog(payload: $0) } } throws: { ($0 as? UnifiedLogError)?.structure == "catalog" }
        var firehose = [UInt8](repeating: 0, count: 64)
        firehose[16] = 0xF0  // 240 bytes of public data in a 64-byte payload
        #expect { try firehose.withUnsafeBytes { try FirehoseChunk(payload: $0) } } throws: { ($0 as? UnifiedLogError)?.structure == "firehose chunk" }
    }

    @Test("every entry of the real files lies in its chunkset's time range, as the catalog gives it: what --since and --until skip chunksets by")
    func entriesLieInTheirChunksetsRange() throws {
        let macOS = try [UInt8](Data(contentsOf: TraceV3ArchiveTests.samples.appendingPathComponent("Persist/0000000000000001.tracev3")))
        for (bytes, several) in [(Self.iPadOSPersist, true), (macOS, true), (Self.macOSTiny, false)] {
            var outline = TraceFileOutline()
            var (inside, outside, chunksets) = (0, 0, Set<UInt64>())
            try bytes.withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) in
                try outline.push(raw, firehose: { firehose in
                    chunksets.insert(firehose.chunkset.start)
                    for tracepoint in firehose.chunk.tracepoints {
                        let time = firehose.chunk.baseContinuousTime &+ tracepoint.timeDelta
                        if time >= firehose.chunkset.start && time <= firehose.chunkset.end { inside += 1 } else { outside += 1 }
                    }
                })
            }
            #expect(inside > 0 && outside == 0 && (chunksets.count > 1) == several, "\(inside) inside, \(outside) outside, \(chunksets.count) chunkset starts")
        }
    }
}
