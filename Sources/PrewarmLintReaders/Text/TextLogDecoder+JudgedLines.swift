import PrewarmLintModel

/// Lines judged ahead by another thread (`TextPrescanner`, `ScanAhead`): a chunk's table of lines, each record head
/// of a skipped process or refused by the judge taken as judged, without classifying it, naming its process or
/// offering it again.
extension TextLogDecoder {
    func makePrescanner() -> (any LinePrescanner)? {
        // Columns read by their shape complete a head from names the input showed before it: judged ahead, a line would
        // not know them.
        guard grammar.guessNote == nil else { return nil }
        return TextPrescanner(grammar: grammar, configuration: configuration, maximumLineLength: maximumLineLength)
    }

    /// A chunk whose lines were framed and judged ahead (`TextPrescanner`): the bytes before its first complete line
    /// end the line carried over and go through the framer, as do those after its last; each complete line is handed
    /// over from the table, and a judged one taken as judged (``startJudgedRecord(_:_:table:offers:emit:)``).
    mutating func decodeJudged(_ bytes: UnsafeRawBufferPointer, table: TextLineTable, offers: RecordOffers,
                                       emit: (ReaderOutput) -> Void) {
        if table.firstLineStart > 0 { feedLines(bytes.slice(0, table.firstLineStart), offers: offers, emit: emit) }
        for entry in table.entries {
            let start = Int(entry.start)
            let line = framer.passLine(bytes.slice(start, start + Int(entry.length)), breakLength: Int(entry.breakLength))
            if entry.kind == .line || incompleteHead != nil {
                handle(line, truncated: false, offers: offers, emit: emit)
            } else {
                startJudgedRecord(line, entry, table: table, offers: offers, emit: emit)
            }
        }
        if table.end < bytes.count { feedLines(bytes.slice(table.end, bytes.count), offers: offers, emit: emit) }
    }

    /// A line judged to start a record of a skipped process, or one the judge refused (unless its pid is learnt by
    /// now, which is offered to the caller): what ``handle(_:truncated:offers:emit:)`` and
    /// ``startRecord(in:lines:offers:emit:)`` do with it, without classifying it, naming its process or offering it.
    mutating func startJudgedRecord(_ line: ByteLine, _ entry: TextLineTable.Entry, table: TextLineTable,
                                            offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        statistics.lines += 1
        flushPending(offers: offers, emit: emit)
        flushOrphans(emit: emit)
        if !guessSaid { sayGuess(at: line, emit: emit) }
        let bytes = line.bytes
        let judgedTime = table.times[Int(entry.time)]
        guard let time = resolver.advance(past: judgedTime.time) else {
            discardRecord(line, timeText: Int(judgedTime.text.lowerBound)..<Int(judgedTime.text.upperBound), lines: 1)
            return
        }
        if resolver.hasNotes { reportNotes(line, emit: emit) }
        if preMain?.isOpen == true { endPreMainStatistics(at: line, head: table.heads[Int(entry.head)], time: time, emit: emit) }
        statistics.eventLines += 1
        if entry.kind == .skippedProcess {
            open = .skipped
            statistics.events += 1
            statistics.eventsSkipped += 1
            return
        }
        var learnt = false
        if entry.learntPID >= 0 {
            var question = RecordOffer.askingLearnt(Int(entry.learntPID))
            learnt = offers(&question)
        }
        if !learnt {
            // The judged head goes straight to the held record (through `head`, it was copied twice, on most lines of a
            // device's day).
            held.head = table.heads[Int(entry.head)]
            hold(line, time: time)
            return
        }
        // Learnt since it was judged: built, as the caller now takes it.
        head = table.heads[Int(entry.head)]
        var process = ""
        if let range = head.process, !range.isEmpty { process = processNames.text(for: bytes.slice(range.lowerBound, range.upperBound)) }
        buildStarted(line, time: time, process: process, invalid: false)
    }
}
