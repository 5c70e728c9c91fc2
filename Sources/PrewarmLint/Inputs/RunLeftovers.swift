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

    /// Held while undoing: a run's end waits for an undo under way, never exits in the middle of one.
    private static let undoing = Mutex(())

    /// Kills every tool's process group still running and removes every folder still there, with what is in it. A
    /// folder a reader is still writing into is removed again until it is gone (at most a second).
    public static func undoAll() {
        undoing.withLock { _ in
            let (folders, groups) = state.withLock { ($0.folders, $0.processGroups) }
            for group in groups {
                killpg(group, SIGKILL)
                endedProcessGroup(group)
            }
            for path in folders {
                for _ in 0..<50 {
                    try? FileManager.default.removeItem(atPath: path)
                    var status = stat()
                    if lstat(path, &status) != 0 { break }
                    usleep(20_000)
                }
                removedFolder(path)
            }
        }
    }
}
