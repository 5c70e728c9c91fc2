import PrewarmLintModel

/// A record's start: its head's time resolved, its process skipped, offered to the caller (and held when refused), or
/// built; a held record offered again whole at its end, and built when taken.
extension TextLogDecoder {
    /// Starts the record whose first line (or hard-wrapped head joined from two lines) the grammar has
    /// just written into `head`. A record not built (of a skipped process, or refused by the caller)
    /// costs no string, no timestamp text, and none of the fields the grammar left to be read.
    mutating func startRecord(in line: ByteLine, lines: Int, offers: RecordOffers, emit: (ReaderOutput) -> Void) {
        flushPending(offers: offers, emit: emit)
        flushOrphans(emit: emit)
        if !guessSaid { sayGuess(at: line, emit: emit) }
        if spacedNames != nil { spacedNames!.read(line.bytes, head: &head) }
        let bytes = line.bytes
        guard let time = resolver.advance(past: head.packedTime) else {
            discardRecord(line, timeText: head.timeText, lines: lines)
            return
        }
        if resolver.hasNotes { reportNotes(line, emit: emit) }
        if preMain?.isOpen == true { endPreMainStatistics(at: line, head: head, time: time, emit: emit) }
        // The name's text is taken from the table only for a record that is built; the offer carries the caller's note
        // on the name, kept with it in the table.
        var entry: ProcessNameTable.Entry?
        var invalid = false
        var skipped = false
        if let range = head.process, !range.isEmpty {
            var named = processNames.entry(for: bytes.slice(range.lowerBound, range.upperBound))
            invalid = !named.isValid
            skipped = processNames.isSkipped(&named) { skipping.skips(process: $0) }
            entry = named
        } else {
            skipped = skipping.skips(process: "")
        }
        statistics.eventLines += lines
        if skipped {
            open = .skipped
            statistics.events += 1
            statistics.eventsSkipped += 1
            return
        }
        // A record whose fields are not all ASCII is always built, so that invalid UTF-8 in them is reported
        // as before. The caller is shown the message with any prefixes still unread before it: more text
        // than the message, which may only make it take more.
        if skipping.offers, !invalid, head.fieldsAreASCII(in: bytes),
           refuses(entry: &entry, name: head.process.map { bytes.slice($0.lowerBound, $0.upperBound) }, pid: head.pid,
                   message: bytes.slice(head.message.lowerBound, head.message.upperBound), offers) {
            held.head = head
            hold(line, time: time)
            return
        }
        buildStarted(line, time: time, process: entry.map { processNames.text(of: $0) } ?? "", invalid: invalid)
    }

    /// Whether the caller refuses the record of the process of `entry` (nil: a record without a process name), whose
    /// name's bytes are `name`, when offered it: the caller's note on the name goes with the offer and is kept.
    @inline(__always)
    mutating func refuses(entry: inout ProcessNameTable.Entry?, name: UnsafeRawBufferPointer?, pid: Int?,
                                  message: UnsafeRawBufferPointer, _ offers: RecordOffers) -> Bool {
        var offer = RecordOffer(processName: name ?? UnsafeRawBufferPointer(start: nil, count: 0), pid: pid, message: message,
                                nameNote: entry?.note ?? 0)
        let taken = offers(&offer)
        if var named = entry {
            processNames.remember(note: offer.nameNote, for: &named)
            entry = named
        }
        return !taken
    }

    /// Builds the record `line` starts (its head in `head`), admitted on its first line.
    mutating func buildStarted(_ line: ByteLine, time: TimestampResolver.ResolvedTime, process: String, invalid: Bool) {
        let bytes = line.bytes
        head.completeFields(in: bytes)
        let timestamp = time.timestamp(text: TimestampText(utf8: bytes.slice(head.timeText.lowerBound, head.timeText.upperBound)))
        build(head, from: bytes, timestamp: timestamp, origin: origin(line.number, line.byteOffset), process: process, invalid: invalid)
    }

    /// A record whose time is not a real one: its lines are counted against a diagnostic.
    mutating func discardRecord(_ line: ByteLine, timeText range: Range<Int>, lines: Int) {
        let timeText = TimestampText(utf8: line.bytes.slice(range.lowerBound, range.upperBound))
        discarded = ReaderDiagnostic(code: .invalidTimestamp, severity: .warning,
                                     message: "'\(timeText.string)' is not a valid time; record skipped",
                                     origin: origin(line.number, line.byteOffset), lineCount: lines)
        open = .discarded
    }

