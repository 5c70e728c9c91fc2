import Foundation

/// One line on standard error saying how far a long run is (`reading: 412 MB of 1.0 GB (41%), 12 s`), for a
/// person at a terminal: shown only when standard error is a terminal, from two seconds into the run, updated
/// twice a second, and cleared before anything else is written to standard error and at the end — so no
/// pipe, file or CI log ever sees it.
///
/// How much was read comes from the kernel's count of the bytes this process read (`rchar` of /proc/self/io),
/// so the readers need no hook; where that is not available (macOS) the line says the time alone.
final class ProgressLine: @unchecked Sendable {
    static let shared = ProgressLine()

    private let lock = NSLock()
    private var showing = false
    private var running = false
    private var totalBytes: Int64?
    private var startBytes: Int64 = 0
    private var started = Date()

    /// What the line says instead of how much was read (a live run's status), when set.
    private var describe: (@Sendable () -> String)?

    /// Starts the line for a run of `totalBytes` (nil: unknown, standard input or a log archive among the inputs);
    /// `describe`, when given, says what the line shows, from half a second into the run.
    func start(totalBytes: Int64?, describe: (@Sendable () -> String)? = nil) {
        guard isatty(2) == 1, ProcessInfo.processInfo.environment["TERM"] != "dumb" else { return }
        lock.lock()
        self.totalBytes = totalBytes
        startBytes = Self.bytesRead() ?? 0
        started = Date()
        running = true
        self.describe = describe
        lock.unlock()
        let delay: TimeInterval = describe == nil ? 2 : 0.5
        let thread = Thread { [self] in
            Thread.sleep(forTimeInterval: delay)
            while true {
                lock.lock()
                guard running else { lock.unlock(); return }
                draw()
                lock.unlock()
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        thread.start()
    }

    /// Ends the line: cleared, never drawn again.
    func stop() {
        lock.lock()
        running = false
        clearLocked()
        lock.unlock()
    }

    /// Runs `write` with the line cleared first (standard error's other writers call this).
    func around(_ write: () -> Void) {
        lock.lock()
        clearLocked()
        write()
        lock.unlock()
    }

    private func clearLocked() {
        guard showing else { return }
        Self.write("\r\u{1B}[K")
        showing = false
    }

    private func draw() {
        if let describe {
            Self.write("\r\u{1B}[K" + describe())
            showing = true
            return
        }
        let seconds = Int(Date().timeIntervalSince(started))
        var text = "prewarm-lint: reading"
        if let now = Self.bytesRead() {
            let read = max(0, now - startBytes)
            text += ": \(Self.size(read))"
            if let totalBytes, totalBytes > 0 {
                text += " of \(Self.size(totalBytes)) (\(min(99, Int(read * 100 / totalBytes)))%)"
            }
        }
        text += ", \(seconds) s"
        Self.write("\r\u{1B}[K" + text)
        showing = true
    }

    /// `rchar` of /proc/self/io: every byte this process has read (files, pipes).
    static func bytesRead() -> Int64? {
        guard let io = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in io.split(separator: "\n") where line.hasPrefix("rchar:") {
            return Int64(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    static func size(_ bytes: Int64) -> String {
        if bytes >= 1_000_000_000 { return String(format: "%.1f GB", Double(bytes) / 1e9) }
        return "\(bytes / 1_000_000) MB"
    }

    private static func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(2, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
