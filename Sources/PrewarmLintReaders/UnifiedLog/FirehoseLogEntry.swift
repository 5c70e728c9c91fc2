/// A firehose log entry (a non-activity tracepoint, what `os_log` writes): where its format string is, its
/// subsystem, and its arguments, read from the tracepoint's data as its flags say.
///
/// Layout, each field present only when its flag is set: the current activity (`0x0001`, 8 bytes), the private data's
/// range (`0x0100`, 4), the caller's address (4, always), where the format string is (`0x000E`: the main executable's
/// uuidtext, the shared cache with its offset's high bits, an absolute image index, or the image's UUID), the
/// subsystem (`0x0200`, 2), a time to live (`0x0400`, 1), an oversize reference (`0x0800`, 4); then the arguments: a
/// flags byte, their count, a descriptor each (numbers hold their value; strings and data their place in the string
/// area), then the string area, which begins with a backtrace when `0x1000` is set.
package struct FirehoseLogEntry: Sendable, Equatable {
    /// Where the format string of an entry is.
    package enum FormatSource: Sendable, Equatable {
        /// In the uuidtext file of the process's main executable, at the tracepoint's offset.
        case mainExecutable
        /// In the shared cache's strings (`dsc/`), at the tracepoint's offset plus these high bits.
        case sharedCache(largeOffset: UInt16, largeSharedCache: UInt16)
        /// In the uuidtext file of the image loaded where the caller's address is (these bits above its 32).
        case absolute(addressHigh: UInt16)
        /// In the uuidtext file of this UUID.
        case uuidRelative(UnifiedLogUUID)
    }

    /// One argument, as the entry holds it.
    package enum Argument: Sendable, Equatable {
        /// An integer (or a double's bits), signed as stored.
        case number(Int64)
        /// A string (`%s`, `%@`), or nil for a null one.
        case string(String?)
        /// Bytes (`%P`, `%{uuid_t}.16P`).
        case bytes([UInt8])
        /// A value logged as private: its bytes are not in the public data.
        case privateValue
        /// The precision or width of the next argument (`%.*s`).
        case precision(Int64)
        /// A value kept elsewhere: in the oversize chunk the entry names (``FirehoseLogEntry/oversizeReference``).
        case elsewhere
    }

    package var formatSource: FormatSource
    /// The caller's address (used as the offset for absolute entries).
    package var callerAddress: UInt32
    /// The subsystem's identifier in the catalog's process entry, when the entry has one.
    package var subsystemID: UInt16?
    /// The oversize chunk holding the arguments, when they did not fit here.
    package var oversizeReference: UInt32?
    package var arguments: [Argument]

    /// Reads the data of a non-activity tracepoint with `flags`.
    package init(data: UnsafeRawBufferPointer, flags: UInt16, at offset: Int = 0) throws(UnifiedLogError) {
        var reader = UnifiedLogBytes(data, structure: "firehose log entry", offset: 0)
        if flags & 0x0001 != 0 { try reader.skip(8) }
        if flags & 0x0100 != 0 { try reader.skip(4) }
        callerAddress = try reader.u32()
        switch flags & 0x000E {
        case 0x0002:
            formatSource = .mainExecutable
        case 0x0004:
            formatSource = .sharedCache(largeOffset: flags & 0x0020 != 0 ? try reader.u16() : 0, largeSharedCache: 0)
        case 0x000C:
            let largeOffset = flags & 0x0020 != 0 ? try reader.u16() : 0
            formatSource = .sharedCache(largeOffset: largeOffset, largeSharedCache: try reader.u16())
        case 0x0008:
            formatSource = .absolute(addressHigh: try reader.u16())
        case 0x000A:
            formatSource = .uuidRelative(try reader.uuid())
        default:
            throw UnifiedLogError("firehose log entry", at: offset, "format string location flags 0x\(String(flags & 0x000E, radix: 16))")
        }
        subsystemID = flags & 0x0200 != 0 ? try reader.u16() : nil
        if flags & 0x0400 != 0 { try reader.skip(1) }
        oversizeReference = flags & 0x0800 != 0 ? try reader.u32() : nil
        // iOS 27's persona (flag 0x0040): 4 bytes before the arguments in most entries that have the flag, none in
        // the others (the process's catalog entry then names it). Read with them first, kept when the arguments'
        // values then fill the string area exactly (as they do in every entry of the real files without a
        // backtrace), else read without.
        if flags & 0x0040 != 0, reader.remaining >= 6 {
            var withPersona = reader
            try withPersona.skip(4)
            if let read = try? Self.arguments(&withPersona, data: data, oversize: oversizeReference != nil, at: offset),
               read.fillsStringArea || flags & 0x1000 != 0 {
                arguments = read.arguments
                return
            }
        }
        arguments = try Self.arguments(&reader, data: data, oversize: oversizeReference != nil, at: offset).arguments
    }

    /// The arguments held in `data` as an entry holds them (an oversize chunk's public data).
    static func arguments(ofItems data: UnsafeRawBufferPointer, at offset: Int) throws(UnifiedLogError) -> [Argument] {
        var reader = UnifiedLogBytes(data, structure: "oversize arguments", offset: 0)
        return try arguments(&reader, data: data, oversize: false, at: offset).arguments
    }

    /// The arguments: a flags byte, their count, a descriptor each, then the string area.
    private static func arguments(_ reader: inout UnifiedLogBytes, data: UnsafeRawBufferPointer, oversize: Bool,
                                  at offset: Int) throws(UnifiedLogError) -> (arguments: [Argument], fillsStringArea: Bool) {
        var arguments: [Argument] = []
        guard reader.remaining >= 2 else {
            // Every argument in the oversize chunk: said as one value kept elsewhere, not as an entry without arguments.
            return (oversize ? [.elsewhere] : [], reader.remaining == 0)
        }
        _ = try reader.u8()
        let count = Int(try reader.u8())
        var placed: [(index: Int, kind: UInt8, offset: Int, size: Int)] = []
        for _ in 0..<count {
            let kind = try reader.u8()
            let size = Int(try reader.u8())
            switch kind {
            case 0x00, 0x02:
                arguments.append(.number(try Self.number(&reader, size: size)))
            case 0x10, 0x12:
                arguments.append(.precision(try Self.number(&reader, size: size)))
            case 0x01:
                try reader.skip(4)
                arguments.append(.privateValue)
            case 0x20, 0x22, 0x40, 0x42, 0x30, 0x32, 0xF2:
                let place = Int(try reader.u16())
                let length = Int(try reader.u16())
                // The size's top bit marks a value cut to fit (a string of over 1 KiB): its bytes are the low 15 bits'.
                placed.append((arguments.count, kind, place, length & 0x7FFF))
                arguments.append(.string(nil))
            case 0x21, 0x25, 0x31, 0x35, 0x41, 0x81, 0xF1, 0x05, 0x45, 0x85:
                try reader.skip(4)
                arguments.append(.privateValue)
            default:
                throw UnifiedLogError("firehose log entry", at: offset + reader.offset - 2, "argument kind 0x\(String(kind, radix: 16))")
            }
        }
        // With an oversize reference, the values the descriptors place are in that chunk, not here.
        if oversize {
            for item in placed { arguments[item.index] = .elsewhere }
            return (arguments, reader.remaining == 0)
        }
        // The string area follows the descriptors; a backtrace (flag 0x1000) lies at its start, and the offsets count
        // from the area's start, past it.
        let strings = UnsafeRawBufferPointer(rebasing: data[reader.offset...])
        let filled = placed.map { $0.offset + $0.size }.max() ?? 0
        for item in placed {
            guard item.size > 0 else { continue }  // a null string or object
            guard item.offset <= strings.count, item.size <= strings.count - item.offset else {
                throw UnifiedLogError("firehose log entry", at: offset + reader.offset + item.offset,
                                      "an argument of \(item.size) bytes, \(max(strings.count - item.offset, 0)) in the string area")
            }
            let bytes = UnsafeRawBufferPointer(rebasing: strings[item.offset..<(item.offset + item.size)])
            switch item.kind {
            case 0x30, 0x32, 0xF2:
                arguments[item.index] = .bytes(Array(bytes))
            default:
                let end = bytes.firstIndex(of: 0) ?? bytes.count
                arguments[item.index] = .string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self))
            }
        }
        return (arguments, filled == strings.count)
    }

    private static func number(_ reader: inout UnifiedLogBytes, size: Int) throws(UnifiedLogError) -> Int64 {
        switch size {
        case 1: return Int64(Int8(bitPattern: try reader.u8()))
        case 2: return Int64(Int16(bitPattern: try reader.u16()))
        case 4: return Int64(Int32(bitPattern: try reader.u32()))
        case 8: return Int64(bitPattern: try reader.u64())
        default:
            try reader.skip(size)
            return 0
        }
    }
}
