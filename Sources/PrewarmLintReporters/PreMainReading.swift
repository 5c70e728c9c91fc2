public import PrewarmLintModel
public import PrewarmLintSessions
public import PrewarmLintSpool

/// dyld's launch statistics a run read (`PreMainStatistics`), with the session a line joins them to, if any.
///
/// A block joins a session only where a line proves it: its app's next line in an Xcode console names the process and
/// the pid (`PreMainStatistics.launch`), and the session is that process's, launched before that line. Otherwise the
/// block is reported alone: pre-main time read from a paste, about no launch the logs show.
public struct PreMainReading: Sendable, Hashable {
    /// The statistics, as read.
    public var statistics: PreMainStatistics
    /// The id of the session they are about, when a line proves it.
    public var session: String?

    /// A reading.
    public init(statistics: PreMainStatistics, session: String? = nil) {
        self.statistics = statistics
        self.session = session
    }

    /// `statistics` joined to `sessions` (with their `ids`) as the listing joins them
    /// (`SessionListing.sessions(ofLaunches:in:)`).
    public static func joined(_ statistics: [PreMainStatistics], to sessions: ReportList<LaunchSession>,
                              ids: ReportList<String>) -> [PreMainReading] {
        let positions = SessionListing.sessions(ofLaunches: statistics.map(\.launch), in: sessions)
        return zip(statistics, positions).map { PreMainReading(statistics: $0, session: $1.map { ids[$0] }) }
    }

    /// The pre-main time in one line: `pre-main 722.04 ms: dylib loading 192.04 ms, rebase/binding 375.07 ms, …`.
    public var headline: String {
        let statistics = self.statistics
        var text = "pre-main "
        if let preMain = statistics.preMainTime {
            text += Self.shown(preMain)
        } else if let total = statistics.detailsTotal {
            if statistics.isComputed {
                // As precise as the coarsest value it is computed from (dyld prints a tenth of a second past 10 s of tenths).
                let coarse = ([total] + [PreMainStatistics.Phase.debuggerPause, .sharedCacheBindings].compactMap(statistics.time(of:)))
                    .contains { $0.text.split(separator: " ").dropFirst().first == "seconds" }
                let value = statistics.milliseconds.map { coarse ? "about \(Self.tenthsOfSecond($0))" : Self.milliseconds($0) } ?? "not readable"
                text += "\(value) (dyld's total time \(Self.shown(total)) less the debugger's pause and the shared cache's rebinding)"
            } else {
                text += "\(Self.shown(total)) (dyld's total time)"
            }
        }
        // The summary's parts when it was pasted (the details' are in the JSON report), else the details'.
        let summaryPhases: Set<PreMainStatistics.Phase> = [.dylibLoading, .rebaseBinding, .objcSetup, .initializers]
        let parts = statistics.phases.filter { part in
            statistics.preMainTime != nil ? summaryPhases.contains(part.phase) : part.phase != .debuggerPause && part.phase != .dtraceRegistration
        }.map { "\($0.phase.label) \(Self.shown($0.time))" }
        if !parts.isEmpty { text += ": " + parts.joined(separator: ", ") }
        return text
    }

    /// The slowest initializers, slowest first (at most `limit`): `Trust 46.08 ms, libMainThreadChecker.dylib 15.59 ms`.
    public func slowestInitializers(_ limit: Int = 5) -> String? {
        let timed = statistics.initializers.filter { $0.time.milliseconds != nil }
            .sorted { $0.time.milliseconds! > $1.time.milliseconds! }.prefix(limit)
        guard !timed.isEmpty else { return nil }
        return timed.map { "\($0.image) \(Self.shown($0.time))" }.joined(separator: ", ")
    }

    /// What the reading is about: its session, or why none.
    public var joinText: String {
        if let session, let launch = statistics.launch {
            return "session \(session): \(launch.process)[\(launch.pid)]'s line after them (\(launch.evidence)) is of its launch"
        }
        if let launch = statistics.launch {
            return "\(launch.process)[\(launch.pid)] (\(launch.evidence)), whose launch no session shows"
        }
        return "no session: dyld's statistics name no process, and no app line follows them"
    }

