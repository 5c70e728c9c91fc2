import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// Every real excerpt (Corpus/real-logs, copied byte for byte from the shared collection): read with the right format, every line accounted for.
@Suite("Corpus/real-logs")
struct RealLogsTests {
    static let folder = repositoryRoot.appendingPathComponent("Corpus/real-logs")
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".log") }.sorted()

    /// The format each excerpt's header names; nil for the message-only fragment.
    static func expectedFormat(of file: String) throws -> LogFormat? {
        let header = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("# format: ") } ?? ""
        if header.hasPrefix("# format: console-copy") { return .consoleCopy }
        if header.hasPrefix("# format: idevicesyslog") { return .idevicesyslog }
        if header.hasPrefix("# format: log-show-default") { return .logShow }
        if header.hasPrefix("# format: ndjson") { return .logShowNDJSON }
        if header.hasPrefix("# format: xcode-console") { return .xcodeConsole }
        if header.hasPrefix("# format: other (crash report text") { return .crashReportText }
        if header.hasPrefix("# format: crash-report (.ips") { return .crashReport }
        if header.hasPrefix("# format: document") { return .document }
        return nil
    }

    @Test("the real excerpts are here")
    func excerptsPresent() {
        #expect(Self.files.count >= 17, "expected the real excerpts in Corpus/real-logs")
    }

    @Test("each excerpt reads as the format its header names, the same in any chunking", arguments: files)
    func excerpt(file: String) throws {
        let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent(file)))
        let outcome = try ReaderVerifier.verify(bytes, configuration: ReaderConfiguration(inputName: file))
        if let format = try Self.expectedFormat(of: file) {
            #expect(outcome.format == format)
            #expect(outcome.failure == nil)
            if format == .crashReportText || format == .crashReport {
                // A report is its termination's (or exception's) event, after its launch's when it says its Launch Time;
                // everything else, the header included, is its structure. A cut .ips body may end before its termination.
                let launch = outcome.events.first?.message.hasPrefix("Launch Time: ") == true
                #expect(outcome.events.count == (launch ? 2 : 1) || (format == .crashReport && outcome.events.count == (launch ? 1 : 0)))
                if outcome.events.count == (launch ? 2 : 1) { #expect(outcome.events.last?.type == .fault) }
                if format == .crashReportText { #expect(outcome.statistics.eventLines + outcome.statistics.skipped.values.reduce(0, +) == outcome.statistics.lines) }
                return
            }
            // A paste's text is its prose, the header with it: what matters is that its log was read.
            if format == .document {
                #expect(!outcome.events.isEmpty)
                return
            }
            // The header is the only text before the records; every record line is in an event.
            let headerLines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix { $0.hasPrefix("# ") }.count
            // Text formats report the header as one orphan-lines run; ndjson reports each line that is not JSON.
            let covered = outcome.diagnostics.filter { $0.code == .orphanLines || $0.code == .malformedLine }
                .filter { $0.origin.line <= headerLines }.reduce(0) { $0 + $1.lineCount }
            #expect(covered >= headerLines)
            #expect(outcome.statistics.eventLines + covered >= outcome.statistics.lines - (outcome.statistics.skipped.values.reduce(0, +)))
        } else if try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8).contains("# format: other (fragment") {
            // A fragment of a log, no format's: read as a document for its lines that still show a log line's shape.
            #expect(outcome.format == .document && outcome.failure == nil)
            #expect(outcome.events.isEmpty && !outcome.fragments.isEmpty)
        } else {
            #expect(outcome.failure?.code == .unrecognizedFormat)
        }
    }

    @Test("the Lyft excerpt's prewarm line keeps every column")
    func lyftColumns() throws {
        let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent("01-lyft-das-prewarm-launch-line.log")))
        var configuration = ReaderConfiguration(inputName: "01")
        configuration.timeInference.date = CivilDateTime(year: 2022, month: 6, day: 8)
        let event = try #require(ReaderVerifier.read(bytes, configuration: configuration).events.first)
        #expect(event.process == "runningboardd")
        #expect(event.senderImage == "RunningBoard")
        #expect(event.category == "process")
        #expect(event.subsystem == nil)
        #expect(event.type == .default)
        #expect(event.message == "Executing launch request for application<com.xyz> (DAS Prewarm launch)")
        #expect(event.timestamp.iso8601 == "2022-06-08T15:11:38.784456-07:00")
        #expect(event.timestamp.inferred == [.year, .date])
        #expect(event.origin.line == 7)
    }

    @Test("the hard-wrapped log show excerpt is rebuilt into whole records")
    func wrappedLogShow() throws {
        let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent("32-blockblock1-macos-log-show-default-wrapped.log")))
        let events = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "32")).events
        #expect(events.count == 4)
        let first = try #require(events.first)
        #expect(first.process == "runningboardd")
        #expect(first.pid == 457)
        #expect(first.threadID == 0x8293)
        #expect(first.activityID == 0xdcdc)
        #expect(first.senderImage == "RunningBoard")
        #expect(first.subsystem == "com.apple.runningboard")
        #expect(first.category == "assertion")
        #expect(first.message == "Assertion 457-292-327\n(target:executable<BlockBlock Installer(502)>) will be created as active")
        #expect(events.last?.process == "tccd")
    }
}
