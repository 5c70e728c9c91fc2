import PrewarmLintModel

/// Reads one input from byte chunks: undoes gzip, sniffs the format, and runs its decoder.
///
/// The library never decides where bytes come from: the caller reads a file, a pipe or a
/// network stream and hands the chunks over.
///
/// Usage:
/// ```swift
/// var reader = LogStreamReader(configuration: ReaderConfiguration(inputName: "device.log"))
/// try reader.read(chunk) { output in … }   // as often as there are chunks
/// try reader.finish { output in … }        // once, at the end
/// print(reader.format, reader.statistics)
/// ```
/// The first 64 KiB are held back to sniff the format (less if the input ends sooner), then
/// replayed into the decoder; after that nothing but the decoder's own bounded state is kept.
public struct LogStreamReader {
    /// The input's name, time inference and limits.
    public let configuration: ReaderConfiguration
    /// The format to use instead of sniffing (`--input-format`).
    public let forcedFormat: LogFormat?

    private enum Stage {
        case start
        case sniffing
        case decoding(any LogDecoder)
        case failed
    }

    private var stage = Stage.start
    private var sample: [UInt8] = []
    private var inflater: PipelinedInflater?
    private var finalStatistics: DecoderStatistics?
    private var decodedFormat: LogFormat?
    /// Lone carriage returns made line ends, for every format but the binary ones (decided with the format).
    private var lineEndings: LineEndings?
    /// The format the input's plan sniffed from the same head (``ReaderConfiguration/sniffedFormat``): this reader's
    /// alone, never handed to the readers of what the input holds (a document's regions, an archive's members).
    private let sniffedFormat: LogFormat?

    /// Creates a reader for one input.
    public init(configuration: ReaderConfiguration, format: LogFormat? = nil) {
        var configuration = configuration
        sniffedFormat = configuration.sniffedFormat
        configuration.sniffedFormat = nil
        self.configuration = configuration
        self.forcedFormat = format
    }

    /// The input's format, once known.
    public var format: LogFormat? { decodedFormat }
    /// Whether the input was gzip-compressed.
    public var isCompressed: Bool { inflater != nil }
    /// A judge of the lines still to come for a thread reading the input ahead of this reader (``RecordPrescan``):
    /// the decoder's, once the format is known, for an input that is not compressed (the judge reads the input's own
    /// bytes, at the offsets the decoder sees). Nil otherwise.
    package func makePrescanner() -> (any LinePrescanner)? {
        guard inflater == nil, case .decoding(let decoder) = stage else { return nil }
        return decoder.makePrescanner()
    }

    /// Counts for the input's summary (final after ``finish(emit:)``).
    public var statistics: DecoderStatistics {
        if let finalStatistics { return finalStatistics }
        if case .decoding(let decoder) = stage { return decoder.statistics }
        return DecoderStatistics()
    }

    /// Consumes the next chunk of the input.
    /// - Throws: ``ReaderError`` when the input is not a supported log or cannot be decompressed;
    ///   events already emitted stay valid, and further calls do nothing.
    public mutating func read(_ chunk: UnsafeRawBufferPointer, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        try read(chunk, offers: takesEveryRecord, emit: emit)
    }

    /// ``read(_:emit:)``, each record offered to `offers` before it is built when the configuration says so
    /// (``ReaderConfiguration/offersRecords``).
    package mutating func read(_ chunk: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        guard configuration.start == .beginning else {
            let start = configuration.start
            return try readFromStart(chunk, offers: offers) { emit($0.placed(at: start)) }
        }
        try readFromStart(chunk, offers: offers, emit: emit)
    }

    /// ``read(_:offers:emit:)``, the origins counted from the first byte read.
    private mutating func readFromStart(_ chunk: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        guard !chunk.isEmpty else { return }
        if case .start = stage {
            // gzip's magic number; also checked on a chunk of one byte by waiting for the second.
            if sample.count + chunk.count < 2 {
                sample.append(contentsOf: chunk)
                return
            }
            var head = sample
            head.append(contentsOf: chunk.prefix(2 - min(2, sample.count)))
            if head[0] == 0x1F, head[1] == 0x8B { inflater = PipelinedInflater() }
            stage = .sniffing
            if inflater != nil, !sample.isEmpty {
                let held = sample
                sample.removeAll()
                var failure: ReaderError?
                held.withUnsafeBytes { bytes in
                    do throws(ReaderError) { try inflate(bytes, offers: offers, emit: emit) } catch { failure = error }
                }
                if let failure { throw failure }
            }
        }
        if inflater != nil {
            try inflate(chunk, offers: offers, emit: emit)
        } else {
            try decompressed(chunk, offers: offers, emit: emit)
        }
    }

