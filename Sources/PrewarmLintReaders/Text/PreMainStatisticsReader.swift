import PrewarmLintModel

/// Reads dyld's launch statistics (``PreMainStatistics``) out of text lines, whatever is around them: a line state
/// machine handed each line (``take(_:number:byteOffset:)``) that says whether the line is a statistics line, and hands
/// back each block as it ends (at a line that is not one, a new block's first line, or ``finish()``).
///
/// A block opens at `Total pre-main time: …` (the summary) or `total time: … (100.0%)` (the details). Its lines are the
/// labels dyld prints (`dylib loading time: …`, `total binding fixups: …`), and after `slowest intializers :` (dyld's
/// spelling) or `total time in initializers and ObjC +load: …` one line per image (`Trust :  46.08 milliseconds (6.3%)`).
/// Lines are read after their indentation; Markdown's bold (`**…**`) around a line is taken off. The details block
/// pasted right after the summary (or before it) is the same launch's: one statistics value.
struct PreMainStatisticsReader {
    private enum Block { case summary, details }
    private var open: PreMainStatistics? {
        didSet { isOpen = open != nil }
    }
    /// Whether a block is open (kept apart from it: asked of every line, it touches none of the block's storage).
    private(set) var isOpen = false
    /// The block the lines now read belong to, and whether image lines may come.
    private var block: Block?
    private var imagesFollow = false
    private var inputName: String

    /// Longer lines are no statistics line.
    static let maximumLineLength = 400

    init(inputName: String) {
        self.inputName = inputName
    }

    /// Whether ``take(_:number:byteOffset:)`` may take `line` or end a block: a block is open, or the line's first
    /// letter may open one (`T`, `t`, or Markdown's `*`). Asked of every line of a document before anything else.
    @inline(__always) func mayTake(_ line: UnsafeRawBufferPointer) -> Bool {
        if isOpen { return true }
        var index = 0
        while index < line.count, line[index] == .space || line[index] == .tab { index += 1 }
        guard index < line.count else { return false }
        let first = line[index]
        return first == UInt8(ascii: "T") || first == UInt8(ascii: "t") || first == UInt8(ascii: "*")
    }

    /// The next line (without its line break): whether it is a statistics line, and the block that ended before it, if
    /// one did (the line is not a statistics line, or opens a new block).
    mutating func take(_ line: UnsafeRawBufferPointer, number: Int, byteOffset: Int) -> (taken: Bool, ended: PreMainStatistics?) {
        var start = 0
        while start < line.count, line[start] == .space || line[start] == .tab { start += 1 }
        // Most lines are not: the first letter of every statistics line but an image's is `T`, `t`, `d`, `r`, `O`, `i`, `s`.
        if open == nil {
            guard start < line.count, line[start] == UInt8(ascii: "T") || line[start] == UInt8(ascii: "t") || line[start] == UInt8(ascii: "*"),
                  line.count <= Self.maximumLineLength else { return (false, nil) }
        } else if line.count > Self.maximumLineLength {
            return (false, finish())
        } else if start == line.count || (start == line.count - 1 && line[start] == .carriageReturn) {
            // A blank line in a fence between the summary and the details, or within the details: the block goes on.
            return (true, nil)
        }
        guard let parsed = Self.parse(line.slice(start, line.count)) else { return (false, open == nil ? nil : finish()) }
        let (label, value) = parsed
        var ended: PreMainStatistics?
        // A block's first line.
        if label == "Total pre-main time" || label == "total time", let measure = Self.measure(value) {
            let kind: Block = label == "total time" ? .details : .summary
            if var current = open, (kind == .summary ? current.preMainTime : current.detailsTotal) == nil {
                // The other block of the same launch.
                if kind == .summary { current.preMainTime = measure } else { current.detailsTotal = measure }
                current.lineCount += 1
                open = current
            } else {
                ended = finish()
                var statistics = PreMainStatistics(origin: EventOrigin(input: inputName, line: number, byteOffset: byteOffset), lineCount: 1)
                if kind == .summary { statistics.preMainTime = measure } else { statistics.detailsTotal = measure }
                open = statistics
            }
            check(measure, line: line)
            block = kind
            imagesFollow = false
            return (true, ended)
        }
        guard open != nil, let block else { return (false, nil) }
        if read(label: label, value: value, in: block, line: line) {
            open!.lineCount += 1
            return (true, nil)
        }
        return (false, finish())
    }

    /// Whether `line` opens a block of dyld's statistics (`Total pre-main time: …`, `total time: … (100.0%)`).
    static func opensBlock(_ line: UnsafeRawBufferPointer) -> Bool {
        var reader = PreMainStatisticsReader(inputName: "")
        return reader.take(line, number: 1, byteOffset: 0).taken
    }

    /// Ends the block open, if any, and hands it back.
    mutating func finish() -> PreMainStatistics? {
        defer {
            open = nil
            block = nil
            imagesFollow = false
        }
        return open
    }

