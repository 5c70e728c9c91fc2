import PrewarmLintModel

/// A strict reader of Apple's binary property list layout (`bplist00`), over bytes held in memory:
/// the header, objects, an offset table, and a 32-byte trailer giving the offset size, reference
/// size, object count, top object and table position.
///
/// Every offset, length and object reference is checked against the buffer, containers nest at most
/// ``maximumDepth`` deep (a reference cycle cannot loop), and anything out of place throws: a corrupt
/// file is reported, never guessed at. Objects are turned into JSON text for ``JSONLogRecord``:
/// strings (ASCII or UTF-16BE), integers, reals, booleans, dates (as `log show` timestamps in UTC),
/// arrays and dicts with string keys; data, UIDs and sets become `null`.
struct BinaryPlist {
    struct Corrupt: Error {
        var reason: String
    }

    static let maximumDepth = 32

    private let bytes: UnsafeRawBufferPointer
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let tableOffset: Int

    init(_ bytes: UnsafeRawBufferPointer) throws(Corrupt) {
        self.bytes = bytes
        guard bytes.count >= 8 + 32, bytes.hasPrefix("bplist00") else { throw Corrupt(reason: "too short for a header and a trailer") }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { throw Corrupt(reason: "offset or reference size out of range") }
        let count = Self.bigEndian(bytes, at: trailer + 8, size: 8)
        let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
        let table = Self.bigEndian(bytes, at: trailer + 24, size: 8)
        guard count > 0, count <= UInt64(bytes.count), top < count, table >= 8, table < UInt64(trailer),
              UInt64(table) + count * UInt64(offsetSize) <= UInt64(trailer) else {
            throw Corrupt(reason: "the trailer's object count, top object or offset table is out of range")
        }
        objectCount = Int(count)
        topObject = Int(top)
        tableOffset = Int(table)
    }

    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    /// Where object `index` starts.
    func offset(of index: Int) -> Int? {
        guard index >= 0, index < objectCount else { return nil }
        let offset = Self.bigEndian(bytes, at: tableOffset + index * offsetSize, size: offsetSize)
        guard offset >= 8, offset < UInt64(tableOffset) else { return nil }
        return Int(offset)
    }

    private func object(_ index: Int) throws(Corrupt) -> (marker: UInt8, start: Int) {
        guard let start = offset(of: index) else { throw Corrupt(reason: "object \(index) is outside the file") }
        return (bytes[start], start)
    }

    /// A container's or string's length, and where its contents start.
    private func length(_ marker: UInt8, at start: Int) throws(Corrupt) -> (count: Int, contents: Int) {
        let low = Int(marker & 0x0F)
        if low != 0x0F { return (low, start + 1) }
        guard start + 1 < tableOffset else { throw Corrupt(reason: "a length runs past the objects") }
        let intMarker = bytes[start + 1]
        guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else { throw Corrupt(reason: "a length that is not an integer") }
        let size = 1 << Int(intMarker & 0x0F)
        guard start + 2 + size <= tableOffset else { throw Corrupt(reason: "a length runs past the objects") }
        let value = Self.bigEndian(bytes, at: start + 2, size: size)
        guard value <= UInt64(bytes.count) else { throw Corrupt(reason: "a length larger than the file") }
        return (Int(value), start + 2 + size)
    }

    private func references(_ count: Int, at start: Int) throws(Corrupt) -> [Int] {
        guard start + count * referenceSize <= tableOffset else { throw Corrupt(reason: "object references run past the objects") }
        return (0..<count).map { Int(Self.bigEndian(bytes, at: start + $0 * referenceSize, size: referenceSize)) }
    }

    func isDict(_ index: Int) throws(Corrupt) -> Bool { try object(index).marker & 0xF0 == 0xD0 }

    /// The entries: the top array, or the first array of dicts among the top dict's values.
    func entries() throws(Corrupt) -> [Int]? {
        let (marker, start) = try object(topObject)
        switch marker & 0xF0 {
        case 0xA0:
            let (count, contents) = try length(marker, at: start)
            return try references(count, at: contents)
        case 0xD0:
            let (count, contents) = try length(marker, at: start)
            let values = try references(count, at: contents + count * referenceSize)
            for value in values {
                let (valueMarker, valueStart) = try object(value)
                guard valueMarker & 0xF0 == 0xA0 else { continue }
                let (itemCount, itemContents) = try length(valueMarker, at: valueStart)
                let items = try references(itemCount, at: itemContents)
                if let first = items.first, try isDict(first) { return items }
            }
            return nil
        default:
            return nil
        }
    }

    /// The most objects one record may visit: shared references let a few kilobytes name the same container
    /// millions of times (a 3.4 KB file expanded to 2 GB before this bound).
    static let maximumObjectsPerRecord = 1 << 20

    /// Appends object `index` as JSON, at most `limit` bytes of it and ``maximumObjectsPerRecord`` objects:
    /// beyond either the record is refused (`Corrupt`) before it is expanded further.
    func appendJSON(_ index: Int, to json: inout [UInt8], limit: Int) throws(Corrupt) {
        var budget = Self.maximumObjectsPerRecord
        try appendJSON(index, to: &json, depth: 0, limit: limit, budget: &budget)
    }

