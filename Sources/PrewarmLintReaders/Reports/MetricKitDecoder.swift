import PrewarmLintModel

/// Reads MetricKit JSON: an `MXDiagnosticPayload` (`timeStampBegin`, `timeStampEnd`, `crashDiagnostics` …), a
/// single diagnostic (`{"version", "callStackTree", "diagnosticMetaData"}`), an array of either, or an
/// `MXMetricPayload` — what `jsonRepresentation()` writes and SDKs upload.
///
/// Streamed with ``JSONPathCapture``: only each diagnostic's `diagnosticMetaData` and the payload's time window
/// are kept; call-stack trees (hundreds of kilobytes each) pass through unstored.
///
/// A crash diagnostic becomes one event, like a crash report's termination (see ``CrashReport``): its
/// `terminationReason` as `Termination Reason: …` (an `<RBSTerminateContext| … 0x8BADF00D …>` is a watchdog
/// kill), else its exception and signal by name (`Exception Type: EXC_CRASH (SIGKILL)`). iOS 26 diagnostics
/// name their app and pid (`bundleIdentifier`, `pid`); earlier ones name neither — MetricKit hands a payload to
/// the app it is about — and form a session of their own. A diagnostic has no time of its own: it is placed at
/// the end of its payload's window (`timeStampEnd`), the date marked inferred, and said. An app-launch
/// diagnostic (iOS 16+: the system judged a launch slow) becomes one event too, its `launchDuration` read as
/// milliseconds (`MetricKit app launch diagnostic: launchDuration 3219 ms`). Hang, CPU and disk-write diagnostics
/// are counted in a note, not events; metric payloads' launch histograms are for
/// `stats` (``MetricKitLaunchCollector``).
struct MetricKitDecoder: LogDecoder {
    let format = LogFormat.metricKit
    private(set) var statistics = DecoderStatistics()
    private let configuration: ReaderConfiguration
    private var capture: JSONPathCapture
    private var lineHasContent = false

    static let diagnosticKinds = ["crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics", "diskWriteExceptionDiagnostics",
                                  "appLaunchDiagnostics"]
    static let metricKeys: Set<String> = ["applicationLaunchMetrics", "applicationExitMetrics", "applicationTimeMetrics", "metaData"]
    static let maximumDiagnostics = 10_000

    private struct Diagnostic {
        var kind: String
        var fields: [String: String]
        var line: Int
        var byteOffset: Int
        /// The index of the payload it came from (an array of payloads), for its time window.
        var payload: Int
    }

