import PrewarmLintModel

/// The text record being built: its event, its message's length so far, and what its next line may be — the prefixes a
/// head hard-wrapped before them left for it, a line past the message's limit, or more of the message.
struct PendingTextRecord {
    /// The event, once its first line was built.
    private(set) var event: LogEvent?
    /// The bytes of its message so far.
    private var messageBytes = 0
    /// Whether its next line holds the sender image, subsystem and category its head left for it (a `log show` head
    /// hard-wrapped before them), not its message.
    private var awaitsPrefixes = false
    /// Whether its message reached the limit: later lines are counted, not kept.
    private var messageCut = false
    /// Whether bytes that are not UTF-8 were replaced in it.
    private(set) var invalidUTF8 = false

    /// Starts with `event`, built from a first line.
    mutating func start(_ event: LogEvent, invalidUTF8: Bool, awaitsPrefixes: Bool) {
        self.event = event
        self.invalidUTF8 = invalidUTF8
        messageBytes = event.message.utf8.count
        messageCut = false
        self.awaitsPrefixes = awaitsPrefixes
    }

    /// Whether its text so far leaves a bracket or a quote open (``TextLogDecoder/leavesOpen(_:)``).
    var looksUnfinished: Bool { event.map { TextLogDecoder.leavesOpen($0.message.utf8) } ?? false }

    /// Adds a further line: its prefixes when the head left them for it, else to the message. True when this line
    /// took the message past `maximumMessageLength` (it and the lines after it are not kept: the caller says so, once).
    mutating func append(_ line: UnsafeRawBufferPointer, maximumMessageLength: Int) -> Bool {
        var bytes = line
        if awaitsPrefixes {
            awaitsPrefixes = false
            let prefixes = MessagePrefixes.parse(bytes, from: 0)
            if let image = text(bytes, prefixes.senderImage) { event!.senderImage = image }
            if let subsystem = text(bytes, prefixes.subsystem) { event!.subsystem = subsystem }
            if let category = text(bytes, prefixes.category) { event!.category = category }
            bytes = bytes.slice(prefixes.messageStart, bytes.count)
            let decoded = UTF8Text.decode(bytes)
            if !decoded.isValid { invalidUTF8 = true }
            event!.message = decoded.text
            messageBytes = bytes.count
            return false
        }
        if messageCut { return false }
        if messageBytes + 1 + bytes.count > maximumMessageLength {
            messageCut = true
            return true
        }
        let decoded = UTF8Text.decode(bytes)
        if !decoded.isValid { invalidUTF8 = true }
        event!.message.append("\n")
        event!.message.append(decoded.text)
        messageBytes += 1 + bytes.count
        return false
    }

    /// A field's text in `bytes`, nil when empty; bytes that are not UTF-8 are replaced and noted.
    private mutating func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>?) -> String? {
        guard let range, !range.isEmpty else { return nil }
        let decoded = UTF8Text.decode(bytes.slice(range.lowerBound, range.upperBound))
        if !decoded.isValid { invalidUTF8 = true }
        return decoded.text
    }

    /// The event, ended: moved out without copying (and retaining) its strings, the blank lines that ended its message
    /// trimmed (they belong to no one).
    mutating func take() -> LogEvent? {
        awaitsPrefixes = false
        guard var event = event.take() else { return nil }
        // (Checked on the contiguous bytes: the generic `utf8.last` walks the string's index machinery.)
        while event.message.utf8.withContiguousStorageIfAvailable({ $0.last == .newline }) ?? (event.message.utf8.last == .newline) {
            event.message.removeLast()
        }
        return event
    }
}
