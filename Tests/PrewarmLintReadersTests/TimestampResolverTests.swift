import PrewarmLintModel
@testable import PrewarmLintReaders
import PrewarmLintTesting
import Testing

@Suite("TimestampResolver")
struct TimestampResolverTests {
    func time(_ hour: Int, _ minute: Int, _ second: Int, month: Int? = nil, day: Int? = nil, offset: Int? = -8 * 3600) -> PartialTimestamp {
        PartialTimestamp(month: month, day: day, hour: hour, minute: minute, second: second, utcOffsetSeconds: offset)
    }

    func resolved(_ resolver: inout TimestampResolver, _ partial: PartialTimestamp, _ text: String) throws -> LogTimestamp {
        let result = resolver.resolve(partial, text: text)
        return try #require(result)
    }

    @Test("a date-less log crossing midnight moves to the next day; a late straggler stays on the day before")
    func midnight() throws {
        var resolver = TimestampResolver(inference: TimeInference(date: CivilDateTime(year: 2023, month: 12, day: 31)))
        let a = try resolved(&resolver, time(23, 59, 58), "a")
        let b = try resolved(&resolver, time(0, 0, 1), "b")
        let c = try resolved(&resolver, time(23, 59, 59), "c")
        let d = try resolved(&resolver, time(0, 0, 2), "d")
        #expect(a.iso8601 == "2023-12-31T23:59:58.000000-08:00")
        #expect(b.iso8601 == "2024-01-01T00:00:01.000000-08:00")
        #expect(c.iso8601 == "2023-12-31T23:59:59.000000-08:00")
        #expect(d.iso8601 == "2024-01-01T00:00:02.000000-08:00")
        #expect(a.inferred == [.year, .date])
        #expect(resolver.takeNotes() == ["date not in the input; using 2023-12-31 from --date"])
    }

