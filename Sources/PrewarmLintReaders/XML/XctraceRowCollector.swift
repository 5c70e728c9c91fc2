import PrewarmLintModel

/// Reads `xcrun xctrace export` XML of the `os-log` and `os-signpost` tables of an Instruments
/// trace (`docs/research/formats.md` §4.1):
///
/// ```xml
/// <trace-query-result><node xpath='…'><schema name="os-log"><col><mnemonic>time</mnemonic></col>…</schema>
/// <row><event-time id="1" fmt="00:00.547.843">547843125</event-time><thread id="2" fmt="Main Thread">
///   <tid id="3" fmt="0xc9c83">826499</tid><process id="4" fmt="SpringBoard (49207)"><pid id="5">49207</pid></process>
/// </thread><process ref="4"/>…<os-log-metadata id="11" fmt="Launched Weather">…</os-log-metadata><sentinel/></row>
/// ```
/// - cells are positional: the n-th child of a `<row>` is the n-th `<col>` of the schema (by its
///   `mnemonic`); a second, schema-less `<node>` reuses the last schema;
/// - values are deduplicated: the first occurrence carries `id`, later ones are `<x ref="id"/>`;
///   ids are global to the document and defined inside nested elements too, so every element with
///   an id is remembered (up to ``maximumIDs``; a reference to one not kept is reported);
/// - `<sentinel/>` is an empty cell;
/// - times are nanoseconds from the run start: made absolute from the trace's `<start-date>` when
///   the document has one (a TOC exported with the table), else from `--date` (its midnight) or the
///   file's date, said in a note and marked inferred;
/// - the message is `os-log-metadata`'s `fmt` (the composed text), else the format string; a
///   signpost's is `Begin|End|Event <name>: <message>`.
final class XctraceRowCollector: XMLRecordCollector {
    /// One value of the document, with what its nested elements hold.
    final class Cell {
        let name: String
        let text: String
        let display: String?
        let children: [Cell]

        init(name: String, text: String, display: String?, children: [Cell]) {
            self.name = name
            self.text = text
            self.display = display
            self.children = children
        }

        func child(_ name: String) -> Cell? {
            for child in children {
                if child.name == name { return child }
                if let nested = child.child(name) { return nested }
            }
            return nil
        }
    }

    /// How many identified values are remembered for later references.
    static let maximumIDs = 1_000_000

    override var openRecordLine: Int? { inRow ? rowStart.line : nil }

    override var noRecordsMessage: String { "this XML holds no `xctrace export` rows of an os-log or os-signpost table" }

    private var schemaName = ""
    private var columns: [String] = []
    private var readingSchema = false
    private var readingMnemonic = false
    private var mnemonic: [UInt8] = []
    private var readingStartDate = false
    private var startDateText: [UInt8] = []
    private var traceStart: (microseconds: Int64, utcOffset: Int)?
    private var fallbackNoted = false

    private var ids: [String: Cell] = [:]
    private var idsFull = false
    private var unknownReferences = 0

    private struct Builder {
        var name: String
        var id: String?
        var reference: String?
        var display: String?
        var text: [UInt8] = []
        var children: [Cell] = []
    }
    private var inRow = false
    private var rowStart = XMLPosition(line: 0, column: 0, byteOffset: 0)
    private var cells: [Cell?] = []
    private var builders: [Builder] = []

    override func startElement(_ name: UnsafeRawBufferPointer, attributes: XMLAttributes, at location: XMLLocation) {
        if inRow {
            if builders.isEmpty, name.equals("sentinel") {
                cells.append(nil)
                builders.append(Builder(name: "sentinel"))
                return
            }
            builders.append(Builder(name: String(decoding: name, as: UTF8.self),
                                    id: attributes.value(of: "id").map { String(decoding: $0, as: UTF8.self) },
                                    reference: attributes.value(of: "ref").map { String(decoding: $0, as: UTF8.self) },
                                    display: attributes.value(of: "fmt").map { String(decoding: $0, as: UTF8.self) }))
            return
        }
        if name.equals("row") {
            inRow = true
            sawRecords = true
            rowStart = location.position
            cells.removeAll(keepingCapacity: true)
        } else if name.equals("schema") {
            readingSchema = true
            schemaName = attributes.value(of: "name").map { String(decoding: $0, as: UTF8.self) } ?? ""
            columns = []
        } else if readingSchema, name.equals("mnemonic") {
            readingMnemonic = true
            mnemonic.removeAll(keepingCapacity: true)
        } else if name.equals("start-date") {
            readingStartDate = true
            startDateText.removeAll()
        }
    }

