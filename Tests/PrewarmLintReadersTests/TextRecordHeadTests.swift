import PrewarmLintModel
@testable import PrewarmLintReaders
import Testing

/// A text record's head is packed: what a grammar writes into it reads back the same, and it stays
/// small enough to be copied without a call (it is written for every line of a text log).
@Suite("text record head")
struct TextRecordHeadTests {
    @Test("time, pid, thread and activity read back as written, absent parts included")
    func roundTrip() {
        let times = [
            PartialTimestamp(year: 2024, month: 3, day: 18, hour: 7, minute: 1, second: 2, microsecond: 999_999, utcOffsetSeconds: -25_200),
            PartialTimestamp(hour: 23, minute: 59, second: 60),
            PartialTimestamp(month: 5, day: 2, hour: 11, minute: 13, second: 48, microsecond: 554_160),
            PartialTimestamp(year: 0, month: 0, day: 0, hour: 99, minute: 99, second: 99, microsecond: 0, utcOffsetSeconds: 0),
            PartialTimestamp(year: 9999, month: 12, day: 31, hour: 0, minute: 0, second: 0, utcOffsetSeconds: 86_340),
        ]
        for time in times {
            var head = TextRecordHead(time: time, timeText: 0..<31, message: 40..<90)
            #expect(head.time == time)
            #expect(head.pid == nil && head.threadID == nil && head.activityID == nil)
            for pid in [0, 1, 2231, Int(Int32.max) + 1] {
                head.pid = pid
                #expect(head.pid == pid)
            }
            head.pid = nil
            #expect(head.pid == nil)
            for value: UInt64 in [0, 0x9461c, .max] {
                head.threadID = value
                head.activityID = value
                #expect(head.threadID == value && head.activityID == value)
            }
            head.threadID = nil
            #expect(head.threadID == nil && head.activityID == .max)
            #expect(head.timeText == 0..<31 && head.message == 40..<90)
        }
    }

    @Test("a head fits in 128 bytes")
    func size() {
        #expect(MemoryLayout<TextRecordHead>.size <= 128)
    }
}
