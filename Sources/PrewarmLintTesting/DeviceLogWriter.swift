import Foundation

/// One line of a generated device log, before it is written in a format.
public struct DeviceLogRecord: Sendable, Hashable {
    /// The levels the exporters print, each spelled its own way.
    public enum Level: Sendable, Hashable {
        /// `Default` (`Notice` to the device relays).
        case `default`
        /// `Info`.
        case info
        /// `Debug`.
        case debug
        /// `Error`.
        case error
        /// `Fault`.
        case fault
    }

    /// When, in microseconds since 1970 (UTC).
    public var microseconds: Int64
    /// The process name.
    public var process: String
    /// Its pid.
    public var pid: Int
    /// The thread id.
    public var thread: Int
    /// The level.
    public var level: Level
    /// The subsystem (empty for none).
    public var subsystem: String
    /// The category (empty for none).
    public var category: String
    /// The process's image path.
    public var image: String
    /// The image that logged the line (a framework, or the process's own image).
    public var sender: String
    /// The message; RunningBoard's descriptors span several lines.
    public var message: String
}

/// The formats ``DeviceLogWriter`` writes: every text and JSON format prewarm-lint reads from a device
/// or a Mac, and the XML property list. Raw values are `LogFormat`'s.
public enum DeviceLogFormat: String, Sendable, CaseIterable {
    /// `log show` default style (header, fixed columns, closing summary).
    case logShow = "log-show"
    /// `log show --style compact` (milliseconds, no offset).
    case logShowCompact = "log-show-compact"
    /// `log show --style syslog`.
    case logShowSyslog = "log-show-syslog"
    /// `log show --style json` (one pretty-printed array).
    case logShowJSON = "log-show-json"
    /// `log show --style ndjson` (preamble, one object per line, count trailer).
    case ndjson = "log-show-ndjson"
    /// A Console.app copy with the PID column.
    case consoleCopy = "console-copy"
    /// libimobiledevice's `idevicesyslog` (no year, no offset).
    case idevicesyslog
    /// pymobiledevice3 `syslog live --label`.
    case pymobiledevice3
    /// pymobiledevice3 `syslog live --format json`.
    case pymobiledevice3JSON = "pymobiledevice3-json"
    /// An XML property list of `log show --style json` records (what `plutil -convert xml1` writes).
    case plist
}

/// Writes ``DeviceLogRecord``s the way each exporter prints them: the shapes of
/// `docs/research/formats.md` §1–§4, as the `Corpus/formats` cases hold them.
public struct DeviceLogWriter: Sendable {
    /// The format written.
    public let format: DeviceLogFormat
    private var written = 0
    private var levelCounts: [Int] = [0, 0, 0, 0, 0]

    /// A writer of `format`.
    public init(format: DeviceLogFormat) {
        self.format = format
    }

    /// What comes before the first record (a header, a preamble, an opening bracket).
    public func prologue() -> String {
        switch format {
        case .logShow: "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
        case .logShowCompact: "Timestamp               Ty Process[PID:TID]\n"
        case .logShowSyslog: "Timestamp                       (process)[PID]\n"
        case .ndjson: "Filtering the log data using \"processImagePath BEGINSWITH \\\"/\\\"\"\n"
        case .logShowJSON: "["
        case .idevicesyslog: "[connected:00008110-001A2B3C4D5E801E]\n"
        case .plist:
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<array>\n"
        case .consoleCopy, .pymobiledevice3, .pymobiledevice3JSON: ""
        }
    }

    /// What comes after the last record (a summary, a count record, a closing bracket).
    public func epilogue() -> String {
        switch format {
        case .logShow:
            String(repeating: "-", count: 116) + "\n"
                + "Log      - Default:\(Self.column(levelCounts[0], 11)), Info:\(Self.column(levelCounts[1], 17)), Debug:\(Self.column(levelCounts[2], 14)), Error:\(Self.column(levelCounts[3], 11)), Fault:\(Self.column(levelCounts[4], 11))\n"
                + "Activity - Create:           0, Transition:          0, Actions:           0\n"
        case .ndjson: "{\"count\":\(written),\"finished\":1}\n"
        case .logShowJSON: written == 0 ? "]\n" : "}]\n"
        case .idevicesyslog: "[disconnected]\n"
        case .plist: "</array>\n</plist>\n"
        case .logShowCompact, .logShowSyslog, .consoleCopy, .pymobiledevice3, .pymobiledevice3JSON: ""
        }
    }

