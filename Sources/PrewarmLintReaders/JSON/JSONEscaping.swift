/// Writes JSON strings as bytes, for decoders that rewrite another format's records as JSON
/// (plist entries) so one mapping reads them all.
enum JSONEscaping {
    /// Appends `bytes` as a JSON string: `"`, `\` and control characters escaped; other bytes as they
    /// are (invalid UTF-8 is left for the JSON reader to report). Runs that need no escape are copied whole.
    static func appendQuoted(_ bytes: UnsafeRawBufferPointer, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if index > runStart { json.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]).bindMemory(to: UInt8.self)) }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): json.append(UInt8(ascii: "\\")); json.append(byte)
            case .newline: json.append(UInt8(ascii: "\\")); json.append(UInt8(ascii: "n"))
            case .tab: json.append(UInt8(ascii: "\\")); json.append(UInt8(ascii: "t"))
            case .carriageReturn: json.append(UInt8(ascii: "\\")); json.append(UInt8(ascii: "r"))
            default:
                json.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                         hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            }
            index += 1
            runStart = index
        }
        if index > runStart { json.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]).bindMemory(to: UInt8.self)) }
        json.append(UInt8(ascii: "\""))
    }

    /// The same for a string's UTF-8.
    static func appendQuoted(_ text: String, to json: inout [UInt8]) {
        var copy = text
        copy.withUTF8 { appendQuoted(UnsafeRawBufferPointer($0), to: &json) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
