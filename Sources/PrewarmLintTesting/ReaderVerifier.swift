public import PrewarmLint

/// Proves a reader streams correctly: the same input, whole and drip-fed in chunks, must give
/// the same events, diagnostics and counts, and every line must be accounted for.
///
/// Modelled on swift-nio's `ByteToMessageDecoderVerifier`. It throws a descriptive
/// ``ReaderVerifierError`` rather than failing a test itself, so it works from Swift Testing,
/// XCTest or a script.
///
/// Usage:
/// ```swift
/// try ReaderVerifier.verify(bytes, configuration: ReaderConfiguration(inputName: "log.txt"))
/// ```
public enum ReaderVerifier {
    /// The chunk sizes every reader is checked with, besides the whole input at once.
    public static let chunkSizes = [1, 2, 3, 7, 64]

    /// Everything a reader produced for one input.
    public struct Outcome: Sendable, Equatable {
        /// The format read.
        public var format: LogFormat?
        /// The events, in order.
        public var events: [LogEvent] = []
        /// The diagnostics, in order.
        public var diagnostics: [ReaderDiagnostic] = []
        /// dyld's launch statistics read, in order.
        public var preMainStatistics: [PreMainStatistics] = []
        /// Lines read alone, as fragments, in order.
        public var fragments: [LogFragment] = []
        /// Where each part of the input that is a capture of its own began (a document's blocks).
        public var partStarts: [EventOrigin] = []
        /// The reader's counts.
        public var statistics = DecoderStatistics()
        /// Why the input could not be read, if it could not.
        public var failure: ReaderError?
    }

    /// Reads `bytes` in chunks of `chunkSize` (nil: all at once).
    public static func read(_ bytes: [UInt8], configuration: ReaderConfiguration, format: LogFormat? = nil, chunkSize: Int? = nil) -> Outcome {
        read(bytes, configuration: configuration, format: format, chunkSize: chunkSize, offers: takesEveryRecord)
    }

    /// ``read(_:configuration:format:chunkSize:)``, each record offered to `offers` when the configuration offers them.
    package static func read(_ bytes: [UInt8], configuration: ReaderConfiguration, format: LogFormat? = nil, chunkSize: Int? = nil,
                             offers: RecordOffers) -> Outcome {
        let size = max(1, chunkSize ?? max(1, bytes.count))
        return read(bytes, configuration: configuration, format: format, cuts: Array(stride(from: size, to: bytes.count, by: size)), offers: offers)
    }

    /// Reads `bytes` cut at the offsets `cuts` (ascending), each piece handed over in one buffer that is overwritten as
    /// soon as the reader returns, as a file reader's buffer is by its next read: a reader that kept a pointer into a
    /// piece it was given, past the call, reads garbage and its outcome differs.
    public static func read(_ bytes: [UInt8], configuration: ReaderConfiguration, format: LogFormat? = nil, cuts: [Int]) -> Outcome {
        read(bytes, configuration: configuration, format: format, cuts: cuts, offers: takesEveryRecord)
    }