    override func characters(_ bytes: UnsafeRawBufferPointer) {
        if inRow {
            guard !builders.isEmpty, builders[builders.count - 1].text.count + bytes.count <= configuration.limits.maximumMessageLength else { return }
            builders[builders.count - 1].text.append(contentsOf: bytes)
        } else if readingMnemonic {
            mnemonic.append(contentsOf: bytes.prefix(256))
        } else if readingStartDate {
            startDateText.append(contentsOf: bytes.prefix(64))
        }
    }

    override func endElement(_ name: UnsafeRawBufferPointer, at location: XMLLocation) {
        let position = location.position
        if inRow {
            if builders.isEmpty {
                // `</row>`
                inRow = false
                finishRow(end: position)
                return
            }
            let builder = builders.removeLast()
            if builder.name == "sentinel", builders.isEmpty { return }
            let cell = resolve(builder, at: position)
            if builders.isEmpty {
                cells.append(cell)
            } else if let cell {
                builders[builders.count - 1].children.append(cell)
            }
            return
        }
        if readingMnemonic, name.equals("mnemonic") {
            readingMnemonic = false
            columns.append(String(decoding: mnemonic, as: UTF8.self))
        } else if name.equals("schema") {
            readingSchema = false
        } else if readingStartDate, name.equals("start-date") {
            readingStartDate = false
            let text = String(decoding: startDateText, as: UTF8.self).trimmingCharacters(in: " \n\t")
            if let parsed = PartialTimestamp(parsing: text), let year = parsed.year, let month = parsed.month, let day = parsed.day {
                let offset = parsed.utcOffsetSeconds ?? 0
                let civil = CivilDateTime(year: year, month: month, day: day, hour: parsed.hour, minute: parsed.minute,
                                          second: parsed.second, microsecond: parsed.microsecond)
                traceStart = (civil.microsecondsSinceEpoch(utcOffsetSeconds: offset), offset)
            } else {
                report(.invalidTimestamp, "the trace's start date '\(text)' is not a date; times stay relative to the run start",
                       origin: EventOrigin(input: configuration.inputName, line: position.line, byteOffset: position.byteOffset), lines: 0)
            }
        }
    }

    /// A finished element as a value: what its reference names, or itself (remembered by its id).
    private func resolve(_ builder: Builder, at position: XMLPosition) -> Cell? {
        if let reference = builder.reference {
            if let cell = ids[reference] { return cell }
            unknownReferences += 1
            if unknownReferences == 1 {
                report(.invalidRecord, "reference to id \(reference), which the document did not define before (or was not kept); the cell is read as empty",
                       origin: EventOrigin(input: configuration.inputName, line: position.line, byteOffset: position.byteOffset), lines: 0)
            }
            return nil
        }
        let cell = Cell(name: builder.name, text: String(decoding: builder.text, as: UTF8.self), display: builder.display, children: builder.children)
        if let id = builder.id {
            if ids.count < Self.maximumIDs {
                ids[id] = cell
            } else if !idsFull {
                idsFull = true
                report(.messageTooLong, "more than \(Self.maximumIDs) identified values; later ones are not remembered, and references to them read as empty",
                       origin: EventOrigin(input: configuration.inputName, line: position.line, byteOffset: position.byteOffset), lines: 0)
            }
        }
        return cell
    }

    private func cell(_ mnemonic: String) -> Cell? {
        guard let index = columns.firstIndex(of: mnemonic), index < cells.count else { return nil }
        return cells[index]
    }

