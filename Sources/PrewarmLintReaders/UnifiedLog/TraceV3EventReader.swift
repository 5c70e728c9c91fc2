package import PrewarmLintModel

/// Where a unified-log reader finds the strings of an archive: its `uuidtext` files and shared caches, by UUID. The
/// input layer opens the files (a decoder never does) and keeps what it opened; nil when the archive does not have one.
package protocol UnifiedLogStrings: Sendable {
    func uuidText(_ uuid: UnifiedLogUUID) -> UUIDTextFile?
    func sharedCache(_ uuid: UnifiedLogUUID) -> SharedCacheStrings?
}

/// The processes whose entries a unified-log reader decompresses and reads.
package enum UnifiedLogProcessChoice: Sendable {
    /// Every process (`--all-processes`).
    case all
    /// The processes whose main image has one of these names, every app (an image inside a `.app` bundle) when
    /// `apps`, and every process whose image the archive cannot name (its uuidtext file missing): it cannot be ruled out.
    case named(Set<String>, apps: Bool)

    func wants(imagePath: String?) -> Bool {
        switch self {
        case .all:
            return true
        case .named(let names, let apps):
            guard let imagePath else { return true }
            if apps, imagePath.contains(".app/") { return true }
            return names.contains(String(imagePath.split(separator: "/").last ?? ""))
        }
    }
}

