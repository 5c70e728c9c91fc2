import Foundation
/// A small log a rule's description carries: shown in its documentation, and rendered by the tests
/// into every format the tool reads (Console copy, ndjson…), where the rule must fire exactly on
/// the marked lines.
///
/// Written one line per event, the way Console shows a sender:
/// ```
/// 06:02:11.209300 runningboardd[33]: Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)
/// ▶ 06:02:11.371990 securityd[115]: Ledger Pro[2231]/1#4 LF=0 copy_matching Error Domain=…
/// ```
/// `▶ ` marks a line a finding must point at (its decisive evidence). A line starting with a tab
/// continues the previous message. `E ` before the time makes the line an error-level event
/// (`messageType` Error) instead of Default. Times are on the example's ``date`` at UTC-7.
public struct RuleExample: Sendable, Hashable {
    /// One event of the example.
    public struct Line: Sendable, Hashable {
        /// `HH:MM:SS.ffffff`.
        public var time: String
        /// The sender's process name.
        public var process: String
        /// The sender's pid.
        public var pid: Int
        /// The message (lines joined by `\n`).
        public var message: String
        /// An error-level event (`E ` before the time).
        public var isError: Bool
        /// A finding must point here.
        public var marked: Bool
    }

    /// What the example shows.
    public var title: String
    /// The example as written.
    public var text: String
    /// The day the times are on.
    public var date: String

    /// An example log on `date`.
    public init(_ title: String, date: String = "2026-03-14", _ text: String) {
        self.title = title
        self.text = text
        self.date = date
    }

    /// The example's events. A line that does not parse is a programming error in the example:
    /// the tests parse every example, so it cannot ship.
    public var lines: [Line] {
        var result: [Line] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if raw.hasPrefix("\t"), !result.isEmpty {
                result[result.count - 1].message += "\n" + raw
                continue
            }
            var rest = Substring(raw)
            var marked = false, isError = false
            if rest.hasPrefix("▶ ") { marked = true; rest = rest.dropFirst(2) }
            if rest.hasPrefix("E ") { isError = true; rest = rest.dropFirst(2) }
            guard let space = rest.firstIndex(of: " ") else { preconditionFailure("example line without time: \(raw)") }
            let time = String(rest[..<space])
            rest = rest[rest.index(after: space)...]
            // `Ledger Pro[2231]: message`: the sender ends at the first `]: ` after a `[digits`.
            guard let close = rest.range(of: "]: "), let open = rest[..<close.lowerBound].lastIndex(of: "["),
                  let pid = Int(rest[rest.index(after: open)..<close.lowerBound])
            else { preconditionFailure("example line without sender[pid]: \(raw)") }
            result.append(Line(time: time, process: String(rest[..<open]), pid: pid,
                               message: String(rest[close.upperBound...]), isError: isError, marked: marked))
        }
        return result
    }

    /// The marked lines.
    public var markedLines: [Line] { lines.filter(\.marked) }
}
