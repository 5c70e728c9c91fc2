import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintSpool
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pasted document (an issue body with a crash report and a Console copy, one log pasted twice) cut into parts
/// (``DocumentPartition``) that ``SessionPipeline`` reads as inputs of their own and merges by time, as several files of
/// one device: what the blocks share is counted once, and a block is put in time order whatever its place in the
/// document.
///
/// A file is read once to be cut, then its parts at their offsets (it stays open while the document is kept). Standard
/// input that is a document is copied to a temporary file first, unlinked as soon as it is made, so nothing is left
/// behind however the run ends; standard input that is not one is read as it comes, its head (read to tell) handed to
/// its reader first. A paste in memory is cut where it lies.
package struct PastedDocument: Sendable {
    /// The document's bytes.
    let bytes: DocumentBytes
    /// The parts, in the document's order: two or more; one (the whole) for standard input holding one log, whose bytes
    /// are in the temporary file.
    private(set) var parts: [DocumentPartRead]
    /// The document's size in bytes.
    let size: Int
    /// What went wrong while standard input was copied, if anything (the document is read as far as it was copied).
    var problem: String?

    /// The parts of the file `input` names when it is a pasted document holding two logs or more; nil otherwise (and
    /// when it cannot be read: reading it as one input says why). `sniffed`: the format its head was sniffed as, for its
    /// reader (nil when not sniffed: compressed, forced, unreadable or no format).
    static func cut(file input: DiscoveredInput, options: ReadOptions) -> (document: PastedDocument?, sniffed: LogFormat?) {
        var sniffed: LogFormat?
        let document = cut(file: input, options: options, sniffed: &sniffed)
        return (document, sniffed)
    }

    private static func cut(file input: DiscoveredInput, options: ReadOptions, sniffed: inout LogFormat?) -> PastedDocument? {
        guard options.format == nil || options.format == .document, case .file(let path) = input.input else { return nil }
        // Only a regular file is cut: a FIFO is not opened here (its open would wait for a writer, and its bytes are read
        // once), nor is a device.
        var pathStatus = stat()
        guard FileSystemName.withPlatformPath(path, { stat($0, &pathStatus) }) == 0, (pathStatus.st_mode & S_IFMT) == S_IFREG else { return nil }
        let descriptor = FileSystemName.withPlatformPath(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        let file = OpenFile(descriptor: descriptor)
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return cut(.file(file), size: Int(status.st_size), referenceInstant: modificationInstant(status), options: options, keepsOneLog: false,
                   sniffed: &sniffed)
    }

    /// The parts of a paste held in memory, when it is a document holding two logs or more.
    package static func cut(bytes: [UInt8], options: ReadOptions) -> PastedDocument? {
        guard options.format == nil || options.format == .document else { return nil }
        var sniffed: LogFormat?
        return cut(.memory(bytes), size: bytes.count, referenceInstant: options.standardInputReferenceInstant, options: options,
                   keepsOneLog: false, sniffed: &sniffed)
    }

    /// Standard input, when it is a pasted document: copied to a temporary file and cut (one part when it holds one
    /// log). Otherwise nil, with the bytes read to tell (at most ``FormatSniffer/sampleSize``), which its reader must
    /// read first, and the format they were sniffed as (nil: compressed or no format), which its reader need not sniff
    /// again.
    static func cut(standardInput options: ReadOptions, temporaryDirectory: String? = nil)
        -> (document: PastedDocument?, head: [UInt8], sniffed: LogFormat?) {
        guard options.format == nil || options.format == .document else { return (nil, [], nil) }
        var head = [UInt8](repeating: 0, count: FormatSniffer.sampleSize)
        var count = 0, ended = false
        while count < head.count, options.interruption?.isRaised != true {
            let read = head.withUnsafeMutableBytes { SystemCall.read(0, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            if read <= 0 {
                ended = true
                break
            }
            count += read
        }
        head.removeSubrange(count...)
        let sniffed = head.withUnsafeBytes { sniff($0, isComplete: ended, options: options) }
        guard sniffed == .document, options.interruption?.isRaised != true, let file = try? SpoolFile(directory: temporaryDirectory) else {
            return (nil, head, sniffed)
        }
        var problem: String?
        do throws(SpoolFile.Failure) {
            var failure: SpoolFile.Failure?
            head.withUnsafeBytes { bytes in
                do throws(SpoolFile.Failure) { try file.append(bytes, what: "the temporary copy of standard input") } catch { failure = error }
            }
            if let failure { throw failure }
            let buffer = InputReader.allocateReadBuffer(byteCount: options.chunkSize)
            defer { buffer.deallocate() }
            while !ended, options.interruption?.isRaised != true {
                let read = SystemCall.read(0, buffer.baseAddress, buffer.count)
                if read < 0, errno == EINTR { continue }
                if read <= 0 { break }
                try file.append(UnsafeRawBufferPointer(rebasing: buffer[0..<read]), what: "the temporary copy of standard input")
            }
        } catch {
            problem = "\(error.description); standard input is read up to there"
        }
        var sniffedCopy: LogFormat?
        guard var document = cut(.spooled(file), size: file.byteCount, referenceInstant: options.standardInputReferenceInstant,
                                 options: options, keepsOneLog: true, sniffed: &sniffedCopy) else {
            // (Only when the copy cannot be read back.)
            return (nil, head, nil)
        }
        document.problem = problem
        return (document, [], nil)
    }

    /// The document's parts, read from `bytes`; nil when it is not a document of two logs (one log and `keepsOneLog`:
    /// the whole, one part).
    private static func cut(_ bytes: DocumentBytes, size: Int, referenceInstant: Int64?, options: ReadOptions,
                            keepsOneLog: Bool, sniffed: inout LogFormat?) -> PastedDocument? {
        let buffer = InputReader.allocateReadBuffer(byteCount: max(options.chunkSize, FormatSniffer.sampleSize))
        defer { buffer.deallocate() }
        // Its head decides whether it is a document at all, as the reader would sniff it.
        let head = bytes.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(size, FormatSniffer.sampleSize)]), at: 0)
        guard head > 0 else { return nil }
        sniffed = sniff(UnsafeRawBufferPointer(rebasing: buffer[0..<head]), isComplete: size <= FormatSniffer.sampleSize, options: options)
        guard sniffed == .document else { return nil }
        var partition = DocumentPartition(maximumLineLength: options.limits.maximumLineLength)
        // Cut as its parts' readers read them: lone carriage returns are line ends (a byte for a byte, so the parts'
        // offsets hold).
        var lineEndings = LineEndings()
        var offset = 0
        while offset < size {
            if options.interruption?.isRaised == true { break }
            let count = bytes.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, size - offset)]), at: offset)
            guard count > 0 else { return nil }
            lineEndings.normalize(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { partition.read($0) }
            offset += count
        }
        lineEndings.finish { partition.read($0) }
        var parts = partition.finish()
        if parts.isEmpty, keepsOneLog { parts = [DocumentPartition.Part(start: .beginning, end: nil)] }
        let repeats = partition.repeatedRegions
        guard parts.count >= 2 || (parts.count == 1 && (keepsOneLog || !repeats.isEmpty)) else { return nil }
        // A crash report of a process another block names dates the paste's undated logs, unless a date is given: a log
        // is dated nearest the report's time (within 12 hours either side of it).
        var reference = (instant: referenceInstant, description: String?.none)
        if options.timeInference.date == nil, options.timeInference.year == nil, let dated = partition.reportDate.date {
            reference = (dated.instant + 12 * 3_600_000_000,
                         "Date/Time of the crash report of pid \(dated.pid) at line \(dated.line) in the same paste")
        }
        return PastedDocument(bytes: bytes, parts: parts.map {
            DocumentPartRead(part: $0, bytes: bytes, referenceInstant: reference.instant, referenceDescription: reference.description,
                             repeatedRegions: repeats)
        }, size: size)
    }

    /// Whether an input whose first bytes are `head` is a pasted document, as its reader would sniff it (or is forced to
    /// be one); never a gzip stream.
    /// The format of an input's `head` as its reader would sniff it (its line endings made as the reader makes them):
    /// `document` when forced so; nil when empty, compressed (the reader sniffs the inflated bytes) or no format.
    private static func sniff(_ head: UnsafeRawBufferPointer, isComplete: Bool, options: ReadOptions) -> LogFormat? {
        guard !head.isEmpty, !(head.count >= 2 && head[0] == 0x1F && head[1] == 0x8B) else { return nil }
        if options.format == .document { return .document }
        guard !FormatSniffer.isBinary(head), let normalized = LineEndings.normalizedSample(head, isComplete: isComplete) else {
            return FormatSniffer.sniff(head, isComplete: isComplete)
        }
        return normalized.withUnsafeBytes { FormatSniffer.sniff($0, isComplete: isComplete) }
    }

    private static func modificationInstant(_ status: stat) -> Int64? {
        TimeInference.referenceInstant(modificationTime: status)
    }

    /// The document with its part `index` alone: to read each part on its own.
    func part(_ index: Int) -> PastedDocument {
        var one = self
        one.parts = [parts[index]]
        one.problem = nil
        return one
    }

    /// The bytes of each part, for starting the largest first.
    var partSizes: [Int] { parts.map { ($0.part.end ?? size) - $0.part.start.byteOffset } }

    /// How the report names a part: the document's lines it spans.
    func name(ofPart index: Int, in input: String) -> String {
        let first = parts[index].part.start.line
        return index + 1 < parts.count ? "\(input) lines \(first)–\(parts[index + 1].part.start.line - 1)" : "\(input) lines \(first)–"
    }
}
