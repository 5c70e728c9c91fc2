import Foundation
import PrewarmLintModel
import PrewarmLintReaders
import Testing

/// A live stream's pause (`LogStreamReader.pause(endingRecords:emit:)`): what it decides early, and that reading on
/// after it gives what reading the whole input gives.
@Suite("a reader paused")
struct PauseTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/scenarios")

    static func configuration() -> ReaderConfiguration {
        var configuration = ReaderConfiguration(inputName: "t")
        configuration.timeInference.date = CivilDateTime(year: 2024, month: 3, day: 18)
        return configuration
    }

    /// The events of `lines`, fed one line at a time, with a pause after the lines whose indices `pausesAfter` holds;
    /// with each event, how many lines had been fed when it came out (the line being read counted).
    static func read(_ lines: [[UInt8]], pausesAfter: Set<Int>, endingRecords: Bool = true) throws -> [(event: LogEvent, fed: Int)] {
        var reader = LogStreamReader(configuration: configuration())
        var events: [(LogEvent, Int)] = []
        var fed = 0
        func take(_ output: ReaderOutput) { if case .event(let event) = output { events.append((event, fed)) } }
        for (index, line) in lines.enumerated() {
            fed += 1
            try line.withUnsafeBytes { try reader.read($0, emit: take) }
            if pausesAfter.contains(index) { try reader.pause(endingRecords: endingRecords, emit: take) }
        }
        try reader.finish(emit: take)
        return events
    }

    static func lines(_ name: String) throws -> [[UInt8]] {
        let bytes = try [UInt8](Data(contentsOf: scenarios.appendingPathComponent(name)))
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { Array($0) + [0x0A] }
    }

    @Test("a pause after a multi-line record's last line ends it then, with every line; the events are those of the whole input")
    func pauseEndsAMultiLineRecord() throws {
        // A Console copy of a watchdog kill: runningboardd's `Terminating with context` runs from line 9 to line 17.
        let lines = try Self.lines("launch-watchdog-kill/log.txt")
        let whole = try Self.read(lines, pausesAfter: [])
        let paused = try Self.read(lines, pausesAfter: [16])
        #expect(paused.map(\.event) == whole.map(\.event))
        let terminating = try #require(paused.first { $0.event.message.hasPrefix("[app<com.example.ledger(501)>:2231] Terminating with context") })
        #expect(terminating.fed == 17, "the record came out after \(terminating.fed) lines, not at the pause after its last")
        #expect(terminating.event.message.contains("WatchdogEvent: scene-create"))
        // Unpaused, it waits for the next record's first line (and the format for the end of this short input).
        let waited = try #require(whole.first { $0.event.message.hasPrefix("[app<com.example.ledger(501)>:2231] Terminating with context") })
        #expect(waited.fed == lines.count)
    }

    @Test("a pause decides the format from the lines held, well before 64 KiB; a tick does not end a record")
    func pauseDecidesTheFormat() throws {
        let lines = try Self.lines("launch-watchdog-kill/log.txt")
        let ticked = try Self.read(lines, pausesAfter: [3, 10], endingRecords: false)
        let whole = try Self.read(lines, pausesAfter: [])
        #expect(ticked.map(\.event) == whole.map(\.event))
        // The first record came out at the tick after line 4 (the next record's first line had come), and the
        // multi-line record open at the tick after line 11 stayed open.
        #expect(ticked.first?.fed == 4)
        let terminating = try #require(ticked.first { $0.event.message.contains("Terminating with context") })
        #expect(terminating.fed == 18)
    }

    @Test("a pause inside a line waits for the line's end")
    func pauseInsideALine() throws {
        var reader = LogStreamReader(configuration: Self.configuration())
        var events: [LogEvent] = []
        func take(_ output: ReaderOutput) { if case .event(let event) = output { events.append(event) } }
        let line = Array("{\"timestamp\":\"2024-03-18 07:41:02.366512-0700\",\"processID\":33,\"processImagePath\":\"/usr/libexec/runningboardd\",\"eventMessage\":\"hello\",\"messageType\":\"Default\"}\n".utf8)
        try line.prefix(60).withUnsafeBytes { try reader.read($0, emit: take) }
        try reader.pause(emit: take)
        #expect(events.isEmpty)
        try line.dropFirst(60).withUnsafeBytes { try reader.read($0, emit: take) }
        try reader.pause(emit: take)
        #expect(events.map(\.message) == ["hello"])
        try reader.finish(emit: take)
        #expect(events.count == 1)
    }
}
