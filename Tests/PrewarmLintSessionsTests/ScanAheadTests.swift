import Foundation
@testable import PrewarmLint
import PrewarmLintClassifier
import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// `ScanAhead`: with more than one job, chunks of an ndjson file are read ahead by a thread of its own, which
/// judges their records before it lends each chunk to the decoder, and the decoder only counts the lines judged. Whatever was judged ahead, the run must give what
/// one thread gives — sessions, diagnostics, statistics and the order of the callbacks — and the judging must have
/// happened, or the comparison proves nothing.
@Suite("judging an ndjson file's records ahead of its decoder")
struct ScanAheadTests {
    /// A generated ndjson day of about `megabytes` MB, as dense in launches as the benchmark's 200 MB device day (the
    /// generator's `log show --style ndjson` records), with lines a
    /// judge ahead must leave to the decoder put among them past the first chunk, in the shapes of the day's own lines:
    /// CRLF endings, a byte order mark, a cut object, invalid UTF-8 in a message, a time without its offset (taken
    /// from the lines before), escapes in a message, a blank line and a trailer.
    static func hostileDay(megabytes: Int) -> [UInt8] {
        let (bytes, _) = DeviceLogGenerator.generate(DeviceLogGenerator.Configuration(seed: 7, targetBytes: megabytes << 20, format: .ndjson,
                                                                                    sessionsPerDay: 10 * megabytes))
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        func replacing(_ line: [UInt8], _ old: String, _ new: [UInt8]) -> [UInt8] {
            let old = Array(old.utf8)
            guard let at = line.indices.first(where: { line[$0...].starts(with: old) }) else { return line }
            return Array(line[..<at]) + new + Array(line[(at + old.count)...])
        }
        var out: [UInt8] = []
        var offset = 0
        for (index, line) in lines.enumerated() {
            var written = line
            var ending: [UInt8] = [0x0A]
            if offset > 3 << 19, index % 37 == 0 {
                switch (index / 37) % 8 {
                case 0: ending = [0x0D, 0x0A]
                case 1: written = [0xEF, 0xBB, 0xBF] + line
                case 2: written = Array(line.dropLast(2))
                case 3: written = replacing(line, "\"eventMessage\":\"", Array("\"eventMessage\":\"".utf8) + [0xFF])
                case 4: written = replacing(line, "-0700\"", Array("\"".utf8))
                case 5: written = replacing(line, "\"eventMessage\":\"", Array("\"eventMessage\":\"a\\/b \\u00e9 ".utf8))
                case 6: out += [0x20, 0x0A]
                default: out += Array("{\"count\":1,\"finished\":1}\n".utf8)
                }
            }
            out += written + ending
            offset += written.count + ending.count
        }
        return out
    }

    /// A generated day of 6 MB in `format`, as dense in launches as the benchmark's 200 MB device day.
    static func day(seed: UInt64, _ format: DeviceLogFormat) -> DeviceLogGenerator.Configuration {
        DeviceLogGenerator.Configuration(seed: seed, targetBytes: 6 << 20, format: format, sessionsPerDay: 60)
    }

    /// The pipeline's result with two jobs, and the lines judged ahead.
    static func judged(_ input: DiscoveredInput, options: ReadOptions) -> Int { judging(input, options: options).lines }

    /// The lines judged ahead with two jobs, the line tables filled again rather than made anew, and the chunks judged
    /// (how many follows the two threads' speeds).
    static func judging(_ input: DiscoveredInput, options: ReadOptions) -> (lines: Int, tablesReused: Int, chunks: Int) {
        var pipeline = SessionPipeline(reader: InputReader(options: options))
        pipeline.jobs = 2
        pipeline.readAheadMinimumBytes = 0
        let summaries = pipeline.run([input], onDiagnostic: { _ in }, onSession: { $0 }).summaries
        return (summaries.map(\.linesJudgedAhead).reduce(0, +), summaries.map(\.lineTablesReused).reduce(0, +),
                summaries.map(\.chunksJudgedAhead).reduce(0, +))
    }