    private var diagnostics: [Diagnostic] = []
    private var diagnosticsDropped = 0
    private var windowEnd: [Int: String] = [:]
    private var windowBegin: [Int: String] = [:]
    private var metricPayloads: Set<Int> = []
    private var oversized = 0

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
        capture = JSONPathCapture(limit: 1 << 20) { path in MetricKitDecoder.wanted(path) != nil }
    }

    /// What a path holds, when it is kept: a diagnostic's metadata, a payload's time, a metric section.
    private enum Wanted { case metaData(kind: String), timeBegin, timeEnd, metric }

    /// The path without a leading array index (an array of payloads), and that index.
    private static func split(_ path: [JSONPathCapture.Step]) -> (payload: Int, rest: ArraySlice<JSONPathCapture.Step>) {
        if case .index(let index)? = path.first { return (index, path.dropFirst()) }
        return (0, path[...])
    }

    private static func wanted(_ path: [JSONPathCapture.Step]) -> Wanted? {
        let rest = split(path).rest
        switch rest.count {
        case 1:
            guard case .key(let key) = rest.first! else { return nil }
            switch key {
            case "diagnosticMetaData": return .metaData(kind: "crashDiagnostics")  // a single diagnostic (its kind unsaid: a crash, as SDKs store them)
            case "timeStampBegin": return .timeBegin
            case "timeStampEnd": return .timeEnd
            default: return metricKeys.contains(key) ? .metric : nil
            }
        case 3:
            guard case .key(let kind) = rest[rest.startIndex], diagnosticKinds.contains(kind), case .index = rest[rest.startIndex + 1],
                  case .key("diagnosticMetaData") = rest[rest.startIndex + 2] else { return nil }
            return .metaData(kind: kind)
        default:
            return nil
        }
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        statistics.countLines(bytes, lineHasContent: &lineHasContent)
        var taken: [JSONPathCapture.Value] = []
        capture.feed(bytes) { taken.append($0) }
        for value in taken { take(value) }
    }

    private mutating func take(_ value: JSONPathCapture.Value) {
        guard let wanted = Self.wanted(value.path) else { return }
        let payload = Self.split(value.path).payload
        if value.overflowed {
            oversized += 1
            return
        }
        switch wanted {
        case .timeBegin: windowBegin[payload] = Self.scalarText(value.bytes)
        case .timeEnd: windowEnd[payload] = Self.scalarText(value.bytes)
        case .metric: metricPayloads.insert(payload)
        case .metaData(let kind):
            guard diagnostics.count < Self.maximumDiagnostics else {
                diagnosticsDropped += 1
                return
            }
            var fields: [String: String] = [:]
            value.bytes.withUnsafeBytes { raw in
                _ = try? JSONObjectScanner.scanObject(raw, from: JSONObjectScanner.skipWhitespace(raw, 0)) { key, _, member in
                    let name = String(decoding: raw.slice(key.lowerBound, key.upperBound), as: UTF8.self)
                    switch member.kind {
                    case .string: fields[name] = JSONStringDecoder.decode(raw, member).text
                    case .number, .true, .false: fields[name] = String(decoding: raw.slice(member.range.lowerBound, member.range.upperBound), as: UTF8.self)
                    default: break
                    }
                }
            }
            diagnostics.append(Diagnostic(kind: kind, fields: fields, line: value.line, byteOffset: value.byteOffset, payload: payload))
            // The device, as the diagnostic's metadata says it (`osVersion` "iPhone OS 17.2 (21C62)", `deviceType`).
            let system = fields["osVersion"].flatMap(DeviceIdentity.systemParts)
            statistics.note(DeviceIdentity(system: system?.system, version: system?.version, build: system?.build, model: fields["deviceType"],
                                           source: .metricKit))
        }
    }

    private static func scalarText(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { raw in
            guard let value = try? JSONObjectScanner.scanValue(raw, JSONObjectScanner.skipWhitespace(raw, 0)), value.kind == .string else { return nil }
            return JSONStringDecoder.decode(raw, value).text
        }
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        if lineHasContent { statistics.lines += 1 }
        let whole = capture.finish()
        let start = EventOrigin(input: configuration.inputName, line: 1, byteOffset: 0)
        var notes: [ReaderDiagnostic] = []
        if !whole {
            let what = capture.error.map { "the MetricKit JSON is malformed (\($0))" } ?? "the MetricKit JSON ends early (truncated)"
            notes.append(ReaderDiagnostic(code: .truncatedInput, severity: .warning, message: what + "; what was read is used",
                                          origin: EventOrigin(input: configuration.inputName, line: capture.line, byteOffset: capture.byteOffset),
                                          lineCount: 0))
        }
        if oversized > 0 {
            notes.append(ReaderDiagnostic(code: .invalidRecord, severity: .warning,
                                          message: "\(oversized) MetricKit value\(oversized == 1 ? "" : "s") over 1 MiB: not read", origin: start, lineCount: 0))
        }
        if diagnosticsDropped > 0 {
            notes.append(ReaderDiagnostic(code: .invalidRecord, severity: .warning,
                                          message: "more than \(Self.maximumDiagnostics) diagnostics: \(diagnosticsDropped) not read", origin: start, lineCount: 0))
        }
        var events: [(event: LogEvent, lines: Int)] = []
        var unplaced = 0, unnamed = 0
        var notRead: [String: Int] = [:]
        var durationsUnread = 0
        for diagnostic in diagnostics {
            guard diagnostic.kind == "crashDiagnostics" || diagnostic.kind == "appLaunchDiagnostics" else {
                notRead[diagnostic.kind, default: 0] += 1
                continue
            }
            let fields = diagnostic.fields
            let message: String
            if diagnostic.kind == "appLaunchDiagnostics" {
                // `launchDuration` is a localized measurement in milliseconds (`3,219 ms` in English): read when it
                // can be without guessing, else kept as written and counted.
                if let written = fields["launchDuration"], let milliseconds = MetricKitLaunchMetrics.milliseconds(written) {
                    message = "MetricKit app launch diagnostic: launchDuration \(Self.decimal(milliseconds)) ms"
                } else if let written = fields["launchDuration"] {
                    durationsUnread += 1
                    message = "MetricKit app launch diagnostic: launchDuration \(written) (as written: not read as a number)"
                } else {
                    message = "MetricKit app launch diagnostic: launchDuration not given"
                }
            } else if let reason = fields["terminationReason"], !reason.isEmpty {
                message = "Termination Reason: " + reason
            } else {
                let exception = fields["exceptionType"].flatMap { Int($0) }.map(Self.exceptionName) ?? "exception unknown"
                let signal = fields["signal"].flatMap { Int($0) }.map(Self.signalName)
                message = "Exception Type: " + exception + (signal.map { " (\($0))" } ?? "")
            }
            let time: LogTimestamp
            if let end = windowEnd[diagnostic.payload], var parsed = CrashReport.timestamp(end) {
                parsed.inferred.insert(.date)
                time = parsed
            } else {
                time = LogTimestamp(microsecondsSinceEpoch: configuration.timeInference.referenceInstant ?? 0, utcOffsetSeconds: 0, text: "",
                                    inferred: [.year, .date, .utcOffset])
                unplaced += 1
            }
            let bundleID = fields["bundleIdentifier"]
            if bundleID == nil { unnamed += 1 }
            let pid = fields["pid"].flatMap { Int($0) }
            events.append((LogEvent(timestamp: time, process: bundleID ?? "unknown", pid: pid, type: diagnostic.kind == "crashDiagnostics" ? .fault : .default, message: message,
                                    origin: EventOrigin(input: configuration.inputName, line: diagnostic.line, byteOffset: diagnostic.byteOffset),
                                    reportedBundleID: bundleID), 0))
        }
        let placed = events.count - unplaced
        if placed > 0 {
            notes.append(ReaderDiagnostic(code: .inferredTime, severity: .note,
                                          message: "MetricKit gives a diagnostic no time of its own: \(placed == 1 ? "it is" : "\(placed) are") placed at the end of \(placed == 1 ? "its" : "their") payload's window (timeStampEnd); \(placed == 1 ? "it joins" : "they join") a log's session by pid only",
                                          origin: start, lineCount: 0))
        }
        if unplaced > 0 {
            notes.append(ReaderDiagnostic(code: .inferredTime, severity: .note,
                                          message: "\(unplaced) diagnostic\(unplaced == 1 ? " has" : "s have") no payload window: placed at the input's date; joined to a log's session by pid only",
                                          origin: start, lineCount: 0))
        }
        if unnamed > 0 {
            notes.append(ReaderDiagnostic(code: .unattributedEvidence, severity: .note,
                                          message: "\(unnamed) diagnostic\(unnamed == 1 ? " names" : "s name") no app (bundleIdentifier and pid came with iOS 26): joined to no log's session",
                                          origin: start, lineCount: 0))
        }
        if durationsUnread > 0 {
            notes.append(ReaderDiagnostic(code: .invalidRecord, severity: .warning,
                                          message: "\(durationsUnread) app launch diagnostic\(durationsUnread == 1 ? "'s" : "s'") launchDuration could not be read without guessing (a localized number with a comma, an unknown unit, or more than a week): kept as written",
                                          origin: start, lineCount: 0))
        }
        let unread = notRead.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        if !unread.isEmpty || !metricPayloads.isEmpty {
            var message = unread.isEmpty ? "MetricKit:" : "MetricKit: \(unread.joined(separator: ", ")) not read (crash and app-launch diagnostics are)"
            if !metricPayloads.isEmpty {
                message += (unread.isEmpty ? " " : "; ") + "\(metricPayloads.count) metric payload\(metricPayloads.count == 1 ? "" : "s"): launch histograms, in `prewarm-lint stats`"
            }
            notes.append(ReaderDiagnostic(code: .unreadReport, severity: .note, message: message, origin: start, lineCount: 0))
        }
        statistics.finishReport(events, diagnostics: notes, emit: emit)
    }

    /// `3219`, `1.5`: a whole number without a fraction, else up to three decimals; a value too large for three
    /// exact decimals as `Double` prints it.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        if value == value.rounded() { return String(Int64(value)) }
        var text = String(Int64((value * 1000).rounded()))
        while text.count < 4 { text = "0" + text }
        var fraction = String(text.suffix(3))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return String(text.dropLast(3)) + "." + fraction
    }

    /// A Mach exception type by name (`<mach/exception_types.h>`).
    static func exceptionName(_ type: Int) -> String {
        switch type {
        case 1: "EXC_BAD_ACCESS"
        case 2: "EXC_BAD_INSTRUCTION"
        case 3: "EXC_ARITHMETIC"
        case 4: "EXC_EMULATION"
        case 5: "EXC_SOFTWARE"
        case 6: "EXC_BREAKPOINT"
        case 10: "EXC_CRASH"
        case 11: "EXC_RESOURCE"
        case 12: "EXC_GUARD"
        default: "exception \(type)"
        }
    }

    /// A signal by name (`<sys/signal.h>`, Darwin numbering).
    static func signalName(_ signal: Int) -> String {
        switch signal {
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 8: "SIGFPE"
        case 9: "SIGKILL"
        case 10: "SIGBUS"
        case 11: "SIGSEGV"
        case 13: "SIGPIPE"
        case 15: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
