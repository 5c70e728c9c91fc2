import HeapModule
import PrewarmLintModel
import PrewarmLintSessions
import PrewarmLintRules
import PrewarmLintReporters
import PrewarmLintSpool

/// The closed sessions of one group of inputs (one device's logs), each with its findings, handed back in listing
/// order (`SessionListing`: start, app, order closed) without all of them being in memory at once.
///
/// Each session is encoded as it arrives (`SpoolWriter`: a few hundred bytes, where the value took about a
/// kilobyte). Past ``runLength`` sessions, the encoded ones are sorted and written to a temporary file as a sorted
/// run; at the end the runs (and what is left in memory) are merged through a heap, each run read through a
/// buffer of its own. Memory is then ``runLength`` encoded sessions plus a buffer per run, whatever the number of
/// sessions: a million launches are ~120 runs of 32 KiB buffers.
///
/// A session that cannot be listed (``listingLimit`` sessions added before it start earlier) is not kept: only what
/// its id and findings need (its key, its app's name, its kind and evidence flag for the summary, its findings). In a
/// long log that is nearly every session past the limit, and encoding, sorting and reading back a session no report
/// lists would be work for nothing.
///
/// A file that cannot be made or written (a full disk) is not an error of the run: the sessions stay in memory
/// and ``failure`` says why, for a warning.
struct ClosedSessionSpool {
    /// Where a session goes in the listing (the one ordering of every report).
    typealias Key = SessionListing.Key

    /// Sessions encoded in memory before they are written out as a sorted run.
    let runLength: Int
    /// The encoded sessions not yet written out: each a session, then its findings.
    private var pending = SpoolWriter()
    /// Each pending session: its key, the name its id is made of, where its bytes are in ``pending`` and how many of
    /// them are the session's (the findings follow; none are the session's when it cannot be listed).
    private var pendingKeys: [Pending] = []
    struct Pending {
        var key: Key
        var name: String
        var id: String?
        var start: Int
        var count: Int
        var sessionCount: Int
        /// What the summary counts of a session that is not listed.
        var kind: LaunchSession.Kind
        var evidenceIncomplete: Bool
    }
    private var file: SpoolFile?
    private var runs: [(start: Int64, count: Int64)] = []
    /// Sessions added.
    private(set) var count = 0
    /// Why sessions could not be spooled to a file (and were kept in memory), if they could not.
    private(set) var failure: String?

    /// Where the temporary file goes (nil: `TMPDIR`, else `/tmp`).
    let directory: String?
    /// How many of the spool's first sessions in listing order a report may list (``listing(_:limit:sessionsInMemory:directory:pageLength:)``'s
    /// `limit`, or more); `.max`: every session is kept.
    let listingLimit: Int
    /// The starts of the ``listingLimit`` earliest-starting sessions added so far (a max-heap, so the latest of them is
    /// at hand). A session starting after all of them has at least that many sessions before it in the listing,
    /// whatever is added later: it cannot be listed.
    private var earliestStarts = Heap<Int64>()
    /// Sessions added that cannot be listed, kept as their key, name and findings only.
    private(set) var notKept = 0

    /// An empty spool that keeps at most `runLength` sessions in memory, its file in `directory`, and the sessions only
    /// of those that may be among the first `listingLimit` in listing order.
    init(runLength: Int, directory: String?, listingLimit: Int = .max) {
        self.runLength = max(1, runLength)
        self.directory = directory
        self.listingLimit = max(0, listingLimit)
    }

