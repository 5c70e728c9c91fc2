import Foundation
import PrewarmLintTesting
import Testing

/// `--format otlp`: the sessions and findings of the JSON report as OTLP/JSON requests, checked against OpenTelemetry's
/// protobuf definitions.
@Suite("prewarm-lint --format otlp")
struct OTLPOutputTests {
    typealias CLI = EventsCommandTests
    static let scenario = EventsCommandTests.repositoryRoot.appendingPathComponent("Corpus/scenarios/prewarm-then-launch-scene-app/log.ndjson").path

    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// The spans of a trace request, or the log records of a logs request.
    static func items(_ request: [String: Any], _ outer: String, _ middle: String, _ inner: String) -> [[String: Any]] {
        ((request[outer] as? [[String: Any]]) ?? []).flatMap { ($0[middle] as? [[String: Any]]) ?? [] }.flatMap { ($0[inner] as? [[String: Any]]) ?? [] }
    }

    static func attribute(_ item: [String: Any], _ key: String) -> Any? {
        let value = ((item["attributes"] as? [[String: Any]]) ?? []).first { $0["key"] as? String == key }?["value"] as? [String: Any]
        return value?["stringValue"] ?? value?["intValue"] ?? value?["boolValue"]
    }

    @Test("each session a trace: its span with its kind, child spans lasting the report's durations; each finding a log record with its rule on the session's span; the same ids every run")
    func sessionsAsSpansFindingsAsLogs() throws {
        let otlp = try CLI.run(["--format", "otlp", Self.scenario])
        let json = try CLI.run(["--format", "json", Self.scenario])
        #expect(otlp.status == json.status && otlp.status == 1, "\(otlp.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let requests = try Self.lines(otlp.stdout)
        let traces = requests.filter { $0["resourceSpans"] != nil }
        #expect(traces.count == sessions.count && !sessions.isEmpty)
        for (session, trace) in zip(sessions, traces) {
            let spans = Self.items(trace, "resourceSpans", "scopeSpans", "spans")
            let root = try #require(spans.first { $0["parentSpanId"] == nil })
            #expect(Self.attribute(root, "prewarm.session.id") as? String == session["id"] as? String)
            #expect(Self.attribute(root, "prewarm.session.kind") as? String == session["kind"] as? String)
            // Every duration of the report is a child span of that length (to the microsecond the log gives).
            let durations = try #require(session["durations"] as? [String: Int])
            for (key, milliseconds) in durations {
                let span = try #require(spans.first { Self.attribute($0, "prewarm.duration") as? String == key }, "\(key)")
                #expect(span["parentSpanId"] as? String == root["spanId"] as? String)
                let nanoseconds = Int64(span["endTimeUnixNano"] as! String)! - Int64(span["startTimeUnixNano"] as! String)!
                #expect(nanoseconds / 1_000_000 == Int64(milliseconds), "\(key)")
            }
            let launch = try #require(session["launch"] as? [String: Any])
            let perceived = try #require(spans.first { ($0["name"] as? String)?.hasPrefix("user-perceived launch") == true })
            #expect(Int64(perceived["endTimeUnixNano"] as! String)! - Int64(perceived["startTimeUnixNano"] as! String)! == Int64(launch["microseconds"] as! Int) * 1000)
            #expect((trace["resourceSpans"] as? [[String: Any]])?.first.map { Self.attribute($0["resource"] as! [String: Any], "service.name") as? String } == session["bundleID"] as? String)
        }
        let records = requests.flatMap { Self.items($0, "resourceLogs", "scopeLogs", "logRecords") }
        #expect(records.map { Self.attribute($0, "prewarm.rule") as? String } == findings.map { $0["rule"] as? String })
        #expect(records.map { $0["severityText"] as? String } == findings.map { ($0["severity"] as? String)?.uppercased() })
        let rootSpans = Set(traces.flatMap { Self.items($0, "resourceSpans", "scopeSpans", "spans") }.filter { $0["parentSpanId"] == nil }.compactMap { $0["spanId"] as? String })
        #expect(records.allSatisfy { rootSpans.contains($0["spanId"] as? String ?? "") })
        // The same logs, the same ids.
        #expect(try CLI.run(["--format", "otlp", Self.scenario]).stdout == otlp.stdout)
        // A log without dates read as of two days: two sessions at two instants, two traces.
        let timeOnly = EventsCommandTests.repositoryRoot.appendingPathComponent("Corpus/scenarios/prewarm-then-launch-scene-app/log.txt").path
        let traceIDs = { (date: String) throws -> Set<String> in
            let requests = try Self.lines(try CLI.run(["--format", "otlp", "--date", date, timeOnly]).stdout)
            return Set(requests.flatMap { Self.items($0, "resourceSpans", "scopeSpans", "spans") }.compactMap { $0["traceId"] as? String })
        }
        let first = try traceIDs("2024-03-18"), second = try traceIDs("2025-07-01")
        #expect(!first.isEmpty && first.isDisjoint(with: second), "\(first) \(second)")
    }

    @Test("the corpus's sessions and findings as OTLP/JSON: every line an export request OpenTelemetry's protobuf definitions parse strictly, ids in hex")
    func validAgainstTheProtobufDefinitions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["--format", "otlp", "--redact", EventsCommandTests.repositoryRoot.appendingPathComponent("Corpus/scenarios").path])
        let output = folder.appendingPathComponent("otlp.ndjson")
        try Data(run.stdout.utf8).write(to: output)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("check-otlp.py")
        guard let (status, text) = try PythonCheck.run(script, [output.path], missingMarker: "NO-OTLP-PROTO",
                                                       skipping: "OTLP output parsed with OpenTelemetry's protobuf definitions",
                                                       install: "python3 -m pip install opentelemetry-proto") else { return }
        #expect(status == 0, "\(text.prefix(3000))")
        #expect(text.contains("checked") && !text.contains("checked 0 requests") && !text.contains(": 0 spans"), "\(text)")
    }
}
