public import PrewarmLintModel
public import PrewarmLintClassifier

/// Renders events as a readable table for a terminal (`prewarm-lint events`).
///
/// ```
/// TIME                              TYPE     PROCESS[PID]                 MESSAGE
/// 2023-07-19 08:22:51.916784 +03:00 info     remotepairingd[599]          (RemotePairing) [com.apple.dt.remotepairing:networktunnelmanager] tunnel-1: …
/// ```
/// A time with an inferred part is marked `~` after it. Continuation lines of a multi-line
/// message are indented under the message column. With a classification, a line that means
/// something for a launch starts with its meaning: `«prewarm-request com.xyz»`.
public struct EventTableReporter: Sendable {
    /// ANSI colours (a terminal only).
    public var useColor: Bool

    /// A table, in colour or not.
    public init(useColor: Bool = false) {
        self.useColor = useColor
    }

    /// The column header line.
    public var header: String {
        pad("TIME", 35) + pad("TYPE", 9) + pad("PROCESS[PID]", 29) + "MESSAGE"
    }

    /// One event's row; a classified event is tagged with its meaning and app.
    public func row(for event: LogEvent, classification: ClassifiedEvent? = nil) -> String {
        let civil = CivilDateTime(microsecondsSinceEpoch: event.timestamp.microsecondsSinceEpoch,
                                  utcOffsetSeconds: event.timestamp.utcOffsetSeconds)
        var time = civil.iso8601(utcOffsetSeconds: event.timestamp.utcOffsetSeconds)
        // `2023-07-19T08:22:51.916784+03:00` → `2023-07-19 08:22:51.916784 +03:00`
        time = time.replacingFirst("T", with: " ")
        let offsetStart = time.index(time.endIndex, offsetBy: -6)
        time.insert(" ", at: offsetStart)
        if !event.timestamp.inferred.isEmpty { time += "~" }
        var process = event.process.isEmpty ? "?" : event.process
        if let pid = event.pid { process += "[\(pid)]" }
        // As `log show` prints them: `(senderImage) [subsystem:category] message`.
        var scope = event.senderImage.map { "(\($0)) " } ?? ""
        if event.subsystem != nil || event.category != nil {
            scope += "[\(event.subsystem ?? ""):\(event.category ?? "")] "
        }
        if let classification, let meaning = classification.meaning {
            var tag = meaning.rawValue
            if let subject = classification.subject { tag += " \(subject)" }
            let marked = "«\(tag)» "
            scope = (useColor ? TerminalText.Color.bold.paint(marked) : marked) + scope
        }
        let type = event.type.rawValue
        let coloredType = useColor ? color(for: event.type).paint(pad(type, 9)) : pad(type, 9)
        // Coloured, the message's own escape sequences are shown before the row's colours are added: the terminal's
        // escaping keeps the reporters' colours, so one of the input's must never look like them.
        var message = useColor ? TerminalText.safe(event.message, colors: false) : event.message
        if message.contains("\n") {
            message = message.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n" + String(repeating: " ", count: 73))
        }
        return pad(time, 35) + coloredType + pad(process, 29) + scope + message
    }

    private func color(for type: MessageType) -> TerminalText.Color {
        switch type {
        case .error: .red
        case .fault: .magenta
        case .debug, .info: .dim
        default: .reset
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        let length = text.count
        return length >= width ? text + " " : text + String(repeating: " ", count: width - length)
    }
}

extension String {
    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(index...index, with: replacement)
        return copy
    }
}
