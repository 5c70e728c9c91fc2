@testable import PrewarmLintReaders
import PrewarmLintModel
import Testing

@Suite("lone carriage returns read as line ends")
struct LineEndingsTests {
    /// `text` through a normalizer fed `chunk` bytes at a time, and what it counted.
    static func normalize(_ text: [UInt8], chunk: Int) -> (bytes: [UInt8], lone: Int, first: Int?) {
        var lineEndings = LineEndings()
        var out: [UInt8] = []
        text.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + chunk)
                lineEndings.normalize(UnsafeRawBufferPointer(rebasing: all[start..<end])) { out.append(contentsOf: $0) }
                start = end
            }
        }
        lineEndings.finish { out.append(contentsOf: $0) }
        return (out, lineEndings.loneCarriageReturns, lineEndings.firstLoneCarriageReturn)
    }

    @Test("CR alone, CRLF, LF, CR CR and a CR at the end, fed any number of bytes at a time: each lone CR becomes LF, byte for byte",
          arguments: [1, 2, 3, 5, 64])
    func dripFed(chunk: Int) {
        let text = Array("a\rb\r\nc\nd\r\re\r".utf8)
        let normalized = Self.normalize(text, chunk: chunk)
        #expect(normalized.bytes == Array("a\nb\r\nc\nd\n\ne\n".utf8))
        #expect(normalized.lone == 4)
        #expect(normalized.first == 1)
    }

    @Test("an input without a lone CR passes unchanged, whatever the chunks", arguments: [1, 2, 7])
    func unchanged(chunk: Int) {
        let text = Array("one\r\ntwo\nthree\r\n".utf8)
        let normalized = Self.normalize(text, chunk: chunk)
        #expect(normalized.bytes == text)
        #expect(normalized.lone == 0)
        #expect(normalized.first == nil)
    }

    @Test("random bytes of CR, LF and letters: the same output for every cut")
    func everyCut() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in [0x0D, 0x0A, 0x61].randomElement(using: &generator)! } as [UInt8]
            let whole = Self.normalize(text, chunk: max(1, text.count))
            #expect(whole.bytes.count == text.count)
            #expect(!zip(whole.bytes, whole.bytes.dropFirst()).contains { $0 == 0x0D && $1 != 0x0A })
            for chunk in [1, 2, 3] { #expect(Self.normalize(text, chunk: chunk).bytes == whole.bytes) }
        }
    }

    static let consoleCopy = """
        default\t09:12:44.401000+0100\trunningboardd\tLaunch request for app<com.example.shop(501)> with identifier com.example.shop
        default\t09:12:44.402000+0100\tdasd\tDAS Prewarm launch for com.example.shop
        """

    /// Every event and diagnostic a reader gives for `bytes`, read `chunk` bytes at a time.
    static func read(_ bytes: [UInt8], chunk: Int, format: LogFormat? = nil) throws -> (events: [String], diagnostics: [ReaderDiagnostic], format: LogFormat?) {
        var reader = LogStreamReader(configuration: ReaderConfiguration(inputName: "paste", timeInference: TimeInference(year: 2024)), format: format)
        var events: [String] = []
        var diagnostics: [ReaderDiagnostic] = []
        let emit: (ReaderOutput) -> Void = { output in
            switch output {
            case .event(let event): events.append("\(event.origin.line) \(event.process) \(event.message)")
            case .diagnostic(let diagnostic): diagnostics.append(diagnostic)
            default: break
            }
        }
        var start = 0
        while start < bytes.count {
            let piece = Array(bytes[start..<min(bytes.count, start + chunk)])
            try piece.withUnsafeBytes { try reader.read($0, emit: emit) }
            start += piece.count
        }
        try reader.finish(emit: emit)
        return (events, diagnostics, reader.format)
    }

    @Test("a Console copy with classic Mac line ends reads as its LF copy, said in one note", arguments: [1, 7, 1 << 16])
    func classicMacConsoleCopy(chunk: Int) throws {
        let lf = Array(Self.consoleCopy.utf8) + [0x0A]
        let cr = lf.map { $0 == 0x0A ? 0x0D : $0 }
        let expected = try Self.read(lf, chunk: chunk)
        let read = try Self.read(cr, chunk: chunk)
        #expect(expected.events.count == 2)
        #expect(read.events == expected.events)
        #expect(read.format == .consoleCopy)
        #expect(read.diagnostics.map(\.code) == expected.diagnostics.map(\.code) + [.lineEndings])
        #expect(read.diagnostics.last?.message == "2 carriage returns without a line feed (the first at byte \(lf.firstIndex(of: 0x0A)!)) read as line ends")
        #expect(read.diagnostics.last?.severity == .note)
    }

    @Test("a lone CR past the 64 KiB sniffed is said at its own byte offset")
    func offsetPastTheSample() throws {
        let line = Array("default\t09:12:44.402000+0100\tdasd\tDAS Prewarm launch for com.example.shop\n".utf8)
        var bytes: [UInt8] = []
        while bytes.count < 100_000 { bytes += line }
        let at = bytes.count - 1
        bytes[at] = 0x0D
        bytes += line
        let read = try Self.read(bytes, chunk: 1 << 16)
        #expect(read.diagnostics.last?.message == "1 carriage return without a line feed (the first at byte \(at)) read as line end")
    }

    @Test("a binary property list keeps its bytes: a CR inside it is data")
    func binaryFormatsUntouched() throws {
        #expect(Array("bplist00\r\u{1}".utf8).withUnsafeBytes { FormatSniffer.isBinary($0) })
        #expect(!Array("default\t09:12\r".utf8).withUnsafeBytes { FormatSniffer.isBinary($0) })
    }
}
