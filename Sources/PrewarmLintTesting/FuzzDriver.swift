import Foundation

/// The `main` of the fuzz targets: built with `-DFUZZING` (`scripts/fuzz`) it runs libFuzzer's
/// driver (SwiftPM renames every executable's entry point, so libFuzzer's own `main` cannot be
/// used); in a plain build it replays the files named on the command line through the same check,
/// to reproduce a crash (`swift run fuzz-readers crash-…`). A broken invariant is a crash either way.
public enum FuzzDriver {
    nonisolated(unsafe) private static var check: (UnsafeRawBufferPointer) -> String? = { _ in nil }

    /// Runs `check` on every input; never returns.
    public static func main(_ check: @escaping (UnsafeRawBufferPointer) -> String?) -> Never {
        Self.check = check
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            if let broken = FuzzDriver.check(UnsafeRawBufferPointer(start: data, count: size)) { fatalError(broken) }
            return 0
        })
        #else
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
            if let broken = [UInt8](data).withUnsafeBytes(check) { fatalError("\(path): \(broken)") }
        }
        print("replayed \(CommandLine.arguments.count - 1) input(s)")
        exit(0)
        #endif
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#endif
