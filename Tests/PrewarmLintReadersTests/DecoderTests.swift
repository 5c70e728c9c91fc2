import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// Field-by-field checks of single records in each text format.
@Suite("decoders")
struct DecoderTests {
    func events(_ text: String, format: LogFormat? = nil, configure: (inout ReaderConfiguration) -> Void = { _ in }) throws -> ReaderVerifier.Outcome {
        var configuration = ReaderConfiguration(inputName: "t")
        configuration.timeInference.year = 2024
        configuration.timeInference.date = CivilDateTime(year: 2024, month: 3, day: 18)
        configure(&configuration)
        return try ReaderVerifier.verify(Array(text.utf8), configuration: configuration, format: format)
    }

    @Test("idevicesyslog: process names with spaces and parentheses, image, level")
    func idevicesyslog() throws {
        let outcome = try events("Mar 18 07:41:02.366512 novio (R14)(CoreFoundation)[2768] <Error>: [Category] message\n")
        let event = try #require(outcome.events.first)
        #expect(event.process == "novio (R14)")
        #expect(event.senderImage == "CoreFoundation")
        #expect(event.pid == 2768)
        #expect(event.type == .error)
        #expect(event.message == "[Category] message")
        #expect(event.timestamp.inferred == [.year, .utcOffset])
    }

    @Test("pymobiledevice3: a label suffix is taken off only when it looks like one")
    func pymobiledevice3Label() throws {
        let outcome = try events("""
            2024-03-18 07:41:02.120871 runningboardd{RunningBoard}[33] <NOTICE>: hello [com.apple.runningboard][job]
            2024-03-18 07:41:03 app{app}[2] <INFO>: pick [Save][Cancel]

            """)
        #expect(outcome.events.map(\.message) == ["hello", "pick [Save][Cancel]"])
        #expect(outcome.events.first?.subsystem == "com.apple.runningboard")
        #expect(outcome.events.first?.category == "job")
        #expect(outcome.events.last?.timestamp.text == "2024-03-18 07:41:03")
    }

    @Test("log show compact: a bracketed subsystem and a later bracket in the message")
    func compact() throws {
        let outcome = try events("2026-10-09 09:06:13.125 Df Tideline[10112:19172] [com.apple.xpc:connection] [0x103e29630] activating connection\n")
        let event = try #require(outcome.events.first)
        #expect(event.process == "Tideline")
        #expect(event.threadID == 0x19172)
        #expect(event.subsystem == "com.apple.xpc")
        #expect(event.category == "connection")
        #expect(event.message == "[0x103e29630] activating connection")
    }

    @Test("lines before the first record become one orphan-lines diagnostic, then reading goes on")
    func orphans() throws {
        let outcome = try events("""
            Here is my log:
            (from the iPad)
            default\t21:28:47.038326-0500\tSpringBoard\tIcon tapped
            default\t21:28:47.039088-0500\tSpringBoard\tPrewarming for launch of com.x

            """)
        #expect(outcome.events.map(\.message) == ["Icon tapped", "Prewarming for launch of com.x"])
        let orphan = try #require(outcome.diagnostics.first { $0.code == .orphanLines })
        #expect(orphan.origin.line == 1)
        #expect(orphan.lineCount == 2)
        #expect(orphan.severity == .warning)
        #expect(orphan.message == "2 lines before the first record are not Console.app copy lines; skipped")
    }

    @Test("Console copy: every column read by its place (PID first as in real-logs 03, Library after Process as in 07); of two columns of digits the last that holds a number is the pid")
    func consoleColumns() throws {
        // PID, Type, Time, Process, Library, Subsystem, Category, Message (the second message with a tab of its own).
        let outcome = try events("""
            233\terror\t21:28:47.038326-0500\tSpringBoard\tFrontBoard\tcom.apple.FrontBoard\tprocess\tBootstrapping app<com.x>
            233\tFault\t21:28:47.040000 -0500\tSpringBoard\t\t\t\tsecond\twith a tab

            """, format: .consoleCopy)
        #expect(outcome.events.count == 2)
        let first = try #require(outcome.events.first)
        #expect(first.pid == 233)
        #expect(first.type == .error)
        #expect(first.process == "SpringBoard")
        #expect(first.senderImage == "FrontBoard")
        #expect(first.subsystem == "com.apple.FrontBoard")
        #expect(first.category == "process")
        #expect(first.message == "Bootstrapping app<com.x>")
        #expect(first.timestamp.iso8601 == "2024-03-18T21:28:47.038326-05:00")
        // The simulator's space before the offset; empty optional columns are none.
        let second = try #require(outcome.events.last)
        #expect(second.type == .fault)
        #expect(second.timestamp.iso8601 == "2024-03-18T21:28:47.040000-05:00")
        #expect(second.senderImage == nil && second.subsystem == nil && second.category == nil)
        #expect(second.message == "second\twith a tab")

        // Two columns of digits are both taken for a pid; the later one counts, unless it holds no number.
        let sample = (0..<400).map { "\(100 + $0)\t7\tdefault\t10:00:00.\(String(100_000 + $0))-0700\tapp\tline \($0)" }.joined(separator: "\n")
        let twoColumns = try events(sample + "\n" + "55\t-\tdefault\t10:00:01.000000-0700\tapp\tlate\n", format: .consoleCopy)
        #expect(twoColumns.events.count == 401)
        #expect(twoColumns.events.first?.pid == 7)
        #expect(twoColumns.events.last?.pid == 55)
    }

