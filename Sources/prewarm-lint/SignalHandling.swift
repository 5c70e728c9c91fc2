#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PrewarmLint
import Synchronization
import Foundation

/// What the CLI does on signals:
/// - SIGPIPE is ignored, so writing to a closed pipe (`prewarm-lint … | head`) fails with EPIPE and
///   the tool exits 0 quietly (``StandardStreams``) instead of dying on the signal;
/// - the first SIGINT (Ctrl-C), SIGTERM (a CI cancel, `timeout`, `docker stop`) or SIGHUP (a closed terminal)
///   raises ``interruption``: readers stop at their next chunk (a blocked read returns, since the handler is
///   installed without `SA_RESTART`), an exporter started for a log archive is stopped, temporary files are
///   removed, the report of what was read is printed marked partial, and the exit status is 128 + the signal's
///   number (130 for Ctrl-C); a second signal ends the process at once, once the tools it started are killed and its
///   temporary folders removed (``RunLeftovers``, by a thread the handler wakes through a pipe: a handler cannot),
///   by the signal itself.
enum SignalHandling {
    static let interruption = Interruption()
    /// The signal that raised ``interruption`` (0: none).
    static let received = Atomic<Int32>(0)
    nonisolated(unsafe) private static var installed = false
    /// The signals that end a run as Ctrl-C does.
    static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// The pipe a second signal is written to, for the thread that ends the run (write end; -1 before `install`).
    private static let endingPipe = Atomic<Int32>(-1)

    static func install() {
        guard !installed else { return }
        installed = true
        signal(SIGPIPE, SIG_IGN)
        var action = sigaction()
        // The second signal ends the run from a thread, after removing its temporary folders.
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            endingPipe.store(ends[1], ordering: .relaxed)
            let reading = ends[0]
            Thread.detachNewThread {
                var number: Int32 = 0
                while read(reading, &number, MemoryLayout<Int32>.size) != MemoryLayout<Int32>.size {
                    if errno != EINTR { return }
                }
                RunLeftovers.undoAll()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        // Async-signal-safe: atomic stores, write(2) and signal(2). The first signal raises the flag; a second (of
        // any of the three) wakes the thread above and leaves the next to the system's default (a third ends at once).
        let handler: @convention(c) (Int32) -> Void = { number in
            if SignalHandling.received.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged {
                SignalHandling.interruption.raise()
                return
            }
            var value = number
            let pipe = SignalHandling.endingPipe.load(ordering: .relaxed)
            if pipe >= 0 { _ = write(pipe, &value, MemoryLayout<Int32>.size) }
            for stopping in SignalHandling.stopping { signal(stopping, SIG_DFL) }
            if pipe < 0 { raise(number) }
        }
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        action.sa_flags = 0  // no SA_RESTART: a read blocked on a pipe returns EINTR
        sigemptyset(&action.sa_mask)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in stopping {
            // A signal ignored when the run started (`nohup` ignores SIGHUP) stays ignored, as the shell meant.
            var previous = sigaction()
            sigaction(number, nil, &previous)
            #if canImport(Glibc)
            let ignored = unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            #else
            let ignored = unsafeBitCast(previous.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            #endif
            if ignored, number != SIGINT { continue }
            sigaction(number, &action, nil)
            // A parent may have started us with the signal blocked (the mask is inherited): it must reach us.
            sigaddset(&unblock, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The exit status after an interrupted run's partial output: 128 + the signal's number (130 for Ctrl-C). What the
    /// run left (a second signal may be undoing it) is undone first: the run never exits in the middle of that.
    static var interruptedStatus: Int32 {
        RunLeftovers.undoAll()
        let number = received.load(ordering: .relaxed)
        return 128 + (number == 0 ? SIGINT : number)
    }
}

/// The exit statuses, said the same way in every command's help and the man page: what 0 and 1 mean for the command,
/// then 2, 64 and 128 + N as every command has them.
enum ExitStatusText {
    /// `success`: what 0 means; `one`: what 1 means, when the command exits 1.
    static func help(success: String, one: String? = nil, following: Bool = false) -> String {
        var text = "Exit status: 0 \(success)"
        if let one { text += "; 1 \(one)" }
        text += "; 2 when an input could not be read (what the others hold is still reported); 64 on a usage or configuration error; "
            + "128 + N when signal N ended the run, after the partial output (130 for Ctrl-C"
        text += following ? "; under --follow, Ctrl-C is the normal end: the findings' status)." : ")."
        return text
    }
}
