/// The process names holding a space that an input of space-separated columns shows in its messages, as
/// `Name With Space[pid]` at a message's start (securityd's `Ledger Pro[2231]/1#4 copy_matching …`), at most
/// ``capacity`` of them: a head whose process word, with the words after it, spells one of them is read with the whole
/// name, its message starting after it. A name is known from the first line that shows it: a line of the app before
/// it keeps the process's first word, as the reader's note says.
struct SpacedProcessNames {
    static let capacity = 1024
    private var names: Set<[UInt8]> = []

    /// Learns a name from the head's message, then completes the head's process with a name learnt.
    mutating func read(_ line: UnsafeRawBufferPointer, head: inout TextRecordHead) {
        let message = head.message
        if names.count < Self.capacity, let bracket = line.firstIndex(of: UInt8(ascii: "["), from: message.lowerBound), bracket < line.count,
           bracket - message.lowerBound <= 64 {
            let name = line.slice(message.lowerBound, bracket)
            if name.contains(.space), name.first != .space, name.last != .space, line.digitsFollow(at: bracket + 1) {
                names.insert(Array(name))
            }
        }
        guard !names.isEmpty, let process = head.process, process.upperBound < line.count, line[process.upperBound] == .space else { return }
        // The longest name learnt that the line spells from the process's first word on.
        var best: Int?
        for name in names where name.count > process.count && process.lowerBound + name.count <= line.count {
            let spelled = line.slice(process.lowerBound, process.lowerBound + name.count)
            guard spelled.elementsEqual(name) else { continue }
            let end = process.lowerBound + name.count
            guard end == line.count || line[end] == .space else { continue }
            if best.map({ end > $0 }) ?? true { best = end }
        }
        guard let end = best else { return }
        head.process = process.lowerBound..<end
        var start = end
        while start < line.count, line[start] == .space { start += 1 }
        head.message = start..<line.count
    }
}

extension UnsafeRawBufferPointer {
    /// Whether digits and then `]` are at `index`.
    fileprivate func digitsFollow(at index: Int) -> Bool {
        var at = index
        while at < count, self[at] &- 0x30 <= 9 { at += 1 }
        return at > index && at < count && self[at] == UInt8(ascii: "]")
    }
}
