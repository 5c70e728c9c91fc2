import Foundation
import PrewarmLint
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writes to stdout, unbuffered to stderr, and terminal detection.
///
/// The CLI writes from one thread only. Writing to a closed pipe (`prewarm-lint … | head`)
/// ends the process through SIGPIPE, quietly, as `cat` does.
enum StandardStreams {
    nonisolated(unsafe) private static var buffer: [UInt8] = {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        return bytes
    }()

    /// Whether standard output is coloured (`--color`, a terminal): the reporters' colours are kept there, and no other
    /// escape sequence (``TerminalText``). Standard error is never coloured.
    nonisolated(unsafe) static var colors = false

    static func out(_ text: String) {
        TerminalText.append(text, to: &buffer, colors: colors)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flushOut() }
    }

    /// Writes the UTF-8 `bytes` (no line break added), flushing every 64 KiB.
    static func outBytes(_ bytes: UnsafeRawBufferPointer) {
        TerminalText.append(bytes: bytes, to: &buffer, colors: colors)
        if buffer.count >= 1 << 16 { flushOut() }
    }

    static func err(_ text: String) {
        flushOut()
        var bytes: [UInt8] = []
        TerminalText.append(text, to: &bytes, colors: false)
        bytes.append(UInt8(ascii: "\n"))
        ProgressLine.shared.around { writeAll(2, bytes) }
    }

    static func flush() { flushOut() }

    /// Whether standard output holds bytes not yet written.
    static var hasBufferedOutput: Bool { !buffer.isEmpty }

    private static func flushOut() {
        guard !buffer.isEmpty else { return }
        writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    exit(errno == EPIPE ? 0 : 2)
                }
                offset += written
            }
        }
    }

    static var stdoutIsTerminal: Bool { isatty(1) == 1 }

    /// Microseconds since the epoch, for the date of standard input, which has no file time.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}
