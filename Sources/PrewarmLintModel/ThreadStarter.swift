#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts the threads the pipeline shares its work with, and says when the system refuses one.
///
/// The system may refuse a thread: a user's process limit (`ulimit -u`), a container's limit on its pids, memory for
/// the stack. Foundation's `Thread.start()` does not say so (the body just never runs), and
/// `DispatchQueue.concurrentPerform` waits for the iterations it gave a thread that never came. Either way the caller
/// waited forever: under `prlimit --nproc=1`, a lint of one big file with `--jobs 2`, of two inputs merged, or of a
/// report of more than 512 sessions with `--jobs 2` never ended. Here a refused thread is done without: the work falls
/// back to the calling thread, and gives the same result.
package struct ThreadStarter: Sendable {
    /// Whether to act as if the system refused every thread (for tests of the fallbacks).
    package var refusesThreads = false

    package init(refusesThreads: Bool = false) {
        self.refusesThreads = refusesThreads
    }

    /// Starts `body` on a thread of its own that nobody joins (it says it is done through what it shares, a queue).
    /// False when the system refuses the thread: `body` then never runs, and the caller does the work itself.
    package func startDetached(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = start(body) else { return false }
        pthread_detach(thread)
        return true
    }

    /// Calls `body` on the calling thread and on up to `helpers` more threads at once, and returns when every call
    /// has returned. `body` must take its work from something the calls share (a counter of items), so that the
    /// calling thread's call alone finishes it when the system refuses the other threads.
    package func runSharing(helpers: Int, _ body: @Sendable () -> Void) {
        withoutActuallyEscaping(body) { body in
            var started: [pthread_t] = []
            for _ in 0..<max(0, helpers) {
                guard let thread = start(body) else { break }
                started.append(thread)
            }
            body()
            for thread in started { pthread_join(thread, nil) }
        }
    }

    /// A joinable thread running `body`, or nil when refused.
    private func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        if refusesThreads { return nil }
        let box = Unmanaged.passRetained(Work(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, box)
        #else
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, box)
        #endif
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            return nil
        }
        return thread
    }

    /// The body handed to a new thread, which releases it.
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
