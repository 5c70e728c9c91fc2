import PrewarmLintModel

/// The parts of a timestamp a line actually printed; the missing ones are `nil`.
///
/// A decoder parses digits into this, and a ``TimestampResolver`` fills the gaps.
public struct PartialTimestamp: Sendable, Hashable {
    /// The year, when the text has one.
    public var year: Int?
    /// The month, when the text has a date.
    public var month: Int?
    /// The day, when the text has a date.
    public var day: Int?
    /// 0…23.
    public var hour: Int
    /// 0…59.
    public var minute: Int
    /// 0…60.
    public var second: Int
    /// The fraction of the second, in microseconds (0 when the text has none).
    public var microsecond: Int
    /// The UTC offset in seconds east, when the text has one.
    public var utcOffsetSeconds: Int?

    /// A timestamp of these parts; what is nil is inferred later.
    public init(year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int, minute: Int, second: Int,
                microsecond: Int = 0, utcOffsetSeconds: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.microsecond = microsecond
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}

extension PartialTimestamp {
    /// Parses a date and time as `log show` and ISO 8601 write them: `2024-05-02 11:13:48`,
    /// with an optional fraction, `T` instead of the space, and an optional offset (`+0200`,
    /// `+02:00`, ` +0200`, `Z`). A date alone means its midnight. Nil when the text is not one.
    public init?(parsing text: String) {
        var copy = text
        let parsed = copy.withUTF8 { utf8 -> PartialTimestamp? in
            let bytes = UnsafeRawBufferPointer(utf8)
            if bytes.count == 10, let day = CivilDateTime(dateText: text) {
                return PartialTimestamp(year: day.year, month: day.month, day: day.day, hour: 0, minute: 0, second: 0)
            }
            guard var (partial, end) = TimestampParsing.dateTime(bytes, at: 0, allowOffset: true) else { return nil }
            if end < bytes.count, bytes[end] == .space, let (offset, offsetEnd) = TimestampParsing.utcOffset(bytes, at: end + 1) {
                partial.utcOffsetSeconds = offset
                end = offsetEnd
            }
            return end == bytes.count ? partial : nil
        }
        guard let parsed else { return nil }
        self = parsed
    }
}

/// Parsers for the timestamp spellings of the supported formats. Each returns the index after
/// the timestamp so the caller can go on scanning.
enum TimestampParsing {
    /// `YYYY-MM-DD HH:MM:SS[.fraction][±HHMM|±HH:MM|Z]`, also with `T` between date and time.
    static func dateTime(_ bytes: UnsafeRawBufferPointer, at start: Int, allowOffset: Bool = true) -> (PartialTimestamp, end: Int)? {
        if allowOffset, let written = logShowDateTime(bytes, at: start) { return written }
        return anyDateTime(bytes, at: start, allowOffset: allowOffset)
    }

    /// ``dateTime(_:at:allowOffset:)`` without its fixed-place reading of `log show`'s spelling: for a caller
    /// that has just tried that itself.
    static func anyDateTime(_ bytes: UnsafeRawBufferPointer, at start: Int, allowOffset: Bool) -> (PartialTimestamp, end: Int)? {
        guard let year = bytes.digits(at: start, length: 4), bytes.matches("-", at: start + 4),
              let month = bytes.digits(at: start + 5, length: 2), bytes.matches("-", at: start + 7),
              let day = bytes.digits(at: start + 8, length: 2),
              start + 10 < bytes.count, bytes[start + 10] == .space || bytes[start + 10] == UInt8(ascii: "T"),
              case (var time, let end)? = timeOfDay(bytes, at: start + 11, allowOffset: allowOffset, allowSpaceBeforeOffset: false)
        else { return nil }
        time.year = year
        time.month = month
        time.day = day
        return (time, end)
    }

    /// `log show`'s own spelling, `2024-03-18 07:01:02.123456-0700` (31 bytes), read at fixed places: what
    /// ``dateTime(_:at:allowOffset:)`` reads from it, without its search for separators; nil for any other
    /// spelling (fewer fraction digits, a colon in the offset, an offset beyond ±23:59), which the general
    /// parser then reads.
    @inline(__always)
    static func logShowDateTime(_ bytes: UnsafeRawBufferPointer, at start: Int) -> (PartialTimestamp, end: Int)? {
        guard let (packed, end) = logShowPackedDateTime(bytes, at: start) else { return nil }
        return (packed.partial, end)
    }

