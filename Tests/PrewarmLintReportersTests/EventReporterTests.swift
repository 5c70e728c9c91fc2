import Foundation
import PrewarmLintModel
import PrewarmLintReporters
import Testing

@Suite("event reporters")
struct EventReporterTests {
    static let event = LogEvent(
        timestamp: LogTimestamp(microsecondsSinceEpoch: 1_689_744_171_916_784, utcOffsetSeconds: 3 * 3600,
                                text: "2023-07-19 08:22:51.916784+0300"),
        process: "remotepairingd", pid: 599, senderImage: "RemotePairing", subsystem: "com.apple.dt.remotepairing",
        category: "networktunnelmanager", type: .info, threadID: 0x3058, activityID: nil,
        message: "tunnel-1: \"up\"\n\tsecond line", origin: EventOrigin(input: "device.log", line: 2, byteOffset: 90)
    )

    @Test("ndjson: every key, in order, escaped")
    func ndjson() {
        #expect(EventNDLintReporter().line(for: Self.event) == #"{"time":"2023-07-19T08:22:51.916784+03:00","timeText":"2023-07-19 08:22:51.916784+0300","inferred":[],"process":"remotepairingd","pid":599,"senderImage":"RemotePairing","subsystem":"com.apple.dt.remotepairing","category":"networktunnelmanager","type":"info","thread":12376,"activity":null,"message":"tunnel-1: \"up\"\n\tsecond line","origin":{"path":"device.log","line":2,"byteOffset":90}}"#)
    }

    @Test("table: aligned columns, inferred time marked, continuation lines indented")
    func table() {
        var event = Self.event
        event.timestamp.inferred = [.date]
        let row = EventTableReporter().row(for: event)
        #expect(row == "2023-07-19 08:22:51.916784 +03:00~ info     remotepairingd[599]          (RemotePairing) [com.apple.dt.remotepairing:networktunnelmanager] tunnel-1: \"up\"\n"
                + String(repeating: " ", count: 73) + "\tsecond line")
    }

    @Test("a coloured table keeps its own colours and shows the message's: an input cannot paint or hide a row")
    func colouredTableShowsTheMessagesEscapes() {
        var event = Self.event
        event.message = "\u{1B}[8mhidden \u{1B}[1;31mred\u{1B}[0m"
        let written = TerminalText.safe(EventTableReporter(useColor: true).row(for: event), colors: true)
        #expect(written.hasSuffix("^[[8mhidden ^[[1;31mred^[[0m"))
        #expect(written.contains(TerminalText.Color.dim.paint("info     ")))
        #expect(TerminalText.safe(EventTableReporter(useColor: false).row(for: event), colors: false).hasSuffix("^[[8mhidden ^[[1;31mred^[[0m"))
    }

    @Test("summary line: counts, reasons and diagnostics")
    func summary() {
        let line = InputSummaryReporter().line(
            input: "a.log", formatName: "log-show", compressed: true, lines: 18, events: 5,
            skipped: [("blank", 0), ("header", 1), ("trailer", 3)], diagnosedLines: 2,
            diagnostics: [(.error, 0), (.warning, 1), (.note, 2)])
        #expect(line == "a.log: log-show (gzip), 5 events from 18 lines; skipped 1 header, 3 trailer, 2 unusable (see diagnostics); 1 warning, 2 notes")
    }
}

/// `JSONTextWriter` writes bytes; what it writes must be what the `String` rendering writes, and JSON.
@Suite("JSON text writer")
struct JSONTextWriterTests {
    /// Keys written as literals take the `StaticString` forms of `key` and `field`; a `String` variable takes the
    /// `String` forms. Both must write the same text, escapes included: literals of one character (held as a scalar,
    /// not a pointer), shorter than a word, of a word, longer, and with a byte to escape in either word.
    static let literalKeys: [(StaticString, String)] = [
        ("x", "x"), ("\"", "\""), ("é", "é"), ("\t", "\t"), ("id", "id"), ("a\"b", "a\"b"), ("bundleID", "bundleID"),
        ("back\\sl", "back\\sl"), ("callbacksBeforeActivation", "callbacksBeforeActivation"), ("1234567\n", "1234567\n"),
        ("12345678\u{1}", "12345678\u{1}"), ("Grüße 日本語", "Grüße 日本語"), ("", ""), ("seventeen chars!!", "seventeen chars!!"),
        ("fifteen chars \"", "fifteen chars \""), ("nine-char", "nine-char"), ("milestones", "milestones"), ("microseconds", "microseconds"),
        ("fifteen-chars-k", "fifteen-chars-k"), ("sixteen-chars-ok", "sixteen-chars-ok"),
    ]

    @Test("keys as literals and as strings: the same text, escaped where they must be")
    func literalAndStringKeys() throws {
        var literal = JSONTextWriter(), dynamic = JSONTextWriter()
        literal.beginObject()
        dynamic.beginObject()
        for (index, (key, text)) in Self.literalKeys.enumerated() {
            switch index % 4 {
            case 0:
                literal.key(key)
                literal.integer(index)
                dynamic.key(text)
                dynamic.integer(index)
            case 1:
                literal.field(key, "v\(index)")
                dynamic.field(text, "v\(index)")
            case 2:
                literal.field(key, index)
                dynamic.field(text, index)
            default:
                literal.field(key, nil as LogTimestamp?)
                dynamic.field(text, nil as LogTimestamp?)
            }
        }
        literal.endObject()
        dynamic.endObject()
        #expect(literal.text == dynamic.text)
        #expect(literal.text.hasPrefix(#"{"x":0,"\"":"v1","é":2,"\t":null,"id":4,"a\"b":"v5""#))
        let decoded = try JSONSerialization.jsonObject(with: Data(literal.text.utf8)) as? [String: Any]
        #expect(decoded?.count == Self.literalKeys.count)
    }