    /// ``read(_:configuration:format:cuts:)``, each record offered to `offers` when the configuration offers them.
    package static func read(_ bytes: [UInt8], configuration: ReaderConfiguration, format: LogFormat? = nil, cuts: [Int],
                             offers: RecordOffers) -> Outcome {
        var outcome = Outcome()
        var reader = LogStreamReader(configuration: configuration, format: format)
        let emit: (ReaderOutput) -> Void = { output in
            switch output {
            case .event(let event): outcome.events.append(event)
            case .diagnostic(let diagnostic): outcome.diagnostics.append(diagnostic)
            case .preMainStatistics(let statistics): outcome.preMainStatistics.append(statistics)
            case .fragment(let fragment): outcome.fragments.append(fragment)
            case .partStart(let origin): outcome.partStarts.append(origin)
            }
        }
        var pieces: [Range<Int>] = []
        var start = 0
        for end in cuts + [bytes.count] where end > start && end <= bytes.count {
            pieces.append(start..<end)
            start = end
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, pieces.map(\.count).max() ?? 1), alignment: 16)
        defer { buffer.deallocate() }
        do throws(ReaderError) {
            for piece in pieces {
                let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<piece.count])
                chunk.copyBytes(from: bytes[piece])
                defer { chunk.initializeMemory(as: UInt8.self, repeating: overwrittenByte) }
                try reader.read(UnsafeRawBufferPointer(chunk), offers: offers, emit: emit)
            }
            try reader.finish(offers: offers, emit: emit)
        } catch {
            outcome.failure = error
        }
        outcome.format = reader.format
        outcome.statistics = reader.statistics
        return outcome
    }

    /// What a piece's buffer is filled with once the reader is done with it: a byte no format's syntax starts with.
    static let overwrittenByte = UInt8(ascii: "~")

    /// Reads `bytes` whole and at every chunk size in ``chunkSizes``, and checks the outcomes agree,
    /// that origins never go backwards, and that every line is an event line, a skipped line or
    /// covered by a diagnostic.
    /// - Returns: the outcome of reading the whole input at once.
    @discardableResult
    public static func verify(_ bytes: [UInt8], configuration: ReaderConfiguration, format: LogFormat? = nil) throws -> Outcome {
        let whole = read(bytes, configuration: configuration, format: format)
        for size in chunkSizes {
            let chunked = read(bytes, configuration: configuration, format: format, chunkSize: size)
            if chunked != whole {
                throw ReaderVerifierError(message: describeDifference(whole, chunked, chunkSize: size))
            }
        }
        var previous = -1
        for event in whole.events {
            if event.origin.byteOffset < previous {
                throw ReaderVerifierError(message: "event at \(event.origin) starts before the previous event (byte \(event.origin.byteOffset) < \(previous))")
            }
            previous = event.origin.byteOffset
        }
        if whole.failure == nil {
            let statistics = whole.statistics
            let accounted = statistics.eventLines + statistics.skipped.values.reduce(0, +) + statistics.diagnosedLines
            if accounted != statistics.lines {
                throw ReaderVerifierError(message: """
                    \(statistics.lines) lines read but \(accounted) accounted for \
                    (\(statistics.eventLines) in events, \(statistics.skipped) skipped, \(statistics.diagnosedLines) in diagnostics)
                    """)
            }
        }
        return whole
    }

    private static func describeDifference(_ whole: Outcome, _ chunked: Outcome, chunkSize: Int) -> String {
        var text = "reading in chunks of \(chunkSize) bytes differs from reading at once: "
        if whole.format != chunked.format { return text + "format \(String(describing: chunked.format)) != \(String(describing: whole.format))" }
        if whole.failure != chunked.failure { return text + "failure \(String(describing: chunked.failure)) != \(String(describing: whole.failure))" }
        for (index, (a, b)) in zip(whole.events, chunked.events).enumerated() where a != b {
            return text + "event \(index) differs:\n  whole:   \(a)\n  chunked: \(b)"
        }
        if whole.events.count != chunked.events.count { return text + "\(chunked.events.count) events != \(whole.events.count)" }
        for (index, (a, b)) in zip(whole.diagnostics, chunked.diagnostics).enumerated() where a != b {
            return text + "diagnostic \(index) differs:\n  whole:   \(a)\n  chunked: \(b)"
        }
        if whole.diagnostics.count != chunked.diagnostics.count { return text + "\(chunked.diagnostics.count) diagnostics != \(whole.diagnostics.count)" }
        text += "statistics \(chunked.statistics) != \(whole.statistics)"
        return text
    }
}

/// A mismatch found by ``ReaderVerifier``.
public struct ReaderVerifierError: Error, CustomStringConvertible {
    /// What differed.
    public var message: String
    /// What differed.
    public var description: String { message }
}
