// prewarm-lint-benchmark: throughput and memory of the readers, outside the test suite.
//
//   prewarm-lint-benchmark generate-day FORMAT MEGABYTES PATH [SEED] [MB_PER_DAY]
//                                                                  writes device days (DeviceLogGenerator), any of its ten formats;
//                                                                  one day in the whole file unless MB_PER_DAY says how long a day is
//   prewarm-lint-benchmark read PATH [RUNS]                         reads it to events, reports MB/s and peak RSS
//   prewarm-lint-benchmark classify PATH [RUNS]                      reads and classifies every event (no sessions)
//   prewarm-lint-benchmark sessions PATH [RUNS]                      reads, classifies and rebuilds sessions (SessionPipeline)
//   prewarm-lint-benchmark jsondecoder PATH [RUNS]                   Foundation's JSONDecoder on the same ndjson (the oracle's speed)
//   prewarm-lint-benchmark tracev3 PATH [RUNS] [all]                 a unified-log tracev3 file read to events (TraceV3EventReader), its
//                                                                  uuidtext and timesync folders found beside its folder or one above;
//                                                                  the launch daemons and apps, or every process with `all`
//   prewarm-lint-benchmark rewrite-lzbitmap IN OUT [plain|runLengths] a tracev3 file with its chunksets written again as LZBITMAP
//                                                                  streams (iOS 27's shape), for the tracev3 mode and the fuzz seeds
//   prewarm-lint-benchmark generate-logarchive TRACEV3 COPIES OUT [lzbitmap] a .logarchive of COPIES copies of a tracev3 file, each a day
//                                                                  after the one before (its header's clock moved; no timesync, so its
//                                                                  entries follow), with the uuidtext folders beside or above its folder
//
// `scripts/benchmark` builds this in release mode and runs the standard set.
import Foundation
import PrewarmLint
import PrewarmLintReaders
import PrewarmLintTesting
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("prewarm-lint-benchmark: \(message)\n".utf8))
    exit(64)
}

func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
}

/// The reader every mode uses: the generator's logs start on 2024-03-18.
func benchmarkReader() -> InputReader {
    InputReader(options: ReadOptions(timeInference: TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024)))
}

/// Runs `body` on the file named by the arguments RUNS times (default 3) and prints each run, then
/// the best and median throughput, the median CPU time and the peak RSS. `body` returns what it counted.
func measure(_ mode: String, _ body: (String) -> String) {
    let rest = Array(CommandLine.arguments.dropFirst(2))
    guard let path = rest.first else { fail("usage: \(mode) PATH [RUNS]") }
    let runs = rest.count > 1 ? Int(rest[1]) ?? 3 : 3
    let megabytes = Double(fileSize(path)) / 1_048_576
    var rates: [Double] = []
    var cpu: [Double] = []
    var counted = ""
    for _ in 0..<runs {
        let startCPU = cpuSeconds()
        let start = monotonicSeconds()
        counted = body(path)
        let elapsed = monotonicSeconds() - start
        cpu.append(cpuSeconds() - startCPU)
        rates.append(megabytes / elapsed)
        print(String(format: "run: %.2f s, %.1f MB/s, ", elapsed, megabytes / elapsed) + counted)
    }
    rates.sort()
    print(String(format: "%d runs: best %.1f MB/s, median %.1f MB/s, cpu %.2f s/run (median), peak RSS %.1f MB, ",
                 runs, rates.last!, rates[rates.count / 2], cpu.sorted()[cpu.count / 2], peakResidentMegabytes()) + counted)
}

let arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.first else {
    fail("usage: generate-day FORMAT MEGABYTES PATH [SEED] [MB_PER_DAY] | read|classify|sessions|jsondecoder PATH [RUNS] | tracev3 PATH [RUNS] [all] | rewrite-lzbitmap IN OUT [plain|runLengths] | generate-logarchive TRACEV3 COPIES OUT [lzbitmap] | live-chunk PATH")
}

