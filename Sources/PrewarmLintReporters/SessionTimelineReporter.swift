import Foundation
import PrewarmLintClassifier
import PrewarmLintInsights
public import PrewarmLintRules
import PrewarmLintModel
public import PrewarmLintSessions

/// A readable timeline per session, for a terminal (`prewarm-lint sessions`).
///
/// ```
/// com.example.ledger[2231] (Ledger Pro): prewarm-then-launch, certain (log.txt:2)
///   07:41:02.118 prewarm request log.txt:1
///   07:41:02.163 process start   log.txt:3 +45 ms
///   07:41:03.010 suspended       log.txt:5 +847 ms          running-suspended
///   09:12:44.501 activation      log.txt:6 +1 h 31 min
///   prewarm → activation 1 h 31 min; activation → active 1 ms
///   callbacks before activation: log.txt:4
/// ```
public struct SessionTimelineReporter: Sendable {
    /// A timeline reporter.
    public init() {}

    /// One session's timeline: its milestones, with the app's own points among them (`main`,
    /// `did-finish-launching` when it logs them, and the named `markers` of the configuration). `input`: the input the
    /// session came from, named in its title when the inputs were read separately.
    ///
    /// `preMain`: dyld's launch statistics a line joined to the session (``PreMainReading``), shown beside the phases
    /// its lines measure.
    public func render(_ session: LaunchSession, id: String, input: String? = nil, markers: [LintConfiguration.Marker] = [],
                       preMain: [PreMainReading] = []) -> String {
        // Written as UTF-8 bytes and made a `String` once: a `String` built by appending and padding counts graphemes
        // and removes trailing spaces a `Character` at a time.
        var text = TimelineText()
        var title = "\(id)"
        if let pid = session.app.pid { title += " pid \(pid)" }
        if let name = session.app.processName, name != session.app.bundleID { title += " (\(name))" }
        if let input { title += " from \(input)" }
        title += ": \(session.kind.rawValue), \(session.confidence.rawValue)"
        if let decidedBy = session.decidedBy { title += " (\(decidedBy))" }
        text.line(title)
        var entries: [(time: LogTimestamp, label: String, evidence: EventOrigin, detail: String?)] = session.milestones.map {
            ($0.time, Self.label($0.name), $0.evidence, Self.detail(of: $0))
        }
        for point in LaunchPoints.of(session, markers: markers) where point.isMarker || point.name == "main" || point.name == "did-finish-launching" {
            let detail = point.reportedMilliseconds.map { "app says \(PhaseSummary.duration($0))" }
            entries.append((point.time, point.isMarker ? "▸ \(point.name)" : point.name.replacingOccurrences(of: "-", with: " "), point.evidence, detail))
        }
        // What a report says of the process that no log line does: the launch MetricKit measured, the lock state.
        for event in session.events where event.meaning == .slowLaunchDiagnostic || event.meaning == .deviceLockState {
            let label = event.meaning == .slowLaunchDiagnostic ? "slow launch" : "lock state"
            let detail = event.meaning == .slowLaunchDiagnostic ? "MetricKit launchDuration \(event.detail ?? "?")" : String(event.firstLine)
            entries.append((event.time, label, event.origin, detail))
        }
        // In time order, ties in the order given (a stable sort); nearly always already so, and then left as it is.
        if entries.indices.dropFirst().contains(where: { entries[$0 - 1].time.microsecondsSinceEpoch > entries[$0].time.microsecondsSinceEpoch }) {
            entries = entries.enumerated().sorted { lhs, rhs in
                let a = lhs.element.time.microsecondsSinceEpoch, b = rhs.element.time.microsecondsSinceEpoch
                return a != b ? a < b : lhs.offset < rhs.offset
            }.map(\.element)
        }
        // Each column as wide as its widest entry in this session: a label never runs into the place after it, and a
        // short place (`-:6`) is not padded to a long one's width.
        let labelWidth = entries.map { $0.label.count }.max() ?? 0
        let placeWidth = entries.map { $0.evidence.description.count }.max() ?? 0
        var previous: Int64?
        for entry in entries {
            let civil = CivilDateTime(microsecondsSinceEpoch: entry.time.microsecondsSinceEpoch, utcOffsetSeconds: entry.time.utcOffsetSeconds)
            text.startLine()
            text.append("  ")
            // `07:41:02.118` of `2024-03-18T07:41:02.118000-07:00` (ASCII: bytes are characters).
            text.append(civil.iso8601(utcOffsetSeconds: entry.time.utcOffsetSeconds).utf8.dropFirst(11).prefix(12))
            text.append(" ")
            text.append(entry.label, paddedTo: labelWidth)
            text.append(" ")
            text.append(entry.evidence.description, paddedTo: placeWidth)
            if let previous {
                text.append(" ")
                text.append("+" + Self.duration(LogTimestamp.microseconds(from: previous, to: entry.time.microsecondsSinceEpoch)), paddedTo: 16)
            }
            if let detail = entry.detail {
                text.append(" ")
                text.append(detail)
            }
            text.endLineTrimmingSpaces()
            previous = entry.time.microsecondsSinceEpoch
        }
        let durations = [
            ("prewarm → activation", LaunchSession.Milestone.Name.prewarmRequest, LaunchSession.Milestone.Name.activation),
            ("launch request → activation", .launchRequest, .activation),
            ("activation → active", .activation, .active),
            ("process start → active", .processStart, .active),
        ].compactMap { label, from, to in session.milliseconds(from: from, to: to).map { "\(label) \(Self.duration($0 * 1000))" } }
        if let launch = session.userPerceivedLaunch {
            text.line("  launch \(UserPerceivedLaunch.milliseconds(launch.microseconds)) (\(launch.label))")
        }
        if !durations.isEmpty { text.line("  " + durations.joined(separator: "; ")) }
        for reading in preMain {
            text.line("  \(reading.headline) (dyld's statistics, \(reading.statistics.origin))")
        }
        if !session.callbacksBeforeActivation.isEmpty {
            let more = session.callbacksBeforeActivationNotKept
            text.line("  app callbacks before activation: " + session.callbacksBeforeActivation.map(\.description).joined(separator: ", ")
                      + (more > 0 ? " and \(more) more" : ""))
        }
        for reason in session.incompleteEvidence { text.line("  evidence incomplete: \(reason)") }
        return text.string
    }

