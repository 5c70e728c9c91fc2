/// A tracev3 file's header chunk (`0x1000`): the clock and the device, as a launch needs them.
package struct TraceHeader: Sendable, Equatable {
    /// Mach time ticks to nanoseconds: `ticks * numerator / denominator` (125/3 on Apple silicon, 1/1 on Intel).
    package var timebaseNumerator: UInt32
    package var timebaseDenominator: UInt32
    /// The continuous time at which the file began, in ticks.
    package var continuousTime: UInt64
    /// The wall-clock time at which the file began: seconds since 1970 and nanoseconds.
    package var wallSeconds: UInt64
    package var wallNanoseconds: UInt32
    /// Minutes west of UTC (negative east of it), and whether daylight saving time was in effect.
    package var minutesWest: Int32
    package var daylightSaving: Bool
    /// The OS build (`19D52`) and the hardware (`J96AP`, `Macmini9,1`), when the header says them.
    package var build: String?
    package var hardwareModel: String?
    /// The boot the file belongs to (its timesync file is named by it) and logd's pid.
    package var bootUUID: UnifiedLogUUID?
    package var logdPID: UInt32?
    /// The time zone file's path (`/var/db/timezone/zoneinfo/America/Toronto`).
    package var timeZonePath: String?

    /// Reads a header chunk's payload: 40 bytes of clock, then subchunks (tag, size, data) of which the build and
    /// hardware (`0x6101`), the boot (`0x6102`) and the time zone (`0x6103`) are kept; others are passed over.
    package init(payload: UnsafeRawBufferPointer, at offset: Int = 0) throws(UnifiedLogError) {
        var reader = UnifiedLogBytes(payload, structure: "header")
        timebaseNumerator = try reader.u32()
        timebaseDenominator = try reader.u32()
        guard timebaseNumerator > 0, timebaseDenominator > 0 else {
            throw UnifiedLogError("header", at: offset, "timebase \(timebaseNumerator)/\(timebaseDenominator)")
        }
        continuousTime = try reader.u64()
        wallSeconds = try reader.u64()
        wallNanoseconds = try reader.u32()
        minutesWest = Int32(bitPattern: try reader.u32())
        daylightSaving = try reader.u32() != 0
        _ = try reader.u32()  // flags
        while reader.remaining >= 8 {
            let tag = try reader.u32()
            let size = Int(try reader.u32())
            var field = UnifiedLogBytes(try reader.slice(size), structure: "header subchunk 0x\(String(tag, radix: 16))")
            switch tag {
            case 0x6101 where size >= 56:
                try field.skip(8)
                build = try field.text(16)
                hardwareModel = try field.text(32)
            case 0x6102 where size >= 20:
                bootUUID = try field.uuid()
                logdPID = try field.u32()
            case 0x6103:
                timeZonePath = try field.text(size)
            default:
                break
            }
        }
    }
}
