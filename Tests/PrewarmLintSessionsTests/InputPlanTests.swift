import Foundation
import PrewarmLint
import PrewarmLintReaders
import Testing

/// `InputPlan`: what the user named becomes sources before anything is classified, each head sniffed once.
@Suite("planning the inputs")
struct InputPlanTests {
    static func corpus(_ path: String) -> String {
        GatedReadingTests.packageRoot.appendingPathComponent("Corpus/formats/\(path)").path
    }

    static func plan(_ paths: [String]) -> InputPlan {
        InputPlan(paths.map { DiscoveredInput(input: .file($0), foundInDirectory: false) }, options: ReadOptions(), cutsDocumentsUpTo: 100)
    }

    @Test("a file read whole is sniffed while it is planned, and its reader takes that format without sniffing again")
    func sniffedOnce() {
        let console = Self.corpus("console-copy-pid-column/log.txt")
        let gzip = Self.corpus("log-show-ndjson-gzip/log.ndjson.gz")
        let document = Self.corpus("document-issue-body-console-copy-and-crash-report/issue.md")
        let plan = Self.plan([console, gzip, document])
        #expect(plan.sniffedFormats[.file(console)] == .consoleCopy)
        // Compressed: the reader sniffs the inflated bytes. A document cut into parts: each part sniffs its own.
        #expect(plan.sniffedFormats[.file(gzip)] == nil && plan.sniffedFormats[.file(document)] == nil)
        #expect(plan.sources.count > 3)
        // The reader takes the plan's word: told the Console copy is a `log show` capture, it reads it as one.
        var reader = InputReader(options: ReadOptions())
        reader.sniffedFormats = [.file(console): .logShow]
        let summary = reader.read(.file(console)) { _ in }
        #expect(summary.format == .logShow)
        #expect(InputReader(options: ReadOptions()).read(.file(console)) { _ in }.format == .consoleCopy)
    }
}
