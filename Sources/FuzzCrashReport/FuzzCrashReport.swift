import PrewarmLintTesting

/// The `crashReport` fuzz target: `FuzzChecks.crashReport(_:)` on every input (see `FuzzDriver`, docs/reliability.md).
@main
struct FuzzCrashReport {
    static func main() { FuzzDriver.main(FuzzChecks.crashReport) }
}
