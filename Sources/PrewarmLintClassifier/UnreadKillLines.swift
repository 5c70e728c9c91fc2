package import PrewarmLintModel

/// Lines that look like a kill or a termination of an app that no signature reads: a new wording, counted and quoted so
/// that it shows itself instead of vanishing (`unread-kill-line`).
///
/// A line counts when no signature matched it, it says a kill (`0x8badf00d`, `Termination Reason`, `exhausted real`,
/// `SIGKILL`, `killed`, `terminated`, any case: ``saysKill(_:)``) and it is about an app: a launch daemon's line (dasd, runningboardd or
/// assertiond, SpringBoard) that names one (`application<…>:pid`, `app<…>`), or a crash report's event. Those are the
/// lines every reading admits alike (the gate admits a launch daemon's line that names an app, one input or many), so
/// the count is the same whatever the inputs' arrangement.
package struct UnreadKillLines: Sendable {
    /// How many such lines were read.
    package private(set) var count = 0
    /// The first few, quoted (their text cut and made one line), with where each is.
    package private(set) var quoted: [(text: String, origin: EventOrigin)] = []

    /// Lines quoted at most.
    package static let maximumQuoted = 3
    /// The most characters of a line quoted.
    package static let maximumQuotedLength = 160

    package init() {}

    /// Notes `event`, a line no signature matched, when it is such a line; `role` is its process's by name alone
    /// (``EventClassifier/lastKnownRole``). Only a launch daemon's line or a report's event is read: an app's own
    /// lines, most of what is built, are passed over unread.
    package mutating func note(_ event: LogEvent, role: ProcessRole?) {
        let daemon = role == .dasd || role == .runningboardd || role == .springboard
        guard daemon || event.reportedBundleID != nil, Self.saysKill(event.message) else { return }
        guard !daemon || AppIdentityParser.firstMention(in: event.message) != nil else { return }
        count += 1
        if quoted.count < Self.maximumQuoted { quoted.append((Self.oneLine(event.message), event.origin)) }
    }

    /// Whether `message` holds one of the words of a kill, in any case: `kill` (`killed`, `SIGKILL`), `terminat`
    /// (`terminated`, `Termination Reason`), `exhausted real`, `8badf00d`. One pass over the bytes, stopping only at
    /// a word's rarer letter (`k`, `m`, `x`, `8`) to compare the word around it.
    static func saysKill(_ message: String) -> Bool {
        var copy = message
        return copy.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            for index in raw.indices {
                let word: (marker: [UInt8], start: Int)
                switch raw[index] | 0x20 {
                case UInt8(ascii: "k"): word = (kill, index)
                case UInt8(ascii: "m"): word = (terminat, index - 3)
                case UInt8(ascii: "x"): word = (exhaustedReal, index - 1)
                case UInt8(ascii: "8"): word = (badFood, index)
                default: continue
                }
                if word.start >= 0, Self.holds(raw, word.marker, at: word.start) { return true }
            }
            return false
        }
    }

    static let kill = Array("kill".utf8), terminat = Array("terminat".utf8), exhaustedReal = Array("exhausted real".utf8),
               badFood = Array("8badf00d".utf8)

    /// Whether `bytes` holds `marker` (lowercase) at `start`, in any case.
    private static func holds(_ bytes: UnsafeRawBufferPointer, _ marker: [UInt8], at start: Int) -> Bool {
        guard start + marker.count <= bytes.count else { return false }
        for (offset, expected) in marker.enumerated() {
            let byte = bytes[start + offset]
            let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            if lowered != expected { return false }
        }
        return true
    }

    /// The text as one line: control characters and line breaks made spaces, cut at ``maximumQuotedLength``.
    static func oneLine(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(maximumQuotedLength) {
            let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            result.unicodeScalars.append(control ? " " : scalar)
        }
        return text.unicodeScalars.count > maximumQuotedLength ? result + "…" : result
    }
}
