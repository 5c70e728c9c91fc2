import PrewarmLintModel

/// A decoded JSON record: an event, or the diagnostic that says why it is not one.
enum RecordOutcome {
    /// A valid record: its event, or nil for a record of a process in
    /// `ReaderConfiguration.skippedProcesses` or one its caller refused when offered (counted, not built).
    case accepted(LogEvent?)
    case rejected(ReaderDiagnostic)
}

/// What ``JSONLogRecord/makeEvent(schema:bytes:origin:resolver:interner:skipping:offers:invalidUTF8:into:)`` made of a
/// record. The event itself goes to the caller's variable: returned in an enum, the event would be copied several
/// times per record, refused ones included.
enum RecordVerdict {
    /// The event was built.
    case built
    /// A record of a skipped process, or one the caller refused: counted, not built.
    case notKept
    case rejected(ReaderDiagnostic)
}

extension RecordOutcome {
    /// One JSON object (as bytes) read as a log record, with `what` naming it in diagnostics
    /// (`JSON object`, `plist entry`); `invalidUTF8` is set when text had to be repaired.
    static func decodeObject(_ bytes: UnsafeRawBufferPointer, what: String, origin: EventOrigin,
                             resolver: inout TimestampResolver, interner: inout StringInterner, skipping: inout RecordSkipping,
                             offers: RecordOffers, invalidUTF8: inout Bool) -> RecordOutcome {
        do throws(JSONSyntaxError) {
            var record = JSONLogRecord()
            _ = try record.scan(bytes, from: 0)
            guard let schema = record.schema, schema != .trailer else {
                return .rejected(ReaderDiagnostic(code: .invalidRecord, severity: .warning,
                                                  message: "\(what) has none of the keys of a log record", origin: origin))
            }
            var event: LogEvent?
            switch record.makeEvent(schema: schema, bytes: bytes, origin: origin, resolver: &resolver, interner: &interner,
                                    skipping: &skipping, offers: offers, invalidUTF8: &invalidUTF8, into: &event) {
            case .built, .notKept: return .accepted(event)
            case .rejected(let diagnostic): return .rejected(diagnostic)
            }
        } catch {
            return .rejected(ReaderDiagnostic(code: .invalidRecord, severity: .warning, message: "invalid \(what): \(error.reason)", origin: origin))
        }
    }
}

/// The members of one JSON log record that prewarm-lint keeps, from any of the JSON schemas it reads.
///
/// Three producers write NDJSON with different keys:
/// - `log show --style json|ndjson`: `timestamp`, `processImagePath`, `processID`, `senderImagePath`,
///   `subsystem`, `category`, `messageType`, `eventType`, `threadID`, `activityIdentifier`, `eventMessage`;
/// - pymobiledevice3 `syslog live --format json`: `timestamp` (naive ISO 8601), `filename`, `pid`,
///   `image_name`, `level`, `thread_id`, `message`, `label: {subsystem, category}`;
/// - mandiant `unifiedlog_iterator -f jsonl`: `time` (epoch nanoseconds), `process`, `pid`, `library`,
///   `log_type`, `event_type`, `thread_id`, `activity_id`, `subsystem`, `category`, `message`.
/// The schema is decided per record from which keys are present, so a file mixing them still reads.
struct JSONLogRecord {
    enum Schema { case logShow, pymobiledevice3, unifiedLogIterator, trailer }

    var timestamp: JSONValue?
    var processImagePath: JSONValue?
    var processID: JSONValue?
    var senderImagePath: JSONValue?
    var subsystem: JSONValue?
    var category: JSONValue?
    var messageType: JSONValue?
    var eventType: JSONValue?
    var threadID: JSONValue?
    var activityIdentifier: JSONValue?
    var eventMessage: JSONValue?
    // pymobiledevice3
    var filename: JSONValue?
    var imageName: JSONValue?
    var level: JSONValue?
    var message: JSONValue?
    var labelSubsystem: JSONValue?
    var labelCategory: JSONValue?
    var procid: JSONValue?
    // unifiedlog_iterator
    var time: JSONValue?
    var process: JSONValue?
    var library: JSONValue?
    var logType: JSONValue?
    var eventTypeSnake: JSONValue?
    var activityIDSnake: JSONValue?
    var threadIDSnake: JSONValue?
    var pid: JSONValue?
    // the `log show` ndjson trailer
    var count: JSONValue?
    var finished: JSONValue?
    var otherKeys = 0

