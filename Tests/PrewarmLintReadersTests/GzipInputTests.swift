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

    @Test("zeros after the last member (padding gzip -t accepts) are passed over and noted, small file or large; data after them is corrupt (issue 19)")
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
}
