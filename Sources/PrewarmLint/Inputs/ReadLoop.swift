import PrewarmLintReaders
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a reading's bytes come from, a chunk at a time: the one read loop's side of an input (``ReadLoop``).
enum ByteOrigin {
    /// A descriptor read from where it is: a file, a FIFO, standard input.
    case descriptor(Int32)
    /// A tool's output: each read waits for bytes, or for the tool's end, half a second at a time (so that an
    /// interruption is seen), and then for what it left behind.
    case toolOutput(Int32, tool: pid_t)
    /// A part of a pasted document, read at its offsets (so that parts are read on several threads at once), from
    /// `start` to `end` (its end when nil).
    case part(DocumentBytes, start: Int, end: Int?)
}

/// The one read loop every input goes through: bytes from a ``ByteOrigin`` into a `LogStreamReader`, a chunk at a time,
/// until the end, a failed read, or the run's interruption — the bytes already read first (standard input's head),
/// and a regular file's chunks lent by the thread that judged them ahead (`ScanAhead`) when it has them.
///
/// The loop does not end the reader: what an end means is the caller's (an interrupted input not begun is not an
/// empty log).
struct ReadLoop {
    /// How a loop ended.
    enum End: Equatable {
        /// The origin's end.
        case end
        /// The run was interrupted.
        case interrupted
        /// A read or a seek failed: why.
        case failed(String)
    }

    var origin: ByteOrigin
    /// Bytes already read from the origin, read first (standard input's head, read to tell a pasted document).
    var head: [UInt8] = []
    /// Chunks read ahead by another thread, lent at their offsets (a regular file's), and started once the format is
    /// known (`startScanningAhead`).
    var scanAhead: ScanAhead?
    /// Bytes handed to the reader so far.
    private(set) var bytesRead = 0
    /// Whether any byte was handed to the reader.
    private(set) var readAny = false
    /// The tool's exit status, once it was reaped while its output was read.
    private(set) var toolStatus: Int32?

    init(origin: ByteOrigin) {
        self.origin = origin
    }

    /// Reads until the end, a failure or an interruption (`interruption`), each chunk into `reader` with
    /// `offers` and `emit`; `beforeChunk` is told the count of bytes read once the next chunk is in (an archive's
    /// extractor places its entries by it), `afterChunk` after the reader had it (where reading ahead starts).
    mutating func run(into reader: inout LogStreamReader, buffer: UnsafeMutableRawBufferPointer, interruption: Interruption?,
                      offers: RecordOffers, emit: (ReaderOutput) -> Void, beforeChunk: (Int) -> Void = { _ in },
                      afterChunk: (inout LogStreamReader, Int) -> Void = { _, _ in }) throws(ReaderError) -> End {
        if !head.isEmpty {
            readAny = true
            var at = 0
            while at < head.count {
                let count = min(buffer.count, head.count - at)
                head[at..<(at + count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
                try reader.read(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), offers: offers, emit: emit)
                at += count
            }
            bytesRead += head.count
            head = []
        }
        while true {
            if interruption?.isRaised == true { return .interrupted }
            if let scanAhead, case .descriptor(let descriptor) = origin, let lent = scanAhead.lend(at: bytesRead) {
                defer { scanAhead.giveBack(lent) }
                readAny = true
                try reader.read(UnsafeRawBufferPointer(lent), offers: offers, emit: emit)
                bytesRead += lent.count
                guard lseek(descriptor, off_t(bytesRead), SEEK_SET) == off_t(bytesRead) else {
                    return .failed("seek failed: \(String(cString: strerror(errno)))")
                }
                continue
            }
            guard let count = next(into: buffer) else { continue }
            if count < 0 { return .failed("read failed: \(String(cString: strerror(errno)))") }
            if count == 0 { return .end }
            readAny = true
            beforeChunk(bytesRead + count)
            try reader.read(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), offers: offers, emit: emit)
            bytesRead += count
            afterChunk(&reader, bytesRead)
        }
    }

    /// The next read into `buffer`: its count (0 at the end, less than 0 on a failure, `errno` saying why), or nil to
    /// ask again (a signal came, or a tool has no output yet: the loop checks for an interruption first).
    private mutating func next(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        switch origin {
        case .descriptor(let descriptor):
            let count = SystemCall.read(descriptor, buffer.baseAddress, buffer.count)
            return count < 0 && errno == EINTR ? nil : count
        case .toolOutput(let descriptor, let tool):
            if toolStatus == nil, !InputReader.awaitOutput(descriptor, of: tool, status: &toolStatus) { return nil }
            let count = SystemCall.read(descriptor, buffer.baseAddress, buffer.count)
            return count < 0 && errno == EINTR ? nil : count
        case .part(let bytes, let start, let end):
            let offset = start + bytesRead
            let wanted = end.map { min(buffer.count, $0 - offset) } ?? buffer.count
            return wanted <= 0 ? 0 : bytes.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
        }
    }
}
