/// Bytes kept from line to line and reused record after record: an array that only grows, and the count of
/// its bytes in use (emptying and refilling an array were two generic calls for every record held).
struct ReusedBytes {
    private var storage: [UInt8] = []
    private(set) var count = 0

    /// Keeps `bytes` instead of what was kept.
    mutating func replace(with bytes: UnsafeRawBufferPointer) {
        count = 0
        append(bytes)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let needed = count + bytes.count
        if storage.count < needed { storage.append(contentsOf: repeatElement(0, count: max(needed, 2 * storage.count) - storage.count)) }
        let start = count
        storage.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: start).copyMemory(from: source, byteCount: bytes.count) }
        count = needed
    }

    mutating func append(_ byte: UInt8) {
        Swift.withUnsafeBytes(of: byte) { append($0) }
    }

    /// The bytes kept.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
}
