/// A `timesync` file (`Diagnostics/timesync/0000000000000002.timesync`): for each boot, its clock and the moments at
/// which the continuous clock was matched to wall-clock time. With it, an entry's continuous time (ticks since its
/// boot) becomes a wall-clock time.
///
/// Layout: records one after another, each starting with a signature and its own size: a boot record (`0xBBB0`,
/// 48 bytes: boot UUID, timebase, wall time, time zone) followed by sync records (`Ts`, 32 bytes: continuous time
/// in ticks, wall time in nanoseconds since 1970, time zone).
package struct TimesyncDatabase: Sendable, Equatable {
    /// One boot and its sync points, in file order: the boot record's own (continuous time 0) first.
    package struct Boot: Sendable, Equatable {
        package var uuid: UnifiedLogUUID
        package var timebaseNumerator: UInt32
        package var timebaseDenominator: UInt32
        /// The wall-clock time of the boot record, in nanoseconds since 1970.
        package var wallNanoseconds: Int64
        /// Minutes west of UTC (negative east of it).
        package var minutesWest: Int32
        package var syncs: [Sync]
    }

    /// A moment at which continuous time (ticks) was wall-clock time (nanoseconds since 1970).
    package struct Sync: Sendable, Equatable {
        package var continuousTime: UInt64
        package var wallNanoseconds: Int64
        package var minutesWest: Int32
    }

    package var boots: [Boot] = []

    static let bootSignature: UInt16 = 0xBBB0
    static let syncSignature: UInt16 = 0x7354  // "Ts"

    /// A database of these boots (the files of an archive's `timesync` folder, put together).
    package init(boots: [Boot] = []) {
        self.boots = boots
    }

    package init(bytes: [UInt8]) throws(UnifiedLogError) {
        boots = try bytes.withUnifiedLogBytes { (raw: UnsafeRawBufferPointer) throws(UnifiedLogError) -> [Boot] in
            var reader = UnifiedLogBytes(raw, structure: "timesync record")
            var boots: [Boot] = []
            while reader.remaining > 0 {
                let start = reader.offset
                let signature = try reader.u16()
                let size = Int(try reader.u16())
                switch signature {
                case Self.bootSignature where size == 48:
                    try reader.skip(4)
                    let uuid = try reader.uuid()
                    let numerator = try reader.u32()
                    let denominator = try reader.u32()
                    let wall = Int64(bitPattern: try reader.u64())
                    let minutesWest = Int32(bitPattern: try reader.u32())
                    try reader.skip(4)
                    guard numerator > 0, denominator > 0 else {
                        throw UnifiedLogError("timesync boot record", at: start, "timebase \(numerator)/\(denominator)")
                    }
                    // The boot record is itself a sync point: continuous time 0 was its wall time.
                    boots.append(Boot(uuid: uuid, timebaseNumerator: numerator, timebaseDenominator: denominator, wallNanoseconds: wall,
                                      minutesWest: minutesWest, syncs: [Sync(continuousTime: 0, wallNanoseconds: wall, minutesWest: minutesWest)]))
                case Self.syncSignature where size == 32:
                    try reader.skip(4)
                    let continuous = try reader.u64()
                    let wall = Int64(bitPattern: try reader.u64())
                    let minutesWest = Int32(bitPattern: try reader.u32())
                    try reader.skip(4)
                    guard !boots.isEmpty else { throw UnifiedLogError("timesync sync record", at: start, "before any boot record") }
                    boots[boots.count - 1].syncs.append(Sync(continuousTime: continuous, wallNanoseconds: wall, minutesWest: minutesWest))
                default:
                    throw UnifiedLogError("timesync record", at: start, "signature 0x\(String(signature, radix: 16)) of \(size) bytes")
                }
            }
            return boots
        }
    }

    /// The wall-clock time, in nanoseconds since 1970, of `continuousTime` ticks in the boot `boot`: from the last sync
    /// point at or before it (the boot record's, at 0, when none later is), the ticks after it converted with the
    /// boot's timebase. Nil when the file does not have the boot; saturates at `Int64.max`.
    package func wallNanoseconds(continuousTime: UInt64, boot: UnifiedLogUUID) -> Int64? {
        guard let record = boots.last(where: { $0.uuid == boot }),
              let sync = record.syncs.last(where: { $0.continuousTime <= continuousTime }) else { return nil }
        let ticks = continuousTime - sync.continuousTime
        let wide = ticks.multipliedFullWidth(by: UInt64(record.timebaseNumerator))
        guard wide.high < UInt64(record.timebaseDenominator) else { return .max }
        let nanoseconds = UInt64(record.timebaseDenominator).dividingFullWidth(wide).quotient
        let (sum, sumOverflow) = sync.wallNanoseconds.addingReportingOverflow(Int64(clamping: nanoseconds))
        return sumOverflow || nanoseconds > UInt64(Int64.max) ? .max : sum
    }
}
