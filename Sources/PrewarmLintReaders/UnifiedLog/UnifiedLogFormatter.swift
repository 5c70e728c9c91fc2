/// Renders an `os_log` format string with an entry's arguments, as `log show` does for what a launch needs: `%s`,
/// `%@`, integers in every length (`%d %i %u %x %X %o %c %p`, `%lld`, `%zu`…) with flags, width and precision (also
/// `*`), doubles (`%f %e %g`), `%P` data, and Apple's annotations: `{public}`/`{private}` (a private value is
/// `<private>`), `{bool}`/`{BOOL}`, `{errno}`, `{time_t}`, `{uuid_t}`. An annotation it does not know leaves the value
/// as its conversion shows it; a missing argument is `<decode: missing data>`, as `log` writes it.
package enum UnifiedLogFormatter {
    package static func render(_ format: String, _ arguments: [FirehoseLogEntry.Argument]) -> String {
        var output = ""
        var remaining = arguments[...]
        var bytes = Array(format.utf8)[...]
        var literal: [UInt8] = []
        func flushLiteral() {
            output += String(decoding: literal, as: UTF8.self)
            literal.removeAll(keepingCapacity: true)
        }
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else { literal.append(byte); continue }
            if bytes.first == UInt8(ascii: "%") {
                bytes.removeFirst()
                literal.append(byte)
                continue
            }
            var spec = Specification()
            if bytes.first == UInt8(ascii: "{") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "}")) else { literal.append(byte); continue }
                spec.annotations = String(decoding: bytes[bytes.index(after: bytes.startIndex)..<close], as: UTF8.self)
                    .split(separator: ",").map { $0.withoutSurroundingSpaces() }
                bytes = bytes[bytes.index(after: close)...]
            }
            while let flag = bytes.first, "-+ #0'".utf8.contains(flag) {
                spec.flags.insert(flag)
                bytes.removeFirst()
            }
            if bytes.first == UInt8(ascii: "*") {
                bytes.removeFirst()
                if case .precision(let value)? = remaining.first { spec.width = Int(clamping: value); remaining.removeFirst() }
            } else {
                spec.width = digits(&bytes)
            }
            if bytes.first == UInt8(ascii: ".") {
                bytes.removeFirst()
                if bytes.first == UInt8(ascii: "*") {
                    bytes.removeFirst()
                    if case .precision(let value)? = remaining.first { spec.precision = Int(clamping: value); remaining.removeFirst() }
                } else {
                    spec.precision = digits(&bytes) ?? 0
                }
            }
            var lengthLetters = 0
            var halves = 0
            while let length = bytes.first, "hlqjztL".utf8.contains(length) {
                if length == UInt8(ascii: "h") { halves += 1 } else { lengthLetters += 1 }
                bytes.removeFirst()
            }
            // The C argument's width: `%x` is an unsigned int, `%lx` and `%llx` 64 bits, `%hhx` a byte.
            spec.bits = lengthLetters > 0 ? 64 : halves == 1 ? 16 : halves >= 2 ? 8 : 32
            guard let conversion = bytes.popFirst() else { literal.append(byte); break }
            flushLiteral()
            // A width or precision stored as its own argument comes before its value, whatever the format says.
            while case .precision? = remaining.first, "sP@".utf8.contains(conversion) { remaining.removeFirst() }
            guard let argument = remaining.popFirst() else {
                output += "<decode: missing data>"
                continue
            }
            output += spec.padded(render(argument, conversion: conversion, spec: spec))
        }
        flushLiteral()
        return output
    }

    /// An argument alone, as an entry whose format string is missing shows it: a number in decimal, a string as is,
    /// bytes in hexadecimal, a private value as `<private>`.
    package static func argumentText(_ argument: FirehoseLogEntry.Argument) -> String {
        switch argument {
        case .number(let value), .precision(let value): String(value)
        default: render(argument, conversion: UInt8(ascii: "s"), spec: Specification())
        }
    }

    struct Specification {
        var annotations: [Substring] = []
        var flags: Set<UInt8> = []
        var width: Int?
        var precision: Int?
        /// The argument's width in bits, from the length modifier.
        var bits = 32

        func has(_ annotation: String) -> Bool { annotations.contains { $0 == annotation } }

        func padded(_ text: String) -> String {
            guard let width, width > text.count, width <= 4096 else { return text }
            let pad = String(repeating: flags.contains(UInt8(ascii: "0")) && !flags.contains(UInt8(ascii: "-")) ? "0" : " ", count: width - text.count)
            if flags.contains(UInt8(ascii: "-")) { return text + pad }
            if pad.first == "0", let sign = text.first, sign == "-" || sign == "+" { return String(sign) + pad + text.dropFirst() }
            return pad + text
        }
    }

    private static func digits(_ bytes: inout ArraySlice<UInt8>) -> Int? {
        var value: Int?
        while let digit = bytes.first, digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
            value = min((value ?? 0) * 10 + Int(digit - UInt8(ascii: "0")), 1 << 20)
            bytes.removeFirst()
        }
        return value
    }

    private static func render(_ argument: FirehoseLogEntry.Argument, conversion: UInt8, spec: Specification) -> String {
        switch argument {
        case .privateValue:
            return "<private>"
        case .elsewhere:
            return "<decode: missing data>"
        case .precision(let value):
            return String(value)
        case .string(let text):
            guard let text else { return "(null)" }
            if let precision = spec.precision, conversion == UInt8(ascii: "s"), precision < text.count { return String(text.prefix(precision)) }
            return text
        case .bytes(let data):
            if spec.has("uuid_t"), data.count == 16 {
                return data.withUnsafeBytes { UnifiedLogUUID($0).description }
            }
            return data.map { byte in String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
        case .number(let value):
            return number(value, conversion: conversion, spec: spec)
        }
    }

    private static func number(_ value: Int64, conversion: UInt8, spec: Specification) -> String {
        if spec.has("bool") { return value != 0 ? "true" : "false" }
        if spec.has("BOOL") { return value != 0 ? "YES" : "NO" }
        if spec.has("errno") { return "[\(value): \(errnoText[Int(clamping: value)] ?? "Unknown error: \(value)")]" }
        if spec.has("time_t") { return UTCTime.text(seconds: value) }
        let mask: UInt64 = spec.bits >= 64 ? .max : (1 << UInt64(spec.bits)) - 1
        let unsigned = UInt64(bitPattern: value) & mask
        let signed = spec.bits >= 64 ? value : Int64(truncatingIfNeeded: unsigned << UInt64(64 - spec.bits)) >> Int64(64 - spec.bits)
        var text: String
        switch conversion {
        case UInt8(ascii: "d"), UInt8(ascii: "i"):
            text = String(signed)
            if signed >= 0, spec.flags.contains(UInt8(ascii: "+")) { text = "+" + text }
        case UInt8(ascii: "u"):
            text = String(unsigned)
        case UInt8(ascii: "p"):
            return "0x" + String(UInt64(bitPattern: value), radix: 16)
        case UInt8(ascii: "x"), UInt8(ascii: "X"):
            text = String(unsigned, radix: 16, uppercase: conversion == UInt8(ascii: "X"))
            if let precision = spec.precision { text = text.leftPadded(to: precision) }
            if spec.flags.contains(UInt8(ascii: "#")) && unsigned != 0 {
                text = (conversion == UInt8(ascii: "X") ? "0X" : "0x") + text
            }
            return text
        case UInt8(ascii: "o"):
            text = String(unsigned, radix: 8)
        case UInt8(ascii: "c"):
            text = String(decoding: [UInt8(truncatingIfNeeded: value)], as: UTF8.self)
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            return fixed(Double(bitPattern: UInt64(bitPattern: value)), precision: spec.precision ?? 6)
        case UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"):
            return "\(Double(bitPattern: UInt64(bitPattern: value)))"
        default:
            text = String(signed)
        }
        if let precision = spec.precision, "diuo".utf8.contains(conversion) {
            let negative = text.hasPrefix("-")
            let magnitude = negative ? String(text.dropFirst()) : text
            text = (negative ? "-" : "") + magnitude.leftPadded(to: precision)
        }
        return text
    }

    /// `%.Nf`: rounded to `precision` decimals (half to even on the scaled binary value; printf rounds the exact
    /// decimal expansion, which differs only at exact halves). Values too large for that are written as Swift writes
    /// them.
    static func fixed(_ value: Double, precision: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        let digits = min(max(precision, 0), 15)
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value.magnitude * Double(scale)).rounded(.toNearestOrEven)
        guard scaled < 9.0e18 else { return "\(value)" }
        let whole = UInt64(scaled)
        var text = String(whole / scale)
        if digits > 0 { text += "." + String(whole % scale).leftPadded(to: digits) }
        return (value.sign == .minus && whole != 0 ? "-" : "") + text
    }

    /// Darwin's messages for the errno values the launch daemons and securityd log.
    static let errnoText: [Int: String] = [
        1: "Operation not permitted", 2: "No such file or directory", 3: "No such process", 4: "Interrupted system call",
        5: "Input/output error", 9: "Bad file descriptor", 12: "Cannot allocate memory", 13: "Permission denied",
        16: "Resource busy", 17: "File exists", 22: "Invalid argument", 28: "No space left on device",
        35: "Resource temporarily unavailable", 60: "Operation timed out", 61: "Connection refused",
    ]
}

/// Seconds since 1970 as `2023-01-12 01:35:35+0000` (UTC; the civil date from the day count, no time zone data).
enum UTCTime {
    static func text(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's days-to-civil.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { String(value).leftPadded(to: 2) }
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))+0000"
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

private extension Substring {
    func withoutSurroundingSpaces() -> Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
