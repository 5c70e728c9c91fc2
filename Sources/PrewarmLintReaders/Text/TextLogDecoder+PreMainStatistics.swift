import PrewarmLintModel

/// dyld's launch statistics in an Xcode console (``PreMainStatisticsReader``): a block between records, its lines no
/// record's, ended by the record after it, whose process it is about.
extension TextLogDecoder {
    /// Whether a line that starts no record is a line of dyld's launch statistics, taken as one: the record open ends
    /// before the block (its lines are not the record's message).
    mutating func takesPreMainStatistics(_ line: ByteLine, offers: RecordOffers, emit: (ReaderOutput) -> Void) -> Bool {
        let (taken, ended) = preMain!.take(line.bytes, number: line.number, byteOffset: line.byteOffset)
        if let ended { emit(.preMainStatistics(ended)) }
        guard taken else { return false }
        flushPending(offers: offers, emit: emit)
        flushOrphans(emit: emit)
        statistics.eventLines += 1
        return true
    }

    /// The statistics block open ends at the record `head` starts: the launch of that record's process, before its time.
    mutating func endPreMainStatistics(at line: ByteLine, head: TextRecordHead, time: TimestampResolver.ResolvedTime,
                                               emit: (ReaderOutput) -> Void) {
        guard var ended = preMain?.finish() else { return }
        if let pid = head.pid, let name = head.process, !name.isEmpty {
            let timestamp = time.timestamp(text: TimestampText(utf8: line.bytes.slice(head.timeText.lowerBound, head.timeText.upperBound)))
            ended.launch = PreMainStatistics.Launch(process: UTF8Text.decode(line.bytes.slice(name.lowerBound, name.upperBound)).text, pid: pid,
                                                    before: timestamp, evidence: origin(line.number, line.byteOffset))
        }
        emit(.preMainStatistics(ended))
    }
}