    @Test("date-less lines land on the day nearest the previous line, as placing each on three candidate days did: 20,000 random steps, ties at 12 h included")
    func nearestDayEquivalence() throws {
        var generator = SeededGenerator(seed: 22)
        var resolver = TimestampResolver(inference: TimeInference(date: CivilDateTime(year: 2024, month: 2, day: 28)))
        // The packed way a Console copy's lines take (`advance(past:)` of a packed time of day), beside it.
        var packedResolver = TimestampResolver(inference: TimeInference(date: CivilDateTime(year: 2024, month: 2, day: 28)))
        // The reference: the previous instant, and the candidate days' midnights, computed the slow way.
        var last: Int64?
        var day = CivilDateTime(year: 2024, month: 2, day: 28)
        let offset = -8 * 3600
        for step in 0..<20_000 {
            // Mostly small steps forward, sometimes back, sometimes exactly 12 h or a jump across midnight.
            let seconds: Int
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: seconds = 12 * 3600
            case 1: seconds = -12 * 3600
            case 2: seconds = Int.random(in: -86_000...86_000, using: &generator)
            default: seconds = Int.random(in: -30...600, using: &generator)
            }
            let base = last ?? CivilDateTime(year: 2024, month: 2, day: 28, hour: 23, minute: 50).microsecondsSinceEpoch(utcOffsetSeconds: offset)
            let target = CivilDateTime(microsecondsSinceEpoch: base + Int64(seconds) * 1_000_000, utcOffsetSeconds: offset)
            let partial = time(target.hour, target.minute, target.second)
            let got = try resolved(&resolver, partial, "t")
            let advanced = packedResolver.advance(past: PackedTimestamp(partial))
            let packed = try #require(advanced)
            #expect(packed.instant == got.microsecondsSinceEpoch && packed.offset == got.utcOffsetSeconds && packed.inferred == got.inferred,
                    "step \(step): the packed way differs")
            // Expected: of the day before, the current day and the day after, the nearest to the previous line
            // (the earlier on a tie); the first line on --date.
            var expected = CivilDateTime(year: day.year, month: day.month, day: day.day, hour: target.hour, minute: target.minute, second: target.second)
            if let last {
                let options = [expected.previousDay(), expected, expected.nextDay()]
                expected = options.min { abs($0.microsecondsSinceEpoch(utcOffsetSeconds: offset) - last) < abs($1.microsecondsSinceEpoch(utcOffsetSeconds: offset) - last) }!
            }
            day = CivilDateTime(year: expected.year, month: expected.month, day: expected.day)
            let instant = expected.microsecondsSinceEpoch(utcOffsetSeconds: offset)
            #expect(got.microsecondsSinceEpoch == instant, "step \(step): \(got.iso8601) against \(expected.iso8601(utcOffsetSeconds: offset))")
            if got.microsecondsSinceEpoch != instant { break }
            last = instant
        }
    }

    @Test("a year-less log crossing New Year moves to the next year")
    func newYear() throws {
        var resolver = TimestampResolver(inference: TimeInference(year: 2023, utcOffsetSeconds: 3600))
        let a = try resolved(&resolver, time(23, 59, 58, month: 12, day: 31, offset: nil), "a")
        let b = try resolved(&resolver, time(0, 0, 1, month: 1, day: 1, offset: nil), "b")
        #expect(a.iso8601 == "2023-12-31T23:59:58.000000+01:00")
        #expect(b.iso8601 == "2024-01-01T00:00:01.000000+01:00")
        #expect(b.inferred == [.year, .utcOffset])
    }

    @Test("without options the date comes from the reference, never after it")
    func referenceDate() throws {
        // Reference: 2022-06-08 10:00 UTC = 03:00 at -07:00; a 15:11 event must be the day before.
        let reference = CivilDateTime(year: 2022, month: 6, day: 8, hour: 10).microsecondsSinceEpoch(utcOffsetSeconds: 0)
        var resolver = TimestampResolver(inference: TimeInference(referenceInstant: reference))
        let event = try resolved(&resolver, time(15, 11, 38, offset: -7 * 3600), "x")
        #expect(event.iso8601 == "2022-06-07T15:11:38.000000-07:00")
    }

    @Test("February 29th without a year goes to a leap year")
    func leapDay() throws {
        var resolver = TimestampResolver(inference: TimeInference(year: 2023, utcOffsetSeconds: 0))
        let event = try resolved(&resolver, time(12, 0, 0, month: 2, day: 29, offset: nil), "x")
        #expect(event.iso8601.hasPrefix("2020-02-29"))
    }

    @Test("an impossible time is rejected")
    func invalid() {
        var resolver = TimestampResolver(inference: TimeInference())
        #expect(resolver.resolve(PartialTimestamp(year: 2023, month: 2, day: 30, hour: 1, minute: 0, second: 0, utcOffsetSeconds: 0), text: "x") == nil)
        #expect(resolver.resolve(PartialTimestamp(year: 2023, month: 1, day: 1, hour: 25, minute: 0, second: 0, utcOffsetSeconds: 0), text: "x") == nil)
    }

    @Test("complete timestamps: each the same as from a fresh resolver, packed or not, through changes of day and impossible dates")
    func completeTimestampsRememberTheirDay() {
        let inference = TimeInference()
        var sequence: [PartialTimestamp] = []
        for (year, month, day) in [(2024, 2, 28), (2024, 2, 29), (2024, 2, 30), (2023, 2, 29), (2024, 2, 29), (2024, 3, 1), (2024, 13, 1),
                                   (2024, 3, 0), (2024, 3, 1), (1970, 1, 1), (1969, 12, 31), (2096, 2, 29), (2100, 2, 29)] {
            for (hour, minute, second, microsecond) in [(0, 0, 0, 0), (23, 59, 60, 999_999), (24, 0, 0, 0), (12, 60, 0, 0), (7, 1, 2, 1_000_000)] {
                for offset in [-25_200, 0, 50_400] {
                    sequence.append(PartialTimestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                                     microsecond: microsecond, utcOffsetSeconds: offset))
                }
            }
        }
        var remembering = TimestampResolver(inference: inference)
        var packed = TimestampResolver(inference: inference)
        var valid = 0
        for partial in sequence {
            var fresh = TimestampResolver(inference: inference)
            let expected = fresh.resolve(partial, text: "t")
            #expect(remembering.resolve(partial, text: "t") == expected, "\(partial)")
            #expect(packed.advance(past: PackedTimestamp(partial))?.timestamp(text: TimestampText("t")) == expected, "\(partial)")
            if expected != nil { valid += 1 }
        }
        // Eight real dates, two real times of day, three offsets; less 1969-12-31 00:00 at +14:00, more than a day before
        // 1970 and so not a readable time.
        #expect(valid == 8 * 2 * 3 - 1, "eight real dates, two real times of day, three offsets, one before 1970's margin")
    }

    @Test("a Console copy's time column read at its fixed places gives what the general time-of-day reader gives, and nothing for other shapes")
    func consoleTimeColumn() {
        func general(_ text: String) -> PackedTimestamp? {
            var text = text
            return text.withUTF8 { utf8 in
                let bytes = UnsafeRawBufferPointer(utf8)
                guard let (time, end) = TimestampParsing.timeOfDay(bytes, at: 0, allowSpaceBeforeOffset: true), end == bytes.count else { return nil }
                return PackedTimestamp(time)
            }
        }
        func fixed(_ text: String) -> PackedTimestamp? {
            var text = text
            return text.withUTF8 { TimestampParsing.consoleTime(UnsafeRawBufferPointer($0)) }
        }
        // Shapes from real-logs 01, 03 and 07 (`21:28:47.038326-0500`), and edge values.
        for text in ["21:28:47.038326-0500", "00:00:00.000000+0000", "23:59:59.999999+1400", "09:05:01.000001-0930", "12:00:00.123456+0545"] {
            #expect(fixed(text) != nil, "\(text)")
            #expect(fixed(text) == general(text), "\(text)")
        }
        // Other shapes are left to the general reader (the fast way says nil, never a different time).
        for text in ["21:28:47.038326 -0500", "21:28:47.038326-05:00", "21:28:47.0383-0500", "21:28:47.038326Z", "21:28:47.038326-2500",
                     "21:28:47.038326-0560", "2a:28:47.038326-0500", "21:28:47,038326-0500", "21:28:47.038326*0500", "21-28:47.038326-0500"] {
            #expect(fixed(text) == nil, "\(text)")
        }
        // Every 20-byte string over a small alphabet either is nil or agrees with the general reader.
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("0123456789:.+-Z 9".utf8)
        for _ in 0..<20_000 {
            var bytes = Array("21:28:47.038326-0500".utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<20, using: &generator)] = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let value = fixed(text) { #expect(value == general(text), "\(text)") }
        }
    }
}
