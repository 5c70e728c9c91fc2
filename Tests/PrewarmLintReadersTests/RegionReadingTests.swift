import Foundation
import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// A reader handed a region of an input (a block of a pasted document) with the line and offset of its first byte.
@Suite("a region of an input")
struct RegionReadingTests {
    static let root = CrashReportTests.root

    func configuration(starting start: InputPosition = .beginning) -> ReaderConfiguration {
        var configuration = ReaderConfiguration(inputName: "issue.md")
        configuration.timeInference.date = CivilDateTime(year: 2024, month: 3, day: 18)
        configuration.timeInference.year = 2024
        configuration.start = start
        return configuration
    }

    /// What places an event: where it says it is, and what it is.
    func outline(_ event: LogEvent) -> String {
        "\(event.origin.line)@\(event.origin.byteOffset) \(event.timestamp.microsecondsSinceEpoch) \(event.process)[\(event.pid ?? -1)] \(event.message)"
    }

    @Test("read from a record's first byte with its line and offset: the events of the whole input from there, at the same lines and offsets, whatever the chunking",
          arguments: ["log-show-default-multiline-job-description", "log-show-ndjson-activity-and-log", "console-copy-pid-column",
                      "idevicesyslog-indented-lines"])
    func regionFromARecord(_ name: String) throws {
        let bytes = try Array(Data(contentsOf: Self.root.appendingPathComponent("Corpus/formats/\(name)/log.txt")))
        let whole = try ReaderVerifier.verify(bytes, configuration: configuration())
        try #require(whole.events.count >= 2)
        for event in [whole.events[1], whole.events[whole.events.count - 1]] {
            let start = InputPosition(line: event.origin.line, byteOffset: event.origin.byteOffset)
            try #require(start.line > 1)
            let region = try ReaderVerifier.verify(Array(bytes[start.byteOffset...]), configuration: configuration(starting: start))
            #expect(region.format == whole.format)
            #expect(region.events.map(outline) == whole.events.filter { $0.origin.byteOffset >= start.byteOffset }.map(outline))
        }
    }

    @Test("a region past the format sniffer's sample (a generated day of 300 KB, read from its middle record): the whole input's events from there",
          arguments: [DeviceLogFormat.logShow, .consoleCopy, .ndjson, .idevicesyslog])
    func longRegion(_ format: DeviceLogFormat) throws {
        let bytes = DeviceLogGenerator.generate(.init(targetBytes: 300_000, format: format)).bytes
        let whole = ReaderVerifier.read(bytes, configuration: configuration(), chunkSize: 65_536)
        let middle = whole.events[whole.events.count / 2]
        let start = InputPosition(line: middle.origin.line, byteOffset: middle.origin.byteOffset)
        let region = ReaderVerifier.read(Array(bytes[start.byteOffset...]), configuration: configuration(starting: start), chunkSize: 65_536)
        #expect(region.events.count > 100)
        #expect(region.events.map(outline) == whole.events.filter { $0.origin.byteOffset >= start.byteOffset }.map(outline))
    }

    @Test("a region that opens with prose: its diagnostic names the document's line, and its events their lines")
    func diagnosticsAtTheDocumentsLines() throws {
        // A paste as an issue body has it: two lines of prose, then a fence, then log show's lines (as in
        // Corpus/formats/log-show-default-multiline-job-description), then the closing fence.
        let log = try String(contentsOf: Self.root.appendingPathComponent("Corpus/formats/log-show-default-multiline-job-description/log.txt"),
                             encoding: .utf8)
        let document = "The app logs out after a reboot.\nSteps: reboot, wait, unlock, tap.\n```\nseen on an iPhone 15\n" + log + "```\n"
        let bytes = Array(document.utf8)
        // The region: from the line after the fence (line 4) to the closing fence.
        let regionStart = document.utf8.count - log.utf8.count - "seen on an iPhone 15\n".utf8.count - "```\n".utf8.count
        let regionEnd = bytes.count - "```\n".utf8.count
        let region = try ReaderVerifier.verify(Array(bytes[regionStart..<regionEnd]),
                                               configuration: configuration(starting: InputPosition(line: 4, byteOffset: regionStart)))
        let orphans = try #require(region.diagnostics.first { $0.code == .orphanLines })
        #expect(orphans.origin.line == 4)
        #expect(orphans.origin.byteOffset == regionStart)
        // Each event at the line it is on in the document.
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(!region.events.isEmpty)
        for event in region.events {
            #expect(lines[event.origin.line - 1].contains(event.timestamp.text.prefix(19)))
            #expect(Array(bytes[event.origin.byteOffset...].prefix(10)) == Array(lines[event.origin.line - 1].utf8.prefix(10)))
        }
    }
}
