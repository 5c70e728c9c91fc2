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
