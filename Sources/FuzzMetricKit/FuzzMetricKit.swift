import PrewarmLintTesting

/// The `metricKit` fuzz target: `FuzzChecks.metricKit(_:)` on every input (see `FuzzDriver`, docs/reliability.md).
@main
struct FuzzMetricKit {
    static func main() { FuzzDriver.main(FuzzChecks.metricKit) }
}
