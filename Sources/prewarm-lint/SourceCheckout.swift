import Foundation

/// The git checkout a binary was built in, read from its `.git` folder (no git needed): `HEAD`, then the branch's
/// loose ref or `packed-refs`. For `--version`; a binary copied elsewhere has none.
enum SourceCheckout {
    /// This executable's path (`/proc/self/exe` on Linux, else the first argument made absolute).
    static func executablePath() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        let first = CommandLine.arguments.first ?? ""
        return first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
    }

    /// The commit checked out in the nearest `.git` folder above `path`, and its branch (nil when detached).
    static func commit(above path: String) -> (hash: String, branch: String?)? {
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        for _ in 0..<12 {
            let git = directory.appendingPathComponent(".git")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: git.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return read(git)
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        return nil
    }

    static func read(_ git: URL) -> (hash: String, branch: String?)? {
        guard let head = try? String(contentsOf: git.appendingPathComponent("HEAD"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        guard head.hasPrefix("ref: ") else { return isHash(head) ? (head, nil) : nil }
        let reference = String(head.dropFirst(5))
        let branch = reference.hasPrefix("refs/heads/") ? String(reference.dropFirst(11)) : reference
        if let loose = try? String(contentsOf: git.appendingPathComponent(reference), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines), isHash(loose) {
            return (loose, branch)
        }
        // `<hash> <ref>` lines of packed-refs.
        let packed = (try? String(contentsOf: git.appendingPathComponent("packed-refs"), encoding: .utf8)) ?? ""
        for line in packed.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[1] == reference, isHash(String(parts[0])) { return (String(parts[0]), branch) }
        }
        return nil
    }

    static func isHash(_ text: String) -> Bool {
        text.count >= 40 && text.allSatisfy(\.isHexDigit)
    }
}
