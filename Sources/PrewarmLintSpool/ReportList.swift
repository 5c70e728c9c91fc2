#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The sessions, session ids or findings of a `LintReport`: an array, or — for a run with more sessions
/// than fit comfortably in memory — pages of a temporary file read back as they are needed, so that a million
/// launches are reported in the memory of a few thousand. Either way a random-access collection in listing
/// order; reporters read it as they would an array.
public struct ReportList<Element: Sendable>: RandomAccessCollection, Sendable {
    enum Storage: Sendable {
        case array([Element])
        /// The records, or (`selection`) those at these positions of them, ascending.
        case spooled(SpooledRecords<Element>, selection: [Int32]?)
    }
    var storage: Storage

    /// A list of these elements, in this order.
    public init(_ elements: [Element] = []) {
        storage = .array(elements)
    }

    /// A list of these elements, in this order.
    public init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        storage = .array(Array(elements))
    }

    /// A list read back from pages of a temporary file.
    package init(spooled records: SpooledRecords<Element>) {
        storage = .spooled(records, selection: nil)
    }

    /// Whether the elements live in a temporary file rather than in memory.
    public var isSpooled: Bool {
        if case .spooled = storage { return true }
        return false
    }

    /// Pages of the temporary file read back and decoded so far (0 for a list in memory): what tests count to show a
    /// reporter reads a spooled list a bounded number of times, not once per element it looks up.
    package var pagesRead: Int {
        if case .spooled(let records, _) = storage { return records.pagesRead }
        return 0
    }

    /// Pages in the temporary file (0 for a list in memory).
    package var pageCount: Int {
        if case .spooled(let records, _) = storage { return records.pageCount }
        return 0
    }

    /// The first position.
    public var startIndex: Int { 0 }

    /// One past the last position.
    public var endIndex: Int {
        switch storage {
        case .array(let elements): elements.count
        case .spooled(let records, let selection): selection?.count ?? records.count
        }
    }

    /// The element at `position`.
    public subscript(position: Int) -> Element {
        switch storage {
        case .array(let elements): return elements[position]
        case .spooled(let records, nil): return records.element(at: position)
        case .spooled(let records, let selection?): return records.element(at: Int(selection[position]))
        }
    }

    /// The list with `transform` applied to each element; on a spooled list, as each page is read back (the file is
    /// not copied; a page is transformed once while it stays cached).
    public func mapElements(_ transform: @escaping @Sendable (Element) -> Element) -> ReportList {
        var copy = self
        switch storage {
        case .array(let elements): copy.storage = .array(elements.map(transform))
        case .spooled(let records, let selection): copy.storage = .spooled(records.mapped(transform), selection: selection)
        }
        return copy
    }

    /// The elements at these positions (ascending), in their order, none of them read: for a spooled list, a table of
    /// four bytes a position over the same pages, so that selecting many of a million spooled sessions does not bring
    /// them into memory.
    public func selecting(_ positions: [Int]) -> ReportList {
        precondition(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 } && positions.allSatisfy { indices.contains($0) },
                     "positions ascending, within the list")
        var copy = self
        switch storage {
        case .array(let elements): copy.storage = .array(positions.map { elements[$0] })
        case .spooled(let records, nil): copy.storage = .spooled(records, selection: positions.map { Int32($0) })
        case .spooled(let records, let selection?): copy.storage = .spooled(records, selection: positions.map { selection[$0] })
        }
        return copy
    }
}

extension ReportList: ExpressibleByArrayLiteral {
    /// A list of these elements.
    public init(arrayLiteral elements: Element...) {
        storage = .array(elements)
    }
}

extension ReportList: Equatable where Element: Equatable {
    /// Equal when they hold equal elements in the same order, wherever they are kept.
    public static func == (lhs: ReportList, rhs: ReportList) -> Bool {
        lhs.elementsEqual(rhs)
    }
}