    /// Adds a closed session, kept as its outline, and its findings; `id` when it was named as it closed (a stream
    /// names sessions in the order they close), else it is named in listing order.
    mutating func add(_ session: LaunchSession, findings: [Finding], id: String? = nil) {
        let key = Key(session, order: count)
        let start = pending.bytes.count
        if mayBeListed(startingAt: key.start) {
            session.outline().spool(into: &pending)
            assert(pending.bytes.count > start, "an encoded session is never empty: an empty one stands for none")
        } else {
            notKept += 1
        }
        let sessionCount = pending.bytes.count - start
        pending.array(findings)
        pendingKeys.append(Pending(key: key, name: SessionListing.Names.name(of: session), id: id, start: start,
                                   count: pending.bytes.count - start, sessionCount: sessionCount, kind: session.kind,
                                   evidenceIncomplete: session.evidenceIncomplete))
        count += 1
        if pendingKeys.count >= runLength, failure == nil { writeRun() }
    }

    /// Whether a session starting at `start` (microseconds, 0 for none) may be among the first ``listingLimit`` in
    /// listing order; the earliest starts are updated with it. Exact for a later start; a start equal to the latest
    /// of the earliest may still be listed (the app and order decide), so it is kept.
    private mutating func mayBeListed(startingAt start: Int64) -> Bool {
        guard listingLimit < .max else { return true }
        guard earliestStarts.count >= listingLimit else {
            earliestStarts.insert(start)
            return true
        }
        guard let latest = earliestStarts.max, start <= latest else { return false }
        if start < latest { earliestStarts.replaceMax(with: start) }
        return true
    }

    /// Ends adding: what is still in memory is written out as a run when runs were written before, or when more than
    /// `keeping` sessions are (so that groups finished while others are read hold files, not memory).
    mutating func close(keeping: Int = .max) {
        if !pendingKeys.isEmpty, failure == nil, !runs.isEmpty || pendingKeys.count > keeping { writeRun() }
    }

    /// Sessions held in memory now (at most ``runLength`` while the file can be written).
    var pendingCount: Int { pendingKeys.count }

    /// Whether any session lives in the file.
    var isSpooled: Bool { !runs.isEmpty }

    /// Sorts the pending sessions and appends them to the file as one run of records: a 4-byte length, the key, the
    /// name, the id if it has one, the kind and whether evidence is incomplete (``outcome(_:)``), the length of the
    /// encoded session (0: not kept), the encoded session and findings.
    private mutating func writeRun() {
        pendingKeys.sort { $0.key < $1.key }
        do {
            if file == nil { file = try SpoolFile(directory: directory) }
            guard let file else { return }
            var run = SpoolWriter()
            var runStart: Int64?
            var runBytes: Int64 = 0
            func flush() throws(SpoolFile.Failure) {
                let at = try file.append(run.bytes)
                if runStart == nil { runStart = at }
                runBytes += Int64(run.bytes.count)
                run.bytes.removeAll(keepingCapacity: true)
            }
            for entry in pendingKeys {
                // The record's length goes before it, written once the record is.
                let lengthAt = run.bytes.count
                run.bytes.append(contentsOf: [0, 0, 0, 0] as [UInt8])
                run.integer(entry.key.start)
                run.string(entry.key.app)
                run.integer(entry.key.order)
                run.string(entry.name)
                run.string(entry.id)
                run.unsigned(Self.outcome(entry))
                run.unsigned(UInt64(entry.sessionCount))
                pending.bytes.withUnsafeBytes { run.bytes.append(contentsOf: $0[entry.start..<entry.start + entry.count]) }
                let length = UInt32(run.bytes.count - lengthAt - 4).littleEndian
                withUnsafeBytes(of: length) { length in
                    for index in 0..<4 { run.bytes[lengthAt + index] = length[index] }
                }
                if run.bytes.count >= 1 << 20 { try flush() }
            }
            try flush()
            runs.append((runStart ?? 0, runBytes))
            pending.bytes.removeAll(keepingCapacity: true)
            pendingKeys.removeAll(keepingCapacity: true)
        } catch {
            failure = error.description
        }
    }

    /// A session's kind (its index in `Kind.allCases`) and whether its evidence is incomplete (the low bit), in one number.
    private static func outcome(_ entry: Pending) -> UInt64 {
        let kind = LaunchSession.Kind.allCases.firstIndex(of: entry.kind)!
        return UInt64(kind) << 1 | (entry.evidenceIncomplete ? 1 : 0)
    }

