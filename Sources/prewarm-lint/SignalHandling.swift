#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PrewarmLint

/// What the CLI does on signals:
/// - SIGPIPE is ignored, so writing to a closed pipe (`prewarm-lint … | head`) fails with EPIPE and
///   the tool exits 0 quietly (``StandardStreams``) instead of dying on the signal;
/// - the first SIGINT (Ctrl-C) raises ``interruption``: readers stop at their next chunk (a blocked
///   read returns, since the handler is installed without `SA_RESTART`), the report of what was read
///   is printed marked partial, and the exit status is 130; a second SIGINT ends the process at once.
enum SignalHandling {
    static let interruption = Interruption()
    nonisolated(unsafe) private static var installed = false

    static func install() {
        guard !installed else { return }
        installed = true
        signal(SIGPIPE, SIG_IGN)
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in
            SignalHandling.interruption.raise()
            signal(SIGINT, SIG_DFL)
        }
        #else
        action.__sigaction_u.__sa_handler = { _ in
            SignalHandling.interruption.raise()
            signal(SIGINT, SIG_DFL)
        }
        #endif
        action.sa_flags = 0  // no SA_RESTART: a read blocked on a pipe returns EINTR
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        // A parent may have started us with SIGINT blocked (the mask is inherited): Ctrl-C must reach us.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Exit status 130 (128 + SIGINT) after an interrupted run's partial output.
    static let interruptedStatus: Int32 = 130
}
