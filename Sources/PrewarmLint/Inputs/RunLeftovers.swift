import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a run has made outside itself and not yet undone: temporary folders (a sysdiagnose's unified log taken out)
/// and the process groups of the tools it started (an exporter). A run ended by a second Ctrl-C, which does not wait
/// for its readers to stop, undoes them all the same (``undoAll()``).
public enum RunLeftovers {
    private struct State {
        var folders: Set<String> = []
        var processGroups: Set<pid_t> = []
    }
    private static let state = Mutex(State())

    static func madeFolder(_ path: String) { state.withLock { _ = $0.folders.insert(path) } }
    static func removedFolder(_ path: String) { state.withLock { _ = $0.folders.remove(path) } }
    static func startedProcessGroup(_ pid: pid_t) { state.withLock { _ = $0.processGroups.insert(pid) } }
    static func endedProcessGroup(_ pid: pid_t) { state.withLock { _ = $0.processGroups.remove(pid) } }

    /// Kills every tool's process group still running and removes every folder still there, with what is in it.
    public static func undoAll() {
        let (folders, groups) = state.withLock { ($0.folders, $0.processGroups) }
        for group in groups {
            killpg(group, SIGKILL)
            endedProcessGroup(group)
        }
        for path in folders {
            try? FileManager.default.removeItem(atPath: path)
            removedFolder(path)
        }
    }
}