    /// ``outcome(_:)`` read back.
    fileprivate static func outcome(_ value: UInt64) throws(SpoolReader.DamagedSpool) -> (kind: LaunchSession.Kind, evidenceIncomplete: Bool) {
        let kinds = LaunchSession.Kind.allCases
        guard value >> 1 < UInt64(kinds.count) else { throw SpoolReader.DamagedSpool(reason: "a session kind out of range") }
        return (kinds[Int(value >> 1)], value & 1 == 1)
    }

    /// The sessions and their findings in listing order, one at a time.
    consuming func entries() -> Entries {
        pendingKeys.sort { $0.key < $1.key }
        return Entries(file: file, runs: runs, pending: pending.bytes, pendingKeys: pendingKeys)
    }

    /// One session as the merge hands it on: the name its id is made of, the session still encoded (a report's pages
    /// take it as it is), and its findings.
    struct Entry {
        var name: String
        var id: String?
        /// nil for a session that could not be listed (``ClosedSessionSpool/listingLimit``).
        var session: [UInt8]?
        var findings: [Finding]
        /// What a summary counts of it when it is not listed.
        var kind: LaunchSession.Kind
        var evidenceIncomplete: Bool

        /// The session itself (only of an entry that has it).
        func decodedSession() -> LaunchSession {
            guard let session else { preconditionFailure("prewarm-lint: a session past the listing limit was not kept") }
            return session.withUnsafeBytes { bytes in
                var reader = SpoolReader(bytes)
                do { return try LaunchSession(unspooling: &reader) } catch {
                    preconditionFailure("prewarm-lint: a spooled session does not read back: \(error)")
                }
            }
        }
    }

    /// The merge of the runs and the sessions left in memory (all of them when nothing was spooled; those added
    /// after a spool failed otherwise).
    struct Entries: IteratorProtocol, Sequence {
        private struct Head: Comparable {
            var key: Key
            var source: Int
            static func < (lhs: Head, rhs: Head) -> Bool { lhs.key < rhs.key }
        }
        private var readers: [RunReader]
        private let pending: [UInt8]
        private let pendingKeys: [Pending]
        private var nextPending = 0
        private var heap = Heap<Head>()
        /// The record each run's head came from, and where its name starts (its key already read).
        private var records: [(record: [UInt8], rest: Int)]

        init(file: SpoolFile?, runs: [(start: Int64, count: Int64)], pending: [UInt8], pendingKeys: [Pending]) {
            readers = file.map { file in runs.map { RunReader(file: file, start: $0.start, count: $0.count) } } ?? []
            self.pending = pending
            self.pendingKeys = pendingKeys
            records = Array(repeating: ([], 0), count: readers.count)
            guard !readers.isEmpty else { return }
            for source in readers.indices { advance(source) }
            advancePending()
        }

        /// The memory's next session joins the merge as the source after the runs.
        private mutating func advancePending() {
            guard nextPending < pendingKeys.count else { return }
            heap.insert(Head(key: pendingKeys[nextPending].key, source: readers.count))
        }

        private mutating func advance(_ source: Int) {
            guard let record = readers[source].next() else { return }
            let (key, rest) = record.withUnsafeBytes { bytes in
                var reader = SpoolReader(bytes)
                do {
                    let key = Key(start: try reader.integer64(), app: try reader.string(), order: try reader.integer())
                    return (key, reader.position)
                } catch {
                    preconditionFailure("prewarm-lint: the temporary file of spooled sessions is damaged: \(error)")
                }
            }
            records[source] = (record, rest)
            heap.insert(Head(key: key, source: source))
        }

