import Foundation
@testable import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// LZBITMAP, the compression of iOS 27's chunksets. No public file holds a stream of Apple's encoder, so the decoder
/// is tested on a stream laid out by hand, on the streams of the tests' encoder (``LZBitmapEncoder``) also decoded by
/// dissect.util (an independent decoder), on real tracev3 files rewritten with such streams, and on hostile streams.
@Suite("LZBITMAP")
struct LZBitmapTests {
    static func decode(_ stream: [UInt8], maximumSize: Int = 1 << 20) throws(UnifiedLogError) -> [UInt8] {
        var output: [UInt8] = []
        let used = try stream.withUnifiedLogBytes { (bytes: UnsafeRawBufferPointer) throws(UnifiedLogError) in
            try LZBitmapDecoder.decode(bytes, maximumSize: maximumSize, into: &output)
        }
        #expect(used == stream.count)
        return output
    }

    static func u24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16)] }

    /// "abcdefgh" twice: a group of 8 literals, then a group of 8 copies at the initial distance (8), both through
    /// token 0 (bitmap from the bitmap region, distance unchanged).
    static let handMade: [UInt8] = Array("ZBM\u{0C}".utf8) + u24(43) + u24(16) + u24(23) + u24(23) + u24(25)
        + Array("abcdefgh".utf8) + [0xFF, 0x00] + [0x00] + [UInt8](repeating: 0, count: 17) + u24(6) + u24(0)

    @Test("a stream laid out by hand: literals, then copies at the initial distance of 8, through the bitmap region")
    func handMadeStream() throws {
        #expect(try Self.decode(Self.handMade) == Array("abcdefghabcdefgh".utf8))
        // The same group through the table: pair 3 is (0x00, no distance), the second token 3.
        var table = Self.handMade
        table[4 + 15 + 8 + 2] = 0x30  // tokens 0 then 3; the bitmap region's second byte unread
        #expect(try Self.decode(table) == Array("abcdefghabcdefgh".utf8))
        // A stored chunk, then the end.
        let stored = Array("ZBM\u{9}".utf8) + Self.u24(9) + Self.u24(3) + Array("xyz".utf8) + Self.u24(6) + Self.u24(0)
        #expect(try Self.decode(stored) == Array("xyz".utf8))
    }

    static func samples() -> [(name: String, bytes: [UInt8])] {
        var generator = SeededGenerator(seed: 27)
        let random = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Array(String(repeating: "runningboardd: Acquiring assertion targeting [app<com.example(501)>:812] ", count: 900).utf8)
        var mixed: [UInt8] = []
        while mixed.count < 100_000 {
            mixed += Bool.random(using: &generator) ? Array(text[0..<Int.random(in: 1...300, using: &generator)])
                : (0..<Int.random(in: 1...40, using: &generator)).map { _ in UInt8.random(in: 0...3, using: &generator) }
        }
        return [("empty", []), ("one", [7]), ("seven", Array("1234567".utf8)), ("nine", Array("aaaaaaaaa".utf8)),
                ("zeros", [UInt8](repeating: 0, count: 40_000)), ("random", random), ("text", text), ("mixed", mixed)]
    }

    @Test("the tests' encoder round-trips every shape in both variants, stored or compressed, and shrinks what repeats")
    func roundTrip() throws {
        for (name, bytes) in Self.samples() {
            for variant in LZBitmapEncoder.Variant.allCases {
                let stream = LZBitmapEncoder.encode(bytes, variant: variant)
                #expect(try Self.decode(stream) == bytes, "\(name), \(variant)")
                #expect(try Self.decode(LZBitmapEncoder.encode(bytes, variant: variant, storeAll: true)) == bytes, "\(name) stored")
                if name == "text" || name == "zeros" { #expect(stream.count < bytes.count / 4, "\(name), \(variant): \(stream.count)") }
            }
        }
    }

    @Test("dissect.util decodes the encoder's streams (flags 0x09, the variant it reads) to the same bytes")
    func independentDecoder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lzbitmap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = Self.samples().filter { !$0.bytes.isEmpty }
        for (name, bytes) in samples {
            try Data(LZBitmapEncoder.encode(bytes, variant: .runLengths)).write(to: folder.appendingPathComponent("\(name).zbm"))
            try Data(bytes).write(to: folder.appendingPathComponent("\(name).raw"))
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("check-lzbitmap.py")
        guard let (status, text) = try PythonCheck.run(script, [folder.path], missingMarker: "NO-DISSECT",
                                                       skipping: "LZBITMAP streams decoded by dissect.util", install: "python3 -m pip install dissect.util") else { return }
        #expect(status == 0, "\(text.prefix(3000))")
        #expect(text.contains("checked \(samples.count) streams, 0 differ"), "\(text.prefix(3000))")
    }

    @Test("hostile streams end in an error naming what: flags, a cut header, a chunk past the input or the size read, regions out of order, a match before the stream, tokens or distances that run out")
    func hostileStreams() {
        func fails(_ stream: [UInt8], _ reason: String, maximumSize: Int = 1 << 20) {
            #expect { try Self.decode(stream, maximumSize: maximumSize) } throws: { error in
                ((error as? UnifiedLogError)?.reason ?? "").contains(reason)
            }
        }
        var flags = Self.handMade
        flags[3] = 0x0A
        fails(flags, "flags 0xa")
        fails(Array(Self.handMade[0..<8]), "cut inside a chunk header")
        fails(Array(Self.handMade.dropLast(7)), "a chunk of 43 bytes, 42 left")
        fails(Self.handMade, "passes the 15 read", maximumSize: 15)
        var order = Self.handMade
        order[4 + 9] = 30  // the bitmaps after the tokens
        fails(order, "out of order")
        var back = Self.handMade
        back[4 + 15 + 8] = 0x00  // the first bitmap: copies, with nothing decoded
        fails(back, "a match 8 bytes back, 0 decoded")
        var tokens = Self.handMade
        tokens[4 + 12] = 26  // the token region empty: its one byte read as the table's
        tokens[4 + 3] = 0x00; tokens[4 + 4] = 0x01  // and 256 bytes to decode
        fails(tokens, "the tokens ran out")
        var bitmaps = Self.handMade
        bitmaps[4 + 15 + 8 + 2] = 0x11  // tokens 1: each a bitmap and a 1-byte distance, none in the region
        fails(bitmaps, "the distances ran out")
        var huge = Self.handMade
        huge[4 + 3] = 0xFF; huge[4 + 4] = 0xFF; huge[4 + 5] = 0x00
        fails(huge, "a chunk decoding to 65535 bytes")
    }

    @Test("a real macOS tracev3 file rewritten with LZBITMAP chunksets (as iOS 27 writes them) outlines as the original: the same catalogs, chunks and tracepoints")
    func rewrittenRealFile() throws {
        let original = TraceV3StructureTests.outline(TraceV3StructureTests.macOSTiny)
        #expect(original.error == nil && original.chunksets == 1)
        for variant in LZBitmapEncoder.Variant.allCases {
            let rewritten = try #require(TraceV3Rewriter.withLZBitmapChunksets(TraceV3StructureTests.macOSTiny, variant: variant))
            #expect(rewritten.count != TraceV3StructureTests.macOSTiny.count)
            #expect(TraceV3StructureTests.outline(rewritten) == original)
            #expect(TraceV3StructureTests.outline(rewritten, cuts: Array(stride(from: 1, to: rewritten.count, by: 3))) == original)
        }
    }
}
