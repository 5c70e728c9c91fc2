import PrewarmLintModel

/// The parsed head of a text record: values, and byte ranges into the line for the fields an
/// event keeps (decoded into `String`s only when the record is kept).
///
/// Ranges are stored as 32-bit offsets (a line is at most ``maximumLineLength`` bytes): the head is
/// made and copied a few times for every line of a text log, so its size is paid per line (six ranges
/// of 16–24 bytes as `Range<Int>?`s, 8 bytes each now).
struct TextRecordHead {
    /// The longest line a head can describe; the text decoder's framer cuts lines to it.
    static let maximumLineLength = 1 << 30

    /// A byte range of the line, or none (`lower` -1).
    private struct Span {
        var lower: Int32 = -1, upper: Int32 = -1
        init(_ range: Range<Int>?) {
            if let range {
                lower = Int32(range.lowerBound)
                upper = Int32(range.upperBound)
            }
        }
        var range: Range<Int>? { lower < 0 ? nil : Int(lower)..<Int(upper) }
    }

    var time: PartialTimestamp
    private var storedTimeText: Span
    private var storedProcess = Span(nil)
    var pid: Int?
    var threadID: UInt64?
    var activityID: UInt64?
    var type: MessageType = .default
    private var storedSenderImage = Span(nil), storedSubsystem = Span(nil), storedCategory = Span(nil)
    private var storedMessage: Span
    /// The line ended where the message should start: in a hard-wrapped export the `(image)` and
    /// `[subsystem:category]` prefixes then begin the next line, which starts the message.
    var prefixesMayFollow = false

    init(time: PartialTimestamp, timeText: Range<Int>, message: Range<Int>) {
        self.time = time
        storedTimeText = Span(timeText)
        storedMessage = Span(message)
    }

    var timeText: Range<Int> {
        get { storedTimeText.range ?? 0..<0 }
        set { storedTimeText = Span(newValue) }
    }
    var process: Range<Int>? {
        get { storedProcess.range }
        set { storedProcess = Span(newValue) }
    }
    var senderImage: Range<Int>? {
        get { storedSenderImage.range }
        set { storedSenderImage = Span(newValue) }
    }
    var subsystem: Range<Int>? {
        get { storedSubsystem.range }
        set { storedSubsystem = Span(newValue) }
    }
    var category: Range<Int>? {
        get { storedCategory.range }
        set { storedCategory = Span(newValue) }
    }
    var message: Range<Int> {
        get { storedMessage.range ?? 0..<0 }
        set { storedMessage = Span(newValue) }
    }
}

/// What one line of a text format is.
enum TextLineKind {
    /// The first line of a record.
    case head(TextRecordHead)
    /// The start of a record head cut short by a hard wrap: the next line completes it.
    case incompleteHead
    /// A known non-event line.
    case skipped(SkippedLineReason)
    /// Anything else: a continuation of the previous record, or noise before the first.
    case other
}

/// The line grammar of one text format: which lines start records and where their fields are.
protocol TextRecordGrammar {
    static var format: LogFormat { get }
    /// Classifies a line. Called for every line, in order.
    mutating func classify(_ line: UnsafeRawBufferPointer) -> TextLineKind
    /// Adjusts a finished event (pymobiledevice3 prints subsystem and category after the message).
    func finish(_ event: inout LogEvent)
}

extension TextRecordGrammar {
    func finish(_ event: inout LogEvent) {}
}

/// The text grammars as one concrete type, so the decoder's hot loop calls them directly: a
/// decoder generic over its grammar would run unspecialized behind `any LogDecoder`.
enum TextGrammar {
    case logShow(LogShowGrammar)
    case logShowCompact(LogShowCompactGrammar)
    case logShowSyslog(LogShowSyslogGrammar)
    case xcodeConsole(XcodeConsoleGrammar)
    case idevicesyslog(IDeviceSyslogGrammar)
    case pymobiledevice3(PyMobileDevice3Grammar)
    case consoleCopy(ConsoleCopyGrammar)

    var format: LogFormat {
        switch self {
        case .logShow: LogShowGrammar.format
        case .logShowCompact: LogShowCompactGrammar.format
        case .logShowSyslog: LogShowSyslogGrammar.format
        case .xcodeConsole: XcodeConsoleGrammar.format
        case .idevicesyslog: IDeviceSyslogGrammar.format
        case .pymobiledevice3: PyMobileDevice3Grammar.format
        case .consoleCopy: ConsoleCopyGrammar.format
        }
    }

    @inline(__always)
    mutating func classify(_ line: UnsafeRawBufferPointer) -> TextLineKind {
        switch self {
        case .logShow(let grammar): return grammar.classify(line)
        case .logShowCompact(let grammar): return grammar.classify(line)
        case .logShowSyslog(let grammar): return grammar.classify(line)
        case .xcodeConsole(let grammar): return grammar.classify(line)
        case .idevicesyslog(let grammar): return grammar.classify(line)
        case .pymobiledevice3(let grammar): return grammar.classify(line)
        case .consoleCopy(var grammar):
            let kind = grammar.classify(line)
            self = .consoleCopy(grammar)
            return kind
        }
    }

