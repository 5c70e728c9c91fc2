import PrewarmLintModel

/// Which tab-separated column of a Console.app copy holds what.
///
/// Console copies the visible columns in display order, with no header: the default set is
/// Type, Time, Process, Message, and users add PID, Library (sender image), Subsystem and
/// Category, anywhere. Columns are told apart by the shape of their values, learnt from the
/// first lines of the input:
/// - Time: `21:28:47.038326-0500` (or with a space before the offset, as the simulator prints);
/// - Type: the word just before Time (`default`, `error`, localized `standard`, `fehler`);
/// - Process: the column just after Time; PID: a column of digits;
/// - Message: always last, and may itself contain tabs;
/// - the others: Subsystem when reverse-DNS (`com.apple.runningboard`), Library when capitalised
///   or a `.dylib` (`RunningBoard`), else Category (`process`).
/// Seen in real-logs 01 (Library, Category, Type, Time, Process, Message), 03 (PID first) and
/// 07 (Library after Process).
public struct ConsoleColumnLayout: Sendable, Hashable {
    /// A column of a Console.app copy.
    public enum Column: String, Sendable, Hashable {
        /// The column's content (`Type`, `Time`, `Process`, `PID`, `Library`, `Subsystem`, `Category`).
        case type, time, process, pid, library, subsystem, category
    }

    /// The columns before the message, in order.
    public var columns: [Column]
    /// What separates the columns: tabs, as Console copies them, or runs of spaces, as a browser, a chat app or a mail
    /// client leaves a paste of them.
    public var separator: Separator

    /// What separates a copy's columns.
    public enum Separator: Sendable, Hashable {
        /// Tabs, as Console copies them.
        case tabs
        /// Runs of spaces: an empty column vanishes and a process name's own space looks like a separator, so only
        /// the columns a line's shape tells apart are read (`detectSpaced(lines:)`).
        case spaces
    }

    /// A layout of these columns, in order.
    public init(columns: [Column], separator: Separator = .tabs) {
        self.columns = columns
        self.separator = separator
    }

    var timeIndex: Int { columns.firstIndex(of: .time)! }

    /// Learns the layout from the lines of a sample; nil when no line has a Console time column.
    static func detect(from sample: UnsafeRawBufferPointer) -> ConsoleColumnLayout? {
        var lines: [UnsafeRawBufferPointer] = []
        var lineStart = 0
        // Whole lines only: a sample cut inside a line (a pipe's first short read) would show fewer columns than the
        // line has. With no whole line, the grammar learns from the first line it is given.
        while lineStart < sample.count, lines.count < 400 {
            guard let lineEnd = sample.firstIndex(of: .newline, from: lineStart) else { break }
            var line = sample.slice(lineStart, lineEnd)
            if line.last == .carriageReturn { line = line.slice(0, line.count - 1) }
            lines.append(line)
            lineStart = lineEnd + 1
        }
        return detect(lines: lines)
    }

    /// Learns the layout from sample lines; nil when no line has a Console time column.
    static func detect(lines: [UnsafeRawBufferPointer]) -> ConsoleColumnLayout? {
        var fieldCount = Int.max
        var timeIndex: Int?
        var valuesByColumn: [[UnsafeRawBufferPointer]] = []
        for line in lines {
            let fields = splitTabs(line)
            guard let index = fields.firstIndex(where: { isTime($0) }), index + 2 <= fields.count - 1 || index + 1 < fields.count else { continue }
            if let known = timeIndex, known != index { continue }
            timeIndex = index
            fieldCount = min(fieldCount, fields.count)
            if valuesByColumn.count < fields.count { valuesByColumn += Array(repeating: [], count: fields.count - valuesByColumn.count) }
            for (position, field) in fields.enumerated() { valuesByColumn[position].append(field) }
        }
        guard let time = timeIndex, fieldCount >= time + 3 else {
            // Time, Process and Message at the least; else, a copy whose tabs became spaces.
            return detectSpaced(lines: lines)
        }
        var columns: [Column] = []
        for position in 0..<(fieldCount - 1) {
            let values = valuesByColumn[position]
            if position == time { columns.append(.time); continue }
            if position == time + 1 { columns.append(.process); continue }
            if position == time - 1, values.allSatisfy({ isWord($0) }) { columns.append(.type); continue }
            if values.allSatisfy({ isDigits($0) }) { columns.append(.pid); continue }
            columns.append(classifyExtra(values))
        }
        return ConsoleColumnLayout(columns: columns)
    }