    /// A line of the open block: whether it is one.
    private mutating func read(label: String, value: Substring, in block: Block, line: UnsafeRawBufferPointer) -> Bool {
        let measure = Self.measure(value)
        if let phase = Self.phase(label, in: block) {
            guard let measure else { return false }
            check(measure, line: line)
            if !open!.phases.contains(where: { $0.phase == phase }) { open!.phases.append(.init(phase: phase, time: measure)) }
            imagesFollow = phase == .initializers && block == .details
            return true
        }
        switch block {
        case .summary:
            if label == "slowest intializers" || label == "slowest initializers", value.isEmpty {
                imagesFollow = true
                return true
            }
        case .details:
            if label == "total images loaded" {
                // `243 (0 from dyld shared cache)`, or dyld 2's `… (12 used prebinding)`.
                let words = value.split(separator: " ")
                open!.imagesLoaded = words.first.flatMap { Self.count($0) }
                if words.count >= 2, words[1].hasPrefix("("), value.hasSuffix("from dyld shared cache)") {
                    open!.imagesFromSharedCache = Self.count(words[1].dropFirst())
                }
                imagesFollow = false
                return true
            }
            // The other details lines (`total rebase fixups:  17,959`, `total symbol trie searches:    134823`).
            if label.hasPrefix("total ") {
                imagesFollow = false
                return true
            }
        }
        guard imagesFollow, let measure, !label.isEmpty, !label.hasPrefix("total ") else { return false }
        check(measure, line: line)
        if open!.initializers.count < PreMainStatistics.maximumInitializers {
            open!.initializers.append(.init(image: label, time: measure))
        } else {
            open!.initializersNotKept += 1
        }
        return true
    }

    private static func phase(_ label: String, in block: Block) -> PreMainStatistics.Phase? {
        switch (block, label) {
        case (.summary, "dylib loading time"): .dylibLoading
        case (.details, "total images loading time"): .imagesLoading
        case (.summary, "rebase/binding time"): .rebaseBinding
        case (.summary, "ObjC setup time"), (.details, "total load time in ObjC"): .objcSetup
        case (.summary, "initializer time"), (.details, "total time in initializers and ObjC +load"), (.details, "total init time time"): .initializers
        case (.details, "total rebase fixups time"): .rebaseFixups
        case (.details, "total binding fixups time"): .bindingFixups
        case (.details, "total weak binding fixups time"): .weakBindingFixups
        case (.details, "total redo shared cached bindings time"): .sharedCacheBindings
        case (.details, "total debugger pause time"): .debuggerPause
        case (.details, "total dtrace DOF registration time"): .dtraceRegistration
        default: nil
        }
    }

    /// A value dyld could not have measured is said as printed (the line, trimmed), not read.
    private mutating func check(_ measure: PreMainStatistics.Measure, line: UnsafeRawBufferPointer) {
        guard measure.milliseconds == nil, open!.unbelievable.count < 16 else { return }
        let text = String(decoding: line, as: UTF8.self).drop { $0 == " " || $0 == "\t" }
        open!.unbelievable.append(DisplayText.singleLine(String(text)))
    }

    /// `label : value` or `label: value`, the line's bold taken off; nil for a line of another shape.
    static func parse(_ line: UnsafeRawBufferPointer) -> (label: String, value: Substring)? {
        guard line.firstIndex(of: UInt8(ascii: ":"), from: 0) != nil else { return nil }
        var text = Substring(String(decoding: line, as: UTF8.self))
        while text.hasPrefix("*") { text = text.dropFirst() }
        while text.hasSuffix("*") { text = text.dropLast() }
        guard let split = text.firstIndex(of: ":") else { return nil }
        let label = text[..<split].trimmingSpaces
        let value = text[text.index(after: split)...].trimmingSpaces
        guard !label.isEmpty, label.count <= 120 else { return nil }
        return (String(label), value)
    }

    /// `722.04 milliseconds (100.0%)`, `1.3 seconds (100.0%)`; nil for another shape. A value over an hour or over 100%
    /// is kept as printed with no milliseconds.
    static func measure(_ value: Substring) -> PreMainStatistics.Measure? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 3 || words.count == 2, let number = Double(words[0]), number.isFinite, number >= 0 else { return nil }
        let scale: Double
        switch words[1] {
        case "milliseconds": scale = 1
        case "seconds": scale = 1000
        default: return nil
        }
        var percent: Double?
        if words.count == 3 {
            let share = words[2]
            guard share.hasPrefix("("), share.hasSuffix("%)"), let read = Double(share.dropFirst().dropLast(2)), read.isFinite else { return nil }
            percent = read
        }
        let milliseconds = number * scale
        let believable = milliseconds <= 3_600_000 && (percent ?? 0) <= 100.05
        return PreMainStatistics.Measure(milliseconds: believable ? milliseconds : nil, percent: percent, text: String(value))
    }

    /// `17,959`, `134823`.
    private static func count(_ word: Substring) -> Int? {
        let digits = word.filter { $0 != "," }
        guard !digits.isEmpty, digits.count <= 12 else { return nil }
        return Int(digits)
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return text
    }
}
