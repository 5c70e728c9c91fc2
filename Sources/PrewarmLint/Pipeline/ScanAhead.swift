import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintClassifier
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's lines judged ahead of its decoder, on a thread of its own (`RecordPrescan`).
///
/// On a device's day most records concern no launch: the decoder finds each one's process and offers the record to the
/// pipeline, whose gate says no. Here the file is read in chunks of the read loop's size, and some chunks are read by a
/// second thread, which judges their lines with the decoder's prescanner (`LogDecoder.makePrescanner`: an
/// `NDJSONPrescanner` or a `TextPrescanner`), each head offered to the same gate knowing nothing yet
/// (`AheadLaunchLineGating`), before it lends each chunk to the read loop. The decoder takes what was judged: an ndjson
/// record it would only count, it counts; a text chunk's lines it takes from the table, and a judged head's answer
/// instead of classifying the line and offering it. The read loop reads the other chunks
/// itself, so that the two threads share the work (a judged chunk costs the decoder a fraction of what it does
/// unjudged; judging a line costs about what decoding it does). Each byte is read from the file once, by one
/// thread (two threads reading the same pages of the page cache at once made the kernel's copies many times slower).
///
/// Which chunks are the thread's follows the two threads' speeds: the thread takes the chunk after its last one, or,
/// when the read loop has come within ``gap`` chunks of that, the chunk ``gap`` ahead of the read loop, and leaves the
/// chunks it passed over to the read loop. A fixed share (every other chunk) would leave the read loop the bottleneck
/// on a text log, the thread idle.
///
/// The thread works at most `2 × lookahead` chunks ahead of the read loop, each in a buffer of its own (at most
/// `lookahead + 1`), lent to the read loop and given back when the decoder is done with it: memory is that many
/// chunks. It stops judging once four chunks in a row had less than half of their bytes judged (a launch-dense log,
/// where the decoder keeps most lines and the thread would only take a core from the session builder); the read loop
/// then reads every chunk.
///
/// The decoder's output does not depend on what was judged ahead: a judged line is one it would have handled that way
/// whatever came before. Used by `InputReader` for a regular, uncompressed file whose records are offered, when the
/// session pipeline reads it ahead (`--jobs` above 1).
final class ScanAhead: RecordPrescan, @unchecked Sendable {
    /// The thread's buffers, besides the one lent: it judges at most this many chunks (and one more while the read loop
    /// has one lent) ahead of the read loop, none more than twice this many chunks beyond it.
    static let lookahead = 3

    /// A chunk's size: the read loop's, a power of two.
    let chunkShift: Int
    var chunkSize: Int { 1 << chunkShift }

    private enum Chunk {
        /// The thread is reading and judging it.
        case judging
        /// Judged: its bytes, and what was found of its lines.
        case judged(buffer: UnsafeMutableRawBufferPointer, count: Int, judgement: ChunkJudgement)
    }

    private let path: String
    private let fileSize: Int
    private let threads: ThreadStarter

    // Shared, under `mutex`.
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var chunks: [Int: Chunk] = [:]
    /// The chunk the read loop is at.
    private var readerChunk = 0
    private var spareBuffers: [UnsafeMutableRawBufferPointer] = []
    /// Line tables the decoder is done with, for the thread to fill again (at most ``spareTablesKept``).
    private var spareTables: [TextLineTable] = []
    /// Tables handed back to the judge to be filled again (for tests and measurements).
    private var tablesReusedCount = 0
    private var stopping = false
    private var running = false

    // The read loop's and decoder's thread only.
    private var active = false
    private(set) var started = false
    /// The skips of the chunks lent, until the decoder reaches them.
    private var lentSkips: [Int: [PrescannedSkip]] = [:]
    /// The line table of the chunk lent last, and where it starts.
    private var lentTable: (offset: Int, count: Int, table: TextLineTable)?
    private var current = -1
    private var currentSkips: [PrescannedSkip] = []
    private var cursor = 0
    /// Lines the decoder took as judged: ndjson records counted without being scanned, text lines lent judged (for tests
    /// and measurements).
    private(set) var linesJudged = 0
    /// Chunks judged and lent to the read loop (for tests and measurements).
    private(set) var chunksLent = 0

