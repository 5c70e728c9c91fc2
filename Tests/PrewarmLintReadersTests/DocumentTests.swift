import Foundation
import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// A pasted document read block by block.
@Suite("a pasted document")
struct DocumentTests {
    /// A real Console copy line (Corpus/real-logs/03, from forcedotcom/SalesforceMobileSDK-iOS#3437), tabs kept.
    static let consoleLine = "115\tdefault\t14:14:22.944797+1100\tsecurityd\tlogoutRepro[2247]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308 \"ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.\""
    /// A real idevicesyslog line (Corpus/real-logs/14).
    static let idevicesyslogLine = try! String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus/real-logs/14-macios10086-idevicesyslog-ipad-bootstrap-success.log"), encoding: .utf8)
        .split(separator: "\n").first { !$0.hasPrefix("#") }.map(String.init)!

    func read(_ text: String) throws -> ReaderVerifier.Outcome {
        var configuration = ReaderConfiguration(inputName: "issue.md")
        configuration.timeInference.date = CivilDateTime(year: 2021, month: 10, day: 20)
        configuration.timeInference.year = 2021
        return try ReaderVerifier.verify(Array(text.utf8), configuration: configuration)
    }

    @Test("two fenced blocks of two formats: each read on its own, at the document's lines")
    func twoFormats() throws {
        let outcome = try read("Steps:\n\n```\n\(Self.consoleLine)\n```\n\nand from idevicesyslog:\n~~~text\n\(Self.idevicesyslogLine)\n~~~\n")
        #expect(outcome.format == .document)
        #expect(outcome.events.map(\.origin.line) == [4, 9])
        #expect(outcome.events.first?.process == "securityd")
        #expect(outcome.events.last?.timestamp.text.hasPrefix(String(Self.idevicesyslogLine.prefix(15))) == true)
        // "Steps:" and the blank line after it, "and from idevicesyslog:".
        #expect(outcome.statistics.skipped[.prose] == 3)
    }

    @Test("a quoted reply with a fence inside, a backticked line in the text, an indented block after a blank line")
    func quotedBacktickedIndented() throws {
        let second = Self.consoleLine.replacingOccurrences(of: "22.944797", with: "22.949368")
        let third = Self.consoleLine.replacingOccurrences(of: "22.944797", with: "22.958236")
        let outcome = try read("""
            On Monday you wrote:
            > ```
            > \(Self.consoleLine)
            > ```

            Also this line: 

            `\(second)`

                \(third)

            """)
        #expect(outcome.events.map(\.origin.line) == [3, 8, 10])
        #expect(outcome.events.allSatisfy { $0.process == "securityd" && $0.pid == 115 && $0.message.hasSuffix("keychain is locked.\"") })
    }

    @Test("a block no reader takes is named with its lines and first line; text is counted as prose")
    func unreadBlock() throws {
        let outcome = try read("""
            ```swift
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
            ```
            ```
            \(Self.consoleLine)
            ```
            """)
        let unread = try #require(outcome.diagnostics.first { $0.code == .unreadRegion })
        #expect(unread.origin.line == 2)
        #expect(unread.message.contains("fenced block at lines 2–2 is not a log"))
        #expect(unread.message.contains("let query"))
        #expect(outcome.events.count == 1)
    }

    @Test("a document with no log in it is refused as not a log, its first block named")
    func noLog() throws {
        let outcome = try read("# Notes\n\n```swift\nlet x = 1\n```\n")
        #expect(outcome.failure?.code == .unrecognizedFormat)
        #expect(outcome.failure?.message.contains("one block is not a log prewarm-lint reads (fenced block at lines 4–4: “let x = 1”)") == true)
        #expect(outcome.format == nil)
    }

    @Test("a fence never closed runs to the document's end; a line indented right after text continues it")
    func unclosedAndContinuation() throws {
        let outcome = try read("<details>\n<summary>log</summary>\n\n```\n\(Self.consoleLine)\n\tcontinued\n")
        #expect(outcome.events.count == 1)
        #expect(outcome.events.first?.message.hasSuffix("\n\tcontinued") == true)
    }

