public import Foundation
import PrewarmLint

/// One case of `Corpus/scenarios/`: a launch story rendered in several formats (`logs`), and the
/// sessions every rendering must yield (`expected.json`).
///
/// `expected.json` holds the sessions as the JSON report writes them, except that evidence is named
/// by the *text* of its line rather than its path and line number, so one file holds for every rendering: the Console copy and the ndjson of a scenario must give
/// the same sessions, down to which line decided each one.
public struct ScenarioCase: Sendable {
    /// What `case.json` holds.
    public struct Description: Codable, Sendable {
        /// The story.
        public var title: String
        /// What it exercises.
        public var shows: String
        /// The real shapes it was written from.
        public var source: String
        /// Its renderings' file names.
        public var logs: [String]
        /// `--date` for the renderings without a date.
        public var date: String?
        /// True when `logs` are not renderings of one story but one device's inputs, read together (a log and a
        /// crash report of the same device): every rendering is then all of them.
        public var together: Bool?
    }

    /// The inputs of one rendering: `log`, or every log of a case read together.
    func inputs(_ log: String) -> [DiscoveredInput] {
        (description.together == true ? description.logs : [log]).map {
            DiscoveredInput(input: .file(directory.appendingPathComponent($0).path), foundInDirectory: false)
        }
    }

    /// The scenario folder.
    public var directory: URL
    /// The folder's name.
    public var name: String { directory.lastPathComponent }
    /// Its `case.json`.
    public var description: Description

    /// The scenario in `directory`.
    public init(directory: URL) throws {
        self.directory = directory
        description = try JSONDecoder().decode(Description.self, from: Data(contentsOf: directory.appendingPathComponent("case.json")))
    }

    /// Every scenario under `folder`, sorted by name.
    public static func all(in folder: URL) throws -> [ScenarioCase] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().compactMap { name in
            let directory = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("case.json").path) else { return nil }
            return try ScenarioCase(directory: directory)
        }
    }

    /// The sessions of one rendering, as the text `expected.json` holds.
    public func renderSessions(log: String) throws -> String {
        var inference = TimeInference()
        inference.date = description.date.flatMap(CivilDateTime.init(dateText:))
        let options = ReadOptions(timeInference: inference)
        // The text of every line, to name evidence by what it says.
        var messages: [String: String] = [:]
        for input in inputs(log) {
            _ = InputReader(options: options).read(input.input) { output in
                if case .event(let event) = output {
                    messages["\(event.origin.input):\(event.origin.line)"] = event.message.split(separator: "\n").first.map(String.init) ?? ""
                }
            }
        }
        let result = SessionPipeline(reader: InputReader(options: options)).run(inputs(log))
        var lines: [String] = []
        for (session, id) in zip(result.sessions, LintReport.sessionIDs(result.sessions)) {
            var writer = JSONTextWriter()
            LintReport.write(session, id: id, to: &writer) { origin, writer in writer.string(messages["\(origin.input):\(origin.line)"]) }
            lines.append("  " + writer.text)
        }
        return "[\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "]\n" : "\n]\n")
    }

    /// The findings of one rendering with every built-in rule, as `findings.json` holds them
    /// (`{"findings": [...]}`):
    /// evidence by time, label and text, not by line, so one file holds for every rendering.
    public func renderFindings(log: String) throws -> String {
        var inference = TimeInference()
        inference.date = description.date.flatMap(CivilDateTime.init(dateText:))
        let report = LintRun(options: ReadOptions(timeInference: inference), toolVersion: "test").run(inputs(log))
        let lines = report.findings.map { finding in
            var writer = JSONTextWriter()
            LintReport.write(finding, to: &writer, withLocations: false)
            return "  " + writer.text
        }
        // An object, not a bare array: an empty `[]` would pass for an empty `log show --style json` export.
        return "{\"findings\": [\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "]}\n" : "\n]}\n")
    }

    /// Compares `actual` with the case's `findings.json` (see ``GoldenFile``).
    public func compareWithExpectedFindings(_ actual: String) throws -> String? {
        try GoldenFile.compare(actual, with: directory.appendingPathComponent("findings.json"), name: name)
    }

    /// Compares `actual` with the case's `expected.json` (see ``GoldenFile``).
    public func compareWithExpected(_ actual: String) throws -> String? {
        try GoldenFile.compare(actual, with: directory.appendingPathComponent("expected.json"), name: name)
    }
}
