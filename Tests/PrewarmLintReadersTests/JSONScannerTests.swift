import PrewarmLintModel
import PrewarmLintTesting
@testable import PrewarmLintReaders
import Testing

/// The quick object scan is only allowed to be quicker: on any object it either gives up (nil) or gives
/// what the careful scan gives — the same end and the same members in the same order — and it does not
/// give up on a valid record, whatever its spacing.
@Suite("JSON object scan: quick and careful agree")
struct JSONScannerTests {
    struct Member: Equatable {
        var key: Range<Int>, keyHasEscapes: Bool, kind: JSONValue.Kind, range: Range<Int>, hasEscapes: Bool
    }

    static let valid: [String] = [
        #"{}"#, #"{ }"#, #"{"a":1}"#, #" { "a" : 1 , "b" : "x" } "#,
        "{\n  \"timestamp\" : \"2024-03-18 07:01:02.000003-0700\",\n\t\"processID\" : 42\r\n}",
        #"{"processImagePath":"\/usr\/libexec\/runningboardd","eventMessage":"quote \"x\" and back\\slash","n":-1.5e+3}"#,
        #"{"t":true,"f":false,"z":null,"o":{"a":[1,{"b":"]"}]},"l":[],"e":"","k\"ey":"v"}"#,
        #"{"label":{"subsystem":"com.apple.runningboard","category":"job"},"pid":7}"#,
        #"{"u":"\u00e9\ud83d\ude00","c":"café ☕️"}"#,
    ]

    static let invalid: [String] = [
        "", "{", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":tru}", "{\"a\":\"unterminated}",
        "{\"a\":1}}", "[1]", "{\"a\":\"x\\\"}", "{\"a\":-}", "{\"a\":.5}", "{\"a\":[1,2}", "{\"a\":{\"b\":1}", "{\u{01}\"a\":1}",
        "{\"a\":1\u{01}}", "{\"a\"\u{0B}:1}", "\u{FF}\u{FE}{}", "{\"a\":1 \"b\":2}",
    ]

    func scanBoth(_ text: String) -> (quick: (end: Int, members: [Member])?, careful: (end: Int, members: [Member])?) {
        Array(text.utf8).withUnsafeBytes { bytes in
            var quickMembers: [Member] = []
            let quickEnd = JSONObjectScanner.scanObjectQuickly(bytes, from: 0) { key, keyEscapes, value in
                quickMembers.append(Member(key: key, keyHasEscapes: keyEscapes, kind: value.kind, range: value.range, hasEscapes: value.hasEscapes))
            }
            var carefulMembers: [Member] = []
            let carefulEnd = try? JSONObjectScanner.scanObject(bytes, from: 0) { key, keyEscapes, value in
                carefulMembers.append(Member(key: key, keyHasEscapes: keyEscapes, kind: value.kind, range: value.range, hasEscapes: value.hasEscapes))
            }
            return (quickEnd.map { ($0, quickMembers) }, carefulEnd.map { ($0, carefulMembers) })
        }
    }

    @Test("valid objects: the quick scan does not give up and finds what the careful one finds", arguments: valid)
    func validObjects(_ text: String) throws {
        let (quick, careful) = scanBoth(text)
        let expected = try #require(careful, "the careful scan rejects \(text)")
        let found = try #require(quick, "the quick scan gave up on \(text)")
        #expect(found.end == expected.end)
        #expect(found.members == expected.members)
    }

