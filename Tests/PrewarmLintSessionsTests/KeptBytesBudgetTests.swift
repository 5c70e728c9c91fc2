import Foundation
import PrewarmLint
import PrewarmLintClassifier
import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintSessions
import PrewarmLintTesting
import Testing

/// `LaunchSessionBuilder.maximumKeptBytes`: the open sessions' kept lines are bounded in bytes, not only in count
/// (10,000 open sessions of 512 lines of a kilobyte would be 5 GB). Lines past the budget are counted, the sessions
/// that lost lines say so, the budget comes back as sessions close, and a warning counts them.
@Suite("kept lines bounded in bytes")
struct KeptBytesBudgetTests {
    /// Prewarms of `apps` apps, each followed by `lines` long app lines (didFinishLaunching with a long state dump, the
    /// shape of the app lines in real-logs 11), then every app's next process, which closes the first.
    static func log(apps: Int, lines: Int) -> String {
        var text = ""
        let padding = String(repeating: "x", count: 700)
        for app in 0..<apps {
            text += "33\tdefault\t07:41:02.\(String(format: "%06d", 100 + app))-0700\trunningboardd\tExecuting launch request for app<com.example.app\(app)(501)> (DAS Prewarm launch)\n"
            text += "33\tdefault\t07:41:03.\(String(format: "%06d", 100 + app))-0700\trunningboardd\t[app<com.example.app\(app)(501)>:\(2000 + app)] Now tracking process\n"
        }
        for line in 0..<lines {
            for app in 0..<apps {
                text += "\(2000 + app)\tdefault\t07:42:\(String(format: "%02d", line)).\(String(format: "%06d", 100 + app))-0700\tApp\(app)\tdidFinishLaunchingWithOptions applicationState=2 \(padding)\n"
            }
        }
        for app in 0..<apps {
            text += "33\tdefault\t08:41:02.\(String(format: "%06d", 100 + app))-0700\trunningboardd\tExecuting launch request for app<com.example.app\(app)(501)> (DAS Prewarm launch)\n"
            text += "33\tdefault\t08:41:03.\(String(format: "%06d", 100 + app))-0700\trunningboardd\t[app<com.example.app\(app)(501)>:\(3000 + app)] Now tracking process\n"
        }
        return text
    }

    static func build(_ text: String, budget: Int) throws -> (sessions: [LaunchSession], builder: LaunchSessionBuilder, peak: Int) {
        var configuration = ReaderConfiguration(inputName: "budget")
        configuration.timeInference.date = CivilDateTime(dateText: "2024-03-18")
        let outcome = ReaderVerifier.read(Array(text.utf8), configuration: configuration)
        try #require(outcome.failure == nil)
        var classifier = EventClassifier()
        var builder = LaunchSessionBuilder(maximumKeptBytes: budget)
        var result: [LaunchSession] = []
        var peak = 0
        for event in outcome.events {
            result += builder.consume(classifier.classify(event))
            peak = max(peak, builder.keptBytes)
        }
        return (result + builder.finish(), builder, peak)
    }

    @Test("20 apps × 30 lines of 750 bytes against a 100 KB budget: never more kept, the rest counted and said")
    func bounded() throws {
        let text = Self.log(apps: 20, lines: 30)
        let (sessions, builder, peak) = try Self.build(text, budget: 100_000)
        #expect(peak <= 100_000)
        #expect(peak > 90_000, "the budget is used, not avoided")
        #expect(builder.linesNotKeptForBudget > 400)
        #expect(builder.keptBytes == 0, "every session closed gives its bytes back")
        #expect(sessions.count == 40)
        let first = sessions.filter { $0.app.pid.map { $0 < 3000 } == true }
        #expect(first.count == 20)
        #expect(first.reduce(0) { $0 + $1.eventsNotKept } == builder.linesNotKeptForBudget)
        let lost = first.filter { $0.eventsNotKept > 0 }
        #expect(!lost.isEmpty)
        for session in lost {
            #expect(session.incompleteEvidence.contains { $0.contains("because the open sessions held") }, "\(session.app)")
        }
        // The second processes open after the first closed: the budget is back, their lines kept.
        #expect(sessions.filter { $0.app.pid.map { $0 >= 3000 } == true }.allSatisfy { $0.eventsNotKept == 0 && !$0.events.isEmpty })
        // What the first processes' sessions held at once, in memory: their arrays' whole room (an array grows by
        // doubling), their texts with the texts' headers. Within the budget, not only the lines counted one by one.
        let held = first.reduce(0) { total, session in
            total + session.events.capacity * MemoryLayout<SessionEvent>.stride + session.events.reduce(0) { $0 + $1.text.utf8.count + 48 }
        }
        #expect(held <= 100_000, "the sessions' arrays took \(held) bytes for a budget of 100,000")
        #expect(first.allSatisfy { $0.events.capacity > $0.events.count }, "the log leaves room in every array (else the check shows nothing)")
        let warning = try #require(builder.keptBytesDiagnostic(input: "budget"))
        #expect(warning.message.hasPrefix("\(builder.linesNotKeptForBudget) launch lines were counted but not kept"))
    }

    @Test("the sessions open at the end are handed over one at a time, each as it closes: the same ones, in the same order, as the whole list")
    func finishOneAtATime() throws {
        var configuration = ReaderConfiguration(inputName: "budget")
        configuration.timeInference.date = CivilDateTime(dateText: "2024-03-18")
        let outcome = ReaderVerifier.read(Array(Self.log(apps: 20, lines: 3).utf8), configuration: configuration)
        try #require(outcome.failure == nil)
        // (Sessions compared whole, but said by pid: a failed comparison of whole sessions prints megabytes.)
        var whole = SessionStream(inputName: "budget"), oneByOne = SessionStream(inputName: "budget")
        for event in outcome.events {
            let same = whole.consume(event) == oneByOne.consume(event)
            #expect(same)
        }
        let end = whole.finish()
        var handed: [LaunchSession] = []
        let diagnostics = oneByOne.finish { handed.append($0) }
        // The reorder window still holds the last lines: the first processes close as it drains, then the second ones,
        // still open, in the order they opened.
        #expect(end.sessions.map(\.app.pid) == (2000..<2020).map { $0 } + (3000..<3020).map { $0 })
        let sameSessions = handed == end.sessions
        #expect(sameSessions, "\(handed.map(\.app.pid))")
        #expect(diagnostics == end.diagnostics)
        // The builder alone: the open sessions, one at a time.
        var builder = LaunchSessionBuilder(), classifier = EventClassifier()
        var closed: [LaunchSession] = []
        for event in outcome.events { closed += builder.consume(classifier.classify(event)) }
        var built: [LaunchSession] = []
        builder.finish { built.append($0) }
        let sameOpen = closed + built == end.sessions
        #expect(sameOpen, "\(built.map(\.app.pid))")
        #expect(built.map(\.app.pid) == (3000..<3020).map { $0 })
        #expect(builder.keptBytes == 0, "every session handed over gave its bytes back")
    }

    @Test("the default budget keeps every line of the same log, as before")
    func defaultKeepsAll() throws {
        let (sessions, builder, _) = try Self.build(Self.log(apps: 20, lines: 30), budget: LaunchSessionBuilder().maximumKeptBytes)
        #expect(builder.linesNotKeptForBudget == 0 && builder.keptBytesDiagnostic(input: "budget") == nil)
        #expect(sessions.allSatisfy { $0.eventsNotKept == 0 })
    }
}
