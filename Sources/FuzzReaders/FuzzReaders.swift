import PrewarmLintTesting

/// The `Readers` fuzz target: `FuzzChecks.readers(_:)` on every input (see `FuzzDriver`, docs/reliability.md).
@main
struct FuzzReaders {
    static func main() { FuzzDriver.main(FuzzChecks.readers) }
}