    /// ``logShowDateTime(_:at:)`` into a ``PackedTimestamp``, which a text decoder keeps for each line.
    @inline(__always)
    static func logShowPackedDateTime(_ bytes: UnsafeRawBufferPointer, at start: Int) -> (PackedTimestamp, end: Int)? {
        guard start >= 0, bytes.count - start >= 31 else { return nil }
        // Four loads, byte 0 lowest: `2024-03-` `18 07:01` `:02.1234` and, overlapping, `456-0700` (bytes 23…30).
        let date = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        let dayClock = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self))
        let secondFraction = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 16, as: UInt64.self))
        let fractionOffset = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 23, as: UInt64.self))
        let between = UInt8(truncatingIfNeeded: dayClock >> 16), sign = UInt8(truncatingIfNeeded: fractionOffset >> 24)
        guard date & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000,  // the two `-`
              UInt8(truncatingIfNeeded: dayClock >> 40) == UInt8(ascii: ":"),  // byte 13
              secondFraction & 0x0000_0000_FF00_00FF == 0x0000_0000_2E00_003A,  // byte 16 `:`, byte 19 `.`
              between == .space || between == UInt8(ascii: "T"),
              sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
              // Every other byte a digit.
              Self.allDigits(date, at: 0x0080_8000_8080_8080), Self.allDigits(dayClock, at: 0x8080_0080_8000_8080),
              Self.allDigits(secondFraction, at: 0x8080_8080_0080_8000), Self.allDigits(fractionOffset, at: 0x8080_8080_0080_8080)
        else { return nil }
        let datePairs = Self.digitPairs(date), dayClockPairs = Self.digitPairs(dayClock)
        let secondPairs = Self.digitPairs(secondFraction), fractionOffsetPairs = Self.digitPairs(fractionOffset)
        let year = Self.pair(datePairs, 0) &* 100 &+ Self.pair(datePairs, 2)
        // Microseconds: bytes 20…25, i.e. bytes 4…7 of the third word and 0…1 of the fourth (its bytes 0…2 are 23…25).
        let microsecond = (Self.pair(secondPairs, 4) &* 100 &+ Self.pair(secondPairs, 6)) &* 100 &+ Self.pair(fractionOffsetPairs, 1)
        let offsetHours = Self.pair(fractionOffsetPairs, 4), offsetMinutes = Self.pair(fractionOffsetPairs, 6)
        guard offsetHours < 24, offsetMinutes < 60 else { return nil }
        let offset = offsetHours &* 3600 &+ offsetMinutes &* 60
        return (PackedTimestamp(year: year, month: Self.pair(datePairs, 5), day: Self.pair(dayClockPairs, 0),
                                hour: Self.pair(dayClockPairs, 3), minute: Self.pair(dayClockPairs, 6), second: Self.pair(secondPairs, 1),
                                microsecond: microsecond, offset: sign == UInt8(ascii: "-") ? -offset : offset), start + 31)
    }

    /// `HH:MM:SS[.fraction][ ][±HHMM]`: the Console.app spelling, with or without a space before the offset.
    static func timeOfDay(_ bytes: UnsafeRawBufferPointer, at start: Int, allowOffset: Bool = true,
                          allowSpaceBeforeOffset: Bool) -> (PartialTimestamp, end: Int)? {
        guard let hour = bytes.digits(at: start, length: 2), bytes.matches(":", at: start + 2),
              let minute = bytes.digits(at: start + 3, length: 2), bytes.matches(":", at: start + 5),
              let second = bytes.digits(at: start + 6, length: 2)
        else { return nil }
        var index = start + 8
        var microsecond = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            var digits = 0
            index += 1
            while index < bytes.count, bytes[index].isDigit {
                if digits < 6 { microsecond = microsecond * 10 + Int(bytes[index] &- 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 6)..<6 { microsecond *= 10 }
        }
        var result = PartialTimestamp(hour: hour, minute: minute, second: second, microsecond: microsecond)
        if allowOffset {
            var offsetStart = index
            if allowSpaceBeforeOffset, offsetStart < bytes.count, bytes[offsetStart] == .space { offsetStart += 1 }
            if let (offset, end) = utcOffset(bytes, at: offsetStart) {
                result.utcOffsetSeconds = offset
                index = end
            }
        }
        return (result, index)
    }

    /// `21:28:47.038326-0500`: the time column of a Console copy in the shape nearly every line has, read at its fixed
    /// places straight into its packed form; nil for any other shape (``timeOfDay(_:at:allowOffset:allowSpaceBeforeOffset:)``
    /// reads those, and gives the same value for this one: a test compares the two).
    static func consoleTime(_ field: UnsafeRawBufferPointer) -> PackedTimestamp? {
        guard field.count == 20 else { return nil }
        // Three loads: `HH:MM:SS`, `.ffffff±` and `hhmm`, byte 0 lowest.
        let clock = UInt64(littleEndian: field.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let fraction = UInt64(littleEndian: field.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let offsetDigits = UInt64(UInt32(littleEndian: field.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
        let sign = UInt8(truncatingIfNeeded: fraction >> 56)
        guard clock & 0x0000_FF00_00FF_0000 == 0x0000_3A00_003A_0000,  // the two `:`
              fraction & 0xFF == 0x2E,  // `.`
              sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+"),
              Self.allDigits(clock, at: 0x8080_0080_8000_8080), Self.allDigits(fraction, at: 0x0080_8080_8080_8000),
              Self.allDigits(offsetDigits, at: 0x8080_8080)
        else { return nil }
        let clockPairs = Self.digitPairs(clock), fractionPairs = Self.digitPairs(fraction), offsetPairs = Self.digitPairs(offsetDigits)
        let microsecond = (Self.pair(fractionPairs, 1) &* 100 &+ Self.pair(fractionPairs, 3)) &* 100 &+ Self.pair(fractionPairs, 5)
        let offsetHours = Self.pair(offsetPairs, 0), offsetMinutes = Self.pair(offsetPairs, 2)
        guard offsetHours < 24, offsetMinutes < 60 else { return nil }
        let offset = offsetHours &* 3600 &+ offsetMinutes &* 60
        return PackedTimestamp(year: PackedTimestamp.none, month: PackedTimestamp.none, day: PackedTimestamp.none,
                               hour: Self.pair(clockPairs, 0), minute: Self.pair(clockPairs, 3), second: Self.pair(clockPairs, 6),
                               microsecond: microsecond, offset: sign == UInt8(ascii: "-") ? -offset : offset)
    }

    /// For each byte `i` of `word`, the two-digit value of bytes `i` and `i + 1` (`10 × low nibble of i + low nibble of
    /// i + 1`), in byte `i`: every two-digit number of a word at once. Nibbles are at most 15, so no byte passes 165
    /// and none carries into the next; only the bytes whose pair is two digits mean anything.
    @inline(__always) static func digitPairs(_ word: UInt64) -> UInt64 {
        let nibbles = word & 0x0F0F_0F0F_0F0F_0F0F
        return nibbles &* 10 &+ (nibbles >> 8)
    }

    /// Byte `index` of ``digitPairs(_:)``'s result.
    @inline(__always) static func pair(_ pairs: UInt64, _ index: Int) -> Int32 {
        Int32(truncatingIfNeeded: (pairs >> (8 &* UInt64(index))) & 0xFF)
    }

    /// Whether the bytes of `word` whose high bit `places` sets are all ASCII digits.
    @inline(__always) private static func allDigits(_ word: UInt64, at places: UInt64) -> Bool {
        ByteClasses.decimalDigits(word) & places == places
    }

    /// `+0300`, `-05:00` or `Z`.
    static func utcOffset(_ bytes: UnsafeRawBufferPointer, at start: Int) -> (seconds: Int, end: Int)? {
        guard start < bytes.count else { return nil }
        let sign = bytes[start]
        if sign == UInt8(ascii: "Z") { return (0, start + 1) }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
              let hours = bytes.digits(at: start + 1, length: 2) else { return nil }
        var minutesAt = start + 3
        if bytes.matches(":", at: minutesAt) { minutesAt += 1 }
        guard let minutes = bytes.digits(at: minutesAt, length: 2), hours < 24, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return (sign == UInt8(ascii: "-") ? -seconds : seconds, minutesAt + 2)
    }

    /// `May  2 11:13:48[.554160]`: syslog's month-day-time without a year.
    static func monthDayTime(_ bytes: UnsafeRawBufferPointer, at start: Int) -> (PartialTimestamp, end: Int)? {
        guard let month = monthNumber(bytes, at: start), bytes.matches(" ", at: start + 3) else { return nil }
        var index = start + 4
        if index < bytes.count, bytes[index] == .space { index += 1 }
        guard let (dayValue, afterDay) = bytes.unsignedInteger(at: index), afterDay - index <= 2,
              (1...31).contains(dayValue), bytes.matches(" ", at: afterDay),
              case (var time, let end)? = timeOfDay(bytes, at: afterDay + 1, allowOffset: false, allowSpaceBeforeOffset: false)
        else { return nil }
        time.month = month
        time.day = Int(dayValue)
        return (time, end)
    }

    private static let monthNames: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func monthNumber(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Int? {
        for (index, name) in monthNames.enumerated() where bytes.matches(name, at: start) { return index + 1 }
        return nil
    }
}

/// A ``PartialTimestamp``'s parts, each in 32 bits (``none``: not printed), as a text decoder keeps them
/// for every line (a `PartialTimestamp` takes 112 bytes). The parsers read at most six digits a part,
/// so every part they make fits; one that did not would be clamped, to a value as invalid.
struct PackedTimestamp: Equatable {
    static let none = Int32.min
    var year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32, microsecond: Int32, offset: Int32
}

extension PackedTimestamp {
    // (In an extension, so that the memberwise initializer stays.)
    init(_ time: PartialTimestamp) {
        func packed(_ value: Int?) -> Int32 { value.map { Int32(clamping: $0) } ?? Self.none }
        self.init(year: packed(time.year), month: packed(time.month), day: packed(time.day), hour: Int32(clamping: time.hour),
                  minute: Int32(clamping: time.minute), second: Int32(clamping: time.second),
                  microsecond: Int32(clamping: time.microsecond), offset: packed(time.utcOffsetSeconds))
    }

    var partial: PartialTimestamp {
        func unpacked(_ value: Int32) -> Int? { value == Self.none ? nil : Int(value) }
        return PartialTimestamp(year: unpacked(year), month: unpacked(month), day: unpacked(day), hour: Int(hour),
                                minute: Int(minute), second: Int(second), microsecond: Int(microsecond),
                                utcOffsetSeconds: unpacked(offset))
    }

    /// Whether the date and the UTC offset are printed: nothing is left to infer.
    var isComplete: Bool { year != Self.none && month != Self.none && day != Self.none && offset != Self.none }
}