switch command {
case "generate-day":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 3, let format = DeviceLogFormat(rawValue: rest[0]), let megabytes = Int(rest[1]) else {
        fail("usage: generate-day \(DeviceLogFormat.allCases.map(\.rawValue).joined(separator: "|")) MEGABYTES PATH [SEED] [MB_PER_DAY]")
    }
    let seed = rest.count > 3 ? UInt64(rest[3]) ?? 1 : 1
    let perDay = rest.count > 4 ? Int(rest[4]).map { $0 << 20 } : nil
    let sessions = try DeviceLogGenerator.write(DeviceLogGenerator.Configuration(seed: seed, targetBytes: megabytes << 20, format: format,
                                                                                 bytesPerDay: perDay), to: rest[2])
    var kinds: [String: Int] = [:]
    for session in sessions { kinds[session.kind, default: 0] += 1 }
    print("\(rest[2]): \(sessions.count) sessions (" + kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")")

case "rewrite-lzbitmap":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 2 else { fail("usage: rewrite-lzbitmap IN OUT [plain|runLengths]") }
    let variant: LZBitmapEncoder.Variant = rest.count > 2 && rest[2] == "runLengths" ? .runLengths : .plain
    guard let input = FileManager.default.contents(atPath: rest[0]),
          let rewritten = TraceV3Rewriter.withLZBitmapChunksets([UInt8](input), variant: variant) else {
        fail("\(rest[0]) is not a tracev3 file read to its end")
    }
    try Data(rewritten).write(to: URL(fileURLWithPath: rest[1]))
    print("\(rest[1]): \(rewritten.count) bytes (from \(input.count))")

case "generate-logarchive":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 3, let copies = Int(rest[1]), copies > 0 else { fail("usage: generate-logarchive TRACEV3 COPIES OUT [lzbitmap]") }
    guard var source = FileManager.default.contents(atPath: rest[0]).map([UInt8].init) else { fail("cannot read \(rest[0])") }
    if rest.count > 3, rest[3] == "lzbitmap" {
        guard let rewritten = TraceV3Rewriter.withLZBitmapChunksets(source) else { fail("\(rest[0]) is not a tracev3 file read to its end") }
        source = rewritten
    }
    let archive = URL(fileURLWithPath: rest[2])
    try FileManager.default.createDirectory(at: archive.appendingPathComponent("Persist"), withIntermediateDirectories: true)
    // The uuidtext folders (two hexadecimal digits) beside the file's folder or above it.
    let sourceFolder = URL(fileURLWithPath: rest[0]).deletingLastPathComponent()
    let parent = sourceFolder.deletingLastPathComponent()
    for strings in [parent.appendingPathComponent("uuidtext"), parent, parent.deletingLastPathComponent().appendingPathComponent("uuidtext")] {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: strings.path)) ?? [] where name.count == 2 && name.allSatisfy(\.isHexDigit) {
            try? FileManager.default.copyItem(at: strings.appendingPathComponent(name), to: archive.appendingPathComponent(name))
        }
    }
    // The header's wall clock (payload bytes 16-23: seconds since 1970) moved a day per copy.
    let seconds = source[32..<40].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    for copy in 0..<copies {
        var bytes = source
        let moved = seconds + UInt64(copy) * 86_400
        for index in 0..<8 { bytes[32 + index] = UInt8(truncatingIfNeeded: moved >> (8 * UInt64(index))) }
        let name = String(String(copy + 1, radix: 16).reversed()).padding(toLength: 16, withPad: "0", startingAt: 0)
        try Data(bytes).write(to: archive.appendingPathComponent("Persist/\(String(name.reversed())).tracev3"))
    }
    print("\(archive.path): \(copies) tracev3 files of \(source.count) bytes, \(copies * source.count >> 20) MiB")

case "read":
    measure("read") { path in
        var count = 0
        let summary = benchmarkReader().read(.file(path)) { output in
            if case .event = output { count += 1 }
        }
        if let failure = summary.failure { fail(failure.description) }
        return "\(count) events"
    }

case "classify":
    measure("classify") { path in
        var classifier = EventClassifier()
        var count = 0
        _ = benchmarkReader().read(.file(path)) { output in
            if case .event(let event) = output, classifier.classifyIfMeaningful(event) != nil { count += 1 }
        }
        return "\(count) launch-relevant events"
    }

case "sessions":
    measure("sessions") { path in
        let result = SessionPipeline(reader: benchmarkReader()).run([DiscoveredInput(input: .file(path), foundInDirectory: false)])
        return "\(result.sessions.count) sessions"
    }

