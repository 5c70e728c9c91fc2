import Foundation
import Synchronization

/// The programs some tests run (a shell, `idevicesyslog`, Chromium): found on `PATH`, or the tests that need them skip
/// with a line naming what to install — except in CI (`CI=true`), where `scripts/test` installs them and their absence
/// fails those tests.
enum InstalledTools {
    /// Whether this is a CI run.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The path of `name` on `PATH`, if it is there.
    static func path(of name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether the tests that need `name` run: it is installed, or this is CI. Otherwise says once on standard error
    /// what is skipped and how to install it.
    static func runs(_ name: String, package: String) -> Bool {
        if path(of: name) != nil || isCI { return true }
        said.withLock { said in
            if said.insert(name).inserted {
                FileHandle.standardError.write(Data("skipped: the tests that run \(name) (install it: apt-get install \(package))\n".utf8))
            }
        }
        return false
    }

    /// Whether the tests that use Python's `module` run: it imports, or this is CI. Otherwise says once what is
    /// skipped and how to install it.
    static func runs(pythonModule module: String, package: String) -> Bool {
        if isCI { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(module)"]
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            process.waitUntilExit()
            if process.terminationStatus == 0 { return true }
        }
        said.withLock { said in
            if said.insert(module).inserted {
                FileHandle.standardError.write(Data("skipped: the tests that use Python's \(module) (install it: python3 -m pip install \(package))\n".utf8))
            }
        }
        return false
    }

    private static let said = Mutex<Set<String>>([])
}
