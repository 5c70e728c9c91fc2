/// Writes JSON strings as bytes, for decoders that rewrite another format's records as JSON
/// (plist entries) so one mapping reads them all.
enum JSONEscaping {
    /// Appends `bytes` as a JSON string: `"`, `\` and control characters escaped; other bytes as they are
    /// (invalid UTF-8 is left for the JSON reader to report).
    static func appendQuoted(_ bytes: some Sequence<UInt8>, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): json.append(UInt8(ascii: "\\")); json.append(byte)
            case .newline: json.append(UInt8(ascii: "\\")); json.append(UInt8(ascii: "n"))
            case .tab: json.append(UInt8(ascii: "\\")); json.append(UInt8(ascii: "t"))
            case .carriageReturn: json.append(UInt8(ascii: "\\")); json.append(UInt8(ascii: "r"))
            case 0..<0x20:
                json.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                         hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            default: json.append(byte)
            }
        }
        json.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
