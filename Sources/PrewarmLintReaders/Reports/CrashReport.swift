import PrewarmLintModel

/// What a crash or jetsam report says about one process, gathered while the report is read: the facts the
/// events it becomes are made of. Shared by the two-part `.ips` JSON decoder and the legacy-text decoder.
///
/// A report becomes one event per fact that a launch session can use, each with the report's own words as
/// its message and the report line that says it as its origin:
/// - the termination — `Termination Reason: FRONTBOARD 2343432205` and, on the lines after it, the reasons
///   (`<RBSTerminateContext| … 0x8BADF00D … scene-create watchdog transgression …`), as the legacy text prints
///   them and the `.ips` body lists them — or, when there is none, the `Exception Type:` line;
/// - the device's lock state when the report was written (`"isLocked" : 1, "wasUnlockedSinceBoot" : 0`), from an `.ips` body;
/// - the launch, when the report says when it was (`Launch Time:`, `procLaunch`), at that time;
/// - for a JetsamEvent, one `JetsamEvent: killed (reason); states: …` per process the report says was killed.
///
/// The events belong to the reported process (its name and pid), at the report's capture time. No
/// symbolication, no backtraces: a report's threads are passed over.
struct CrashReport {
    /// The process the report is about (`procName`, `Process:`).
    var processName: String?
    /// Its pid.
    var pid: Int?
    /// Its bundle identifier (`bundleInfo.CFBundleIdentifier`, `Identifier:`).
    var bundleID: String?
    /// When the report was taken (`captureTime`, `Date/Time:`, else the metadata's `timestamp`), as written.
    var captureTime: String?
    /// When the process was launched (`procLaunch`, `Launch Time:`), as written, and where it was said.
    var launchTime: (text: String, line: Int, byteOffset: Int)?
    /// `Exception Type:` as the legacy text writes it (`EXC_CRASH (SIGKILL)`), and where it was said.
    var exception: (text: String, line: Int, byteOffset: Int)?
    /// The termination: the reason line and the reasons after it, where it was said, and how many input lines say it.
    var termination: (lines: [String], line: Int, byteOffset: Int, lineCount: Int)?
    /// `Exception Codes:` as the legacy text writes it (`0x000000008badf00d`).
    var exceptionCodes: String?
    /// The `Application Specific Information:` block of a legacy report (iOS ≤ 9 said a watchdog kill there:
    /// `com.example.ledger failed to launch in time`, `Elapsed total CPU time (seconds): …`), where it starts and how
    /// many input lines say it.
    var applicationInformation: (lines: [String], line: Int, byteOffset: Int, lineCount: Int)?
    /// The device's lock state when the report was written (`isLocked`, `wasUnlockedSinceBoot`: `1`/`0` as written), and where.
    var lockState: (isLocked: String?, wasUnlockedSinceBoot: String?, line: Int, byteOffset: Int)?
    /// Processes a jetsam report says were killed: name, pid, reason, states, where.
    var jetsamKills: [(name: String, pid: Int?, reason: String, states: [String], line: Int, byteOffset: Int)] = []