    /// What the resolver inferred for the record `line` starts.
    mutating func reportNotes(_ line: ByteLine, emit: (ReaderOutput) -> Void) {
        for note in resolver.takeNotes() {
            let diagnostic = ReaderDiagnostic(code: .inferredTime, severity: .note, message: note,
                                              origin: origin(line.number, line.byteOffset), lineCount: 0)
            statistics.count(diagnostic)
            emit(.diagnostic(diagnostic))
        }
    }

    /// Holds the record `line` starts (its head in `held.head`), refused by the caller on its first line.
    mutating func hold(_ line: ByteLine, time: TimestampResolver.ResolvedTime) {
        held.hold(line, time: time, inChunk: chunk)
        open = .held
    }

    func origin(_ line: Int, _ byteOffset: Int) -> EventOrigin {
        EventOrigin(input: configuration.inputName, line: line, byteOffset: byteOffset)
    }

    /// Whether the caller refuses the held record with all its lines, offered again at its end.
    mutating func refusesWholeHeldRecord(_ offers: RecordOffers) -> Bool {
        assert(!held.firstLineIsInChunk, "offered again only with further lines, whose first one copied the held line")
        let head = held.head
        let kept = held.bytes
        return kept.withUnsafeBytes { bytes in
            var entry: ProcessNameTable.Entry?
            var name: UnsafeRawBufferPointer?
            if let range = head.process, !range.isEmpty {
                name = bytes.slice(range.lowerBound, range.upperBound)
                entry = processNames.entry(for: name!)
            }
            return refuses(entry: &entry, name: name, pid: head.pid, message: bytes.slice(head.message.lowerBound, bytes.count), offers)
        }
    }

    /// Builds the held record as if it had never been held, its further lines included. (Its own head:
    /// `head` may already hold the next record's, when the held one is built at its end.)
    mutating func buildHeld(emit: (ReaderOutput) -> Void) {
        assert(!held.firstLineIsInChunk, "built only after a further line came, which copied the held line")
        var head = held.head
        let kept = held.bytes
        kept.withUnsafeBytes { kept in
            let bytes = kept.slice(0, held.firstLineCount)
            // The process name again, from the same bytes.
            var process = ""
            if let range = head.process, !range.isEmpty {
                process = processNames.text(for: bytes.slice(range.lowerBound, range.upperBound))
            }
            head.completeFields(in: bytes)
            let text = TimestampText(utf8: bytes.slice(head.timeText.lowerBound, head.timeText.upperBound))
            build(head, from: bytes, timestamp: held.time!.timestamp(text: text), origin: origin(held.line, held.byteOffset),
                  process: process, invalid: false)
            for further in held.furtherLines {
                append(kept.slice(further.range.lowerBound, further.range.upperBound), number: further.number,
                       byteOffset: further.byteOffset, emit: emit)
            }
        }
        held.removeFurtherLines()
    }

    /// Builds the event of the record whose head is `head` (its fields complete), from its first line `bytes`.
    mutating func build(_ head: TextRecordHead, from bytes: UnsafeRawBufferPointer, timestamp: LogTimestamp,
                                origin: EventOrigin, process: String, invalid: Bool) {
        var invalid = invalid
        func text(_ range: Range<Int>?) -> String? {
            guard let range, !range.isEmpty else { return nil }
            let decoded = UTF8Text.decode(bytes.slice(range.lowerBound, range.upperBound))
            if !decoded.isValid { invalid = true }
            return decoded.text
        }
        func interned(_ range: Range<Int>?) -> String? {
            guard let range, !range.isEmpty else { return nil }
            let decoded = interner.string(for: bytes.slice(range.lowerBound, range.upperBound))
            if !decoded.isValid { invalid = true }
            return decoded.text
        }
        let message = text(head.message) ?? ""
        let event = LogEvent(
            timestamp: timestamp,
            process: process,
            pid: head.pid,
            senderImage: interned(head.senderImage),
            subsystem: interned(head.subsystem),
            category: interned(head.category),
            type: head.type,
            threadID: head.threadID,
            activityID: head.activityID,
            message: message,
            origin: origin
        )
        pending.start(event, invalidUTF8: invalid, awaitsPrefixes: head.prefixesMayFollow && message.isEmpty)
        open = .built
    }
}
