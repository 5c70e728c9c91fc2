import Foundation
import PrewarmLint

/// The `events` filters: every given condition must hold.
struct EventFilter {
    var processes: Set<String>
    var pids: Set<Int>
    var since: TimeBound?
    var until: TimeBound?
    var grep: String?

    func accepts(_ event: LogEvent) -> Bool {
        if !processes.isEmpty, !processes.contains(event.process) { return false }
        if !pids.isEmpty, !(event.pid.map(pids.contains) ?? false) { return false }
        if let since, since.compare(event.timestamp) < 0 { return false }
        if let until, until.compare(event.timestamp) > 0 { return false }
        if let grep, event.message.range(of: grep, options: .caseInsensitive) == nil { return false }
        return true
    }
}