    private static func column(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(1, width - text.count)) + text
    }

    /// The record in this format.
    public mutating func render(_ record: DeviceLogRecord) -> String {
        defer { written += 1 }
        levelCounts[Self.levelIndex(record.level)] += 1
        let local = Self.LocalTime(record.microseconds)
        let senderName = Self.basename(record.sender)
        let senderShown = senderName != Self.basename(record.image)
        switch format {
        case .logShow:
            let scope = record.subsystem.isEmpty ? "" : "[\(record.subsystem):\(record.category)] "
            let sender = senderShown ? "(\(senderName)) " : ""
            return "\(local.date) \(local.clock)-0700 \(Self.padded("0x" + String(record.thread, radix: 16), 11))\(Self.padded(Self.word(record.level), 12))0x0                  \(Self.padded(String(record.pid), 7))0    \(record.process): \(sender)\(scope)\(record.message)\n"
        case .logShowCompact:
            let scope = !record.subsystem.isEmpty ? "[\(record.subsystem):\(record.category)] " : senderShown ? "(\(senderName)) " : ""
            let code: String
            switch record.level {
            case .default: code = "Df"
            case .info: code = "I "
            case .debug: code = "Db"
            case .error: code = "E "
            case .fault: code = "F "
            }
            return "\(local.date) \(local.clock.prefix(12)) \(code) \(record.process)[\(record.pid):\(String(record.thread, radix: 16))] \(scope)\(record.message)\n"
        case .logShowSyslog:
            let sender = senderShown ? "(\(senderName)) " : ""
            return "\(local.date) \(local.clock)-0700  localhost \(record.process)[\(record.pid)]: \(sender)\(record.message)\n"
        case .consoleCopy:
            return "\(record.pid)\t\(Self.word(record.level).lowercased())\t\(local.clock)-0700\t\(record.process)\t\(record.message)\n"
        case .idevicesyslog:
            let day = local.day < 10 ? " \(local.day)" : "\(local.day)"
            let image = senderShown ? "(\(senderName))" : ""
            let level = record.level == .default ? "Notice" : Self.word(record.level)
            return "\(Self.months[local.month - 1]) \(day) \(local.clock) \(record.process)\(image)[\(record.pid)] <\(level)>: \(record.message)\n"
        case .pymobiledevice3:
            // Python's str(datetime) drops the fraction when it is zero.
            let clock = local.clock.hasSuffix(".000000") ? String(local.clock.prefix(8)) : local.clock
            let level = record.level == .default ? "NOTICE" : Self.word(record.level).uppercased()
            return "\(local.date) \(clock) \(record.process){\(senderName)}[\(record.pid)] <\(level)>: \(record.message) [\(record.subsystem)][\(record.category)]\n"
        case .pymobiledevice3JSON:
            var writer = PythonJSONLine()
            writer.field("pid", record.pid)
            writer.field("procid", record.pid)
            writer.field("thread_id", record.thread)
            writer.field("timestamp", local.clock.hasSuffix(".000000") ? "\(local.date)T\(local.clock.prefix(8))" : "\(local.date)T\(local.clock)")
            writer.field("level", record.level == .default ? "NOTICE" : Self.word(record.level).uppercased())
            writer.field("image_name", record.sender)
            writer.field("image_offset", 203_948 + record.thread % 4096)
            writer.field("image_uuid", "6E1B2C4D-8A7F-3B21-9C0E-5D4F3A2B1C0D")
            writer.field("process_image_uuid", "05BA185B-9D21-3EE8-B7D8-5CE21382B5E5")
            writer.field("filename", record.image)
            writer.field("mach_timestamp", Int(record.microseconds - DeviceLogGenerator.dayStart) * 24)
            writer.field("message", record.message)
            if record.subsystem.isEmpty {
                writer.raw("label", "null")
            } else {
                writer.raw("label", "{\"subsystem\": \(PythonJSONLine.quoted(record.subsystem)), \"category\": \(PythonJSONLine.quoted(record.category))}")
            }
            return writer.finish()
        case .ndjson:
            return "{" + Self.appleJSONMembers(record, local: local).map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}\n"
        case .logShowJSON:
            let members = Self.appleJSONMembers(record, local: local).map { "  \"\($0.key)\" : \($0.value)" }.joined(separator: ",\n")
            return (written == 0 ? "{\n" : "},{\n") + members + "\n"
        case .plist:
            var out = "\t<dict>\n"
            let members: [(String, String, String)] = [
                ("activityIdentifier", "integer", "0"), ("bootUUID", "string", "E312ED28-914E-4C3C-9B9E-4926AFCCD890"),
                ("category", "string", record.category), ("eventMessage", "string", record.message),
                ("eventType", "string", "logEvent"), ("formatString", "string", "%{public}@"),
                ("machTimestamp", "integer", String((record.microseconds - DeviceLogGenerator.dayStart) * 24)),
                ("messageType", "string", Self.word(record.level)), ("processID", "integer", String(record.pid)),
                ("processImagePath", "string", record.image), ("senderImagePath", "string", record.sender),
                ("subsystem", "string", record.subsystem), ("threadID", "integer", String(record.thread)),
                ("timestamp", "string", "\(local.date) \(local.clock)-0700"), ("timezoneName", "string", ""),
            ]
            for (key, type, value) in members {
                out += "\t\t<key>\(key)</key>\n"
                out += value.isEmpty ? "\t\t<\(type)></\(type)>\n" : "\t\t<\(type)>\(Self.xmlEscaped(value))</\(type)>\n"
            }
            return out + "\t</dict>\n"
        }
    }

    /// `log show --style json|ndjson`'s members in its order, values already JSON (slashes escaped as Apple does).
    static func appleJSONMembers(_ record: DeviceLogRecord, local: LocalTime) -> KeyValuePairs<String, String> {
        [
            "timezoneName": "\"\"", "messageType": "\"\(word(record.level))\"", "eventType": "\"logEvent\"", "source": "null",
            "formatString": "\"%{public}@\"", "userID": "501", "activityIdentifier": "0",
            "subsystem": appleQuoted(record.subsystem), "category": appleQuoted(record.category), "threadID": String(record.thread),
            "senderImageUUID": "\"6E1B2C4D-8A7F-3B21-9C0E-5D4F3A2B1C0D\"",
            "bootUUID": "\"E312ED28-914E-4C3C-9B9E-4926AFCCD890\"", "processImagePath": appleQuoted(record.image),
            "senderImagePath": appleQuoted(record.sender), "timestamp": "\"\(local.date) \(local.clock)-0700\"",
            "machTimestamp": String((record.microseconds - DeviceLogGenerator.dayStart) * 24),
            "eventMessage": appleQuoted(record.message), "processImageUUID": "\"05BA185B-9D21-3EE8-B7D8-5CE21382B5E5\"",
            "traceID": "0", "processID": String(record.pid), "senderProgramCounter": String(203_948 + record.thread % 4096),
            "parentActivityIdentifier": "0",
        ]
    }

    /// A JSON string as `log` writes it: `\/` for slashes, `\n` and `\t` escaped.
    static func appleQuoted(_ text: String) -> String {
        jsonQuoted(text, escapingSlashes: true, asciiOnly: false)
    }

    /// A JSON string literal: `log` escapes slashes and keeps other characters; Python's `json.dumps`
    /// keeps slashes and escapes everything outside ASCII (surrogate pairs above U+FFFF).
    static func jsonQuoted(_ text: String, escapingSlashes: Bool, asciiOnly: Bool) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escapingSlashes: out += "\\/"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || (asciiOnly && scalar.value > 0x7E) {
                    if scalar.value > 0xFFFF {
                        let v = scalar.value - 0x10000
                        out += String(format: "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
                    } else {
                        out += String(format: "\\u%04x", scalar.value)
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func levelIndex(_ level: DeviceLogRecord.Level) -> Int {
        switch level {
        case .default: 0
        case .info: 1
        case .debug: 2
        case .error: 3
        case .fault: 4
        }
    }

    static func word(_ level: DeviceLogRecord.Level) -> String {
        ["Default", "Info", "Debug", "Error", "Fault"][levelIndex(level)]
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func basename(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The device's local wall clock (UTC-7) of an instant.
    struct LocalTime {
        var date: String
        var clock: String
        var month: Int
        var day: Int

        init(_ microseconds: Int64) {
            let local = microseconds + Int64(DeviceLogGenerator.utcOffsetSeconds) * 1_000_000
            let seconds = local / 1_000_000
            let civil = Self.civil(fromDays: seconds / 86_400)
            let secondOfDay = Int(seconds % 86_400)
            month = civil.month
            day = civil.day
            // Zero-padded by hand: `String(format:)` was most of the generator's time.
            date = Self.digits(civil.year, 4) + "-" + Self.digits(civil.month, 2) + "-" + Self.digits(civil.day, 2)
            clock = Self.digits(secondOfDay / 3600, 2) + ":" + Self.digits(secondOfDay / 60 % 60, 2) + ":" + Self.digits(secondOfDay % 60, 2)
                + "." + Self.digits(Int(local % 1_000_000), 6)
        }

        /// `value` in decimal, zero-padded to `width` digits.
        static func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }

        /// Howard Hinnant's days-to-civil, for days since 1970-01-01.
        static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
            let z = days + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let dayOfEra = z - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthIndex = (5 * dayOfYear + 2) / 153
            let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
            let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
            return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
        }
    }
}

/// One line of Python's `json.dumps` default output: `", "` and `": "` separators, non-ASCII escaped.
struct PythonJSONLine {
    private var text = "{"
    private var empty = true

    static func quoted(_ value: String) -> String {
        DeviceLogWriter.jsonQuoted(value, escapingSlashes: false, asciiOnly: true)
    }

    mutating func field(_ key: String, _ value: String) { raw(key, Self.quoted(value)) }
    mutating func field(_ key: String, _ value: Int) { raw(key, String(value)) }
    mutating func raw(_ key: String, _ json: String) {
        if !empty { text += ", " }
        empty = false
        text += "\"\(key)\": \(json)"
    }

    func finish() -> String { text + "}\n" }
}
