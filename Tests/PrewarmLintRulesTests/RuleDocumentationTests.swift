import Foundation
import PrewarmLint
import Testing

@Suite("docs/rules")
struct RuleDocumentationTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/rules")

    @Test("docs/rules is what the rules generate (run `swift run prewarm-lint rules --write-docs docs/rules`)")
    func upToDate() throws {
        let rules = RuleRegistry.builtIn.rules.map(\.description)
        let documentation = RuleDocumentation()
        var expected = ["README.md": documentation.index(rules)]
        for rule in rules { expected["\(rule.id).md"] = documentation.page(rule) }
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
        #expect(present == Set(expected.keys), "docs/rules has other files than the rules generate")
        for (name, text) in expected.sorted(by: { $0.key < $1.key }) {
            let committed = try? String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            #expect(committed == text, "docs/rules/\(name) is stale: run `swift run prewarm-lint rules --write-docs docs/rules`")
        }
    }
}
