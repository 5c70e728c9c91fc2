import PrewarmLintTesting

/// The `tarArchive` fuzz target: `FuzzChecks.tarArchive(_:)` on every input (see `FuzzDriver`, docs/reliability.md).
@main
struct FuzzTarArchive {
    static func main() { FuzzDriver.main(FuzzChecks.tarArchive) }
}
