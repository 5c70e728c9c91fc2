/// A JSON syntax error at a byte position of the record.
struct JSONSyntaxError: Error, Equatable {
    var position: Int
    var reason: String
}

/// One member value of a scanned object: its kind and where it lies.
///
/// Twelve bytes (32-bit offsets: the scanner takes no buffer of 4 GiB or more): a record holds thirty of
/// them, made and copied once per line.
struct JSONValue {
    enum Kind: UInt8 { case string, number, `true`, `false`, null, object, array }
    var kind: Kind
    /// Whether a string holds backslash escapes (and so cannot be used as it is).
    var hasEscapes: Bool
    private var lower: UInt32, upper: UInt32

    init(kind: Kind, range: Range<Int>, hasEscapes: Bool = false) {
        self.kind = kind
        self.hasEscapes = hasEscapes
        lower = UInt32(truncatingIfNeeded: range.lowerBound)
        upper = UInt32(truncatingIfNeeded: range.upperBound)
    }

    /// For a string, its content without the quotes; otherwise the whole value.
    var range: Range<Int> { Int(lower)..<Int(upper) }
}

/// Scans one JSON object over raw bytes without building it: each member's key and value are
/// handed to the caller as ranges, so only the values an event keeps are ever decoded.
///
/// Strict enough to reject what is not JSON (a truncated line, binary garbage), lenient in one
/// way: duplicate keys are passed on in order (the last one wins in the callers). Nesting is
/// limited to ``maximumDepth`` so a hostile record cannot exhaust the stack — the scanner does
/// not recurse.
enum JSONObjectScanner {
    static let maximumDepth = 512

