import PrewarmLintClassifier
import PrewarmLintConfiguration
import PrewarmLintModel
import PrewarmLintRules
import PrewarmLintSessions
import PrewarmLintSpool

/// `--format otlp`: OpenTelemetry's OTLP/JSON, one export request per line, as the collector's `otlpjsonfile` receiver
/// reads a file. Each session is a trace request: a span for the session (its start to its end), a child span for its
/// user-perceived launch and one for each duration the JSON report gives (`prewarmToActivationMs`…, named in the span's
/// `prewarm.duration`), each between the two milestones it is measured from. A session's findings follow as one logs request: a log
/// record per finding, its rule, severity and decisive evidence as attributes, tied to the session's span.
///
/// The resource is the app on its device: `service.name` (the bundle id, else the process name), and, when the
/// session's inputs name one device and system, `os.name`, `os.version`, `os.build_id` and `device.model.identifier`.
/// Trace and span ids are in hex, as OTLP/JSON requires (not protobuf JSON's base64), made from the session's input,
/// id, start instant and devices, so the same logs give the same ids on every run; times are nanoseconds since 1970, as strings.
public struct OTLPReporter: Sendable {
    /// A reporter; it has no settings.
    public init() {}

    /// The requests.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The requests, handed to `output` in pieces of about 64 KiB.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        render(report) { bytes in output(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The requests' UTF-8, handed to `output` in pieces valid only during each call.
    public func render(_ report: LintReport, toUTF8 output: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONTextWriter()
        func endRequest() {
            writer.endJSONLine()
            if writer.byteCount >= 1 << 16 { writer.takeBytes(output) }
        }
        var devicesByInput: [String: [DeviceIdentity]] = [:]
        for input in report.inputs { devicesByInput[input.path] = input.devices }
        let allDevices = report.inputs.flatMap(\.devices).reduce(into: [DeviceIdentity]()) { if !$0.contains($1) { $0.append($1) } }
        // The findings of each session, in the listing's order (one pass over them).
        var findingsBySession: [String: [Finding]] = [:]
        for finding in report.findings { findingsBySession[finding.sessionID, default: []].append(finding) }
        let sessions = report.sessions, ids = report.sessionIDs
        for index in 0..<sessions.count {
            let session = sessions[index], id = ids[index]
            let input = report.input(ofSessionAt: index) ?? (report.inputs.count == 1 ? report.inputs[0].path : nil)
            let devices = input.flatMap { devicesByInput[$0] } ?? allDevices
            // The instant, not the text: the same time-only log dated two days gives two traces.
            let trace = Self.identifier(input ?? "", id, session.start.map { String($0.microsecondsSinceEpoch) } ?? "",
                                        devices.map { $0.reference ?? "" }.joined(separator: ","))
            let root = Self.spanIdentifier(trace, "session")
            let resource = Resource(app: session.app, devices: devices, toolVersion: report.toolVersion)

            Self.writeRequest(.traces, resource: resource, toolVersion: report.toolVersion, to: &writer) { writer in
                if let start = session.start {
                    let end = session.end ?? start
                    Self.writeSpan(trace: trace, span: root, parent: nil, name: "launch session \(id)", start: start, end: end, to: &writer) { writer in
                        Self.attribute("prewarm.session.id", id, to: &writer)
                        Self.attribute("prewarm.session.kind", session.kind.rawValue, to: &writer)
                        Self.attribute("prewarm.session.confidence", session.confidence.rawValue, to: &writer)
                        Self.attribute("prewarm.session.evidence_incomplete", session.evidenceIncomplete, to: &writer)
                        Self.attribute("prewarm.input", input, to: &writer)
                        if let pid = session.app.pid { Self.attribute("process.pid", Int64(pid), to: &writer) }
                        if let name = session.app.processName { Self.attribute("process.executable.name", name, to: &writer) }
                        if let launch = session.userPerceivedLaunch {
                            Self.attribute("prewarm.launch.ms", launch.microseconds / 1000, to: &writer)
                        }
                        Self.attribute("prewarm.findings", Int64(findingsBySession[id]?.count ?? 0), to: &writer)
                    }
                    if let launch = session.userPerceivedLaunch {
                        Self.writeSpan(trace: trace, span: Self.spanIdentifier(trace, "launch"), parent: root,
                                       name: "user-perceived launch: \(launch.start.name.rawValue) → \(launch.end.name.rawValue)",
                                       start: launch.start.time, end: launch.end.time, to: &writer) { writer in
                            Self.attribute("prewarm.phase.from", launch.start.name.rawValue, to: &writer)
                            Self.attribute("prewarm.phase.to", launch.end.name.rawValue, to: &writer)
                        }
                    }
                    // The durations the report gives (its `durations` keys), each between its two milestones.
                    for phase in LintReport.durationPairs {
                        guard let from = session.milestone(phase.from), let to = session.milestone(phase.to) else { continue }
                        Self.writeSpan(trace: trace, span: Self.spanIdentifier(trace, phase.key.description), parent: root,
                                       name: "\(phase.from.rawValue) → \(phase.to.rawValue)", start: from.time, end: to.time, to: &writer) { writer in
                            Self.attribute("prewarm.duration", phase.key.description, to: &writer)
                            Self.attribute("prewarm.phase.from", phase.from.rawValue, to: &writer)
                            Self.attribute("prewarm.phase.to", phase.to.rawValue, to: &writer)
                        }
                    }
                }
            }
            endRequest()

            guard let findings = findingsBySession[id], !findings.isEmpty else { continue }
            Self.writeRequest(.logs, resource: resource, toolVersion: report.toolVersion, to: &writer) { writer in
                for finding in findings {
                    writer.beginObject()
                    let time = finding.evidence.first?.time ?? session.start
                    if let time { writer.field("timeUnixNano", Self.nanoseconds(time)) }
                    writer.field("severityNumber", Self.severityNumber(finding.severity))
                    writer.field("severityText", finding.severity.rawValue.uppercased())
                    writer.key("body")
                    writer.beginObject()
                    writer.field("stringValue", finding.message)
                    writer.endObject()
                    writer.key("attributes")
                    writer.beginArray()
                    Self.attribute("prewarm.rule", finding.ruleID, to: &writer)
                    Self.attribute("prewarm.session.id", id, to: &writer)
                    if let location = finding.location {
                        Self.attribute("prewarm.evidence.path", location.input, to: &writer)
                        Self.attribute("prewarm.evidence.line", Int64(location.line), to: &writer)
                    }
                    if let decisive = finding.evidence.first { Self.attribute("prewarm.evidence.text", decisive.text, to: &writer) }
                    if let missing = finding.missingEvidence { Self.attribute("prewarm.evidence.missing", missing, to: &writer) }
                    writer.endArray()
                    if session.start != nil {
                        writer.field("traceId", trace)
                        writer.field("spanId", root)
                    }
                    writer.endObject()
                }
            }
            endRequest()
        }
        if writer.byteCount > 0 { writer.takeBytes(output) }
    }