    @Test("strings: every control character, quotes, backslashes, non-ASCII and emoji, the same as the String rendering")
    func strings() throws {
        var samples = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) + "x" }
        samples += ["", "plain", "a \"quoted\" \\ path/with/slashes", "Grüße 日本語 🚀", "tab\tnew\nline\rreturn", "\u{7F}del", "end\\"]
        // Long strings, passed eight bytes at a time until a byte to escape: one at every position, and none.
        for special in ["\"", "\\", "\n", "\u{01}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é", "🚀"] {
            for position in 0..<40 {
                samples.append(String(repeating: "a", count: position) + special + String(repeating: "b", count: 40 - position))
            }
        }
        samples.append(String(repeating: "clean text 0123456789 ", count: 20))
        // Short strings and the last bytes of long ones are checked as one word filled out: a byte to escape at
        // every place of every length up to two words.
        for length in 1...16 {
            for position in 0..<length {
                for special in ["\"", "\\", "\u{01}", "\u{1F}", "\t"] {
                    samples.append(String(repeating: "k", count: position) + special + String(repeating: "v", count: length - position - 1))
                }
            }
            samples.append(String(repeating: "k", count: length))
        }
        for sample in samples {
            var writer = JSONTextWriter()
            writer.string(sample)
            var expected = ""
            JSONTextWriter.appendQuoted(sample, to: &expected)
            #expect(writer.text == expected, "\(sample.debugDescription)")
            let decoded = try JSONSerialization.jsonObject(with: Data("[\(writer.text)]".utf8)) as? [String]
            #expect(decoded == [sample], "\(sample.debugDescription)")
        }
    }

    @Test("nesting deeper than the 64 levels kept in a word: every comma where JSON wants it")
    func deepNesting() throws {
        func write(_ depth: Int, to writer: inout JSONTextWriter) {
            writer.beginArray()
            writer.integer(depth)
            if depth > 0 {
                write(depth - 1, to: &writer)
                writer.beginObject()
                writer.field("depth", depth)
                writer.key("inner")
                write(depth - 1 > 2 ? 2 : 0, to: &writer)
                writer.endObject()
            }
            writer.string("end")
            writer.endArray()
        }
        func expected(_ depth: Int) -> String {
            depth == 0 ? "[0,\"end\"]" : "[\(depth),\(expected(depth - 1)),{\"depth\":\(depth),\"inner\":\(expected(depth - 1 > 2 ? 2 : 0))},\"end\"]"
        }
        for depth in [0, 1, 63, 64, 65, 130] {
            var writer = JSONTextWriter()
            write(depth, to: &writer)
            #expect(writer.text == expected(depth), "depth \(depth)")
            #expect(try JSONSerialization.jsonObject(with: Data(writer.text.utf8)) is [Any])
        }
    }

    @Test("a copy of a writer writes on its own, as a copy of an array would")
    func copies() {
        var writer = JSONTextWriter()
        writer.beginArray()
        writer.string("shared")
        var copy = writer
        copy.string("copy's")
        copy.endArray()
        writer.integer(1)
        writer.endArray()
        #expect(writer.text == "[\"shared\",1]")
        #expect(copy.text == "[\"shared\",\"copy's\"]")
        var long = JSONTextWriter()
        long.beginArray()
        for index in 0..<2_000 { long.integer(index) }
        let before = long
        long.endArray()
        #expect(before.byteCount + 1 == long.byteCount)
        #expect(long.text.hasSuffix("1999]"))
    }

    @Test("timestamps as LogTimestamp.iso8601 writes them, null for none", arguments: [0, 3 * 3600, -(9 * 3600 + 30 * 60), 14 * 3600, -12 * 3600])
    func timestamps(offset: Int) throws {
        var generator = SystemRandomNumberGenerator()
        var instants: [Int64] = [0, -1, 1, -62_135_596_800_000_000, 253_402_300_799_999_999, -62_135_596_800_000_000 - 86_400_000_000]
        instants += (0..<500).map { _ in Int64.random(in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &generator) }
        for instant in instants {
            let timestamp = LogTimestamp(microsecondsSinceEpoch: instant, utcOffsetSeconds: offset, text: "t")
            var writer = JSONTextWriter()
            writer.beginArray()
            writer.time(timestamp)
            writer.time(nil)
            writer.endArray()
            #expect(writer.text == "[\"\(timestamp.iso8601)\",null]", "\(instant) at \(offset)")
        }
    }

    @Test("integers at the edges, and an array of them, as JSON reads them")
    func integers() throws {
        var writer = JSONTextWriter()
        writer.beginArray()
        let values: [Int64] = [0, 7, -7, 10, 99, 100, 1_000_000_007, Int64.max, Int64.min]
        for value in values { writer.integer(value) }
        writer.integer(UInt64.max)
        writer.integer(Optional<Int>.none)
        writer.endArray()
        #expect(writer.text == "[0,7,-7,10,99,100,1000000007,9223372036854775807,-9223372036854775808,18446744073709551615,null]")
        #expect(writer.byteCount == writer.text.utf8.count)
        let taken = writer.takeText()
        #expect(taken.hasPrefix("[0,7"))
        #expect(writer.byteCount == 0 && writer.text.isEmpty)
    }
}
