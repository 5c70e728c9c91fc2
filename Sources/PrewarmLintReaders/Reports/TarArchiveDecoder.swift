import PrewarmLintModel

/// Reads a tar archive — a sysdiagnose (`sysdiagnose_….tar.gz`, gzip undone before) — as a stream, and the
/// crash and jetsam reports inside it.
///
/// A state machine over 512-byte blocks: a header (ustar, GNU long names, pax `path`/`size` records), then the
/// entry's data, then padding to the next block; two zero blocks end the archive. Each `.ips` entry (in a
/// sysdiagnose, `crashes_and_spins/**`) is read by its own ``LogStreamReader`` as the entry streams past,
/// named `archive:path/in/archive`; its events are kept (a report is a handful) and emitted at the end in time
/// order. A text file (`*.log`, `*.log.N`, `*.txt`, `*.ndjson`, `*.jsonl` outside the logarchive) is sniffed like any
/// input: one in a format prewarm-lint reads is read the same way, every line kept (the launch filter follows a
/// classifier that sees these events only at the end), the others counted in the summary. `SystemVersion.plist`
/// gives the OS build, said in a note; the unified log (`system_logs.logarchive`) is
/// binary and needs Apple's `log` or mandiant's `unifiedlog_iterator` to export first — said in a note with the
/// command. Everything else is passed over unstored, whatever its declared size: an entry's name is only ever a
/// label (nothing is written to disk, so `../` names are harmless), and a size beyond the input's end is a cut archive.
struct TarArchiveDecoder: LogDecoder {
    let format = LogFormat.tarArchive
    private(set) var statistics = DecoderStatistics()
    private let configuration: ReaderConfiguration

    static let blockSize = 512
    /// The most bytes of one report read; a larger `.ips` is passed over with a note.
    static let maximumReportSize = 64 << 20
    /// The most events kept from the archive's reports.
    static let maximumEvents = 100_000

    private enum Stage {
        /// Collecting a 512-byte header.
        case header
        /// In an entry's data: `remaining` bytes, then `padding`.
        case data(remaining: Int, padding: Int)
        /// After the two zero blocks (or a malformed header): the rest is passed over.
        case end
    }

    private var stage = Stage.header
    private var block: [UInt8] = []
    private var zeroBlocks = 0
    private var offset = 0
    /// What the current entry's data is for.
    private enum Sink {
        case skip, report(LogStreamReader, name: String), textLog(LogStreamReader, name: String), longName, pax, systemVersion
        /// A `*.logarchive/` file, handed to the configuration's ``ArchiveEntryExtractor``.
        case extract(any ArchiveEntryExtractor)
    }
    private var sink = Sink.skip
    private var metadata: [UInt8] = []
    private var nextName: String?
    private var nextSize: Int?

    private var events: [LogEvent] = []
    private var eventsDropped = 0
    private var diagnostics: [ReaderDiagnostic] = []
    private var preMainStatistics: [PreMainStatistics] = []
    private var fragments: [LogFragment] = []
    private var reports = 0
    private var textLogs = 0
    private var textFilesNotLogs = 0
    private var unreadTextLogs = PassedEntries()
    private var unreadReports = PassedEntries()
    private var oversizedReports = PassedEntries()
    private var nestedTooDeep = PassedEntries()
    private var logArchive = false
    private var osVersion: String?
    private var sysdiagnoseName: String?
    private var entries = 0
    private var problem: String?

    init(configuration: ReaderConfiguration) {
        self.configuration = configuration
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) {
        var index = 0
        while index < bytes.count {
            switch stage {
            case .end:
                offset += bytes.count - index
                return
            case .header:
                let take = min(Self.blockSize - block.count, bytes.count - index)
                block.append(contentsOf: bytes[index..<index + take])
                index += take
                offset += take
                if block.count == Self.blockSize {
                    header(block)
                    block.removeAll(keepingCapacity: true)
                }
            case .data(let remaining, let padding):
                if remaining > 0 {
                    let take = min(remaining, bytes.count - index)
                    consume(UnsafeRawBufferPointer(rebasing: bytes[index..<index + take]))
                    index += take
                    offset += take
                    stage = .data(remaining: remaining - take, padding: padding)
                    if remaining - take == 0 { endEntry() }
                } else {
                    let take = min(padding, bytes.count - index)
                    index += take
                    offset += take
                    stage = padding - take == 0 ? .header : .data(remaining: 0, padding: padding - take)
                }
            }
        }
    }

