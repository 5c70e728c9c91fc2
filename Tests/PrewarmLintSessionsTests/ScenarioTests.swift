import Foundation
import PrewarmLintTesting
import Testing

let scenarioFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus/scenarios")
let scenarios = (try? ScenarioCase.all(in: scenarioFolder)) ?? []

@Suite("Corpus/scenarios")
struct ScenarioTests {
    @Test("every scenario the corpus promises is there")
    func present() {
        #expect(scenarios.count >= 13)
    }

    @Test("every rendering of a scenario yields exactly its expected sessions", arguments: scenarios.map(\.name))
    func scenario(name: String) throws {
        let scenario = try #require(scenarios.first { $0.name == name })
        #expect(scenario.description.logs.count >= 2)
        var renderings: [String: String] = [:]
        for log in scenario.description.logs { renderings[log] = try scenario.renderSessions(log: log) }
        let first = try #require(renderings[scenario.description.logs[0]])
        for (log, text) in renderings where text != first {
            Issue.record("\(name): \(log) gives other sessions than \(scenario.description.logs[0]):\n\(text)\nversus\n\(first)")
        }
        if let problem = try scenario.compareWithExpected(first) { Issue.record(Comment(rawValue: problem)) }
    }

    @Test("every rendering of a scenario gives exactly its expected findings", arguments: scenarios.map(\.name))
    func findings(name: String) throws {
        let scenario = try #require(scenarios.first { $0.name == name })
        let renderings = try scenario.description.logs.map { ($0, try scenario.renderFindings(log: $0)) }
        let first = try #require(renderings.first)
        for (log, text) in renderings.dropFirst() where text != first.1 {
            Issue.record("\(name): \(log) gives other findings than \(first.0):\n\(text)\nversus\n\(first.1)")
        }
        if let problem = try scenario.compareWithExpectedFindings(first.1) { Issue.record(Comment(rawValue: problem)) }
    }
}
