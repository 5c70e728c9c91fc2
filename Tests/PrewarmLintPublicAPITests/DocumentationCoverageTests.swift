import Foundation
import Testing

/// Every public symbol of the library modules has a `///` comment (issue 8): public declarations,
/// and the cases of public enums. DocC's own coverage also counts members the compiler synthesizes
/// (`hash(into:)`, `init(from:)`), which cannot carry comments; this check reads the sources.
@Suite("documentation coverage")
struct DocumentationCoverageTests {
    static let modules = ["PrewarmLint", "PrewarmLintModel", "PrewarmLintReaders", "PrewarmLintClassifier", "PrewarmLintSessions",
                          "PrewarmLintRules", "PrewarmLintInsights", "PrewarmLintReporters", "PrewarmLintSpool", "PrewarmLintTesting"]
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    nonisolated(unsafe) static let declaration = #/^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:(?:static|final|mutating|nonisolated|override|convenience|indirect)\s+)*(?:private\(set\)\s+)?(func|var|let|init|struct|enum|class|protocol|typealias|subscript|case)\b/#
    nonisolated(unsafe) static let enumCase = #/^\s*case [A-Za-z`][\w`]*\s*(?:=[^:]*|\([^:]*\)|,[^:]*)?$/#
    nonisolated(unsafe) static let enumHead = #/\benum \w+/#

    @Test("every public declaration and public enum case has a doc comment")
    func everyPublicSymbolDocumented() throws {
        var undocumented: [String] = []
        var files = 0
        for module in Self.modules {
            let folder = Self.sources.appendingPathComponent(module)
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") {
                files += 1
                let lines = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
                var enumIsPublic = false
                for (index, line) in lines.enumerated() {
                    if line.contains(Self.enumHead) { enumIsPublic = line.contains("public ") }
                    let needsDocs = line.wholeMatch(of: Self.declaration) != nil || line.prefixMatch(of: Self.declaration) != nil
                        || (enumIsPublic && line.wholeMatch(of: Self.enumCase) != nil)
                    guard needsDocs else { continue }
                    var above = index - 1
                    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
                    let comment = above >= 0 ? lines[above].trimmingCharacters(in: .whitespaces) : ""
                    if !comment.hasPrefix("///") && !comment.hasSuffix("*/") {
                        undocumented.append("\(module)/\(path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(files > 60)
        #expect(undocumented.isEmpty, "undocumented public symbols:\n\(undocumented.joined(separator: "\n"))")
    }
}
