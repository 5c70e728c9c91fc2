public import Foundation
public import PrewarmLint

/// One case of the bundled `Corpus/`: a log, what it shows and where its shape came from
/// (`case.json`), and what reading it must give (`expected.json`).
///
/// `case.json` keys: `title`, `shows`, `source` (provenance: a real-log file or the template it
/// was written from), `log` (the file name of the log in the case folder), `format` (the format
/// it must be sniffed as, or `null` for an input that is not a log), and optional `date`,
/// `year`, `utcOffset` (as the CLI options take them).
public struct CorpusCase: Sendable {
    /// What `case.json` holds.
    public struct Description: Codable, Sendable {
        /// What the case is.
        public var title: String
        /// What it exercises.
        public var shows: String
        /// Where it comes from (a real excerpt, or the real shapes it was written from).
        public var source: String
        /// The log file's name in the case folder.
        public var log: String
        /// The format it must be sniffed as; nil for an input that is not a log.
        public var format: String?
        /// `--date`, when the format has no date.
        public var date: String?
        /// `--year`, when the format has no year.
        public var year: Int?
        /// `--utc-offset`, when the format has no offset.
        public var utcOffset: String?
        /// False for a log that is read and yields no event by design (a system watchdog report, said in a note);
        /// nil or true: the case must give events.
        public var hasEvents: Bool?
    }

    /// The case folder.
    public var directory: URL
    /// The folder's name.
    public var name: String { directory.lastPathComponent }
    /// Its `case.json`.
    public var description: Description

    /// The case in `directory`.
    public init(directory: URL) throws {
        self.directory = directory
        let data = try Data(contentsOf: directory.appendingPathComponent("case.json"))
        self.description = try JSONDecoder().decode(Description.self, from: data)
    }

    /// Every case below a corpus folder (`Corpus/formats`), sorted by name.
    public static func all(in folder: URL) throws -> [CorpusCase] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.compactMap { name in
            let directory = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("case.json").path) else { return nil }
            return try CorpusCase(directory: directory)
        }
    }

    /// The reader configuration the case asks for. Origins name the log by its file name, and no
    /// reference time is given, so results never depend on when the repository was checked out.
    public var configuration: ReaderConfiguration {
        var inference = TimeInference()
        inference.date = description.date.flatMap(CivilDateTime.init(dateText:))
        inference.year = description.year
        inference.utcOffsetSeconds = description.utcOffset.flatMap(CivilDateTime.utcOffsetSeconds(fromText:))
        return ReaderConfiguration(inputName: description.log, timeInference: inference)
    }

    /// The log's bytes.
    public func logBytes() throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(description.log)))
    }

    /// The outcome rendered as the text `expected.json` holds: stable, one event per line.
    public static func render(_ outcome: ReaderVerifier.Outcome) -> String {
        let events = EventNDLintReporter()
        var text = "{\n  \"schemaVersion\": 1,\n"
        text += "  \"format\": \(outcome.format.map { "\"\($0.rawValue)\"" } ?? "null"),\n"
        if let failure = outcome.failure {
            var writer = JSONTextWriter()
            writer.beginObject(); writer.field("code", failure.code.rawValue); writer.field("message", failure.message); writer.endObject()
            text += "  \"failure\": \(writer.text),\n"
        }
        let statistics = outcome.statistics
        var writer = JSONTextWriter()
        writer.beginObject()
        writer.field("lines", statistics.lines)
        writer.field("events", statistics.events)
        writer.field("eventLines", statistics.eventLines)
        writer.key("skipped")
        writer.beginObject()
        for reason in SkippedLineReason.allCases where (statistics.skipped[reason] ?? 0) > 0 {
            writer.field(reason.rawValue, statistics.skipped[reason]!)
        }
        writer.endObject()
        writer.field("diagnosedLines", statistics.diagnosedLines)
        writer.endObject()
        text += "  \"summary\": \(writer.text),\n"
        text += "  \"events\": [\n"
        text += outcome.events.map { "    " + events.line(for: $0) }.joined(separator: ",\n")
        text += outcome.events.isEmpty ? "  ],\n" : "\n  ],\n"
        text += "  \"diagnostics\": [\n"
        text += outcome.diagnostics.map { diagnostic in
            var writer = JSONTextWriter()
            writer.beginObject()
            writer.field("line", diagnostic.origin.line)
            writer.field("code", diagnostic.code.rawValue)
            writer.field("severity", diagnostic.severity.rawValue)
            writer.field("lineCount", diagnostic.lineCount)
            writer.field("message", diagnostic.message)
            writer.endObject()
            return "    " + writer.text
        }.joined(separator: ",\n")
        text += outcome.diagnostics.isEmpty ? "  ]" : "\n  ]"
        // dyld's launch statistics, for the inputs that hold some.
        if !outcome.preMainStatistics.isEmpty {
            text += ",\n  \"preMainStatistics\": [\n"
            text += outcome.preMainStatistics.map { statistics in
                var writer = JSONTextWriter()
                PreMainReading.write(PreMainReading(statistics: statistics), to: &writer)
                return "    " + writer.text
            }.joined(separator: ",\n")
            text += "\n  ]"
        }
        // Lines read alone, for the inputs that hold some.
        if !outcome.fragments.isEmpty {
            text += ",\n  \"fragments\": [\n"
            text += outcome.fragments.map { fragment in
                var writer = JSONTextWriter()
                writer.beginObject()
                writer.field("line", fragment.origin.line)
                writer.field("process", fragment.process)
                writer.field("pid", fragment.pid)
                writer.field("time", fragment.time)
                writer.field("text", fragment.text)
                writer.endObject()
                return "    " + writer.text
            }.joined(separator: ",\n")
            text += "\n  ]"
        }
        return text + "\n}\n"
    }

    /// Compares `actual` with the case's `expected.json` (see ``GoldenFile``).
    public func compareWithExpected(_ actual: String) throws -> String? {
        try GoldenFile.compare(actual, with: directory.appendingPathComponent("expected.json"), name: name)
    }
}
