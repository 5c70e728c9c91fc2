import PrewarmLintTesting

/// The `SniffedInput` fuzz target: `FuzzChecks.sniffedInput(_:)` on every input (see `FuzzDriver`, docs/reliability.md).
@main
struct FuzzSniffedInput {
    static func main() { FuzzDriver.main(FuzzChecks.sniffedInput) }
}