    /// The layout of a copy whose tabs became spaces, from the lines that have no tab: what is unambiguous in them.
    /// A head is up to four columns of a pid (digits), Library, Subsystem or Category (words, not read) and, just before
    /// the time, a type word; a time of day with its
    /// fraction (`14:14:22.944797+1100`, as Console prints it: prose seldom has one); the process, one word; then the
    /// message. Columns after the process (Library, Category) cannot be told from the message, nor a process name's
    /// own space from a separator: the message starts after the process's first word, and the reader says so. Each
    /// line is read by its own shape (an empty column vanished from some lines); the layout is the first such line's.
    /// Nil when no line has that shape.
    static func detectSpaced(lines: [UnsafeRawBufferPointer]) -> ConsoleColumnLayout? {
        for line in lines where line.firstIndex(of: .tab, from: 0) == nil {
            if let columns = spacedHead(line) { return ConsoleColumnLayout(columns: columns, separator: .spaces) }
        }
        return nil
    }

    /// The columns a line of space-separated Console columns shows before its message; nil when it is not one.
    static func spacedHead(_ line: UnsafeRawBufferPointer) -> [Column]? {
        let fields = splitSpaces(line, limit: 8)
        guard let time = fields.prefix(5).firstIndex(where: isPreciseTime), time + 1 < fields.count else { return nil }
        var columns: [Column] = []
        for index in 0..<time {
            let field = fields[index]
            if isDigits(field) {
                columns.append(.pid)
            } else if index == time - 1, isWord(field) {
                columns.append(.type)
            } else if field.count <= 64, field.allSatisfy({ $0 > 0x20 && $0 != UInt8(ascii: ":") }) {
                // Library, Subsystem or Category, whichever: not read (an empty one vanished, so which is which is a guess).
                columns.append(.category)
            } else {
                return nil
            }
        }
        return columns + [.time, .process]
    }

    /// The line's first `limit - 1` words, split at runs of spaces (a tab counts as one), and the rest of it from the
    /// next word on (empty when there is none).
    static func splitSpaces(_ line: UnsafeRawBufferPointer, limit: Int) -> [UnsafeRawBufferPointer] {
        var fields: [UnsafeRawBufferPointer] = []
        var at = 0
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == .space || byte == .tab }
        while at < line.count, isSpace(line[at]) { at += 1 }
        while at < line.count, fields.count < limit - 1 {
            var end = at
            while end < line.count, !isSpace(line[end]) { end += 1 }
            fields.append(line.slice(at, end))
            at = end
            while at < line.count, isSpace(line[at]) { at += 1 }
        }
        if at < line.count { fields.append(line.slice(at, line.count)) }
        return fields
    }

    /// A time of day with its fraction of a second, and an offset or not (`14:14:22.944797+1100`).
    static func isPreciseTime(_ field: UnsafeRawBufferPointer) -> Bool {
        field.count >= 12 && field[8] == UInt8(ascii: ".") && isTime(field)
    }

    private static func classifyExtra(_ values: [UnsafeRawBufferPointer]) -> Column {
        var subsystem = 0, library = 0, category = 0
        for value in values where !value.isEmpty {
            if value.firstIndex(of: UInt8(ascii: "."), from: 0) != nil, value.firstIndex(of: .space, from: 0) == nil,
               !value.hasSuffix(".dylib") {
                subsystem += 1
            } else if value[0] &- UInt8(ascii: "A") < 26 || value.hasSuffix(".dylib") {
                library += 1
            } else {
                category += 1
            }
        }
        if subsystem >= library && subsystem >= category && subsystem > 0 { return .subsystem }
        return library >= category ? .library : .category
    }

    static func splitTabs(_ line: UnsafeRawBufferPointer, limit: Int = .max) -> [UnsafeRawBufferPointer] {
        var fields: [UnsafeRawBufferPointer] = []
        var start = 0
        while fields.count < limit - 1, let tab = line.firstIndex(of: .tab, from: start) {
            fields.append(line.slice(start, tab))
            start = tab + 1
        }
        fields.append(line.slice(start, line.count))
        return fields
    }

    static func isTime(_ field: UnsafeRawBufferPointer) -> Bool {
        guard let (_, end) = TimestampParsing.timeOfDay(field, at: 0, allowSpaceBeforeOffset: true) else { return false }
        return end == field.count
    }

    static func isWord(_ field: UnsafeRawBufferPointer) -> Bool {
        !field.isEmpty && field.count <= 16 && field.allSatisfy { $0.isASCIILetter || $0 >= 0x80 || $0 == UInt8(ascii: "_") }
    }

    static func isDigits(_ field: UnsafeRawBufferPointer) -> Bool {
        !field.isEmpty && field.count <= 10 && field.allSatisfy { $0.isDigit }
    }
}

