import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hostile and broken inputs (issue 7): no crash, no hang, bounded memory, every line accounted for,
/// every other input still processed. Big inputs are generated here, never committed.
@Suite("adversarial inputs")
struct AdversarialInputTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ bytes: [UInt8], format: LogFormat? = nil, chunkSize: Int? = nil, limits: ReaderLimits = ReaderLimits()) -> ReaderVerifier.Outcome {
        ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "hostile", limits: limits), format: format, chunkSize: chunkSize)
    }

    static func accounted(_ statistics: DecoderStatistics) -> Bool {
        statistics.lines == statistics.eventLines + statistics.skipped.values.reduce(0, +) + statistics.diagnosedLines
    }


    @Test("every input a fuzzer ever broke on passes its check now", arguments: ["fuzz-readers", "fuzz-sniffed-input", "fuzz-sessions",
                                                                                "fuzz-crash-report", "fuzz-metrickit", "fuzz-tar", "fuzz-tracev3"])
    func fuzzRegressions(target: String) throws {
        let folder = Self.root.appendingPathComponent("Tests/PrewarmLintReliabilityTests/FuzzRegressions/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            let broken = bytes.withUnsafeBytes { data -> String? in
                switch target {
                case "fuzz-readers": FuzzChecks.readers(data)
                case "fuzz-sniffed-input": FuzzChecks.sniffedInput(data)
                case "fuzz-crash-report": FuzzChecks.crashReport(data)
                case "fuzz-metrickit": FuzzChecks.metricKit(data)
                case "fuzz-tar": FuzzChecks.tarArchive(data)
                case "fuzz-tracev3": FuzzChecks.traceV3(data)
                default: FuzzChecks.sessions(data)
                }
            }
            #expect(broken == nil, "\(target)/\(name): \(broken ?? "")")
        }
    }

    /// A binary plist whose one entry's message is a chain of `levels` arrays, each holding 16 references to
    /// the next: a few hundred bytes that expand to 16^levels strings when followed.
    static func sharedReferenceBomb(levels: Int) -> [UInt8] {
        var objects: [[UInt8]] = []
        objects.append([0xA1, 1])                                    // 0: the array of entries
        objects.append([0xD1, 2, 3])                                 // 1: {eventMessage: 3}
        objects.append([0x5C] + Array("eventMessage".utf8))           // 2
        for level in 0..<levels {                                    // 3…: 16 references to the next
            objects.append([0xAF, 0x10, 16] + Array(repeating: UInt8(4 + level), count: 16))
        }
        objects.append([0x51, UInt8(ascii: "x")])                      // the string at the bottom
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects { offsets.append(bytes.count); bytes += object }
        let tableOffset = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        func be64(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + be64(objects.count) + be64(0) + be64(tableOffset)
        return bytes
    }

    @Test("a binary plist of shared references (16^12 strings in 300 bytes) is refused per record, fast and small")
    func sharedReferenceBomb() throws {
        let bomb = Self.sharedReferenceBomb(levels: 12)
        #expect(bomb.count < 400)
        let start = Date()
        let outcome = Self.read(bomb)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(outcome.format == .binaryPlist)
        #expect(outcome.events.isEmpty)
        #expect(outcome.diagnostics.contains { $0.code == .invalidRecord && $0.message.contains("shared references") }, "\(outcome.diagnostics)")
        // A small chain (16^2 = 256 strings) still reads.
        #expect(Self.read(Self.sharedReferenceBomb(levels: 2)).diagnostics.allSatisfy { !$0.message.contains("shared references") })
    }

    @Test("XML with 200,000 attributes on one element: refused at that tag in well under a second, the entries before it read")
    func manyAttributes() throws {
        let entry = "<dict><key>timestamp</key><string>2024-03-18 07:41:02.120871-0700</string><key>processImagePath</key><string>/usr/libexec/dasd</string><key>processID</key><integer>118</integer><key>eventMessage</key><string>Attempting prewarm for com.example.ledger</string></dict>\n"
        var xml = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array>\n" + entry + "<dict "
        xml += (0..<200_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        xml += "><key>eventMessage</key><string>x</string></dict>\n" + entry + "</array></plist>\n"
        for chunkSize in [nil, 4096] as [Int?] {
            let start = Date()
            let outcome = Self.read(Array(xml.utf8), chunkSize: chunkSize)
            #expect(Date().timeIntervalSince(start) < 5)
            #expect(outcome.format == .plist)
            #expect(outcome.events.count == 1, "the entry before the tag")
            #expect(outcome.diagnostics.contains { $0.code == .refusedInput && $0.message.contains("more than 256 attributes") }, "\(outcome.diagnostics)")
        }
        // Attributes in a comment or a CDATA section are text, not a tag's.
        let commented = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array>\n<!-- " + String(repeating: "a=1 ", count: 1000) + " -->\n" + entry + "</array></plist>\n"
        #expect(Self.read(Array(commented.utf8)).events.count == 1)
    }

    @Test("a UTF-8 byte order mark before the first ndjson record, or before every one (cat-joined files), loses nothing")
    func byteOrderMarks() throws {
        let lines = try String(contentsOf: Self.root.appendingPathComponent("Corpus/scenarios/cold-launch/log.ndjson"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let plain = try ReaderVerifier.verify(Array((lines.joined(separator: "\n") + "\n").utf8), configuration: ReaderConfiguration(inputName: "x"))
        let bom = "\u{FEFF}"
        for text in [bom + lines.joined(separator: "\n") + "\n", lines.map { bom + $0 }.joined(separator: "\n") + "\n"] {
            let outcome = try ReaderVerifier.verify(Array(text.utf8), configuration: ReaderConfiguration(inputName: "x"))
            #expect(outcome.format == .logShowNDJSON)
            #expect(outcome.events.count == plain.events.count && outcome.events.count > 5)
            #expect(outcome.diagnostics.filter { $0.severity >= .warning }.isEmpty, "\(outcome.diagnostics)")
        }
    }

    @Test("a 12 MB comment, CDATA section or text in a plist: that entry at most is lost, the next ones read")
    func oversizeSections() throws {
        let entry = "<dict><key>timestamp</key><string>2024-03-18 07:41:02.120871-0700</string><key>processImagePath</key><string>/usr/libexec/dasd</string><key>processID</key><integer>118</integer><key>eventMessage</key><string>Attempting prewarm for com.example.ledger</string></dict>\n"
        let big = String(repeating: "x", count: 12 << 20)
        for (name, middle) in [("comment", "<!-- " + big + " -->\n"),
                               ("CDATA", "<dict><key>eventMessage</key><string><![CDATA[" + big + "]]></string></dict>\n")] {
            let xml = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array>\n" + entry + middle + entry + "</array></plist>\n"
            let outcome = Self.read(Array(xml.utf8), chunkSize: 1 << 20)
            #expect(outcome.events.count == 2, "\(name): \(outcome.diagnostics)")
            #expect(!outcome.diagnostics.contains { $0.code == .malformedXML || $0.code == .refusedInput }, "\(name): \(outcome.diagnostics)")
        }
    }

    @Test("empty, all NULs, random binary: not a log, said so; one line of each format's reader accounts for everything")
    func notLogs() {
        let empty = Self.read([])
        #expect(empty.failure?.message == "not a recognized log format: the input is empty (see `prewarm-lint formats`; use --input-format to force one)")
        let nuls = Self.read([UInt8](repeating: 0, count: 1 << 20))
        #expect(nuls.failure?.code == .unrecognizedFormat)
        var generator = SystemRandomNumberGenerator.seeded(7)
        let random = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(Self.read(random).failure?.code == .unrecognizedFormat)
        // Forced into every format, the same bytes are diagnosed line by line, never dropped.
        for format in LogFormat.allCases {
            for bytes in [[UInt8](repeating: 0, count: 4096), Array(random.prefix(65_536))] {
                var input: [UInt8] = [UInt8(LogFormat.allCases.firstIndex(of: format)!), 63]
                input += bytes
                let broken = input.withUnsafeBytes { FuzzChecks.readers($0) }
                #expect(broken == nil, "\(format.rawValue): \(broken ?? "")")
            }
        }
    }

    @Test("invalid UTF-8 in every field: replaced with U+FFFD and reported, the events kept")
    func invalidUTF8() {
        var line = Array("2024-03-18 07:41:02.120871-0700 0x2b07     Default     0x0                  33     0    run".utf8)
        line += [0xFF, 0xFE]
        line += Array("ningboardd: (Running".utf8) + [0xC3] + Array("Board) [com.apple.".utf8) + [0x80] + Array("runningboard:job] Executing ".utf8)
        line += [0xE2, 0x82] + Array(" launch request for app<com.example.ledger(501)> (DAS Prewarm launch)\n".utf8)
        let outcome = Self.read(line)
        #expect(outcome.format == .logShow)
        #expect(outcome.events.count == 1)
        let event = outcome.events.first
        #expect(event?.process.contains("\u{FFFD}") == true)
        #expect(event?.message.hasSuffix("launch request for app<com.example.ledger(501)> (DAS Prewarm launch)") == true)
        #expect(outcome.diagnostics.map(\.code).contains(.invalidUTF8))
        #expect(Self.accounted(outcome.statistics))
    }

    // Its memory bound is measured on the binary, in a process of its own: MemoryBoundTests.
    @Test("a 200 MB line with no newline: one diagnostic, the lines before it read")
    func hugeLine() throws {
        var reader = LogStreamReader(configuration: ReaderConfiguration(inputName: "hostile"))
        var events = 0
        var diagnostics: [ReaderDiagnostic] = []
        let collect: (ReaderOutput) -> Void = { output in
            switch output {
            case .event: events += 1
            case .diagnostic(let diagnostic): diagnostics.append(diagnostic)
            case .preMainStatistics, .fragment, .partStart: Issue.record("no statistics, fragment or part in these lines")
            }
        }
        let good = "2024-03-18 07:41:02.120871-0700 0x2b07     Default     0x0                  33     0    runningboardd: Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)\n"
        try Array((good + good).utf8).withUnsafeBytes { try reader.read($0, emit: collect) }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let started = Date()
        for _ in 0..<200 { try chunk.withUnsafeBytes { try reader.read($0, emit: collect) } }
        try reader.finish(emit: collect)
        #expect(Date().timeIntervalSince(started) < 60, "200 MB of one line took over a minute")
        #expect(events == 2)
        #expect(diagnostics.map(\.code).contains(.lineTooLong))
        #expect(Self.accounted(reader.statistics))
    }

    @Test("a 100,000-line multi-line message: kept up to the limit, the rest counted, memory bounded")
    func hugeMultilineMessage() {
        var text = "2024-03-18 07:41:02.120871-0700 0x2b07     Default     0x0                  33     0    runningboardd: Acquiring assertion with description <RBSAssertionDescriptor| attributes:[\n"
        text += String(repeating: "\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"Visibility\" sourceEnvironment:\"(null)\">,\n", count: 100_000)
        text += "2024-03-18 07:41:03.000000-0700 0x2b07     Default     0x0                  33     0    runningboardd: Now tracking process: [app<com.example.ledger(501)>:2231]\n"
        let outcome = Self.read(Array(text.utf8), chunkSize: 1 << 16)
        #expect(outcome.events.count == 2)
        #expect(outcome.diagnostics.map(\.code).contains(.messageTooLong))
        #expect((outcome.events.first?.message.utf8.count ?? 0) <= ReaderLimits().maximumMessageLength)
        #expect(outcome.events.last?.message == "Now tracking process: [app<com.example.ledger(501)>:2231]")
        #expect(Self.accounted(outcome.statistics))
    }

    @Test("every corpus case truncated mid-record, mid-UTF-8 and mid-escape, in every chunking: accounted, no crash")
    func truncations() throws {
        let cases = try CorpusCase.all(in: Self.root.appendingPathComponent("Corpus/formats"))
        #expect(cases.count >= 35)
        for corpusCase in cases {
            let bytes = try corpusCase.logBytes()
            guard let format = corpusCase.description.format.flatMap(LogFormat.init(rawValue:)), !bytes.isEmpty else { continue }
            var cuts = Set([bytes.count / 2, bytes.count / 3, bytes.count - 1])
            // Inside a multi-byte UTF-8 sequence, and just after a backslash (inside a JSON escape).
            if let multibyte = bytes.firstIndex(where: { $0 >= 0xC0 }) { cuts.insert(multibyte + 1) }
            if let backslash = bytes.firstIndex(of: UInt8(ascii: "\\")) { cuts.insert(backslash + 1) }
            for cut in cuts.sorted() where cut > 0 && cut < bytes.count {
                for chunk: UInt8 in [0, 6, 255] {
                    let input = [UInt8(LogFormat.allCases.firstIndex(of: format)!), chunk] + bytes[..<cut]
                    let broken = input.withUnsafeBytes { FuzzChecks.readers($0) }
                    #expect(broken == nil, "\(corpusCase.name) cut at \(cut): \(broken ?? "")")
                }
            }
        }
    }

    @Test("JSON nested 100,000 deep, numbers out of range: no stack overflow, a diagnostic, the next record read")
    func hostileJSON() {
        let deep = "{\"eventMessage\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}\n"
        let huge = "{\"timestamp\":\"2024-03-18 07:41:02.120871-0700\",\"processImagePath\":\"/usr/libexec/dasd\",\"processID\":99999999999999999999999,\"threadID\":-5,\"eventMessage\":\"big numbers\"}\n"
        let good = "{\"timestamp\":\"2024-03-18 07:41:02.200000-0700\",\"processImagePath\":\"/usr/libexec/dasd\",\"processID\":105,\"eventMessage\":\"Attempting prewarm for com.example.ledger\"}\n"
        let outcome = Self.read(Array((good + deep + huge + good).utf8), format: .logShowNDJSON)
        #expect(outcome.events.map(\.message) == ["Attempting prewarm for com.example.ledger", "big numbers", "Attempting prewarm for com.example.ledger"])
        #expect(outcome.events[1].pid == nil, "a pid out of range is no pid")
        #expect(outcome.diagnostics.count >= 1)
        #expect(Self.accounted(outcome.statistics))
    }

    @Test("a million distinct pids through the classifier: bounded time, the directory forgets the oldest")
    func millionPids() {
        var classifier = EventClassifier()
        let started = Date()
        let timestamp = LogTimestamp(microsecondsSinceEpoch: 1_710_772_862_000_000, utcOffsetSeconds: 0, text: "t")
        for pid in 1...1_000_000 {
            let event = LogEvent(timestamp: timestamp, process: "runningboardd",
                                 message: "Now tracking process: [app<com.example.app\(pid % 1000)(501)>:\(pid)]",
                                 origin: EventOrigin(input: "hostile", line: pid, byteOffset: 0))
            _ = classifier.classifyIfMeaningful(event)
        }
        #expect(Date().timeIntervalSince(started) < 120)
        #expect(classifier.directory.bundleByPID.count == ProcessDirectory.defaultCapacity)
        #expect(classifier.directory.forgotten == 1_000_000 - ProcessDirectory.defaultCapacity)
    }

    @Test("a million sessions never closed: at most 10,000 open, the oldest closed early and saying so")
    func millionOpenSessions() {
        var builder = LaunchSessionBuilder()
        var closed = 0
        var sawEarly = false
        let started = Date()
        for app in 0..<1_000_000 {
            let event = LogEvent(timestamp: LogTimestamp(microsecondsSinceEpoch: 1_710_772_862_000_000 + Int64(app), utcOffsetSeconds: 0, text: "t"),
                                 process: "runningboardd", message: "Executing launch request for app<com.example.app\(app)(501)> (DAS Prewarm launch)",
                                 origin: EventOrigin(input: "hostile", line: app + 1, byteOffset: 0))
            let classified = ClassifiedEvent(event: event, role: .runningboardd, meaning: .prewarmRequest, signatureID: "rb-prewarm-launch-request",
                                             subject: AppIdentity(bundleID: "com.example.app\(app)"))
            for session in builder.consume(classified) {
                closed += 1
                if !sawEarly { sawEarly = session.incompleteEvidence.contains("closed early: more than 10000 sessions were open at once") }
            }
        }
        let rest = builder.finish()
        #expect(Date().timeIntervalSince(started) < 120)
        #expect(closed == 990_000)
        #expect(rest.count == 10_000)
        #expect(builder.closedEarly == 990_000)
        #expect(sawEarly)
    }

    @Test("a directory with a symbolic-link loop and a FIFO: the walk ends, the FIFO is skipped, the log read")
    func directoryHazards() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("inner"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("inner/loop").path, withDestinationPath: folder.path)
        #expect(mkfifo(folder.appendingPathComponent("pipe").path, 0o600) == 0)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Corpus/scenarios/cold-launch/log.ndjson"),
                                         to: folder.appendingPathComponent("inner/device.ndjson"))
        let discovery = InputDiscovery.expand([folder.path])
        #expect(discovery.inputs.map(\.input.name) == [folder.appendingPathComponent("inner/device.ndjson").path])
        #expect(discovery.failures.isEmpty)
    }

    @Test("file names that are not UTF-8 are found, read and shown as \\xNN")
    func nonUTF8FileNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent("Corpus/scenarios/cold-launch/log.ndjson")))
        // Latin-1 é, two bytes that never start UTF-8, and a valid UTF-8 name in the escape range itself.
        let names: [[UInt8]] = [Array("caf".utf8) + [0xE9] + Array(".log".utf8), Array("x".utf8) + [0xFF, 0xFE] + Array(".log".utf8),
                                Array("pua".utf8) + [0xEF, 0x9E, 0x80] + Array(".log".utf8)]
        for name in names {
            let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
            let descriptor = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
            #expect(descriptor >= 0)
            _ = log.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
            close(descriptor)
        }
        let discovery = InputDiscovery.expand([folder.path])
        #expect(discovery.failures.isEmpty)
        #expect(discovery.inputs.map(\.input.name).sorted() == ["caf\\xE9.log", "pua\\xEF\\x9E\\x80.log", "x\\xFF\\xFE.log"].map { folder.path + "/" + $0 })
        for input in discovery.inputs {
            let summary = InputReader(options: ReadOptions()).read(input.input) { _ in }
            #expect(summary.failure == nil, "\(input.input.name)")
            #expect(summary.statistics.events == Self.coldLaunchEvents)
        }
    }

    @Test("a path's bytes survive decoding whatever they are: random names, and UTF-8 names unchanged")
    func fileSystemNamesRoundTrip() {
        var generator = SystemRandomNumberGenerator.seeded(19)
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 1...12, using: &generator)).map { _ in UInt8.random(in: 1...255, using: &generator) }
            #expect(FileSystemName.bytes(FileSystemName.decoded(bytes)) == bytes)
        }
        for name in ["device.log", "Protokoll für Gerät.log", "ログ.ndjson", "🙂.txt"] {
            #expect(FileSystemName.decoded(Array(name.utf8)) == name)
            #expect(FileSystemName.displayed(name) == name)
        }
    }

    /// The events of the cold-launch scenario's ndjson read as a plain file.
    static let coldLaunchEvents = InputReader(options: ReadOptions())
        .read(.file(root.appendingPathComponent("Corpus/scenarios/cold-launch/log.ndjson").path)) { _ in }.statistics.events

    @Test("a FIFO named on the command line is read as a stream")
    func namedFIFO() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let log = try Data(contentsOf: Self.root.appendingPathComponent("Corpus/scenarios/cold-launch/log.ndjson"))
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: path)
            handle?.write(log)
            try? handle?.close()
        }
        writer.start()
        let summary = InputReader(options: ReadOptions()).read(.file(path)) { _ in }
        #expect(summary.format == .logShowNDJSON)
        #expect(summary.failure == nil)
        #expect(summary.statistics.events == Self.coldLaunchEvents)
    }

    @Test("a file deleted while being read is read to its end")
    func deletedWhileReading() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-deleted-\(UUID().uuidString).ndjson")
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Corpus/scenarios/cold-launch/log.ndjson"), to: file)
        var deleted = false
        let summary = InputReader(options: ReadOptions(chunkSize: 64)).read(.file(file.path)) { output in
            if case .event = output, !deleted {
                deleted = (try? FileManager.default.removeItem(at: file)) != nil
            }
        }
        #expect(deleted)
        #expect(summary.failure == nil)
        #expect(summary.statistics.events == Self.coldLaunchEvents)
    }
}

extension SystemRandomNumberGenerator {
    /// A deterministic generator for test data (SplitMix64), so generated inputs are the same every run.
    static func seeded(_ seed: UInt64) -> SeededGenerator { SeededGenerator(seed: seed) }
}
