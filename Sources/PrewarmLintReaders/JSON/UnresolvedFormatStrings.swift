import PrewarmLintModel

/// The entries of a unified log whose format string its exporter could not find (mandiant's `unifiedlog_iterator` on
/// an archive copied without its `dsc/` or `uuidtext/` folders, or older than the archive): their message is a
/// placeholder (`Unknown shared string message`), so what they said — a launch, a kill — cannot be read. Counted by
/// process (the first ``maximumProcesses`` named, the rest counted together) and said once at the end, so that an archive
/// whose launch lines could not be read is never "no launches" unsaid.
struct UnresolvedFormatStrings {
    /// The placeholders mandiant's parser writes for a message whose format string it could not find.
    static let placeholders: [StaticString] = ["Unknown shared string message", "Failed to get string message from ",
                                               "Error: Invalid shared string offset", "Error: Invalid offset "]
    /// The processes named in the warning at most.
    static let maximumProcesses = 16

    private var byProcess: [(name: String, count: Int)] = []
    private var others = 0
    private var first: EventOrigin?

    /// Whether `message` (a record's message bytes) is a placeholder for a format string not found.
    static func isPlaceholder(_ message: UnsafeRawBufferPointer) -> Bool {
        guard message.count >= 21 else { return false }
        return placeholders.contains { message.firstIndex(of: $0, from: 0) != nil }
    }

    /// Counts an entry of `process` whose message is a placeholder.
    mutating func count(process: String, at origin: EventOrigin) {
        first = first ?? origin
        if let at = byProcess.firstIndex(where: { $0.name == process }) {
            byProcess[at].count += 1
        } else if byProcess.count < Self.maximumProcesses {
            byProcess.append((process, 1))
        } else {
            others += 1
        }
    }

    /// The warning that says them, or nil when there were none.
    func diagnostic() -> ReaderDiagnostic? {
        guard let first else { return nil }
        let total = byProcess.reduce(others) { $0 + $1.count }
        var processes = byProcess.sorted { $0.count > $1.count }.map { "\($0.name.isEmpty ? "(no process)" : $0.name) \($0.count)" }
        if others > 0 { processes.append("others \(others)") }
        let entries = total == 1 ? "1 entry has" : "\(total) entries have"
        return ReaderDiagnostic(code: .unresolvedFormatString, severity: .warning,
                                message: "\(entries) no format string (the exporter could not find it: an archive without its dsc/ or uuidtext/ folders, or an exporter older than the archive): \(processes.joined(separator: ", ")); what they said, launches and kills among it, cannot be read",
                                origin: first, lineCount: 0)
    }
}
