/// A JSON document read as a stream of bytes, keeping only the values at the paths a reader asks for.
///
/// A small state machine: the containers it is inside (each an object with its current key, or an array with
/// its current index), whether it is in a string, and the value being kept, if any. Each value whose path
/// ``wants`` accepts is kept whole (up to the limit it gives, whitespace inside containers included, so line
/// breaks can place what is in it) and handed to ``take`` when it ends; everything else — a MetricKit call-stack
/// tree, an `.ips` report's threads — passes through without being stored. Memory is bounded by the deepest path
/// followed (``maximumFollowedDepth``; deeper nesting is counted, not remembered) and the limit per kept value,
/// whatever the document's size or shape. Malformed JSON ends the reading (``error``), keeping what was taken.
struct JSONPathCapture {
    /// One step of a path: an object's key or an array's index.
    enum Step: Equatable, Sendable {
        case key(String)
        case index(Int)
    }

    /// A kept value: its path, its bytes (for ``JSONObjectScanner``), and where it started.
    struct Value {
        var path: [Step]
        var bytes: [UInt8]
        var line: Int
        var byteOffset: Int
        /// True when the value was longer than the limit: `bytes` is then empty.
        var overflowed: Bool
    }

    static let maximumFollowedDepth = 64

    /// Whether the value at a path is kept, and how many bytes it may have: nil, not kept.
    let wants: ([Step]) -> Int?

    private struct Frame {
        var isObject: Bool
        var key: String?
        var index = -1
        var expectingKey = true
    }

    private var frames: [Frame] = []
    /// Containers opened below the followed depth, counted only.
    private var unfollowedDepth = 0
    private var inString = false
    private var escaped = false
    private var readingKey = false
    private var key: [UInt8] = []
    private var inScalar = false
    private(set) var line = 1
    private(set) var byteOffset = 0
    /// Whether the top-level value has ended.
    private(set) var isComplete = false
    /// What made the document unreadable, if anything.
    private(set) var error: String?

    // The value being kept.
    private var keeping: Value?
    private var keepingDepth = 0
    private var keepingLimit = 0

    /// A capture keeping the values `wants` gives a limit for; positions counted from `line` and `byteOffset`
    /// (a document that starts after a first line of another kind).
    init(line: Int = 1, byteOffset: Int = 0, wants: @escaping ([Step]) -> Int?) {
        self.line = line
        self.byteOffset = byteOffset
        self.wants = wants
    }

    /// A capture keeping the values `wants` accepts, up to `limit` bytes each.
    init(limit: Int, wants: @escaping ([Step]) -> Bool) {
        self.init { wants($0) ? limit : nil }
    }

    /// Whether anything but whitespace has been read: the document has begun.
    private(set) var hasBegun = false
    /// The first byte of the document (`{` for an object), once read.
    private(set) var firstByte: UInt8?

    /// The path of the value that starts now.
    private var path: [Step] {
        frames.map { frame in frame.isObject ? .key(frame.key ?? "") : .index(frame.index) }
    }

    /// Reads the next bytes; `take` receives each kept value as it ends.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, take: (Value) -> Void) {
        for byte in bytes {
            step(byte, take: take)
            if byte == .newline { line += 1 }
            byteOffset += 1
        }
    }

    /// Reads the next bytes up to the end of the top-level value, if it ends among them; `take` receives each kept value
    /// as it ends. The bytes read: all of them, or those up to and including the value's last.
    mutating func feedToEnd(_ bytes: UnsafeRawBufferPointer, take: (Value) -> Void) -> Int {
        for (index, byte) in bytes.enumerated() {
            step(byte, take: take)
            if byte == .newline { line += 1 }
            byteOffset += 1
            if isComplete { return index + 1 }
        }
        return bytes.count
    }

    /// Ends the document: a value still open is not taken. True when the document was whole.
    mutating func finish() -> Bool {
        if inScalar { endScalar(take: { _ in }) }
        return isComplete && error == nil
    }

    private mutating func step(_ byte: UInt8, take: (Value) -> Void) {
        guard error == nil else { return }
        if !hasBegun, !(byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn) {
            hasBegun = true
            firstByte = byte
        }
        if inString {
            keep(byte)
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if readingKey {
                    readingKey = false
                } else if keeping != nil, keepingDepth == currentDepth {
                    finishKeeping(take: take)
                }
            } else if readingKey, key.count < 256 {
                key.append(byte)
            }
            return
        }
        if inScalar {
            switch byte {
            case .space, .tab, .newline, .carriageReturn, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"):
                endScalar(take: take)
            default:
                keep(byte)
                return
            }
        }
        switch byte {
        case .space, .tab, .newline, .carriageReturn:
            if keeping != nil { keep(byte) }
        case UInt8(ascii: "\""):
            if unfollowedDepth == 0, let last = frames.last, last.isObject, last.expectingKey {
                readingKey = true
                key.removeAll(keepingCapacity: true)
                inString = true
                keep(byte)
                return
            }
            startValue()
            inString = true
            keep(byte)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if isComplete { error = "bytes after the document"; return }
            startValue()
            keep(byte)
            if unfollowedDepth > 0 || frames.count >= Self.maximumFollowedDepth {
                unfollowedDepth += 1
            } else {
                frames.append(Frame(isObject: byte == UInt8(ascii: "{")))
            }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            keep(byte)
            if unfollowedDepth > 0 {
                unfollowedDepth -= 1
            } else if frames.popLast() == nil {
                error = "a closing bracket with nothing open"
                return
            }
            if keeping != nil, keepingDepth == currentDepth { finishKeeping(take: take) }
            if frames.isEmpty, unfollowedDepth == 0 { isComplete = true }
        case UInt8(ascii: ":"):
            keep(byte)
            if unfollowedDepth == 0, !frames.isEmpty, frames[frames.count - 1].isObject {
                frames[frames.count - 1].key = String(decoding: key, as: UTF8.self)
                frames[frames.count - 1].expectingKey = false
            }
        case UInt8(ascii: ","):
            keep(byte)
            if unfollowedDepth == 0, !frames.isEmpty, frames[frames.count - 1].isObject {
                frames[frames.count - 1].expectingKey = true
            }
        default:
            if isComplete { error = "bytes after the document"; return }
            // A number, true, false or null.
            startValue()
            inScalar = true
            keep(byte)
        }
    }

    private var currentDepth: Int { frames.count + unfollowedDepth }

    /// A value starts: counted in its array, and kept when its path is wanted.
    private mutating func startValue() {
        guard unfollowedDepth == 0 else { return }
        if let last = frames.last, !last.isObject { frames[frames.count - 1].index += 1 }
        guard keeping == nil, let limit = wants(path) else { return }
        keeping = Value(path: path, bytes: [], line: line, byteOffset: byteOffset, overflowed: false)
        keepingDepth = currentDepth
        keepingLimit = limit
    }

    private mutating func endScalar(take: (Value) -> Void) {
        inScalar = false
        if keeping != nil, keepingDepth == currentDepth { finishKeeping(take: take) }
        if frames.isEmpty, unfollowedDepth == 0 { isComplete = true }
    }

    private mutating func keep(_ byte: UInt8) {
        guard keeping != nil, !keeping!.overflowed else { return }
        if keeping!.bytes.count < keepingLimit {
            keeping!.bytes.append(byte)
        } else {
            keeping!.overflowed = true
            keeping!.bytes = []
        }
    }

    private mutating func finishKeeping(take: (Value) -> Void) {
        if let value = keeping { take(value) }
        keeping = nil
    }
}
