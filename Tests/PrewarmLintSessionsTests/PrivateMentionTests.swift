@testable import PrewarmLint
import Testing

/// `InputClassifier.mentionsPrivate`: the byte search that counts launch lines naming their app `<private>`
/// must say what Foundation's `contains("<private>")` said, on every kind of text.
@Suite("the <private> search")
struct PrivateMentionTests {
    @Test("the same answer as String.contains on edge cases and 20,000 random texts")
    func sameAsContains() {
        let fixed = ["", "<", "<private>", "Icon tapped: <private>", "<private", "<<private>>", "<privat<private>", "a<b<c<private>",
                     "private>", "<PRIVATE>", "état <private> é", "endowments: <private>)", String(repeating: "<", count: 40)]
        for text in fixed { #expect(InputClassifier.mentionsPrivate(text) == text.contains("<private>"), "\(text)") }
        // Where they differ: a combining mark after the `>` makes Character comparison miss the text; the bytes are
        // `<private>` all the same, and a log line that has them has redacted its value.
        #expect(InputClassifier.mentionsPrivate("<private>\u{301}") && !"<private>\u{301}".contains("<private>"))
        var random = SystemRandomNumberGenerator()
        let pieces = ["<", "private", ">", "<private>", "a", "é", " ", "<priv", "ate>", "\n"]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(InputClassifier.mentionsPrivate(text) == text.contains("<private>"), "\(text)")
        }
    }
}
