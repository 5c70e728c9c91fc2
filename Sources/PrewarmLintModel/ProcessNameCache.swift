/// Remembers a value computed from a process name, for the names seen lately.
///
/// A direct-mapped cache of 64 names, for what is asked of every event's process name (its role,
/// whether it is skipped): readers intern process names, so a hit is usually a comparison of two
/// identical strings, where the computation hashes the name into a set.
public struct ProcessNameCache<Value: Sendable>: Sendable {
    // Inlinable throughout, so that each use is specialized for its `Value` (unspecialized, every
    // lookup fetches the generic metadata, on every line of a text log).
    @usableFromInline var names = [String?](repeating: nil, count: 64)
    @usableFromInline var values: [Value?] = Array(repeating: nil, count: 64)

    /// An empty cache.
    public init() {}

    /// The value remembered for `name`, if it is.
    @inlinable
    public func value(for name: String) -> Value? {
        let slot = Self.slot(of: name)
        guard let cached = names[slot], cached == name else { return nil }
        return values[slot]
    }

    /// The value remembered for the name spelt by `bytes` (UTF-8), if it is: the same slot as its `String`'s, the name
    /// compared byte for byte, so that a caller holding only bytes makes no `String` to ask.
    @inlinable
    public func value(forBytes bytes: UnsafeRawBufferPointer) -> Value? {
        let slot = Self.slot(of: UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
        guard let cached = names[slot] else { return nil }
        let same = cached.utf8.withContiguousStorageIfAvailable { name in
            name.count == bytes.count && (bytes.isEmpty || memcmp(name.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return same == true ? values[slot] : nil
    }

    /// Remembers `value` for `name`, in place of the name that shared its slot.
    @inlinable
    public mutating func remember(_ value: Value, for name: String) {
        let slot = Self.slot(of: name)
        names[slot] = name
        values[slot] = value
    }

    @inlinable
    static func slot(of name: String) -> Int {
        // Read from the contiguous bytes (the generic `utf8.last` is not cheap).
        name.utf8.withContiguousStorageIfAvailable { slot(of: $0) } ?? ((name.utf8.count ^ (name.utf8.count >> 6)) & 63)
    }

    /// The slot of a name spelt by `bytes`: its length, first, middle and last byte.
    @inlinable
    static func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = bytes.first, let last = bytes.last else { return 0 }
        let middle = bytes[bytes.count / 2]
        let slot = ((bytes.count &* 31 &+ Int(first)) &* 31 &+ Int(middle)) &* 31 &+ Int(last)
        return (slot ^ (slot >> 6)) & 63
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