case "tracev3":
    /// The archive's uuidtext files, read once each.
    final class FolderStrings: UnifiedLogStrings, @unchecked Sendable {
        let folder: String
        var files: [UnifiedLogUUID: UUIDTextFile?] = [:]
        init(folder: String) { self.folder = folder }
        func uuidText(_ uuid: UnifiedLogUUID) -> UUIDTextFile? {
            if let known = files[uuid] { return known }
            let file = FileManager.default.contents(atPath: folder + "/" + UUIDTextFile.relativePath(of: uuid)).flatMap { try? UUIDTextFile(bytes: [UInt8]($0)) }
            files[uuid] = .some(file)
            return file
        }
        var caches: [UnifiedLogUUID: SharedCacheStrings?] = [:]
        func sharedCache(_ uuid: UnifiedLogUUID) -> SharedCacheStrings? {
            if let known = caches[uuid] { return known }
            let cache = FileManager.default.contents(atPath: folder + "/dsc/" + uuid.description.filter { $0 != "-" })
                .flatMap { try? SharedCacheStrings(file: [UInt8]($0)) }
            caches[uuid] = .some(cache)
            return cache
        }
    }
    let every = arguments.last == "all"
    measure("tracev3") { path in
        let folder = (path as NSString).deletingLastPathComponent
        let root = [folder + "/..", folder + "/../.."].first { FileManager.default.fileExists(atPath: $0 + "/uuidtext") } ?? folder + "/.."
        let timesyncFolder = [folder + "/../timesync", root + "/timesync", root + "/Diagnostics/timesync"].first { FileManager.default.fileExists(atPath: $0) }
        var boots = TimesyncDatabase()
        for name in (timesyncFolder.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) } ?? []).sorted() {
            if let data = FileManager.default.contents(atPath: timesyncFolder! + "/" + name), let database = try? TimesyncDatabase(bytes: [UInt8](data)) {
                boots.boots += database.boots
            }
        }
        let choice: UnifiedLogProcessChoice = every ? .all : .named(["runningboardd", "dasd", "SpringBoard", "backboardd", "assertiond", "securityd", "kernel"], apps: true)
        var reader = TraceV3EventReader(inputName: path, strings: FolderStrings(folder: root + "/uuidtext"), timesync: boots, choice: choice)
        var count = 0
        guard let handle = FileHandle(forReadingAtPath: path) else { fail("cannot open \(path)") }
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try [UInt8](chunk).withUnsafeBytes { try reader.push($0) }
            }
            try reader.finish { _ in count += 1 }
        } catch {
            fail("\(error)")
        }
        return "\(count) events, \(reader.structure.chunksets) chunksets read, \(reader.structure.chunksetsSkipped) skipped, \(reader.unresolvedByProcess.values.reduce(0, +)) unresolved"
    }

case "jsondecoder":
    struct Record: Decodable {
        var timestamp: String?
        var processImagePath: String?
        var processID: Int?
        var subsystem: String?
        var category: String?
        var messageType: String?
        var eventMessage: String?
    }
    let rest = Array(arguments.dropFirst())
    guard let path = rest.first else { fail("usage: jsondecoder PATH [RUNS]") }
    let runs = rest.count > 1 ? Int(rest[1]) ?? 3 : 3
    let size = fileSize(path)
    var rates: [Double] = []
    for _ in 0..<runs {
        guard let handle = FileHandle(forReadingAtPath: path) else { fail("cannot open \(path)") }
        let decoder = JSONDecoder()
        var carry = Data()
        var count = 0
        let start = monotonicSeconds()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            carry.append(chunk)
            var lineStart = carry.startIndex
            while let newline = carry[lineStart...].firstIndex(of: 0x0A) {
                let line = carry[lineStart..<newline]
                if line.first == UInt8(ascii: "{"), (try? decoder.decode(Record.self, from: line))?.timestamp != nil { count += 1 }
                lineStart = newline + 1
            }
            carry = Data(carry[lineStart...])
        }
        let elapsed = monotonicSeconds() - start
        rates.append(Double(size) / 1_048_576 / elapsed)
        _ = count
    }
    rates.sort()
    print(String(format: "JSONDecoder median of %d runs: %.1f MB/s, peak RSS %.1f MB", runs, rates[rates.count / 2], peakResidentMegabytes()))

case "live-chunk":
    // The file at PATH, mapped, pushed to a `LiveLint` as one chunk: the peak RSS against the chunk's size (consumed
    // where it lies, the push adds little to the mapped pages it touches).
    let rest = Array(arguments.dropFirst())
    guard let path = rest.first else { fail("usage: live-chunk PATH") }
    let descriptor = open(path, O_RDONLY)
    let size = fileSize(path)
    guard descriptor >= 0, size > 0, let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
        fail("cannot map \(path)")
    }
    let before = peakResidentMegabytes()
    var live = LiveLint(inputName: "chunk", analyzer: LogAnalyzer(options: ReadOptions(timeInference: TimeInference(
        date: CivilDateTime(year: 2024, month: 3, day: 18), year: 2024))))
    try live.push(UnsafeRawBufferPointer(start: mapped, count: size)) { _ in }
    let report = try live.finish { _ in }
    print(String(format: "chunk %.1f MB: peak RSS %.1f MB before the push, %.1f MB after; ", Double(size) / 1_048_576, before,
                 peakResidentMegabytes()) + "\(report.sessions.count) sessions, \(report.findings.count) findings")

default:
    fail("unknown command '\(command)'")
}
