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

    /// A line on standard output, uncoloured (see ``StandardOutput`` for a command's coloured output).
    static func out(_ text: String) { out(text, colors: false) }

    /// The UTF-8 `bytes` on standard output (no line break added), uncoloured.
    static func outBytes(_ bytes: UnsafeRawBufferPointer) { outBytes(bytes, colors: false) }

    /// A line on standard output; `colors`: the reporters' colours are kept, and no other escape sequence
    /// (``TerminalText``).
    static func out(_ text: String, colors: Bool) {
        TerminalText.append(text, to: &buffer, colors: colors)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flushOut() }
    }

    /// Writes the UTF-8 `bytes` (no line break added), flushing every 64 KiB; `colors` as ``out(_:colors:)``.
    static func outBytes(_ bytes: UnsafeRawBufferPointer, colors: Bool) {
        TerminalText.append(bytes: bytes, to: &buffer, colors: colors)
        if buffer.count >= 1 << 16 { flushOut() }
    }

    /// One problem on standard error, `PLACE: SEVERITY: MESSAGE`, kept on one line (``DisplayText/singleLine(_:)``): a
    /// path or a message quoting an input (an archive member's name) cannot start a line of its own.
    static func problem(_ place: String, _ severity: String, _ message: String) {
        err(DisplayText.singleLine("\(place): \(severity): \(message)"))
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

/// Standard output as one command writes it: coloured when the command decided so (`--color`, a terminal) — the
/// reporters' colours kept, no other escape sequence (``TerminalText``). A value each command makes, not a process-wide
/// switch; standard error is never coloured.
struct StandardOutput {
    /// Whether the reporters' colours are kept.
    var colors: Bool

    /// A line.
    func line(_ text: String) { StandardStreams.out(text, colors: colors) }

    /// UTF-8 bytes, no line break added.
    func bytes(_ bytes: UnsafeRawBufferPointer) { StandardStreams.outBytes(bytes, colors: colors) }

    /// A piece of text, no line break added.
    func bytes(_ text: String) {
        var text = text
        text.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }
}