    /// A judge for the file at `path` (`fileSize` bytes) read in chunks of `chunkSize` bytes (a power of two; else
    /// nil), whose thread comes from `threads` once ``start(_:from:)`` is called.
    init?(path: String, fileSize: Int, chunkSize: Int, threads: ThreadStarter) {
        guard chunkSize >= 4096, chunkSize & (chunkSize - 1) == 0 else { return nil }
        chunkShift = chunkSize.trailingZeroBitCount
        self.path = path
        self.fileSize = fileSize
        self.threads = threads
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        for buffer in spareBuffers { buffer.deallocate() }
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// How far ahead of the read loop the thread takes its next chunk, at least: the chunks nearer are the read loop's
    /// to read and decode itself, unless the thread has already judged them. Judging a chunk costs the thread about
    /// what decoding it costs the decoder, and a judged chunk costs the decoder a quarter (ndjson) to a half (text) of
    /// that; so the two chunks before the thread's take the read loop at least as long as the thread takes to judge its
    /// own, and the read loop does not wait for it. The split follows the two threads' speeds.
    static let gap = 3

    /// Starts judging with `prescanner`, from byte `offset` on (where the read loop is). Called once, when the
    /// decoder's format is known; does nothing more when `prescanner` is nil or the thread is refused (the read loop
    /// then reads, and the decoder judges, every line).
    func start(_ prescanner: (any LinePrescanner)?, judgedBy gate: LaunchLineGate, from offset: Int) {
        guard !started else { return }
        started = true
        guard let prescanner, offset & (chunkSize - 1) == 0 else { return }
        let first = offset >> chunkShift
        let descriptor = FileSystemName.withPlatformPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return }
        readerChunk = first
        running = true
        let ok = threads.startDetached { [self] in
            judge(with: prescanner, gate: gate, descriptor: descriptor, from: first)
            close(descriptor)
        }
        if ok {
            active = true
        } else {
            running = false
            close(descriptor)
        }
    }

    /// Stops the thread and waits for it to return; frees the chunks' buffers. Called once, when the decoder is done.
    func finish() {
        guard running || active else { return }
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_cond_broadcast(&changed)
        while running { pthread_cond_wait(&changed, &mutex) }
        for case .judged(let buffer, _, _) in chunks.values { buffer.deallocate() }
        chunks.removeAll()
        pthread_mutex_unlock(&mutex)
        active = false
    }

    /// The read loop is at byte `offset`: the thread's judged chunk there, lent (waiting while the thread reads and
    /// judges it), or nil when the read loop is to read on itself. A chunk lent is given back with
    /// ``giveBack(_:)`` once the decoder has had its bytes.
    func lend(at offset: Int) -> UnsafeMutableRawBufferPointer? {
        guard active, offset & (chunkSize - 1) == 0 else { return nil }
        let index = offset >> chunkShift
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        readerChunk = index
        for (passed, chunk) in chunks where passed < index {
            if case .judged(let buffer, _, _) = chunk { recycle(buffer) }
            chunks[passed] = nil
        }
        pthread_cond_broadcast(&changed)  // room for the thread ahead
        while case .judging? = chunks[index] { pthread_cond_wait(&changed, &mutex) }
        guard case .judged(let buffer, let count, let judgement)? = chunks[index] else { return nil }
        chunks[index] = nil
        chunksLent += 1
        if !judgement.skips.isEmpty { lentSkips[index] = judgement.skips }
        lentTable = judgement.lines.map { (offset, count, $0) }
        if judgement.lines != nil { linesJudged += judgement.judgedLines }
        return UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
    }

    /// Spare line tables kept: one for each chunk the thread may have judged ahead (the thread may judge several chunks
    /// in a row, each with its table, while the decoder has another; with fewer kept, tables are made anew).
    static let spareTablesKept = lookahead + 1