    /// Ends the input.
    /// - Throws: ``ReaderError`` when the input was not a supported log.
    public mutating func finish(emit: (ReaderOutput) -> Void) throws(ReaderError) {
        try finish(offers: takesEveryRecord, emit: emit)
    }

    /// ``finish(emit:)``, offering as ``read(_:offers:emit:)`` does.
    package mutating func finish(offers: RecordOffers, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        guard configuration.start == .beginning else {
            let start = configuration.start
            return try finishFromStart(offers: offers) { emit($0.placed(at: start)) }
        }
        try finishFromStart(offers: offers, emit: emit)
    }

    /// The input paused: a live stream has sent nothing for a while (`endingRecords`), or has kept sending for a while
    /// without the format being known. A format still being sniffed is decided from the complete lines held, when they
    /// are enough; when `endingRecords`, a record that further lines could continue ends (the decoder's
    /// `decodePause`). Reading goes on with the next chunk as if there had been no pause, but for those two.
    public mutating func pause(endingRecords: Bool = true, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        try pause(endingRecords: endingRecords, offers: takesEveryRecord, emit: emit)
    }

    /// ``pause(endingRecords:emit:)``, offering as ``read(_:offers:emit:)`` does; when `keepsUnfinished`, a record
    /// whose text so far leaves a bracket or a quote open (``LogDecoder/openRecordLooksUnfinished``) is not ended: a
    /// short pause may fall inside a record a slow link split.
    /// Whether the record being read leaves a bracket or a quote open (``LogDecoder/openRecordLooksUnfinished``).
    var openRecordLooksUnfinished: Bool {
        guard case .decoding(let decoder) = stage else { return false }
        return decoder.openRecordLooksUnfinished
    }

    package mutating func pause(endingRecords: Bool, keepsUnfinished: Bool = false, offers: RecordOffers,
                                emit: (ReaderOutput) -> Void) throws(ReaderError) {
        guard configuration.start == .beginning else {
            let start = configuration.start
            return try pauseFromStart(endingRecords: endingRecords, keepsUnfinished: keepsUnfinished, offers: offers) { emit($0.placed(at: start)) }
        }
        try pauseFromStart(endingRecords: endingRecords, keepsUnfinished: keepsUnfinished, offers: offers, emit: emit)
    }

    private mutating func pauseFromStart(endingRecords: Bool, keepsUnfinished: Bool, offers: RecordOffers,
                                         emit: (ReaderOutput) -> Void) throws(ReaderError) {
        if case .sniffing = stage, inflater == nil, !sample.isEmpty,
           sample.withUnsafeBytes({ head in
               let allowsDocument = !configuration.isDocumentRegion
               if !FormatSniffer.isBinary(head), let normalized = LineEndings.normalizedSample(head, isComplete: false) {
                   return normalized.withUnsafeBytes { FormatSniffer.sniff($0, isComplete: false, allowsDocument: allowsDocument, fragmentsDecide: false) }
               }
               return FormatSniffer.sniff(head, isComplete: false, allowsDocument: allowsDocument, fragmentsDecide: false)
           }) != nil {
            try startDecoding(isComplete: false, offers: offers, emit: emit)
        }
        guard endingRecords, case .decoding(var decoder) = stage, !(keepsUnfinished && decoder.openRecordLooksUnfinished) else { return }
        stage = .failed  // keep the existential uniquely referenced while it decodes
        decoder.decodePause(keepsUnfinished: keepsUnfinished, offers: offers, emit: emit)
        stage = .decoding(decoder)
    }

