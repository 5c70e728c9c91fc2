import CGzipChecksum
import CZlib
import Foundation
import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

@Suite("gzip inputs")
struct GzipInputTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func compressed() throws -> [UInt8] {
        Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Corpus/formats/log-show-ndjson-gzip/log.ndjson.gz")))
    }

    @Test("a large .gz inflated on its own thread (chunks of 1 MiB) reads exactly as inflated on the reader's thread (small chunks) and as the plain file; cut or corrupt, the same")
    func pipelined() throws {
        let day = DeviceLogGenerator.generate(DeviceLogGenerator.Configuration(seed: 7, targetBytes: 12 << 20)).bytes
        let compressed = try GzipFile.compress(day)
        let configuration = ReaderConfiguration(inputName: "day.ndjson.gz")
        let plain = ReaderVerifier.read(day, configuration: configuration, chunkSize: 1 << 20)
        let pipelined = ReaderVerifier.read(compressed, configuration: configuration, chunkSize: 1 << 20)
        let onThread = ReaderVerifier.read(compressed, configuration: configuration, chunkSize: 60_000)
        #expect(plain.events.count > 10_000)
        #expect(pipelined.events == plain.events)
        #expect(pipelined == onThread)
        // Cut in the middle: the events before the cut, then the truncation note — whichever thread inflated it.
        let cut = Array(compressed.prefix(compressed.count / 2))
        let cutPipelined = ReaderVerifier.read(cut, configuration: configuration, chunkSize: 1 << 20)
        #expect(cutPipelined == ReaderVerifier.read(cut, configuration: configuration, chunkSize: 50_000))
        #expect(cutPipelined.diagnostics.last?.message == "gzip stream ends early; the input is cut short")
        #expect(cutPipelined.events.count > 1000 && cutPipelined.events.count < plain.events.count)
        // Corrupt in the middle: a reader error, the events before it kept, the same either way.
        var corrupt = compressed
        for index in (compressed.count / 2)..<(compressed.count / 2 + 64) { corrupt[index] ^= 0x5A }
        let corruptPipelined = ReaderVerifier.read(corrupt, configuration: configuration, chunkSize: 1 << 20)
        #expect(corruptPipelined.failure?.code == .corruptCompression)
        #expect(corruptPipelined == ReaderVerifier.read(corrupt, configuration: configuration, chunkSize: 50_000))
        #expect(!corruptPipelined.events.isEmpty)
    }

    @Test("a gzip file cut short keeps the events before the cut and says the input is truncated")
    func truncated() throws {
        let bytes = try Self.compressed()
        let outcome = try ReaderVerifier.verify(Array(bytes.prefix(bytes.count - 200)), configuration: ReaderConfiguration(inputName: "cut.gz"))
        #expect(outcome.failure == nil)
        #expect(outcome.format == .logShowNDJSON)
        #expect(!outcome.events.isEmpty)
        #expect(outcome.events.count < 3)
        #expect(outcome.diagnostics.last?.code == .truncatedInput)
        #expect(outcome.diagnostics.last?.message == "gzip stream ends early; the input is cut short")
    }

    @Test("zeros after the last member (padding gzip -t accepts) are passed over and noted, small file or large; data after them is corrupt")
    func trailingZeros() throws {
        let bytes = try Self.compressed()
        let plain = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "x.gz"))
        for padding in [1, 1024, 200_000] {
            let outcome = try ReaderVerifier.verify(bytes + [UInt8](repeating: 0, count: padding), configuration: ReaderConfiguration(inputName: "x.gz"))
            #expect(outcome.failure == nil, "\(padding)")
            #expect(outcome.events == plain.events, "\(padding)")
            #expect(outcome.diagnostics.last?.code == .gzipPadding)
            #expect(outcome.diagnostics.last?.message == "\(padding) bytes of zeros after the last gzip member were passed over (padding)")
        }
        let garbage = ReaderVerifier.read(bytes + [0, 0, 0, 7], configuration: ReaderConfiguration(inputName: "x.gz"))
        #expect(garbage.failure?.code == .corruptCompression)
    }

    @Test("corrupt gzip data is a reader error that says so")
    func corrupt() throws {
        var bytes = try Self.compressed()
        for index in 20..<60 { bytes[index] ^= 0x5A }
        let outcome = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "bad.gz"))
        #expect(outcome.failure?.code == .corruptCompression)
        #expect(outcome.failure?.message.hasPrefix("gzip data is corrupt (") == true)
    }

    @Test("two gzip members back to back read as one input")
    func multiMember() throws {
        let bytes = try Self.compressed()
        let outcome = ReaderVerifier.read(bytes + bytes, configuration: ReaderConfiguration(inputName: "twice.gz"))
        #expect(outcome.failure == nil)
        #expect(outcome.events.count == 6)
        #expect(outcome.events[0].message == outcome.events[3].message)
    }

    @Test("the folded CRC-32 is zlib's, at every length, alignment and starting value (the check of every .gz member)")
    func foldedChecksum() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(1 << 18) + 64).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes.withUnsafeBufferPointer { buffer in
            // Every length up to 300 at each of 16 alignments, then long ones; from 0 and from a CRC carried over.
            var cases: [(offset: Int, count: Int)] = []
            for count in 0...300 { for offset in 0..<16 { cases.append((offset, count)) } }
            for _ in 0..<200 { cases.append((Int.random(in: 0..<64), Int.random(in: 300...(1 << 18)))) }
            for (offset, count) in cases {
                for start: UInt32 in [0, UInt32.random(in: 1...UInt32.max)] {
                    let zlib = UInt32(crc32_z(UInt(start), buffer.baseAddress! + offset, count))
                    let folded = prewarm_crc32(start, buffer.baseAddress! + offset, count)
                    guard zlib == folded else {
                        Issue.record("CRC of \(count) bytes at offset \(offset) from \(start): zlib \(zlib), folded \(folded)")
                        return
                    }
                }
            }
        }
    }

    @Test("a member whose trailer disagrees with its data is corrupt: CRC, length, in the first or the second member, read whole or a byte at a time")
    func trailerChecked() throws {
        let member = try Self.compressed()
        let plain = ReaderVerifier.read(member, configuration: ReaderConfiguration(inputName: "x.gz"))
        #expect(plain.failure == nil && plain.events.count == 3)
        // The trailer: CRC-32 then the length, little-endian, the member's last eight bytes.
        for (position, what) in [(member.count - 8, "incorrect data check"), (member.count - 1, "incorrect length check")] {
            var damaged = member
            damaged[position] ^= 0x01
            for input in [damaged, member + damaged] {
                for chunk in [nil, 1, 3, 7] as [Int?] {
                    let outcome = ReaderVerifier.read(input, configuration: ReaderConfiguration(inputName: "x.gz"), chunkSize: chunk)
                    #expect(outcome.failure?.code == .corruptCompression, "\(what), chunks of \(chunk ?? 0)")
                    #expect(outcome.failure?.message == "gzip data is corrupt (\(what)); nothing after that point was read", "chunks of \(chunk ?? 0)")
                }
            }
        }
        // Unharmed, read a byte at a time (the trailer split across chunks): no failure, the same events.
        let dripped = ReaderVerifier.read(member + member, configuration: ReaderConfiguration(inputName: "x.gz"), chunkSize: 1)
        #expect(dripped.failure == nil)
        #expect(dripped.events.count == 6)
    }
}
