/// Where a tar archive's unified log goes when the run can export it: the entries under a `*.logarchive/` folder of
/// a sysdiagnose are handed to it, one after the other, as they stream past (the tar reader).
///
/// The readers write nothing to disk themselves; the library's input reader supplies an extractor that writes the
/// entries into a private temporary folder, under names it has checked, within a size limit, and then runs the
/// archive's exporting tool on it. Called on the thread that reads the input, never concurrently.
public protocol ArchiveEntryExtractor: AnyObject, Sendable {
    /// A `*.logarchive/…` entry of `size` bytes begins; `path` is its name inside the archive (as written: it may
    /// hold `..` or be absolute, and must be checked). False: it is not wanted (its bytes are passed over).
    func begin(path: String, size: Int) -> Bool
    /// The next bytes of the entry begun.
    func write(_ bytes: UnsafeRawBufferPointer)
    /// The entry begun is complete.
    func end()
}