    /// ``finish(offers:emit:)``, the origins counted from the first byte read.
    private mutating func finishFromStart(offers: RecordOffers, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        if case .start = stage { stage = .sniffing }
        if case .sniffing = stage {
            try startDecoding(isComplete: true, offers: offers, emit: emit)
        }
        guard case .decoding(var decoder) = stage else { return }
        lineEndings?.finish { decoder.decode($0, offers: offers, emit: emit) }
        decoder.decodeLast(offers: offers, emit: emit)
        if let reason = decoder.endsUnread {
            finalStatistics = decoder.statistics
            // Not a log after all: no format is reported for it.
            decodedFormat = nil
            stage = .failed
            throw ReaderError(code: .unrecognizedFormat, input: configuration.inputName,
                              message: "not a recognized log format: \(reason) (see `prewarm-lint formats`)")
        }
        // What the gzip stream's end says, if anything: cut short, or padded with zeros (nothing lost).
        var note: ReaderDiagnostic?
        let origin = EventOrigin(input: configuration.inputName, line: decoder.statistics.lines, byteOffset: 0)
        if let inflater, !inflater.isAtStreamEnd {
            note = ReaderDiagnostic(code: .truncatedInput, severity: .warning, message: "gzip stream ends early; the input is cut short",
                                    origin: origin, lineCount: 0)
        } else if let inflater, inflater.trailingZeroBytes > 0 {
            note = ReaderDiagnostic(code: .gzipPadding, severity: .note,
                                    message: "\(inflater.trailingZeroBytes) bytes of zeros after the last gzip member were passed over (padding)",
                                    origin: origin, lineCount: 0)
        }
        var statistics = decoder.statistics
        if let lineEndings, lineEndings.loneCarriageReturns > 0, let first = lineEndings.firstLoneCarriageReturn {
            let count = lineEndings.loneCarriageReturns
            let lineEnds = ReaderDiagnostic(
                code: .lineEndings, severity: .note,
                message: "\(count) carriage return\(count == 1 ? "" : "s") without a line feed (the first at byte \(first)) read as line end\(count == 1 ? "" : "s")",
                origin: EventOrigin(input: configuration.inputName, line: 0, byteOffset: first), lineCount: 0)
            statistics.count(lineEnds)
            emit(.diagnostic(lineEnds))
        }
        if let note {
            statistics.count(note)
            emit(.diagnostic(note))
        }
        finalStatistics = statistics
        stage = .failed
    }

    private mutating func inflate(_ chunk: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        guard let inflater else { return }
        var failure: ReaderError?
        do throws(GzipInflater.Failure) {
            try inflater.inflate(chunk) { bytes in
                do throws(ReaderError) { try decompressed(bytes, offers: offers, emit: emit) } catch { failure = error }
                return failure == nil
            }
        } catch {
            guard case .corrupt(let reason) = error else { return }
            // What was decoded before the corruption stands, and is counted as read.
            if case .decoding(let decoder) = stage { finalStatistics = decoder.statistics }
            stage = .failed
            throw ReaderError(code: .corruptCompression, input: configuration.inputName,
                              message: "gzip data is corrupt (\(reason)); nothing after that point was read")
        }
        if let failure { throw failure }
    }

    private mutating func decompressed(_ chunk: UnsafeRawBufferPointer, offers: RecordOffers, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        switch stage {
        case .start, .sniffing:
            stage = .sniffing
            if forcedFormat == nil, sample.count + chunk.count < FormatSniffer.sampleSize {
                sample.append(contentsOf: chunk)
                return
            }
            // Only what the sniffer reads is held (none when the format is given): the rest of the chunk, however
            // large, is decoded where it lies.
            let held = forcedFormat == nil ? max(0, FormatSniffer.sampleSize - sample.count) : 0
            sample.append(contentsOf: chunk.prefix(held))
            try startDecoding(isComplete: false, offers: offers, emit: emit)
            if held < chunk.count { try decompressed(chunk.slice(held, chunk.count), offers: offers, emit: emit) }
        case .decoding(var decoder):
            stage = .failed  // keep the existential uniquely referenced while it decodes
            if lineEndings != nil {
                lineEndings!.normalize(chunk) { decoder.decode($0, offers: offers, emit: emit) }
            } else {
                decoder.decode(chunk, offers: offers, emit: emit)
            }
            stage = .decoding(decoder)
        case .failed:
            return
        }
    }

