import Foundation
import PrewarmLintModel
import Testing

@Suite("CivilDateTime")
struct CivilDateTimeTests {
    @Test("instants round-trip and agree with Foundation's Gregorian calendar", arguments: [
        Int64(0), 951_782_400_000_000, -2_208_988_800_000_000, 1_710_772_862_120_871, 253_402_300_799_999_999, -11_670_912_000_000_000,  // 1600-03-01: Foundation switches to the Julian calendar before 1582
    ])
    func agreesWithFoundation(microseconds: Int64) throws {
        let civil = CivilDateTime(microsecondsSinceEpoch: microseconds, utcOffsetSeconds: 0)
        #expect(civil.microsecondsSinceEpoch(utcOffsetSeconds: 0) == microseconds)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        let components = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                                 from: Date(timeIntervalSince1970: TimeInterval(microseconds.quotientRoundedDown(by: 1_000_000))))
        #expect(components.year == civil.year)
        #expect(components.month == civil.month)
        #expect(components.day == civil.day)
        #expect(components.hour == civil.hour)
        #expect(components.second == civil.second)
    }

    @Test("ISO 8601 keeps the offset the time was written in")
    func iso() {
        let timestamp = LogTimestamp(microsecondsSinceEpoch: 1_689_744_171_916_784, utcOffsetSeconds: 3 * 3600, text: "x")
        #expect(timestamp.iso8601 == "2023-07-19T08:22:51.916784+03:00")
        let negative = LogTimestamp(microsecondsSinceEpoch: 0, utcOffsetSeconds: -(9 * 3600 + 30 * 60), text: "x")
        #expect(negative.iso8601 == "1969-12-31T14:30:00.000000-09:30")
    }

    @Test("ISO 8601 text, written in place, is what printf's padding writes — beyond the widths too", arguments: [
        CivilDateTime(year: 2024, month: 3, day: 18, hour: 7, minute: 5, second: 9, microsecond: 42),
        CivilDateTime(year: 1, month: 1, day: 1), CivilDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, microsecond: 999_999),
        CivilDateTime(year: -44, month: 3, day: 15), CivilDateTime(year: 12345, month: 1, day: 2),  // the year beyond four digits
        CivilDateTime(year: 2024, month: -1, day: 100, hour: 0, minute: 0, second: 0, microsecond: 1_000_000),  // not from an instant
        CivilDateTime(year: 2024, month: 1, day: 1, hour: -5, minute: 123, second: 0, microsecond: -42),
    ], [0, 3 * 3600, -(9 * 3600 + 30 * 60), 5 * 3600 + 45 * 60, -59, 100 * 3600])
    func isoPadding(civil: CivilDateTime, offset: Int) {
        let magnitude = abs(offset)
        let expected = (civil.year < 0 ? "-" : "") + String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%06d%@%02d:%02d", abs(civil.year), civil.month, civil.day,
                                                            civil.hour, civil.minute, civil.second, civil.microsecond, offset < 0 ? "-" : "+",
                                                            magnitude / 3600, magnitude / 60 % 60)
        #expect(civil.iso8601(utcOffsetSeconds: offset) == expected)
    }

    @Test("ISO 8601 text of instants from year 1 to 9999, at fixed places, is what printf writes", arguments: [0, 3 * 3600, -(9 * 3600 + 30 * 60), 5 * 3600 + 45 * 60, -59, 14 * 3600])
    func isoOfInstants(offset: Int) {
        var generator = SystemRandomNumberGenerator()
        let instants = (0..<2_000).map { _ in Int64.random(in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &generator) }
        for instant in instants + [0, -1, 999_999, 1_000_000] {
            let civil = CivilDateTime(microsecondsSinceEpoch: instant, utcOffsetSeconds: offset)
            let magnitude = abs(offset)
            let expected = (civil.year < 0 ? "-" : "") + String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%06d%@%02d:%02d", abs(civil.year), civil.month, civil.day,
                                                                civil.hour, civil.minute, civil.second, civil.microsecond, offset < 0 ? "-" : "+",
                                                                magnitude / 3600, magnitude / 60 % 60)
            #expect(civil.iso8601(utcOffsetSeconds: offset) == expected, "\(instant)")
            #expect(civil.withISO8601Bytes(utcOffsetSeconds: offset) { String(decoding: $0, as: UTF8.self) } == expected, "\(instant)")
        }
    }

    @Test("validity of dates")
    func validity() {
        #expect(CivilDateTime(year: 2024, month: 2, day: 29).isValid)
        #expect(!CivilDateTime(year: 2023, month: 2, day: 29).isValid)
        #expect(!CivilDateTime(year: 1900, month: 2, day: 29).isValid)
        #expect(CivilDateTime(year: 2000, month: 2, day: 29).isValid)
        #expect(!CivilDateTime(year: 2024, month: 13, day: 1).isValid)
    }
}

extension Int64 {
    func quotientRoundedDown(by divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor < 0) ? q - 1 : q
    }
}
