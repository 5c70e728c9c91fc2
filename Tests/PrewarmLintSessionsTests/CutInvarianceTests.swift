import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// One device, one answer: several exports of one device are linted as one log, so one log cut into
/// pieces at random record boundaries gives the sessions and findings of the whole — 3 pieces (merged as
/// streams) or 40 (beyond 32: collected and sorted).
@Suite("one device, one answer")
struct CutInvarianceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let options = ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024,
                                                                  utcOffsetSeconds: DeviceLogGenerator.utcOffsetSeconds))

    /// What must not depend on the cut: sessions (app, kind, confidence, milestones) and findings (rule,
    /// severity, message, session, evidence by time and text) — not the lines' places.
    static func answer(_ paths: [String]) -> [String] {
        let report = LintRun(options: options, toolVersion: "test").run(paths.map { DiscoveredInput(input: .file($0), foundInDirectory: true) })
        var lines = zip(report.sessions, report.sessionIDs).map { session, id in
            "\(id) \(session.app) \(session.kind.rawValue) \(session.confidence.rawValue) "
                + session.milestones.map { "\($0.name.rawValue)@\($0.time.microsecondsSinceEpoch)" }.joined(separator: ",")
        }
        lines += report.findings.map { finding in
            "\(finding.ruleID) \(finding.severity.rawValue) \(finding.sessionID) \(finding.message) "
                + finding.evidence.map { "\($0.time.microsecondsSinceEpoch) \($0.text)" }.joined(separator: " | ")
        }
        return lines
    }

    /// `bytes` cut into `count` pieces at random lines where `startsRecord` holds (seeded), written to `folder`.
    static func cut(_ bytes: [UInt8], into count: Int, seed: UInt64, in folder: TemporaryFolder,
                    startsRecord: (ArraySlice<UInt8>) -> Bool) throws -> [String] {
        var starts: [Int] = []
        var lineStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            let next = index + 1
            if next < bytes.count, lineStart > 0 || next > 0, startsRecord(bytes[next...]) { starts.append(next) }
            lineStart = next
        }
        var generator = SeededGenerator(seed: seed)
        let cuts = Array(Set((0..<min(count - 1, starts.count)).map { _ in starts[Int(generator.next() % UInt64(starts.count))] })).sorted()
        var paths: [String] = []
        var from = 0
        // Names sort in cut order, as a folder lists them; each piece is an input of its own.
        for (number, to) in (cuts + [bytes.count]).enumerated() where to > from {
            paths.append(try folder.write(bytes[from..<to], named: String(format: "piece-%05d.log", number)))
            from = to
        }
        return paths
    }

    static let ndjsonRecord: @Sendable (ArraySlice<UInt8>) -> Bool = { $0.first == UInt8(ascii: "{") }
    /// A `log show` text record starts with its date; continuation lines with a tab or a space.
    static let logShowRecord: @Sendable (ArraySlice<UInt8>) -> Bool = { $0.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }

    @Test("a generated device day, ndjson and log show text, cut in 3 and in 40 pieces", arguments: [DeviceLogFormat.ndjson, .logShow])
    func generatedDay(format: DeviceLogFormat) throws {
        let folder = try TemporaryFolder("prewarm-lint-cut")
        defer { folder.remove() }
        let configuration = DeviceLogGenerator.Configuration(seed: 23, targetBytes: 2 << 20, format: format, apps: 16, sessionsPerDay: 200,
                                                             bytesPerDay: 2 << 20)
        let (bytes, truth) = DeviceLogGenerator.generate(configuration)
        let whole = Self.answer([try folder.write(bytes, named: "whole.log")])
        #expect(whole.count > truth.count, "the day has findings as well as sessions")
        for (pieces, seed) in [(3, UInt64(1)), (40, 2)] {
            let pieceFolder = try TemporaryFolder("prewarm-lint-cut-\(pieces)")
            defer { pieceFolder.remove() }
            let paths = try Self.cut(bytes, into: pieces, seed: seed, in: pieceFolder,
                                     startsRecord: format == .ndjson ? Self.ndjsonRecord : Self.logShowRecord)
            #expect(paths.count > pieces / 2)
            let answer = Self.answer(paths)
            #expect(answer == whole, "\(format) in \(paths.count) pieces: first difference \(zip(answer, whole).first { $0 != $1 }.map { "\($0.0)\nversus\n\($0.1)" } ?? "in the count \(answer.count) vs \(whole.count)")")
        }
    }

    @Test("every scenario's ndjson cut in 3 pieces at random")
    func scenarios() throws {
        let folder = Self.root.appendingPathComponent("Corpus/scenarios")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        var checked = 0
        for (index, name) in names.enumerated() {
            let path = folder.appendingPathComponent(name).appendingPathComponent("log.ndjson").path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let pieces = try TemporaryFolder("prewarm-lint-cut-scenario")
            defer { pieces.remove() }
            let paths = try Self.cut(bytes, into: 3, seed: UInt64(index), in: pieces, startsRecord: Self.ndjsonRecord)
            #expect(Self.answer(paths) == Self.answer([path]), "\(name) cut in \(paths.count)")
            checked += 1
        }
        #expect(checked >= 13)
    }
}