    private func finishRow(end: XMLPosition) {
        let spanned = span(from: rowStart.line, to: end.line)
        let origin = EventOrigin(input: configuration.inputName, line: rowStart.line, byteOffset: rowStart.byteOffset)
        guard let time = cell("time"), let nanoseconds = Int64(time.text.trimmingCharacters(in: " \n\t")) else {
            reject(ReaderDiagnostic(code: .invalidTimestamp, severity: .warning, message: "xctrace row without a time in nanoseconds; skipped", origin: origin),
                   lines: spanned)
            return
        }
        let base: (microseconds: Int64, utcOffset: Int, inferred: LogTimestamp.InferredParts)
        if let traceStart {
            base = (traceStart.microseconds, traceStart.utcOffset, [])
        } else {
            base = fallbackStart(origin: origin)
        }
        let (instant, overflow) = base.microseconds.addingReportingOverflow(nanoseconds / 1000)
        guard !overflow, LogTimestamp.isReadable(instant) else {
            reject(ReaderDiagnostic(code: .invalidTimestamp, severity: .warning,
                                    message: LogTimestamp.unreadableTimeMessage(time.display ?? time.text), origin: origin),
                   lines: spanned)
            return
        }
        let timestamp = LogTimestamp(microsecondsSinceEpoch: instant, utcOffsetSeconds: base.utcOffset,
                                     text: time.display ?? time.text, inferred: base.inferred)
        let process = cell("process") ?? cell("thread")?.child("process")
        var event = LogEvent(timestamp: timestamp, process: Self.processName(process), message: "", origin: origin)
        if let pid = process?.child("pid").flatMap({ Int($0.text) }) ?? process?.display.flatMap(Self.pidInDisplay) { event.pid = pid }
        if let thread = cell("thread")?.child("tid").flatMap({ UInt64($0.text) }) { event.threadID = thread }
        event.subsystem = cell("subsystem").map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        event.category = cell("category").map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        let typeWord = (cell("message-type") ?? cell("event-type"))?.text ?? ""
        let message = cell("message").flatMap { $0.display ?? ($0.text.isEmpty ? nil : $0.text) } ?? cell("format-string")?.text ?? ""
        if schemaName.hasPrefix("os-signpost") {
            event.type = .signpost
            let name = cell("name")?.text ?? ""
            event.message = [typeWord, name].filter { !$0.isEmpty }.joined(separator: " ") + (message.isEmpty ? "" : ": \(message)")
        } else {
            var word = Array(typeWord.utf8)
            event.type = word.withUnsafeMutableBytes { MessageTypeSpelling.type(UnsafeRawBufferPointer($0)) }
            event.message = message
        }
        accept(event, lines: spanned, invalidUTF8: false)
    }

    /// Without a start date: the midnight of `--date`, else of the file's date, said once.
    private func fallbackStart(origin: EventOrigin) -> (Int64, Int, LogTimestamp.InferredParts) {
        let inference = configuration.timeInference
        let offset = inference.utcOffsetSeconds ?? 0
        var day: CivilDateTime?
        var source = "--date"
        if let date = inference.date {
            day = date
        } else if let reference = inference.referenceInstant {
            let civil = CivilDateTime(microsecondsSinceEpoch: reference, utcOffsetSeconds: offset)
            day = CivilDateTime(year: civil.year, month: civil.month, day: civil.day)
            source = inference.referenceDescription
        }
        guard let day else {
            if !fallbackNoted {
                fallbackNoted = true
                report(.inferredTime, "the trace's start date is not in the input and no --date was given; times are from the run start, placed at 1970-01-01",
                       severity: .note, origin: origin, lines: 0)
            }
            return (0, 0, [.date, .year])
        }
        if !fallbackNoted {
            fallbackNoted = true
            let iso = day.iso8601(utcOffsetSeconds: offset)
            report(.inferredTime, "the trace's start date is not in the input (export the TOC with the table, or give --date); times are from the run start, placed at 00:00 of \(iso.prefix(10)) from \(source)",
                   severity: .note, origin: origin, lines: 0)
        }
        return (day.microsecondsSinceEpoch(utcOffsetSeconds: offset), offset, [.date])
    }

    /// `SpringBoard (49207)` → `SpringBoard`.
    static func processName(_ cell: Cell?) -> String {
        guard let cell else { return "" }
        guard let display = cell.display else { return cell.text }
        if display.hasSuffix(")"), let open = display.lastIndex(of: "("), open > display.startIndex {
            return String(display[..<open]).trimmingCharacters(in: " ")
        }
        return display
    }

    static func pidInDisplay(_ display: String) -> Int? {
        guard display.hasSuffix(")"), let open = display.lastIndex(of: "(") else { return nil }
        return Int(display[display.index(after: open)..<display.index(before: display.endIndex)])
    }
}

extension String {
    /// Without leading and trailing characters of `set`.
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
