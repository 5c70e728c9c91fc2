import Foundation
import PrewarmLintModel
@testable import PrewarmLintReaders
import PrewarmLintTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Plist and xctrace inputs: hostile documents refused with one diagnostic each, nothing fetched,
/// nothing expanded, memory bounded; malformed XML keeps what came before it.
@Suite("XML inputs")
struct XMLInputTests {
    static let configuration = ReaderConfiguration(inputName: "hostile.plist")

    static func read(_ text: String, chunkSize: Int? = nil) -> ReaderVerifier.Outcome {
        ReaderVerifier.read(Array(text.utf8), configuration: configuration, chunkSize: chunkSize)
    }

    static let entry = "<dict><key>timestamp</key><string>2024-03-18 07:41:02.118420-0700</string><key>processImagePath</key><string>/usr/libexec/dasd</string><key>eventMessage</key><string>Attempting prewarm for com.example.ledger</string></dict>"

    @Test("billion laughs: refused at the first entity declaration, never expanded")
    func billionLaughs() {
        var declarations = "<!ENTITY lol \"lol\">\n"
        for level in 2...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 2 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        let document = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n\(declarations)]>\n<plist version=\"1.0\"><array>\(Self.entry)<dict><key>eventMessage</key><string>&lol9;</string></dict></array></plist>\n"
        let outcome = Self.read(document)
        #expect(outcome.format == .plist)
        #expect(outcome.events.isEmpty)
        #expect(outcome.diagnostics.map(\.code) == [.refusedInput])
        #expect(outcome.diagnostics.first?.message == "the document declares the entity 'lol'; entity declarations are refused, never expanded (billion laughs, external entities) (column 19)")
        #expect(outcome.diagnostics.first?.origin.line == 3)
    }

    @Test("an external entity naming a local file: refused, the file's content never appears")
    func externalEntity() throws {
        let secretFile = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-secret-\(UUID().uuidString)")
        try "TOP-SECRET-\(UUID().uuidString)".write(to: secretFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secretFile) }
        let secret = try String(contentsOf: secretFile, encoding: .utf8)
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [ <!ENTITY secret SYSTEM "file://\(secretFile.path)"> ]>
            <plist version="1.0"><array><dict><key>timestamp</key><string>2024-03-18 07:41:02.118420-0700</string><key>eventMessage</key><string>&secret;</string></dict></array></plist>
            """
        let outcome = Self.read(document)
        #expect(outcome.events.isEmpty)
        #expect(outcome.diagnostics.map(\.code) == [.refusedInput])
        #expect(!outcome.diagnostics.contains { $0.message.contains(secret) })
    }

    @Test("a DOCTYPE naming a remote DTD: never fetched (a listening socket sees no connection), the entries read")
    func remoteDTD() throws {
        // A local TCP listener stands in for the remote host: any fetch would connect to it.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        #expect(bound == 0)
        #expect(listen(listener, 4) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://127.0.0.1:\(port)/PropertyList-1.0.dtd">
            <plist version="1.0"><array>\(Self.entry)</array></plist>
            """
        let outcome = Self.read(document)
        #expect(outcome.events.map(\.message) == ["Attempting prewarm for com.example.ledger"])
        #expect(outcome.diagnostics.isEmpty)
        let accepted = accept(listener, nil, nil)
        if accepted >= 0 { close(accepted) }
        #expect(accepted < 0 && (errno == EAGAIN || errno == EWOULDBLOCK), "the DTD URL was fetched")
    }

    @Test("10,000-deep nesting: refused at the depth limit with one diagnostic; entries before it stand")
    func deepNesting() {
        let document = "<?xml version=\"1.0\"?>\n<plist><array>\(Self.entry)\n" + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000) + "</array></plist>\n"
        let outcome = Self.read(document)
        #expect(outcome.events.count == 1)
        #expect(outcome.diagnostics.map(\.code) == [.refusedInput])
        #expect(outcome.diagnostics.first?.message.hasPrefix("elements nested deeper than 128 levels") == true)
    }

    // Its memory bound is measured on the binary, in a process of its own: MemoryBoundTests.
    @Test("a 200 MB text node: streamed through in chunks, the entry skipped with one diagnostic, the next entry read")
    func hugeTextNode() throws {
        var reader = LogStreamReader(configuration: Self.configuration)
        var events: [LogEvent] = []
        var diagnostics: [ReaderDiagnostic] = []
        let collect: (ReaderOutput) -> Void = { output in
            switch output {
            case .event(let event): events.append(event)
            case .diagnostic(let diagnostic): diagnostics.append(diagnostic)
            case .preMainStatistics, .fragment, .partStart: Issue.record("no statistics, fragment or part in an XML export")
            }
        }
        try Array("<?xml version=\"1.0\"?>\n<plist><array><dict><key>eventMessage</key><string>".utf8).withUnsafeBytes { try reader.read($0, emit: collect) }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<200 { try chunk.withUnsafeBytes { try reader.read($0, emit: collect) } }
        try Array("</string></dict>\n\(Self.entry)\n</array></plist>\n".utf8).withUnsafeBytes { try reader.read($0, emit: collect) }
        try reader.finish(emit: collect)
        #expect(events.map(\.message) == ["Attempting prewarm for com.example.ledger"])
        #expect(diagnostics.map(\.code) == [.lineTooLong])
    }

    @Test("malformed XML mid-file: the entries before it stand, one diagnostic with line and column, every line accounted")
    func malformedMidFile() {
        let document = "<?xml version=\"1.0\"?>\n<plist><array>\n\(Self.entry)\n\(Self.entry)\n<dict><key>eventMessage</string></dict>\n\(Self.entry)\n</array></plist>\n"
        for chunkSize in [nil, 1, 7] as [Int?] {
            let outcome = Self.read(document, chunkSize: chunkSize)
            #expect(outcome.events.count == 2)
            #expect(outcome.diagnostics.map(\.code) == [.malformedXML])
            let diagnostic = outcome.diagnostics.first
            #expect(diagnostic?.origin.line == 5)
            #expect(diagnostic?.message == "malformed XML (column 33): Opening and ending tag mismatch: key line 5 and string; the rest of the input is not read")
            let statistics = outcome.statistics
            #expect(statistics.lines == statistics.eventLines + statistics.skipped.values.reduce(0, +) + statistics.diagnosedLines)
            // Lines 5 to 7: the broken entry and everything after it.
            #expect(statistics.diagnosedLines == 3)
        }
    }

    @Test("a plist that is not a log (Info.plist) reads as no events, with a diagnostic saying why")
    func notALogPlist() {
        let outcome = Self.read("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.example.ledger</string></dict></plist>\n")
        #expect(outcome.format == .plist)
        #expect(outcome.events.isEmpty)
        #expect(outcome.diagnostics.map(\.code) == [.invalidRecord])
    }

    @Test("a binary plist over the size cap is refused with a clear error; a corrupt one too")
    func binaryPlistLimits() {
        var oversized = Array("bplist00".utf8)
        oversized += [UInt8](repeating: 0, count: BinaryPlistLogDecoder.maximumSize + 1)
        let big = ReaderVerifier.read(oversized, configuration: Self.configuration, chunkSize: 1 << 20)
        #expect(big.format == .binaryPlist)
        #expect(big.diagnostics.map(\.code) == [.lineTooLong])
        #expect(big.diagnostics.first?.message.contains("plutil -convert xml1") == true)
        let corrupt = ReaderVerifier.read(Array("bplist00garbage".utf8), configuration: Self.configuration)
        #expect(corrupt.events.isEmpty)
        #expect(corrupt.diagnostics.map(\.code) == [.invalidRecord])
        #expect(corrupt.diagnostics.first?.severity == .error)
    }

    @Test("every scenario's plist and bplist renderings give exactly the events of its ndjson rendering, but for where they are")
    func plistMatchesNDJSON() throws {
        let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/scenarios")
        let names = try FileManager.default.contentsOfDirectory(atPath: scenarios.path).sorted()
        #expect(names.count >= 13)
        for name in names {
            let folder = scenarios.appendingPathComponent(name)
            func events(_ file: String) throws -> [LogEvent] {
                let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
                return ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: file)).events.map { event in
                    var placeless = event
                    placeless.origin = EventOrigin(input: "", line: 0, byteOffset: 0)
                    return placeless
                }
            }
            let reference = try events("log.ndjson")
            #expect(!reference.isEmpty)
            #expect(try events("log.plist") == reference, "\(name): log.plist")
            #expect(try events("log.bplist") == reference, "\(name): log.bplist")
        }
    }

    @Test("an xctrace table of a scenario gives the events of its ndjson rendering, for the fields it has")
    func xctraceMatchesNDJSON() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/scenarios/prewarm-then-launch-scene-app")
        let ndjson = try [UInt8](Data(contentsOf: folder.appendingPathComponent("log.ndjson")))
        let reference = ReaderVerifier.read(ndjson, configuration: ReaderConfiguration(inputName: "log.ndjson"))
        #expect(reference.events.count == 13)
        // The run starts at 00:00 of the scenario's day at -07:00; every event as an os-log row.
        let offset = -7 * 3600
        let day = CivilDateTime(year: 2024, month: 3, day: 18)
        let start = day.microsecondsSinceEpoch(utcOffsetSeconds: offset)
        var xml = "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node xpath='//trace-toc[1]/run[1]/data[1]/table[1]'><schema name=\"os-log\">"
        for column in ["time", "thread", "process", "message-type", "format-string", "backtrace", "subsystem", "category", "message", "emit-location"] {
            xml += "<col><mnemonic>\(column)</mnemonic></col>"
        }
        xml += "</schema>\n"
        var nextID = 1
        var processIDs: [String: Int] = [:]
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;")
        }
        for event in reference.events {
            let nanoseconds = (event.timestamp.microsecondsSinceEpoch - start) * 1000
            let key = "\(event.process) (\(event.pid!))"
            let process: String
            if let id = processIDs[key] {
                process = "<process ref=\"\(id)\"/>"
            } else {
                processIDs[key] = nextID
                process = "<process id=\"\(nextID)\" fmt=\"\(escaped(key))\"><pid id=\"\(nextID + 1)\" fmt=\"\(event.pid!)\">\(event.pid!)</pid></process>"
                nextID += 2
            }
            xml += "<row><event-time id=\"\(nextID)\" fmt=\"…\">\(nanoseconds)</event-time>"
            xml += "<thread id=\"\(nextID + 1)\" fmt=\"0x\(String(event.threadID ?? 0, radix: 16))\"><tid id=\"\(nextID + 2)\">\(event.threadID ?? 0)</tid></thread>"
            xml += process
            xml += "<event-type id=\"\(nextID + 3)\" fmt=\"\(event.type.rawValue.capitalized)\">\(event.type.rawValue.capitalized)</event-type><sentinel/><sentinel/>"
            xml += "<subsystem id=\"\(nextID + 4)\">\(escaped(event.subsystem ?? ""))</subsystem><category id=\"\(nextID + 5)\">\(escaped(event.category ?? ""))</category>"
            xml += "<os-log-metadata id=\"\(nextID + 6)\" fmt=\"\(escaped(event.message))\"/><sentinel/></row>\n"
            nextID += 7
        }
        xml += "</node></trace-query-result>\n"
        var inference = TimeInference()
        inference.date = day
        inference.utcOffsetSeconds = offset
        let trace = ReaderVerifier.read(Array(xml.utf8), configuration: ReaderConfiguration(inputName: "os-log.xml", timeInference: inference))
        #expect(trace.format == .xctrace)
        #expect(trace.events.count == reference.events.count)
        for (a, b) in zip(trace.events, reference.events) {
            #expect(a.timestamp.microsecondsSinceEpoch == b.timestamp.microsecondsSinceEpoch)
            #expect(a.process == b.process && a.pid == b.pid && a.threadID == b.threadID)
            #expect(a.subsystem == b.subsystem && a.category == b.category && a.type == b.type)
            #expect(a.message == b.message)
        }
    }

}