/// A temporary file, unlinked as soon as it is made (nothing is left behind, whatever ends the run) and closed
/// with its last user.
package final class SpoolFile: @unchecked Sendable {
    /// Why the file could not be made, written or read.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What failed, and the system's reason.
        package var description: String
    }

    private let descriptor: Int32
    /// Bytes written so far: where the next append goes.
    private var size: Int64 = 0

    /// A new, empty file in `directory`, else in `TMPDIR`, else in `/tmp`.
    package init(directory: String? = nil) throws(Failure) {
        let directory = directory ?? getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/prewarm-lint-spool.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Failure(description: "cannot make a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        unlink(path)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // never inherited by a tool the run starts
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends `bytes`; returns where they start. Only one thread writes, before anyone reads.
    package func append(_ bytes: [UInt8]) throws(Failure) -> Int64 {
        let start = size
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(start) + off_t(written))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot write the temporary file of spooled sessions: \(String(cString: strerror(errno)))")
            }
            written += result
        }
        size += Int64(bytes.count)
        return start
    }

    /// Appends the raw `bytes` (standard input copied as it is read); `what` names the file in the failure.
    package func append(_ bytes: UnsafeRawBufferPointer, what: String) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let result = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(size) + off_t(written))
            if result < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot write \(what): \(String(cString: strerror(errno)))")
            }
            written += result
        }
        size += Int64(bytes.count)
    }

    /// Bytes written so far.
    package var byteCount: Int { Int(size) }

    /// Up to `buffer.count` bytes from `offset` into `buffer`: how many (0 at the end, -1 on a failure); safe from several
    /// threads at once.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        while true {
            let result = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if result < 0, errno == EINTR { continue }
            return result
        }
    }

    /// `count` bytes from `offset`, into `buffer` (resized); safe from several threads at once.
    package func read(at offset: Int64, count: Int, into buffer: inout [UInt8]) throws(Failure) {
        var failure: Failure?
        buffer = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            var done = 0
            while done < count {
                let result = pread(descriptor, storage.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if result < 0, errno == EINTR { continue }
                if result <= 0 {
                    failure = Failure(description: result == 0 ? "the temporary file of spooled sessions ends early"
                                        : "cannot read the temporary file of spooled sessions: \(String(cString: strerror(errno)))")
                    break
                }
                done += result
            }
            initialized = done
        }
        if let failure { throw failure }
    }
}

/// Elements written in pages to a ``SpoolFile`` and read back a page at a time, a few pages kept decoded.
package final class SpooledRecords<Element: Sendable>: Sendable {
    private let file: SpoolFile
    /// Where each page is in the file (pages of several lists may alternate in one file).
    private let pages: [(start: Int64, count: Int)]
    /// The elements.
    package let count: Int
    private let perPage: Int
    private let decode: @Sendable (inout SpoolReader) throws -> Element
    private let cache = Mutex<[(page: Int, elements: [Element])]>([])
    private let reads = Atomic<Int>(0)
    /// Pages read back and decoded so far.
    package var pagesRead: Int { reads.load(ordering: .relaxed) }
    /// Pages in the file.
    package var pageCount: Int { pages.count }
    /// Pages kept decoded (enough for every rendering thread to be on its own).
    static var cachedPages: Int { 8 }

    init(file: SpoolFile, pages: [(start: Int64, count: Int)], count: Int, perPage: Int, decode: @escaping @Sendable (inout SpoolReader) throws -> Element) {
        self.file = file
        self.pages = pages
        self.count = count
        self.perPage = perPage
        self.decode = decode
    }

    /// The same elements, each passed through `transform` as its page is read back.
    func mapped(_ transform: @escaping @Sendable (Element) -> Element) -> SpooledRecords {
        let decode = self.decode
        return SpooledRecords(file: file, pages: pages, count: count, perPage: perPage, decode: { transform(try decode(&$0)) })
    }

    /// The element at `index`, its page read back if it is not among the cached ones.
    package func element(at index: Int) -> Element {
        precondition(index >= 0 && index < count, "index \(index) out of a list of \(count)")
        let page = index / perPage
        // Found by position, then read in place: `first(where:)` copied each cached page's tuple (retaining and releasing
        // its array) on every element read, a sixth of `prewarm-lint sessions`' time.
        if let hit = cache.withLock({ pages -> Element? in
            guard let at = pages.firstIndex(where: { $0.page == page }) else { return nil }
            return pages[at].elements[index - page * perPage]
        }) {
            return hit
        }
        let elements = readPage(page)
        cache.withLock { pages in
            if pages.count >= Self.cachedPages { pages.removeFirst() }
            pages.append((page, elements))
        }
        return elements[index - page * perPage]
    }

    private func readPage(_ page: Int) -> [Element] {
        reads.add(1, ordering: .relaxed)
        var bytes: [UInt8] = []
        do {
            try file.read(at: pages[page].start, count: pages[page].count, into: &bytes)
            let expected = min(perPage, count - page * perPage)
            return try bytes.withUnsafeBytes { buffer in
                var reader = SpoolReader(buffer)
                var elements: [Element] = []
                elements.reserveCapacity(expected)
                for _ in 0..<expected { elements.append(try decode(&reader)) }
                guard reader.isAtEnd else { throw SpoolReader.DamagedSpool(reason: "page \(page) is longer than its elements") }
                return elements
            }
        } catch {
            // The file is this process's own, unlinked when made: only a failing disk gets here. A report cannot
            // be written without its sessions, and writing one without them would be a false report.
            preconditionFailure("prewarm-lint: \(error)")
        }
    }
}

