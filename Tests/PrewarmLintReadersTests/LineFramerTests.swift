@testable import PrewarmLintReaders
import Testing

@Suite("LineFramer")
struct LineFramerTests {
    struct Framed: Equatable {
        var text: String
        var number: Int
        var offset: Int
        var truncated: Bool
    }

    static func frame(_ text: String, chunk: Int, maximum: Int = 1 << 20) -> [Framed] {
        var framer = LineFramer(maximumLineLength: maximum)
        var lines: [Framed] = []
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + chunk)
                framer.feed(UnsafeRawBufferPointer(rebasing: all[start..<end])) { line, truncated in
                    lines.append(Framed(text: String(decoding: line.bytes, as: UTF8.self), number: line.number, offset: line.byteOffset, truncated: truncated))
                }
                start = end
            }
        }
        framer.finish { line, truncated in
            lines.append(Framed(text: String(decoding: line.bytes, as: UTF8.self), number: line.number, offset: line.byteOffset, truncated: truncated))
        }
        return lines
    }

    @Test("CRLF and LF lines, a last line without a break, any chunk size", arguments: [1, 2, 3, 7, 64, 1000])
    func crlf(chunk: Int) {
        let lines = Self.frame("ab\r\nc\r\n\r\ndé\nlast", chunk: chunk)
        #expect(lines == [
            Framed(text: "ab", number: 1, offset: 0, truncated: false),
            Framed(text: "c", number: 2, offset: 4, truncated: false),
            Framed(text: "", number: 3, offset: 7, truncated: false),
            Framed(text: "dé", number: 4, offset: 9, truncated: false),
            Framed(text: "last", number: 5, offset: 13, truncated: false),
        ])
    }

    @Test("a lone CR is not a line break")
    func loneCR() {
        #expect(Self.frame("a\rb\n", chunk: 2).map(\.text) == ["a\rb"])
    }

    @Test("a line over the limit is cut and flagged, and the next line is whole", arguments: [1, 5, 64])
    func overlong(chunk: Int) {
        let lines = Self.frame(String(repeating: "x", count: 50) + "\nnext\n", chunk: chunk, maximum: 16)
        #expect(lines == [
            Framed(text: String(repeating: "x", count: 16), number: 1, offset: 0, truncated: true),
            Framed(text: "next", number: 2, offset: 51, truncated: false),
        ])
    }
}