extension UnsafeRawBufferPointer {
    func hasSuffix(_ literal: StaticString) -> Bool {
        matches(literal, at: count - literal.utf8CodeUnitCount)
    }
}

/// Console.app Edit ▸ Copy: tab-separated columns, time without a date.
///
/// ```
/// default	21:28:47.038326-0500	SpringBoard	Bootstrapping app<com.hightowerai.MobileJarvisNative> with intent foreground-interactive
/// ```
/// (formats.md §2.1). Continuation lines of a multi-line message start with a tab, with spaces
/// or with nothing (real-logs 08, 11, 17): any line whose time column does not hold a time
/// continues the previous record.
struct ConsoleCopyGrammar: TextRecordGrammar {
    static let format = LogFormat.consoleCopy
    /// Where each column of the layout is, worked out once (a line's fields are then read by place, not by walking the
    /// layout and comparing each column's name). Plain values only: the decoder holds the grammar in an enum and
    /// copies it for each line, so a reference here was a retain and a release per line.
    private var places: ColumnPlaces?

    /// The place of each column before the message; -1 for a column the layout does not have. When a kind of column
    /// occurs twice (two columns of digits), the last one counts, as when the fields were read in order.
    private struct ColumnPlaces {
        var count: Int, time: Int, type: Int, process: Int, pid: Int, library: Int, subsystem: Int, category: Int
        /// Whether the columns are separated by runs of spaces (a paste's tabs turned to spaces).
        var spaced: Bool
        /// Other columns of digits before ``pid``, a bit each (of the first 64 columns): read, last first, only when
        /// the last one's value is not a number.
        var earlierPIDs: UInt64 = 0

        init(_ layout: ConsoleColumnLayout) {
            let columns = layout.columns
            func place(_ column: ConsoleColumnLayout.Column) -> Int { columns.lastIndex(of: column) ?? -1 }
            count = columns.count
            spaced = layout.separator == .spaces
            time = layout.timeIndex
            (type, process, pid) = (place(.type), place(.process), place(.pid))
            (library, subsystem, category) = (place(.library), place(.subsystem), place(.category))
            for index in columns.indices where columns[index] == .pid && index != pid && index < 64 { earlierPIDs |= 1 << index }
        }
    }

    init(layout: ConsoleColumnLayout?) {
        places = layout.map(ColumnPlaces.init)
    }

    /// Whether the columns are known: from then on a line's kind and head depend on the line alone.
    var knowsColumns: Bool { places != nil }

    /// What the reader must say it guessed, once: for columns separated by spaces, how they were read.
    var guessNote: String? {
        guard places?.spaced == true else { return nil }
        return "Console columns separated by spaces, not tabs (tabs a browser, chat app or mail client turned into spaces): read by their shape; a process name holding a space is completed from the names the log's lines show (Name[pid]), else read as its first word, and columns after the process are read as the message"
    }

    mutating func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind {
        if places == nil {
            // Forced format or a sample without a time column: learn from the first line that has one.
            guard let learnt = ConsoleColumnLayout.detect(lines: [line]) else {
                return ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other
            }
            places = ColumnPlaces(learnt)
        }
        return classifyLearnt(line, into: &head)!
    }

    /// What ``classify(_:into:)`` says of a line once the layout is known (nil before): it changes nothing, so the
    /// grammar need not be taken out of the decoder's enum and put back for each line.
    func classifyLearnt(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind? {
        guard let places else { return nil }
        if places.spaced { return classifySpaced(line, places: places, into: &head) }
        // Where the columns' tabs are, in a stack buffer: an array here was one heap allocation per line.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: places.count) { tabs in
            classify(line, places: places, tabs: tabs, into: &head)
        }
    }