    /// The values dyld could not have measured, as printed: said, not computed with.
    public var unbelievableText: String? {
        guard !statistics.unbelievable.isEmpty else { return nil }
        return "not read, not a time dyld could measure: " + statistics.unbelievable.map { "“\($0)”" }.joined(separator: ", ")
    }

    /// What the reports say of it, a line each (text from the input, not yet escaped for any output): the pre-main time
    /// and its parts, the slowest initializers, the values not read, and the launch it is about.
    public var lines: [String] {
        var lines = [headline]
        if let slowest = slowestInitializers() { lines.append("slowest initializers: \(slowest)") }
        if let unbelievable = unbelievableText { lines.append(unbelievable) }
        lines.append("about: \(joinText)")
        return lines
    }

    /// A time as dyld printed it, its unit short (`722.04 ms`, `1.3 s`: no more precise than printed); `not readable`
    /// for a value dyld could not have measured.
    static func shown(_ measure: PreMainStatistics.Measure) -> String {
        guard measure.milliseconds != nil else { return "not readable" }
        let words = measure.text.split(separator: " ")
        guard words.count >= 2 else { return measure.text }
        return "\(words[0]) \(words[1] == "seconds" ? "s" : "ms")"
    }

    /// `1.4 s`: a computed time to a tenth of a second.
    static func tenthsOfSecond(_ milliseconds: Double) -> String {
        let tenths = Int64((milliseconds / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// A computed time in milliseconds, with at most two decimals.
    static func milliseconds(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        let whole = Int64(hundredths / 100)
        let rest = Int64(hundredths) - whole * 100
        return rest == 0 ? "\(whole) ms" : rest % 10 == 0 ? "\(whole).\(rest / 10) ms" : "\(whole).\(rest < 10 ? "0" : "")\(rest) ms"
    }

    /// Writes the JSON object of `reading` (the report's `preMainStatistics` array).
    public static func write(_ reading: PreMainReading, to writer: inout JSONTextWriter) {
        let statistics = reading.statistics
        writer.beginObject()
        writer.key("evidence")
        LintReport.writeOrigin(statistics.origin, to: &writer)
        writer.field("lines", statistics.lineCount)
        writer.key("milliseconds")
        writer.number(statistics.milliseconds ?? .nan)
        if let preMain = statistics.preMainTime { writer.key("preMainTime"); write(preMain, to: &writer) }
        if let total = statistics.detailsTotal { writer.key("totalTime"); write(total, to: &writer) }
        writer.key("phases")
        writer.beginArray()
        for part in statistics.phases {
            writer.beginObject()
            writer.field("phase", part.phase.rawValue)
            writer.key("time")
            write(part.time, to: &writer)
            writer.endObject()
        }
        writer.endArray()
        writer.key("initializers")
        writer.beginArray()
        for initializer in statistics.initializers {
            writer.beginObject()
            writer.field("image", initializer.image)
            writer.key("time")
            write(initializer.time, to: &writer)
            writer.endObject()
        }
        writer.endArray()
        if statistics.initializersNotKept > 0 { writer.field("initializersNotKept", statistics.initializersNotKept) }
        if let loaded = statistics.imagesLoaded { writer.field("imagesLoaded", loaded) }
        if let shared = statistics.imagesFromSharedCache { writer.field("imagesFromSharedCache", shared) }
        if !statistics.unbelievable.isEmpty {
            writer.key("unbelievable")
            writer.beginArray()
            for line in statistics.unbelievable { writer.string(line) }
            writer.endArray()
        }
        writer.key("launch")
        if let launch = statistics.launch {
            writer.beginObject()
            writer.field("process", launch.process)
            writer.field("pid", launch.pid)
            writer.field("before", launch.before)
            writer.key("evidence")
            LintReport.writeOrigin(launch.evidence, to: &writer)
            writer.endObject()
        } else {
            writer.string(nil)
        }
        writer.field("session", reading.session)
        writer.endObject()
    }

    private static func write(_ measure: PreMainStatistics.Measure, to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.key("milliseconds")
        writer.number(measure.milliseconds ?? .nan)
        writer.key("percent")
        writer.number(measure.percent ?? .nan)
        writer.field("text", measure.text)
        writer.endObject()
    }
}
