import Foundation
import PrewarmLintModel
@testable import PrewarmLintReaders
import Testing

/// The message type is read from bytes by comparing packed words: each spelling, in any case, gives its
/// type, and nothing else does — not a spelling one byte longer, shorter or different, nor one padded
/// with the bytes a packed word is padded with.
@Suite("message type spellings")
struct MessageTypeSpellingTests {
    static func type(_ word: [UInt8]) -> MessageType {
        word.withUnsafeBytes { MessageTypeSpelling.type($0) }
    }

    /// What the type of `word` is by the table, compared as text (lowercased ASCII letters only).
    static func expected(_ word: [UInt8]) -> MessageType {
        let lowered = word.map { $0.isASCIILetter ? $0 | 0x20 : $0 }
        return MessageTypeSpelling.spellings.first { Array($0.0.utf8) == lowered }?.1 ?? .unknown
    }

    @Test("every spelling in any case, and every one-byte change, cut or extension of it")
    func spellingsAndNearMisses() {
        var words: [[UInt8]] = [[], Array("Defaultx".utf8), Array(repeating: UInt8(ascii: "a"), count: 16), Array("Notice\0".utf8)]
        for (spelling, type) in MessageTypeSpelling.spellings {
            let bytes = Array(spelling.utf8)
            #expect(Self.type(bytes) == type, "\(spelling)")
            #expect(Self.type(Array(spelling.uppercased().utf8)) == type, "\(spelling)")
            #expect(Self.type(Array(spelling.capitalized.utf8)) == type, "\(spelling)")
            words.append(Array(bytes.dropLast()))
            words.append(bytes + [0])
            words.append(bytes + [UInt8(ascii: "s")])
            words.append([0] + bytes)
            for index in bytes.indices {
                for replacement: UInt8 in [0, UInt8(ascii: "x"), 0xC3, bytes[index] ^ 0x20] {
                    var changed = bytes
                    changed[index] = replacement
                    words.append(changed)
                }
            }
        }
        for word in words {
            #expect(Self.type(word) == Self.expected(word), "\(word)")
        }
        #expect(Self.type(Array("Fault".utf8)) == .fault)
        #expect(Self.type(Array("DEFAULT ".utf8)) == .unknown)
    }
}