    /// The resource: the app on its device.
    private struct Resource {
        var app: AppIdentity
        var devices: [DeviceIdentity]
        var toolVersion: String

        func write(to writer: inout JSONTextWriter) {
            writer.key("resource")
            writer.beginObject()
            writer.key("attributes")
            writer.beginArray()
            OTLPReporter.attribute("service.name", app.bundleID ?? app.processName ?? "unknown app", to: &writer)
            if let bundleID = app.bundleID { OTLPReporter.attribute("app.bundle_id", bundleID, to: &writer) }
            // Flat only when the inputs name one device and system (never picked among several).
            if Set(devices.map { [$0.system, $0.version, $0.build, $0.model] }).count == 1, let device = devices.first {
                if let system = device.system { OTLPReporter.attribute("os.name", system, to: &writer) }
                if let version = device.version { OTLPReporter.attribute("os.version", version, to: &writer) }
                if let build = device.build { OTLPReporter.attribute("os.build_id", build, to: &writer) }
                if let model = device.model { OTLPReporter.attribute("device.model.identifier", model, to: &writer) }
            }
            writer.endArray()
            writer.endObject()
        }
    }

    /// The two kinds of export request written, by their keys: `resourceSpans`/`scopeSpans`/`spans` and
    /// `resourceLogs`/`scopeLogs`/`logRecords`.
    private enum Request {
        case traces, logs
        var keys: (resource: StaticString, scope: StaticString, items: StaticString) {
            switch self {
            case .traces: ("resourceSpans", "scopeSpans", "spans")
            case .logs: ("resourceLogs", "scopeLogs", "logRecords")
            }
        }
    }

