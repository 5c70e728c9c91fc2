import Foundation

/// A test's check run by a Python script beside it (a peer's reader, a renderer, an engine): its exit status and its
/// output, or nil when the script says the module it needs is missing — then a line says what was skipped and how to
/// install it, except in CI (`CI=true`), where a missing module is an error: `scripts/test` installs it.
public enum PythonCheck {
    /// The module a script needs is missing, in CI.
    public struct MissingModule: Error, CustomStringConvertible {
        /// What to install.
        public var install: String
        /// The error's text.
        public var description: String { "a Python module the tests use is missing in CI (scripts/test installs it): \(install)" }
    }

    /// Runs `python3 script arguments…`; nil when its output holds `missingMarker` (the module is missing), after
    /// saying `skipped: <what> (install it: <install>)`.
    public static func run(_ script: URL, _ arguments: [String], missingMarker: String, skipping what: String,
                           install: String) throws -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard text.contains(missingMarker) else { return (process.terminationStatus, text) }
        if ProcessInfo.processInfo.environment["CI"] == "true" { throw MissingModule(install: install) }
        FileHandle.standardError.write(Data("skipped: \(what) (install it: \(install))\n".utf8))
        return nil
    }
}