/// Writes elements to a ``SpoolFile`` a page at a time, then hands them over as a ``SpooledRecords``.
package struct SpooledRecordsWriter<Element: Spoolable & Sendable> {
    private let file: SpoolFile
    private let perPage: Int
    private var pages: [(start: Int64, count: Int)] = []
    private var page = SpoolWriter()
    private var inPage = 0
    private var count = 0

    /// A writer of pages of `perPage` elements into `file`.
    package init(file: SpoolFile, perPage: Int = 256) {
        self.file = file
        self.perPage = perPage
    }

    /// Adds the next element.
    package mutating func append(_ element: Element) throws(SpoolFile.Failure) {
        element.spool(into: &page)
        inPage += 1
        count += 1
        if inPage == perPage { try flush() }
    }

    /// Adds the next element as ``SpoolWriter`` wrote it.
    package mutating func append(encoded bytes: [UInt8]) throws(SpoolFile.Failure) {
        page.bytes.append(contentsOf: bytes)
        inPage += 1
        count += 1
        if inPage == perPage { try flush() }
    }

    private mutating func flush() throws(SpoolFile.Failure) {
        guard inPage > 0 else { return }
        pages.append((try file.append(page.bytes), page.bytes.count))
        page.bytes.removeAll(keepingCapacity: true)
        inPage = 0
    }

    /// Every element given so far, read back from the pages written and the page not yet written: what a writer
    /// whose file failed hands back to memory.
    package func recovered() -> [Element] {
        let written = SpooledRecords<Element>(file: file, pages: pages, count: count - inPage, perPage: perPage,
                                              decode: { try Element(unspooling: &$0) })
        var elements = (0..<written.count).map { written.element(at: $0) }
        page.bytes.withUnsafeBytes { bytes in
            var reader = SpoolReader(bytes)
            for _ in 0..<inPage {
                guard let element = try? Element(unspooling: &reader) else { preconditionFailure("prewarm-lint: a page in memory does not read back") }
                elements.append(element)
            }
        }
        return elements
    }

    /// The elements written, to read back.
    package mutating func finish() throws(SpoolFile.Failure) -> SpooledRecords<Element> {
        try flush()
        return SpooledRecords(file: file, pages: pages, count: count, perPage: perPage,
                              decode: { try Element(unspooling: &$0) })
    }
}

/// Builds a ``ReportList`` element by element: in memory, or in pages of a temporary file. A file that fails
/// (a full disk) is read back and the list goes on in memory, its ``failure`` said.
package struct ReportListBuilder<Element: Spoolable & Sendable> {
    private var elements: [Element] = []
    private var writer: SpooledRecordsWriter<Element>?
    /// Why the list could not stay in its file, if it could not.
    package private(set) var failure: String?

    /// A builder into pages of `perPage` elements in `file`, or into memory when it is nil.
    package init(file: SpoolFile?, perPage: Int = 256) {
        writer = file.map { SpooledRecordsWriter(file: $0, perPage: perPage) }
    }

    /// Adds the next element.
    package mutating func append(_ element: Element) {
        guard writer != nil else { return elements.append(element) }
        do {
            try writer!.append(element)
        } catch {
            // The element is in the page that failed to be written: it comes back with the others.
            failure = error.description
            fallBack()
        }
    }

    /// Adds the next element, given as ``SpoolWriter`` wrote it: copied into the page as it is, or decoded for memory.
    package mutating func append(encoded bytes: [UInt8]) {
        guard writer != nil else {
            let element = bytes.withUnsafeBytes { buffer -> Element in
                var reader = SpoolReader(buffer)
                guard let element = try? Element(unspooling: &reader), reader.isAtEnd else {
                    preconditionFailure("prewarm-lint: an encoded element does not read back")
                }
                return element
            }
            return elements.append(element)
        }
        do {
            try writer!.append(encoded: bytes)
        } catch {
            failure = error.description
            fallBack()
        }
    }

    /// Moves what the file holds into memory (the last page, not yet written, included).
    private mutating func fallBack() {
        guard let current = writer else { return }
        writer = nil
        elements = current.recovered() + elements
    }

    /// The list.
    package mutating func finish() -> ReportList<Element> {
        guard var current = writer else { return ReportList(elements) }
        do {
            return ReportList(spooled: try current.finish())
        } catch {
            failure = error.description
            fallBack()
            return ReportList(elements)
        }
    }
}
