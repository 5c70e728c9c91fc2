import PrewarmLintModel
/// `log show` / `log stream` default style.
///
/// ```
/// Timestamp                       Thread     Type        Activity             PID    TTL
/// 2023-07-19 08:22:51.916784+0300 0x3058     Info        0x0                  599    0    remotepairingd: (RemotePairing) [com.apple.dt.remotepairing:networktunnelmanager] tunnel-1: …
/// ```
/// (pymobiledevice3 `misc/RemoteXPC.md`). The sender image is printed only when it differs from
/// the process; `[subsystem:category]` only when set. A head hard-wrapped after the Activity
/// column (as in a pasted post, real-logs 32) is completed from the next line.
struct LogShowGrammar: TextRecordGrammar {
    static let format = LogFormat.logShow

    func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind {
        // `log show`'s own spelling of the time read at fixed places, straight into the packed form a head keeps;
        // any other by the general parser.
        let written = TimestampParsing.logShowPackedDateTime(line, at: 0)
            ?? TimestampParsing.anyDateTime(line, at: 0, allowOffset: true).flatMap { $0.utcOffsetSeconds == nil ? nil : (PackedTimestamp($0), $1) }
        guard let (time, afterTime) = written, afterTime < line.count, line[afterTime] == .space
        else { return ExporterChrome.classify(line).map(TextLineKind.skipped) ?? (ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other) }
        // Thread, Type, Activity, PID, TTL: whitespace-separated columns.
        var index = line.skippingSpaces(from: afterTime)
        guard line.matches("0x", at: index), let (thread, afterThread) = line.hexInteger(at: index + 2) else { return .other }
        index = line.skippingSpaces(from: afterThread)
        if index >= line.count { return .incompleteHead }
        let typeStart = index, typeEnd = line.endOfToken(from: index)
        index = line.skippingSpaces(from: typeEnd)
        if index >= line.count { return .incompleteHead }
        guard line.matches("0x", at: index), let (activity, afterActivity) = line.hexInteger(at: index + 2) else { return .other }
        index = line.skippingSpaces(from: afterActivity)
        if index >= line.count { return .incompleteHead }
        guard let (pid, afterPID) = line.unsignedInteger(at: index) else { return .other }
        index = line.skippingSpaces(from: afterPID)
        if index >= line.count { return .incompleteHead }
        guard let (_, afterTTL) = line.unsignedInteger(at: index) else { return .other }
        index = line.skippingSpaces(from: afterTTL)
        if index >= line.count { return .incompleteHead }
        // The process name runs to the first ": " (or a ':' ending the line).
        let processStart = index
        var processEnd: Int
        var messageStart: Int
        if let colon = line.firstColonSpace(from: processStart) {
            processEnd = colon
            messageStart = colon + 2
        } else if line[line.count - 1] == UInt8(ascii: ":") {
            processEnd = line.count - 1
            messageStart = line.count
        } else {
            return .incompleteHead
        }
        if processEnd <= processStart { return .other }
        head = TextRecordHead(time: time, timeText: 0..<afterTime, message: messageStart..<line.count)
        head.process = processStart..<processEnd
        head.pid = Int(exactly: pid)
        head.threadID = thread
        head.activityID = activity == 0 ? nil : activity
        head.typeWord = typeStart..<typeEnd
        head.unreadPrefixes = .prefixesOrNextLine
        return .head
    }
}

/// `log show --style compact`: millisecond times without an offset, two-letter types.
///
/// ```
/// Timestamp               Ty Process[PID:TID]
/// 2022-11-14 13:21:14.972 Df My App[59972:780a15] Configure argc/argv...
/// 2026-08-17 19:20:56.528 A  node[19887:b199c5] (Security) SecItemCopyMatching
/// ```
/// (beeware/briefcase fixture; public `log show` captures). Process names may hold spaces and
/// brackets, so the name ends at the first `[decimal:hex]` followed by a space.
struct LogShowCompactGrammar: TextRecordGrammar {
    static let format = LogFormat.logShowCompact

    func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind {
        if let chrome = ExporterChrome.classify(line) { return .skipped(chrome) }
        guard let (time, afterTime) = TimestampParsing.dateTime(line, at: 0, allowOffset: false),
              afterTime < line.count, line[afterTime] == .space
        else { return ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other }
        let typeStart = afterTime + 1
        let typeEnd = line.endOfToken(from: typeStart)
        guard typeEnd > typeStart, typeEnd - typeStart <= 2 else { return .other }
        let processStart = line.skippingSpaces(from: typeEnd)
        guard let bracket = ProcessBrackets.find(line, from: processStart, separator: UInt8(ascii: ":"), threadIsHex: true)
        else { return .other }
        head = TextRecordHead(time: time, timeText: 0..<afterTime, message: bracket.end..<line.count)
        head.typeWord = typeStart..<typeEnd
        head.process = processStart..<bracket.open
        head.pid = bracket.pid
        head.threadID = bracket.thread
        head.unreadPrefixes = .prefixes
        return .head
    }
}

/// `log show --style syslog`: no thread, type or subsystem; a host name before the process.
///
/// ```
/// Timestamp                       (process)[PID]
/// 2023-05-26 13:42:44.136082+0200  localhost kernel[0]: (Sandbox) Sandbox: sandbox-exec(41398) deny(1) process-exec* /usr/bin/touch
/// ```
/// (HackTricks macOS pages). The level is not printed, so events have type `unknown`. One space after the time (a paste
/// that collapsed the two) is read too: `2020-02-18 15:43:28.708807+0700 localhost Runner[76917]: …`.
struct LogShowSyslogGrammar: TextRecordGrammar {
    static let format = LogFormat.logShowSyslog

