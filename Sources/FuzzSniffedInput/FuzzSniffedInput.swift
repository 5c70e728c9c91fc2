import Foundation
import PrewarmLint

/// libFuzzer entry: the bytes as a file (sniffed: gzip, XML, JSON, every text format), through the
/// whole lint run and every report format.
public func fuzzSniffedInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-fuzz-\(getpid()).log").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    var inference = TimeInference()
    inference.date = CivilDateTime(year: 2024, month: 3, day: 18)
    let run = LintRun(options: ReadOptions(timeInference: inference), toolVersion: "fuzz")
    let report = run.run([DiscoveredInput(input: .file(path), foundInDirectory: false)])
    let rules = RuleRegistry.builtIn.rules.map(\.description)
    _ = report.render()
    _ = SARIFReporter(rules: rules).render(report)
    _ = MarkdownReporter().render(report)
    _ = FindingTextReporter().render(report)
    _ = JUnitReporter().render(report)
    _ = Redactor().redact(report)
    return 0
}

#if FUZZING
/// Built with `-sanitize=fuzzer -DFUZZING` (`scripts/fuzz`): libFuzzer's driver, run from this `main`
/// (SwiftPM gives every executable a renamed entry point, so libFuzzer's own `main` cannot be used).
@main
struct FuzzSniffedInputDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzSniffedInput(data!, size) }))
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#else
/// Without libFuzzer (a plain `swift build`): replays the files named on the command line through the
/// same entry point, to reproduce a crash or re-check a corpus (`scripts/fuzz` builds with `-DFUZZING`).
@main
struct FuzzSniffedInputReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
            let bytes = [UInt8](data)
            _ = bytes.withUnsafeBufferPointer { buffer in
                fuzzSniffedInput(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            }
        }
        print("replayed \(CommandLine.arguments.count - 1) input(s)")
    }
}
#endif