    /// Line tables filled again rather than made anew.
    var tablesReused: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return tablesReusedCount
    }

    func giveBack(_ table: consuming TextLineTable) {
        pthread_mutex_lock(&mutex)
        if spareTables.count < Self.spareTablesKept { spareTables.append(table) }
        pthread_mutex_unlock(&mutex)
    }

    /// A chunk ``lend(at:)`` lent, which the decoder is done with.
    func giveBack(_ bytes: UnsafeMutableRawBufferPointer) {
        let whole = UnsafeMutableRawBufferPointer(start: bytes.baseAddress, count: chunkSize)
        pthread_mutex_lock(&mutex)
        recycle(whole)
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// A chunk's buffer no longer lent or judged (under `mutex`): kept for the thread while it runs, else given back to
    /// the system. Once the thread has stopped (a launch-dense log, where it stops after four poor chunks) the read
    /// loop reads every chunk into its own buffer, and the thread's few megabytes had stayed allocated to the end.
    private func recycle(_ buffer: UnsafeMutableRawBufferPointer) {
        if running { spareBuffers.append(buffer) } else { buffer.deallocate() }
    }

    /// Spare buffers held now (for tests and measurements).
    var spareBufferCount: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return spareBuffers.count
    }

    func lineTable(at byteOffset: Int, count: Int) -> TextLineTable? {
        guard let lent = lentTable, lent.offset == byteOffset, lent.count == count else { return nil }
        lentTable = nil
        return lent.table
    }

    func skip(_ line: ByteLine) -> PrescannedSkip? {
        guard active else { return nil }
        let index = line.byteOffset >> chunkShift
        if index != current {
            current = index
            currentSkips = lentSkips.removeValue(forKey: index) ?? []
            cursor = 0
            for passed in lentSkips.keys where passed < index { lentSkips[passed] = nil }
        }
        while cursor < currentSkips.count, currentSkips[cursor].byteOffset < line.byteOffset { cursor += 1 }
        guard cursor < currentSkips.count, currentSkips[cursor].matches(line) else { return nil }
        cursor += 1
        linesJudged += 1
        return currentSkips[cursor - 1]
    }

    /// The thread: reads and judges its chunks until the end of the file, the decoder's end, or four poor chunks.
    private func judge(with prescanner: any LinePrescanner, gate: LaunchLineGate, descriptor: Int32, from first: Int) {
        var prescanner = prescanner
        var judging = AheadLaunchLineGating(gate: gate)
        var next = first
        var poorChunks = 0
        var buffersMade = 0
        pthread_mutex_lock(&mutex)
        while !stopping {
            if next < readerChunk + Self.gap { next = readerChunk + Self.gap }
            let offset = next << chunkShift
            guard offset < fileSize else { break }
            // A buffer of its own for each chunk lent or judged: at most `lookahead` and one lent.
            if next > readerChunk + 2 * Self.lookahead || (spareBuffers.isEmpty && buffersMade > Self.lookahead) {
                pthread_cond_wait(&changed, &mutex)
                continue
            }
            let buffer: UnsafeMutableRawBufferPointer
            if let spare = spareBuffers.popLast() {
                buffer = spare
            } else {
                buffer = InputReader.allocateReadBuffer(byteCount: chunkSize)
                buffersMade += 1
            }
            chunks[next] = .judging
            var spareTable = spareTables.popLast()
            if spareTable != nil { tablesReusedCount += 1 }
            pthread_mutex_unlock(&mutex)
            if let table = spareTable.take() { prescanner.reuse(table) }

            // The chunk (from its own offset to the start of the page-aligned buffer), and the byte before it: whether
            // the chunk starts a line.
            var count = 0
            while count < buffer.count {
                let read = pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(offset + count))
                if read < 0, errno == EINTR { continue }
                if read <= 0 { break }
                count += read
            }
            var before: UInt8 = 0
            let startsLine = offset == 0 || (pread(descriptor, &before, 1, off_t(offset - 1)) == 1 && before == UInt8(ascii: "\n"))
            var judgement = ChunkJudgement()
            // A chunk cut short (the file shrank, or a read failed) is not lent: the read loop reads it itself.
            let whole = count == min(chunkSize, fileSize - offset)
            // A carriage return without a line feed is a line end to the decoder (`LineEndings`), not to the
            // prescanner: from such a chunk on, the read loop reads and judges alone.
            let framesAlike = !LineEndings.mayHoldLoneCarriageReturn(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if whole, framesAlike {
                judgement = prescanner.judge(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: offset, startsLine: startsLine) {
                    judging.admission(&$0)
                }
            }

            pthread_mutex_lock(&mutex)
            if whole, framesAlike, next >= readerChunk {
                chunks[next] = .judged(buffer: buffer, count: count, judgement: judgement)
            } else {
                chunks[next] = nil
                spareBuffers.append(buffer)
            }
            pthread_cond_broadcast(&changed)
            poorChunks = judgement.judgedBytes * 2 < count ? poorChunks + 1 : 0
            next += 1
            if poorChunks >= 4 || !whole || !framesAlike { break }
        }
        running = false
        // The read loop reads on by itself: what the thread kept for its next chunks goes back now, not at the end.
        for buffer in spareBuffers { buffer.deallocate() }
        spareBuffers.removeAll()
        spareTables.removeAll()
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