    /// A `ScanAhead` for a file of `chunks` chunks of `chunkSize` bytes of short lines, written in `folder`.
    static func scanAhead(chunks: Int, of chunkSize: Int, in folder: TemporaryFolder) throws -> ScanAhead {
        let path = try folder.write(Array(repeating: Array("x\n".utf8), count: chunks * chunkSize / 2).joined(), named: "day.log")
        return try #require(ScanAhead(path: path, fileSize: chunks * chunkSize, chunkSize: chunkSize, threads: ThreadStarter()))
    }

    /// A judge that judges nothing: every chunk is poor, as on a log that is nothing but launches.
    struct JudgesNothing: LinePrescanner {
        mutating func judge(_ chunk: UnsafeRawBufferPointer, at byteOffset: Int, startsLine: Bool, with judge: AheadJudge) -> ChunkJudgement {
            ChunkJudgement()
        }
    }

    @Test("a judge that stops (four poor chunks, or the decoder's end) gives its spare buffers back then, not when it is freed")
    func buffersGoBackWhenJudgingStops() throws {
        let folder = try TemporaryFolder("prewarm-lint-scan-ahead-stops")
        defer { folder.remove() }
        let chunkSize = 1 << 16, chunks = 24
        let scan = try Self.scanAhead(chunks: chunks, of: chunkSize, in: folder)
        scan.start(JudgesNothing(), judgedBy: LaunchLineGate(table: .builtIn), from: 0)
        // Time for the thread to judge the chunks it may run ahead (3 to 6: the chunks nearer are the read loop's), so that
        // the read loop finds them.
        usleep(200_000)
        var lent: [Int] = []
        for index in 0..<chunks {
            guard let bytes = scan.lend(at: index * chunkSize) else { continue }
            lent.append(index)
            scan.giveBack(bytes)
        }
        #expect(Array(lent.prefix(3)) == [3, 4, 5], "the comparison needs chunks lent and given back")
        scan.finish()
        #expect(scan.spareBufferCount == 0, "the thread's buffers stayed allocated after it stopped")
    }

    /// A judge that judges every line of every chunk, and says which chunks it was given.
    final class JudgesEverything: LinePrescanner, @unchecked Sendable {
        private let lock = NSLock()
        private var offsets: [Int] = []
        var judged: [Int] { lock.withLock { offsets } }
        func judge(_ chunk: UnsafeRawBufferPointer, at byteOffset: Int, startsLine: Bool, with judge: AheadJudge) -> ChunkJudgement {
            lock.withLock { offsets.append(byteOffset) }
            var judgement = ChunkJudgement()
            judgement.judgedBytes = chunk.count
            return judgement
        }
    }

    /// Waits (up to five seconds) until `condition` holds.
    static func waitUntil(_ condition: () -> Bool) {
        for _ in 0..<500 where !condition() { usleep(10_000) }
    }

