import PrewarmLintModel

/// The parsed head of a text record: values, and byte ranges into the line for the fields an
/// event keeps (decoded into `String`s only when the record is kept).
///
/// Packed: the head is written and copied for every line of a text log, so its size is paid per line.
/// Ranges are 32-bit offsets (a line is at most ``maximumLineLength`` bytes), the time's parts 32-bit
/// numbers, optional numbers a flag and a value; in 128 bytes, a copy is a few moves instead of a call
/// to `memcpy`.
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

    /// The time as the line printed it.
    private(set) var packedTime: PackedTimestamp
    private var storedTimeText: Span
    private var storedProcess = Span(nil)
    private var storedPID: Int64 = .min
    private var storedThreadID: UInt64 = 0, storedActivityID: UInt64 = 0
    private var hasThreadID = false, hasActivityID = false
    var type: MessageType = .default
    /// The type's spelling, when a grammar left it to be read (``completeFields(in:)``) instead of setting ``type``.
    private var storedTypeWord = Span(nil)
    private var storedSenderImage = Span(nil), storedSubsystem = Span(nil), storedCategory = Span(nil)
    private var storedMessage: Span
    /// The line ended where the message should start: in a hard-wrapped export the `(image)` and
    /// `[subsystem:category]` prefixes then begin the next line, which starts the message.
    var prefixesMayFollow = false
    /// How the message's `(image) [subsystem:category]` prefixes are still to be read (see
    /// ``completeFields(in:)``): a grammar leaves them to the decoder, which reads them only for a
    /// record it builds. Until then ``message`` starts at the prefixes.
    var unreadPrefixes = UnreadPrefixes.none

    /// Prefixes left unread by a grammar.
    enum UnreadPrefixes: UInt8 {
        /// None: the fields are final.
        case none
        /// `MessagePrefixes` at the start of ``message``.
        case prefixes
        /// The same, in `log show`'s default style, whose hard-wrapped heads may leave them to the next line.
        case prefixesOrNextLine
    }

    init(time: PartialTimestamp, timeText: Range<Int>, message: Range<Int>) {
        self.init(time: PackedTimestamp(time), timeText: timeText, message: message)
    }

    init(time: PackedTimestamp, timeText: Range<Int>, message: Range<Int>) {
        packedTime = time
        storedTimeText = Span(timeText)
        storedMessage = Span(message)
    }

    /// The time as the line printed it.
    var time: PartialTimestamp { packedTime.partial }
    /// The pid (read from digits: never negative).
    var pid: Int? {
        get { storedPID == .min ? nil : Int(storedPID) }
        set { storedPID = newValue.map { Int64($0) } ?? .min }
    }
    var threadID: UInt64? {
        get { hasThreadID ? storedThreadID : nil }
        set { hasThreadID = newValue != nil; storedThreadID = newValue ?? 0 }
    }
    var activityID: UInt64? {
        get { hasActivityID ? storedActivityID : nil }
        set { hasActivityID = newValue != nil; storedActivityID = newValue ?? 0 }
    }

    /// A head for a decoder's scratch space, before a grammar writes one.
    static let placeholder = TextRecordHead(time: PartialTimestamp(hour: 0, minute: 0, second: 0), timeText: 0..<0, message: 0..<0)

    /// Whether the fields an event decodes from `line`, other than the process, are ASCII (the time and
    /// the numeric columns are not decoded; unread prefixes are within the message).
    func fieldsAreASCII(in line: UnsafeRawBufferPointer) -> Bool {
        func isASCII(_ span: Span) -> Bool {
            span.lower < 0 || UTF8Text.isASCII(line.slice(Int(span.lower), Int(span.upper)))
        }
        return isASCII(storedMessage) && isASCII(storedSenderImage) && isASCII(storedSubsystem) && isASCII(storedCategory)
    }

    /// The type's spelling in the line, to be read by ``completeFields(in:)``.
    var typeWord: Range<Int>? {
        get { storedTypeWord.range }
        set { storedTypeWord = Span(newValue) }
    }

    /// Reads from `line`, the bytes the head describes, what a grammar left to be read only for a
    /// record that is built (most records of a device's log are not): the type from its spelling
    /// (``typeWord``), and the prefixes (``unreadPrefixes``) — the sender image, subsystem and category,
    /// and where the message starts after them.
    mutating func completeFields(in line: UnsafeRawBufferPointer) {
        if let word = typeWord {
            type = MessageTypeSpelling.type(line.slice(word.lowerBound, word.upperBound))
            typeWord = nil
        }
        guard unreadPrefixes != .none else { return }
        let prefixes = MessagePrefixes.parse(line, from: message.lowerBound)
        senderImage = prefixes.senderImage
        subsystem = prefixes.subsystem
        category = prefixes.category
        message = prefixes.messageStart..<message.upperBound
        if unreadPrefixes == .prefixesOrNextLine {
            prefixesMayFollow = prefixes.messageStart >= line.count && prefixes.subsystem == nil
        }
        unreadPrefixes = .none
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
    /// The first line of a record; the grammar wrote its head into the decoder's.
    case head
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
    /// Classifies a line, writing the head of a record's first line into `head` (left as it was for
    /// any other line). Called for every line, in order. (The head is written in place: returned in
    /// the line's kind, it was copied several times for every line.)
    mutating func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind
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

    /// What the reader must say, once, that it guessed in reading this input's lines (a Console copy's columns
    /// separated by spaces); nil when nothing was.
    var guessNote: String? {
        if case .consoleCopy(let grammar) = self { return grammar.guessNote }
        return nil
    }

    /// Whether a line's kind and head depend on the line alone from now on (a Console copy's grammar learns its
    /// columns from the first line that shows them; the other grammars learn nothing).
    var isSettled: Bool {
        if case .consoleCopy(let grammar) = self { return grammar.knowsColumns }
        return true
    }

    @inline(__always)
    mutating func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind {
        switch self {
        case .logShow(let grammar): return grammar.classify(line, into: &head)
        case .logShowCompact(let grammar): return grammar.classify(line, into: &head)
        case .logShowSyslog(let grammar): return grammar.classify(line, into: &head)
        case .xcodeConsole(let grammar): return grammar.classify(line, into: &head)
        case .idevicesyslog(let grammar): return grammar.classify(line, into: &head)
        case .pymobiledevice3(let grammar): return grammar.classify(line, into: &head)
        case .consoleCopy(let grammar):
            if let kind = grammar.classifyLearnt(line, into: &head) { return kind }
            var learning = grammar  // (only until a line shows the columns)
            let kind = learning.classify(line, into: &head)
            self = .consoleCopy(learning)
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
    static let spellings: [(String, MessageType)] = [
        // The words a device prints most first: the lookup tries them in order (no two are the same word).
        ("default", .default), ("info", .info), ("debug", .debug), ("error", .error), ("fault", .fault),
        // The legacy syslog relay's `Warning` has no os_log counterpart; it is below Error, so default.
        ("df", .default), ("notice", .default), ("standard", .default), ("warning", .default),
        ("i", .info),
        ("db", .debug),
        ("e", .error), ("er", .error), ("fehler", .error),
        ("f", .fault), ("fa", .fault),
        ("activity", .activity), ("a", .activity), ("user_action", .activity),
        ("signpost", .signpost),
    ]

    /// A word of at most 15 bytes in 16 bytes, letters lowered, its length in the last byte: two spellings
    /// are the same word, case aside, exactly when their keys are equal.
    private struct Key: Equatable {
        var low: UInt64, high: UInt64

        init?(_ word: UnsafeRawBufferPointer) {
            guard word.count < 16 else { return nil }
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: word) }
            low = Self.lowered(UInt64(littleEndian: words.0))
            high = Self.lowered(UInt64(littleEndian: words.1)) | UInt64(word.count) << 56
        }

        /// `word` with its bytes `A`…`Z` made lowercase, all eight at once (0x80 >> 2 is the case bit).
        static func lowered(_ word: UInt64) -> UInt64 {
            word | ByteClasses.within(word, 0x41, 0x5A) >> 2
        }
    }

    private static let keys: [(Key, MessageType)] = spellings.map { spelling, type in
        var text = spelling
        return (text.withUTF8 { Key(UnsafeRawBufferPointer($0))! }, type)
    }

    static func type(_ word: UnsafeRawBufferPointer) -> MessageType {
        guard !word.isEmpty, let key = Key(word) else { return .unknown }
        for (spelling, type) in keys where spelling == key { return type }
        return .unknown
    }
}