    func finish(_ event: inout LogEvent) {
        if case .pymobiledevice3(let grammar) = self { grammar.finish(&event) }
    }
}

/// The `(senderImage) [subsystem:category] ` prefixes of `log show` messages.
enum MessagePrefixes {
    struct Parsed {
        var senderImage: Range<Int>?
        var subsystem: Range<Int>?
        var category: Range<Int>?
        var messageStart: Int
    }

    /// Parses the optional prefixes at `start`. `(…)` is a sender image when it holds no `(` and
    /// is followed by a space or the end; `[…:…]` is a subsystem and category when the subsystem
    /// is reverse-DNS (`com.apple.runningboard`, at least one dot, letters, digits, `-`, `_`) or a
    /// lone word with an empty category (`[system:]`). This keeps FrontBoard's own proems,
    /// `[app<com.example>:2231]` and `[sceneID:com.example-default]`, in the message where they belong. A message that itself starts with such text is misread: the format gives no
    /// way to tell them apart, and `log show` prints the prefixes whenever they are not empty.
    static func parse(_ bytes: UnsafeRawBufferPointer, from start: Int, allowImage: Bool = true) -> Parsed {
        var result = Parsed(messageStart: start)
        var index = start
        if allowImage, index < bytes.count, bytes[index] == UInt8(ascii: "("),
           let close = bytes.firstIndex(of: UInt8(ascii: ")"), from: index + 1), close > index + 1,
           close + 1 == bytes.count || bytes[close + 1] == .space,
           bytes.firstIndex(of: UInt8(ascii: "("), from: index + 1).map({ $0 > close }) ?? true {
            result.senderImage = (index + 1)..<close
            index = min(close + 2, bytes.count)
            result.messageStart = index
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "["),
           let close = bytes.firstIndex(of: UInt8(ascii: "]"), from: index + 1),
           close + 1 == bytes.count || bytes[close + 1] == .space,
           let colon = bytes.firstIndex(of: UInt8(ascii: ":"), in: (index + 1)..<close),
           isSubsystem(bytes.slice(index + 1, colon), categoryIsEmpty: colon + 1 == close),
           bytes.firstIndex(of: UInt8(ascii: "<"), in: colon..<close) == nil {
            if colon > index + 1 { result.subsystem = (index + 1)..<colon }
            if close > colon + 1 { result.category = (colon + 1)..<close }
            result.messageStart = min(close + 2, bytes.count)
        }
        return result
    }
}

extension MessagePrefixes {
    static func isSubsystem(_ bytes: UnsafeRawBufferPointer, categoryIsEmpty: Bool) -> Bool {
        guard !bytes.isEmpty || !categoryIsEmpty else { return false }
        var dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") { dots += 1; continue }
            guard byte.isASCIILetter || byte.isDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return false }
        }
        return dots > 0 || categoryIsEmpty || bytes.isEmpty
    }
}

/// Lines that `log show` and friends print around the records.
enum ExporterChrome {
    static func classify(_ line: UnsafeRawBufferPointer) -> SkippedLineReason? {
        if line.hasPrefix("Filtering the log data using") || line.hasPrefix("Skipping info and debug messages")
            || line.hasPrefix("getpwuid_r did not find a match") || line.hasPrefix("Error from getpwuid_r") {
            return .preamble
        }
        if line.hasPrefix("Timestamp ") { return .header }
        if line.count >= 10, line.hasPrefix("----------") {
            var allDashes = true
            for byte in line where byte != UInt8(ascii: "-") { allDashes = false; break }
            if allDashes { return .trailer }
        }
        if (line.hasPrefix("Log ") && line.firstIndex(of: "- Default:", from: 0) != nil)
            || (line.hasPrefix("Activity ") && line.firstIndex(of: "- Create:", from: 0) != nil) {
            return .trailer
        }
        return nil
    }
}

/// Maps the many spellings of a message type onto ``MessageType``, comparing bytes case-insensitively
/// without building a string (this runs once per event).
enum MessageTypeSpelling {
    private static let spellings: [(StaticString, MessageType)] = [
        // The legacy syslog relay's `Warning` has no os_log counterpart; it is below Error, so default.
        ("default", .default), ("df", .default), ("notice", .default), ("standard", .default), ("warning", .default),
        ("info", .info), ("i", .info),
        ("debug", .debug), ("db", .debug),
        ("error", .error), ("e", .error), ("er", .error), ("fehler", .error),
        ("fault", .fault), ("f", .fault), ("fa", .fault),
        ("activity", .activity), ("a", .activity), ("user_action", .activity),
        ("signpost", .signpost),
    ]

    static func type(_ word: UnsafeRawBufferPointer) -> MessageType {
        guard !word.isEmpty, word.count <= 12 else { return .unknown }
        for (spelling, type) in spellings where spelling.utf8CodeUnitCount == word.count {
            var equal = true
            let bytes = spelling.utf8Start
            for index in 0..<word.count {
                let byte = word[index]
                if (byte.isASCIILetter ? byte | 0x20 : byte) != bytes[index] { equal = false; break }
            }
            if equal { return type }
        }
        return .unknown
    }
}
