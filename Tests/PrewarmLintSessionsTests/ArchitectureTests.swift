import Foundation
import PrewarmLint
import PrewarmLintClassifier
import PrewarmLintModel
import PrewarmLintSessions
import Testing

/// The claims of `docs/architecture.md` that the structure alone does not enforce: each half-done change fails here.
@Suite("the architecture holds")
struct ArchitectureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under `folder` (of the repository), with its text.
    static func sources(under folder: String) throws -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            found.append((String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    @Test("every rule written in Sources/PrewarmLintRules/Rules is in the built-in registry, and nothing else is")
    func everyRuleIsRegistered() throws {
        let files = try Self.sources(under: "Sources/PrewarmLintRules/Rules")
        let declaration = /struct\s+(\w+)\s*:\s*Rule\b/
        var written: [String] = []
        for file in files {
            let names = file.text.matches(of: declaration).map { String($0.output.1) }
            #expect(names.count == 1, "\(file.path): a rule file holds one rule, found \(names)")
            written += names
        }
        let registered = RuleRegistry.builtIn.rules.map { String(describing: type(of: $0)) }
        #expect(written.sorted() == registered.sorted(), "written: \(written.sorted()); registered: \(registered.sorted())")
        #expect(Set(RuleRegistry.builtIn.ids).count == registered.count, "two rules share an id")
    }

    @Test("the drop rule is written once: only LaunchLineGate asks whether a template may match a record or it may name an app")
    func oneDropRule() throws {
        let questions = [/\.mayMatch\(in:/, /\.mayNameApp\(in:/, /\.mayHoldIdentity\(in:/]
        var askers: Set<String> = []
        for file in try Self.sources(under: "Sources") {
            // Doc comments name them; code calls them.
            let code = file.text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            if questions.contains(where: { code.contains($0) }) { askers.insert(file.path) }
        }
        #expect(askers == ["Sources/PrewarmLintClassifier/LaunchLineGate.swift"], "\(askers.sorted())")
    }

    @Test("a run's answer is assembled in one place: only ReportAssembly builds a LintReport (renderers' excerpts aside)")
    func oneAssemblyOfTheAnswer() throws {
        var builders: Set<String> = []
        for file in try Self.sources(under: "Sources") + Self.sources(under: "Examples") {
            let code = file.text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            if code.contains(/\bLintReport\s*\(/) || code.contains(/\bLintReport\.init\b/) { builders.insert(file.path) }
        }
        // LintReport.swift: the type itself, and the excerpt a live run's pieces are printed with.
        #expect(builders == ["Sources/PrewarmLint/Runs/ReportAssembly.swift", "Sources/PrewarmLintReporters/LintReport.swift"], "\(builders.sorted())")
    }

    @Test("no process-wide mutable switch: the only unchecked mutable statics are standard output's buffer, the signal handlers' installation and the fuzz driver's check")
    func noProcessWideSwitches() throws {
        var found: [String] = []
        for file in try Self.sources(under: "Sources") {
            for line in file.text.split(separator: "\n") where line.contains("nonisolated(unsafe)") && line.contains(" var ") {
                let name = line.split(separator: " var ").last.map { String($0.prefix { $0.isLetter || $0.isNumber }) } ?? "?"
                found.append("\(URL(fileURLWithPath: file.path).deletingPathExtension().lastPathComponent).\(name)")
            }
        }
        #expect(found.sorted() == ["FuzzDriver.check", "SignalHandling.installed", "StandardStreams.buffer"], "\(found.sorted())")
    }

    @Test("a reader holds nothing of its caller: it asks only through the offers it is handed per call, and no reader type names the classifier")
    func readersOnlyRead() throws {
        // A class-bound protocol a caller implements and a reader keeps is how a caller's state reaches into decoding; the
        // readers' own are an archive's entry taker, the bytes read ahead, and libxml2's callbacks within a decoder.
        let classBound = /protocol\s+(\w+)\s*:\s*AnyObject/
        var protocols: [String] = []
        for file in try Self.sources(under: "Sources/PrewarmLintReaders") {
            let code = file.text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            protocols += code.matches(of: classBound).map { String($0.output.1) }
            #expect(!code.contains("Classifier") && !code.contains("LaunchLineGate"), "\(file.path) names the classifier")
        }
        #expect(protocols.sorted() == ["ArchiveEntryExtractor", "RecordPrescan", "XMLEventHandler"], "\(protocols.sorted())")
    }

    @Test("every meaning the classifier gives reaches the session of the app it names: a milestone of its line, or a line it keeps")
    func everyMeaningReachesItsSession() {
        let app = AppIdentity(bundleID: "com.example.ledger", processName: "Ledger Pro", pid: 2231)
        let start: Int64 = 1_710_772_862_000_000
        func classified(_ meaning: EventMeaning, line: Int, role: ProcessRole, process: String) -> ClassifiedEvent {
            let event = LogEvent(timestamp: LogTimestamp(microsecondsSinceEpoch: start + Int64(line) * 100_000, utcOffsetSeconds: -25_200, text: "t"),
                                 process: process, pid: role == .app ? 2231 : 33, message: "line \(line)",
                                 origin: EventOrigin(input: "architecture", line: line, byteOffset: line * 100))
            return ClassifiedEvent(event: event, role: role, meaning: meaning, subject: app)
        }
        var ignored: [EventMeaning] = []
        for meaning in EventMeaning.allCases {
            var builder = LaunchSessionBuilder()
            var sessions = builder.consume(classified(.launchRequest, line: 1, role: .springboard, process: "SpringBoard"))
            sessions += builder.consume(classified(.processStart, line: 2, role: .runningboardd, process: "runningboardd"))
            let role: ProcessRole = meaning.isAppsOwnLine ? .app : .runningboardd
            sessions += builder.consume(classified(meaning, line: 3, role: role, process: role == .app ? "Ledger Pro" : "runningboardd"))
            sessions += builder.finish()
            let reached = sessions.contains { session in
                session.milestones.contains { $0.evidence.line == 3 || $0.detailEvidence?.line == 3 }
                    || session.events.contains { $0.origin.line == 3 } || session.callbacksBeforeActivation.contains { $0.line == 3 }
                    || session.decidedBy?.line == 3
            }
            if !reached { ignored.append(meaning) }
        }
        #expect(ignored.isEmpty, "meanings the session builder drops: \(ignored.map(\.rawValue))")
    }
}

extension EventMeaning {
    /// Whether the app logs lines of this meaning itself (its lifecycle, its work, its markers), rather than a daemon.
    fileprivate var isAppsOwnLine: Bool {
        switch self {
        case .appLifecycle, .appWork, .stateQuery, .blockingCall, .launchTimerStart, .launchTimerEnd, .launchDuration, .firstFrame,
             .launchMarker, .backgroundPath, .keychainAccess:
            true
        default:
            false
        }
    }
}
