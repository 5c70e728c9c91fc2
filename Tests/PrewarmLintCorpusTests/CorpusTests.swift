import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let formatCases = (try? CorpusCase.all(in: repositoryRoot.appendingPathComponent("Corpus/formats"))) ?? []

@Suite("Corpus/formats")
struct CorpusTests {
    @Test("the corpus has a case for every supported format")
    func coversEveryFormat() {
        let covered = Set(formatCases.compactMap(\.description.format))
        // A tar archive is built by its tests (`SysdiagnoseTests`, with `TarArchiveBuilder`), in the shapes they need; a
        // `.logarchive` is a folder, laid out by its tests from the real files of `UnifiedLogSamples/`
        // (`LintCommandTests`, `TraceV3ArchiveTests`).
        for format in LogFormat.allCases where format != .tarArchive && format != .logArchive {
            #expect(covered.contains(format.rawValue), "no corpus case reads as \(format.rawValue)")
        }
    }

    @Test("each case reads as its format, the same in any chunking, and matches expected.json", arguments: formatCases.map(\.name))
    func corpusCase(name: String) throws {
        let corpusCase = try #require(formatCases.first { $0.name == name })
        let outcome = try ReaderVerifier.verify(try corpusCase.logBytes(), configuration: corpusCase.configuration)
        if let format = corpusCase.description.format {
            #expect(outcome.format?.rawValue == format)
            #expect(outcome.failure == nil)
            #expect(outcome.events.isEmpty == (corpusCase.description.hasEvents == false))
        } else {
            #expect(outcome.failure?.code == .unrecognizedFormat)
        }
        if let problem = try corpusCase.compareWithExpected(CorpusCase.render(outcome)) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test("gzip input gives the same events as the uncompressed file")
    func gzipMatchesPlain() throws {
        let plain = try #require(formatCases.first { $0.name == "log-show-ndjson-preamble-trailer" })
        let compressed = try #require(formatCases.first { $0.name == "log-show-ndjson-gzip" })
        let a = ReaderVerifier.read(try plain.logBytes(), configuration: ReaderConfiguration(inputName: "x"))
        let b = ReaderVerifier.read(try compressed.logBytes(), configuration: ReaderConfiguration(inputName: "x"))
        #expect(a.events == b.events)
        #expect(a.events.count == 3)
    }

    @Test("the json and ndjson renderings of the same records give the same events")
    func jsonMatchesNDJSON() throws {
        let json = try #require(formatCases.first { $0.name == "log-show-json-pretty-array" })
        let ndjson = try #require(formatCases.first { $0.name == "log-show-ndjson-preamble-trailer" })
        let a = ReaderVerifier.read(try json.logBytes(), configuration: ReaderConfiguration(inputName: "x"))
        let b = ReaderVerifier.read(try ndjson.logBytes(), configuration: ReaderConfiguration(inputName: "x"))
        func stripOrigin(_ events: [LogEvent]) -> [LogEvent] {
            events.map { var event = $0; event.origin = EventOrigin(input: "x", line: 0, byteOffset: 0); return event }
        }
        #expect(stripOrigin(a.events) == stripOrigin(b.events))
        #expect(a.events.map(\.message).contains("didFinishLaunching: state=background\nprewarm=\"1\" café"))
    }
}