/// Reads one tracev3 file of an archive into `LogEvent`s, as the ndjson reader makes them from `log show`: the log
/// entries of the processes chosen, their format strings resolved from the archive's strings and rendered, their time
/// from the archive's timesync file, their subsystem and category from the catalog.
///
/// Only the chunksets whose catalog lists a chosen process are decompressed. An entry whose format string the archive
/// lacks (no `dsc/`, no uuidtext file) keeps its arguments: its message is `<unresolved format string> ` followed by
/// them, and it is counted by process in ``unresolvedByProcess``. A process whose image the archive cannot name is read
/// (it cannot be ruled out), with an empty process name, and counted as `image <UUID>`. The file's events are sorted by time and handed over
/// at ``finish(emit:)``: entries are stored by process, not by time, so the order is known only at the end of the file.
package struct TraceV3EventReader: Sendable {
    package let inputName: String
    private let strings: any UnifiedLogStrings
    private let timesync: TimesyncDatabase
    private var outline: TraceFileOutline
    private var events: [LogEvent] = []
    /// An oversize entry's key: its process and reference.
    private struct OversizeKey: Hashable {
        var first: UInt64
        var second: UInt32
        var reference: UInt32
    }
    /// The oversize chunks' arguments read so far (at most ``maximumOversizeEntries``), and the events kept whose
    /// values are in one: their place among `events` and their format string, rendered again at the file's end.
    private var oversizeArguments: [OversizeKey: [FirehoseLogEntry.Argument]] = [:]
    private var awaitingOversize: [(index: Int, format: String?, key: OversizeKey)] = []
    static let maximumOversizeEntries = 100_000
    /// Events whose values are in an oversize chunk this file does not hold (said by the decoder).
    package private(set) var oversizeMissing = 0
    /// The most events one file's reader holds until the file ends (a real Persist file of 10 MB holds well under
    /// 200,000 of every process); past it, entries are counted, not kept, and said (``eventsNotKept``).
    package let maximumEventsHeld: Int
    /// Entries read past ``maximumEventsHeld``.
    package private(set) var eventsNotKept = 0
    /// Entries read, and those whose format string the archive lacks, by process name.
    package private(set) var entriesRead = 0
    package private(set) var unresolvedByProcess: [String: Int] = [:]
    /// Entries that could not be read (their error, the first kept), counted.
    package private(set) var unreadEntries = 0
    package private(set) var firstUnreadEntry: UnifiedLogError?

    package init(inputName: String, strings: any UnifiedLogStrings, timesync: TimesyncDatabase, choice: UnifiedLogProcessChoice,
                 window: (@Sendable (_ first: LogTimestamp, _ last: LogTimestamp) -> Bool)? = nil, maximumEventsHeld: Int = 500_000) {
        self.maximumEventsHeld = maximumEventsHeld
        self.inputName = inputName
        self.strings = strings
        self.timesync = timesync
        // A chunkset's range as wall-clock times, through the same clock its entries' times are read with.
        var within: (@Sendable (TraceCatalog.Chunkset, TraceHeader?) -> Bool)?
        if let window {
            within = { @Sendable (chunkset: TraceCatalog.Chunkset, header: TraceHeader?) -> Bool in
                let first = Self.timestamp(chunkset.start, header: header, timesync: timesync)
                let last = Self.timestamp(chunkset.end, header: header, timesync: timesync)
                return window(first, last)
            }
        }
        outline = TraceFileOutline(decompressing: { catalog, chunkset in
            if case .all = choice { return true }
            return chunkset.processIndexes.contains { index in
                guard let process = catalog.process(index: index) else { return false }
                return choice.wants(imagePath: catalog.uuid(process.mainUUIDIndex).flatMap { strings.uuidText($0)?.imagePath })
            }
        }, within: within)
        self.choice = choice
    }

    private let choice: UnifiedLogProcessChoice

    /// The structure read so far (its header, catalogs, and what was skipped).
    package var structure: TraceFileOutline { outline }

    package mutating func push(_ bytes: UnsafeRawBufferPointer) throws(UnifiedLogError) {
        var read: [LogEvent] = []
        var entries = 0
        var unresolved: [String: Int] = [:]
        var unread = 0
        var firstUnread: UnifiedLogError?
        let (strings, timesync, choice, inputName) = (self.strings, self.timesync, self.choice, self.inputName)
        // An event's line is its entry's number among the entries read (1-based): the file has no lines.
        let entriesBefore = entriesRead + unreadEntries
        func simpleDump(_ dump: TraceFileOutline.SimpleDump) {
            // Its message is a string already: nothing to resolve.
            guard let process = dump.process else { return }
            let imagePath = dump.catalog.uuid(process.mainUUIDIndex).flatMap { strings.uuidText($0)?.imagePath }
            guard choice.wants(imagePath: imagePath) else { return }
            entries += 1
            read.append(LogEvent(
                timestamp: Self.timestamp(dump.entry.continuousTime, header: dump.header, timesync: timesync),
                process: imagePath.map { Self.displayName(ofImage: $0) } ?? "", pid: Int(process.pid),
                senderImage: (strings.uuidText(dump.entry.senderUUID)?.imagePath).map { Self.displayName(ofImage: $0) },
                subsystem: dump.entry.subsystem, category: nil, type: Self.messageType(dump.entry.logType), threadID: dump.entry.threadID,
                message: dump.entry.message, origin: EventOrigin(input: inputName, line: entriesBefore + unread + entries, byteOffset: 0)))
        }
        var oversizeRead: [(OversizeKey, [FirehoseLogEntry.Argument])] = []
        var awaiting: [(readIndex: Int, format: String?, key: OversizeKey)] = []
        // The entries read before a structure that cannot be read are kept: the error is thrown after them.
        var failure: UnifiedLogError?
        do throws(UnifiedLogError) { try outline.push(bytes, firehose: { firehose in
            guard let process = firehose.process else { return }
            let imagePath = firehose.catalog.uuid(process.mainUUIDIndex).flatMap { strings.uuidText($0)?.imagePath }
            guard choice.wants(imagePath: imagePath) else { return }
            let processName = imagePath.map { Self.displayName(ofImage: $0) } ?? ""
            // Unresolved entries are counted by process name, or by image when the archive cannot name it.
            let countedAs = imagePath == nil ? "image " + (firehose.catalog.uuid(process.mainUUIDIndex)?.description ?? "?") : processName
            for tracepoint in firehose.chunk.tracepoints where tracepoint.kind == .nonActivity {
                let entry: FirehoseLogEntry
                do throws(UnifiedLogError) {
                    entry = try firehose.payload.withUnifiedLogBytes { (payload: UnsafeRawBufferPointer) throws(UnifiedLogError) in
                        try FirehoseLogEntry(data: UnsafeRawBufferPointer(rebasing: payload[tracepoint.data]), flags: tracepoint.flags,
                                             at: tracepoint.data.lowerBound)
                    }
                } catch {
                    unread += 1
                    if firstUnread == nil { firstUnread = error }
                    continue
                }
                entries += 1
                let (format, sender) = Self.resolve(entry, tracepoint: tracepoint, process: process, catalog: firehose.catalog, mainImage: imagePath,
                                                    strings: strings)
                let message: String
                if let format {
                    message = UnifiedLogFormatter.render(format, entry.arguments)
                } else {
                    unresolved[countedAs, default: 0] += 1
                    message = "<unresolved format string> " + entry.arguments.map(UnifiedLogFormatter.argumentText).joined(separator: " ")
                }
                if let reference = entry.oversizeReference {
                    awaiting.append((read.count, format, OversizeKey(first: firehose.chunk.firstProcessID, second: firehose.chunk.secondProcessID,
                                                                     reference: reference)))
                }
                let continuous = firehose.chunk.baseContinuousTime &+ tracepoint.timeDelta
                let (subsystem, category) = firehose.catalog.subsystem(entry.subsystemID, of: process)
                read.append(LogEvent(
                    timestamp: Self.timestamp(continuous, header: firehose.header, timesync: timesync),
                    process: processName, pid: Int(process.pid), senderImage: sender.map { Self.displayName(ofImage: $0) },
                    subsystem: subsystem, category: category, type: Self.messageType(tracepoint.logType), threadID: tracepoint.threadID,
                    message: message, origin: EventOrigin(input: inputName, line: entriesBefore + unread + entries, byteOffset: tracepoint.offset)))
            }
        }, simpleDump: simpleDump, oversize: { entry in
            oversizeRead.append((OversizeKey(first: entry.firstProcessID, second: entry.secondProcessID, reference: entry.reference), entry.arguments))
        }) } catch { failure = error }
        for (key, arguments) in oversizeRead where oversizeArguments.count < Self.maximumOversizeEntries { oversizeArguments[key] = arguments }
        let room = max(0, maximumEventsHeld - events.count)
        for pending in awaiting where pending.readIndex < room {
            awaitingOversize.append((events.count + pending.readIndex, pending.format, pending.key))
        }
        events += read.prefix(room)
        eventsNotKept += max(0, read.count - room)
        entriesRead += entries
        unresolvedByProcess.merge(unresolved, uniquingKeysWith: +)
        unreadEntries += unread
        if firstUnreadEntry == nil { firstUnreadEntry = firstUnread }
        if let failure { throw failure }
    }

    /// The end of the file: its events, sorted by time (stable: entries of one instant in file order).
    package mutating func finish(emit: (LogEvent) -> Void) throws(UnifiedLogError) {
        // The entries whose values are in an oversize chunk, rendered with them (the chunk may come after the entry).
        for pending in awaitingOversize {
            if let arguments = oversizeArguments[pending.key] {
                events[pending.index].message = pending.format.map { UnifiedLogFormatter.render($0, arguments) }
                    ?? "<unresolved format string> " + arguments.map(UnifiedLogFormatter.argumentText).joined(separator: " ")
            } else {
                oversizeMissing += 1
            }
        }
        awaitingOversize = []
        oversizeArguments = [:]
        defer {
            let sorted = events.enumerated().sorted { ($0.element.timestamp.microsecondsSinceEpoch, $0.offset) < ($1.element.timestamp.microsecondsSinceEpoch, $1.offset) }
            events = []
            for (_, event) in sorted { emit(event) }
        }
        try outline.finish()
    }

    /// The format string of `entry` and the image it belongs to, or nil when the archive lacks it.
    private static func resolve(_ entry: FirehoseLogEntry, tracepoint: FirehoseTracepoint, process: TraceCatalog.Process, catalog: TraceCatalog,
                                mainImage: String?, strings: any UnifiedLogStrings) -> (String?, String?) {
        switch entry.formatSource {
        case .mainExecutable:
            return (catalog.uuid(process.mainUUIDIndex).flatMap { strings.uuidText($0)?.string(at: tracepoint.formatStringLocation) }, mainImage)
        case .uuidRelative(let uuid):
            let file = strings.uuidText(uuid)
            return (file?.string(at: tracepoint.formatStringLocation), file?.imagePath)
        case .sharedCache(let largeOffset, let largeSharedCache):
            guard let cacheUUID = catalog.uuid(process.sharedCacheUUIDIndex), let cache = strings.sharedCache(cacheUUID) else { return (nil, nil) }
            let high: UInt64
            if largeOffset == 0 {
                high = 0
            } else if (largeOffset == 1 || largeOffset == 2) && largeOffset > largeSharedCache {
                high = 0x8000_0000 * UInt64(largeOffset)
            } else if largeSharedCache != 0 {
                high = 0x1_0000_0000 * UInt64(largeSharedCache / 2)
            } else {
                high = 0x1_0000_0000 * UInt64(largeOffset)
            }
            let found = cache.string(at: high + UInt64(tracepoint.formatStringLocation))
            return (found?.format, found?.image?.path)
        case .absolute(let addressHigh):
            // The image loaded where the caller is; a location with its top bit set is a string passed as the format ("%s").
            let address = UInt64(addressHigh) << 32 | UInt64(entry.callerAddress)
            guard let image = process.images.first(where: { address >= $0.loadAddress && address - $0.loadAddress <= UInt64($0.size) }),
                  let uuid = catalog.uuid(image.uuidIndex), let file = strings.uuidText(uuid) else { return (nil, nil) }
            if tracepoint.formatStringLocation & 0x8000_0000 != 0 { return ("%s", file.imagePath) }
            return (file.string(at: tracepoint.formatStringLocation), file.imagePath)
        }
    }

    static func timestamp(_ continuous: UInt64, header: TraceHeader?, timesync: TimesyncDatabase) -> LogTimestamp {
        let offset = -Int(header?.minutesWest ?? 0) * 60
        // Without the boot's timesync records, the header's own moment is the sync point (the file's start).
        let nanoseconds = header?.bootUUID.flatMap { timesync.wallNanoseconds(continuousTime: continuous, boot: $0) }
            ?? header.flatMap { header in
                let start = Int64(clamping: header.wallSeconds).multipliedReportingOverflow(by: 1_000_000_000)
                let file = TimesyncDatabase(boots: [TimesyncDatabase.Boot(
                    uuid: header.bootUUID ?? UnifiedLogUUID(hex: String(repeating: "0", count: 32))!, timebaseNumerator: header.timebaseNumerator,
                    timebaseDenominator: header.timebaseDenominator, wallNanoseconds: 0, minutesWest: header.minutesWest,
                    syncs: [TimesyncDatabase.Sync(continuousTime: header.continuousTime,
                                                  wallNanoseconds: start.overflow ? .max : start.partialValue + Int64(header.wallNanoseconds),
                                                  minutesWest: header.minutesWest)])])
                return file.wallNanoseconds(continuousTime: max(continuous, header.continuousTime), boot: file.boots[0].uuid)
            }
        let microseconds = (nanoseconds ?? 0) / 1_000
        let text = CivilDateTime(microsecondsSinceEpoch: microseconds, utcOffsetSeconds: offset).iso8601(utcOffsetSeconds: offset)
        return LogTimestamp(microsecondsSinceEpoch: microseconds, utcOffsetSeconds: offset, text: text)
    }

    /// An image's name (its path's last part), a control character in it replaced: a uuidtext file is the archive's
    /// words, and a name is printed on one line.
    static func displayName(ofImage path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return String(name) }
        return String(String.UnicodeScalarView(name.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "\u{FFFD}" : $0 }))
    }

    static func messageType(_ logType: UInt8) -> MessageType {
        switch logType {
        case 0x00: .default
        case 0x01: .info
        case 0x02: .debug
        case 0x10: .error
        case 0x11: .fault
        default: .unknown
        }
    }
}

extension TraceCatalog {
    /// The UUID at `index` of the catalog's list, if there is one.
    func uuid(_ index: UInt16) -> UnifiedLogUUID? {
        Int(index) < uuids.count ? uuids[Int(index)] : nil
    }

    /// The subsystem and category of `identifier` in `process`'s list, from the catalog's strings.
    func subsystem(_ identifier: UInt16?, of process: Process) -> (String?, String?) {
        guard let identifier, let entry = process.subsystems.first(where: { $0.identifier == identifier }) else { return (nil, nil) }
        func text(at offset: UInt16) -> String? {
            guard Int(offset) < strings.count else { return nil }
            let tail = strings[Int(offset)...]
            let end = tail.firstIndex(of: 0) ?? strings.count
            let value = String(decoding: strings[Int(offset)..<end], as: UTF8.self)
            return value.isEmpty ? nil : value
        }
        return (text(at: entry.subsystemOffset), text(at: entry.categoryOffset))
    }
}