    /// Scans the object at `start` into this (new) record; returns the index after it. Filled in place:
    /// returned by value, the record (thirty members) was copied several times per line.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, from start: Int) throws(JSONSyntaxError) -> Int {
        let end: Int
        if let quickEnd = JSONObjectScanner.scanObjectQuickly(bytes, from: start, member: { key, _, value in
            take(key: bytes.slice(key.lowerBound, key.upperBound), value: value)
        }) {
            end = quickEnd
        } else {
            // Something is wrong (or unusual): scan again, from scratch, to say what.
            self = JSONLogRecord()
            end = try JSONObjectScanner.scanObject(bytes, from: start) { key, _, value in
                take(key: bytes.slice(key.lowerBound, key.upperBound), value: value)
            }
        }
        if let label = labelObject {
            _ = try JSONObjectScanner.scanObject(bytes, from: label.range.lowerBound) { key, _, value in
                let name = bytes.slice(key.lowerBound, key.upperBound)
                if name.equals("subsystem") { labelSubsystem = value } else if name.equals("category") { labelCategory = value }
            }
        }
        return end
    }

    private var labelObject: JSONValue?

    private mutating func take(key: UnsafeRawBufferPointer, value: JSONValue) {
        switch key.count {
        case 3: if key.equals("pid") { pid = value; return }
        case 4: if key.equals("time") { time = value; return }
        case 5:
            if key.equals("level") { level = value; return }
            if key.equals("label") { if value.kind == .object { labelObject = value }; return }
            if key.equals("count") { count = value; return }
        case 6: if key.equals("procid") { procid = value; return }
        case 7:
            if key.equals("message") { message = value; return }
            if key.equals("process") { process = value; return }
            if key.equals("library") { library = value; return }
        case 8:
            if key.equals("category") { category = value; return }
            if key.equals("threadID") { threadID = value; return }
            if key.equals("filename") { filename = value; return }
            if key.equals("log_type") { logType = value; return }
            if key.equals("finished") { finished = value; return }
        case 9:
            if key.equals("timestamp") { timestamp = value; return }
            if key.equals("processID") { processID = value; return }
            if key.equals("subsystem") { subsystem = value; return }
            if key.equals("eventType") { eventType = value; return }
            if key.equals("thread_id") { threadIDSnake = value; return }
        case 10:
            if key.equals("image_name") { imageName = value; return }
            if key.equals("event_type") { eventTypeSnake = value; return }
        case 11:
            if key.equals("messageType") { messageType = value; return }
            if key.equals("activity_id") { activityIDSnake = value; return }
        case 12: if key.equals("eventMessage") { eventMessage = value; return }
        case 15: if key.equals("senderImagePath") { senderImagePath = value; return }
        case 16: if key.equals("processImagePath") { processImagePath = value; return }
        case 18: if key.equals("activityIdentifier") { activityIdentifier = value; return }
        default: break
        }
        otherKeys += 1
    }

    var schema: Schema? {
        if eventMessage != nil || processImagePath != nil || messageType != nil || eventType != nil { return .logShow }
        if level != nil || imageName != nil || filename != nil || procid != nil { return .pymobiledevice3 }
        if time?.kind == .number, logType != nil || eventTypeSnake != nil || library != nil || process != nil { return .unifiedLogIterator }
        if count != nil || finished != nil, timestamp == nil, message == nil { return .trailer }
        return nil
    }

    /// Builds the event into `built`, or says why it does not. Short fields that repeat (process, sender image,
    /// subsystem, category) go through `interner`, so they are not allocated again for every record.
    /// The written time of a `log show` or pymobiledevice3 record, parsed; nil when it has none or it is not a time.
    func writtenTimestamp(in bytes: UnsafeRawBufferPointer) -> PartialTimestamp? {
        guard let value = self.timestamp, value.kind == .string else { return nil }
        let raw = bytes.slice(value.range.lowerBound, value.range.upperBound)
        guard let (partial, end) = TimestampParsing.dateTime(raw, at: 0), end == raw.count else { return nil }
        return partial
    }

    func makeEvent(schema: Schema, bytes: UnsafeRawBufferPointer, origin: EventOrigin,
                   resolver: inout TimestampResolver, interner: inout StringInterner, skipping: inout RecordSkipping, offers: RecordOffers,
                   invalidUTF8: inout Bool, into built: inout LogEvent?) -> RecordVerdict {
        func string(_ value: JSONValue?) -> String? {
            guard let value, value.kind == .string, !value.range.isEmpty else { return nil }
            let decoded = JSONStringDecoder.decode(bytes, value)
            if !decoded.isValid { invalidUTF8 = true }
            return decoded.text
        }
        func interned(_ raw: UnsafeRawBufferPointer) -> String {
            let decoded = interner.string(for: raw)
            if !decoded.isValid { invalidUTF8 = true }
            return decoded.text
        }
        func repeatedString(_ value: JSONValue?) -> String? {
            guard let value, value.kind == .string, !value.range.isEmpty else { return nil }
            return value.hasEscapes ? string(value) : interned(bytes.slice(value.range.lowerBound, value.range.upperBound))
        }
        func basename(_ value: JSONValue?) -> String? {
            guard let value, value.kind == .string, !value.range.isEmpty else { return nil }
            // `log show` writes every '/' as '\/': the name after the last one is read straight from the
            // bytes when it holds no escape of its own (the usual case).
            let name = bytes.slice(value.range.lowerBound, value.range.upperBound).lastPathComponent()
            if name.firstIndex(of: UInt8(ascii: "\\")) == nil {
                return name.isEmpty && !value.hasEscapes ? nil : interned(name)
            }
            // An escape in the name itself: decode the path, then cut.
            guard let path = string(value) else { return nil }
            if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
                return String(Substring(path.utf8[path.utf8.index(after: slash)...]))
            }
            return path
        }
        func unsigned(_ value: JSONValue?) -> UInt64? {
            guard let value, value.kind == .number,
                  let (number, end) = bytes.unsignedInteger(at: value.range.lowerBound), end == value.range.upperBound else { return nil }
            return number
        }
        func word(_ value: JSONValue?) -> UnsafeRawBufferPointer? {
            guard let value, value.kind == .string else { return nil }
            return bytes.slice(value.range.lowerBound, value.range.upperBound)
        }
        // Whether a string field would decode without repair: ASCII, and no `\u` escape (which may
        // name a lone surrogate).
        func decodesCleanly(_ value: JSONValue?) -> Bool {
            guard let value, value.kind == .string else { return true }
            let raw = bytes.slice(value.range.lowerBound, value.range.upperBound)
            return UTF8Text.isASCII(raw) && (!value.hasEscapes || !raw.containsUnicodeEscape())
        }
        // Offered when the caller can judge the record from its bytes: a message without escapes (the bytes it sees are
        // the message's text), and the fields the event would decode all clean (an invalid one must still be reported).
        // (Three fields by name, not variadic: a variadic list is an array made on every call.)
        func refused(process: String, pid: Int?, message: JSONValue?, decoded first: JSONValue?, _ second: JSONValue?, _ third: JSONValue?) -> Bool {
            guard skipping.offers, let message, message.kind == .string, !message.hasEscapes else { return false }
            // The name's bytes are the interned string's own (stored in the offer, the string would be retained and
            // released once more on every record).
            let taken = process.utf8.withContiguousStorageIfAvailable { name in
                var offer = RecordOffer(processName: UnsafeRawBufferPointer(name), pid: pid,
                                        message: bytes.slice(message.range.lowerBound, message.range.upperBound))
                return offers(&offer)
            } ?? true
            guard !taken else { return false }
            return decodesCleanly(message) && decodesCleanly(first) && decodesCleanly(second) && decodesCleanly(third)
        }
        func invalid(_ text: String) -> RecordVerdict {
            .rejected(ReaderDiagnostic(code: .invalidRecord, severity: .warning, message: text, origin: origin))
        }

        func invalidTimestamp(_ raw: UnsafeRawBufferPointer) -> RecordVerdict {
            .rejected(ReaderDiagnostic(code: .invalidTimestamp, severity: .warning,
                                       message: "'\(UTF8Text.decode(raw).text)' is not a valid timestamp; record skipped", origin: origin))
        }
        // A timestamp in text is parsed first (a record of any process with a bad one is reported) and resolved
        // once the record is known to be kept; the resolver passes over those of records not kept.
        let written: (partial: PartialTimestamp, raw: UnsafeRawBufferPointer)?
        let epochTimestamp: LogTimestamp?
        switch schema {
        case .logShow, .pymobiledevice3:
            guard let value = self.timestamp, value.kind == .string else { return invalid("record has no 'timestamp'") }
            let raw = bytes.slice(value.range.lowerBound, value.range.upperBound)
            guard let (partial, end) = TimestampParsing.dateTime(raw, at: 0), end == raw.count else { return invalidTimestamp(raw) }
            written = (partial, raw)
            epochTimestamp = nil
        case .unifiedLogIterator:
            guard let value = time, value.kind == .number else { return invalid("record has no numeric 'time'") }
            let raw = bytes.slice(value.range.lowerBound, value.range.upperBound)
            let text = String(decoding: raw.bindMemory(to: UInt8.self), as: UTF8.self)
            let microseconds: Int64
            if let (nanoseconds, end) = raw.unsignedInteger(at: 0), end == raw.count {
                microseconds = Int64(nanoseconds / 1000)
            } else if let nanoseconds = Double(text), nanoseconds.isFinite, abs(nanoseconds / 1000) < 9.2e18 {
                microseconds = Int64((nanoseconds / 1000).rounded())
            } else {
                microseconds = .min
            }
            guard LogTimestamp.isReadable(microseconds) else {
                return .rejected(ReaderDiagnostic(code: .invalidTimestamp, severity: .warning,
                                                 message: LogTimestamp.unreadableTimeMessage(text), origin: origin))
            }
            // Epoch nanoseconds are absolute: no part is inferred; shown in UTC.
            written = nil
            epochTimestamp = LogTimestamp(microsecondsSinceEpoch: microseconds, utcOffsetSeconds: 0, text: text)
        case .trailer:
            return invalid("not a log record")
        }
        func notKept() -> RecordVerdict {
            if let written, !resolver.pass(written.partial) { return invalidTimestamp(written.raw) }
            return .notKept
        }

        // The process and pid first: a record skipped or refused builds no event.
        let process: String, pid: Int?
        switch schema {
        case .logShow:
            process = basename(processImagePath) ?? ""
            if skipping.skips(process: process) { return notKept() }
            pid = unsigned(processID).flatMap { Int(exactly: $0) }
            if refused(process: process, pid: pid, message: eventMessage, decoded: senderImagePath, subsystem, category) { return notKept() }
        case .pymobiledevice3:
            process = basename(filename) ?? ""
            if skipping.skips(process: process) { return notKept() }
            pid = unsigned(self.pid).flatMap { Int(exactly: $0) }
            if refused(process: process, pid: pid, message: message, decoded: imageName, labelSubsystem, labelCategory) { return notKept() }
        case .unifiedLogIterator:
            process = basename(self.process) ?? ""
            if skipping.skips(process: process) { return notKept() }
            pid = unsigned(self.pid).flatMap { Int(exactly: $0) }
            if refused(process: process, pid: pid, message: message, decoded: library, subsystem, category) { return notKept() }
        case .trailer:
            return invalid("not a log record")
        }
        let timestamp: LogTimestamp
        if let written {
            guard let resolved = resolver.resolve(written.partial, text: TimestampText(utf8: written.raw)) else { return invalidTimestamp(written.raw) }
            timestamp = resolved
        } else {
            guard let epochTimestamp else { return invalid("not a log record") }  // (every schema but the trailer set one)
            timestamp = epochTimestamp
        }
        var event = LogEvent(timestamp: timestamp, process: process, pid: pid, message: "", origin: origin)
        switch schema {
        case .logShow:
            event.senderImage = basename(senderImagePath)
            event.subsystem = repeatedString(subsystem)
            event.category = repeatedString(category)
            event.threadID = unsigned(threadID)
            event.activityID = unsigned(activityIdentifier).flatMap { $0 == 0 ? nil : $0 }
            event.message = string(eventMessage) ?? ""
            if let type = word(messageType), !type.isEmpty {
                event.type = MessageTypeSpelling.type(type)
            } else if let kind = word(eventType) {
                event.type = kind.hasPrefix("activity") || kind.hasPrefix("userAction") ? .activity
                    : kind.hasPrefix("signpost") ? .signpost : kind.equals("logEvent") ? .default : .unknown
            }
        case .pymobiledevice3:
            event.senderImage = basename(imageName)
            event.subsystem = repeatedString(labelSubsystem)
            event.category = repeatedString(labelCategory)
            event.threadID = unsigned(threadIDSnake)
            event.message = string(message) ?? ""
            if let type = word(level) { event.type = MessageTypeSpelling.type(type) }
        case .unifiedLogIterator:
            event.senderImage = basename(library)
            event.subsystem = string(subsystem)
            event.category = string(category)
            event.threadID = unsigned(threadIDSnake)
            event.activityID = unsigned(activityIDSnake).flatMap { $0 == 0 ? nil : $0 }
            event.message = string(message) ?? ""
            if let kind = word(eventTypeSnake), kind.equals("Activity") {
                event.type = .activity
            } else if let kind = word(eventTypeSnake), kind.equals("Signpost") {
                event.type = .signpost
            } else if let type = word(logType) {
                event.type = MessageTypeSpelling.type(type)
            }
        case .trailer:
            break
        }
        if event.senderImage == event.process { event.senderImage = nil }
        built = event
        return .built
    }
}
