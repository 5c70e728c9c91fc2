#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `.gz` input inflated on a thread of its own while the reader decodes what came before: the two overlap, so a
/// compressed log costs little more than a plain one on a machine with a second core.
///
/// The reader's call stays synchronous — ``inflate(_:_:)`` returns once every byte of its chunk has been inflated
/// and handed to `body` — so the caller's chunk is valid for as long as the helper reads it, and the output is the
/// same, in the same order, as inflating on the caller's thread. Between them, at most ``depth`` blocks of
/// ``blockSize`` bytes: memory is bounded whatever the compression ratio (a gzip bomb fills blocks, then waits).
/// Small chunks (a drip-fed test, a pipe's odd read) are inflated on the caller's thread, with the same inflater.
///
/// Written by hand: the readers depend on no concurrency library, and this is one producer, one consumer and a
/// mutex with a condition variable, each waiting only for the other's next step.
final class PipelinedInflater: @unchecked Sendable {
    /// Bytes of inflated output per block handed over.
    static let blockSize = 256 << 10
    /// Blocks in flight at most.
    static let depth = 4
    /// Chunks smaller than this are inflated on the caller's thread.
    static let minimumChunk = 64 << 10

    private let inflater = GzipInflater()
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var thread: pthread_t?

    // Shared state, under `mutex`.
    private var input: UnsafeRawBufferPointer?
    private var inputDone = true
    private var failure: GzipInflater.Failure?
    private var ready: [[UInt8]] = []
    private var spare: [[UInt8]] = []
    private var discarding = false
    private var stopping = false

    /// Whether the stream ended (its last member complete).
    var isAtStreamEnd: Bool { inflater.isAtStreamEnd }
    /// Zero bytes passed over after the last member.
    var trailingZeroBytes: Int { inflater.trailingZeroBytes }

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        if let thread {
            pthread_mutex_lock(&mutex)
            stopping = true
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
            pthread_join(thread, nil)
        }
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    /// Inflates `chunk`, handing the output to `body` in order; `body` returns false to stop taking output (the
    /// rest of the chunk is still inflated, so the stream's state stays whole, and dropped).
    func inflate(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Bool) throws(GzipInflater.Failure) {
        // A small chunk, or no thread to be had (the system refused one): inflated here, with the same inflater.
        guard chunk.count >= Self.minimumChunk, startThreadIfNeeded() else {
            var taking = true
            try inflater.inflate(chunk) { bytes in if taking { taking = body(bytes) } }
            return
        }
        pthread_mutex_lock(&mutex)
        input = chunk
        inputDone = false
        discarding = false
        pthread_cond_broadcast(&condition)
        var taking = true
        while true {
            while ready.isEmpty && !inputDone { pthread_cond_wait(&condition, &mutex) }
            if ready.isEmpty { break }
            let block = ready.removeFirst()
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
            if taking { taking = block.withUnsafeBytes { body($0) } }
            pthread_mutex_lock(&mutex)
            if !taking { discarding = true }
            if spare.count < Self.depth { spare.append(block) }
        }
        let failed = failure
        failure = nil
        input = nil
        pthread_mutex_unlock(&mutex)
        if let failed { throw failed }
    }

    /// Whether the helper runs (started now if it did not).
    private func startThreadIfNeeded() -> Bool {
        guard thread == nil else { return true }
        var created = pthread_t()
        let context = Unmanaged.passUnretained(self).toOpaque()
        #if canImport(Darwin)
        let status = pthread_create(&created, nil, { context in
            Unmanaged<PipelinedInflater>.fromOpaque(context).takeUnretainedValue().work()
            return nil
        }, context)
        #else
        let status = pthread_create(&created, nil, { context in
            Unmanaged<PipelinedInflater>.fromOpaque(context!).takeUnretainedValue().work()
            return nil
        }, context)
        #endif
        if status == 0 { thread = created }
        return status == 0
    }

    /// The helper: waits for a chunk, inflates it into blocks, hands them over as they fill.
    private func work() {
        pthread_mutex_lock(&mutex)
        while true {
            while (input == nil || inputDone) && !stopping { pthread_cond_wait(&condition, &mutex) }
            if stopping { break }
            let chunk = input!
            var block = spare.popLast() ?? []
            pthread_mutex_unlock(&mutex)
            block.removeAll(keepingCapacity: true)
            var caught: GzipInflater.Failure?
            do throws(GzipInflater.Failure) {
                try inflater.inflate(chunk) { bytes in
                    var rest = bytes
                    while !rest.isEmpty {
                        let take = min(rest.count, Self.blockSize - block.count)
                        block.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<take]))
                        rest = UnsafeRawBufferPointer(rebasing: rest[take...])
                        if block.count == Self.blockSize { block = handOver(block) }
                    }
                }
            } catch {
                caught = error
            }
            pthread_mutex_lock(&mutex)
            if !block.isEmpty, !discarding {
                while ready.count >= Self.depth && !stopping { pthread_cond_wait(&condition, &mutex) }
                ready.append(block)
            }
            failure = caught
            inputDone = true
            pthread_cond_broadcast(&condition)
        }
        pthread_mutex_unlock(&mutex)
    }

    /// Hands a full block to the reader (waiting while `depth` are in flight); a fresh or spare block back.
    private func handOver(_ block: [UInt8]) -> [UInt8] {
        pthread_mutex_lock(&mutex)
        if !discarding {
            while ready.count >= Self.depth && !stopping { pthread_cond_wait(&condition, &mutex) }
            ready.append(block)
            pthread_cond_broadcast(&condition)
        }
        var next = spare.popLast() ?? []
        pthread_mutex_unlock(&mutex)
        next.removeAll(keepingCapacity: true)
        if next.capacity < Self.blockSize { next.reserveCapacity(Self.blockSize) }
        return next
    }
}
