/// Writes LZBITMAP streams, for tests of the decoder that have no data from Apple's encoder: each group of 8 bytes is
/// literals or copies at one distance (a new distance when one found through a hash of 4 bytes copies more of the
/// group), its token taken from the chunk's table of the most used (bitmap, distance size) pairs when it is there, runs
/// of one token written with a run length when the flags allow. Chunks that would not shrink are stored.
public enum LZBitmapEncoder {
    /// The stream's flags byte: `runLengths` (0x09, 32 KiB chunks) or `plain` (0x0C, no run lengths, 16 KiB chunks).
    public enum Variant: UInt8, Sendable, CaseIterable {
        /// Flags `0x09`: a token may carry a run length; chunks of 32 KiB.
        case runLengths = 0x09
        /// Flags `0x0C` (as iOS 27's logs were reported to use): no run lengths, a thirteenth table pair; 16 KiB chunks.
        case plain = 0x0C
        var chunkSize: Int { self == .runLengths ? 0x8000 : 0x4000 }
        var tablePairs: Int { self == .runLengths ? 12 : 13 }
    }

    /// `bytes` as an LZBITMAP stream; `storeAll` stores every chunk (the stream's other shape).
    public static func encode(_ bytes: [UInt8], variant: Variant = .plain, storeAll: Bool = false) -> [UInt8] {
        var stream: [UInt8] = [0x5A, 0x42, 0x4D, variant.rawValue]
        var start = 0
        while start < bytes.count {
            let end = min(start + variant.chunkSize, bytes.count)
            let chunk = storeAll ? nil : compressedChunk(bytes, start..<end, variant: variant)
            if let chunk, chunk.count < end - start + 6 {
                stream += chunk
            } else {
                stream += u24(end - start + 6) + u24(end - start) + bytes[start..<end]
            }
            start = end
        }
        return stream + u24(6) + u24(0)
    }

    private static func u24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }

    private struct Group { var bitmap: UInt8; var distanceSize: Int; var distance: Int }

    private static func compressedChunk(_ bytes: [UInt8], _ range: Range<Int>, variant: Variant) -> [UInt8] {
        // Matches may reach before the chunk: the decoder copies from all the stream's bytes.
        var recent: [Int: Int] = [:]
        for position in max(0, range.lowerBound - 4096)..<range.lowerBound where position + 4 <= bytes.count {
            recent[hash(bytes, position)] = position
        }
        var groups: [Group] = []
        var literals: [UInt8] = []
        var distance = 8
        var position = range.lowerBound
        while position < range.upperBound {
            let count = min(8, range.upperBound - position)
            func copies(_ candidate: Int) -> Int {
                guard candidate > 0, candidate <= position else { return 0 }
                return (0..<count).filter { bytes[position + $0] == bytes[position + $0 - candidate] }.count
            }
            var chosen = distance
            var best = copies(distance)
            if position + 4 <= bytes.count, let earlier = recent[hash(bytes, position)], position - earlier <= 0xFFFF,
               copies(position - earlier) > best + 1 {
                chosen = position - earlier
                best = copies(chosen)
            }
            var bitmap: UInt8 = 0
            for bit in 0..<count where chosen > position || bytes[position + bit] != bytes[position + bit - chosen] {
                bitmap |= 1 << bit
                literals.append(bytes[position + bit])
            }
            if count < 8 { bitmap |= UInt8(truncatingIfNeeded: 0xFF << count) }  // bits past the end: literals not read
            let size = chosen == distance ? 0 : chosen <= 0xFF ? 1 : 2
            if size > 0, bitmap != 0xFF { distance = chosen }
            groups.append(Group(bitmap: bitmap, distanceSize: bitmap == 0xFF ? 0 : size, distance: chosen))
            for offset in 0..<count where position + offset + 4 <= bytes.count {
                recent[hash(bytes, position + offset)] = position + offset
            }
            position += count
        }
        // The table: the most used pairs; the others go through tokens 0-2 and the bitmap region.
        var uses: [Int: Int] = [:]
        for group in groups { uses[Int(group.bitmap) | group.distanceSize << 8, default: 0] += 1 }
        let table = uses.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(variant.tablePairs).map(\.key)
        var distances: [UInt8] = []
        var bitmaps: [UInt8] = []
        var tokens: [Int] = []
        for group in groups {
            let key = Int(group.bitmap) | group.distanceSize << 8
            if let index = table.firstIndex(of: key) {
                tokens.append(3 + index)
            } else {
                tokens.append(group.distanceSize)
                bitmaps.append(group.bitmap)
            }
            if group.distanceSize == 1 { distances.append(UInt8(group.distance)) }
            if group.distanceSize == 2 { distances += [UInt8(group.distance & 0xFF), UInt8(group.distance >> 8)] }
        }
        var nibbles: [Int] = []
        var index = 0
        while index < tokens.count {
            var run = 1
            while variant == .runLengths, index + run < tokens.count, tokens[index + run] == tokens[index] { run += 1 }
            // A run length is read only where more than 8 bytes are left: never at the last group.
            if run >= 4, index < groups.count - 1 {
                nibbles += [tokens[index], 15]
                var rest = run - 4
                while rest >= 15 { nibbles.append(15); rest -= 15 }
                nibbles.append(rest)
                index += run
            } else {
                nibbles.append(tokens[index])
                index += 1
            }
        }
        var packed: [UInt8] = []
        for pair in stride(from: 0, to: nibbles.count, by: 2) {
            packed.append(UInt8(nibbles[pair] | (pair + 1 < nibbles.count ? nibbles[pair + 1] << 4 : 0)))
        }
        // A byte of padding after an even count: dissect.util's decoder reads a nibble past the last token (Apple's
        // decoder reads it from the table; neither uses it).
        if nibbles.count % 2 == 0 { packed.append(0) }
        var bits = [UInt8](repeating: 0, count: 17)
        for (slot, key) in table.enumerated() {
            for bit in 0..<10 where key >> bit & 1 == 1 {
                let at = slot * 10 + bit
                bits[at / 8] |= 1 << (at % 8)
            }
        }
        let distanceAt = 15 + literals.count
        let bitmapAt = distanceAt + distances.count
        let tokenAt = bitmapAt + bitmaps.count
        let length = tokenAt + packed.count + 17
        return u24(length) + u24(range.count) + u24(distanceAt) + u24(bitmapAt) + u24(tokenAt)
            + literals + distances + bitmaps + packed + bits
    }

    private static func hash(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }
}
