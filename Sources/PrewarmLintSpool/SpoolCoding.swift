import PrewarmLintModel
import PrewarmLintClassifier
import PrewarmLintSessions
import PrewarmLintRules
import PrewarmLintConfiguration
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of values spooled to a temporary file while a run goes on (closed sessions and their findings, so
/// that memory does not grow with them): variable-length integers, UTF-8 strings with their length, enums by
/// their place among their cases. Read back only by the same process (``SpoolReader``), so there is no version and no promise
/// beyond that.
///
/// Written by hand: no package in reach encodes values compactly without a schema compiler (swift-protobuf
/// needs generated types), and `Codable` through a keyed container costs microseconds per session — seconds
/// for the million-launch logs spooling is for.
package struct SpoolWriter: Sendable {
    /// What was written so far.
    package var bytes: [UInt8] = []

    /// An empty writer.
    package init() {}

    /// An unsigned integer, seven bits a byte.
    package mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed integer (zigzag: small magnitudes in few bytes, either sign).
    package mutating func integer(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A signed integer.
    package mutating func integer(_ value: Int) { integer(Int64(value)) }

    /// A flag.
    package mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// A string: its UTF-8 length, then its bytes.
    package mutating func string(_ value: String) {
        var copy = value
        copy.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A string given as its UTF-8 bytes, written as ``string(_:)-(String)`` writes one.
    package mutating func string(utf8: UnsafeRawBufferPointer) {
        unsigned(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// An optional string: a flag, then the string.
    package mutating func string(_ value: String?) {
        flag(value != nil)
        if let value { string(value) }
    }

    /// An optional integer: a flag, then the integer.
    package mutating func integer(_ value: Int?) {
        flag(value != nil)
        if let value { integer(value) }
    }

    /// A value that spools itself.
    package mutating func value<Value: Spoolable>(_ value: Value) { value.spool(into: &self) }

    /// An optional value: a flag, then the value.
    package mutating func value<Value: Spoolable>(_ value: Value?) {
        flag(value != nil)
        if let value { value.spool(into: &self) }
    }

    /// An array: its count, then each element.
    package mutating func array<Value: Spoolable>(_ values: [Value]) {
        unsigned(UInt64(values.count))
        for value in values { value.spool(into: &self) }
    }

    /// A case of an enum: its place among the cases (one byte, where its raw value was a string to compare back).
    package mutating func choice<Value: SpooledChoice>(_ value: Value) {
        // (A case is always among `allCases`; the fallback past them would throw when read.)
        unsigned(UInt64(Value.spooledCases.firstIndex(of: value) ?? Value.spooledCases.count))
    }

    /// An array of strings: its count, then each string.
    package mutating func strings(_ values: [String]) {
        unsigned(UInt64(values.count))
        for value in values { string(value) }
    }
}

/// Reads what a ``SpoolWriter`` wrote, in the same order. A read past the end or a value that cannot be what
/// was written throws: the temporary file was damaged under the run (a full disk, another process).
package struct SpoolReader {
    /// Why spooled bytes could not be read back.
    package struct DamagedSpool: Error, Sendable {
        /// What was wrong, and where.
        package var reason: String

        /// Bytes that are wrong for this reason.
        package init(reason: String) {
            self.reason = reason
        }
    }

    private let bytes: UnsafeRawBufferPointer
    /// The last string ``repeatedString()`` read, with its bytes.
    private var lastRepeated: (bytes: [UInt8], string: String)?
    /// The next byte to read.
    package private(set) var position = 0

    /// A reader of `bytes`, which must outlive it.
    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    package var isAtEnd: Bool { position >= bytes.count }

    /// An unsigned integer.
    package mutating func unsigned() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 64 else { throw DamagedSpool(reason: "an integer runs past byte \(position)") }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A signed integer.
    package mutating func integer() throws -> Int {
        let raw = try unsigned()
        return Int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    /// A signed 64-bit integer.
    package mutating func integer64() throws -> Int64 { Int64(try integer()) }

    /// A flag.
    package mutating func flag() throws -> Bool {
        guard position < bytes.count else { throw DamagedSpool(reason: "a flag past the end, at byte \(position)") }
        defer { position += 1 }
        switch bytes[position] {
        case 0: return false
        case 1: return true
        default: throw DamagedSpool(reason: "byte \(position) is \(bytes[position]), not a flag")
        }
    }

    /// A count of elements that follow, each at least a byte long.
    package mutating func count() throws -> Int {
        let value = try unsigned()
        guard value <= UInt64(bytes.count - position) else { throw DamagedSpool(reason: "a count of \(value) at byte \(position) is longer than what remains") }
        return Int(value)
    }

    /// A string.
    package mutating func string() throws -> String {
        let length = try count()
        defer { position += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self)
    }

    /// A string's UTF-8 bytes, where they are in the spool (valid while its bytes are).
    package mutating func stringBytes() throws -> UnsafeRawBufferPointer {
        let length = try count()
        defer { position += length }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + length])
    }

    /// An optional string.
    package mutating func optionalString() throws -> String? {
        try flag() ? try string() : nil
    }

    /// An optional integer.
    package mutating func optionalInteger() throws -> Int? {
        try flag() ? try integer() : nil
    }

    /// A value that spools itself.
    package mutating func value<Value: Spoolable>(_: Value.Type = Value.self) throws -> Value { try Value(unspooling: &self) }

    /// An optional value.
    package mutating func optionalValue<Value: Spoolable>(_: Value.Type = Value.self) throws -> Value? {
        try flag() ? try Value(unspooling: &self) : nil
    }

    /// An array.
    package mutating func array<Value: Spoolable>(_: Value.Type = Value.self) throws -> [Value] {
        let count = try count()
        var values: [Value] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try Value(unspooling: &self)) }
        return values
    }

    /// An array of strings.
    package mutating func strings() throws -> [String] {
        let count = try count()
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try string()) }
        return values
    }

    /// A case of an enum, by its place among the cases.
    package mutating func choice<Value: SpooledChoice>(_: Value.Type = Value.self) throws -> Value {
        let index = try unsigned()
        guard index < UInt64(Value.spooledCases.count) else { throw DamagedSpool(reason: "\(index) is not a case of \(Value.self)") }
        return Value.spooledCases[Int(index)]
    }

    /// A string that is often the same as the last one read this way (an origin's input, the same in every line of
    /// a session): the same bytes give back the same `String`, retained rather than decoded and allocated again.
    package mutating func repeatedString() throws -> String {
        let length = try count()
        defer { position += length }
        let text = UnsafeRawBufferPointer(rebasing: bytes[position..<position + length])
        if let last = lastRepeated, last.bytes.count == length,
           last.bytes.withUnsafeBytes({ length == 0 || memcmp($0.baseAddress!, text.baseAddress!, length) == 0 }) {
            return last.string
        }
        let string = String(decoding: text, as: UTF8.self)
        lastRepeated = (Array(text), string)
        return string
    }
}

