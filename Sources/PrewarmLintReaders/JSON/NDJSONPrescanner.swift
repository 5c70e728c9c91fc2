import PrewarmLintModel

/// Judges the lines of a chunk of an ndjson input (`log show --style ndjson`, pymobiledevice3 json, unifiedlog
/// iterator jsonl) the way its decoder would, for a thread reading ahead of it: each complete line the decoder would
/// only count becomes a ``PrescannedSkip``.
///
/// Chunks are judged independently, at any offset: only the lines that begin and end inside a chunk are judged
/// (the first is judged only when the chunk starts a line), each as the decoder's framer would hand it over (without
/// `\n` and a `\r` before it; a line longer than the decoder's limit is never judged). The decoder's state is not
/// needed: what may depend on it leaves the line unjudged (a year to infer, invalid UTF-8 to report, a filter's
/// answer that follows the consumer — unless it depends only on whether a pid is learnt, which the decoder asks when it
/// reaches the line), and what the decoder's resolver infers of a judged line's time it infers when it passes over it.
///
/// Unchecked `Sendable`: made on the decoder's thread and then used by the judging thread alone.
package struct NDJSONPrescanner: LinePrescanner, @unchecked Sendable {
    private var decoder: NDJSONLogDecoder
    private let maximumLineLength: Int

    /// A prescanner for `format`'s decoder with `configuration` (the decoder's own), judging with its record filter's
    /// ahead filter (``RecordFilter/makeAheadFilter()``); nil for a format that is not ndjson, or a configuration
    /// without such a filter.
    package init?(format: LogFormat, configuration: ReaderConfiguration) {
        switch format {
        case .logShowNDJSON, .pymobiledevice3JSON, .unifiedLogIterator: break
        default: return nil
        }
        guard let ahead = configuration.recordFilter?.makeAheadFilter() else { return nil }
        var own = configuration
        own.prescan = nil
        own.archiveEntryExtractor = nil
        let refusals = AheadRefusals(ahead)
        own.recordFilter = refusals
        decoder = NDJSONLogDecoder(format: format, configuration: own)
        decoder.aheadRefusals = refusals
        // The decoder's framer keeps this many bytes of a line whole.
        maximumLineLength = LineFramer(maximumLineLength: configuration.limits.maximumRecordLength).maximumLineLength
    }

    /// Judges the complete lines of `chunk`, which starts `byteOffset` bytes into the input (at the start of a line when
    /// `startsLine`), and appends those the decoder would only count to `skips`, in order. Returns how many bytes the
    /// lines judged skippable hold.
    package mutating func judge(_ chunk: UnsafeRawBufferPointer, at byteOffset: Int, startsLine: Bool) -> ChunkJudgement {
        var judgement = ChunkJudgement()
        judgement.skips.reserveCapacity(1024)
        Self.forEachLine(in: chunk, at: byteOffset, startsLine: startsLine, maximumLineLength: maximumLineLength) { line, length in
            if let skip = decoder.prescan(line) {
                judgement.skips.append(skip)
                judgement.judgedBytes += length
                judgement.judgedLines += 1
            }
        }
        return judgement
    }
}

/// The record filter of a prescanner's own decoder: it asks the ahead filter, refuses what the ahead filter says
/// is refused (whatever is learnt, or unless a pid is learnt), and remembers, for the line being judged, on which
/// pid its refusal depends.
final class AheadRefusals: RecordFilter, @unchecked Sendable {
    private let ahead: any AheadRecordFilter
    /// The pid the last refusal depends on, since ``reset()``.
    private(set) var unlessLearnt: Int?

    init(_ ahead: any AheadRecordFilter) {
        self.ahead = ahead
    }

    func reset() {
        unlessLearnt = nil
    }

    func admits(process: String, pid: Int?, firstLine: UnsafeRawBufferPointer) -> Bool {
        switch ahead.judge(process: process, pid: pid, firstLine: firstLine) {
        case .admitted:
            return true
        case .refused:
            return false
        case .refusedUnlessLearnt(let pid):
            unlessLearnt = pid
            return false
        }
    }
}