    @Test("an impossible time skips the record and its continuation lines with one diagnostic")
    func invalidTime() throws {
        let outcome = try events("""
            2023-02-30 08:22:51.916784+0300 0x3058     Info        0x0                  599    0    a: one
              continued
            2023-02-28 08:22:51.916784+0300 0x3058     Info        0x0                  599    0    b: two

            """)
        #expect(outcome.events.map(\.process) == ["b"])
        let diagnostic = try #require(outcome.diagnostics.first)
        #expect(diagnostic.code == .invalidTimestamp)
        #expect(diagnostic.lineCount == 2)
        #expect(diagnostic.message == "'2023-02-30 08:22:51.916784+0300' is not a valid time; record skipped")
    }

    @Test("a broken ndjson line is a diagnostic with its column, and the next line is read")
    func brokenNDJSON() throws {
        let outcome = try events("""
            {"timestamp":"2025-07-26 18:10:17.745652-0400","eventMessage":"one","processImagePath":"\\/sbin\\/launchd","processID":1}
            {"timestamp":"2025-07-26 18:10:17.745652-0400","eventMessage":"tw
            {"timestamp":"2025-07-26 18:10:17.745652-0400","eventMessage":"three","processImagePath":"\\/sbin\\/launchd","processID":1}

            """)
        #expect(outcome.events.map(\.message) == ["one", "three"])
        #expect(outcome.events.first?.process == "launchd")
        let diagnostic = try #require(outcome.diagnostics.first)
        #expect(diagnostic.code == .invalidRecord)
        #expect(diagnostic.origin.line == 2)
        #expect(diagnostic.message == "record is cut short (record ends inside a string)")
    }

    @Test("a json array cut inside an object keeps the records before it")
    func truncatedJSONArray() throws {
        let outcome = try events("""
            [{
              "timestamp" : "2025-07-26 18:10:17.745652-0400",
              "eventMessage" : "kept"
            },{
              "timestamp" : "2025-07-26 18:10:18.745652-0400",
              "eventMes
            """)
        #expect(outcome.format == .logShowJSON)
        #expect(outcome.events.map(\.message) == ["kept"])
        #expect(outcome.diagnostics.map(\.code) == [.truncatedInput])
        #expect(outcome.diagnostics.first?.origin.line == 4)
    }

    @Test("JSON escapes: surrogate pairs, \\u0000-range controls, a lone surrogate reported")
    func jsonEscapes() throws {
        let outcome = try events("""
            {"timestamp":"2025-07-26 18:10:17.745652-0400","eventMessage":"\\ud83d\\ude00 \\u00e9 \\u0001","processImagePath":"/x"}
            {"timestamp":"2025-07-26 18:10:17.745652-0400","eventMessage":"lone \\ud83d end","processImagePath":"/x"}

            """)
        #expect(outcome.events.map(\.message) == ["😀 é \u{01}", "lone \u{FFFD} end"])
        #expect(outcome.diagnostics.map(\.code) == [.invalidUTF8])
        #expect(outcome.diagnostics.first?.origin.line == 2)
    }

    @Test("a message longer than the limit is cut with one diagnostic, and its lines still count")
    func messageLimit() throws {
        let body = (0..<20).map { "\tline \($0) of a very long descriptor" }.joined(separator: "\n")
        let outcome = try events("default\t21:28:47.038326-0500\trunningboardd\tstart\n\(body)\ndefault\t21:28:48.000000-0500\tSpringBoard\tnext\n") {
            $0.limits.maximumMessageLength = 100
        }
        #expect(outcome.events.count == 2)
        #expect(outcome.events[0].message.utf8.count <= 100)
        #expect(outcome.diagnostics.filter { $0.code == .messageTooLong }.count == 1)
    }
}
