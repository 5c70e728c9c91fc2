import PrewarmLintTesting

/// The `Sessions` fuzz target: `FuzzChecks.sessions(_:)` on every input (see `FuzzDriver`, docs/reliability.md).
@main
struct FuzzSessions {
    static func main() { FuzzDriver.main(FuzzChecks.sessions) }
}
