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
        for folder in ["Corpus/real-logs", "Corpus/formats", "Corpus/scenarios", "Corpus/insights"] {
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

    @Test("the gate's questions never say no where the classifier would say yes, on a message or any prefix of a longer one")
    func filterQuestionsAreConservative() throws {
        let table = SignatureTable.builtIn
        var checked = 0
        for message in try Self.messages() {
            // The filter sees a message's first line, the message followed by a label suffix (pymobiledevice3),
            // or preceded by the `(image) [subsystem:category]` prefixes the text decoder has not read yet.
            for seen in [message, message + " [com.example.ledger][auth]", "(RunningBoard) [com.apple.runningboard:job] " + message] {
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

    @Test("a filter names the candidates whose text a line holds, at any alignment, and none whose windows it lacks")
    func candidatesOfALine() {
        var filter = AnchorFilter()
        let texts = ["Executing launch request", "Acquiring assertion targeting", "Now tracking process", "(DAS Prewarm launch)"]
        for (candidate, text) in texts.enumerated() { filter.insert(Array(text.utf8), candidate: candidate * 20) }
        for padding in 0..<9 {
            let pad = String(repeating: "z", count: padding)
            func candidates(_ line: String) -> UInt64 { Array(line.utf8).withUnsafeBufferPointer { filter.candidates(in: $0) } }
            #expect(candidates(pad + "Executing launch request for app<x>") == 1 << 0)
            #expect(candidates(pad + "Now tracking process: [app<x>:1]") == 1 << 40)
            #expect(candidates(pad + "Executing launch request for app<x> (DAS Prewarm launch)") == 1 << 0 | 1 << 60)
            #expect(candidates(pad + "Releasing the assertion for app<x>") == 0)
        }
        #expect(Array("Exe".utf8).withUnsafeBufferPointer { filter.candidates(in: $0) } == 0)
    }

    @Test("the window table answers as a dictionary does, through its growth and its collisions")
    func windowTable() {
        var table = WindowCandidates()
        var model: [UInt32: UInt64] = [:]
        var state: UInt32 = 0x1234_5678
        for step in 0..<3_000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            // Windows that share their hash's high bits collide: every eighth step reuses an earlier window.
            let window = step % 8 == 0 ? UInt32(step / 8) : state
            let candidates = UInt64(1) << UInt64(step % 64)
            table.add(candidates, to: window)
            model[window, default: 0] |= candidates
        }
        for (window, candidates) in model { #expect(table.candidates(of: window) == candidates) }
        for absent: UInt32 in [0xFFFF_FFFF, 0xDEAD_BEEF, 1 << 31] where model[absent] == nil {
            #expect(table.candidates(of: absent) == 0)
        }
    }
}

@Suite("ProcessRole positions")
struct ProcessRolePositionTests {
    @Test("a role's position is its index in allCases")
    func positions() {
        #expect(ProcessRole.allCases.map(\.position) == Array(ProcessRole.allCases.indices))
    }
}
