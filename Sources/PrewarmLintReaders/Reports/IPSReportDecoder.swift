import PrewarmLintModel

/// Reads a two-part `.ips` report (iOS 15+): a metadata line (`{"bug_type":"309", "app_name":…}`) and then one
/// JSON object, the report body.
///
/// The body is read as a stream by ``JSONPathCapture``: the few top-level values a session can use (`pid`,
/// `procName`, `captureTime`, `bundleInfo`, `exception`, `termination`, `processes` of a jetsam report…) are
/// kept, up to a size limit each; everything else — the threads and images that make a report megabytes long,
/// often on one line — is passed over without being stored. Memory is bounded whatever the report's size, and
/// nothing recurses.
///
/// `bug_type` 309 (crash) and 298 (JetsamEvent) are read as events; 409 (a system watchdog: SpringBoard, backboardd
/// or WindowServer killed for not answering) is said in a note — a system process, no app's event; other kinds
/// (238 app launch diagnostics, 385 resource exceptions, hangs, panics) are named in a note and passed over. See ``CrashReport``
/// for the events a report becomes.
struct IPSReportDecoder: LogDecoder {
    let format = LogFormat.crashReport
    private(set) var statistics = DecoderStatistics()
    private let configuration: ReaderConfiguration

    private var metadataLine: [UInt8] = []
    private var metadataOverflow = false
    private var bugType: String?
    private var metadataTimestamp: String?
    private var metadataName: String?
    private var metadataBundle: String?
    private var metadataSystem: String?
    private var metadataIncident: String?

    // Position, for the metadata line.
    private var line = 1
    private var byteOffset = 0
    private var lineHasContent = false

    /// The body, once the metadata line has been read.
    private var body: JSONPathCapture?
    private var fields: [String: (bytes: [UInt8], line: Int, byteOffset: Int)] = [:]
    private var oversizedKeys: Set<String> = []

    /// The top-level body keys kept, and the most bytes each may take.
    static let keptKeys: [String: Int] = [
        "pid": 64, "procName": 4096, "captureTime": 256, "procLaunch": 256, "bundleInfo": 64 << 10, "exception": 64 << 10,
        "termination": 256 << 10, "bug_type": 64, "date": 256, "processes": 8 << 20, "isLocked": 64, "wasUnlockedSinceBoot": 64,
        // The metadata's keys, for metadata written over several lines (``adoptMetadataObject()``).
        "timestamp": 256, "app_name": 4096, "name": 4096, "bundleID": 4096,
        // Who the device is: the model (a crash's `modelCode`, a JetsamEvent's `product`), the system, the incident.
        "modelCode": 256, "product": 256, "build": 256, "incident": 256, "os_version": 256, "incident_id": 256,
    ]

