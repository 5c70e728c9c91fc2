import PrewarmLintTesting

/// The `traceV3` fuzz target: `FuzzChecks.traceV3(_:)` on every input (see `FuzzDriver`, docs/reliability.md).
@main
struct FuzzTraceV3 {
    static func main() { FuzzDriver.main(FuzzChecks.traceV3) }
}
