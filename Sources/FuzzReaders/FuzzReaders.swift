import Foundation
import PrewarmLintModel
import PrewarmLintReaders

/// libFuzzer entry: byte 0 picks the format (forced, so every decoder sees every input), byte 1 the
/// chunk size (1…256), the rest is the input. Invariants checked: no crash, the line accounting holds.
public func fuzzReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let formats = LogFormat.allCases
    let format = formats[Int(data[0]) % formats.count]
    let chunk = Int(data[1]) + 1
    let input = UnsafeRawBufferPointer(start: data + 2, count: size - 2)
    var limits = ReaderLimits()
    // Small limits so the fuzzer reaches them.
    limits.maximumLineLength = 4096
    limits.maximumMessageLength = 8192
    limits.maximumRecordLength = 8192
    var reader = LogStreamReader(configuration: ReaderConfiguration(inputName: "fuzz", limits: limits), format: format)
    var events = 0
    do {
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + chunk)
            try reader.read(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { if case .event = $0 { events += 1 } }
            offset = end
        }
        try reader.finish { if case .event = $0 { events += 1 } }
    } catch {
        return 0
    }
    let statistics = reader.statistics
    let accounted = statistics.eventLines + statistics.skipped.values.reduce(0, +) + statistics.diagnosedLines
    if format != .binaryPlist, statistics.lines != accounted {
        fatalError("line accounting broken for \(format): \(statistics)")
    }
    if statistics.events != events { fatalError("event count \(statistics.events) != emitted \(events) for \(format)") }
    return 0
}

#if FUZZING
/// Built with `-sanitize=fuzzer -DFUZZING` (`scripts/fuzz`): libFuzzer's driver, run from this `main`
/// (SwiftPM gives every executable a renamed entry point, so libFuzzer's own `main` cannot be used).
@main
struct FuzzReadersDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzReaders(data!, size) }))
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#else
/// Without libFuzzer (a plain `swift build`): replays the files named on the command line through the
/// same entry point, to reproduce a crash or re-check a corpus (`scripts/fuzz` builds with `-DFUZZING`).
@main
struct FuzzReadersReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
            let bytes = [UInt8](data)
            _ = bytes.withUnsafeBufferPointer { buffer in
                fuzzReaders(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            }
        }
        print("replayed \(CommandLine.arguments.count - 1) input(s)")
    }
}
#endif
