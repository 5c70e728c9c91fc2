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

    /// Remembers `value` for `name`, in place of the name that shared its slot.
    @inlinable
    public mutating func remember(_ value: Value, for name: String) {
        let slot = Self.slot(of: name)
        names[slot] = name
        values[slot] = value
    }

    @inlinable
    static func slot(of name: String) -> Int {
        // Length, first, middle and last byte, read from the contiguous bytes (the generic `utf8.last` is not cheap).
        let slot = name.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            guard let first = bytes.first, let last = bytes.last else { return 0 }
            let middle = bytes[bytes.count / 2]
            return ((bytes.count &* 31 &+ Int(first)) &* 31 &+ Int(middle)) &* 31 &+ Int(last)
        } ?? name.utf8.count
        return (slot ^ (slot >> 6)) & 63
    }
}
