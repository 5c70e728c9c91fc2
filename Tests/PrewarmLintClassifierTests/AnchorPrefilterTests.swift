import Foundation
@testable import PrewarmLintClassifier
import PrewarmLintTesting
import Testing

/// The anchor prefilter may only skip work, never change an answer: for every role, with and
/// without `namingOnly`, the prefiltered match must equal trying every signature in order.
@Suite("anchor prefilter")
struct AnchorPrefilterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Real and generated text: every signature's example, each cut short and with one byte changed
    /// (near misses), the lines of the real excerpts and of the corpus, and a generated device day.
    static func messages() throws -> [String] {
        var messages: [String] = []
        for signature in SignatureTable.builtIn.signatures {
            let example = Array(signature.example.utf8)
            messages.append(signature.example)
            messages.append(String(decoding: example.prefix(example.count / 2), as: UTF8.self))
            for position in stride(from: 0, to: example.count, by: 3) {
                var changed = example
                changed[position] = changed[position] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                messages.append(String(decoding: changed, as: UTF8.self))
            }
        }
        for folder in ["../shared/real-logs", "Corpus/formats", "Corpus/scenarios", "Corpus/insights"] {
            let url = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where ["txt", "log", "ndjson", "json"].contains(file.pathExtension) {
                let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
                messages += text.split(separator: "\n").map(String.init)
            }
        }
        var generator = DeviceLogGenerator(configuration: .init(seed: 5, targetBytes: 1 << 20, apps: 12, sessionsPerDay: 400))
        while let record = generator.next() { messages.append(record.message) }
        return messages
    }

    @Test("prefiltered matching gives the same signature and detail as trying every signature, for every role")
    func sameAnswers() throws {
        let table = SignatureTable.builtIn
        let messages = try Self.messages()
        #expect(messages.count > 5_000)
        var matched = 0
        for message in messages {
            for role in ProcessRole.allCases {
                for namingOnly in [false, true] {
                    let fast = table.match(message, role: role, namingOnly: namingOnly)
                    let slow = table.matchTryingEverySignature(message, role: role, namingOnly: namingOnly)
                    if fast?.signature.id != slow?.signature.id || fast?.detail != slow?.detail {
                        Issue.record("\(role) namingOnly=\(namingOnly): \(fast?.signature.id ?? "nil") ≠ \(slow?.signature.id ?? "nil") for \(message.prefix(200))")
                    }
                    if slow != nil { matched += 1 }
                }
            }
        }
        #expect(matched > 1_000, "the comparison must cover lines that match, not only lines that do not")
    }

    @Test("identities: prefiltered, the same as trying every phrase")
    func sameIdentities() throws {
        var found = 0
        for message in try Self.messages() {
            let fast = AppIdentityParser.firstIdentity(in: message)
            #expect(fast == AppIdentityParser.firstIdentityTryingEveryPhrase(in: message), "\(message.prefix(200))")
            if fast != nil { found += 1 }
        }
        #expect(found > 500)
    }

    @Test("the record filter's questions never say no where the classifier would say yes, on a message or any prefix of a longer one")
    func filterQuestionsAreConservative() throws {
        let table = SignatureTable.builtIn
        var checked = 0
        for message in try Self.messages() {
            // The filter sees a message's first line, or the message followed by a label suffix (pymobiledevice3).
            for seen in [message, message + " [com.example.ledger][auth]"] {
                Array(seen.utf8).withUnsafeBytes { view in
                    if AppIdentityParser.firstIdentity(in: message) != nil {
                        #expect(AppIdentityParser.mayHoldIdentity(in: view), "\(message.prefix(200))")
                        checked += 1
                    }
                    for role in ProcessRole.allCases {
                        if table.match(message, role: role) != nil {
                            #expect(table.mayMatch(in: view, role: role), "\(role): \(message.prefix(200))")
                            checked += 1
                        }
                        if table.match(message, role: role, namingOnly: true) != nil {
                            #expect(table.mayNameApp(in: view, role: role), "\(role): \(message.prefix(200))")
                        }
                    }
                }
            }
        }
        #expect(checked > 2_000)
    }

    @Test("a filter never misses a required text, at any of the four alignments in a line")
    func noFalseNegatives() {
        var filter = AnchorFilter()
        let text = Array("Executing launch request".utf8)
        filter.insert(text)
        for padding in 0..<9 {
            let line = Array(String(repeating: "z", count: padding).utf8) + text + Array(" for app<x>".utf8)
            #expect(line.withUnsafeBufferPointer { filter.mayOccur(in: $0) })
        }
        #expect(Array("nothing to see here at all".utf8).withUnsafeBufferPointer { filter.mayOccur(in: $0) } == false)
        #expect(Array("Exe".utf8).withUnsafeBufferPointer { filter.mayOccur(in: $0) } == false)
    }
}

@Suite("ProcessRole positions")
struct ProcessRolePositionTests {
    @Test("a role's position is its index in allCases")
    func positions() {
        #expect(ProcessRole.allCases.map(\.position) == Array(ProcessRole.allCases.indices))
    }
}