/// An enum spooled as its place among ``spooledCases`` (the order of `allCases`, kept once; the same process
/// writes and reads the spool, so the order cannot change between the two).
package protocol SpooledChoice: CaseIterable, Equatable {
    /// The cases, in the order their places are written.
    static var spooledCases: [Self] { get }
}

extension LaunchSession.Milestone.Name: SpooledChoice { package static let spooledCases = Array(allCases) }
extension LaunchSession.Kind: SpooledChoice { package static let spooledCases = Array(allCases) }
extension LaunchSession.Confidence: SpooledChoice { package static let spooledCases = Array(allCases) }
extension ProcessRole: SpooledChoice { package static let spooledCases = Array(allCases) }
extension EventMeaning: SpooledChoice { package static let spooledCases = Array(allCases) }
extension Severity: SpooledChoice { package static let spooledCases = Array(allCases) }

/// A value a ``SpoolWriter`` can write and a ``SpoolReader`` read back equal.
package protocol Spoolable {
    /// Writes every stored property.
    func spool(into writer: inout SpoolWriter)
    /// Reads what ``spool(into:)`` wrote.
    init(unspooling reader: inout SpoolReader) throws
}

extension String: Spoolable {
    /// Writes the string.
    package func spool(into writer: inout SpoolWriter) { writer.string(self) }
    /// Reads a string.
    package init(unspooling reader: inout SpoolReader) throws { self = try reader.string() }
}

