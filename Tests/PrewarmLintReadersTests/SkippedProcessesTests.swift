import Foundation
import PrewarmLintModel
@testable import PrewarmLintReaders
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

/// `ReaderConfiguration.offersRecords`: a text decoder offers each record on its first line; a refused
/// record is counted and not emitted, unless further lines follow (the caller saw only the first),
/// or its line is not all ASCII (so invalid UTF-8 is still reported).
@Suite("records offered before they are built")
struct RecordOfferContractTests {
    /// The name an offer carries, as text.
    static func name(_ offer: RecordOffer) -> String { String(decoding: offer.processName, as: UTF8.self) }

    /// Refuses every record and remembers what it was offered.
    final class RefusingCaller {
        var asked: [(process: String, pid: Int?, firstLine: String)] = []
        func takes(_ offer: inout RecordOffer) -> Bool {
            asked.append((RecordOfferContractTests.name(offer), offer.pid, String(decoding: offer.message, as: UTF8.self)))
            return false
        }
    }

    static let textFormats: [DeviceLogFormat] = [.logShow, .logShowCompact, .logShowSyslog, .consoleCopy, .idevicesyslog, .pymobiledevice3]

    @Test("refusing everything leaves exactly the non-ASCII records, multi-line ones asked again whole, the same counts, however chunked",
          arguments: textFormats)
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
        let expected = everything.events.filter { $0.message.utf8.contains { $0 >= 0x80 } }
        let multiLine = everything.events.filter { $0.message.contains("\n") }
        #expect(!multiLine.isEmpty, "the day must hold multi-line records")
        #expect(expected.map(\.message) == ["Grüße aus dem Hintergrund"], "the day must end with its only non-ASCII record")
        for chunkSize in [nil, 1, 7, 4096] as [Int?] {
            let filter = RefusingCaller()
            let configuration = ReaderConfiguration(inputName: "day", timeInference: Self.inference, offersRecords: true)
            let outcome = ReaderVerifier.read(bytes, configuration: configuration, chunkSize: chunkSize, offers: { filter.takes(&$0) })
            #expect(outcome.events == expected, "chunk size \(chunkSize.map(String.init) ?? "whole")")
            expectSameAccounting(outcome, as: everything, skipped: everything.events.count - expected.count)
            // Asked once per all-ASCII record, with its process, pid and the message's first line — after
            // the `(image) [subsystem:category]` prefixes where the format prints them (the decoder reads
            // them only for a record it builds), or before pymobiledevice3's label suffix — and once more,
            // at its end, with the whole message for each record of several lines.
            #expect(filter.asked.count == everything.events.count - 1 + multiLine.count)
            var asked = filter.asked.makeIterator()
            for event in everything.events.dropLast() {
                guard let first = asked.next() else { break }
                #expect(first.process == event.process)
                #expect(first.pid == event.pid)
                let messageLine = String(event.message.prefix { $0 != "\n" })
                let at = try #require(first.firstLine.range(of: messageLine), "\(first.firstLine)")
                let prefixes = [event.senderImage.map { "(\($0)) " }, event.subsystem.map { "[\($0):\(event.category ?? "")] " }]
                    .compactMap { $0 }.joined()
                #expect(["", prefixes].contains(String(first.firstLine[..<at.lowerBound])), "\(first.firstLine)")
                #expect(first.firstLine[at.upperBound...].isEmpty || format == .pymobiledevice3, "\(first.firstLine)")
                if event.message.contains("\n") {
                    let next = asked.next()
                let whole = try #require(next)
                    #expect(whole.process == event.process)
                    #expect(whole.firstLine.hasPrefix(first.firstLine + "\n"))
                    #expect(whole.firstLine.contains(event.message) || format == .pymobiledevice3, "\(whole.firstLine)")
                }
            }
        }
    }

    /// Takes only a message holding `marker`.
    final class MarkerCaller {
        let marker: String
        var asked: [String] = []
        init(marker: String) { self.marker = marker }
        func takes(_ offer: inout RecordOffer) -> Bool {
            let text = String(decoding: offer.message, as: UTF8.self)
            asked.append(text)
            return text.contains(marker)
        }
    }

    /// `log show` lines of runningboardd: a three-line record between two one-line ones.
    static let threeLineRecord = """
        Timestamp                       Thread     Type        Activity             PID    TTL
        2024-03-18 07:01:02.000001-0700 0x1f2e     Default     0x0                  33     0    runningboardd: (RunningBoard) [com.apple.runningboard:process] One line
        2024-03-18 07:01:02.000002-0700 0x1f2e     Default     0x0                  33     0    runningboardd: (RunningBoard) [com.apple.runningboard:assertion] Acquiring assertion targeting [app<com.example.ledger(501)>:2231] with description <RBSAssertionDescriptor| "DAS Prewarm launch" attributes:[
        	<RBSDomainAttribute| domain:"com.apple.dasd" name:"DYLDLaunch" sourceEnvironment:"(null)">
        	]>
        2024-03-18 07:01:02.000003-0700 0x1f2e     Default     0x0                  33     0    runningboardd: (RunningBoard) [com.apple.runningboard:process] Another line

        """

    @Test("a record refused on its first line is built with all its lines when the filter admits the whole message, whatever the chunks")
    func askedAgainWhole() throws {
        let bytes = Array(Self.threeLineRecord.utf8)
        let everything = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "rb", timeInference: Self.inference))
        #expect(everything.events.count == 3)
        for chunkSize in [nil, 1, 5] as [Int?] {
            let filter = MarkerCaller(marker: "DYLDLaunch")
            let outcome = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "rb", timeInference: Self.inference, offersRecords: true),
                                              chunkSize: chunkSize, offers: { filter.takes(&$0) })
            #expect(outcome.events == [everything.events[1]])
            #expect(outcome.events.first?.message.hasSuffix("sourceEnvironment:\"(null)\">\n\t]>") == true)
            #expect(outcome.events.first?.subsystem == "com.apple.runningboard")
            #expect(outcome.events.first?.origin.line == 3)
            // The first line of each, then the whole of the second.
            #expect(filter.asked.count == 4)
            #expect(filter.asked[2].hasSuffix("\n\t<RBSDomainAttribute| domain:\"com.apple.dasd\" name:\"DYLDLaunch\" sourceEnvironment:\"(null)\">\n\t]>"))
            expectSameAccounting(outcome, as: everything, skipped: 2)
        }
    }

    @Test("a held record's first line, left in the reader's buffer, is the same record when its further lines come in the next read, cut anywhere")
    func heldLineOutlivesItsBuffer() throws {
        let bytes = Array(Self.threeLineRecord.utf8)
        let everything = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "rb", timeInference: Self.inference))
        let breaks = bytes.indices.filter { bytes[$0] == 0x0A }
        let (heldLineStart, heldLineEnd) = (breaks[1] + 1, breaks[2] + 1)
        // The format given, so that no piece waits in the sniffer's sample: the first piece is decoded from a copy, each
        // later one from the buffer itself. Every single cut, and every cut before the held line with one right after
        // it, where the whole line is in a buffer about to be overwritten.
        let cuts = (1..<bytes.count).map { [$0] } + (1...heldLineStart).map { [$0, heldLineEnd] }
        for cut in cuts {
            let filter = MarkerCaller(marker: "DYLDLaunch")
            let outcome = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "rb", timeInference: Self.inference, offersRecords: true),
                                              format: .logShow, cuts: cut, offers: { filter.takes(&$0) })
            #expect(outcome.events == [everything.events[1]], "cut at \(cut)")
            #expect(filter.asked.count == 4, "cut at \(cut)")
            expectSameAccounting(outcome, as: everything, skipped: 2)
        }
    }

    @Test("a held record is built at once, unasked again, when a further line is not ASCII, takes it past the message limit, or is one too many")
    func builtWhenAFurtherLineCannotBeShown() throws {
        let nonASCII = Self.threeLineRecord.replacingOccurrences(of: "sourceEnvironment:\"(null)\"", with: "sourceEnvironment:\"(nüll)\"")
        let manyLines = Self.threeLineRecord.replacingOccurrences(
            of: "\t]>\n", with: String(repeating: "\t<RBSAttribute| x>\n", count: HeldTextRecord.maximumFurtherLines) + "\t]>\n")
        // The second record's message is 141 bytes on its first line and 233 with its second.
        for (text, limit) in [(nonASCII, 100_000), (Self.threeLineRecord, 200), (manyLines, 100_000)] {
            let bytes = Array(text.utf8)
            var limits = ReaderLimits()
            limits.maximumMessageLength = limit
            let plain = ReaderConfiguration(inputName: "rb", timeInference: Self.inference, limits: limits)
            let everything = ReaderVerifier.read(bytes, configuration: plain)
            #expect(everything.diagnostics.map(\.code) == (limit == 200 ? [.messageTooLong] : []))
            let filter = MarkerCaller(marker: "nothing admits this")
            var filtered = plain
            filtered.offersRecords = true
            let outcome = ReaderVerifier.read(bytes, configuration: filtered, offers: { filter.takes(&$0) })
            #expect(outcome.events == [everything.events[1]])
            #expect(filter.asked.count == 3, "each first line, and no second question")
            expectSameAccounting(outcome, as: everything, skipped: 2)
        }
    }

    @Test("JSON records: a refused record is one whose message has no escape, and every other event is as without the filter",
          arguments: [DeviceLogFormat.ndjson, .logShowJSON, .pymobiledevice3JSON])
    func refusingJSONRecords(format: DeviceLogFormat) throws {
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: 5, targetBytes: 200_000, format: format, apps: 8, sessionsPerDay: 2_000))
        let everything = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "day", timeInference: Self.inference))
        for chunkSize in [nil, 7] as [Int?] {
            let filter = RefusingCaller()
            let configuration = ReaderConfiguration(inputName: "day", timeInference: Self.inference, offersRecords: true)
            let outcome = ReaderVerifier.read(bytes, configuration: configuration, chunkSize: chunkSize, offers: { filter.takes(&$0) })
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