    @Test("the thread takes the chunks ahead of the read loop's, and leaves it those the read loop has come near")
    func keepsItsDistance() throws {
        let folder = try TemporaryFolder("prewarm-lint-scan-ahead-distance")
        defer { folder.remove() }
        let chunkSize = 1 << 16
        let scan = try Self.scanAhead(chunks: 40, of: chunkSize, in: folder)
        let judge = JudgesEverything()
        scan.start(judge, judgedBy: LaunchLineGate(table: .builtIn), from: 0)
        defer { scan.finish() }
        // With the read loop at the start, the thread judges as far as its buffers go: from `gap` chunks on.
        Self.waitUntil { judge.judged.count == ScanAhead.lookahead + 1 }
        #expect(judge.judged == [3, 4, 5, 6].map { $0 * chunkSize })
        for index in 0..<3 { #expect(scan.lend(at: index * chunkSize) == nil, "chunk \(index) is the read loop's") }
        let third = try #require(scan.lend(at: 3 * chunkSize))
        scan.giveBack(third)
        // The read loop moves on to chunk 20 (reading the chunks before it itself, or passing over those judged): the
        // thread's next chunk is three beyond it, not the one after its last.
        Self.waitUntil { judge.judged.count == ScanAhead.lookahead + 2 }
        let before = judge.judged.count
        #expect(scan.lend(at: 20 * chunkSize) == nil)
        Self.waitUntil { judge.judged.count > before }
        let next = try #require(judge.judged.dropFirst(before).first)
        #expect(next == 23 * chunkSize, "the thread took chunk \(next / chunkSize) with the read loop at 20")
        #expect(scan.lend(at: 21 * chunkSize) == nil)
        #expect(scan.lend(at: 22 * chunkSize) == nil)
        let lent = try #require(scan.lend(at: 23 * chunkSize))
        scan.giveBack(lent)
    }

    @Test("a device day with hostile lines: the same result as one thread, most lines judged ahead",
          arguments: [1 << 20, 1 << 16])
    func hostileDayIsUnchanged(chunkSize: Int) throws {
        let folder = try TemporaryFolder("scan-ahead")
        defer { folder.remove() }
        let bytes = Self.hostileDay(megabytes: 6)
        let input = try ReadAheadTests.input(bytes, named: "day.ndjson", in: folder)
        var options = ReadOptions()
        // Read in chunks of this size, some by the thread judging ahead; small chunks cut many lines.
        options.chunkSize = chunkSize
        let one = ReadAheadTests.observe([input], options: options, jobs: 1)
        let two = ReadAheadTests.observe([input], options: options, jobs: 2)
        #expect(one == two)
        #expect(!one.outcome.sessions.isEmpty)
        // Each kind of hostile line said what it is, on both paths.
        let codes = Set(one.said.map(\.code))
        #expect(codes.isSuperset(of: [.invalidRecord, .invalidUTF8]))
        let lines = bytes.lazy.filter { $0 == 0x0A }.count
        let judging = Self.judging(input, options: options)
        // About three lines in four of a device day are judged skippable, in each chunk the thread judged.
        let linesPerChunk = lines * chunkSize / bytes.count
        #expect(judging.chunks > 0)
        #expect(judging.lines > judging.chunks * linesPerChunk / 2,
                "only \(judging.lines) lines judged ahead in \(judging.chunks) chunks of about \(linesPerChunk) lines")
    }

    @Test("pymobiledevice3 json, whose times have no offset: the offset and its note come from the decoder's resolver")
    func timesWithoutOffsets() throws {
        let folder = try TemporaryFolder("scan-ahead-pmd3")
        defer { folder.remove() }
        let input = try ReadAheadTests.writtenDay(Self.day(seed: 5, .pymobiledevice3JSON), named: "day.json", in: folder).input
        for offset in [nil, 34_200] as [Int?] {
            var options = ReadOptions()
            options.timeInference.utcOffsetSeconds = offset
            let one = ReadAheadTests.observe([input], options: options, jobs: 1)
            #expect(one == ReadAheadTests.observe([input], options: options, jobs: 2))
            #expect(one.said.filter { $0.code == .inferredTime }.count == 1)
            #expect(Self.judged(input, options: options) > 0)
        }
    }