    /// One export request: its resource, prewarm-lint's scope, and the items `items` writes.
    private static func writeRequest(_ request: Request, resource: Resource, toolVersion: String, to writer: inout JSONTextWriter,
                                     items: (inout JSONTextWriter) -> Void) {
        let keys = request.keys
        writer.beginObject()
        writer.key(keys.resource)
        writer.beginArray()
        writer.beginObject()
        resource.write(to: &writer)
        writer.key(keys.scope)
        writer.beginArray()
        writer.beginObject()
        writer.key("scope")
        writer.beginObject()
        writer.field("name", "prewarm-lint")
        writer.field("version", toolVersion)
        writer.endObject()
        writer.key(keys.items)
        writer.beginArray()
        items(&writer)
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
    }

    private static func writeSpan(trace: String, span: String, parent: String?, name: String, start: LogTimestamp, end: LogTimestamp,
                                  to writer: inout JSONTextWriter, attributes: (inout JSONTextWriter) -> Void) {
        writer.beginObject()
        writer.field("traceId", trace)
        writer.field("spanId", span)
        if let parent { writer.field("parentSpanId", parent) }
        writer.field("name", name)
        writer.field("kind", 1)  // SPAN_KIND_INTERNAL
        writer.field("startTimeUnixNano", nanoseconds(start))
        // A span cannot end before it starts: a clock stepped back between the milestones ends it where it starts.
        writer.field("endTimeUnixNano", nanoseconds(end.microsecondsSinceEpoch >= start.microsecondsSinceEpoch ? end : start))
        writer.key("attributes")
        writer.beginArray()
        attributes(&writer)
        writer.endArray()
        writer.endObject()
    }

    /// `{"key": …, "value": {"stringValue": …}}`; nothing for nil.
    static func attribute(_ key: String, _ value: String?, to writer: inout JSONTextWriter) {
        guard let value else { return }
        attribute(key, "stringValue", to: &writer) { $0.string(value) }
    }

    /// An integer attribute: OTLP/JSON writes 64-bit integers as strings.
    static func attribute(_ key: String, _ value: Int64, to writer: inout JSONTextWriter) {
        attribute(key, "intValue", to: &writer) { $0.string(String(value)) }
    }

    static func attribute(_ key: String, _ value: Bool, to writer: inout JSONTextWriter) {
        attribute(key, "boolValue", to: &writer) { $0.bool(value) }
    }

    /// `{"key": KEY, "value": {TYPE: …}}`, the value written by `value`.
    private static func attribute(_ key: String, _ type: StaticString, to writer: inout JSONTextWriter, _ value: (inout JSONTextWriter) -> Void) {
        writer.beginObject()
        writer.field("key", key)
        writer.key("value")
        writer.beginObject()
        writer.key(type)
        value(&writer)
        writer.endObject()
        writer.endObject()
    }

    /// Nanoseconds since 1970 as a decimal string (OTLP's unsigned 64-bit integer, in OTLP/JSON a string); a time before
    /// 1970 as 0, one past what 64 bits of nanoseconds hold (the year 2554) as the largest they do.
    static func nanoseconds(_ time: LogTimestamp) -> String {
        let (product, overflow) = UInt64(max(0, time.microsecondsSinceEpoch)).multipliedReportingOverflow(by: 1000)
        return String(overflow ? UInt64.max : product)
    }

    /// OpenTelemetry's severity numbers: INFO 9, WARN 13, ERROR 17.
    static func severityNumber(_ severity: Severity) -> Int {
        switch severity {
        case .info: 9
        case .warning: 13
        case .error: 17
        }
    }

    /// A 16-byte trace id in 32 hex digits: two FNV-1a hashes of `parts` (each part's bytes, then a 0 byte).
    static func identifier(_ parts: String...) -> String {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325, second: UInt64 = 0x6C62_272E_07BB_0142
        for part in parts {
            for byte in part.utf8 + [0] {
                first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        // All-zero ids are invalid in OTLP (a span id is the first half).
        if first == 0 { first = 1 }
        return hex(first) + hex(second)
    }

    /// An 8-byte span id in 16 hex digits, from the trace id and the span's name within it.
    static func spanIdentifier(_ trace: String, _ name: String) -> String {
        String(identifier(trace, name).prefix(16))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension OTLPReporter: ReportRenderer {
    /// `otlp`.
    public var formatName: String { "otlp" }
}
