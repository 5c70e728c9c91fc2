import PrewarmLint
import Testing

/// `SessionListing.Names`: a session's id is its app's name, `#`, and the count of that app's sessions named so far.
@Suite("session ids")
struct SessionIDTests {
    @Test("each app counted on its own, past one digit; names not ASCII, empty and with a # of their own kept whole")
    func ids() {
        let apps = ["com.example.a", "Grüße 日本語", "com.example.a", "", "unknown", "has#hash", "com.example.b"]
        var names = SessionListing.Names()
        var counts: [String: Int] = [:]
        for round in 0..<12 {
            for app in apps {
                counts[app, default: 0] += 1
                let id = names.next(forApp: app)
                #expect(id == app + "#" + String(counts[app]!), "round \(round), \(app)")
                #expect(id.utf8.count == app.utf8.count + 1 + String(counts[app]!).utf8.count)
            }
        }
        #expect(names.next(forApp: "com.example.a") == "com.example.a#25")
    }
}
