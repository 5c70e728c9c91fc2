// swift-tools-version: 6.1
// A consumer of prewarm-lint, built against its public API only: a rule and a report format of
// its own. `.ci/run` builds and runs it, so a change that breaks the public API cannot land.
import Foundation
import PackageDescription

// The parent folder is prewarm-lint; SwiftPM names a path dependency after its folder, whatever
// the clone is called.
let prewarmLint = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()

let package = Package(
    name: "prewarm-lint-examples",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: prewarmLint.path)],
    targets: [
        .executableTarget(
            name: "launch-gap-report",
            dependencies: [.product(name: "PrewarmLint", package: prewarmLint.lastPathComponent)],
            path: "Sources/LaunchGapReport"
        ),
    ],
    swiftLanguageModes: [.v6]
)