extension EventOrigin: Spoolable {
    /// The stored properties ``spool(into:)`` writes (a test compares them with the type's own).
    package static let spooledProperties = ["input", "line", "byteOffset"]
    /// Writes the origin.
    package func spool(into writer: inout SpoolWriter) {
        writer.string(input)
        writer.integer(line)
        writer.integer(byteOffset)
    }
    /// Reads an origin.
    package init(unspooling reader: inout SpoolReader) throws {
        self.init(input: try reader.repeatedString(), line: try reader.integer(), byteOffset: try reader.integer())
    }
}

extension LogTimestamp: Spoolable {
    /// The stored properties ``spool(into:)`` writes (a test compares them with the type's own).
    package static let spooledProperties = ["microsecondsSinceEpoch", "utcOffsetSeconds", "storedText", "inferred"]
    /// Writes the timestamp.
    package func spool(into writer: inout SpoolWriter) {
        writer.integer(microsecondsSinceEpoch)
        writer.integer(utcOffsetSeconds)
        storedText.withUTF8 { writer.string(utf8: $0) }
        writer.unsigned(UInt64(inferred.rawValue))
    }
    /// Reads a timestamp.
    package init(unspooling reader: inout SpoolReader) throws {
        let instant = try reader.integer64(), offset = try reader.integer(), text = TimestampText(utf8: try reader.stringBytes())
        let inferred = try reader.unsigned()
        guard inferred <= UInt64(UInt8.max) else { throw SpoolReader.DamagedSpool(reason: "inferred parts \(inferred)") }
        self.init(microsecondsSinceEpoch: instant, utcOffsetSeconds: offset, storedText: text, inferred: InferredParts(rawValue: UInt8(inferred)))
    }
}

extension AppIdentity: Spoolable {
    /// The stored properties ``spool(into:)`` writes (a test compares them with the type's own).
    package static let spooledProperties = ["bundleID", "processName", "pid"]
    /// Writes the identity.
    package func spool(into writer: inout SpoolWriter) {
        writer.string(bundleID)
        writer.string(processName)
        writer.integer(pid)
    }
    /// Reads an identity.
    package init(unspooling reader: inout SpoolReader) throws {
        self.init(processName: "", pid: nil)
        bundleID = try reader.optionalString()
        processName = try reader.optionalString()
        pid = try reader.optionalInteger()
    }
}

extension LaunchSession.Milestone: Spoolable {
    /// The stored properties ``spool(into:)`` writes (a test compares them with the type's own).
    package static let spooledProperties = ["name", "time", "evidence", "detail", "detailEvidence"]
    /// Writes the milestone.
    package func spool(into writer: inout SpoolWriter) {
        writer.choice(name)
        writer.value(time)
        writer.value(evidence)
        writer.string(detail)
        writer.value(detailEvidence)
    }
    /// Reads a milestone.
    package init(unspooling reader: inout SpoolReader) throws {
        self.init(name: try reader.choice(), time: try reader.value(), evidence: try reader.value(), detail: try reader.optionalString(),
                  detailEvidence: try reader.optionalValue())
    }
}

