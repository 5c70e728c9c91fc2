/// A calendar date and time of day in the proleptic Gregorian calendar, without a time zone.
///
/// Readers build one from the digits of a timestamp and turn it into an instant with a UTC
/// offset. The arithmetic is Howard Hinnant's `days_from_civil` / `civil_from_days`, exact for
/// every year an `Int` holds, so no `DateFormatter` (slow, locale-dependent) is on the hot path.
public struct CivilDateTime: Sendable, Hashable, Comparable {
    /// The year (proleptic Gregorian; year 1 is 1 CE).
    public var year: Int
    /// 1...12
    public var month: Int
    /// 1...31
    public var day: Int
    /// 0…23.
    public var hour: Int
    /// 0…59.
    public var minute: Int
    /// 0…59 (60 for a leap second as written).
    public var second: Int
    /// 0..<1_000_000
    public var microsecond: Int

    /// A date and time as written; ``isValid`` says whether it exists.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, microsecond: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.microsecond = microsecond
    }

    /// A date written `2024-05-02`; nil when the text is not one or names no real day.
    public init?(dateText text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
        guard isValid else { return nil }
    }

    /// A UTC offset written `+02:00`, `-0500`, `+2` or `Z`, in seconds east of UTC; nil otherwise.
    public static func utcOffsetSeconds(fromText text: String) -> Int? {
        if text == "Z" || text == "UTC" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let hours: Int, minutes: Int
        switch digits.count {
        case 1, 2: (hours, minutes) = (Int(digits)!, 0)
        case 4: (hours, minutes) = (Int(digits.prefix(2))!, Int(digits.suffix(2))!)
        default: return nil
        }
        guard hours <= 23, minutes <= 59 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The local date and time of an instant seen at a UTC offset.
    public init(microsecondsSinceEpoch: Int64, utcOffsetSeconds: Int) {
        // Clamped, not trapped: an instant a library caller made need not be one a reader would accept.
        let offset = Int64(clamping: utcOffsetSeconds).multipliedReportingOverflow(by: 1_000_000)
        let sum = microsecondsSinceEpoch.addingReportingOverflow(offset.overflow ? 0 : offset.partialValue)
        let local = sum.overflow ? (microsecondsSinceEpoch > 0 ? Int64.max : Int64.min) : sum.partialValue
        let micros = local.floorMod(86_400_000_000)
        let days = (local - micros) / 86_400_000_000
        let (y, m, d) = CivilDateTime.civil(fromDays: days)
        let secondsOfDay = Int(micros / 1_000_000)
        self.init(
            year: y, month: m, day: d,
            hour: secondsOfDay / 3600, minute: secondsOfDay / 60 % 60, second: secondsOfDay % 60,
            microsecond: Int(micros % 1_000_000)
        )
    }

    /// Whether the fields name a real date and time (February 30th does not).
    public var isValid: Bool {
        CivilDateTime.isValidDate(year: year, month: month, day: day)
            && CivilDateTime.isValidTime(hour: hour, minute: minute, second: second, microsecond: microsecond)
    }

    /// Whether a day of a month of a year exists (February 30th does not).
    @inlinable public static func isValidDate(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    /// Whether a time of day exists (a leap second, `:60`, does).
    @inlinable public static func isValidTime(hour: Int, minute: Int, second: Int, microsecond: Int) -> Bool {
        (0..<24).contains(hour) && (0..<60).contains(minute) && (0...60).contains(second) && (0..<1_000_000).contains(microsecond)
    }

    /// The instant this local time names at the given UTC offset, in microseconds since the epoch.
    public func microsecondsSinceEpoch(utcOffsetSeconds: Int) -> Int64 {
        CivilDateTime.microsecondsSinceEpoch(days: CivilDateTime.days(fromCivilYear: year, month: month, day: day),
                                             hour: hour, minute: minute, second: second, microsecond: microsecond,
                                             utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The instant of a time of day on the day `days` days after 1970-01-01, at a UTC offset.
    @inlinable public static func microsecondsSinceEpoch(days: Int64, hour: Int, minute: Int, second: Int, microsecond: Int,
                                                         utcOffsetSeconds: Int) -> Int64 {
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(utcOffsetSeconds)
        return seconds * 1_000_000 + Int64(microsecond)
    }

    /// Seconds since midnight, ignoring the fraction.
    public var secondsOfDay: Int { hour * 3600 + minute * 60 + second }

    /// The day after this one, same time of day.
    public func nextDay() -> CivilDateTime {
        var copy = self
        let (y, m, d) = CivilDateTime.civil(fromDays: CivilDateTime.days(fromCivilYear: year, month: month, day: day) + 1)
        copy.year = y
        copy.month = m
        copy.day = d
        return copy
    }

    /// The day before this one, same time of day.
    public func previousDay() -> CivilDateTime {
        var copy = self
        let (y, m, d) = CivilDateTime.civil(fromDays: CivilDateTime.days(fromCivilYear: year, month: month, day: day) - 1)
        copy.year = y
        copy.month = m
        copy.day = d
        return copy
    }

    /// Orders by date, then time.
    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.secondsOfDay, lhs.microsecond)
            < (rhs.year, rhs.month, rhs.day, rhs.secondsOfDay, rhs.microsecond)
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffff±HH:MM`, written in place rather than built from small strings (a report writes
    /// several per session). A field beyond its width — never
    /// one made from an instant — is written whole, as `printf`'s `%02d` would; a year before year 1 as `-0044`.
    public func iso8601(utcOffsetSeconds: Int) -> String {
        if let fixed = fixedWidthISO8601(utcOffsetSeconds: utcOffsetSeconds) {
            return withUnsafeBytes(of: fixed) { String(decoding: $0, as: UTF8.self) }
        }
        return paddedISO8601(utcOffsetSeconds: utcOffsetSeconds)
    }

    /// ``iso8601(utcOffsetSeconds:)``'s bytes, handed to `body` without making a `String` when every field fits its
    /// width (every instant from year 0 to 9999): what a report writer copies straight into its output.
    @inlinable
    public func withISO8601Bytes<Result>(utcOffsetSeconds: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let fixed = fixedWidthISO8601(utcOffsetSeconds: utcOffsetSeconds) {
            return try withUnsafeBytes(of: fixed) { try body($0) }
        }
        var text = paddedISO8601(utcOffsetSeconds: utcOffsetSeconds)
        return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }

    /// The 32 bytes of `YYYY-MM-DDTHH:MM:SS.ffffff±HH:MM` at their fixed places, or nil when a field does not fit
    /// its width (or is negative), where ``paddedISO8601(utcOffsetSeconds:)`` writes it as `printf` would.
    @usableFromInline
    func fixedWidthISO8601(utcOffsetSeconds: Int) -> (UInt64, UInt64, UInt64, UInt64)? {
        let offsetMinutes = utcOffsetSeconds.magnitude / 60
        guard UInt(bitPattern: year) <= 9999, UInt(bitPattern: month) <= 99, UInt(bitPattern: day) <= 99,
              UInt(bitPattern: hour) <= 99, UInt(bitPattern: minute) <= 99, UInt(bitPattern: second) <= 99,
              UInt(bitPattern: microsecond) <= 999_999, offsetMinutes / 60 <= 99 else { return nil }
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { out in
            // Two digits at a time from a table of "00" to "99".
            let pairs: StaticString = """
                00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                40414243444546474849505152535455565758596061626364656667686970717273747576777879\
                8081828384858687888990919293949596979899
                """
            func put(_ value: Int, at place: Int) {
                out[place] = pairs.utf8Start[2 * value]
                out[place + 1] = pairs.utf8Start[2 * value + 1]
            }
            put(year / 100, at: 0); put(year % 100, at: 2)
            out[4] = UInt8(ascii: "-"); put(month, at: 5)
            out[7] = UInt8(ascii: "-"); put(day, at: 8)
            out[10] = UInt8(ascii: "T"); put(hour, at: 11)
            out[13] = UInt8(ascii: ":"); put(minute, at: 14)
            out[16] = UInt8(ascii: ":"); put(second, at: 17)
            out[19] = UInt8(ascii: ".")
            put(microsecond / 10_000, at: 20); put(microsecond / 100 % 100, at: 22); put(microsecond % 100, at: 24)
            out[26] = utcOffsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            put(Int(offsetMinutes / 60), at: 27)
            out[29] = UInt8(ascii: ":"); put(Int(offsetMinutes % 60), at: 30)
        }
        return text
    }

    /// ``iso8601(utcOffsetSeconds:)`` for any fields: each padded to its width, or longer when it does not fit.
    @usableFromInline
    func paddedISO8601(utcOffsetSeconds: Int) -> String {
        let offsetMinutes = utcOffsetSeconds.magnitude / 60
        func digits(_ magnitude: UInt) -> Int {
            var count = 1, rest = magnitude
            while rest >= 10 { rest /= 10; count += 1 }
            return count
        }
        // `%0<width>d`: the sign counts in the width.
        func written(_ value: Int, _ width: Int) -> Int {
            value < 0 ? 1 + max(width - 1, digits(value.magnitude)) : max(width, digits(value.magnitude))
        }
        let length = (year < 0 ? 1 : 0) + max(4, digits(year.magnitude)) + written(month, 2) + written(day, 2) + written(hour, 2)
            + written(minute, 2) + written(second, 2) + written(microsecond, 6) + 1 + max(2, digits(offsetMinutes / 60)) + 3 + 6
        return String(unsafeUninitializedCapacity: length) { out in
            var count = 0
            func put(_ byte: UInt8) {
                out[count] = byte
                count += 1
            }
            func put(_ magnitude: UInt, width: Int) {
                let size = max(width, digits(magnitude))
                var rest = magnitude
                for position in stride(from: count + size - 1, through: count, by: -1) {
                    out[position] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                    rest /= 10
                }
                count += size
            }
            func put(_ value: Int, width: Int) {
                if value < 0 { put(UInt8(ascii: "-")) }
                put(value.magnitude, width: value < 0 ? width - 1 : width)
            }
            if year < 0 { put(UInt8(ascii: "-")) }
            put(year.magnitude, width: 4)
            put(UInt8(ascii: "-")); put(month, width: 2)
            put(UInt8(ascii: "-")); put(day, width: 2)
            put(UInt8(ascii: "T")); put(hour, width: 2)
            put(UInt8(ascii: ":")); put(minute, width: 2)
            put(UInt8(ascii: ":")); put(second, width: 2)
            put(UInt8(ascii: ".")); put(microsecond, width: 6)
            put(utcOffsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            put(offsetMinutes / 60, width: 2)
            put(UInt8(ascii: ":")); put(offsetMinutes % 60, width: 2)
            return count
        }
    }

    /// `+03:00` (or `+0300` without the colon); `Z` is never used, so the offset is always explicit.
    public static func offsetText(_ seconds: Int, colon: Bool) -> String {
        var out = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        out.appendPadded(magnitude / 3600, width: 2)
        if colon { out.append(":") }
        out.appendPadded(magnitude / 60 % 60, width: 2)
        return out
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    public static func days(fromCivilYear year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(m <= 2 ? y + 1 : y), Int(m), Int(d))
    }

    /// The number of days in a month of a year.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether a year is a Gregorian leap year.
    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }
}

extension String {
    mutating func appendPadded(_ value: Int, width: Int) {
        let digits = String(value)
        if digits.utf8.count < width {
            append(String(repeating: "0", count: width - digits.utf8.count))
        }
        append(digits)
    }
}

extension Int64 {
    /// The remainder with the sign of the divisor, so times before 1970 split into days correctly.
    func floorMod(_ divisor: Int64) -> Int64 {
        let r = self % divisor
        return r < 0 ? r + divisor : r
    }
}
