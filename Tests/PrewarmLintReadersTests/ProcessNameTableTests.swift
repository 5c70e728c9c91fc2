import PrewarmLintModel
@testable import PrewarmLintReaders
import Testing

/// The text decoder's table of recent process names answers as decoding each name afresh would, whatever
/// the names' lengths, their collisions in its 256 slots and their bytes; what it remembers of a name is
/// that name's.
@Suite("process name table")
struct ProcessNameTableTests {
    static func names() -> [[UInt8]] {
        var names: [[UInt8]] = [[], Array("a".utf8), Array("kernel".utf8), Array("runningboardd".utf8), Array("SpringBoard".utf8),
                                Array("com.apple.WebKit.Networking".utf8), Array("Ledger Pro".utf8), Array("Grüße".utf8),
                                [0xFF, 0xFE, 0x41], Array(repeating: 0x61, count: 64), Array(repeating: 0x61, count: 65)]
        // Names that differ only in a middle byte (the key holds the first and last eight), of every length.
        for length in 1...70 {
            for middle: UInt8 in [0x61, 0x62] {
                var name = (0..<length).map { UInt8(0x41 + $0 % 26) }
                name[length / 2] = middle
                names.append(name)
            }
        }
        return names
    }

    @Test("every name, looked up in many orders, decodes as UTF8Text does; skipped answers and the caller's notes stay with their name")
    func sameAsDecoding() {
        let names = Self.names()
        var table = ProcessNameTable()
        var remembered: [[UInt8]: (skipped: Bool, note: UInt8)] = [:]
        var state: UInt32 = 7
        for step in 0..<20_000 {
            state = state &* 1_103_515_245 &+ 12_345
            let name = names[Int(state >> 8) % names.count]
            name.withUnsafeBytes { bytes in
                let decoded = UTF8Text.decode(bytes)
                // Half the lookups by text alone: the text of the name just looked up, even where the lookup takes the
                // slot of another name.
                if step % 2 == 1 {
                    #expect(table.text(for: bytes) == decoded.text, "\(name)")
                    return
                }
                var entry = table.entry(for: bytes)
                #expect(table.text(of: entry) == decoded.text && entry.isValid == decoded.isValid, "\(name)")
                // A remembered answer may be forgotten (another name took the slot), never given to another name.
                if let skipped = entry.skipped { #expect(remembered[name]?.skipped == skipped, "\(name)") }
                if entry.note != 0 { #expect(remembered[name]?.note == entry.note, "\(name)") }
                // Asked only when not remembered, with the name's own text; the answer then stays with the name.
                let skipped = step % 3 == 0
                let knewSkipped = entry.skipped
                let answer = table.isSkipped(&entry) { text in
                    #expect(knewSkipped == nil && text == decoded.text)
                    return skipped
                }
                #expect(answer == (knewSkipped ?? skipped) && entry.skipped == answer)
                // The caller notes a name the first time it sees it without a note, as the session pipeline does.
                let note = entry.note != 0 ? entry.note : UInt8(truncatingIfNeeded: step / 2) | 1
                table.remember(note: note, for: &entry)
                #expect(entry.note == note)
                if name.count <= ProcessNameTable.maximumLength { remembered[name] = (answer, note) }
            }
        }
    }

    @Test("a name cache asked by a name's bytes answers as asked by its string: what is remembered for that name, never another's")
    func cacheByBytes() {
        let names = Self.names().filter { $0.withUnsafeBytes { UTF8Text.decode($0).isValid } }
        var cache = ProcessNameCache<Int>()
        var state: UInt32 = 11
        for step in 0..<20_000 {
            state = state &* 1_103_515_245 &+ 12_345
            let name = names[Int(state >> 8) % names.count]
            let text = String(decoding: name, as: UTF8.self)
            let byBytes = name.withUnsafeBytes { cache.value(forBytes: $0) }
            #expect(byBytes == cache.value(for: text), "\(text)")
            if let remembered = byBytes { #expect(remembered == names.firstIndex(of: name), "\(text)") }
            if step % 2 == 0 { cache.remember(names.firstIndex(of: name)!, for: text) }
        }
    }
}
