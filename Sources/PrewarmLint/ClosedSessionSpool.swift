import HeapModule
import PrewarmLintModel
import PrewarmLintSessions
import PrewarmLintRules
import PrewarmLintReporters

/// The closed sessions of one group of inputs (one device's logs), each with its findings, handed back in listing
/// order (``SessionListing``: start, app, order closed) without all of them being in memory at once.
///
/// Each session is encoded as it arrives (``SpoolWriter``: a few hundred bytes, where the value took about a
/// kilobyte). Past ``runLength`` sessions, the encoded ones are sorted and written to a temporary file as a sorted
/// run; at the end the runs (and what is left in memory) are merged through a heap, each run read through a
/// buffer of its own. Memory is then ``runLength`` encoded sessions plus a buffer per run, whatever the number of
/// sessions: a million launches are ~120 runs of 32 KiB buffers.
///
/// A file that cannot be made or written (a full disk) is not an error of the run: the sessions stay in memory
/// and ``failure`` says why, for a warning.
struct ClosedSessionSpool {
    /// Where a session goes in the listing.
    struct Key: Comparable {
        var start: Int64
        var app: String
        var order: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.app != rhs.app { return lhs.app < rhs.app }
            return lhs.order < rhs.order
        }
    }

    /// Sessions encoded in memory before they are written out as a sorted run.
    let runLength: Int
    /// The encoded sessions not yet written out: each a session, then its findings.
    private var pending = SpoolWriter()
    private var pendingKeys: [(key: Key, start: Int, count: Int)] = []
    private var file: SpoolFile?
    private var runs: [(start: Int64, count: Int64)] = []
    /// Sessions added.
    private(set) var count = 0
    /// Why sessions could not be spooled to a file (and were kept in memory), if they could not.
    private(set) var failure: String?

    /// Where the temporary file goes (nil: `TMPDIR`, else `/tmp`).
    let directory: String?

    /// An empty spool that keeps at most `runLength` sessions in memory, its file in `directory`.
    init(runLength: Int, directory: String?) {
        self.runLength = max(1, runLength)
        self.directory = directory
    }

    /// Adds a closed session (an outline) and its findings.
    mutating func add(_ session: LaunchSession, findings: [Finding]) {
        let key = Key(start: session.start?.microsecondsSinceEpoch ?? 0, app: session.app.description, order: count)
        let start = pending.bytes.count
        session.spool(into: &pending)
        pending.array(findings)
        pendingKeys.append((key, start, pending.bytes.count - start))
        count += 1
        if pendingKeys.count >= runLength, failure == nil { writeRun() }
    }

    /// Ends adding: what is still in memory is written out as a run when runs were written before (so that a group
    /// finished while others are read holds no more than a file).
    mutating func close() {
        if !runs.isEmpty, !pendingKeys.isEmpty, failure == nil { writeRun() }
    }

    /// Sessions held in memory now (at most ``runLength`` while the file can be written).
    var pendingCount: Int { pendingKeys.count }

    /// Whether any session lives in the file.
    var isSpooled: Bool { !runs.isEmpty }

    /// Sorts the pending sessions and appends them to the file as one run of records: a 4-byte length, the key, the
    /// encoded session and findings.
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
                var key = SpoolWriter()
                key.integer(entry.key.start)
                key.string(entry.key.app)
                key.integer(entry.key.order)
                let length = UInt32(key.bytes.count + entry.count)
                withUnsafeBytes(of: length.littleEndian) { run.bytes.append(contentsOf: $0) }
                run.bytes.append(contentsOf: key.bytes)
                run.bytes.append(contentsOf: pending.bytes[entry.start..<entry.start + entry.count])
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

    /// The sessions and their findings in listing order, one at a time.
    consuming func entries() -> Entries {
        pendingKeys.sort { $0.key < $1.key }
        return Entries(file: file, runs: runs, pending: pending.bytes, pendingKeys: pendingKeys)
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
        private let pendingKeys: [(key: Key, start: Int, count: Int)]
        private var nextPending = 0
        private var heap = Heap<Head>()
        /// The record each run's head came from (its key already read).
        private var records: [[UInt8]]

        init(file: SpoolFile?, runs: [(start: Int64, count: Int64)], pending: [UInt8], pendingKeys: [(key: Key, start: Int, count: Int)]) {
            readers = file.map { file in runs.map { RunReader(file: file, start: $0.start, count: $0.count) } } ?? []
            self.pending = pending
            self.pendingKeys = pendingKeys
            records = Array(repeating: [], count: readers.count)
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
            records[source] = record
            heap.insert(Head(key: Self.key(of: record), source: source))
        }

        private static func key(of record: [UInt8]) -> Key {
            record.withUnsafeBytes { bytes in
                var reader = SpoolReader(bytes)
                do {
                    return Key(start: try reader.integer64(), app: try reader.string(), order: try reader.integer())
                } catch {
                    preconditionFailure("prewarm-lint: the temporary file of spooled sessions is damaged: \(error)")
                }
            }
        }

        private mutating func takePending() -> (session: LaunchSession, findings: [Finding]) {
            let entry = pendingKeys[nextPending]
            nextPending += 1
            return pending.withUnsafeBytes { Self.decode(UnsafeRawBufferPointer(rebasing: $0[entry.start..<entry.start + entry.count]), skippingKey: false) }
        }

        /// The next session in listing order, with its findings.
        mutating func next() -> (session: LaunchSession, findings: [Finding])? {
            if readers.isEmpty {
                guard nextPending < pendingKeys.count else { return nil }
                return takePending()
            }
            guard let head = heap.popMin() else { return nil }
            if head.source == readers.count {
                defer { advancePending() }
                return takePending()
            }
            let record = records[head.source]
            advance(head.source)
            return record.withUnsafeBytes { Self.decode($0, skippingKey: true) }
        }

        private static func decode(_ bytes: UnsafeRawBufferPointer, skippingKey: Bool) -> (session: LaunchSession, findings: [Finding]) {
            var reader = SpoolReader(bytes)
            do {
                if skippingKey { _ = (try reader.integer64(), try reader.string(), try reader.integer()) }
                return (try LaunchSession(unspooling: &reader), try reader.array(Finding.self))
            } catch {
                preconditionFailure("prewarm-lint: the temporary file of spooled sessions is damaged: \(error)")
            }
        }
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
