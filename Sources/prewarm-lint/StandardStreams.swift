import Foundation
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

    static func out(_ text: String) {
        TerminalSafeText.append(text, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flushOut() }
    }

    /// Writes the UTF-8 `bytes` (no line break added), flushing every 64 KiB.
    static func outBytes(_ bytes: UnsafeRawBufferPointer) {
        TerminalSafeText.append(bytes: bytes, to: &buffer)
        if buffer.count >= 1 << 16 { flushOut() }
    }

    static func err(_ text: String) {
        flushOut()
        var bytes: [UInt8] = []
        TerminalSafeText.append(text, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        ProgressLine.shared.around { writeAll(2, bytes) }
    }

    static func flush() { flushOut() }

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

/// Text made safe for a terminal at the one place the CLI writes: log text and file names can hold escape
/// sequences (an OSC 52 clipboard write, a screen clear, a cursor move), which must never reach the
/// terminal raw. Control characters but tab and line feed become caret notation (`^[`, `^M`, `^?`, as
/// `cat -v` writes them), C1 controls `<U+009B>`; the colour the reporters add (SGR: `ESC [ digits;… m`)
/// is kept, since it can only colour text. Structured formats (JSON, SARIF) never hold raw controls.
enum TerminalSafeText {
    /// A byte that is not copied as it is: a control byte other than newline and tab, DEL, or the lead byte of a C1
    /// control.
    @inline(__always) static func needsCare(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x0A && byte != 0x09 || byte == 0x7F || byte == 0xC2
    }

    static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0), to: &output) }
    }

    /// Appends the UTF-8 `bytes`, made safe as ``append(_:to:)`` makes text safe.
    static func append(bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        // Most text has no control byte: copied as it is (found in one pass over the bytes).
        guard !isClean(bytes) else {
            // (As typed bytes: appending the raw buffer went a byte at a time.)
            output.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
            return
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, let end = sgrEnd(bytes, from: index) {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index...end]))
                index = end + 1
                continue
            }
            if byte == 0x0A || byte == 0x09 || (byte >= 0x20 && byte != 0x7F && byte != 0xC2) {
                output.append(byte)
            } else if byte == 0x7F {
                output.append(contentsOf: Array("^?".utf8))
            } else if byte < 0x20 {
                output.append(contentsOf: [UInt8(ascii: "^"), byte + 0x40])
            } else if index + 1 < bytes.count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F {
                // U+0080…U+009F, the C1 controls (U+009B is a one-byte CSI).
                output.append(contentsOf: Array(String(format: "<U+%04X>", Int(bytes[index + 1])).utf8))
                index += 1
            } else {
                output.append(byte)
            }
            index += 1
        }
    }

    /// Whether no byte of `bytes` needs care. Sixteen bytes at a time: only a block that may hold a byte below 0x20, a
    /// 0x7F or a 0xC2 is looked at byte by byte (a newline or tab sends it there too; most blocks of a report hold
    /// none). A report of 90 MB went through here a byte at a time, 4% of a launch-dense lint; eight at a time, 3%.
    static func isClean(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        let below = SIMD16<UInt8>(repeating: 0x20), delete = SIMD16<UInt8>(repeating: 0x7F), c1Lead = SIMD16<UInt8>(repeating: 0xC2)
        while index + 16 <= bytes.count {
            let block = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            if any(block .< below .| block .== delete .| block .== c1Lead) {
                for byte in UnsafeRawBufferPointer(rebasing: bytes[index..<(index + 16)]) where needsCare(byte) { return false }
            }
            index += 16
        }
        for byte in UnsafeRawBufferPointer(rebasing: bytes[index...]) where needsCare(byte) { return false }
        return true
    }

    /// The index of the `m` ending the SGR sequence `ESC [ [0-9;]{0,16} m` that starts at `start`, if one does.
    private static func sgrEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start + 2 < bytes.count, bytes[start + 1] == UInt8(ascii: "[") else { return nil }
        var index = start + 2
        while index < bytes.count, index - start <= 18 {
            let byte = bytes[index]
            if byte == UInt8(ascii: "m") { return index }
            guard (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ";") else { return nil }
            index += 1
        }
        return nil
    }
}
