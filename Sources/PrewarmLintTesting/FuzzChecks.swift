import Foundation
import PrewarmLint
import PrewarmLintReaders
import PrewarmLintModel

/// What the fuzz targets check, callable from tests: each takes any bytes and returns nil when the
/// invariants hold, or what broke. The libFuzzer targets (`Sources/Fuzz*`) crash on a non-nil
/// answer; `Tests/…/AdversarialInputTests` replays every input the fuzzers ever broke on
/// (`Tests/PrewarmLintReadersTests/FuzzRegressions/<target>/`).
public enum FuzzChecks {
    /// Byte 0 picks the format (forced, so every decoder sees every input), byte 1 the chunk size
    /// (1…256), the rest is the input. Invariants: the line accounting holds, events are counted; read
    /// again with every record offered to a caller answering at random, the events are those of the first read less
    /// the refused ones, each the same, with the same diagnostics and line accounting.
    public static func readers(_ data: UnsafeRawBufferPointer) -> String? {
        guard data.count >= 2 else { return nil }
        let formats = LogFormat.allCases
        let format = formats[Int(data[0]) % formats.count]
        let chunk = Int(data[1]) + 1
        let input = UnsafeRawBufferPointer(rebasing: data[2...])
        var limits = ReaderLimits()
        // Small limits, so the fuzzer reaches them.
        limits.maximumLineLength = 4096
        limits.maximumMessageLength = 8192
        limits.maximumRecordLength = 8192
        let bytes = Array(input)
        let plain = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "fuzz", limits: limits), format: format, chunkSize: chunk)
        guard plain.failure == nil else { return nil }
        let statistics = plain.statistics
        if let broken = accountingProblem(plain, format: format) { return broken }

        if format == .document, let broken = partitionProblem(bytes, configuration: ReaderConfiguration(inputName: "fuzz", limits: limits),
                                                              whole: plain, chunk: chunk) {
            return broken
        }

        var answers = ArbitraryAnswers(seed: data.count)
        let filtered = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "fuzz", limits: limits, offersRecords: true),
                                           format: format, chunkSize: chunk, offers: { answers.takes($0) })
        guard filtered.failure == nil else { return "the filtered read failed where the plain one did not, for \(format.rawValue)" }
        var kept = filtered.events.makeIterator()
        var next = kept.next()
        for event in plain.events where event == next { next = kept.next() }
        if next != nil { return "the filtered read emitted an event the plain one did not, for \(format.rawValue)" }
        if filtered.diagnostics != plain.diagnostics { return "the filtered read's diagnostics differ, for \(format.rawValue)" }
        let refused = filtered.statistics
        if refused.lines != statistics.lines || refused.eventLines != statistics.eventLines || refused.events != statistics.events
            || refused.eventsSkipped != statistics.eventsSkipped + plain.events.count - filtered.events.count {
            return "the filtered read's accounting differs, for \(format.rawValue): \(refused) against \(statistics)"
        }
        return nil
    }

    /// A document cut into parts (`DocumentPartition`, fed in chunks of `chunk`), each part read as a document from its
    /// cut: the parts' events, dyld statistics and fragments are the whole's, and their lines too.
    static func partitionProblem(_ bytes: [UInt8], configuration: ReaderConfiguration, whole: ReaderVerifier.Outcome, chunk: Int) -> String? {
        // Cut as `PastedDocument` cuts it: its lone carriage returns made line ends first, a byte for a byte.
        var partition = DocumentPartition(maximumLineLength: configuration.limits.maximumLineLength)
        var lineEndings = LineEndings()
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            bytes[offset..<end].withUnsafeBytes { lineEndings.normalize($0) { partition.read($0) } }
            offset = end
        }
        lineEndings.finish { partition.read($0) }
        let parts = partition.finish()
        guard !parts.isEmpty else { return nil }
        var events: [LogEvent] = [], preMain: [PreMainStatistics] = [], fragments: [LogFragment] = [], lines = 0
        for part in parts {
            var partConfiguration = configuration
            partConfiguration.start = part.start
            partConfiguration.isDocumentPart = true
            let read = ReaderVerifier.read(Array(bytes[part.start.byteOffset..<(part.end ?? bytes.count)]), configuration: partConfiguration,
                                           format: .document, chunkSize: chunk)
            events += read.events
            preMain += read.preMainStatistics
            fragments += read.fragments
            lines += read.statistics.lines
        }
        if events != whole.events { return "a document's parts read from their cuts give other events than the whole (\(parts.count) parts)" }
        if fragments != whole.fragments { return "a document's parts read from their cuts give other fragments than the whole (\(parts.count) parts)" }
        if preMain != whole.preMainStatistics {
            return "a document's parts read from their cuts give other dyld statistics than the whole (\(parts.count) parts)"
        }
        if lines != whole.statistics.lines { return "a document's parts read from their cuts count \(lines) lines, the whole \(whole.statistics.lines)" }
        return nil
    }

    /// Byte 0 picks the chunk size (1…256); the rest is a crash report: `.ips` JSON (a crash, jetsam or watchdog report)
    /// when it starts with `{`, else the text of a crash report. Checks what every report reader must hold
    /// (`reportInvariants`).
    public static func crashReport(_ data: UnsafeRawBufferPointer) -> String? {
        guard data.count >= 1 else { return nil }
        let bytes = Array(data[1...])
        return reportInvariants(bytes, format: bytes.first == UInt8(ascii: "{") ? .crashReport : .crashReportText, chunk: Int(data[0]) + 1)
    }

    /// Byte 0 picks the chunk size; the rest is MetricKit JSON. Checks what every report reader must hold
    /// (`reportInvariants`), and that its launch histograms, collected whole and in chunks, are the same and
    /// summarize without a trap into counts that are not negative and medians that are numbers.
    public static func metricKit(_ data: UnsafeRawBufferPointer) -> String? {
        guard data.count >= 1 else { return nil }
        let bytes = Array(data[1...])
        let chunk = Int(data[0]) + 1
        if let broken = reportInvariants(bytes, format: .metricKit, chunk: chunk) { return broken }
        var whole = MetricKitLaunchCollector()
        bytes.withUnsafeBytes { whole.feed($0) }
        var chunked = MetricKitLaunchCollector()
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            bytes[start..<end].withUnsafeBytes { chunked.feed($0) }
            start = end
        }
        let metrics = whole.finish()
        let chunkedMetrics = chunked.finish()
        if metrics.metrics != chunkedMetrics.metrics || metrics.isWhole != chunkedMetrics.isWhole {
            return "MetricKit launch histograms read in chunks of \(chunk) differ from those read whole"
        }
        for summary in MetricKitLaunchSummary.summaries(metrics.metrics) {
            for (metric, measure) in summary.measures where measure.launches < 0 || !measure.median.isFinite || !measure.p90.isFinite {
                return "MetricKit summary of \(metric): \(measure.launches) launches, median \(measure.median), p90 \(measure.p90)"
            }
        }
        return nil
    }

    /// Byte 0 picks the chunk size; the rest is a tar archive (a sysdiagnose), its entries read by their own readers
    /// (nested archives three deep at most). Checks what every report reader must hold (`reportInvariants`).
    public static func tarArchive(_ data: UnsafeRawBufferPointer) -> String? {
        guard data.count >= 1 else { return nil }
        return reportInvariants(Array(data[1...]), format: .tarArchive, chunk: Int(data[0]) + 1)
    }

    /// Byte 0 picks the chunk size; the rest is a tracev3 stream (the unified log's file). Read whole and in chunks of
    /// that size, the outline (header, catalogs, chunksets, counts) and the error that ended it are the same; every
    /// error's text is one line with no control character. Each log entry's arguments are read and rendered; the same
    /// bytes are read as a timesync, a uuidtext and a shared-cache strings file.
    public static func traceV3(_ data: UnsafeRawBufferPointer) -> String? {
        guard data.count >= 1 else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: data[1...])
        let chunk = Int(data[0]) + 1
        // Each log entry's arguments read and rendered (an error is fine; a trap is not).
        func entries(_ firehose: TraceFileOutline.Firehose) {
            for tracepoint in firehose.chunk.tracepoints where tracepoint.kind == .nonActivity {
                firehose.payload.withUnsafeBytes { payload in
                    let data = UnsafeRawBufferPointer(rebasing: payload[tracepoint.data])
                    if let entry = try? FirehoseLogEntry(data: data, flags: tracepoint.flags) {
                        _ = UnifiedLogFormatter.render("%s %d %{public}@ %08llX %.*s %10.2f %{uuid_t}.16P %{errno}d %{time_t}d %", entry.arguments)
                    }
                }
            }
        }
        func outline(_ cuts: Int) -> (String, UnifiedLogError?) {
            var outline = TraceFileOutline()
            var start = 0
            do throws(UnifiedLogError) {
                while start < bytes.count {
                    let end = min(bytes.count, start + cuts)
                    try outline.push(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), firehose: cuts == chunk ? { _ in } : entries)
                    start = end
                }
                try outline.finish()
            } catch {
                return ("\(outline.header.debugDescription) \(outline.catalogs) \(outline.chunksets) \(outline.decodedBytes) \(outline.chunksByTag.sorted { $0.key < $1.key }) \(outline.tracepoints)", error)
            }
            return ("\(outline.header.debugDescription) \(outline.catalogs) \(outline.chunksets) \(outline.decodedBytes) \(outline.chunksByTag.sorted { $0.key < $1.key }) \(outline.tracepoints)", nil)
        }
        // The same bytes as an LZBITMAP stream: never more than the size asked, never a trap.
        var decoded: [UInt8] = []
        if (try? LZBitmapDecoder.decode(bytes, maximumSize: 1 << 20, into: &decoded)) != nil, decoded.count > 1 << 20 {
            return "an LZBITMAP stream decoded to \(decoded.count) bytes, past the 1 MiB asked"
        }
        // The same bytes as the archive's other files: each either reads or ends in an error, never traps.
        for error in [Result { () throws(UnifiedLogError) in _ = try TimesyncDatabase(bytes: Array(bytes)) },
                      Result { () throws(UnifiedLogError) in _ = try UUIDTextFile(bytes: Array(bytes)).string(at: UInt32(bytes.count)) },
                      Result { () throws(UnifiedLogError) in
                          let strings = try SharedCacheStrings(file: Array(bytes))
                          for range in strings.ranges.prefix(64) { _ = strings.string(at: range.start + UInt64(range.size / 2)) }
                      }] {
            if case .failure(let error) = error, error.description.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                return "an error holds a line break or control character: \(error.description.debugDescription)"
            }
        }
        let whole = outline(max(bytes.count, 1))
        let chunked = outline(chunk)
        if whole.0 != chunked.0 || whole.1 != chunked.1 { return "tracev3 read in chunks of \(chunk) bytes differs from the whole read" }
        if let error = whole.1, error.description.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "an error holds a line break or control character: \(error.description.debugDescription)"
        }
        return nil
    }

    /// What every report reader must hold, whatever the bytes: read whole and in chunks of `chunk` bytes, the same
    /// events, diagnostics and counts; every line accounted for; every diagnostic on one line with no control character
    /// (it is printed to a terminal and to GitHub's log); every app the classifier names from the events a bundle id.
    static func reportInvariants(_ bytes: [UInt8], format: LogFormat, chunk: Int) -> String? {
        var limits = ReaderLimits()
        limits.maximumLineLength = 4096
        limits.maximumMessageLength = 8192
        limits.maximumRecordLength = 8192
        let configuration = ReaderConfiguration(inputName: "fuzz", limits: limits)
        let whole = ReaderVerifier.read(bytes, configuration: configuration, format: format)
        let chunked = ReaderVerifier.read(bytes, configuration: configuration, format: format, chunkSize: chunk)
        if whole != chunked { return "\(format.rawValue) read in chunks of \(chunk) bytes differs from the whole read" }
        if whole.failure == nil, let broken = accountingProblem(whole, format: format) { return broken }
        for diagnostic in whole.diagnostics {
            let text = diagnostic.description
            if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) }) {
                return "a diagnostic holds a line break or control character: \(text.debugDescription)"
            }
        }
        var classifier = EventClassifier()
        for event in whole.events {
            if let bundleID = classifier.classify(event).subject?.bundleID, !AppIdentityParser.isBundleIdentifier(bundleID) {
                return "\(bundleID.debugDescription) taken for a bundle id from \(format.rawValue)"
            }
        }
        return nil
    }

    /// What breaks a read's accounting, if anything: every line an event's, skipped or diagnosed; every event counted
    /// emitted or skipped.
    static func accountingProblem(_ outcome: ReaderVerifier.Outcome, format: LogFormat) -> String? {
        let statistics = outcome.statistics
        let accounted = statistics.eventLines + statistics.skipped.values.reduce(0, +) + statistics.diagnosedLines
        if statistics.lines != accounted { return "line accounting broken for \(format.rawValue): \(statistics)" }
        if statistics.events != outcome.events.count { return "\(statistics.events) events counted, \(outcome.events.count) emitted, for \(format.rawValue)" }
        return nil
    }

    /// A caller answering each offered record from the text it is shown and how often it was asked: any answer is
    /// allowed to a reader, which may only leave events out for it.
    struct ArbitraryAnswers {
        private var state: Int
        init(seed: Int) { state = seed }
        mutating func takes(_ offer: RecordOffer) -> Bool {
            state = state &* 1_103_515_245 &+ 12_345 &+ offer.message.count
            return (state >> 16) & 3 == 0
        }
    }

    /// The bytes as a file (sniffed: gzip, XML, JSON, every text format), through the whole lint run
    /// and every report format. Invariant: every finding has evidence; reports render.
    public static func sniffedInput(_ data: UnsafeRawBufferPointer) -> String? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-fuzz-\(ProcessInfo.processInfo.processIdentifier).log").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(data))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var inference = TimeInference()
        inference.date = CivilDateTime(year: 2024, month: 3, day: 18)
        let report = LintRun(options: ReadOptions(timeInference: inference), toolVersion: "fuzz")
            .run([DiscoveredInput(input: .file(path), foundInDirectory: false)])
        if let finding = report.findings.first(where: { $0.evidence.isEmpty }) { return "a finding without evidence: \(finding.ruleID)" }
        let rules = RuleRegistry.builtIn.rules.map(\.description)
        _ = report.render()
        _ = SARIFReporter(rules: rules).render(report)
        _ = MarkdownReporter().render(report)
        _ = FindingTextReporter().render(report)
        _ = JUnitReporter().render(report)
        _ = Redactor().redact(report)
        return nil
    }

    /// Every 4 bytes are one classified event — meaning, app (of 4), pid, time step (may go backwards) —
    /// fed to the session builder, then the rules. Invariants: every session has an app, milestones in
    /// time order, every finding quotes evidence.
    public static func sessions(_ data: UnsafeRawBufferPointer) -> String? {
        let meanings = EventMeaning.allCases
        let apps = ["com.example.ledger", "com.example.notes", "com.acme.chat", "com.acme.maps"]
        let signatures = SignatureTable.builtIn.signatures
        var builder = LaunchSessionBuilder()
        var sessions: [LaunchSession] = []
        var time: Int64 = 1_710_772_862_000_000
        var index = 0
        while index + 4 <= data.count {
            let meaning = meanings[Int(data[index]) % meanings.count]
            let app = apps[Int(data[index + 1]) % apps.count]
            let pid = 1000 + Int(data[index + 1] >> 4)
            time += (Int64(data[index + 2]) - 64) * 37_000_000 + Int64(data[index + 3])
            let candidates = signatures.filter { $0.meaning == meaning }
            let signature = candidates.isEmpty ? nil : candidates[Int(data[index + 3]) % candidates.count]
            let event = LogEvent(timestamp: LogTimestamp(microsecondsSinceEpoch: time, utcOffsetSeconds: -25_200, text: "fuzz"),
                                 process: signature?.roles.contains(.app) == true ? "App" : "runningboardd",
                                 message: signature?.example ?? "fuzz", origin: EventOrigin(input: "fuzz", line: index / 4 + 1, byteOffset: index))
            let classified = ClassifiedEvent(event: event, role: signature?.roles.first ?? .other, meaning: meaning, signatureID: signature?.id,
                                             subject: AppIdentity(bundleID: app, pid: data[index + 3] & 1 == 0 ? pid : nil),
                                             detail: data[index + 2] & 1 == 0 ? "detail" : nil)
            sessions += builder.consume(classified)
            index += 4
        }
        sessions += builder.finish()
        // Each line is kept by one session at most: lines held for the next line about their app go to one process.
        var kept = Set<Int>()
        for session in sessions {
            for event in session.events where !kept.insert(event.origin.byteOffset).inserted {
                return "line \(event.origin.line) kept by two sessions"
            }
        }
        if builder.keptBytes != 0 { return "kept bytes left counted after finish: \(builder.keptBytes)" }
        for session in sessions {
            if session.app.bundleID == nil && session.app.processName == nil { return "a session without an app" }
            for (a, b) in zip(session.milestones, session.milestones.dropFirst()) where a.time.microsecondsSinceEpoch > b.time.microsecondsSinceEpoch {
                return "milestones out of time order in \(session.app)"
            }
        }
        let findings = Linter().findings(in: sessions, ids: LintReport.sessionIDs(sessions))
        if let finding = findings.first(where: { $0.evidence.isEmpty }) { return "a finding without evidence: \(finding.ruleID)" }
        return nil
    }
}