    /// A timeline's lines as UTF-8 bytes, separated by newlines (none after the last).
    struct TimelineText {
        private var bytes: [UInt8] = []
        private var lineStart = 0

        init() { bytes.reserveCapacity(1024) }

        /// Begins a line (after a newline, past the first).
        mutating func startLine() {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: "\n")) }
            lineStart = bytes.count
        }

        /// A whole line.
        mutating func line(_ text: String) {
            startLine()
            append(text)
        }

        /// `text` on the line: a line break or control character of an input's text shown (`TerminalText.singleLine`), so
        /// that every line of a timeline is one of its own.
        mutating func append(_ text: String) { bytes.append(contentsOf: TerminalText.singleLine(text).utf8) }

        mutating func append(_ text: Substring.UTF8View) { bytes.append(contentsOf: text) }

        /// `text`, then spaces up to `width` characters (none when it is as wide already).
        mutating func append(_ text: String, paddedTo width: Int) {
            let start = bytes.count
            let text = TerminalText.singleLine(text)
            bytes.append(contentsOf: text.utf8)
            var ascii = true
            for byte in bytes[start...] where byte >= 0x80 { ascii = false; break }
            // Characters, not bytes, fill the column; for ASCII text (nearly all) they are its bytes.
            let count = ascii ? bytes.count - start : text.count
            if count < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width - count)) }
        }

        /// Ends the line without the spaces it ends with (a space is one byte in UTF-8, never part of another character).
        mutating func endLineTrimmingSpaces() {
            while bytes.count > lineStart, bytes[bytes.count - 1] == UInt8(ascii: " ") { bytes.removeLast() }
        }

        var string: String { String(decoding: bytes, as: UTF8.self) }
    }

    static func label(_ name: LaunchSession.Milestone.Name) -> String {
        UserPerceivedLaunch.spoken(name)
    }

    /// A milestone's detail for a person: launchd's exit status in words (`(2, 6, 6): signal 6 (SIGABRT)`), and the
    /// line the detail comes from when it is not the milestone's own (`, line 943`; its whole place when another input's).
    static func detail(of milestone: LaunchSession.Milestone) -> String? {
        guard var text = milestone.detail else { return nil }
        if milestone.name == .termination, let status = LaunchdExitStatus(text) { text += ": \(status.explanation)" }
        if let source = milestone.detailEvidence {
            text += source.input == milestone.evidence.input ? ", line \(source.line)" : ", \(source)"
        }
        return text
    }

    /// `845 ms`, `3.2 s`, `1 h 31 min`: `SpokenDuration.text(microseconds:)`, as every report says it.
    static func duration(_ microseconds: Int64) -> String { SpokenDuration.text(microseconds: microseconds) }
}