    private mutating func startDecoding(isComplete: Bool, offers: RecordOffers, emit: (ReaderOutput) -> Void) throws(ReaderError) {
        var held = sample
        sample = []
        let format: LogFormat
        // Every format but the binary ones reads its lines with lone carriage returns made line ends, its sample too.
        let binary = forcedFormat.map { $0 == .tarArchive || $0 == .binaryPlist || $0 == .unifiedLog }
            ?? held.withUnsafeBytes { FormatSniffer.isBinary($0) || FormatSniffer.isUnifiedLog($0) }
        if !binary {
            // The normalizer goes on from the sample's end: a `\r` held there, the lone ones counted.
            var lineEndings = LineEndings()
            if let normalized = held.withUnsafeBytes({ lineEndings.normalizedSample($0, isComplete: isComplete) }) { held = normalized }
            self.lineEndings = lineEndings
        }
        if let forcedFormat {
            format = forcedFormat
        } else if let sniffed = sniffedFormat
                    ?? held.withUnsafeBytes({ FormatSniffer.sniff($0, isComplete: isComplete, allowsDocument: !configuration.isDocumentRegion) }) {
            format = sniffed
        } else {
            stage = .failed
            let what = held.isEmpty ? "the input is empty" : "no line of its first \(min(held.count, FormatSniffer.sampleSize)) bytes looks like a supported log"
            throw ReaderError(code: .unrecognizedFormat, input: configuration.inputName,
                              message: "not a recognized log format: \(what) (see `prewarm-lint formats`; use --input-format to force one)")
        }
        if format == .tarArchive, configuration.archiveDepth > configuration.limits.maximumArchiveNesting {
            stage = .failed
            throw ReaderError(code: .nestedTooDeep, input: configuration.inputName,
                              message: "an archive nested more than \(configuration.limits.maximumArchiveNesting) deep: not read")
        }
        decodedFormat = format
        var decoder = held.withUnsafeBytes { LogStreamReader.makeDecoder(format, sample: $0, configuration: configuration) }
        held.withUnsafeBytes { decoder.decode($0, offers: offers, emit: emit) }
        stage = .decoding(decoder)
    }

    /// The decoder for a format. `sample` is the start of the input, which the Console copy
    /// decoder learns its column layout from.
    static func makeDecoder(_ format: LogFormat, sample: UnsafeRawBufferPointer, configuration: ReaderConfiguration) -> any LogDecoder {
        switch format {
        case .logShow: TextLogDecoder(grammar: .logShow(LogShowGrammar()), configuration: configuration)
        case .logShowCompact: TextLogDecoder(grammar: .logShowCompact(LogShowCompactGrammar()), configuration: configuration)
        case .logShowSyslog: TextLogDecoder(grammar: .logShowSyslog(LogShowSyslogGrammar()), configuration: configuration)
        case .xcodeConsole: TextLogDecoder(grammar: .xcodeConsole(XcodeConsoleGrammar()), configuration: configuration)
        case .idevicesyslog: TextLogDecoder(grammar: .idevicesyslog(IDeviceSyslogGrammar()), configuration: configuration)
        case .pymobiledevice3: TextLogDecoder(grammar: .pymobiledevice3(PyMobileDevice3Grammar()), configuration: configuration)
        case .consoleCopy:
            TextLogDecoder(grammar: .consoleCopy(ConsoleCopyGrammar(layout: ConsoleColumnLayout.detect(from: sample))), configuration: configuration)
        case .logShowNDJSON, .pymobiledevice3JSON, .unifiedLogIterator:
            NDJSONLogDecoder(format: format, configuration: configuration)
        case .logShowJSON:
            JSONArrayLogDecoder(configuration: configuration)
        case .plist:
            XMLLogDecoder.plist(configuration: configuration)
        case .binaryPlist:
            BinaryPlistLogDecoder(configuration: configuration)
        case .xctrace:
            XMLLogDecoder.xctrace(configuration: configuration)
        case .crashReport:
            IPSReportDecoder(configuration: configuration)
        case .crashReportText:
            CrashReportTextDecoder(configuration: configuration)
        case .metricKit:
            MetricKitDecoder(configuration: configuration)
        case .document:
            DocumentDecoder(configuration: configuration)
        case .tarArchive:
            TarArchiveDecoder(configuration: configuration)
        case .unifiedLog, .logArchive:
            TraceV3LogDecoder(configuration: configuration)
        }
    }
}