    /// Scans the object starting at `start` (which must be `{`), calling `member` for each
    /// top-level member; returns the index after the closing `}`.
    static func scanObject(_ bytes: UnsafeRawBufferPointer, from start: Int,
                           member: (_ key: Range<Int>, _ keyHasEscapes: Bool, _ value: JSONValue) -> Void) throws(JSONSyntaxError) -> Int {
        // (Values keep 32-bit offsets. The readers cut records far shorter than this.)
        guard bytes.count < Int(UInt32.max) else { throw JSONSyntaxError(position: 0, reason: "record of 4 GiB or more") }
        var index = skipWhitespace(bytes, start)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw JSONSyntaxError(position: index, reason: "expected '{'")
        }
        index = skipWhitespace(bytes, index + 1)
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return index + 1 }
        while true {
            guard index < bytes.count else { throw JSONSyntaxError(position: index, reason: "record ends inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw JSONSyntaxError(position: index, reason: "expected a key string") }
            let (keyEnd, keyEscapes) = try scanString(bytes, index)
            let key = (index + 1)..<(keyEnd - 1)
            index = skipWhitespace(bytes, keyEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw JSONSyntaxError(position: index, reason: "expected ':'") }
            index = skipWhitespace(bytes, index + 1)
            let value = try scanValue(bytes, index)
            member(key, keyEscapes, value)
            index = skipWhitespace(bytes, value.kind == .string ? value.range.upperBound + 1 : value.range.upperBound)
            guard index < bytes.count else { throw JSONSyntaxError(position: index, reason: "record ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index = skipWhitespace(bytes, index + 1)
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw JSONSyntaxError(position: index, reason: "expected ',' or '}'") }
            return index + 1
        }
    }

    /// ``scanObject(_:from:member:)`` for an object that is valid: the same members in the same order, in one
    /// loop with no error to build; nil at the first thing wrong, and the caller scans again with
    /// `scanObject`, which says what and where. (Typed errors on every step are a cost on every member.) It accepts
    /// exactly what `scanObject` accepts and hands on the same members.
    @inline(__always)
    static func scanObjectQuickly(_ bytes: UnsafeRawBufferPointer, from start: Int,
                                  member: (_ key: Range<Int>, _ keyHasEscapes: Bool, _ value: JSONValue) -> Void) -> Int? {
        let count = bytes.count
        guard count < Int(UInt32.max) else { return nil }  // (said by `scanObject`)
        // JSON's whitespace is below 0x21, its punctuation and values above: one comparison tells.
        @inline(__always) func skipSpace(_ index: Int) -> Int {
            index < count && bytes[index] <= .space ? skipWhitespace(bytes, index) : index
        }
        var index = skipSpace(start)
        guard index < count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index = skipSpace(index + 1)
        guard index < count else { return nil }
        if bytes[index] == UInt8(ascii: "}") { return index + 1 }
        while true {
            guard index < count, bytes[index] == UInt8(ascii: "\""), let (keyEnd, keyEscapes) = stringEnd(bytes, index) else { return nil }
            let key = (index + 1)..<(keyEnd - 1)
            index = skipSpace(keyEnd)
            guard index < count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index = skipSpace(index + 1)
            guard index < count else { return nil }
            let value: JSONValue
            let first = bytes[index]
            if first == UInt8(ascii: "\"") {
                guard let (end, escapes) = stringEnd(bytes, index) else { return nil }
                value = JSONValue(kind: .string, range: (index + 1)..<(end - 1), hasEscapes: escapes)
                index = end
            } else if first.isDigit || first == UInt8(ascii: "-") {
                var end = index + 1
                while end < count, isNumberByte(bytes[end]) { end += 1 }
                value = JSONValue(kind: .number, range: index..<end)
                index = end
            } else {
                guard let other = try? scanValue(bytes, index) else { return nil }
                value = other
                index = other.range.upperBound
            }
            member(key, keyEscapes, value)
            index = skipSpace(index)
            guard index < count else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index = skipSpace(index + 1)
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { return nil }
            return index + 1
        }
    }

    /// A byte that may continue a number (`scanValue` is as lenient: the digits, sign, point and exponent).
    @inline(__always)
    static func isNumberByte(_ byte: UInt8) -> Bool {
        byte.isDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
    }

    /// The value at `start`.
    static func scanValue(_ bytes: UnsafeRawBufferPointer, _ start: Int) throws(JSONSyntaxError) -> JSONValue {
        guard start < bytes.count else { throw JSONSyntaxError(position: start, reason: "expected a value") }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            let (end, escapes) = try scanString(bytes, start)
            return JSONValue(kind: .string, range: (start + 1)..<(end - 1), hasEscapes: escapes)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let end = try skipContainer(bytes, start)
            return JSONValue(kind: bytes[start] == UInt8(ascii: "{") ? .object : .array, range: start..<end)
        case UInt8(ascii: "t"):
            guard bytes.matches("true", at: start) else { break }
            return JSONValue(kind: .true, range: start..<(start + 4))
        case UInt8(ascii: "f"):
            guard bytes.matches("false", at: start) else { break }
            return JSONValue(kind: .false, range: start..<(start + 5))
        case UInt8(ascii: "n"):
            guard bytes.matches("null", at: start) else { break }
            return JSONValue(kind: .null, range: start..<(start + 4))
        default:
            var end = start
            while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
            if end > start, bytes[start] == UInt8(ascii: "-") || bytes[start].isDigit {
                return JSONValue(kind: .number, range: start..<end)
            }
        }
        throw JSONSyntaxError(position: start, reason: "expected a value")
    }

    /// The index after the closing quote of the string starting at `start`, and whether it has escapes.
    static func scanString(_ bytes: UnsafeRawBufferPointer, _ start: Int) throws(JSONSyntaxError) -> (end: Int, hasEscapes: Bool) {
        guard let string = stringEnd(bytes, start) else {
            throw JSONSyntaxError(position: bytes.count, reason: "record ends inside a string")
        }
        return string
    }

    /// The index after the closing quote of the string starting at `start` and whether it has escapes;
    /// nil when the record ends first.
    @inline(__always)
    static func stringEnd(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> (end: Int, hasEscapes: Bool)? {
        var index = start + 1
        var escapes = false
        while true {
            guard let found = firstQuoteOrBackslash(bytes, from: index) else { return nil }
            if bytes[found] == UInt8(ascii: "\"") { return (found + 1, escapes) }
            // A backslash escapes the next byte (a quote among them).
            escapes = true
            index = found + 2
        }
    }

    /// The index of the first quote or backslash at or after `start`. Eight bytes at a time: most strings of a
    /// record are short keys and values, where two `memchr` calls per string cost more than the scan.
    @inline(__always)
    static func firstQuoteOrBackslash(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        let lastWord = bytes.count &- 8  // (no overflow check in the loop: `index` never passes `count`)
        while index <= lastWord {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quotes = word ^ 0x2222_2222_2222_2222, backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
            // A byte of `quotes` or `backslashes` is zero where the byte is a quote or a backslash; the
            // lowest flagged byte is always a true one (a borrow only flags bytes above a zero byte).
            let flags = (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)) & highs
            if flags != 0 { return index &+ flags.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return nil
    }

    /// Skips a nested object or array without recursion; returns the index after it.
    static func skipContainer(_ bytes: UnsafeRawBufferPointer, _ start: Int) throws(JSONSyntaxError) -> Int {
        var depth = 0
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = try scanString(bytes, index).end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > maximumDepth { throw JSONSyntaxError(position: index, reason: "nested deeper than \(maximumDepth) levels") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default:
                break
            }
            index += 1
        }
        throw JSONSyntaxError(position: bytes.count, reason: "record ends inside a nested value")
    }

    @inline(__always)
    static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn else { break }
            index += 1
        }
        return index
    }
}