    /// Reads one header block.
    private mutating func header(_ block: [UInt8]) {
        if block.allSatisfy({ $0 == 0 }) {
            zeroBlocks += 1
            if zeroBlocks == 2 { stage = .end }
            return
        }
        zeroBlocks = 0
        guard Self.checksumMatches(block) else {
            problem = "a tar header at byte \(offset - Self.blockSize) is damaged (its checksum does not match): the rest of the archive is not read"
            stage = .end
            return
        }
        let type = block[156]
        let size = nextSize ?? Self.number(block[124..<136])
        guard let size, size >= 0 else {
            problem = "a tar header at byte \(offset - Self.blockSize) has no readable size: the rest of the archive is not read"
            stage = .end
            return
        }
        // An entry's name is a label people see: its control characters shown, never kept (``DisplayText/name(_:)``).
        var name = DisplayText.name(nextName ?? Self.name(block))
        nextName = nil
        nextSize = nil
        switch type {
        case UInt8(ascii: "L"):
            sink = size <= 4096 ? .longName : .skip
        case UInt8(ascii: "x"):
            sink = size <= 1 << 20 ? .pax : .skip
        case UInt8(ascii: "0"), 0:
            entries += 1
            if name.hasPrefix("./") { name.removeFirst(2) }
            // A sysdiagnose's folder names it (`sysdiagnose_2024.03.18_09-30-00-0700_iPhone-OS_iPhone_21E219`).
            if sysdiagnoseName == nil, name.hasPrefix("sysdiagnose_"), let slash = name.firstIndex(of: "/"), name.distance(from: name.startIndex, to: slash) <= 256 {
                sysdiagnoseName = String(name[..<slash])
            }
            if name.hasSuffix(".ips") {
                if size > Self.maximumReportSize {
                    oversizedReports.add(name)
                    sink = .skip
                } else {
                    var entryConfiguration = configuration
                    entryConfiguration.inputName = configuration.inputName + ":" + name
                    entryConfiguration.archiveDepth += 1
                    entryConfiguration.start = .beginning  // (placed once, by the archive's own reader)
                    sink = .report(LogStreamReader(configuration: entryConfiguration), name: name)
                }
            } else if name.hasSuffix("SystemVersion.plist"), size <= 64 << 10 {
                sink = .systemVersion
            } else if Self.isTextLog(name), size > 0 {
                var entryConfiguration = configuration
                entryConfiguration.inputName = configuration.inputName + ":" + name
                entryConfiguration.archiveDepth += 1
                entryConfiguration.start = .beginning  // (placed once, by the archive's own reader)
                entryConfiguration.offersRecords = false
                entryConfiguration.prescan = nil  // (judged at the archive's offsets, not the entry's)
                sink = .textLog(LogStreamReader(configuration: entryConfiguration), name: name)
            } else if name.contains(".logarchive/") {
                logArchive = true
                if let extractor = configuration.archiveEntryExtractor, extractor.begin(path: name, size: size) {
                    sink = .extract(extractor)
                } else {
                    sink = .skip
                }
            } else {
                sink = .skip
            }
        default:
            if name.contains(".logarchive") { logArchive = true }
            sink = .skip
        }
        metadata.removeAll(keepingCapacity: true)
        let padding = (Self.blockSize - size % Self.blockSize) % Self.blockSize
        stage = .data(remaining: size, padding: padding)
        if size == 0 { endEntry() }
    }

