// swift-tools-version: 6.1
import PackageDescription

// The pipeline, one stage per module, data flowing one way:
//   bytes ─▶ PrewarmLintReaders (sniff the format, decode records)  ─▶ PrewarmLintModel values
//         ─▶ PrewarmLintClassifier (process roles, event meanings)
//         ─▶ PrewarmLintSessions (launch sessions) ─▶ PrewarmLintRules (findings, tuned by PrewarmLintConfiguration)
//         ─▶ PrewarmLintReporters (events, sessions, findings: text, JSON, SARIF, Markdown…)
//         ─▶ PrewarmLint (the facade: inputs, pipeline) ─▶ prewarm-lint (the CLI)
// Library targets depend on Foundation and system C libraries only; the CLI adds ArgumentParser and Yams.
let package = Package(
    name: "prewarm-lint",
    // Linux has no minimum; on Apple platforms `Atomic` (Ctrl-C) and typed throws need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PrewarmLint", targets: ["PrewarmLint"]),
        .library(name: "PrewarmLintReaders", targets: ["PrewarmLintReaders"]),
        .library(name: "PrewarmLintTesting", targets: ["PrewarmLintTesting"]),
        .executable(name: "prewarm-lint", targets: ["prewarm-lint"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `.prewarm-lint.yml`, read by the CLI only.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Its `Heap`: the merge of spooled session runs (the library's only package; HeapModule alone is linked).
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // `swift package generate-documentation` (the DocC catalog in Sources/PrewarmLint); a plugin, not linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .target(name: "PrewarmLintModel"),
        // zlib, for reading `.gz` inputs as a stream; imported by PrewarmLintReaders only.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // libxml2, for plist and xctrace XML inputs, pushed chunk by chunk through SAX; imported by
        // PrewarmLintReaders only, and there by one file (XML/XMLPushParser.swift).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // gzip's CRC-32 on the processor's carry-less multiply (zlib 1.2.13 computes it a few bytes a cycle).
        .target(name: "CGzipChecksum", dependencies: ["CZlib"], linkerSettings: [.linkedLibrary("z")]),
        .target(name: "PrewarmLintReaders", dependencies: ["PrewarmLintModel", "CZlib", "CLibXML2", "CGzipChecksum"]),
        // Process roles and event meanings, from a signature table kept as data.
        .target(name: "PrewarmLintClassifier", dependencies: ["PrewarmLintModel"]),
        // Launch sessions from classified events: a pure state machine, no I/O, no clock.
        .target(name: "PrewarmLintSessions", dependencies: ["PrewarmLintModel", "PrewarmLintClassifier"]),
        // What a team configures (rule settings, severities, apps, its own log lines as markers) and the signature
        // table the markers extend: read by the rules, the insights and the facade; filled by the CLI from YAML.
        .target(name: "PrewarmLintConfiguration", dependencies: ["PrewarmLintModel", "PrewarmLintClassifier"]),
        // Hazard rules over sessions: one file per rule, with the examples that test and document it.
        .target(name: "PrewarmLintRules", dependencies: ["PrewarmLintModel", "PrewarmLintClassifier", "PrewarmLintSessions", "PrewarmLintConfiguration"]),
        // Launch insights: points and markers on the timeline, statistics per phase, comparisons, prewarm decisions.
        .target(name: "PrewarmLintInsights", dependencies: ["PrewarmLintModel", "PrewarmLintClassifier", "PrewarmLintSessions", "PrewarmLintConfiguration"]),
        .target(name: "PrewarmLintSpool", dependencies: ["PrewarmLintModel", "PrewarmLintClassifier", "PrewarmLintSessions", "PrewarmLintConfiguration", "PrewarmLintRules"]),
        .target(name: "PrewarmLintReporters", dependencies: ["PrewarmLintModel", "PrewarmLintClassifier", "PrewarmLintSessions", "PrewarmLintConfiguration", "PrewarmLintRules", "PrewarmLintInsights", "PrewarmLintSpool"]),
        .target(name: "PrewarmLint", dependencies: ["PrewarmLintModel", "PrewarmLintReaders", "PrewarmLintClassifier", "PrewarmLintSessions", "PrewarmLintConfiguration", "PrewarmLintRules", "PrewarmLintInsights", "PrewarmLintReporters", "PrewarmLintSpool",
                                                    .product(name: "HeapModule", package: "swift-collections"),
                                                    .product(name: "DequeModule", package: "swift-collections")]),
        .executableTarget(
            name: "prewarm-lint",
            dependencies: [
                "PrewarmLint",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "PrewarmLintTesting", dependencies: ["PrewarmLint"]),
        // Throughput and memory harness: `scripts/benchmark` builds it in release mode and runs it.
        .executableTarget(name: "prewarm-lint-benchmark", dependencies: ["PrewarmLint", "PrewarmLintTesting"]),

        // libFuzzer targets (`scripts/fuzz` builds them with -sanitize=fuzzer -DFUZZING); a plain build makes
        // replay tools of them: `swift run fuzz-readers crash-file` re-runs an input through the same check.
        .executableTarget(name: "fuzz-readers", dependencies: ["PrewarmLintTesting"], path: "Sources/FuzzReaders"),
        .executableTarget(name: "fuzz-sniffed-input", dependencies: ["PrewarmLintTesting"], path: "Sources/FuzzSniffedInput"),
        .executableTarget(name: "fuzz-sessions", dependencies: ["PrewarmLintTesting"], path: "Sources/FuzzSessions"),
        .executableTarget(name: "fuzz-crash-report", dependencies: ["PrewarmLintTesting"], path: "Sources/FuzzCrashReport"),
        .executableTarget(name: "fuzz-metrickit", dependencies: ["PrewarmLintTesting"], path: "Sources/FuzzMetricKit"),
        .executableTarget(name: "fuzz-tar", dependencies: ["PrewarmLintTesting"], path: "Sources/FuzzTarArchive"),
        .executableTarget(name: "fuzz-tracev3", dependencies: ["PrewarmLintTesting"], path: "Sources/FuzzTraceV3"),

        .testTarget(name: "PrewarmLintModelTests", dependencies: ["PrewarmLintModel"]),
        .testTarget(name: "PrewarmLintSessionsTests", dependencies: ["PrewarmLint", "PrewarmLintTesting"]),
        .testTarget(name: "PrewarmLintClassifierTests", dependencies: ["PrewarmLintClassifier", "PrewarmLintTesting"]),
        .testTarget(name: "PrewarmLintReportersTests", dependencies: ["PrewarmLintReporters", "PrewarmLintClassifier", "PrewarmLintTesting"],
                    exclude: ["check-report-structure.py"]),
        .testTarget(name: "PrewarmLintReadersTests", dependencies: ["PrewarmLintReaders", "PrewarmLintTesting", "CGzipChecksum", "CZlib"],
                    exclude: ["UnifiedLogSamples", "check-lzbitmap.py"]),
        .testTarget(name: "PrewarmLintReliabilityTests", dependencies: ["PrewarmLint", "PrewarmLintTesting"], exclude: ["FuzzRegressions"]),
        .testTarget(name: "PrewarmLintRulesTests", dependencies: ["PrewarmLint", "PrewarmLintTesting"]),
        // The public API as a consumer sees it: this target never uses `@testable`.
        .testTarget(name: "PrewarmLintPublicAPITests", dependencies: ["PrewarmLint"]),
        .testTarget(name: "PrewarmLintInsightsTests", dependencies: ["PrewarmLint", "PrewarmLintTesting"]),
        .testTarget(name: "PrewarmLintCorpusTests", dependencies: ["PrewarmLint", "PrewarmLintTesting"]),
        .testTarget(name: "PrewarmLintCLITests", dependencies: ["PrewarmLintTesting", "prewarm-lint"], exclude: ["Goldens", "Schemas", "Completion", "check-otlp.py"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
