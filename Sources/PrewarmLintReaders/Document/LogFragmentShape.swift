import PrewarmLintModel

/// Whether a line no reader took is shaped like a log line, and what it shows (``LogFragment``): a process column —
/// a name and its pid in brackets followed by a colon (`securityd[115]: …`, `Ledger Pro[2231]: …`) or Xcode's
/// `App[1234:56789] …`, after at most a few words (a date, a time, a host), nothing quoted — or a line that starts in RunningBoard's own spelling (`<RBSDomainAttribute| …`,
/// `Executing launch request for app<…>`). Prose that merely quotes a value (`-25308`) or a daemon's words in a
/// sentence is no fragment.
enum LogFragmentShape {
    /// The fragment `line` is, or nil.
    static func fragment(_ line: UnsafeRawBufferPointer, origin: EventOrigin) -> LogFragment? {
        guard line.count <= LogFragment.maximumLength, line.firstIndex(of: UInt8(ascii: "["), from: 0) != nil
                || line.firstIndex(of: UInt8(ascii: "<"), from: 0) != nil else { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let column = processColumn(in: text)
        // (A quote's `> ` markers are a paste's, not the line's.)
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == ">" }
        let runningBoard = column == nil && runningBoardOpenings.contains { trimmed.hasPrefix($0) }
        guard column != nil || runningBoard else { return nil }
        // A process described in FrontBoard's or BackBoard's way (`<FBApplicationProcess: 0x…; WeChat; pid: 899>`).
        let described = column == nil ? describedProcess(in: text) : nil
        return LogFragment(text: DisplayText.singleLine(String(trimmed)), origin: origin, process: column?.process ?? described?.name,
                           pid: column?.pid ?? described?.pid,
                           time: time(in: text), message: column.map { String(text[$0.messageStart...]) } ?? String(trimmed),
                           isRunningBoardSyntax: runningBoard)
    }

    /// How runningboardd's lines and descriptor lines (and SpringBoard's forced crash report of a launch it gave up on) start,
    /// in their own spelling: a line that starts so is theirs, whatever
    /// the paste lost around it (prose that quotes one further in a sentence does not start so).
    static let runningBoardOpenings = ["<RBS", "Executing launch request for ", "Acquiring assertion targeting ", "Launch request for ",
                                       "Forcing crash report of <FBApplicationProcess"]

    /// Whether `line` is shaped like a log line.
    static func isFragment(_ line: UnsafeRawBufferPointer) -> Bool {
        fragment(line, origin: EventOrigin(input: "", line: 0, byteOffset: 0)) != nil
    }

    /// The first `name[pid]:` or `name[pid:tid]` of `text`: the name (one or two words of letters, digits, `.`, `-`, `_`),
    /// the pid, and where the message starts.
    static func processColumn(in text: String) -> (process: String, pid: Int, messageStart: String.Index)? {
        var search = text.startIndex
        while let open = text[search...].firstIndex(of: "[") {
            search = text.index(after: open)
            guard let close = text[search...].firstIndex(of: "]") else { return nil }
            let inside = text[search..<close]
            let pidText = inside.split(separator: ":", maxSplits: 1).first ?? ""
            guard !pidText.isEmpty, pidText.count <= 7, pidText.allSatisfy(\.isASCII), pidText.allSatisfy(\.isNumber), let pid = Int(pidText),
                  inside.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) else { continue }
            // Xcode's `App[pid:tid]`, else a colon right after the bracket.
            let after = text.index(after: close)
            let colon = after < text.endIndex && text[after] == ":"
            guard inside.contains(":") || colon else { continue }
            // The name: the word (or two, `Ledger Pro`) before the bracket.
            var nameStart = open
            var words = 0
            while nameStart > text.startIndex {
                let previous = text[text.index(before: nameStart)]
                if previous == " " {
                    words += 1
                    guard words < 2, nameStart > text.index(after: text.startIndex),
                          text[text.index(nameStart, offsetBy: -2)].isLetter else { break }
                } else if !(previous.isLetter || previous.isNumber || previous == "." || previous == "-" || previous == "_") {
                    break
                }
                nameStart = text.index(before: nameStart)
            }
            let name = text[nameStart..<open].drop { $0 == " " }
            guard let first = name.first, first.isLetter else { continue }
            // What comes before it is a log line's: a date, a time, a host, a type — a few words, nothing quoted (a
            // log line quoted in JSON or in a sentence is no log line).
            let before = text[..<nameStart]
            guard !before.contains(where: { "\"'=({`".contains($0) }), before.split(separator: " ").count <= 5 else { return nil }
            var messageStart = colon ? text.index(after: after) : after
            while messageStart < text.endIndex, text[messageStart] == " " { messageStart = text.index(after: messageStart) }
            return (String(name), pid, messageStart)
        }
        return nil
    }

    /// A process as FrontBoard and BackBoard describe one, `<FBApplicationProcess: 0x130e8c4b0; WeChat; pid: 899>` or
    /// `<BKNewProcess: 0x13fe253e0; <REDACTED>; pid: 1526; hostpid: -1>`: its name (nil when redacted) and pid.
    static func describedProcess(in text: String) -> (name: String?, pid: Int)? {
        guard let marker = text.firstRange(of: "; pid: ") else { return nil }
        let digits = text[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 7, let pid = Int(digits), pid > 0 else { return nil }
        // The field before it: `; WeChat` after the description's address.
        let before = text[..<marker.lowerBound]
        let field = before.split(separator: ";", omittingEmptySubsequences: false).last.map { $0.drop { $0 == " " } } ?? ""
        let name = field.isEmpty || field.first == "<" || field.count > 64 || field.contains(":") ? nil : String(field)
        return (name, pid)
    }

    /// The first `HH:MM:SS` of `text`, with its fraction and zone when they follow (`21:28:47.041563-0500`).
    static func time(in text: String) -> String? {
        let bytes = Array(text.utf8)
        func digit(_ index: Int) -> Bool { index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39 }
        var index = 0
        while index + 8 <= bytes.count {
            if digit(index), digit(index + 1), bytes[index + 2] == 0x3A, digit(index + 3), digit(index + 4), bytes[index + 5] == 0x3A,
               digit(index + 6), digit(index + 7), index == 0 || !digit(index - 1) {
                var end = index + 8
                if end < bytes.count, bytes[end] == 0x2E { end += 1; while digit(end) { end += 1 } }
                if end < bytes.count, bytes[end] == 0x2B || bytes[end] == 0x2D { var zone = end + 1; while digit(zone) { zone += 1 }; if zone - end == 5 { end = zone } }
                return String(decoding: bytes[index..<end], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }
}