    private mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        switch sink {
        case .skip: break
        case .longName, .pax, .systemVersion: metadata.append(contentsOf: bytes)
        case .report(var reader, let name):
            var failed = false
            do throws(ReaderError) {
                try reader.read(bytes) { collect($0) }
            } catch {
                failed = true
                entryFailed(error, name: name, in: \.unreadReports)
            }
            sink = failed ? .skip : .report(reader, name: name)
        case .extract(let extractor):
            extractor.write(bytes)
        case .textLog(var reader, let name):
            do throws(ReaderError) {
                try reader.read(bytes) { collect($0) }
                sink = .textLog(reader, name: name)
            } catch {
                textLogFailed(error, name: name)
                sink = .skip
            }
        }
    }

    private mutating func endEntry() {
        switch sink {
        case .skip: break
        case .longName:
            nextName = String(decoding: metadata.prefix { $0 != 0 }, as: UTF8.self)
        case .pax:
            // `path` and `size` apply to the next entry.
            for (key, value) in Self.paxRecords(metadata) {
                if key.elementsEqual("path".utf8) { nextName = String(decoding: value, as: UTF8.self) }
                if key.elementsEqual("size".utf8), let size = Int(String(decoding: value, as: UTF8.self)), size >= 0 { nextSize = size }
            }
        case .systemVersion:
            osVersion = Self.systemVersion(metadata)
        case .report(var reader, let name):
            do throws(ReaderError) {
                try reader.finish { collect($0) }
                reports += 1
            } catch {
                entryFailed(error, name: name, in: \.unreadReports)
            }
            statistics.add(reader.statistics)
        case .extract(let extractor):
            extractor.end()
        case .textLog(var reader, let name):
            do throws(ReaderError) {
                try reader.finish { collect($0) }
                textLogs += 1
                statistics.add(reader.statistics)
            } catch {
                textLogFailed(error, name: name)
            }
        }
        sink = .skip
        metadata.removeAll(keepingCapacity: true)
    }

    /// A text file that is not a log (most of a sysdiagnose's are tables: `ps.txt`, `taskinfo.txt`) is counted;
    /// one that is a log but could not be read is named.
    private mutating func textLogFailed(_ error: ReaderError, name: String) {
        if error.code == .unrecognizedFormat { textFilesNotLogs += 1 } else { entryFailed(error, name: name, in: \.unreadTextLogs) }
    }

    /// An entry that could not be read: an archive nested too deep is named as such, others in `list`.
    private mutating func entryFailed(_ error: ReaderError, name: String, in list: WritableKeyPath<Self, PassedEntries>) {
        if error.code == .nestedTooDeep { nestedTooDeep.add(name) } else { self[keyPath: list].add(name) }
    }

    /// Whether an entry is a text file worth sniffing: not inside the logarchive (binary), named like a log.
    static func isTextLog(_ name: String) -> Bool {
        guard !name.contains(".logarchive/") else { return false }
        let last = name.split(separator: "/").last.map(String.init) ?? name
        for suffix in [".log", ".txt", ".ndjson", ".jsonl"] where last.hasSuffix(suffix) { return true }
        // Rotated logs: `mobile_installation.log.0`, `system.log.1`.
        if let dot = last.lastIndex(of: "."), last[last.index(after: dot)...].allSatisfy(\.isNumber), last[..<dot].hasSuffix(".log") { return true }
        return false
    }

    private mutating func collect(_ output: ReaderOutput) {
        switch output {
        case .event(let event):
            if events.count < Self.maximumEvents { events.append(event) } else { eventsDropped += 1 }
        case .diagnostic(let diagnostic):
            if diagnostics.count < Self.maximumEvents { diagnostics.append(diagnostic) }
        case .preMainStatistics(let statistics):
            if preMainStatistics.count < Self.maximumEvents { preMainStatistics.append(statistics) }
        case .fragment(let fragment):
            if fragments.count < Self.maximumEvents { fragments.append(fragment) }
        case .partStart:
            break  // a member's parts are read with the archive's other members, in time order
        }
    }

    mutating func decodeLast(emit: (ReaderOutput) -> Void) {
        if case .data(let remaining, _) = stage, remaining > 0 {
            if case .report(_, let name) = sink { unreadReports.add(name) }
            if case .textLog(_, let name) = sink { unreadTextLogs.add(name) }
            problem = problem ?? "the archive ends inside an entry (\(remaining) bytes short): it is cut"
        } else if case .header = stage, !block.isEmpty || zeroBlocks < 2, entries > 0 || !block.isEmpty {
            problem = problem ?? "the archive ends without its end-of-archive blocks: it may be cut"
        }
        let origin = EventOrigin(input: configuration.inputName, line: 1, byteOffset: 0)
        var notes: [ReaderDiagnostic] = []
        var summary = "a tar archive of \(entries) file\(entries == 1 ? "" : "s"): \(reports) crash or jetsam report\(reports == 1 ? "" : "s") read"
        if textLogs > 0 { summary += ", \(textLogs) text log\(textLogs == 1 ? "" : "s")" }
        if let osVersion { summary += " (\(osVersion))" }
        if osVersion != nil || sysdiagnoseName != nil {
            let system = osVersion.flatMap(DeviceIdentity.systemParts)
            statistics.note(DeviceIdentity(system: system?.system, version: system?.version, build: system?.build, source: .sysdiagnose,
                                           reference: sysdiagnoseName))
        }
        if textFilesNotLogs > 0 { summary += "; \(textFilesNotLogs) other text file\(textFilesNotLogs == 1 ? " is" : "s are") not a log format it reads" }
        notes.append(ReaderDiagnostic(code: .archiveContents, severity: .note, message: summary, origin: origin, lineCount: 0))
        if logArchive, configuration.archiveEntryExtractor == nil {
            notes.append(ReaderDiagnostic(code: .archiveContents, severity: .note,
                                          message: "its unified log (system_logs.logarchive) is binary: export it first — on macOS `log show --archive system_logs.logarchive --style ndjson > log.ndjson`, on Linux `unifiedlog_iterator --mode log-archive --input system_logs.logarchive --format jsonl > log.jsonl` — and lint that with the archive",
                                          origin: origin, lineCount: 0))
        }
        if let first = unreadReports.first {
            notes.append(ReaderDiagnostic(code: .unreadReport, severity: .warning,
                                          message: "\(unreadReports.count) .ips entr\(unreadReports.count == 1 ? "y is" : "ies are") not a report prewarm-lint reads (first: \(first))",
                                          origin: origin, lineCount: 0))
        }
        if let first = unreadTextLogs.first {
            notes.append(ReaderDiagnostic(code: .unreadReport, severity: .warning,
                                          message: "\(unreadTextLogs.count) text log\(unreadTextLogs.count == 1 ? "" : "s") could not be read whole (first: \(first))",
                                          origin: origin, lineCount: 0))
        }
        if let first = oversizedReports.first {
            notes.append(ReaderDiagnostic(code: .unreadReport, severity: .warning,
                                          message: "\(oversizedReports.count) .ips entr\(oversizedReports.count == 1 ? "y is" : "ies are") over \(Self.maximumReportSize >> 20) MiB: not read (first: \(first))",
                                          origin: origin, lineCount: 0))
        }
        if let first = nestedTooDeep.first {
            let depth = configuration.limits.maximumArchiveNesting
            notes.append(ReaderDiagnostic(code: .unreadReport, severity: .warning,
                                          message: "\(nestedTooDeep.count) entr\(nestedTooDeep.count == 1 ? "y is an archive" : "ies are archives") nested more than \(depth) deep: not read (first: \(first))",
                                          origin: origin, lineCount: 0))
        }
        if eventsDropped > 0 {
            notes.append(ReaderDiagnostic(code: .invalidRecord, severity: .warning,
                                          message: "more than \(Self.maximumEvents) events in the archive's reports and text logs: \(eventsDropped) not read", origin: origin, lineCount: 0))
        }
        if let problem {
            notes.append(ReaderDiagnostic(code: .truncatedInput, severity: .warning, message: problem, origin: origin, lineCount: 0))
        }
        for note in notes {
            statistics.count(note)
            emit(.diagnostic(note))
        }
        statistics.events -= eventsDropped
        statistics.eventsSkipped += eventsDropped
        for diagnostic in diagnostics { emit(.diagnostic(diagnostic)) }
        for statistics in preMainStatistics { emit(.preMainStatistics(statistics)) }
        for fragment in fragments { emit(.fragment(fragment)) }
        // The reports' events in time order (the archive's order is its file names'); ties keep that order.
        for (_, event) in events.enumerated().sorted(by: { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }) {
            emit(.event(event))
        }
    }

    // MARK: Header fields

    /// A pax extended header's records, `LEN key=value\n` each, read by their length (LEN counts the whole record,
    /// its own digits and the newline): a value may hold newlines. Reading stops at the first record whose length
    /// does not fit or that does not end in a newline.
    static func paxRecords(_ data: [UInt8]) -> [(key: ArraySlice<UInt8>, value: ArraySlice<UInt8>)] {
        var records: [(key: ArraySlice<UInt8>, value: ArraySlice<UInt8>)] = []
        var start = 0
        while start < data.count {
            var length = 0, index = start
            while index < data.count, index - start < 8, data[index] >= UInt8(ascii: "0"), data[index] <= UInt8(ascii: "9") {
                length = length * 10 + Int(data[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > start, index < data.count, data[index] == UInt8(ascii: " "), length > index - start + 1,
                  length <= data.count - start, data[start + length - 1] == UInt8(ascii: "\n") else { break }
            let body = data[(index + 1)..<(start + length - 1)]
            if let equals = body.firstIndex(of: UInt8(ascii: "=")) {
                records.append((body[..<equals], body[(equals + 1)...]))
            }
            start += length
        }
        return records
    }

    /// ustar's `prefix/name`, or the name alone.
    private static func name(_ block: [UInt8]) -> String {
        let name = String(decoding: block[0..<100].prefix { $0 != 0 }, as: UTF8.self)
        let isUstar = block[257..<262].elementsEqual("ustar".utf8)
        let prefix = isUstar ? String(decoding: block[345..<500].prefix { $0 != 0 }, as: UTF8.self) : ""
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    /// An octal field (NUL or space terminated), or GNU's base-256 form; nil when neither.
    static func number(_ field: ArraySlice<UInt8>) -> Int? {
        if let first = field.first, first & 0x80 != 0 {
            // Base-256: big-endian, the top bit of the first byte a flag; sizes over 2^62 are refused.
            var value = Int(first & 0x7F)
            for byte in field.dropFirst() {
                guard value < (1 << 54) else { return nil }
                value = value << 8 | Int(byte)
            }
            return value
        }
        var value = 0
        var digits = 0
        for byte in field {
            if byte == 0 || byte == UInt8(ascii: " ") {
                if digits > 0 { break } else { continue }
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "7"), digits < 21 else { return nil }
            value = value * 8 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The header's checksum: the sum of its bytes with the checksum field read as spaces.
    static func checksumMatches(_ block: [UInt8]) -> Bool {
        guard let stored = number(block[148..<156]) else { return false }
        var unsigned = 0
        for (index, byte) in block.enumerated() { unsigned += (148..<156).contains(index) ? 32 : Int(byte) }
        return stored == unsigned
    }

    /// `iPhone OS 17.4 (21E219)` from a `SystemVersion.plist` (XML): ProductName, ProductVersion, ProductBuildVersion.
    static func systemVersion(_ plist: [UInt8]) -> String? {
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard needle.count <= plist.count else { return nil }
            var index = start
            while index + needle.count <= plist.count {
                if plist[index] == needle[0], plist[index..<index + needle.count].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
        func value(_ key: String) -> String? {
            let keyTag = Array("<key>\(key)</key>".utf8)
            guard let at = find(keyTag, from: 0), let open = find(Array("<string>".utf8), from: at + keyTag.count),
                  let close = find(Array("</string>".utf8), from: open + 8) else { return nil }
            return String(decoding: plist[(open + 8)..<close], as: UTF8.self)
        }
        guard let version = value("ProductVersion") else { return nil }
        let name = value("ProductName") ?? "OS"
        return value("ProductBuildVersion").map { "\(name) \(version) (\($0))" } ?? "\(name) \(version)"
    }
}

/// Entries passed over for one reason: how many, and the first one's name (cut to 256 characters). The others are
/// only counted, so that an archive of a million long names costs no more than one of a single name.
struct PassedEntries {
    private(set) var count = 0
    private(set) var first: String?
    static let maximumNameLength = 256

    mutating func add(_ name: String) {
        count += 1
        guard first == nil else { return }
        first = name.utf8.count <= Self.maximumNameLength ? name : String(decoding: name.utf8.prefix(Self.maximumNameLength), as: UTF8.self) + "…"
    }
}

extension DecoderStatistics {
    /// Adds the counts of another input's part (an archive's entry, an exported log) to these.
    public mutating func add(_ other: DecoderStatistics) {
        lines += other.lines
        events += other.events
        eventsSkipped += other.eventsSkipped
        eventLines += other.eventLines
        eventsUnworded += other.eventsUnworded
        for identity in other.deviceIdentities { note(identity) }
        for (reason, count) in other.skipped { skipped[reason, default: 0] += count }
        diagnosedLines += other.diagnosedLines
        for (severity, count) in other.diagnostics { diagnostics[severity, default: 0] += count }
    }
}