extension SessionEvent: Spoolable {
    /// The stored properties ``spool(into:)`` writes (a test compares them with the type's own).
    package static let spooledProperties = ["origin", "time", "process", "pid", "role", "meaning", "signatureID", "detail", "pointName", "text"]
    /// Writes the line.
    package func spool(into writer: inout SpoolWriter) {
        writer.value(origin)
        writer.value(time)
        writer.string(process)
        writer.integer(pid)
        writer.choice(role)
        writer.choice(meaning)
        writer.string(signatureID)
        writer.string(detail)
        writer.string(pointName)
        writer.string(text)
    }
    /// Reads a line.
    package init(unspooling reader: inout SpoolReader) throws {
        let origin: EventOrigin = try reader.value(), time: LogTimestamp = try reader.value()
        let process = try reader.string(), pid = try reader.optionalInteger()
        let role: ProcessRole = try reader.choice(), meaning: EventMeaning = try reader.choice()
        let signatureID = try reader.optionalString(), detail = try reader.optionalString(), pointName = try reader.optionalString()
        self.init(origin: origin, time: time, process: process, pid: pid, role: role, meaning: meaning, signatureID: signatureID,
                  detail: detail, text: try reader.string(), pointName: pointName)
    }
}

extension LaunchSession: Spoolable {
    /// The stored properties ``spool(into:)`` writes (a test compares them with the type's own).
    package static let spooledProperties = ["app", "kind", "confidence", "decidedBy", "milestones", "callbacksBeforeActivation",
                                           "callbacksBeforeActivationNotKept", "incompleteEvidence", "events", "eventsNotKept", "firstSeen", "lastSeen"]
    /// Writes the session.
    package func spool(into writer: inout SpoolWriter) {
        writer.value(app)
        writer.choice(kind)
        writer.choice(confidence)
        writer.value(decidedBy)
        writer.array(milestones)
        writer.array(callbacksBeforeActivation)
        writer.integer(callbacksBeforeActivationNotKept)
        writer.strings(incompleteEvidence)
        writer.array(events)
        writer.integer(eventsNotKept)
        writer.value(firstSeen)
        writer.value(lastSeen)
    }
    /// Reads a session.
    package init(unspooling reader: inout SpoolReader) throws {
        self.init(app: try reader.value(), kind: try reader.choice(), confidence: try reader.choice(), decidedBy: try reader.optionalValue(),
                  milestones: try reader.array(), callbacksBeforeActivation: try reader.array())
        callbacksBeforeActivationNotKept = try reader.integer()
        incompleteEvidence = try reader.strings()
        events = try reader.array()
        eventsNotKept = try reader.integer()
        firstSeen = try reader.optionalValue()
        lastSeen = try reader.optionalValue()
    }
}

extension Finding.Evidence: Spoolable {
    /// The stored properties ``spool(into:)`` writes (a test compares them with the type's own).
    package static let spooledProperties = ["origin", "time", "text", "label"]
    /// Writes the evidence.
    package func spool(into writer: inout SpoolWriter) {
        writer.value(origin)
        writer.value(time)
        writer.string(text)
        writer.string(label)
    }
    /// Reads evidence.
    package init(unspooling reader: inout SpoolReader) throws {
        self.init(origin: try reader.value(), time: try reader.value(), text: try reader.string(), label: try reader.string())
    }
}

extension Finding: Spoolable {
    /// The stored properties ``spool(into:)`` writes (a test compares them with the type's own).
    package static let spooledProperties = ["ruleID", "severity", "message", "sessionID", "sessionKind", "app", "evidence",
                                           "missingEvidence", "messageID"]
    /// Writes the finding.
    package func spool(into writer: inout SpoolWriter) {
        writer.string(ruleID)
        writer.choice(severity)
        writer.string(message)
        writer.string(sessionID)
        writer.choice(sessionKind)
        writer.value(app)
        writer.array(evidence)
        writer.string(missingEvidence)
        writer.string(messageID)
    }
    /// Reads a finding.
    package init(unspooling reader: inout SpoolReader) throws {
        self.init(ruleID: try reader.string(), severity: try reader.choice(), message: try reader.string(), sessionID: try reader.string(),
                  sessionKind: try reader.choice(), app: try reader.value(), evidence: try reader.array(),
                  missingEvidence: try reader.optionalString())
        messageID = try reader.optionalString()
    }
}