        private mutating func takePending() -> Entry {
            let entry = pendingKeys[nextPending]
            nextPending += 1
            let session = entry.sessionCount == 0 ? nil : Array(pending[entry.start..<entry.start + entry.sessionCount])
            let findings = pending.withUnsafeBytes { bytes in
                Self.findings(UnsafeRawBufferPointer(rebasing: bytes[entry.start + entry.sessionCount..<entry.start + entry.count]))
            }
            return Entry(name: entry.name, id: entry.id, session: session, findings: findings, kind: entry.kind,
                         evidenceIncomplete: entry.evidenceIncomplete)
        }

        /// The next session in listing order, with its findings.
        mutating func next() -> Entry? {
            if readers.isEmpty {
                guard nextPending < pendingKeys.count else { return nil }
                return takePending()
            }
            guard let head = heap.popMin() else { return nil }
            if head.source == readers.count {
                defer { advancePending() }
                return takePending()
            }
            let (record, rest) = records[head.source]
            advance(head.source)
            return record.withUnsafeBytes { bytes in
                var reader = SpoolReader(UnsafeRawBufferPointer(rebasing: bytes[rest...]))
                do {
                    let name = try reader.string()
                    let id = try reader.optionalString()
                    let outcome = try ClosedSessionSpool.outcome(try reader.unsigned())
                    let length = Int(try reader.unsigned())
                    let sessionStart = rest + reader.position
                    guard length <= bytes.count - sessionStart else { throw SpoolReader.DamagedSpool(reason: "a session longer than its record") }
                    let session = length == 0 ? nil : Array(bytes[sessionStart..<sessionStart + length])
                    return Entry(name: name, id: id, session: session,
                                 findings: Self.findings(UnsafeRawBufferPointer(rebasing: bytes[(sessionStart + length)...])),
                                 kind: outcome.kind, evidenceIncomplete: outcome.evidenceIncomplete)
                } catch {
                    preconditionFailure("prewarm-lint: the temporary file of spooled sessions is damaged: \(error)")
                }
            }
        }

        private static func findings(_ bytes: UnsafeRawBufferPointer) -> [Finding] {
            var reader = SpoolReader(bytes)
            do {
                let findings = try reader.array(Finding.self)
                guard reader.isAtEnd else { throw SpoolReader.DamagedSpool(reason: "bytes after a session's findings") }
                return findings
            } catch {
                preconditionFailure("prewarm-lint: the temporary file of spooled sessions is damaged: \(error)")
            }
        }
    }

    /// The report's lists from the spools of each group (groups in this order, each group's sessions in listing order),
    /// named in that order: arrays for at most `sessionsInMemory` sessions, pages of a new temporary file beyond.
    /// Sessions past `limit` are named and their findings kept, but not listed. `failures` says why sessions stayed
    /// in memory that were to be spooled.
    /// `inputs` (one per spool, for inputs read separately): `groups` says which listed sessions came from each.
    static func listing(_ spools: consuming [ClosedSessionSpool], limit: Int, sessionsInMemory: Int, directory: String?,
                        pageLength: Int = 256, inputs: [String]? = nil) -> Listing {
        let total = spools.reduce(0) { $0 + $1.count }
        var failures = spools.compactMap(\.failure)
        var file: SpoolFile?
        if total > sessionsInMemory {
            do { file = try SpoolFile(directory: directory) } catch { failures.append(error.description) }
        }
        var sessions = ReportListBuilder<LaunchSession>(file: file, perPage: pageLength)
        var ids = ReportListBuilder<String>(file: file, perPage: pageLength)
        var findings = ReportListBuilder<Finding>(file: file, perPage: pageLength)
        var names = SessionListing.Names()
        var listed = 0
        var notListed = UnlistedSessions()
        var groups: [LintReport.SessionGroup] = []
        var spoolIndex = 0
        while !spools.isEmpty {
            // Each group's file is released as soon as it is merged.
            let spool = spools.removeFirst()
            let firstListed = listed
            defer {
                if let inputs, spoolIndex < inputs.count, listed > firstListed {
                    groups.append(LintReport.SessionGroup(input: inputs[spoolIndex], sessions: firstListed..<listed))
                }
                spoolIndex += 1
            }
            for entry in spool.entries() {
                let id = entry.id ?? names.next(forApp: entry.name)
                if listed < limit {
                    // A spool keeps every session that may be among the first `listingLimit` ≥ `limit` of its own.
                    guard let session = entry.session else {
                        preconditionFailure("prewarm-lint: a session within the listing limit was not kept")
                    }
                    sessions.append(encoded: session)
                    ids.append(id)
                    listed += 1
                } else {
                    notListed.add(kind: entry.kind, evidenceIncomplete: entry.evidenceIncomplete)
                }
                for var finding in entry.findings {
                    finding.sessionID = id
                    findings.append(finding)
                }
            }
        }
        let lists = (sessions: sessions.finish(), ids: ids.finish(), findings: findings.finish())
        failures += [sessions.failure, ids.failure, findings.failure].compactMap { $0 }
        return Listing(sessions: lists.sessions, ids: lists.ids, findings: lists.findings, total: total, notListed: notListed,
                       failures: failures, groups: groups)
    }

