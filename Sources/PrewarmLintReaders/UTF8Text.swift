/// Turning input bytes into `String`s: only for the fields an event keeps, with invalid UTF-8 reported.
enum UTF8Text {
    /// Decodes `bytes` as UTF-8. Invalid sequences become U+FFFD and `isValid` is false, so the
    /// caller can report them; the text is never dropped.
    @inlinable static func decode(_ bytes: UnsafeRawBufferPointer) -> (text: String, isValid: Bool) {
        if bytes.isEmpty { return ("", true) }
        let typed = bytes.bindMemory(to: UInt8.self)
        if isASCII(bytes) {
            return (String(decoding: typed, as: UTF8.self), true)
        }
        if let valid = String(validating: typed, as: UTF8.self) {
            return (valid, true)
        }
        return (String(decoding: typed, as: UTF8.self), false)
    }

    /// Whether every byte is below 0x80, checked thirty-two, then eight bytes at a time.
    @inlinable static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index + 32 <= count {
            let any = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) | bytes.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                | bytes.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self) | bytes.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
            if any & 0x8080_8080_8080_8080 != 0 { return false }
            index += 32
        }
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
