import PrewarmLintModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A path as the file system has it — bytes, not necessarily UTF-8 — held in a `String` without loss.
///
/// A file name on Linux is any bytes but `/` and NUL; Swift's `String` repairs invalid UTF-8 to U+FFFD, after
/// which the file can never be opened again ("no such file or directory"). So a path decoded here keeps each byte
/// that is not part of valid UTF-8 as one scalar of the private-use range U+F780–U+F7FF (U+F700 + the byte);
/// a valid sequence that itself spells a scalar of that range is kept the same way, byte by byte, so the mapping
/// is one-to-one and ``withPlatformPath(_:_:)`` gives the system the original bytes back. A path that is valid
/// UTF-8 (outside that range) is its plain `String`. People see ``displayed(_:)``: each such byte as `\xNN`.
///
/// Written by hand: swift-system's `FilePath` keeps the bytes, but its `String` forms repair them, and every path
/// here travels as a `String` (the ``LogInput`` name, report inputs, sorting); this keeps that and loses nothing.
public enum FileSystemName {
    private static let escapeBase: UInt32 = 0xF700
    private static let escaped: ClosedRange<UInt32> = 0xF780...0xF7FF

    /// The path the bytes `name` spell, every byte kept (see the type's description).
    public static func decoded<Bytes: Collection>(_ name: Bytes) -> String where Bytes.Element == UInt8 {
        decodedBytewise(Array(name))
    }

    /// Names holding invalid UTF-8 (or the escape range): each position either starts a valid scalar or is one escaped byte.
    private static func decodedBytewise(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length > 0 {
                var parser = Unicode.UTF8.ForwardParser()
                var iterator = bytes[index..<index + length].makeIterator()
                if case .valid(let encoded) = parser.parseScalar(from: &iterator) {
                    let scalar = Unicode.UTF8.decode(encoded)
                    if !escaped.contains(scalar.value) {
                        scalars.append(scalar)
                        index += length
                        continue
                    }
                }
                for byte in bytes[index..<index + length] { scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
                index += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The length of the well-formed UTF-8 sequence at `index` (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF), or 0.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < bytes.count && range.contains(bytes[index + offset])
        }
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : 0
        case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
        case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default: return 0
        }
    }

    /// The bytes the path stands for: escaped scalars back to their byte, everything else as UTF-8.
    public static func bytes(_ path: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if escaped.contains(scalar.value) {
                result.append(UInt8(scalar.value - escapeBase))
            } else {
                result.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return result
    }

    /// Calls `body` with the NUL-terminated bytes of `path`, for a system call.
    public static func withPlatformPath<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard path.unicodeScalars.contains(where: { escaped.contains($0.value) }) else {
            return try path.withCString(body)
        }
        var raw = bytes(path).map { CChar(bitPattern: $0) }
        raw.append(0)
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The path for people: each byte that is not UTF-8 as `\xNN`, and each control character as
    /// `DisplayText.name(_:)` shows it (a newline in a file name never starts a line of any output).
    public static func displayed(_ path: String) -> String {
        let path = DisplayText.name(path)
        guard path.unicodeScalars.contains(where: { escaped.contains($0.value) }) else { return path }
        var result = ""
        for scalar in path.unicodeScalars {
            if escaped.contains(scalar.value) {
                let byte = UInt8(scalar.value - escapeBase)
                let hex = String(byte, radix: 16, uppercase: true)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The program's arguments, each decoded without loss (`CommandLine.arguments` repairs invalid UTF-8).
    public static func commandLineArguments() -> [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return decoded(UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
        }
    }
}
