import PrewarmLintModel
import PrewarmLintReaders
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An ndjson file's records judged a few chunks ahead of its decoder, on a thread of its own (`RecordPrescan`).
///
/// On a device's day most ndjson records concern no launch: the decoder scans each, and the record filter says no.
/// Here a second thread reads the file in chunks of ``chunkSize`` bytes and judges their lines with an
/// `NDJSONPrescanner` and the filter's ahead filter; the decoder, reaching a judged line, only counts it. The two
/// share the work: the thread takes the chunks the decoder has not reached, at most ``lookahead`` ahead of it, and
/// when the decoder finds the thread still at work on the chunk it needs, it waits for that one and keeps the next
/// for itself, so that neither waits long for the other whatever their speeds. The thread stops judging once four
/// chunks in a row had less than half of their bytes to skip (a launch-dense log, where the decoder keeps most lines
/// and the thread would only take a core from the session builder).
///
/// The decoder's output does not depend on what was judged ahead: a judged line is one it would only have counted.
/// Used by `InputReader` for a regular, uncompressed file read with a record filter, when the session pipeline reads
/// it ahead (`--jobs` above 1).
final class ScanAhead: RecordPrescan, @unchecked Sendable {
    /// The bytes of a chunk, judged as a whole.
    static let chunkShift = 20
    static var chunkSize: Int { 1 << chunkShift }
    /// How many chunks the thread may judge beyond the one the decoder is in.
    static let lookahead = 6

    private enum Chunk {
        /// The thread is judging it.
        case judging
        /// Judged: the skips of its lines, in order.
        case judged([PrescannedSkip])
        /// The decoder reads it unjudged.
        case decoders
    }

    private let path: String
    private let fileSize: Int
    private let threads: ThreadStarter

    // Shared, under `mutex`.
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var chunks: [Int: Chunk] = [:]
    private var decoderChunk = 0
    private var stopping = false
    private var running = false

    // The decoder's thread only.
    private var active = false
    private(set) var started = false
    private var current = -1
    private var currentSkips: [PrescannedSkip] = []
    private var cursor = 0
    /// Lines counted without being decoded (for tests and measurements).
    private(set) var linesSkipped = 0

    /// A judge for the file at `path` (`fileSize` bytes), whose thread comes from `threads` once ``start(_:from:)`` is called.
    init(path: String, fileSize: Int, threads: ThreadStarter) {
        self.path = path
        self.fileSize = fileSize
        self.threads = threads
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Starts judging with `prescanner`, from the chunk after the one holding byte `offset` (where the decoder is).
    /// Called once, when the decoder's format is known; does nothing more when `prescanner` is nil or the thread is
    /// refused (the decoder then judges every line itself).
    func start(_ prescanner: NDJSONPrescanner?, from offset: Int) {
        guard !started else { return }
        started = true
        guard let prescanner else { return }
        let first = offset >> Self.chunkShift + 1
        guard first << Self.chunkShift < fileSize else { return }
        let descriptor = FileSystemName.withPlatformPath(path) { open($0, O_RDONLY) }
        guard descriptor >= 0 else { return }
        decoderChunk = first - 1
        running = true
        let ok = threads.startDetached { [self] in
            judge(with: prescanner, descriptor: descriptor, from: first)
            close(descriptor)
        }
        if ok {
            active = true
        } else {
            running = false
            close(descriptor)
        }
    }

    /// Stops the thread and waits for it to return. Called once, when the decoder is done.
    func finish() {
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_cond_broadcast(&changed)
        while running { pthread_cond_wait(&changed, &mutex) }
        chunks.removeAll()
        pthread_mutex_unlock(&mutex)
        active = false
    }

    func skip(_ line: ByteLine) -> PrescannedSkip? {
        guard active else { return nil }
        let index = line.byteOffset >> Self.chunkShift
        if index != current { enter(index) }
        while cursor < currentSkips.count, currentSkips[cursor].byteOffset < line.byteOffset { cursor += 1 }
        guard cursor < currentSkips.count, currentSkips[cursor].matches(line) else { return nil }
        cursor += 1
        linesSkipped += 1
        return currentSkips[cursor - 1]
    }

    /// The decoder reaches chunk `index`: takes its judgement, waiting while the thread is at it, or keeps it.
    private func enter(_ index: Int) {
        current = index
        currentSkips = []
        cursor = 0
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        decoderChunk = index
        for passed in chunks.keys where passed < index { chunks[passed] = nil }
        pthread_cond_broadcast(&changed)  // room for the thread ahead
        while true {
            switch chunks[index] {
            case .judged(let skips)?:
                currentSkips = skips
                chunks[index] = nil
                return
            case .judging?:
                // The thread is slower than the decoder here: the next chunk is the decoder's.
                if chunks[index + 1] == nil { chunks[index + 1] = .decoders }
                pthread_cond_wait(&changed, &mutex)
            case .decoders?:
                chunks[index] = nil
                return
            case nil:
                return  // not reached by the thread, which will not take it now (it is behind the decoder)
            }
        }
    }

    /// The thread: judges chunk after chunk until the end of the file, the decoder's end, or four poor chunks.
    private func judge(with prescanner: NDJSONPrescanner, descriptor: Int32, from first: Int) {
        var prescanner = prescanner
        let buffer = InputReader.allocateReadBuffer(byteCount: Self.chunkSize)
        defer { buffer.deallocate() }
        var next = first
        var poorChunks = 0
        pthread_mutex_lock(&mutex)
        while !stopping {
            if next <= decoderChunk { next = decoderChunk + 1 }
            while case .decoders? = chunks[next] { next += 1 }
            if next > decoderChunk + Self.lookahead {
                pthread_cond_wait(&changed, &mutex)
                continue
            }
            let offset = next << Self.chunkShift
            guard offset < fileSize else { break }
            chunks[next] = .judging
            pthread_mutex_unlock(&mutex)

            // The chunk, read from its own offset to the start of the page-aligned buffer (the kernel copies much
            // slower to a destination at another offset within a page: `InputReader.allocateReadBuffer`), and the
            // byte before it: whether it starts a line.
            var count = 0
            while count < buffer.count {
                let read = pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(offset + count))
                if read < 0, errno == EINTR { continue }
                if read <= 0 { break }
                count += read
            }
            var before: UInt8 = 0
            let startsLine = offset == 0 || (pread(descriptor, &before, 1, off_t(offset - 1)) == 1 && before == UInt8(ascii: "\n"))
            var skips: [PrescannedSkip] = []
            skips.reserveCapacity(4096)
            var skippedBytes = 0
            if count > 0 {
                skippedBytes = prescanner.judge(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: offset,
                                                startsLine: startsLine, into: &skips)
            }
            poorChunks = skippedBytes * 2 < count ? poorChunks + 1 : 0

            pthread_mutex_lock(&mutex)
            chunks[next] = next >= decoderChunk ? .judged(skips) : nil
            pthread_cond_broadcast(&changed)
            next += 1
            if poorChunks >= 4 { break }
        }
        running = false
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
