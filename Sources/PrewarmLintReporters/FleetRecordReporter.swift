import PrewarmLintClassifier
import PrewarmLintModel
import PrewarmLintRules
import PrewarmLintSessions
import PrewarmLintSpool

/// `--format fleet`: newline-delimited JSON for many runs' outputs concatenated into one file that an engine reads as
/// is (DuckDB's `read_json`, Spark's `spark.read.json`, ClickHouse's `JSONEachRow`; `docs/fleet.md`). One record per
/// input (`"record": "input"`: its path, format, events, devices, error — null when it was read) and one per session (`"record": "session"`:
/// its input, the devices its input says, the app, kind, confidence, start, user-perceived launch, durations and its
/// findings counted by rule), each with the `schemaVersion`. A session read from one input has that input's devices; one
/// of inputs read together (one device's logs), the devices all its inputs say. When those name one device and system,
/// it is also given flat (`system`, `version`, `build`, `model`), for grouping without unnesting; when they name
/// several or none, the flat fields are absent (never picked). Written a record at a time: runs over thousands of
/// inputs stay flat in memory.
public struct FleetRecordReporter: Sendable {
    /// The version of the records' shape.
    public static let schemaVersion = 1

    /// A reporter; it has no settings.
    public init() {}

    /// The records.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The records, handed to `output` in pieces of about 64 KiB.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        render(report) { bytes in output(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The records' UTF-8, handed to `output` in pieces valid only during each call.
    public func render(_ report: LintReport, toUTF8 output: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONTextWriter()
        func endRecord() {
            writer.endJSONLine()
            if writer.byteCount >= 1 << 16 { writer.takeBytes(output) }
        }
        var devicesByInput: [String: [DeviceIdentity]] = [:]
        for input in report.inputs {
            devicesByInput[input.path] = input.devices
            writer.beginObject()
            writer.field("schemaVersion", Self.schemaVersion)
            writer.field("record", "input")
            writer.field("path", input.path)
            writer.field("format", input.format)
            writer.field("events", input.events)
            if input.eventsUnworded > 0 { writer.field("eventsUnworded", input.eventsUnworded) }
            Self.write(input.devices, to: &writer)
            writer.field("error", input.error)
            writer.endObject()
            endRecord()
        }
        // A session's findings by rule (findings come in the listing's order: one pass).
        var findingsBySession: [String: [String: Int]] = [:]
        for finding in report.findings { findingsBySession[finding.sessionID, default: [:]][finding.ruleID, default: 0] += 1 }
        // Read as one device's logs, a session may draw on every input: their devices, each once.
        let allDevices = report.inputs.flatMap(\.devices).reduce(into: [DeviceIdentity]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
        let sessions = report.sessions, ids = report.sessionIDs
        for index in 0..<sessions.count {
            let session = sessions[index], id = ids[index]
            let input = report.input(ofSessionAt: index) ?? (report.inputs.count == 1 ? report.inputs[0].path : nil)
            let devices = input.flatMap { devicesByInput[$0] } ?? allDevices
            writer.beginObject()
            writer.field("schemaVersion", Self.schemaVersion)
            writer.field("record", "session")
            writer.field("session", id)
            writer.field("input", input)
            let described = Set(devices.map { [$0.system, $0.version, $0.build, $0.model] })
            if described.count == 1, let first = devices.first {
                writer.field("system", first.system)
                writer.field("version", first.version)
                writer.field("build", first.build)
                writer.field("model", first.model)
            }
            Self.write(devices, to: &writer)
            writer.field("bundleID", session.app.bundleID)
            writer.field("process", session.app.processName)
            writer.field("kind", session.kind.rawValue)
            writer.field("confidence", session.confidence.rawValue)
            writer.field("start", session.start)
            writer.key("launchMs")
            if let launch = session.userPerceivedLaunch { writer.number(Double(launch.microseconds) / 1000) } else { writer.string(nil) }
            writer.key("durations")
            writer.beginObject()
            for (key, milliseconds) in LintReport.durations(of: session) { writer.field(key, milliseconds) }
            writer.endObject()
            writer.key("evidenceIncomplete")
            writer.bool(session.evidenceIncomplete)
            let findings = findingsBySession[id] ?? [:]
            writer.field("findingCount", findings.values.reduce(0, +))
            writer.key("findings")
            writer.beginObject()
            for (rule, count) in findings.sorted(by: { $0.key < $1.key }) { writer.field(rule, count) }
            writer.endObject()
            writer.endObject()
            endRecord()
        }
        if report.partial {
            writer.beginObject()
            writer.field("schemaVersion", Self.schemaVersion)
            writer.field("record", "interrupted")
            writer.field("message", "the results cover what was read until then")
            writer.endObject()
            endRecord()
        }
        if writer.byteCount > 0 { writer.takeBytes(output) }
    }

    private static func write(_ devices: [DeviceIdentity], to writer: inout JSONTextWriter) {
        writer.key("devices")
        writer.beginArray()
        for device in devices {
            writer.beginObject()
            writer.field("source", device.source.rawValue)
            writer.field("system", device.system)
            writer.field("version", device.version)
            writer.field("build", device.build)
            writer.field("model", device.model)
            writer.field("reference", device.reference)
            writer.endObject()
        }
        writer.endArray()
    }
}

extension FleetRecordReporter: ReportRenderer {
    /// `fleet`.
    public var formatName: String { "fleet" }
}
