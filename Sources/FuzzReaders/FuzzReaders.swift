import Foundation
import PrewarmLintTesting

/// The fuzz entry point: ``FuzzChecks/readers(_:)`` on the input; a broken invariant is a crash.
func fuzzReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let broken = FuzzChecks.readers(UnsafeRawBufferPointer(start: data, count: size)) { fatalError(broken) }
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