    /// The report's time: `2025-06-10 09:12:33.4470 +0200` (what reports write), or nil.
    static func timestamp(_ text: String) -> LogTimestamp? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, let date = CivilDateTime(dateText: String(parts[0])) else { return nil }
        let clock = parts[1].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let fields = clock[0].split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, let hour = Int(fields[0]), let minute = Int(fields[1]), let second = Int(fields[2]) else { return nil }
        var microsecond = 0
        if clock.count == 2 {
            let digits = clock[1].prefix(6)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            microsecond = Int(digits)! * [1, 100_000, 10_000, 1_000, 100, 10, 1][digits.count]
        }
        guard CivilDateTime.isValidTime(hour: hour, minute: minute, second: second, microsecond: microsecond) else { return nil }
        var inferred: LogTimestamp.InferredParts = []
        var offset = 0
        if parts.count >= 3, let written = CivilDateTime.utcOffsetSeconds(fromText: String(parts[2])) {
            offset = written
        } else {
            inferred.insert(.utcOffset)
        }
        var civil = date
        civil.hour = hour
        civil.minute = minute
        civil.second = second
        civil.microsecond = microsecond
        let instant = civil.microsecondsSinceEpoch(utcOffsetSeconds: offset)
        guard LogTimestamp.isReadable(instant) else { return nil }
        return LogTimestamp(microsecondsSinceEpoch: instant, utcOffsetSeconds: offset,
                            text: text, inferred: inferred)
    }

    /// The first `application<bundle>:pid` or `app<bundle(…)>:pid` of a termination's text.
    static func identity(in text: String) -> (bundleID: String, pid: Int?)? {
        let bytes = Array(text.utf8)
        for opener in [Array("application<".utf8), Array("app<".utf8)] {
            var index = 0
            while index + opener.count <= bytes.count {
                defer { index += 1 }
                guard bytes[index..<index + opener.count].elementsEqual(opener) else { continue }
                var end = index + opener.count
                let bundleStart = end
                while end < bytes.count, Self.isBundleByte(bytes[end]) { end += 1 }
                guard end > bundleStart, end < bytes.count else { continue }
                let bundle = String(decoding: bytes[bundleStart..<end], as: UTF8.self)
                if bytes[end] == UInt8(ascii: "(") {
                    while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
                }
                guard end < bytes.count, bytes[end] == UInt8(ascii: ">") else { continue }
                var digits = end + 1
                guard digits < bytes.count, bytes[digits] == UInt8(ascii: ":") else { return (bundle, nil) }
                digits += 1
                var pid = 0, count = 0
                while digits < bytes.count, count < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[digits]) {
                    pid = pid * 10 + Int(bytes[digits] - UInt8(ascii: "0"))
                    digits += 1
                    count += 1
                }
                return (bundle, count > 0 ? pid : nil)
            }
        }
        // iOS ≤ 9: `com.example.ledger failed to launch in time`, `… failed to launch after 20.00s (launchIntent: …)`.
        for line in text.split(separator: "\n").map(String.init) {
            for verb in [" failed to launch", " failed to resume", " failed to suspend"] {
                guard let range = line.firstRange(of: verb) else { continue }
                let token = line[..<range.lowerBound].split(separator: " ").last.map(String.init) ?? ""
                if token.contains("."), token.utf8.allSatisfy(Self.isBundleByte) { return (token, nil) }
            }
        }
        // iOS ≤ 14: `SPRINGBOARD, scene-create watchdog transgression: com.example.ledger exhausted real …`.
        let marker = Array("watchdog transgression: ".utf8)
        var index = 0
        while index + marker.count <= bytes.count {
            if bytes[index..<index + marker.count].elementsEqual(marker) {
                var end = index + marker.count
                while end < bytes.count, Self.isBundleByte(bytes[end]) { end += 1 }
                let token = bytes[(index + marker.count)..<end]
                if token.contains(UInt8(ascii: ".")), end < bytes.count, bytes[end] == UInt8(ascii: " ") {
                    return (String(decoding: token, as: UTF8.self), nil)
                }
                return nil
            }
            index += 1
        }
        return nil
    }

    private static func isBundleByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// A legacy report's watchdog kill said in its `Application Specific Information:` (iOS ≤ 9 wrote no termination
    /// reason): the exception codes and that block, as one termination's text — when the codes are `0x8badf00d` or the
    /// block says an app failed to launch, resume or suspend in time.
    private var watchdogInApplicationInformation: (lines: [String], line: Int, byteOffset: Int, lineCount: Int)? {
        guard let information = applicationInformation else { return nil }
        let text = information.lines.joined(separator: "\n")
        let watchdog = exceptionCodes?.lowercased().contains("8badf00d") == true
            || [" failed to launch", " failed to resume", " failed to suspend"].contains { text.contains($0) }
        guard watchdog else { return nil }
        // Its words first (what a timeline shows of a kill is its first line), the codes after.
        let codes = exceptionCodes.map { ["Exception Codes: " + $0] } ?? []
        return (information.lines + codes, information.line, information.byteOffset, information.lineCount)
    }

    /// The events the report becomes, in report order; `note` is said once when the report gives no time.
    func events(input: String, configuration: ReaderConfiguration, note: inout String?) -> [(event: LogEvent, lines: Int)] {
        let time: LogTimestamp
        if let captureTime, let parsed = Self.timestamp(captureTime) {
            time = parsed
        } else {
            // A pasted report often starts at `Exception Type:`: its time was cut. Placed at the date given for the
            // input (`--date`, at its start), else at the reference instant (the file's date), marked inferred, and said.
            let instant = configuration.timeInference.date.map { $0.microsecondsSinceEpoch(utcOffsetSeconds: configuration.timeInference.utcOffsetSeconds ?? 0) }
                ?? configuration.timeInference.referenceInstant ?? 0
            time = LogTimestamp(microsecondsSinceEpoch: instant, utcOffsetSeconds: 0, text: "", inferred: [.year, .date, .utcOffset])
            note = "the report gives no time (its Date/Time line is missing): placed at the input's date; it joins a log's session by pid only"
        }
        // A pasted report may have lost its header: the app is then named by the termination's own
        // `application<bundle>:pid` (or `app<bundle(…)>:pid`), the process by its bundle identifier.
        var bundleID = bundleID, pid = pid
        let termination = termination ?? watchdogInApplicationInformation
        if bundleID == nil || pid == nil, let identity = termination.flatMap({ Self.identity(in: $0.lines.joined(separator: "\n")) }) {
            bundleID = bundleID ?? identity.bundleID
            pid = pid ?? identity.pid
        }
        let name = processName ?? bundleID ?? "unknown"
        var result: [(LogEvent, Int)] = []
        // The launch, when the report says when it was (a report's own times are all it has of the process's life).
        if let launchTime, let launched = Self.timestamp(launchTime.text), launched <= time, !time.inferred.contains(.date) {
            result.append((LogEvent(timestamp: launched, process: name, pid: pid, type: .default, message: "Launch Time: " + launchTime.text,
                                    origin: EventOrigin(input: input, line: launchTime.line, byteOffset: launchTime.byteOffset),
                                    reportedBundleID: bundleID), 0))
        }
        if let lockState {
            let fields = [lockState.isLocked.map { "\"isLocked\" : \($0)" }, lockState.wasUnlockedSinceBoot.map { "\"wasUnlockedSinceBoot\" : \($0)" }]
            // `"isLocked" : …` leads: it is what the signature reads; a report with only the other key still says it.
            let message = lockState.isLocked == nil ? "\"isLocked\" : unknown, " + fields[1]! : fields.compactMap { $0 }.joined(separator: ", ")
            result.append((LogEvent(timestamp: time, process: name, pid: pid, type: .default, message: message,
                                    origin: EventOrigin(input: input, line: lockState.line, byteOffset: lockState.byteOffset),
                                    reportedBundleID: bundleID), 0))
        }
        if let termination {
            result.append((LogEvent(timestamp: time, process: name, pid: pid, type: .fault, message: termination.lines.joined(separator: "\n"),
                                    origin: EventOrigin(input: input, line: termination.line, byteOffset: termination.byteOffset),
                                    reportedBundleID: bundleID),
                           termination.lineCount))
        } else if let exception {
            result.append((LogEvent(timestamp: time, process: name, pid: pid, type: .fault, message: "Exception Type: " + exception.text,
                                    origin: EventOrigin(input: input, line: exception.line, byteOffset: exception.byteOffset),
                                    reportedBundleID: bundleID), 0))
        }
        for kill in jetsamKills {
            var message = "JetsamEvent: killed (\(kill.reason))"
            if !kill.states.isEmpty { message += "; states: " + kill.states.joined(separator: ", ") }
            result.append((LogEvent(timestamp: time, process: kill.name, pid: kill.pid, type: .fault, message: message,
                                    origin: EventOrigin(input: input, line: kill.line, byteOffset: kill.byteOffset)), 0))
        }
        if result.isEmpty { note = nil }  // nothing was placed at the guessed time
        return result
    }
}

