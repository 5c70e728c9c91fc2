import PrewarmLintModel

/// The date a pasted document gives its undated logs: a crash report's `Date/Time:` in the same paste, when the report's
/// process (`Process: Name [pid]`) is named in another block of the paste (`Name[pid]`, `…>:pid]`, `pid: pid`). A
/// Console copy has no date; pasted beside the report of its app's kill, the report's date is the copy's, which the
/// file's modification time is not. A report of another process says nothing of the copy's date.
///
/// A line state machine fed each content line of the document with its block (``take(_:line:block:)``), in the
/// document's order; memory is bounded (``maximumPIDsRemembered``).
package struct DocumentReportDate {
    /// The pids remembered from the blocks' lines, at most.
    package static let maximumPIDsRemembered = 4_096

    /// The first report's process and date, and its block.
    private var reportPID: (pid: Int, block: Int)?
    private var reportDate: (text: String, line: Int, block: Int)?
    /// Pids named in identity forms, with the first block that named each and whether another block did too.
    private var pids: [Int: (block: Int, inOtherBlock: Bool)] = [:]

    package init() {}

    /// A content line of the document (without its block's markers), its number, and its block's index.
    package mutating func take(_ content: UnsafeRawBufferPointer, line: Int, block: Int) {
        let start = content.skippingSpaces(from: 0)
        let text = content.slice(start, content.count)
        if text.hasPrefix("Process:") {
            if reportPID == nil, let pid = Self.bracketedPID(text) { reportPID = (pid, block) }
            return
        }
        if text.hasPrefix("Date/Time:") {
            if reportDate == nil {
                reportDate = (String(decoding: text.slice(10, text.count), as: UTF8.self).trimmingSpaces, line, block)
            }
            return
        }
        if text.hasPrefix("Parent Process:") || text.hasPrefix("Responsible Process:") || text.hasPrefix("Coalition:") { return }
        Self.forEachPID(in: text) { pid in
            if let seen = pids[pid] {
                if seen.block != block, !seen.inOtherBlock { pids[pid] = (seen.block, true) }
            } else if pids.count < Self.maximumPIDsRemembered {
                pids[pid] = (block, false)
            }
        }
    }

    /// The report's date when its process is named in a block other than the report's: the instant, the line of its
    /// `Date/Time:` and the pid. Nil otherwise.
    package var date: (instant: Int64, line: Int, pid: Int)? {
        guard let reportPID, let reportDate, reportPID.block == reportDate.block,
              let time = CrashReport.timestamp(reportDate.text), let seen = pids[reportPID.pid],
              seen.block != reportPID.block || seen.inOtherBlock else { return nil }
        return (time.microsecondsSinceEpoch, reportDate.line, reportPID.pid)
    }

    /// `Ledger [2231]` → 2231.
    private static func bracketedPID(_ text: UnsafeRawBufferPointer) -> Int? {
        var found: Int?
        forEachPID(in: text) { if found == nil { found = $0 } }
        return found
    }

    /// Each pid `text` names in an identity form: `Name[2231]` or `Name [2231]`, `…>:2231` followed by `]`, `>`, `)` or a
    /// space, `pid: 2231`, `pid 2231`, `pid=2231`. Digits after a time's colon (`08:14:51`) are not a pid.
    static func forEachPID(in text: UnsafeRawBufferPointer, _ body: (Int) -> Void) {
        var index = 0
        while index < text.count {
            let byte = text[index]
            var digitsStart: Int?
            var closers: [UInt8] = []
            if byte == UInt8(ascii: "["), index > 0 {
                digitsStart = index + 1
                closers = [UInt8(ascii: "]")]
            } else if byte == UInt8(ascii: ":"), index > 0, text[index - 1] == UInt8(ascii: ">") {
                digitsStart = index + 1
                closers = [UInt8(ascii: "]"), UInt8(ascii: ">"), UInt8(ascii: ")"), .space]
            } else if byte | 0x20 == UInt8(ascii: "p"), index + 3 < text.count, text[index + 1] | 0x20 == UInt8(ascii: "i"),
                      text[index + 2] | 0x20 == UInt8(ascii: "d"), index == 0 || !isWordByte(text[index - 1]) {
                var at = index + 3
                if at < text.count, text[at] == UInt8(ascii: ":") || text[at] == UInt8(ascii: "=") { at += 1 }
                while at < text.count, text[at] == .space { at += 1 }
                if at > index + 3 {
                    digitsStart = at
                    closers = []
                }
            }
            if let start = digitsStart {
                var end = start
                var value = 0
                while end < text.count, end - start < 7, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[end]) {
                    value = value * 10 + Int(text[end] - UInt8(ascii: "0"))
                    end += 1
                }
                let closed = closers.isEmpty ? (end == text.count || !isWordByte(text[end])) : (end < text.count && closers.contains(text[end]))
                if end > start, closed, value > 0 { body(value) }
                index = max(index + 1, end)
                continue
            }
            index += 1
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
