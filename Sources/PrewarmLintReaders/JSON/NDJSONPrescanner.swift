import PrewarmLintModel

/// Judges the lines of a chunk of an ndjson input (`log show --style ndjson`, pymobiledevice3 json, unifiedlog
/// iterator jsonl) the way its decoder would, for a thread reading ahead of it: each complete line the decoder would
/// only count becomes a ``PrescannedSkip``.
///
/// Chunks are judged independently, at any offset: only the lines that begin and end inside a chunk are judged
/// (the first is judged only when the chunk starts a line), each as the decoder's framer would hand it over (without
/// `\n` and a `\r` before it; a line longer than the decoder's limit is never judged). The decoder's state is not
/// needed: what may depend on it leaves the line unjudged (a year to infer, invalid UTF-8 to report, an answer that
/// follows what the caller learns — unless it depends only on whether a pid is learnt, which the decoder offers when it
/// reaches the line), and what the decoder's resolver infers of a judged line's time it infers when it passes over it.
///
/// Unchecked `Sendable`: made on the decoder's thread and then used by the judging thread alone.
package struct NDJSONPrescanner: LinePrescanner, @unchecked Sendable {
    private var decoder: NDJSONLogDecoder
    private let maximumLineLength: Int

    /// A prescanner for `format`'s decoder with `configuration` (the decoder's own); nil for a format that is not
    /// ndjson, or a configuration that offers no record (``ReaderConfiguration/offersRecords``).
    package init?(format: LogFormat, configuration: ReaderConfiguration) {
        switch format {
        case .logShowNDJSON, .pymobiledevice3JSON, .unifiedLogIterator: break
        default: return nil
        }
        guard configuration.offersRecords else { return nil }
        var own = configuration
        own.prescan = nil
        own.archiveEntryExtractor = nil
        decoder = NDJSONLogDecoder(format: format, configuration: own)
        // The decoder's framer keeps this many bytes of a line whole.
        maximumLineLength = LineFramer(maximumLineLength: configuration.limits.maximumRecordLength).maximumLineLength
    }

    /// Judges the complete lines of `chunk`, which starts `byteOffset` bytes into the input (at the start of a line when
    /// `startsLine`), with `judge`, and appends those the decoder would only count to the judgement's skips, in order.
    package mutating func judge(_ chunk: UnsafeRawBufferPointer, at byteOffset: Int, startsLine: Bool, with judge: AheadJudge) -> ChunkJudgement {
        var judgement = ChunkJudgement()
        judgement.skips.reserveCapacity(1024)
        Self.forEachLine(in: chunk, at: byteOffset, startsLine: startsLine, maximumLineLength: maximumLineLength) { line, length in
            if let skip = decoder.prescan(line, judge: judge) {
                judgement.skips.append(skip)
                judgement.judgedBytes += length
                judgement.judgedLines += 1
            }
        }
        return judgement
    }
}