    /// trustwallet/trust-wallet-ios#812's summary (Corpus/formats/document-dyld-statistics-summary).
    static let preMainSummary = """
        Total pre-main time: 722.04 milliseconds (100.0%)
                 dylib loading time: 192.04 milliseconds (26.5%)
                rebase/binding time: 375.07 milliseconds (51.9%)
                    ObjC setup time:  80.15 milliseconds (11.1%)
                   initializer time:  74.63 milliseconds (10.3%)
                   slowest intializers :
                       libSystem.dylib :   2.92 milliseconds (0.4%)
            libMainThreadChecker.dylib :  15.59 milliseconds (2.1%)
                                 Trust :  46.08 milliseconds (6.3%)
        """
    /// An Xcode console line, in the shape of Corpus/real-logs/40 (fl_umeng#16).
    static let xcodeConsoleLine = "2021-10-20 08:12:22.990000+0000 Runner[25951:23399161] [Reporter] SDK init success"

    /// Documents in the shapes people paste: blocks of every kind, each right after the one before or after text.
    static func pastedDocuments() -> [String] {
        let console = consoleLine, later = consoleLine.replacingOccurrences(of: "22.944797", with: "22.958236")
        return [
            "Steps:\n\n```\n\(console)\n```\n\nand from idevicesyslog:\n~~~text\n\(idevicesyslogLine)\n~~~\nThanks\n",
            "Before:\n> \(later)\n> \(later)\nthen\n> \(console)\n> \(console)\n",
            "```\n\(console)\n```\n    \(idevicesyslogLine)\n    \(idevicesyslogLine)\ntext\n\n\t\(later)\n",
            "<details>\n<summary>one</summary>\n\n```\n\(later)\n```\n</details>\n<details>\n<summary>two</summary>\n<pre>\n\(console)\n</pre>\n</details>\n",
            "`\(console)`\nnote\n\n\(idevicesyslogLine)\n\(idevicesyslogLine)\n\n```\nnot a log\n```\n> \(later)\n> \(later)\n```\n\(console)\n",
            "text\n```\n\(console)\n\tcontinued\n```\n```\n\(console)\n\tcontinued\n```\n~~~\n\(idevicesyslogLine)\n",
            // dyld's statistics pasted bare, then (after a blank line) the Xcode console lines whose first names their launch.
            "```\n\(console)\n```\n\n\(preMainSummary)\n\n\(xcodeConsoleLine)\n\(xcodeConsoleLine)\n",
            "> \(later)\n> \(later)\n\(preMainSummary)\n```\n\(xcodeConsoleLine)\n```\n",
            // Lines read alone, between logs: a RunningBoard attribute line, a securityd line in prose.
            "```\n\(console)\n```\n<RBSDomainAttribute| domain:\"com.apple.dasd\" name:\"DYLDLaunch\" sourceEnvironment:\"(null)\">\n\nthen securityd[115]: SecItemCopyMatching: (-25308)\n> \(later)\n> \(later)\n",
        ]
    }