    private func appendJSON(_ index: Int, to json: inout [UInt8], depth: Int, limit: Int, budget: inout Int) throws(Corrupt) {
        guard depth < Self.maximumDepth else { throw Corrupt(reason: "containers nested deeper than \(Self.maximumDepth) (or a reference cycle)") }
        budget -= 1
        guard budget >= 0 else { throw Corrupt(reason: "a record visits more than \(Self.maximumObjectsPerRecord) objects (shared references)") }
        guard json.count <= limit else { throw Corrupt(reason: "a record expands past \(limit) bytes (shared references)") }
        let (marker, start) = try object(index)
        switch marker & 0xF0 {
        case 0x00:
            switch marker {
            case 0x08: json.append(contentsOf: Array("false".utf8))
            case 0x09: json.append(contentsOf: Array("true".utf8))
            default: json.append(contentsOf: Array("null".utf8))
            }
        case 0x10:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16, start + 1 + size <= tableOffset else { throw Corrupt(reason: "an integer runs past the objects") }
            if size == 16 {
                // 128-bit integers hold 64-bit values in their low half.
                json.append(contentsOf: Array(String(Int64(bitPattern: Self.bigEndian(bytes, at: start + 9, size: 8))).utf8))
            } else {
                let raw = Self.bigEndian(bytes, at: start + 1, size: size)
                // 8-byte integers are signed; smaller ones unsigned.
                let text = size == 8 ? String(Int64(bitPattern: raw)) : String(raw)
                json.append(contentsOf: Array(text.utf8))
            }
        case 0x20:
            let size = 1 << Int(marker & 0x0F)
            guard size == 4 || size == 8, start + 1 + size <= tableOffset else { throw Corrupt(reason: "a real that is not 4 or 8 bytes") }
            let raw = Self.bigEndian(bytes, at: start + 1, size: size)
            let value = size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)
            json.append(contentsOf: Array((value.isFinite ? String(value) : "null").utf8))
        case 0x30:
            guard marker == 0x33, start + 9 <= tableOffset else { throw Corrupt(reason: "a date that is not 8 bytes") }
            let seconds = Double(bitPattern: Self.bigEndian(bytes, at: start + 1, size: 8))
            guard seconds.isFinite, abs(seconds) < 1e11 else { json.append(contentsOf: Array("null".utf8)); return }
            // Seconds since 2001-01-01 00:00:00 UTC.
            let microseconds = Int64((seconds * 1_000_000).rounded()) + 978_307_200_000_000
            let iso = CivilDateTime(microsecondsSinceEpoch: microseconds, utcOffsetSeconds: 0).iso8601(utcOffsetSeconds: 0)
            JSONEscaping.appendQuoted("\(iso.prefix(10)) \(iso.dropFirst(11).prefix(15))+0000", to: &json)
        case 0x50:
            let (count, contents) = try length(marker, at: start)
            guard contents + count <= tableOffset else { throw Corrupt(reason: "a string runs past the objects") }
            JSONEscaping.appendQuoted(UnsafeRawBufferPointer(rebasing: bytes[contents..<(contents + count)]), to: &json)
        case 0x60:
            let (count, contents) = try length(marker, at: start)
            guard contents + 2 * count <= tableOffset else { throw Corrupt(reason: "a string runs past the objects") }
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for unit in 0..<count { units.append(UInt16(bytes[contents + 2 * unit]) << 8 | UInt16(bytes[contents + 2 * unit + 1])) }
            JSONEscaping.appendQuoted(String(decoding: units, as: UTF16.self), to: &json)
        case 0xA0:
            let (count, contents) = try length(marker, at: start)
            json.append(UInt8(ascii: "["))
            for (position, item) in try references(count, at: contents).enumerated() {
                if position > 0 { json.append(UInt8(ascii: ",")) }
                try appendJSON(item, to: &json, depth: depth + 1, limit: limit, budget: &budget)
            }
            json.append(UInt8(ascii: "]"))
        case 0xD0:
            let (count, contents) = try length(marker, at: start)
            let keys = try references(count, at: contents)
            let values = try references(count, at: contents + count * referenceSize)
            json.append(UInt8(ascii: "{"))
            for position in 0..<count {
                let (keyMarker, _) = try object(keys[position])
                guard keyMarker & 0xF0 == 0x50 || keyMarker & 0xF0 == 0x60 else { throw Corrupt(reason: "a dict key that is not a string") }
                if position > 0 { json.append(UInt8(ascii: ",")) }
                try appendJSON(keys[position], to: &json, depth: depth + 1, limit: limit, budget: &budget)
                json.append(UInt8(ascii: ":"))
                try appendJSON(values[position], to: &json, depth: depth + 1, limit: limit, budget: &budget)
            }
            json.append(UInt8(ascii: "}"))
        default:
            // data, UIDs, sets: nothing a log record needs.
            json.append(contentsOf: Array("null".utf8))
        }
    }
}
