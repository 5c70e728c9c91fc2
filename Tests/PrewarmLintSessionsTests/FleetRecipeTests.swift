import Foundation
import PrewarmLint
import PrewarmLintTesting
import Testing

/// The fleet recipe (`docs/fleet.md`, `scripts/fleet/recipe.py`) on 10,000 inputs' fleet records: DuckDB's answers
/// against the generator's truth.
@Suite("fleet recipe")
struct FleetRecipeTests {
    static let builds = ["21E219", "21F90", "22A3354", "22B83"]
    static let models = ["iPhone14,2", "iPhone15,2", "iPad14,5"]

    @Test("10,000 inputs' fleet records, concatenated, answer the recipe's questions in DuckDB as the generator's truth says: sessions by kind, prewarm share, keychain findings by build; exported to Parquet whole",
          .enabled(if: ProcessInfo.processInfo.environment["PREWARM_LINT_SOAK"] == "1", "CI's stage after the tests runs it (PREWARM_LINT_SOAK=1)"))
    func recipeOnTenThousandInputs() throws {
        let analyzer = LogAnalyzer(options: ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024,
                                                                                    utcOffsetSeconds: DeviceLogGenerator.utcOffsetSeconds)))
        // 100 generated logs, each linted once; each report stands for 100 inputs (a worker's output per input), each
        // of a device and system of its own: 10,000 inputs.
        var reports: [(report: LintReport, truth: [DeviceLogGenerator.Session])] = []
        for seed in 1...100 {
            let (bytes, truth) = DeviceLogGenerator.generate(DeviceLogGenerator.Configuration(seed: UInt64(seed), targetBytes: 5_000, apps: 6,
                                                                                              sessionsPerDay: 2_000))
            reports.append((try analyzer.lint(bytes: bytes, named: "generated.ndjson"), truth))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = folder.appendingPathComponent("fleet.ndjson")
        FileManager.default.createFile(atPath: records.path, contents: nil)
        let handle = try FileHandle(forWritingTo: records)
        var kinds: [String: Int] = [:]
        var keychainByBuild: [String: Int] = [:]
        var inputs = 0
        for copy in 0..<100 {
            var text = ""
            for (index, (report, truth)) in reports.enumerated() {
                let device = copy * 100 + index
                var one = report
                one.inputs[0].path = "device-\(device).ndjson"
                one.inputs[0].devices = [DeviceIdentity(system: "iPhone OS", version: "17.4", build: Self.builds[device % 4],
                                                        model: Self.models[device % 3], source: .crashReport)]
                text += FleetRecordReporter().render(one)
                inputs += 1
                for session in truth {
                    kinds[session.kind, default: 0] += 1
                    if session.keychainLocked { keychainByBuild[Self.builds[device % 4], default: 0] += 1 }
                }
            }
            handle.write(Data(text.utf8))
        }
        try handle.close()
        #expect(inputs == 10_000)

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/fleet/recipe.py")
        guard let (status, text) = try PythonCheck.run(script, [records.path, folder.appendingPathComponent("fleet.parquet").path], missingMarker: "NO-DUCKDB",
                                                       skipping: "the fleet recipe's queries in DuckDB", install: "python3 -m pip install duckdb") else { return }
        #expect(status == 0, "\(text.prefix(3000))")
        var answers: [String: [[String: Any]]] = [:]
        for line in text.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let name = object["query"] as? String { answers[name] = object["rows"] as? [[String: Any]] }
            if object["load_ms"] != nil {
                let size = ((try? FileManager.default.attributesOfItem(atPath: records.path)[.size]) as? Int) ?? 0
                FileHandle.standardError.write(Data("fleet recipe: 10,000 inputs, \(kinds.values.reduce(0, +)) sessions, \(size >> 20) MiB of records: \(line)\n".utf8))
            }
        }
        FileHandle.standardError.write(Data("fleet recipe: \(text.split(separator: "\n").filter { $0.contains("\"ms\"") }.map { line in String(line.prefix(200)) }.joined(separator: "\n"))\n".utf8))
        // Sessions by kind: the generator's, every one.
        let byKind = Dictionary(uniqueKeysWithValues: (answers["launch_by_kind"] ?? []).compactMap { row in
            (row["kind"] as? String).map { ($0, (row["sessions"] as? Int) ?? -1) }
        })
        #expect(byKind == kinds, "\(byKind) against \(kinds)")
        // The prewarm share of launches the user made.
        let launched = Double(kinds["prewarm-then-launch", default: 0] + kinds["cold-launch", default: 0])
        let share = (answers["prewarm_share"]?.first?["prewarm_share"] as? Double) ?? -1
        #expect(abs(share - Double(kinds["prewarm-then-launch", default: 0]) / launched) < 1e-5, "\(share)")
        // A keychain-while-locked finding for every session the generator wrote one into, by build.
        let keychain = Dictionary(uniqueKeysWithValues: (answers["keychain_by_build"] ?? []).compactMap { row in
            (row["build"] as? String).map { ($0, (row["keychain_while_locked"] as? Int) ?? -1) }
        })
        #expect(keychain == keychainByBuild, "\(keychain) against \(keychainByBuild)")
        #expect((answers["launch_by_build_model"] ?? []).count == 12)
        #expect((answers["inputs"]?.first?["inputs"] as? Int) == 10_000)
        #expect((answers["parquet"]?.first?["sessions"] as? Int) == kinds.values.reduce(0, +))
    }
}