    @Test("a device day in each text format: the same result as one thread, its lines framed and judged ahead",
          arguments: DeviceLogFormat.allCases.filter { ![.ndjson, .pymobiledevice3JSON, .logShowJSON, .plist].contains($0) })
    func textDay(format: DeviceLogFormat) throws {
        let folder = try TemporaryFolder("scan-ahead-text")
        defer { folder.remove() }
        let input = try ReadAheadTests.writtenDay(Self.day(seed: 11, format), named: "day.\(format.rawValue)", in: folder).input
        for chunkSize in [1 << 20, 1 << 16] {
            var options = GatedReadingTests.dayOptions
            options.chunkSize = chunkSize
            let one = ReadAheadTests.observe([input], options: options, jobs: 1)
            #expect(one == ReadAheadTests.observe([input], options: options, jobs: 2))
            #expect(!one.outcome.sessions.isEmpty)
            let judging = Self.judging(input, options: options)
            #expect(judging.lines > 0)
            // Past the few the thread judges ahead before the decoder gives one back, each chunk judged fills a table the
            // decoder is done with (and the result is the same, above).
            #expect(judging.chunks > 0)
            #expect(judging.tablesReused >= (judging.chunks - ScanAhead.lookahead - 1) * 3 / 4,
                    "\(judging.tablesReused) tables filled again for \(judging.chunks) chunks judged")
        }
    }

    @Test("a day whose lines past the first chunks end with a lone CR: the same sessions as its LF copy, with one thread or two")
    func loneCarriageReturnsPastTheHead() throws {
        let folder = try TemporaryFolder("scan-ahead-lone-cr")
        defer { folder.remove() }
        let (bytes, _) = DeviceLogGenerator.generate(Self.day(seed: 11, .consoleCopy))
        // One line end in three, past the first two chunks, is a carriage return alone (an editor's stray ones).
        var altered = bytes
        var newlines = 0
        for index in (3 << 16)..<altered.count where altered[index] == 0x0A {
            newlines += 1
            if newlines % 3 == 0 { altered[index] = 0x0D }
        }
        let plain = try ReadAheadTests.input(bytes, named: "day.txt", in: folder)
        let stray = try ReadAheadTests.input(altered, named: "stray.txt", in: folder)
        var options = GatedReadingTests.dayOptions
        options.chunkSize = 1 << 16
        let expected = ReadAheadTests.observe([plain], options: options, jobs: 1)
        let one = ReadAheadTests.observe([stray], options: options, jobs: 1)
        let two = ReadAheadTests.observe([stray], options: options, jobs: 2)
        #expect(!expected.outcome.sessions.isEmpty)
        func places(_ observed: ReadAheadTests.Observed) -> [String] {
            observed.outcome.sessions.map { "\($0.kind) \($0.app) \($0.milestones.map { "\($0.name)@\($0.evidence.line)" })" }
        }
        #expect(places(one) == places(expected))
        #expect(one.outcome.sessions.map(\.kind) == two.outcome.sessions.map(\.kind))
        #expect(places(two) == places(expected))
        let said = one.said.filter { $0.code == .lineEndings }
        #expect(said.count == 1)
        #expect(said.first?.message.hasPrefix("\(newlines / 3) carriage returns without a line feed") == true)
    }

    @Test("lines longer than the record limit, cut by the decoder, are never judged: the same result")
    func recordLimit() throws {
        let folder = try TemporaryFolder("scan-ahead-limit")
        defer { folder.remove() }
        let input = try ReadAheadTests.input(Self.hostileDay(megabytes: 5), named: "day.ndjson", in: folder)
        var options = ReadOptions()
        // About a tenth of the day's records are longer than this.
        options.limits = ReaderLimits(maximumRecordLength: 800)
        let one = ReadAheadTests.observe([input], options: options, jobs: 1)
        let two = ReadAheadTests.observe([input], options: options, jobs: 2)
        #expect(one == two)
        #expect(one.said.contains { $0.code == .lineTooLong })
        #expect(Self.judged(input, options: options) > 0)
    }

    @Test("an app's own lines judged ahead are refused only until the classifier learns its pid")
    func learntPIDs() throws {
        // The day's apps log lines of their own (unknown processes to the filter): judged ahead as refused unless their
        // pid is learnt. Every session with a line of the app's own process proves the decoder asked when it got there.
        let folder = try TemporaryFolder("scan-ahead-pids")
        defer { folder.remove() }
        let input = try ReadAheadTests.writtenDay(Self.day(seed: 3, .ndjson), named: "day.ndjson", in: folder).input
        let two = ReadAheadTests.observe([input], options: ReadOptions(), jobs: 2)
        let appLines = two.outcome.sessions.flatMap(\.events).filter { $0.role == .app }
        #expect(appLines.count > 50)
        #expect(Self.judged(input, options: ReadOptions()) > 0)
        #expect(two == ReadAheadTests.observe([input], options: ReadOptions(), jobs: 1))
    }

    /// Lines of every launch role and of none, for the two filters' answers.
    static let filterLines: [(process: String, pid: Int?, message: String)] = [
        ("locationd", 88, "-[CLClientManager onClientEvent:] Client com.example.maps has registered"),
        ("runningboardd", 33, "Now tracking process: [app<com.example.ledger(501)>:2231]"),
        ("runningboardd", 33, "Acquiring assertion targeting system"),
        ("SpringBoard", 34, "[app<com.example.ledger>:2231] Setting process visibility to: Foreground"),
        ("kernel", 0, "Sandbox: geod(412) deny(1) file-read-data"),
        ("Ledger Pro", 2231, "didFinishLaunchingWithOptions applicationState=2"),
        ("Ledger Pro", nil, "didFinishLaunchingWithOptions applicationState=2"),
        ("geod", 214, "Cache hit ratio 65%, 3220 entries"),
        ("geod", nil, "Cache hit ratio 65%, 3220 entries"),
        ("dasd", 105, "Attempting prewarm for com.example.ledger"),
        ("dasd", 105, "Trigger evaluation complete"),
        ("dasd", 105, "Prewarm not yet allowed."),
        ("runningboardd", 33, "Prewarm not yet allowed."),
        ("securityd", 115, "Ledger Pro[2231]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308"),
        ("securityd", 115, "Ledger Pro[2231]/1#4 LF=0 copy_matching"),
        ("", nil, "Executing launch request for app<com.example.ledger(501)> (DAS Prewarm launch)"),
    ]

    /// The offer a reader makes of `line`, with `note` as the reader's note on its name; the answer and the note the
    /// offer comes back with.
    static func answers(_ line: (process: String, pid: Int?, message: String), note: UInt8 = 0,
                        _ answer: (inout RecordOffer) -> Bool) -> (taken: Bool, note: UInt8) {
        Array(line.message.utf8).withUnsafeBytes { message in
            Array(line.process.utf8).withUnsafeBytes { name in
                var offer = RecordOffer(processName: name, pid: line.pid, message: message, nameNote: note)
                let taken = answer(&offer)
                return (taken, offer.nameNote)
            }
        }
    }

    @Test("a process's name note (worked out once per name, kept by the reader) gets the answer its name gets, from both gatings",
          arguments: [true, false])
    func noteAnswersAsName(followsClassifier: Bool) throws {
        var gating = LaunchLineGating(table: SignatureTable.builtIn, followsClassifier: followsClassifier)
        var ahead = AheadLaunchLineGating(gate: gating.aheadGate)
        for line in Self.filterLines {
            let first = Self.answers(line) { gating.takes(&$0) }
            #expect(first.note != 0, "the gating notes every name it works out")
            // Asked again by name (its role remembered by the gating) and with the note (read from it): the same answer.
            #expect(Self.answers(line) { gating.takes(&$0) }.taken == first.taken, "\(line)")
            let noted = Self.answers(line, note: first.note) { gating.takes(&$0) }
            #expect(noted.taken == first.taken && noted.note == first.note, "\(line)")
            // A fresh gating, which has remembered no name, agrees.
            var fresh = LaunchLineGating(table: SignatureTable.builtIn, followsClassifier: followsClassifier)
            #expect(Self.answers(line) { fresh.takes(&$0) }.taken == first.taken, "\(line)")
            var judged: [RecordAdmission] = []
            _ = Self.answers(line) { judged.append(ahead.admission(&$0)); return true }
            _ = Self.answers(line, note: first.note) { judged.append(ahead.admission(&$0)); return true }
            #expect(Set(judged.map { "\($0)" }).count == 1, "\(line): \(judged)")
        }
        // A note is its role, both ways; names of different roles get different notes, names of one role one note.
        for role in ProcessRole.allCases.map(Optional.some) + [nil] { #expect(ProcessRole(nameNote: role.nameNote) == role) }
        func note(_ process: String) -> UInt8 { Self.answers((process, nil, "")) { gating.takes(&$0) }.note }
        #expect(note("runningboardd") != note("SpringBoard"))
        #expect(note("Ledger Pro") == note("geod"))
        #expect(note("Ledger Pro") != note("locationd"))
    }

    @Test("the ahead judge refuses only what the gating refuses whatever it has learnt")
    func aheadJudgeAgreesWithGating() throws {
        var gating = LaunchLineGating(table: SignatureTable.builtIn)
        var ahead = AheadLaunchLineGating(gate: gating.aheadGate)
        for line in Self.filterLines {
            var judgement = RecordAdmission.admitted
            _ = Self.answers(line) { judgement = ahead.admission(&$0); return true }
            let takes = Self.answers(line) { gating.takes(&$0) }.taken
            switch judgement {
            case .refused:
                #expect(!takes, "\(line)")
            case .refusedUnlessLearnt(let pid):
                #expect(pid == line.pid)
                var question = RecordOffer(processName: UnsafeRawBufferPointer(start: nil, count: 0), pid: pid,
                                           message: UnsafeRawBufferPointer(start: nil, count: 0), unlessLearnt: pid)
                #expect(takes == gating.takes(&question), "\(line)")
            case .admitted:
                break
            }
        }
    }
}
