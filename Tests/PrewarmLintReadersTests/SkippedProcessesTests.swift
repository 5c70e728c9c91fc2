import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// `ReaderConfiguration.skippedProcesses`: the events of those processes are counted and their lines
/// accounted for, never emitted; every other event is exactly what a reader without the option emits,
/// however the input is chunked.
@Suite("skipped processes")
struct SkippedProcessesTests {
    static let skipped: Set<String> = ["locationd", "wifid", "bluetoothd", "mediaserverd", "runningboardd"]

    @Test("every format: the same events minus the skipped processes', the same counts, multi-line records consumed whole",
          arguments: DeviceLogFormat.allCases)
    func sameEventsMinusSkipped(format: DeviceLogFormat) throws {
        let (bytes, _) = DeviceLogGenerator.generate(.init(seed: 3, targetBytes: 300_000, format: format, apps: 8, sessionsPerDay: 3_000))
        let inference = TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024, utcOffsetSeconds: DeviceLogGenerator.utcOffsetSeconds)
        let everything = ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "day", timeInference: inference))
        let expected = everything.events.filter { !Self.skipped.contains($0.process) }
        #expect(expected.count < everything.events.count, "the log must hold events of the skipped processes")
        // runningboardd's assertion descriptors span several lines: the skip must swallow their continuations.
        #expect(everything.events.contains { $0.process == "runningboardd" && $0.message.contains("\n") })
        for chunkSize in [nil, 1, 7, 4096] as [Int?] {
            let configuration = ReaderConfiguration(inputName: "day", timeInference: inference, skippedProcesses: Self.skipped)
            let outcome = ReaderVerifier.read(bytes, configuration: configuration, chunkSize: chunkSize)
            #expect(outcome.events == expected, "chunk size \(chunkSize.map(String.init) ?? "whole")")
            #expect(outcome.diagnostics == everything.diagnostics)
            #expect(outcome.statistics.events == everything.statistics.events)
            #expect(outcome.statistics.eventsSkipped == everything.events.count - expected.count)
            #expect(outcome.statistics.eventLines == everything.statistics.eventLines)
            #expect(outcome.statistics.lines == outcome.statistics.eventLines + outcome.statistics.skipped.values.reduce(0, +) + outcome.statistics.diagnosedLines)
        }
    }
}
