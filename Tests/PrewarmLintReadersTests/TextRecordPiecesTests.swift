import Foundation
import PrewarmLintModel
@testable import PrewarmLintReaders
import Testing

/// The pieces a text log's reader keeps a record in: a record held as bytes while the caller has refused it, and the
/// record being built.
@Suite("a text record's pieces")
struct TextRecordPiecesTests {
    static let time = TimestampResolver.ResolvedTime(instant: 1_710_772_862_120_871, offset: -25_200, inferred: [])

    @Test("a held record leaves its first line in the chunk until the chunk goes back, then keeps a copy; further lines are kept after a line break")
    func heldRecordKeepsItsLines() {
        var held = HeldTextRecord()
        let first = Array("head <RBSAssertionDescriptor| \"DAS".utf8)
        first.withUnsafeBytes { chunk in
            held.hold(ByteLine(bytes: chunk, number: 7, byteOffset: 120), time: Self.time, inChunk: chunk)
            #expect(held.firstLineIsInChunk && held.bytes.count == 0)
            #expect(held.looksUnfinished, "a bracket and a quote are left open")
            held.keepFirstLine()
        }
        #expect(!held.firstLineIsInChunk && held.bytes.withUnsafeBytes { Array($0) } == first)
        let further = Array("\tattributes = [ ]> \"".utf8)
        let kept = further.withUnsafeBytes { held.holdFurther(ByteLine(bytes: $0, number: 8, byteOffset: 156), maximumMessageLength: 1_000) }
        #expect(kept && held.furtherLines.count == 1 && held.furtherLines[0].number == 8)
        #expect(held.bytes.withUnsafeBytes { Array($0) } == first + [0x0A] + further)
        #expect(!held.looksUnfinished, "the further line closes what the first left open")
        held.removeFurtherLines()
        #expect(held.furtherLines.isEmpty)
    }

    @Test("a held record refuses a further line it could not offer: not ASCII, past the message's limit, or past the most further lines")
    func heldRecordRefusesWhatItCannotOffer() {
        var held = HeldTextRecord()
        let first = Array("first".utf8)
        first.withUnsafeBytes { held.hold(ByteLine(bytes: $0, number: 1, byteOffset: 0), time: Self.time, inChunk: UnsafeRawBufferPointer(start: nil, count: 0)) }
        #expect(!held.firstLineIsInChunk, "a line outside the chunk is copied at once")
        let accented = Array("café".utf8)
        #expect(!accented.withUnsafeBytes { held.holdFurther(ByteLine(bytes: $0, number: 2, byteOffset: 6), maximumMessageLength: 1_000) })
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 64)
        #expect(!long.withUnsafeBytes { held.holdFurther(ByteLine(bytes: $0, number: 2, byteOffset: 6), maximumMessageLength: 32) })
        let short = Array("y".utf8)
        for line in 0..<HeldTextRecord.maximumFurtherLines {
            #expect(short.withUnsafeBytes { held.holdFurther(ByteLine(bytes: $0, number: 2 + line, byteOffset: 0), maximumMessageLength: .max) })
        }
        #expect(!short.withUnsafeBytes { held.holdFurther(ByteLine(bytes: $0, number: 0, byteOffset: 0), maximumMessageLength: .max) })
    }

    @Test("the record being built: its awaited prefixes read from the next line, its message cut once at the limit, its trailing blank lines trimmed")
    func pendingRecordBuildsItsMessage() {
        var pending = PendingTextRecord()
        let event = LogEvent(timestamp: LogTimestamp(microsecondsSinceEpoch: 0, utcOffsetSeconds: 0, text: ""), process: "runningboardd", message: "",
                             origin: EventOrigin(input: "t", line: 1, byteOffset: 0))
        pending.start(event, invalidUTF8: false, awaitsPrefixes: true)
        let prefixes = Array("(RunningBoard) [com.apple.runningboard:job] Executing launch request".utf8)
        #expect(!prefixes.withUnsafeBytes { pending.append($0, maximumMessageLength: 100) })
        #expect(pending.event?.senderImage == "RunningBoard" && pending.event?.subsystem == "com.apple.runningboard" && pending.event?.category == "job")
        #expect(pending.event?.message == "Executing launch request")
        let line = Array("for app<com.example.ledger(501)>".utf8)
        #expect(!line.withUnsafeBytes { pending.append($0, maximumMessageLength: 100) })
        #expect(line.withUnsafeBytes { pending.append($0, maximumMessageLength: 60) }, "the line that takes it past the limit says so")
        #expect(!line.withUnsafeBytes { pending.append($0, maximumMessageLength: 60) }, "once")
        let taken = pending.take()
        #expect(taken?.message == "Executing launch request\nfor app<com.example.ledger(501)>")
        #expect(pending.event == nil && pending.take() == nil)
        // Blank lines that ended a message belong to no one.
        var trailing = PendingTextRecord()
        trailing.start(event, invalidUTF8: false, awaitsPrefixes: false)
        for text in ["Handshake succeeded", "", ""] { _ = Array(text.utf8).withUnsafeBytes { trailing.append($0, maximumMessageLength: 100) } }
        #expect(trailing.take()?.message == "\nHandshake succeeded")
        var invalid = PendingTextRecord()
        invalid.start(event, invalidUTF8: false, awaitsPrefixes: false)
        _ = [UInt8]([0x66, 0xFF]).withUnsafeBytes { invalid.append($0, maximumMessageLength: 100) }
        #expect(invalid.invalidUTF8)
    }
}