    func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind {
        if let chrome = ExporterChrome.classify(line) { return .skipped(chrome) }
        guard let (time, afterTime) = TimestampParsing.dateTime(line, at: 0), time.utcOffsetSeconds != nil,
              afterTime < line.count, line[afterTime] == .space
        else { return ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other }
        let hostStart = line.skippingSpaces(from: afterTime)
        let hostEnd = line.endOfToken(from: hostStart)
        guard hostEnd > hostStart, hostEnd < line.count else { return .other }
        // Two spaces after the time as printed; one where a web page or chat collapsed them — then the host is told from
        // the Xcode console's `Process[pid:tid]` by holding no bracket.
        if !line.matches("  ", at: afterTime), line.slice(hostStart, hostEnd).contains(UInt8(ascii: "[")) { return .other }
        let processStart = hostEnd + 1
        guard let bracket = ProcessBrackets.findPIDColon(line, from: processStart) else { return .other }
        head = TextRecordHead(time: time, timeText: 0..<afterTime, message: bracket.end..<line.count)
        head.type = .unknown
        head.process = processStart..<bracket.open
        head.pid = bracket.pid
        head.unreadPrefixes = .prefixes
        return .head
    }
}

/// The Xcode debug console: `2022-05-08 00:27:03.060495+0800 Runner[25951:23399161] [assertion] Error …`
/// (real-logs 40). The thread id is decimal; a leading `[word]` is the `os_log` category.
struct XcodeConsoleGrammar: TextRecordGrammar {
    static let format = LogFormat.xcodeConsole

    func classify(_ line: UnsafeRawBufferPointer, into head: inout TextRecordHead) -> TextLineKind {
        guard let (time, afterTime) = TimestampParsing.dateTime(line, at: 0), time.utcOffsetSeconds != nil,
              afterTime < line.count, line[afterTime] == .space
        else { return ByteLine(bytes: line, number: 0, byteOffset: 0).isBlank ? .skipped(.blank) : .other }
        let processStart = afterTime + 1
        guard processStart < line.count, line[processStart] != .space,
              let bracket = ProcessBrackets.find(line, from: processStart, separator: UInt8(ascii: ":"), threadIsHex: false)
        else { return .other }
        var messageStart = bracket.end
        var category: Range<Int>?
        if messageStart < line.count, line[messageStart] == UInt8(ascii: "["),
           let close = line.firstIndex(of: UInt8(ascii: "]"), from: messageStart + 1),
           close - messageStart <= 64, close + 1 == line.count || line[close + 1] == .space {
            var hasSpace = false
            for position in (messageStart + 1)..<close where line[position] == .space { hasSpace = true }
            if !hasSpace, close > messageStart + 1 {
                category = (messageStart + 1)..<close
                messageStart = min(close + 2, line.count)
            }
        }
        head = TextRecordHead(time: time, timeText: 0..<afterTime, message: messageStart..<line.count)
        head.process = processStart..<bracket.open
        head.pid = bracket.pid
        head.threadID = bracket.thread
        head.category = category
        return .head
    }
}

/// Finding `Process[pid:tid] ` and `Process[pid]: ` in a line whose process name may itself hold brackets.
enum ProcessBrackets {
    struct Found {
        /// Index of `[`.
        var open: Int
        var pid: Int
        var thread: UInt64?
        /// Index of the first byte after the bracket and its following space.
        var end: Int
    }

    /// The first `[decimal<separator>thread]` followed by a space or the end of the line.
    static func find(_ line: UnsafeRawBufferPointer, from start: Int, separator: UInt8, threadIsHex: Bool) -> Found? {
        var position = start
        while let open = line.firstIndex(of: UInt8(ascii: "["), from: position) {
            position = open + 1
            guard open > start, let (pid, afterPID) = line.unsignedInteger(at: open + 1),
                  afterPID < line.count, line[afterPID] == separator else { continue }
            let thread = threadIsHex ? line.hexInteger(at: afterPID + 1) : line.unsignedInteger(at: afterPID + 1)
            guard let (threadValue, afterThread) = thread, afterThread < line.count, line[afterThread] == UInt8(ascii: "]"),
                  afterThread + 1 == line.count || line[afterThread + 1] == .space,
                  let pidValue = Int(exactly: pid) else { continue }
            return Found(open: open, pid: pidValue, thread: threadValue, end: min(afterThread + 2, line.count))
        }
        return nil
    }

    /// The first `[decimal]:` followed by a space or the end of the line.
    static func findPIDColon(_ line: UnsafeRawBufferPointer, from start: Int) -> Found? {
        var position = start
        while let open = line.firstIndex(of: UInt8(ascii: "["), from: position) {
            position = open + 1
            guard open > start, let (pid, afterPID) = line.unsignedInteger(at: open + 1),
                  line.matches("]:", at: afterPID), afterPID + 2 == line.count || line[afterPID + 2] == .space,
                  let pidValue = Int(exactly: pid) else { continue }
            return Found(open: open, pid: pidValue, thread: nil, end: min(afterPID + 3, line.count))
        }
        return nil
    }
}