/// Decoding JSON string contents into `String`.
enum JSONStringDecoder {
    /// Decodes the content of a string value (between its quotes). Escapes are resolved;
    /// invalid UTF-8 and lone surrogates become U+FFFD and `isValid` is false.
    static func decode(_ bytes: UnsafeRawBufferPointer, _ value: JSONValue) -> (text: String, isValid: Bool) {
        let content = bytes.slice(value.range.lowerBound, value.range.upperBound)
        guard value.hasEscapes else { return UTF8Text.decode(content) }
        var output: [UInt8] = []
        output.reserveCapacity(content.count)
        var valid = true
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < content.count else {
                output.append(byte)
                index += 1
                continue
            }
            let escaped = content[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "n"): output.append(.newline)
            case UInt8(ascii: "t"): output.append(.tab)
            case UInt8(ascii: "r"): output.append(.carriageReturn)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "u"):
                guard content.digitsAreHex(at: index, length: 4) else {
                    valid = false
                    output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    continue
                }
                var scalarValue = UInt32(content.hexValue(at: index, length: 4))
                index += 4
                if (0xD800..<0xDC00).contains(scalarValue), content.matches("\\u", at: index), content.digitsAreHex(at: index + 2, length: 4) {
                    let low = UInt32(content.hexValue(at: index + 2, length: 4))
                    if (0xDC00..<0xE000).contains(low) {
                        scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                if let scalar = Unicode.Scalar(scalarValue) {
                    output.append(contentsOf: Array(String(Character(scalar)).utf8))
                } else {
                    valid = false
                    output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                }
            default: output.append(escaped)  // \" \\ \/ and, leniently, anything else
            }
        }
        let decoded = output.withUnsafeBytes { UTF8Text.decode($0) }
        return (decoded.text, valid && decoded.isValid)
    }
}

extension UnsafeRawBufferPointer {
    func digitsAreHex(at index: Int, length: Int) -> Bool {
        guard index >= 0, index + length <= count else { return false }
        for offset in 0..<length where !self[index + offset].isHexDigit { return false }
        return true
    }

    func hexValue(at index: Int, length: Int) -> Int {
        var value = 0
        for offset in 0..<length {
            let byte = self[index + offset]
            value = value << 4 | Int(byte.isDigit ? byte &- 0x30 : (byte | 0x20) &- 0x61 &+ 10)
        }
        return value
    }
}