    @Test("a document is cut only where its parts, each read as a document from its cut, read as the whole does; in any chunking")
    func partsReadAsTheWhole() throws {
        var configuration = ReaderConfiguration(inputName: "issue.md")
        configuration.timeInference.date = CivilDateTime(year: 2021, month: 10, day: 20)
        configuration.timeInference.year = 2021
        var cutDocuments = 0
        for document in Self.pastedDocuments() {
            let bytes = Array(document.utf8)
            func parts(chunkSize: Int) -> [DocumentPartition.Part] {
                var partition = DocumentPartition(maximumLineLength: 1 << 20)
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + chunkSize)
                    bytes[offset..<end].withUnsafeBytes { partition.read($0) }
                    offset = end
                }
                return partition.finish()
            }
            let cut = parts(chunkSize: bytes.count)
            for size in [1, 2, 7, 64] { #expect(parts(chunkSize: size) == cut, "\(document.prefix(40)) in chunks of \(size)") }
            guard !cut.isEmpty else { continue }
            cutDocuments += 1
            let whole = ReaderVerifier.read(bytes, configuration: configuration)
            var events: [LogEvent] = [], preMain: [PreMainStatistics] = [], fragments: [LogFragment] = [], lines = 0, prose = 0
            for part in cut {
                var partConfiguration = configuration
                partConfiguration.start = part.start
                partConfiguration.isDocumentPart = true
                let read = ReaderVerifier.read(Array(bytes[part.start.byteOffset..<(part.end ?? bytes.count)]), configuration: partConfiguration,
                                               format: .document)
                events += read.events
                preMain += read.preMainStatistics
                fragments += read.fragments
                lines += read.statistics.lines
                prose += read.statistics.skipped[.prose] ?? 0
            }
            #expect(events == whole.events, "\(document.prefix(40))")
            #expect(preMain == whole.preMainStatistics, "\(document.prefix(40))")
            #expect(fragments == whole.fragments, "\(document.prefix(40))")
            #expect(lines == whole.statistics.lines)
            #expect(prose == (whole.statistics.skipped[.prose] ?? 0))
            // Each part holds a log.
            #expect(cut.count == Set(events.map { e in cut.lastIndex { $0.start.line <= e.origin.line }! }).count)
        }
        #expect(cutDocuments >= 5)
    }

    @Test("a document of more logs than the parts allowed is cut into at most that many: memory bounded by the parts, not the blocks")
    func manyLogsFewParts() {
        var text = ""
        for index in 0..<5_000 {
            // Each block its own (a repeat is no log of its own): another pid in each.
            let line = Self.consoleLine.replacingOccurrences(of: "[2247]", with: "[\(index + 100)]")
            text += index % 2 == 0 ? "```\n\(line)\n```\n" : "> \(line)\n> \(line)\n\n"
        }
        var partition = DocumentPartition(maximumLineLength: 1 << 20)
        Array(text.utf8).withUnsafeBytes { partition.read($0) }
        let parts = partition.finish()
        #expect(parts.count > DocumentPartition.maximumParts / 2 && parts.count <= DocumentPartition.maximumParts)
        #expect(parts.first?.start == .beginning && parts.last?.end == nil)
        #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.end == $1.start.byteOffset })
        #expect(partition.repeatedRegions.isEmpty)
    }

    @Test("a document of one block pasted 5,000 times is one part, the whole, with each repeat's first line listed, whatever the block's shape")
    func repeatsListed() {
        var text = "Logs:\n\n"
        var firsts: [Int] = []
        for index in 0..<5_000 {
            text += index % 2 == 0 ? "```\n" : "\n"
            if index > 0 { firsts.append(text.utf8.count) }
            text += index % 2 == 0 ? "\(Self.consoleLine)\n```\n" : "> \(Self.consoleLine)\n\n"
        }
        var partition = DocumentPartition(maximumLineLength: 1 << 20)
        Array(text.utf8).withUnsafeBytes { partition.read($0) }
        #expect(partition.finish() == [DocumentPartition.Part(start: .beginning, end: nil)])
        #expect(partition.repeatedRegions == firsts)
    }

    @Test("a hostile document — ten thousand tiny fences, quotes nested on every line, a <details> on every line — reads in bounded time, its warnings counted")
    func hostileDocument() throws {
        var text = "```\n\(Self.consoleLine)\n```\n"
        for index in 0..<30_000 { text += index % 3 == 0 ? "```\nx\n```\n" : index % 3 == 1 ? "> > > > <details>\n" : "<details>\n" }
        var configuration = ReaderConfiguration(inputName: "issue.md")
        configuration.timeInference.date = CivilDateTime(year: 2021, month: 10, day: 20)
        let started = ContinuousClock.now
        let outcome = ReaderVerifier.read(Array(text.utf8), configuration: configuration, chunkSize: 65_536)
        // Linear: well under a second on this machine; ten times the target, so never flaky.
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(outcome.events.count == 1)
        // Each tiny fence named; a quoted `<details>` is the quote's own structure, as a bare one is the document's.
        #expect(outcome.diagnostics.filter { $0.code == .unreadRegion }.count == 10_000)
        #expect(outcome.statistics.lines == 3 + 30_000 + 2 * 10_000)
    }

    @Test("a Console copy whose tabs became spaces: each head read by its shape, a space before the offset kept with the time, the guess said")
    func consoleCopyWithSpaces() throws {
        // The simulator's time with a space before its offset (Corpus/real-logs/17, yglukhov/nimx#449), tabs lost.
        let outcome = try read("default  16:13:40.069955 +0100  assertiond  [mynimx:5529] workspaceConnectedWithTaskPortRight\n"
            + "115 default 14:14:22.944797+1100 securityd logoutRepro[2247]/1#4 LF=0 copy_matching\n")
        #expect(outcome.format == .consoleCopy)
        #expect(outcome.events.map(\.process) == ["assertiond", "securityd"])
        #expect(outcome.events.map(\.pid) == [nil, 115])
        #expect(outcome.events.first?.message == "[mynimx:5529] workspaceConnectedWithTaskPortRight")
        #expect(outcome.events.first?.timestamp.utcOffsetSeconds == 3600)
        #expect(outcome.diagnostics.contains { $0.code == .guessedColumns && $0.severity == .warning })
    }
}