    @Test("invalid objects: the quick scan gives up wherever the careful one reports an error", arguments: invalid)
    func invalidObjects(_ text: String) {
        let (quick, careful) = scanBoth(text)
        if careful == nil { #expect(quick == nil, "the quick scan accepted \(text)") }
        if let quick, let careful {
            #expect(quick.end == careful.end)
            #expect(quick.members == careful.members)
        }
    }

    @Test("every cut of a record: the two scans agree at each length")
    func everyPrefix() {
        let record = #"{"timestamp":"2024-03-18 07:01:02.000003-0700","processImagePath":"\/usr\/libexec\/dasd","eventMessage":"a \"b\" \\ c","processID":42,"o":{"x":[1,"]"]},"t":true}"#
        let bytes = Array(record.utf8)
        for length in 0...bytes.count {
            let (quick, careful) = scanBoth(String(decoding: bytes[0..<length], as: UTF8.self))
            #expect(quick?.end == careful?.end, "cut at \(length)")
            #expect(quick?.members == careful?.members, "cut at \(length)")
        }
    }
}

@Suite("TimestampResolver passing over timestamps")
struct TimestampResolverPassTests {
    @Test("passing over a timestamp moves the resolver as resolving it does")
    func passMatchesResolve() {
        // Mixed on purpose: a full timestamp sets the offset later ones borrow; date-less ones move the day.
        let partials: [PartialTimestamp] = [
            PartialTimestamp(year: 2024, month: 3, day: 18, hour: 23, minute: 59, second: 58, utcOffsetSeconds: -7 * 3600),
            PartialTimestamp(hour: 23, minute: 59, second: 59),
            PartialTimestamp(hour: 0, minute: 0, second: 1, utcOffsetSeconds: 5 * 3600),
            PartialTimestamp(month: 2, day: 30, hour: 1, minute: 0, second: 0),  // not a real day
            PartialTimestamp(hour: 0, minute: 0, second: 2),
            PartialTimestamp(month: 12, day: 31, hour: 1, minute: 2, second: 3),
            PartialTimestamp(hour: 4, minute: 5, second: 6),
        ]
        let inference = TimeInference(date: CivilDateTime(year: 2024, month: 3, day: 18))
        // Every subset of the timestamps passed over instead of resolved: the others resolve the same.
        for mask in 0..<(1 << partials.count) {
            var reference = TimestampResolver(inference: inference), passing = TimestampResolver(inference: inference)
            for (index, partial) in partials.enumerated() {
                let expected = reference.resolve(partial, text: "t")
                if mask & (1 << index) != 0 {
                    #expect(passing.pass(partial) == (expected != nil))
                } else {
                    let got = passing.resolve(partial, text: "t")
                    #expect(got?.microsecondsSinceEpoch == expected?.microsecondsSinceEpoch)
                    #expect(got?.utcOffsetSeconds == expected?.utcOffsetSeconds)
                    #expect(got?.inferred == expected?.inferred)
                }
            }
            #expect(passing.takeNotes() == reference.takeNotes())
        }
    }
}

@Suite("log show timestamps read at fixed places")
struct LogShowTimestampTests {
    /// The general reading: date and time without the offset, then the offset where it stopped.
    func general(_ bytes: UnsafeRawBufferPointer) -> (PartialTimestamp, end: Int)? {
        guard var (partial, end) = TimestampParsing.dateTime(bytes, at: 0, allowOffset: false) else { return nil }
        if let (offset, offsetEnd) = TimestampParsing.utcOffset(bytes, at: end) {
            partial.utcOffsetSeconds = offset
            end = offsetEnd
        }
        return (partial, end)
    }

    @Test("the fixed reading gives what the general one gives, or leaves the text to it")
    func agreesWithGeneral() throws {
        let base = Array("2024-03-18 07:01:02.123456-0700".utf8)
        var texts: [[UInt8]] = [base, Array("1999-12-31T23:59:59.999999+1400".utf8), Array("2024-03-18 07:01:02.123456-07001".utf8),
                                Array("2024-03-18 07:01:02.1234567-0700".utf8), Array("2024-03-18 07:01:02.12345-0700".utf8),
                                Array("2024-03-18 07:01:02.123456-07:00".utf8), Array("2024-03-18 07:01:02.123456Z".utf8),
                                Array("2024-03-18 07:01:02.123456-2400".utf8), Array("2024-03-18 07:01:02.123456-0760".utf8),
                                Array("2024-03-18 07:01:02.123456-0700 extra".utf8)]
        // Every byte of the common spelling replaced by each of a few others.
        for position in base.indices {
            for replacement in Array("0 9-+:.TZ/a".utf8) + [0x00, 0xFF] {
                var text = base
                text[position] = replacement
                texts.append(text)
            }
        }
        var readFixed = 0
        for text in texts {
            try text.withUnsafeBytes { bytes in
                guard let fixed = TimestampParsing.logShowDateTime(bytes, at: 0) else { return }
                readFixed += 1
                let expected = try #require(general(bytes), "\(String(decoding: text, as: UTF8.self)) read only at fixed places")
                #expect(fixed.0 == expected.0, "\(String(decoding: text, as: UTF8.self))")
                #expect(fixed.end == expected.end, "\(String(decoding: text, as: UTF8.self))")
            }
        }
        #expect(readFixed > 40)  // the common spelling and its digit changes are read at fixed places
        // Random changes of one to four bytes over the bytes the spelling is made of: read at fixed places or left to the
        // general reader, never read differently.
        var generator = SeededGenerator(seed: 11)
        let alphabet = Array("0123456789-: .T+Z".utf8) + [0x2F, 0x3A, 0x40, 0x60, 0x80, 0xFF]
        var randomFixed = 0
        for _ in 0..<20_000 {
            var text = base
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                text[Int.random(in: 0..<text.count, using: &generator)] = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            }
            try text.withUnsafeBytes { bytes in
                guard let fixed = TimestampParsing.logShowDateTime(bytes, at: 0) else { return }
                randomFixed += 1
                let expected = try #require(general(bytes), "\(String(decoding: text, as: UTF8.self)) read only at fixed places")
                #expect(fixed.0 == expected.0, "\(String(decoding: text, as: UTF8.self))")
            }
        }
        #expect(randomFixed > 1_000)
        try base.withUnsafeBytes { bytes in
            let fixed = try #require(TimestampParsing.logShowDateTime(bytes, at: 0))
            #expect(fixed.0 == PartialTimestamp(year: 2024, month: 3, day: 18, hour: 7, minute: 1, second: 2, microsecond: 123_456, utcOffsetSeconds: -7 * 3600))
        }
    }
}