    /// A line of space-separated columns: a head when it has the layout's shape (``ConsoleColumnLayout/spacedHead(_:)``),
    /// else a line that continues the record before it.
    private func classifySpaced(_ line: UnsafeRawBufferPointer, places: ColumnPlaces, into head: inout TextRecordHead) -> TextLineKind {
        // Each line by its own shape: an empty column vanished from some lines and not from others.
        guard let columns = ConsoleColumnLayout.spacedHead(line), let time = columns.firstIndex(of: .time) else {
            return ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other
        }
        let fields = ConsoleColumnLayout.splitSpaces(line, limit: columns.count + 1)
        guard let base = line.baseAddress else { return .other }
        @inline(__always) func range(_ index: Int) -> Range<Int> {
            let start = fields[index].baseAddress.map { $0 - base } ?? line.count
            return start..<(start + fields[index].count)
        }
        // A time whose offset follows a space (`21:28:47.038326 -0500`, as the simulator prints it): the offset is
        // part of the time, and the process is the word after it.
        let spacedOffset = time + 2 < fields.count && Self.isOffset(fields[time + 1])
        let timeText = spacedOffset ? range(time).lowerBound..<range(time + 1).upperBound : range(time)
        let timeField = line.slice(timeText.lowerBound, timeText.upperBound)
        guard let (parsed, end) = TimestampParsing.timeOfDay(timeField, at: 0, allowSpaceBeforeOffset: true), end == timeField.count
        else { return .other }
        let process = spacedOffset ? time + 2 : time + 1
        let words = spacedOffset ? ConsoleColumnLayout.splitSpaces(line, limit: process + 2) : fields
        let message = words.count > process + 1
            ? (words[process + 1].baseAddress.map { $0 - base } ?? line.count)..<line.count : line.count..<line.count
        head = TextRecordHead(time: PackedTimestamp(parsed), timeText: timeText, message: message)
        if let type = columns.firstIndex(of: .type) { head.typeWord = range(type) }
        let processStart = words[process].baseAddress.map { $0 - base } ?? line.count
        head.process = processStart..<(processStart + words[process].count)
        if let pid = columns.lastIndex(of: .pid), let (value, end) = fields[pid].unsignedInteger(at: 0), end == fields[pid].count {
            head.pid = Int(exactly: value)
        }
        return .head
    }

    /// A UTC offset alone: `+1100`, `-0500`.
    private static func isOffset(_ field: UnsafeRawBufferPointer) -> Bool {
        field.count == 5 && (field[0] == UInt8(ascii: "+") || field[0] == UInt8(ascii: "-")) && field.dropFirst().allSatisfy { $0 &- 0x30 <= 9 }
    }

    private func classify(_ line: UnsafeRawBufferPointer, places: ColumnPlaces, tabs: UnsafeMutableBufferPointer<Int>,
                          into head: inout TextRecordHead) -> TextLineKind {
        // Message is everything after the last column, tabs included.
        // (One pass over the short columns: searching for each column's tab anew from the one before repeats each
        // search's set-up and loads on every line.)
        guard line.firstIndices(of: .tab, into: tabs) else {
            return ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other
        }
        let start = tabs[places.count - 1] &+ 1
        /// Where column `index` is in the line.
        @inline(__always) func range(_ index: Int) -> Range<Int> {
            (index == 0 ? 0 : tabs[index &- 1] &+ 1)..<tabs[index]
        }
        @inline(__always) func field(_ index: Int) -> UnsafeRawBufferPointer {
            let place = range(index)
            return line.slice(place.lowerBound, place.upperBound)
        }
        let timeField = field(places.time)
        let time: PackedTimestamp
        if let common = TimestampParsing.consoleTime(timeField) {
            time = common
        } else {
            guard let (parsed, end) = TimestampParsing.timeOfDay(timeField, at: 0, allowSpaceBeforeOffset: true), end == timeField.count
            else { return .other }
            time = PackedTimestamp(parsed)
        }
        head = TextRecordHead(time: time, timeText: range(places.time), message: start..<line.count)
        // The type is read only for a record that is built (`TextRecordHead.completeFields(in:)`).
        if places.type >= 0 { head.typeWord = range(places.type) }
        if places.process >= 0 { head.process = range(places.process) }
        if places.pid >= 0 {
            // A column of up to eighteen digits is read in line (a pid has at most six); a longer one through the
            // general reader, which stops at an overflow.
            @inline(__always) func number(_ field: UnsafeRawBufferPointer) -> Int?? {
                guard !field.isEmpty else { return nil }
                guard field.count <= 18 else {
                    guard let (value, end) = field.unsignedInteger(at: 0), end == field.count else { return nil }
                    return .some(Int(exactly: value))
                }
                var value = 0
                for byte in field {
                    let digit = byte &- 0x30
                    guard digit <= 9 else { return nil }
                    value = value &* 10 &+ Int(digit)
                }
                return .some(value)
            }
            if let pid = number(field(places.pid)) {
                head.pid = pid
            } else {
                var earlier = places.earlierPIDs
                while earlier != 0 {
                    let index = 63 - earlier.leadingZeroBitCount
                    if let pid = number(field(index)) { head.pid = pid; break }
                    earlier &= ~(1 << index)
                }
            }
        }
        @inline(__always) func nonEmpty(_ index: Int) -> Range<Int>? {
            let place = range(index)
            return place.isEmpty ? nil : place
        }
        if places.library >= 0 { head.senderImage = nonEmpty(places.library) }
        if places.subsystem >= 0 { head.subsystem = nonEmpty(places.subsystem) }
        if places.category >= 0 { head.category = nonEmpty(places.category) }
        return .head
    }
}