    /// Report kinds by `bug_type`, for the note on the ones not read.
    static let kinds: [String: String] = [
        "309": "crash", "298": "JetsamEvent", "238": "app launch diagnostics", "409": "system watchdog", "385": "resource exception",
        "222": "hang", "223": "hang", "228": "hang", "310": "hang", "210": "panic", "109": "crash (old form)", "288": "stackshot",
        "211": "analytics", "145": "spin",
    ]

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
    }

    /// The most lines of something else before a report (what a paste adds) that are passed over.
    static let maximumPreambleLines = 20

    /// What a line before the body is.
    enum LineKind { case metadata, bodyStart, other }

    /// A JSON object with a `bug_type` (the metadata line), a lone `{` (a body pasted alone), or something else.
    static func kind(ofLine line: UnsafeRawBufferPointer) -> LineKind {
        var start = 0
        if line.hasPrefix("\u{FEFF}") { start = 3 }
        start = JSONObjectScanner.skipWhitespace(line, start)
        guard start < line.count, line[start] == UInt8(ascii: "{") else { return .other }
        let rest = line.slice(start + 1, line.count)
        if rest.allSatisfy({ $0 == .space || $0 == .tab || $0 == .carriageReturn }) { return .bodyStart }
        if line.firstIndex(of: "\"bug_type\"", from: 0) != nil, (try? JSONObjectScanner.scanObject(line, from: start) { _, _, _ in }) != nil {
            return .metadata
        }
        return .other
    }

    /// Lines before the report that are not part of it, and where the first one is.
    private var preambleLines = 0

    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        var index = 0
        if body == nil {
            // The lines before the body, byte by byte to each newline: a metadata line (the body follows it), a
            // lone `{` (the body starts with it), or a paste's own words before either.
            while index < bytes.count, body == nil {
                let byte = bytes[index]
                index += 1
                byteOffset += 1
                if byte == .newline {
                    line += 1
                    lineBeforeBody()
                } else if metadataLine.count < 1 << 20 {
                    metadataLine.append(byte)
                } else {
                    metadataOverflow = true
                }
            }
        }
        statistics.countLines(bytes, lineHasContent: &lineHasContent)
        guard index < bytes.count, body != nil else { return }
        var taken: [JSONPathCapture.Value] = []
        if !firstObjectEnded {
            // The first object may be the metadata, pretty-printed by a JSON viewer before it was pasted: read to its end.
            index += body!.feedToEnd(UnsafeRawBufferPointer(rebasing: bytes[index...])) { taken.append($0) }
            for value in taken { keep(value) }
            taken.removeAll()
            if body!.isComplete {
                firstObjectEnded = true
                if body!.error == nil { adoptMetadataObject() }
            }
        }
        guard index < bytes.count else { return }
        body!.feed(UnsafeRawBufferPointer(rebasing: bytes[index...])) { taken.append($0) }
        for value in taken { keep(value) }
    }

    /// Whether the body's first object has ended (``adoptMetadataObject()`` asked once).
    private var firstObjectEnded = false

    /// The first object read as the body holds `bug_type` and none of a body's keys: it is the metadata, written over
    /// several lines (a JSON viewer's doing), not the body. Its values are the metadata's; the body starts after it.
    private mutating func adoptMetadataObject() {
        guard metadataLine.isEmpty, bugType == nil, fields["bug_type"] != nil,
              !["pid", "procName", "captureTime", "procLaunch", "exception", "termination", "processes", "bundleInfo", "date"]
                .contains(where: { fields[$0] != nil }) else { return }
        bugType = fieldText("bug_type")
        metadataTimestamp = fieldText("timestamp")
        metadataName = fieldText("app_name") ?? fieldText("name")
        metadataBundle = fieldText("bundleID")
        metadataSystem = fieldText("os_version")
        metadataIncident = fieldText("incident_id")
        fields = [:]
        oversizedKeys = []
        body = JSONPathCapture(line: body!.line, byteOffset: body!.byteOffset) { Self.limit(for: $0) }
    }

    /// A whole line before the body: the metadata line, the body's first line, or a line of a paste's preamble.
    private mutating func lineBeforeBody() {
        let kind = metadataLine.withUnsafeBytes { Self.kind(ofLine: $0) }
        if kind == .other, preambleLines < Self.maximumPreambleLines {
            preambleLines += 1
            metadataLine.removeAll(keepingCapacity: true)
            return
        }
        startBody(afterMetadata: true)
    }

    /// Starts the body: after the metadata line, or — when that line is a lone `{` (a body pasted alone) — with it.
    private mutating func startBody(afterMetadata: Bool) {
        let text = metadataLine
        if text.withUnsafeBytes({ Self.kind(ofLine: $0) }) == .bodyStart {
            body = JSONPathCapture(line: 1, byteOffset: 0) { Self.limit(for: $0) }
            var taken: [JSONPathCapture.Value] = []
            (text + (afterMetadata ? [.newline] : [])).withUnsafeBytes { body!.feed($0) { taken.append($0) } }
            for value in taken { keep(value) }
            metadataLine = []
            return
        }
        parseMetadata()
        body = JSONPathCapture(line: line, byteOffset: byteOffset) { Self.limit(for: $0) }
    }

    /// The limit of a top-level body key kept, or nil.
    private static func limit(for path: [JSONPathCapture.Step]) -> Int? {
        guard path.count == 1, case .key(let key) = path[0] else { return nil }
        return keptKeys[key]
    }

    private mutating func keep(_ value: JSONPathCapture.Value) {
        guard case .key(let key)? = value.path.first else { return }
        if value.overflowed {
            oversizedKeys.insert(key)
        } else {
            fields[key] = (value.bytes, value.line, value.byteOffset)
        }
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        if lineHasContent { statistics.lines += 1 }
        let origin = EventOrigin(input: configuration.inputName, line: 1, byteOffset: 0)
        let hadBody = body != nil
        if body == nil { startBody(afterMetadata: false) }
        let whole = body?.finish() ?? false
        var diagnostics: [ReaderDiagnostic] = []
        if preambleLines > 0 {
            diagnostics.append(ReaderDiagnostic(code: .orphanLines, severity: .warning,
                                                message: "\(preambleLines) line\(preambleLines == 1 ? "" : "s") before the report \(preambleLines == 1 ? "is" : "are") not part of it; skipped",
                                                origin: origin, lineCount: preambleLines))
        }
        if metadataOverflow {
            diagnostics.append(ReaderDiagnostic(code: .invalidRecord, severity: .warning,
                                                message: "the report's metadata line is over 1 MiB: not read", origin: origin, lineCount: 0))
        }
        // The device, as the report says it: the metadata's system, else the body's `build` (a JetsamEvent's).
        let system = (metadataSystem ?? fieldText("build")).flatMap(DeviceIdentity.systemParts)
        statistics.note(DeviceIdentity(system: system?.system, version: system?.version, build: system?.build,
                                       model: fieldText("modelCode") ?? fieldText("product"), source: .crashReport,
                                       reference: metadataIncident ?? fieldText("incident")))
        let kind = bugType ?? fieldText("bug_type")
        if kind == "409" {
            // A system watchdog (SystemWatchdogCrash): a system process (SpringBoard, backboardd, WindowServer) stopped
            // answering its watchdog and was killed. Not an app's event — a note of what it says, for the context
            // of the sessions around it.
            let process = fieldText("procName") ?? metadataName ?? "a system process"
            let pid = fieldText("pid").flatMap { Int($0) }.flatMap { $0 > 0 ? " [\($0)]" : nil } ?? ""
            let why = [member("namespace", of: "termination"), member("indicator", of: "termination")].compactMap { $0 }.joined(separator: ": ")
            let details = strings(in: "details", of: "termination").first.map { " (\($0.prefix(200)))" } ?? ""
            let when = metadataTimestamp.map { " at \($0)" } ?? ""
            diagnostics.append(ReaderDiagnostic(code: .unreadReport, severity: .note,
                                                message: "a system watchdog report (bug_type 409): \(process)\(pid) was killed\(when)\(why.isEmpty ? "" : " by \(why)")\(details) — a system process, not an app launch; apps on screen then may have ended with it",
                                                origin: origin, lineCount: 0))
            finish(events: [], diagnostics: diagnostics, emit: emit)
            return
        }
        if let kind, kind != "309", kind != "298" {
            let name = Self.kinds[kind].map { "\(kind) (\($0))" } ?? kind
            let why = kind == "238" ? "no public sample of its body was found to read it from" : "crash 309 and JetsamEvent 298 are"
            diagnostics.append(ReaderDiagnostic(code: .unreadReport, severity: .note,
                                                message: "a report of bug_type \(name): not read (\(why))", origin: origin,
                                                lineCount: 0))
            finish(events: [], diagnostics: diagnostics, emit: emit)
            return
        }
        let end = EventOrigin(input: configuration.inputName, line: body?.line ?? line, byteOffset: body?.byteOffset ?? byteOffset)
        if let body, body.firstByte != nil, body.firstByte != UInt8(ascii: "{") {
            diagnostics.append(ReaderDiagnostic(code: .truncatedInput, severity: .warning,
                                                message: "the report's body is not a JSON object; what was read is used", origin: end, lineCount: 0))
        } else if let body, body.isComplete, body.error != nil {
            diagnostics.append(ReaderDiagnostic(code: .malformedLine, severity: .warning, message: "bytes after the report's body: passed over",
                                                origin: end, lineCount: 0))
        } else if !whole {
            let what = !hadBody || body?.hasBegun != true ? "the report has no body after its metadata line"
                : body?.error.map { "the report's body is malformed (\($0))" } ?? "the report's body ends early (truncated)"
            diagnostics.append(ReaderDiagnostic(code: .truncatedInput, severity: .warning, message: what + "; what was read is used",
                                                origin: end, lineCount: 0))
        }
        var report = CrashReport()
        report.processName = fieldText("procName") ?? metadataName
        report.pid = fieldText("pid").flatMap { Int($0) }
        report.bundleID = member("CFBundleIdentifier", of: "bundleInfo") ?? metadataBundle
        report.captureTime = fieldText("captureTime") ?? fieldText("date") ?? metadataTimestamp
        let isLocked = fieldText("isLocked"), wasUnlocked = fieldText("wasUnlockedSinceBoot")
        if isLocked != nil || wasUnlocked != nil, let field = fields["isLocked"] ?? fields["wasUnlockedSinceBoot"] {
            report.lockState = (isLocked, wasUnlocked, field.line, field.byteOffset)
        }
        if let field = fields["procLaunch"], let text = fieldText("procLaunch") {
            report.launchTime = (text, field.line, field.byteOffset)
        }
        if let field = fields["exception"], let type = member("type", of: "exception") {
            let signal = member("signal", of: "exception")
            report.exception = (signal.map { "\(type) (\($0))" } ?? type, field.line, field.byteOffset)
        }
        if let field = fields["termination"] {
            let namespace = member("namespace", of: "termination")
            let code = member("code", of: "termination")
            var lines: [String] = []
            // As the legacy text writes it: `Termination Reason: SIGNAL 5 Trace/BPT trap: 5`, `FRONTBOARD 2343432205`.
            let indicator = member("indicator", of: "termination")
            if namespace != nil || code != nil {
                lines.append("Termination Reason: " + [namespace, code, indicator].compactMap { $0 }.joined(separator: " "))
            }
            lines += strings(in: "reasons", of: "termination")
            if !lines.isEmpty { report.termination = (lines, field.line, field.byteOffset, 1) }
        }
        if let field = fields["processes"] {
            report.jetsamKills = jetsamKills(field)
        }
        for key in oversizedKeys.sorted() {
            diagnostics.append(ReaderDiagnostic(code: .invalidRecord, severity: .warning,
                                                message: "the report's \(key) is over \(Self.keptKeys[key] ?? 0) bytes: not read", origin: origin, lineCount: 0))
        }
        var note: String?
        let events = report.events(input: configuration.inputName, configuration: configuration, note: &note)
        if let note {
            diagnostics.append(ReaderDiagnostic(code: .inferredTime, severity: .note, message: note, origin: origin, lineCount: 0))
        }
        finish(events: events, diagnostics: diagnostics, emit: emit)
    }

    /// Emits the diagnostics and events; every line not part of an event is the report's structure.
    private mutating func finish(events: [(event: LogEvent, lines: Int)], diagnostics: [ReaderDiagnostic], emit: (ReaderOutput) -> Void) {
        statistics.finishReport(events, diagnostics: diagnostics, emit: emit)
    }

    // MARK: The metadata line

    private mutating func parseMetadata() {
        let text = metadataLine
        metadataLine = []
        text.withUnsafeBytes { raw in
            let start = JSONObjectScanner.skipWhitespace(raw, raw.hasPrefix("\u{FEFF}") ? 3 : 0)
            _ = try? JSONObjectScanner.scanObject(raw, from: start) { key, _, value in
                let name = String(decoding: raw.slice(key.lowerBound, key.upperBound), as: UTF8.self)
                guard value.kind == .string || value.kind == .number else { return }
                let text = value.kind == .string ? JSONStringDecoder.decode(raw, value).text
                    : String(decoding: raw.slice(value.range.lowerBound, value.range.upperBound), as: UTF8.self)
                switch name {
                case "bug_type": bugType = text
                case "timestamp": metadataTimestamp = text
                case "app_name", "name": metadataName = metadataName ?? text
                case "bundleID": metadataBundle = text
                case "os_version": metadataSystem = text
                case "incident_id": metadataIncident = text
                default: break
                }
            }
        }
    }

    // MARK: Reading kept values

    /// A kept top-level value as text: a string's content, a number or boolean as written.
    private func fieldText(_ key: String) -> String? {
        guard let field = fields[key] else { return nil }
        return field.bytes.withUnsafeBytes { raw in
            guard let value = try? JSONObjectScanner.scanValue(raw, JSONObjectScanner.skipWhitespace(raw, 0)) else { return nil }
            return Self.text(of: value, in: raw)
        }
    }

    /// A member of a kept top-level object, as text.
    private func member(_ name: String, of key: String) -> String? {
        guard let field = fields[key] else { return nil }
        return field.bytes.withUnsafeBytes { raw in
            var found: String?
            _ = try? JSONObjectScanner.scanObject(raw, from: 0) { memberKey, _, value in
                if found == nil, raw.slice(memberKey.lowerBound, memberKey.upperBound).elementsEqual(name.utf8) {
                    found = Self.text(of: value, in: raw)
                }
            }
            return found
        }
    }

    /// The strings of an array member of a kept top-level object (`termination.reasons`).
    private func strings(in name: String, of key: String) -> [String] {
        guard let field = fields[key] else { return [] }
        return field.bytes.withUnsafeBytes { raw in
            var result: [String] = []
            _ = try? JSONObjectScanner.scanObject(raw, from: 0) { memberKey, _, value in
                guard value.kind == .array, raw.slice(memberKey.lowerBound, memberKey.upperBound).elementsEqual(name.utf8) else { return }
                result = Self.elements(of: value, in: raw).compactMap { $0.kind == .string ? Self.text(of: $0, in: raw) : nil }
            }
            return result
        }
    }

    /// The processes a jetsam report says were killed (those with a `reason`).
    private func jetsamKills(_ field: (bytes: [UInt8], line: Int, byteOffset: Int)) -> [(name: String, pid: Int?, reason: String, states: [String], line: Int, byteOffset: Int)] {
        field.bytes.withUnsafeBytes { raw in
            guard let array = try? JSONObjectScanner.scanValue(raw, JSONObjectScanner.skipWhitespace(raw, 0)), array.kind == .array else { return [] }
            var kills: [(name: String, pid: Int?, reason: String, states: [String], line: Int, byteOffset: Int)] = []
            // Elements come in order: lines are counted from the previous element's start, once over the array.
            var countedTo = 0, line = field.line
            for element in Self.elements(of: array, in: raw) where element.kind == .object {
                var name: String?, pid: Int?, reason: String?, states: [String] = []
                _ = try? JSONObjectScanner.scanObject(raw, from: element.range.lowerBound) { key, _, value in
                    let keyBytes = raw.slice(key.lowerBound, key.upperBound)
                    if keyBytes.elementsEqual("name".utf8) { name = Self.text(of: value, in: raw) }
                    else if keyBytes.elementsEqual("pid".utf8) { pid = Self.text(of: value, in: raw).flatMap { Int($0) } }
                    else if keyBytes.elementsEqual("reason".utf8) { reason = Self.text(of: value, in: raw) }
                    else if keyBytes.elementsEqual("states".utf8), value.kind == .array {
                        states = Self.elements(of: value, in: raw).compactMap { $0.kind == .string ? Self.text(of: $0, in: raw) : nil }
                    }
                }
                let start = element.range.lowerBound
                line += raw.slice(countedTo, start).reduce(0) { $0 + ($1 == .newline ? 1 : 0) }
                countedTo = start
                if let name, let reason { kills.append((name, pid, reason, states, line, field.byteOffset + start)) }
            }
            return kills
        }
    }

    private static func text(of value: JSONValue, in raw: UnsafeRawBufferPointer) -> String? {
        switch value.kind {
        case .string: JSONStringDecoder.decode(raw, value).text
        case .number, .true, .false: String(decoding: raw.slice(value.range.lowerBound, value.range.upperBound), as: UTF8.self)
        default: nil
        }
    }

    /// The elements of an array value, without recursion (the scanner skips nested containers).
    private static func elements(of array: JSONValue, in raw: UnsafeRawBufferPointer) -> [JSONValue] {
        var result: [JSONValue] = []
        var index = JSONObjectScanner.skipWhitespace(raw, array.range.lowerBound + 1)
        while index < array.range.upperBound, raw[index] != UInt8(ascii: "]") {
            guard let value = try? JSONObjectScanner.scanValue(raw, index) else { break }
            result.append(value)
            index = JSONObjectScanner.skipWhitespace(raw, value.kind == .string ? value.range.upperBound + 1 : value.range.upperBound)
            guard index < raw.count, raw[index] == UInt8(ascii: ",") else { break }
            index = JSONObjectScanner.skipWhitespace(raw, index + 1)
        }
        return result
    }
}
