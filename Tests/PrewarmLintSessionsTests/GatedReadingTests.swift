import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// Each input's reader offers every record's head to the session pipeline before building it
/// (`SessionPipeline.filtersRecords`, `RecordOffer`), and the pipeline's gate refuses those its classifier would drop
/// unread; the reader then skips them without building them. Nothing the pipeline returns may change but the count of
/// skipped events.
@Suite("the pipeline's gate on offered records")
struct GatedReadingTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Everything a run returns, with the skipped-event counts apart.
    struct Outcome: Equatable {
        var sessions: [LaunchSession]
        var diagnostics: [ReaderDiagnostic]
        var decisions: [PrewarmDecision]
        var duplicateEvents: Int
        var statistics: [DecoderStatistics]
        var skipped: [Int]

        init(_ result: SessionPipeline.Result) {
            sessions = result.sessions
            diagnostics = result.diagnostics
            decisions = result.decisions
            duplicateEvents = result.duplicateEvents
            skipped = result.summaries.map(\.statistics.eventsSkipped)
            statistics = result.summaries.map {
                var statistics = $0.statistics
                statistics.eventsSkipped = 0
                return statistics
            }
        }

        /// The same but for how many events were skipped.
        func agrees(with other: Outcome) -> Bool {
            var other = other
            other.skipped = skipped
            return self == other
        }
    }

    static func outcomes(_ inputs: [DiscoveredInput], options: ReadOptions, separately: Bool = false)
        -> (filtered: Outcome, unfiltered: Outcome) {
        let filtering = SessionPipeline(reader: InputReader(options: options))
        var building = filtering
        building.filtersRecords = false
        func run(_ pipeline: SessionPipeline) -> Outcome {
            Outcome(separately ? pipeline.runSeparately(inputs) : pipeline.run(inputs))
        }
        return (run(filtering), run(building))
    }

    /// The formats whose reader asks the filter (the XML plist reader holds events back, and skips by process name only).
    static let filteredFormats = Set(DeviceLogFormat.allCases).subtracting([.plist])

    /// The outcomes of a small `log show` text of 2024, with the filter and without.
    static func outcomes(ofLog log: String) throws -> (filtered: Outcome, unfiltered: Outcome) {
        let folder = try TemporaryFolder("prewarm-lint-filter")
        defer { folder.remove() }
        let input = DiscoveredInput(input: .file(try folder.write(log.utf8, named: "device.log")), foundInDirectory: false)
        return outcomes([input], options: ReadOptions(timeInference: TimeInference(year: 2024)))
    }

    static let dayOptions = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024,
                                                                     utcOffsetSeconds: DeviceLogGenerator.utcOffsetSeconds))

    @Test("a generated device day, every format, read whole and seven bytes at a time: the same sessions, diagnostics, decisions and counts",
          arguments: DeviceLogFormat.allCases)
    func generatedDay(format: DeviceLogFormat) throws {
        let folder = try TemporaryFolder("prewarm-lint-filter")
        defer { folder.remove() }
        let (bytes, truth) = DeviceLogGenerator.generate(.init(seed: 31, targetBytes: 600_000, format: format, apps: 10, sessionsPerDay: 300))
        let input = DiscoveredInput(input: .file(try folder.write(bytes, named: "day.\(format.rawValue)")), foundInDirectory: false)
        for chunkSize in [1 << 20, 7] {
            var options = Self.dayOptions
            options.chunkSize = chunkSize
            let (filtered, unfiltered) = Self.outcomes([input], options: options)
            #expect(filtered.sessions.count >= truth.count / 2, "the day must hold sessions to compare")
            #expect(filtered.agrees(with: unfiltered), "chunk size \(chunkSize)")
            if Self.filteredFormats.contains(format) {
                // The filter must have refused records of processes the reader does not skip by name
                // (geod, akd, healthd…): otherwise this test compares nothing.
                #expect(filtered.skipped[0] > unfiltered.skipped[0] * 3 / 2, "chunk size \(chunkSize): \(filtered.skipped) vs \(unfiltered.skipped)")
            }
        }
    }

    @Test("one day in three exports and another day, merged as one device's logs: the same outcome")
    func merged() throws {
        let folder = try TemporaryFolder("prewarm-lint-filter")
        defer { folder.remove() }
        var inputs: [DiscoveredInput] = []
        for (seed, formats) in [(41, [DeviceLogFormat.logShow, .consoleCopy, .ndjson]), (42, [.idevicesyslog])] as [(UInt64, [DeviceLogFormat])] {
            let configuration = DeviceLogGenerator.Configuration(seed: seed, targetBytes: 300_000, apps: 10, sessionsPerDay: 300)
            inputs += try DeviceLogGenerator.writeExports(configuration, formats: formats, in: folder)
                .map { DiscoveredInput(input: .file($0), foundInDirectory: true) }
        }
        let (filtered, unfiltered) = Self.outcomes(inputs, options: Self.dayOptions)
        #expect(filtered.sessions.count > 20)
        #expect(filtered.duplicateEvents > 100)
        #expect(filtered.agrees(with: unfiltered))
        #expect(filtered.skipped.reduce(0, +) > unfiltered.skipped.reduce(0, +))
    }

    @Test("every corpus case and real excerpt, one by one: the same outcome")
    func corpusAndRealLogs() throws {
        // The corpus, its real excerpts (Corpus/real-logs) included.
        let corpus = InputDiscovery.expand([Self.packageRoot.appendingPathComponent("Corpus").path])
        #expect(corpus.inputs.count > 80)
        let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2022, month: 6, day: 8), year: 2022))
        let (filtered, unfiltered) = Self.outcomes(corpus.inputs, options: options, separately: true)
        #expect(filtered.sessions.count > 100)
        #expect(filtered.agrees(with: unfiltered))
        #expect(filtered.skipped.reduce(0, +) > unfiltered.skipped.reduce(0, +))
    }

    /// A `log show` header, dasd prewarming Ledger and runningboardd tracking its process, pid 2231 (the
    /// daemons' templates of docs/research/message-templates.md); each test adds its own lines.
    static let ledgerPrewarmed = """
        Timestamp                       Thread     Type        Activity             PID    TTL
        2024-03-18 03:10:00.100000-0700 0x1a2b     Default     0x0                  105    0    dasd: (DuetActivitySchedulerDaemon) [com.apple.duetactivityscheduler:prewarm] Attempting prewarm for com.example.ledger
        2024-03-18 03:10:00.200000-0700 0x1a2c     Default     0x0                  33     0    runningboardd: (RunningBoard) [com.apple.runningboard:job] [app<com.example.ledger(501)>:2231] Now tracking process

        """

    /// The filter and the classifier cannot drift apart: for every signature of the table, from every role it names,
    /// its own example line — after a line that makes pid 2231 an app's, as logs do — is taken by the gate
    /// whenever the classifier would keep it (for a session, or as a dasd decision). A new signature whose anchor the gate does not know fails here.
    @Test("the gate takes every signature's own example the classifier keeps, from every role it names",
          arguments: SignatureTable.builtIn.signatures.map(\.id))
    func filterFollowsTheClassifier(id: String) throws {
        let signature = try #require(SignatureTable.builtIn.signatures.first { $0.id == id })
        let processes: [ProcessRole: (name: String, pid: Int)] = [
            .dasd: ("dasd", 105), .runningboardd: ("runningboardd", 33), .springboard: ("SpringBoard", 34), .securityd: ("securityd", 115),
            .kernel: ("kernel", 0), .app: ("Ledger Pro", 2231), .other: ("geod", 412),
        ]
        var checked = 0
        for role in ProcessRole.allCases where signature.roles.contains(role) {
            let process = try #require(processes[role])
            let time = LogTimestamp(microsecondsSinceEpoch: 1_710_770_000_000_000, utcOffsetSeconds: 0, text: "2024-03-18 13:53:20")
            let start = LogEvent(timestamp: time, process: "runningboardd", pid: 33,
                                 message: "[app<com.example.ledger(501)>:2231] Now tracking process: [app<com.example.ledger(501)>:2231]",
                                 origin: EventOrigin(input: "x", line: 1, byteOffset: 0))
            let line = LogEvent(timestamp: time, process: process.name, pid: process.pid, message: signature.example,
                                origin: EventOrigin(input: "x", line: 2, byteOffset: 200))
            var classifier = EventClassifier()
            _ = classifier.classifyIfMeaningful(start)
            // Kept: classified for a session, or a dasd decision `stats` counts.
            guard classifier.classifyIfMeaningful(line) != nil || classifier.lastDecision != nil else { continue }
            var stream = SessionStream(inputName: "x")
            _ = stream.consume(start)
            let admitted = Array(signature.example.utf8).withUnsafeBytes { message in
                Array(process.name.utf8).withUnsafeBytes { name in
                    var offer = RecordOffer(processName: name, pid: process.pid, message: message)
                    return stream.takes(&offer)
                }
            }
            #expect(admitted, "the filter drops \(id)'s example from \(process.name), which the classifier keeps")
            checked += 1
        }
        #expect(checked > 0 || signature.roles == [.other], "\(id): its example is kept from none of its roles")
    }

    @Test("a line of a process not yet known as an app, naming its app on its second line, is built and placed in the session")
    func namingOnContinuation() throws {
        // `log show` lines (the daemons' templates of docs/research/message-templates.md): dasd
        // prewarms the app; then a client process that is no launch daemon (geod here) logs RunningBoard's
        // state update of the app, the app's identity on the message's second line. Its first line alone
        // names nothing, so the filter refuses it; the second line must bring it back.
        let log = Self.ledgerPrewarmed + """
        2024-03-18 03:10:01.000000-0700 0x2b3c     Default     0x0                  214    0    geod: (RunningBoardServices) [com.apple.runningboard:connection] State of a client changed:
        Received state update for 2231 (app<com.example.ledger(501)>, running-suspended-NotVisible
        2024-03-18 03:10:02.000000-0700 0x2b3d     Default     0x0                  214    0    geod: (GeoServices) [com.apple.GeoServices:tiles] Cache hit ratio 65%, 3220 entries, 1369 KB resident

        """
        let (filtered, unfiltered) = try Self.outcomes(ofLog: log)
        #expect(filtered.agrees(with: unfiltered))
        try #require(filtered.sessions.count == 1)
        let session = filtered.sessions[0]
        #expect(session.app.bundleID == "com.example.ledger")
        // The suspension comes from geod's two-line record, at its first line.
        #expect(session.milestone(.suspended)?.evidence.line == 4)
        // geod's one-line record is the only one refused.
        #expect(filtered.skipped == [1])
        #expect(unfiltered.skipped == [0])
    }

    @Test("a daemon line that matches no template but names the app's pid still teaches it: the app's own line is the app's")
    func untemplatedDaemonLineNamingThePID() throws {
        // runningboardd's `Set jetsam priority` (template '%{public}@ Set jetsam priority to %d [%d] flag[%d]'
        // in RBJetsamPolicy, docs/research/message-templates.md) matches no signature, but it is the
        // only line saying that pid 2231 is com.example.ledger; without it, Ledger's keychain failure
        // would be another process's line.
        let log = """
        Timestamp                       Thread     Type        Activity             PID    TTL
        2024-03-18 03:10:00.100000-0700 0x1a2b     Default     0x0                  105    0    dasd: (DuetActivitySchedulerDaemon) [com.apple.duetactivityscheduler:prewarm] Attempting prewarm for com.example.ledger
        2024-03-18 03:10:00.200000-0700 0x1a2c     Default     0x0                  33     0    runningboardd: (RunningBoard) [com.apple.runningboard:process] [app<com.example.ledger(501)>:2231] Set jetsam priority to 100 [0] flag[1]
        2024-03-18 03:10:00.400000-0700 0x3c4d     Error       0x0                  2231   0    Ledger: (Security) [com.example.ledger:auth] SecItemCopyMatching: errSecInteractionNotAllowed (-25308)

        """
        let (filtered, unfiltered) = try Self.outcomes(ofLog: log)
        #expect(filtered.agrees(with: unfiltered))
        try #require(filtered.sessions.count == 1)
        #expect(filtered.sessions[0].app.bundleID == "com.example.ledger")
        #expect(filtered.sessions[0].app.pid == 2231)
        #expect(filtered.sessions[0].events.contains { $0.meaning == .keychainFailure && $0.origin.line == 4 }, "\(filtered.sessions[0].events)")
    }

    @Test("a kernel line that matches no template but names an app's pid teaches the app's process name: a later process on that pid is not the app")
    func kernelLineNamingTheAppPID() throws {
        // The kernel's `memorystatus: set assertion priority(%d) target %s:%d` (observed in real excerpt 11,
        // docs/research/message-templates.md) matches no signature, but it names pid 2231's process. A
        // line of another process on that pid (here `Ledger Widget`) is then not Ledger's: refusing the kernel
        // line would make its keychain failure Ledger's. The second kernel line names a daemon's pid: refused.
        let log = Self.ledgerPrewarmed + """
        2024-03-18 03:10:00.300000-0700 0x30efb    Default     0x0                  0      0    kernel: memorystatus: set assertion priority(10) target Ledger Pro:2231
        2024-03-18 03:10:00.350000-0700 0x30efc    Default     0x0                  0      0    kernel: memorystatus: set assertion priority(16) target healthd:109
        2024-03-18 03:10:00.400000-0700 0x3c4d     Error       0x0                  2231   0    Ledger Widget: (Security) [com.example.ledger:auth] SecItemCopyMatching: errSecInteractionNotAllowed (-25308)

        """
        let (filtered, unfiltered) = try Self.outcomes(ofLog: log)
        #expect(filtered.agrees(with: unfiltered))
        // The widget's keychain failure is its own hazard evidence: a session of that process, not Ledger's.
        try #require(filtered.sessions.count == 2)
        #expect(filtered.sessions[0].app.bundleID == "com.example.ledger")
        #expect(!filtered.sessions[0].events.contains { $0.meaning == .keychainFailure }, "\(filtered.sessions[0].events)")
        #expect(filtered.sessions[1].app == AppIdentity(processName: "Ledger Widget", pid: 2231))
        #expect(filtered.sessions[1].events.map(\.meaning) == [.keychainFailure])
        // Only the kernel line about healthd's pid is refused.
        #expect(filtered.skipped == [1])
    }
}