extension DecoderStatistics {
    /// Counts the lines `bytes` end (a report's decoders count lines as they stream; the last, unterminated, at
    /// the end); `lineHasContent` carries a line begun in one chunk into the next.
    mutating func countLines(_ bytes: UnsafeRawBufferPointer, lineHasContent: inout Bool) {
        for byte in bytes {
            if byte == .newline {
                lines += 1
                lineHasContent = false
            } else {
                lineHasContent = true
            }
        }
    }

    /// Ends a report: emits its diagnostics and events; every line not part of an event is its structure.
    mutating func finishReport(_ events: [(event: LogEvent, lines: Int)], diagnostics: [ReaderDiagnostic], emit: (ReaderOutput) -> Void) {
        for diagnostic in diagnostics {
            count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
        acceptReport(events, emit: emit)
        let rest = lines - eventLines - diagnosedLines
        if rest > 0 { skip(.structure, lines: rest) }
    }

    /// Accounts for a report's events and emits them. They are not offered to the caller: a gate judges a log line by its
    /// process and text, and a report's few events name their app themselves (``LogEvent/reportedBundleID``).
    mutating func acceptReport(_ events: [(event: LogEvent, lines: Int)], emit: (ReaderOutput) -> Void) {
        for (event, lines) in events {
            accept(event, lines: lines, origin: event.origin, notes: [], invalidUTF8: false, emit: emit)
        }
    }
}