    /// The report's lists of sessions, their ids and findings, in listing order, and what was not listed.
    struct Listing {
        /// The sessions listed.
        var sessions: ReportList<LaunchSession>
        /// Their ids.
        var ids: ReportList<String>
        /// Every session's findings, listed or not.
        var findings: ReportList<Finding>
        /// Sessions closed in all.
        var total: Int
        /// The sessions past the limit, counted by kind.
        var notListed: UnlistedSessions
        /// Why sessions stayed in memory that were to be spooled.
        var failures: [String]
        /// Which listed sessions came from each input read separately.
        var groups: [LintReport.SessionGroup]
    }

    /// The warning that `total` sessions stayed in memory because the temporary file failed (`failure`).
    static func keptInMemoryDiagnostic(total: Int, failure: String, input: String) -> ReaderDiagnostic {
        ReaderDiagnostic(code: .stateLimit, severity: .warning,
                         message: "\(total) sessions were kept in memory instead of a temporary file (\(failure)); the report is whole, but the run took more memory",
                         origin: EventOrigin(input: input, line: 0, byteOffset: 0))
    }

    /// One run of the file, read record by record through a buffer.
    struct RunReader {
        private let file: SpoolFile
        private var position: Int64
        private let end: Int64
        private var buffer: [UInt8] = []
        private var used = 0
        private var scratch: [UInt8] = []
        /// Bytes read from the file at a time.
        static let chunk = 32 * 1024

        init(file: SpoolFile, start: Int64, count: Int64) {
            self.file = file
            position = start
            end = start + count
        }

        /// Makes at least `count` unread bytes available, if the run has them.
        private mutating func fill(_ count: Int) -> Bool {
            if buffer.count - used >= count { return true }
            buffer.removeFirst(used)
            used = 0
            let wanted = Int(min(Int64(max(count - buffer.count, Self.chunk)), end - position))
            guard wanted > 0 else { return buffer.count >= count }
            do {
                try file.read(at: position, count: wanted, into: &scratch)
            } catch {
                preconditionFailure("prewarm-lint: \(error)")
            }
            position += Int64(wanted)
            buffer.append(contentsOf: scratch)
            return buffer.count >= count
        }

        /// The next record (key, session, findings), or nil at the end of the run.
        mutating func next() -> [UInt8]? {
            guard fill(4) else { return nil }
            var length: UInt32 = 0
            withUnsafeMutableBytes(of: &length) { $0.copyBytes(from: buffer[used..<used + 4]) }
            let count = Int(UInt32(littleEndian: length))
            guard fill(4 + count) else { preconditionFailure("prewarm-lint: a spooled run ends inside a record") }
            defer { used += 4 + count }
            return Array(buffer[used + 4..<used + 4 + count])
        }
    }
}
