import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// `ReaderConfiguration.skippedProcesses`: the events of those processes are counted and their lines
/// accounted for, never emitted; every other event is exactly what a reader without the option emits,
/// however the input is chunked.
@Suite("skipped processes")
struct SkippedProcessesTests {
    static let skipped: Set<String> = ["locationd", "wifid", "bluetoothd", "mediaserverd", "runningboardd"]

    @Test("every format: the same events minus the skipped processes', the same counts, multi-line records consumed whole",
          arguments: DeviceLogFormat.allCases)
    func sameEventsMinusSkipped(format: DeviceLogFormat) throws {
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: 3, targetBytes: 300_000, format: format, apps: 8, sessionsPerDay: 3_000))
        let inference = TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024, utcOffsetSeconds: DeviceLogGenerator.utcOffsetSeconds)
        let everything = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "day", timeInference: inference))
        let expected = everything.events.filter { !Self.skipped.contains($0.process) }
        #expect(expected.count < everything.events.count, "the log must hold events of the skipped processes")
        // runningboardd's assertion descriptors span several lines: the skip must swallow their continuations.
        #expect(everything.events.contains { $0.process == "runningboardd" && $0.message.contains("\n") })
        for chunkSize in [nil, 1, 7, 4096] as [Int?] {
            let configuration = ReaderConfiguration(inputName: "day", timeInference: inference, skippedProcesses: Self.skipped)
            let outcome = ReaderVerifier.read(bytes, configuration: configuration, chunkSize: chunkSize)
            #expect(outcome.events == expected, "chunk size \(chunkSize.map(String.init) ?? "whole")")
            expectSameAccounting(outcome, as: everything, skipped: everything.events.count - expected.count)
        }
    }
}

/// `ReaderConfiguration.recordFilter`: a text decoder asks it on each record's first line; a refused
/// record is counted and not emitted, unless further lines follow (the filter saw only the first),
/// or its line is not all ASCII (so invalid UTF-8 is still reported).
@Suite("record filter")
struct RecordFilterContractTests {
    /// Refuses every record and remembers what it was asked.
    final class RefusingFilter: RecordFilter, @unchecked Sendable {
        var asked: [(process: String, pid: Int?, firstLine: String)] = []
        func admits(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
            asked.append((process, pid, String(decoding: firstLine, as: UTF8.self)))
            return false
        }
    }

    static let textFormats: [DeviceLogFormat] = [.logShow, .logShowCompact, .logShowSyslog, .consoleCopy, .idevicesyslog, .pymobiledevice3]

    @Test("refusing everything leaves exactly the multi-line and non-ASCII records, the same counts, however chunked", arguments: textFormats)
    func refusingEverything(format: DeviceLogFormat) throws {
        var generator = DeviceLogGenerator(configuration: .init(seed: 5, targetBytes: 200_000, apps: 8, sessionsPerDay: 2_000))
        var records: [DeviceLogRecord] = []
        while let record = generator.next() { records.append(record) }
        // One more record, of an app, whose message is not ASCII.
        var last = try #require(records.last { !$0.message.contains("\n") })
        last.microseconds = records[records.count - 1].microseconds + 1_000
        last.message = "Grüße aus dem Hintergrund"
        records.append(last)
        var writer = DeviceLogWriter(format: format)
        let bytes = Array((writer.prologue() + records.map { writer.render($0) }.joined() + writer.epilogue()).utf8)
        let everything = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "day", timeInference: Self.inference))
        let expected = everything.events.filter { $0.message.contains("\n") || $0.message.utf8.contains { $0 >= 0x80 } }
        #expect(expected.contains { $0.message.contains("\n") }, "the day must hold multi-line records")
        #expect(expected.contains { $0.message.utf8.contains { $0 >= 0x80 } }, "the day must end with a non-ASCII record")
        for chunkSize in [nil, 1, 7, 4096] as [Int?] {
            let filter = RefusingFilter()
            let configuration = ReaderConfiguration(inputName: "day", timeInference: Self.inference, recordFilter: filter)
            let outcome = ReaderVerifier.read(bytes, configuration: configuration, chunkSize: chunkSize)
            #expect(outcome.events == expected, "chunk size \(chunkSize.map(String.init) ?? "whole")")
            expectSameAccounting(outcome, as: everything, skipped: everything.events.count - expected.count)
            // Asked once per all-ASCII record, with its process, pid and the message's first line.
            #expect(filter.asked.count == everything.events.count - 1)
            if let first = filter.asked.first, let event = everything.events.first {
                #expect(first.process == event.process)
                #expect(first.pid == event.pid)
                #expect(event.message.hasPrefix(first.firstLine) || first.firstLine.hasPrefix(event.message))
            }
        }
    }

    @Test("JSON records: a refused record is one whose message has no escape, and every other event is as without the filter",
          arguments: [DeviceLogFormat.ndjson, .logShowJSON, .pymobiledevice3JSON])
    func refusingJSONRecords(format: DeviceLogFormat) throws {
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: 5, targetBytes: 200_000, format: format, apps: 8, sessionsPerDay: 2_000))
        let everything = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "day", timeInference: Self.inference))
        for chunkSize in [nil, 7] as [Int?] {
            let filter = RefusingFilter()
            let configuration = ReaderConfiguration(inputName: "day", timeInference: Self.inference, recordFilter: filter)
            let outcome = ReaderVerifier.read(bytes, configuration: configuration, chunkSize: chunkSize)
            // The events kept are the unfiltered ones, in order; the ones dropped had a message the
            // filter could read as it is (one line, no quote or backslash, ASCII).
            var kept = outcome.events.makeIterator()
            var next = kept.next()
            var dropped: [LogEvent] = []
            for event in everything.events {
                if event == next { next = kept.next() } else { dropped.append(event) }
            }
            #expect(next == nil, "chunk size \(chunkSize.map(String.init) ?? "whole"): an event that was not read without the filter")
            #expect(!dropped.isEmpty)
            #expect(dropped.allSatisfy { !$0.message.contains("\n") && !$0.message.contains("\"") && !$0.message.contains("\\") && $0.message.utf8.allSatisfy { $0 < 0x80 } })
            #expect(outcome.events.contains { $0.message.contains("\n") }, "multi-line messages are escaped, so always built")
            #expect(filter.asked.count >= dropped.count)
            expectSameAccounting(outcome, as: everything, skipped: dropped.count)
        }
    }

    static let inference = TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024,
                                         utcOffsetSeconds: DeviceLogGenerator.utcOffsetSeconds)
}

/// A read that skipped `skipped` events must say so, and otherwise count and diagnose exactly as the read
/// of everything did, with every line accounted for.
func expectSameAccounting(_ outcome: ReaderVerifier.Outcome, as everything: ReaderVerifier.Outcome, skipped: Int,
                          sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(outcome.diagnostics == everything.diagnostics, sourceLocation: sourceLocation)
    #expect(outcome.statistics.events == everything.statistics.events, sourceLocation: sourceLocation)
    #expect(outcome.statistics.eventsSkipped == skipped, sourceLocation: sourceLocation)
    #expect(outcome.statistics.eventLines == everything.statistics.eventLines, sourceLocation: sourceLocation)
    #expect(outcome.statistics.lines == outcome.statistics.eventLines + outcome.statistics.skipped.values.reduce(0, +)
                + outcome.statistics.diagnosedLines, sourceLocation: sourceLocation)
}
