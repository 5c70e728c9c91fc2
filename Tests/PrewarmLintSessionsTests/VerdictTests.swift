import Foundation
import PrewarmLintTesting
import Testing

let verdictFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus/verdicts")
let verdictCases = (try? ScenarioCase.all(in: verdictFolder)) ?? []

/// The cases of issue 16, each in the shape real lines have (its `case.json` says where the shape comes
/// from): the verdicts the tool once got wrong on logs it was not written for.
@Suite("Corpus/verdicts")
struct VerdictTests {
    @Test("a corpus case for each verdict once given wrong on a real log")
    func present() {
        #expect(verdictCases.count >= 8)
    }

    @Test("each case yields exactly its expected sessions", arguments: verdictCases.map(\.name))
    func sessions(name: String) throws {
        let verdict = try #require(verdictCases.first { $0.name == name })
        let text = try verdict.renderSessions(log: verdict.description.logs[0])
        if let problem = try verdict.compareWithExpected(text) { Issue.record(Comment(rawValue: problem)) }
    }

    @Test("each case gives exactly its expected findings", arguments: verdictCases.map(\.name))
    func findings(name: String) throws {
        let verdict = try #require(verdictCases.first { $0.name == name })
        let text = try verdict.renderFindings(log: verdict.description.logs[0])
        if let problem = try verdict.compareWithExpectedFindings(text) { Issue.record(Comment(rawValue: problem)) }
    }
}
