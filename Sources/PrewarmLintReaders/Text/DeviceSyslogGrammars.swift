import PrewarmLintModel

/// The `process(image)[pid] <Level>: message` tail shared by device syslog relays.
enum RelayRecordTail {
    struct Parsed {
        var process: Range<Int>
        var image: Range<Int>?
        var pid: Int
        var type: MessageType
        var messageStart: Int
    }

    /// Finds `[pid] <Level>:` after `start`; the process (and image, between `open` and `close`
    /// just before `[`) is what precedes it. Process names may hold spaces and parentheses
    /// (`novio (R14)(CoreFoundation)[2768]`): the image is the last group before `[`.
    static func parse(_ line: UnsafeRawBufferPointer, from start: Int, imageOpen: UInt8, imageClose: UInt8) -> Parsed? {
        var position = start
        while let marker = line.firstIndex(of: "] <", from: position) {
            position = marker + 1
            let levelStart = marker + 3
            guard let levelEnd = line.firstIndex(of: UInt8(ascii: ">"), from: levelStart), levelEnd - levelStart <= 16,
                  line.matches(":", at: levelEnd + 1) else { continue }
            // Scan back from ']' over the pid digits to '['.
            var open = marker - 1
            while open > start, line[open].isDigit { open -= 1 }
            guard open >= start, line[open] == UInt8(ascii: "["), open + 1 < marker,
                  let (pid, _) = line.unsignedInteger(at: open + 1), let pidValue = Int(exactly: pid) else { continue }
            var processEnd = open
            var image: Range<Int>?
            if processEnd > start, line[processEnd - 1] == imageClose {
                var imageStart = processEnd - 2
                while imageStart >= start, line[imageStart] != imageOpen { imageStart -= 1 }
                if imageStart >= start {
                    var imageEnd = processEnd - 1
                    // pymobiledevice3 `--image-offset`: `{RunningBoard+0x1f3c}`.
                    if let plus = line.firstIndex(of: "+0x", from: imageStart + 1), plus < imageEnd { imageEnd = plus }
                    image = imageEnd > imageStart + 1 ? (imageStart + 1)..<imageEnd : nil
                    processEnd = imageStart
                }
            }
            guard processEnd > start else { continue }
            var messageStart = levelEnd + 2
            if messageStart < line.count, line[messageStart] == .space { messageStart += 1 }
            return Parsed(process: start..<processEnd, image: image, pid: pidValue,
                          type: MessageTypeSpelling.type(line.slice(levelStart, levelEnd)), messageStart: min(messageStart, line.count))
        }
        return nil
    }
}

/// libimobiledevice `idevicesyslog`, current and legacy relay forms.
///
/// ```
/// May  2 11:13:48.554160 sylk(sylk.debug.dylib)[1291] <Notice>: [SylkZRTP] ...
/// Jul  1 15:58:46 iPhone runningboardd(RunningBoard)[34] <Notice>: Removing process: …
/// ```
/// (formats.md §3.1; real-logs 14 and 22, the latter indented by four spaces as pasted). The
/// current form prints no year, no offset and no device name; the legacy relay prints no
/// fraction and keeps the device name, which is the first word when the process part holds a
/// space. Subsystem and category are never printed. Legacy continuation lines begin with a tab.
struct IDeviceSyslogGrammar: TextRecordGrammar {
    static let format = LogFormat.idevicesyslog

    func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind {
        if line.equals("[connected]") || line.equals("[disconnected]") || line.hasPrefix("[connected:") {
            return .skipped(.preamble)
        }
        var start = 0
        while start < line.count, line[start] == .space { start += 1 }
        guard let (time, afterTime) = TimestampParsing.monthDayTime(line, at: start), line.matches(" ", at: afterTime)
        else { return ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other }
        var processStart = afterTime + 1
        guard let tail = RelayRecordTail.parse(line, from: processStart, imageOpen: UInt8(ascii: "("), imageClose: UInt8(ascii: ")"))
        else { return .other }
        var process = tail.process
        let hasFraction = line[afterTime - 7] == UInt8(ascii: ".")
        if !hasFraction, let space = line.firstIndex(of: .space, from: processStart), space < process.upperBound {
            processStart = space + 1  // the legacy relay's device name
            process = processStart..<process.upperBound
        }
        head = TextRecordHead(time: time, timeText: start..<afterTime, message: tail.messageStart..<line.count)
        head.process = process
        head.senderImage = tail.image
        head.pid = tail.pid
        head.type = tail.type
        return .head
    }
}

/// pymobiledevice3 `syslog live` text.
///
/// `2024-01-15 10:23:45.123456 runningboardd{RunningBoard}[33] <NOTICE>: message`, with
/// ` [subsystem][category]` after the message when run with `--label` (pymobiledevice3
/// `cli/syslog.py`). The time is the host's local time without an offset, and Python's
/// `str(datetime)` omits the fraction when it is zero.
struct PyMobileDevice3Grammar: TextRecordGrammar {
    static let format = LogFormat.pymobiledevice3

    func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind {
        guard let (time, afterTime) = TimestampParsing.dateTime(line, at: 0, allowOffset: false), line.matches(" ", at: afterTime),
              let tail = RelayRecordTail.parse(line, from: afterTime + 1, imageOpen: UInt8(ascii: "{"), imageClose: UInt8(ascii: "}"))
        else { return ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other }
        head = TextRecordHead(time: time, timeText: 0..<afterTime, message: tail.messageStart..<line.count)
        head.process = tail.process
        head.senderImage = tail.image
        head.pid = tail.pid
        head.type = tail.type
        return .head
    }

    /// Takes a `--label` suffix ` [subsystem][category]` off the message. Only a suffix whose
    /// subsystem is empty or reverse-DNS (holds a dot) counts, so a message that merely ends in
    /// two bracketed words is left alone.
    func finish(_ event: inout LogEvent) {
        let utf8 = event.message.utf8
        guard utf8.last == UInt8(ascii: "]") else { return }
        guard let categoryOpen = utf8.lastIndex(of: UInt8(ascii: "[")), categoryOpen > utf8.startIndex else { return }
        let beforeCategory = utf8.index(before: categoryOpen)
        guard utf8[beforeCategory] == UInt8(ascii: "]") else { return }
        guard let subsystemOpen = utf8[..<beforeCategory].lastIndex(of: UInt8(ascii: "[")), subsystemOpen > utf8.startIndex else { return }
        let spaceIndex = utf8.index(before: subsystemOpen)
        guard utf8[spaceIndex] == .space else { return }
        let subsystem = utf8[utf8.index(after: subsystemOpen)..<beforeCategory]
        let category = utf8[utf8.index(after: categoryOpen)..<utf8.index(before: utf8.endIndex)]
        guard subsystem.isEmpty || subsystem.contains(UInt8(ascii: ".")),
              !subsystem.contains(.space), !subsystem.contains(UInt8(ascii: "[")), !category.contains(UInt8(ascii: "["))
        else { return }
        if !subsystem.isEmpty { event.subsystem = String(Substring(subsystem)) }
        if !category.isEmpty { event.category = String(Substring(category)) }
        event.message = String(Substring(utf8[..<spaceIndex]))
    }
}
