import Foundation
public import PrewarmLintModel
public import PrewarmLintRules
public import PrewarmLintReporters
import PrewarmLintSessions
import PrewarmLintClassifier

/// One lint run, end to end: inputs → events → sessions → findings → a `LintReport`; the same
/// thing `prewarm-lint [PATH…]` does, for a library caller.
///
/// ```swift
/// let discovery = InputDiscovery.expand(["logs/"])
/// let report = LintRun(toolVersion: "1.0").run(discovery.inputs)
/// print(FindingTextReporter().render(report))
/// ```
public struct LintRun: Sendable {
    /// How inputs are read.
    public var options: ReadOptions
    /// The rules and their configuration.
    public var linter: Linter
    /// The version the report names.
    public var toolVersion: String
    /// Rebuild each input's sessions on its own instead of merging the inputs as one device's logs.
    public var separately: Bool
    /// Sessions open at once before the oldest is closed early.
    public var maximumOpenSessions: Int
    /// Inputs read at once (threads); the report is the same for any value.
    public var jobs = 1
    /// Starts the run's threads (the work falls back to fewer when the system refuses some).
    package var threads = ThreadStarter()
    /// A pasted document already cut (a paste in memory): a run of one input reads its parts, the input naming it.
    package var document: PastedDocument?

    /// A run; `toolVersion` is the version the report names.
    public init(options: ReadOptions = ReadOptions(), linter: Linter = Linter(), toolVersion: String, separately: Bool = false,
                maximumOpenSessions: Int = 10_000) {
        self.options = options
        self.linter = linter
        self.toolVersion = toolVersion
        self.separately = separately
        self.maximumOpenSessions = maximumOpenSessions
    }

    /// Sessions listed in a report at most; beyond, their findings are still reported and the rest counted.
    public static let maximumSessionsListed = 100_000

    /// Closed sessions kept in memory, encoded, before they are spooled to a temporary file as a sorted run (per
    /// group of inputs read as one device's logs); a report of more sessions than this keeps them in pages of a
    /// temporary file (`ReportList`) instead of in memory.
    public var sessionsInMemory = 8_192
    /// Where that temporary file is made (unlinked at once, so nothing is left behind); nil: `TMPDIR`, else `/tmp`.
    public var temporaryDirectory: String?
    /// Elements in a page of that file: read back and decoded at once, eight pages kept decoded.
    var spoolPageLength = 256
    /// Sessions listed at most (``maximumSessionsListed``; smaller in tests). A run whose every session matters, as the
    /// launch statistics', sets `Int.max`: the sessions past a few thousand wait in pages of a temporary file either way,
    /// so memory does not grow with them as long as the report's sessions are read in order.
    public var sessionsListed = LintRun.maximumSessionsListed
    /// Whether the sessions are checked by the rules: a run that only lists them (`sessions`) has no findings, and
    /// accounts for no hazard line that is in none.
    public var checksSessions = true

    /// Reads, rebuilds and checks. `onDiagnostic` sees each reader diagnostic as it happens.
    ///
    /// Each session is checked when it closes and then kept as an outline (milestones, no lines), encoded; past
    /// ``sessionsInMemory`` of them, they are spooled to a temporary file in sorted runs and merged into the
    /// report's pages at the end, so memory follows the open sessions, not the length of the log.
    public func run(_ inputs: [DiscoveredInput], onDiagnostic: (ReaderDiagnostic) -> Void = { _ in }) -> LintReport {
        var configured = SessionPipeline(reader: InputReader(options: options), signatures: linter.configuration.signatureTable(),
                                         maximumOpenSessions: maximumOpenSessions)
        configured.jobs = jobs
        configured.threads = threads
        // Inputs read separately, as many at once as there are jobs, fill the cores with a thread each: none reads ahead.
        if separately && inputs.count >= jobs { configured.readAheadMinimumBytes = .max }
        // Inputs that turn out to be separate captures are read again one by one: the merged reading stops there.
        configured.stopsAtSeparateCaptures = true
        let pipeline = configured
        // The inputs planned once: a pasted document cut once, so that reading its parts again one by one reads the same
        // (standard input too).
        let plan = InputPlan(inputs, options: options, cutsDocumentsUpTo: pipeline.maximumMergedStreams, document: document)
        let linter = self.linter
        let runLength = sessionsInMemory, directory = temporaryDirectory, listingLimit = sessionsListed, checks = checksSessions
        /// One group of inputs read as one device's logs: its sessions checked as they close and spooled, to be
        /// listed in the order every report uses (first milestone, app, order closed).
        @Sendable func lint(_ group: InputPlan, keeping: Int, onDiagnostic: (ReaderDiagnostic) -> Void)
            -> (result: SessionPipeline.Result, closed: ClosedSessionSpool, unreported: [UnreportedHazard]) {
            var closed = ClosedSessionSpool(runLength: runLength, directory: directory, listingLimit: listingLimit)
            var unreported: [UnreportedHazard] = []
            let check: (LaunchSession) -> LaunchSession? = { session in
                // Named once the listing order is known, at the end (`SessionListing`).
                let findings = checks ? linter.findings(inUnlisted: session) : []
                if checks { ReportAssembly.add(linter.unreportedHazards(in: session, findings: findings), to: &unreported) }
                closed.add(session, findings: findings)
                return nil
            }
            // What was said as it was read, so that reading the inputs again one by one does not say it twice.
            var said: Set<ReaderDiagnostic> = []
            var result = pipeline.run(group, onDiagnostic: { diagnostic in
                if said.count < 10_000 { said.insert(diagnostic) }
                onDiagnostic(diagnostic)
            }, onSession: check)
            if let captures = result.separateCaptures {
                // Two live processes of one app at once: not one device's logs. Each input is read on its own (the
                // merged reading stopped there); what it says that the merged reading had not said yet is said now.
                closed = ClosedSessionSpool(runLength: runLength, directory: directory, listingLimit: listingLimit)
                unreported.removeAll()
                let sayNew: (ReaderDiagnostic) -> Void = { diagnostic in
                    if !said.contains(diagnostic) { onDiagnostic(diagnostic) }
                }
                let isDocument = group.inputs.count == 1 && group.isDocument(0)
                result = pipeline.runApart(group, onDiagnostic: sayNew, onSession: check)
                let apart = isDocument ? "each block was read on its own" : "each input was read on its own (as --separately does)"
                let note = ReaderDiagnostic(code: .separateCaptures, severity: .warning,
                                            message: "\(captures.inputs.joined(separator: " and ")) hold two processes of \(captures.app) alive at once (pids \(captures.pids.map(String.init).joined(separator: " and "))): they are separate captures, not one device's logs, so \(apart)",
                                            origin: EventOrigin(input: captures.inputs[0], line: 0, byteOffset: 0), lineCount: 0)
                onDiagnostic(note)
                result.diagnostics.append(note)
            }
            closed.close(keeping: keeping)
            return (result, closed, unreported)
        }
        var result = SessionPipeline.Result()
        var spools: [ClosedSessionSpool] = []
        var unreported: [UnreportedHazard] = []
        if separately {
            // Inputs read separately are independent: several at once, put back in input order.
            // Each group's sessions wait for the others: past a thousand, in its file rather than in memory.
            let groups = InputParallelism.map(count: inputs.count, jobs: jobs, threads: threads, sizes: InputParallelism.sizes(of: inputs)) { index in
                lint(plan.input(index), keeping: inputs.count > 1 ? 1_024 : .max, onDiagnostic: { _ in })
            }
            for (one, spool, notReported) in groups {
                ReportAssembly.add(notReported, to: &unreported)
                for diagnostic in one.diagnostics { onDiagnostic(diagnostic) }
                result.append(one)
                spools.append(spool)
            }
        } else {
            let group = lint(plan, keeping: .max, onDiagnostic: onDiagnostic)
            (result, unreported) = (group.result, group.unreported)
            spools = [group.closed]
        }
        // Read separately, one spool per input, in input order: each listed session's input is known (and named, when
        // there is more than one).
        let listing = ClosedSessionSpool.listing(consume spools, limit: sessionsListed, sessionsInMemory: sessionsInMemory,
                                                 directory: temporaryDirectory, pageLength: spoolPageLength,
                                                 inputs: separately && inputs.count > 1 ? inputs.map(\.input.name) : nil)
        var assembly = ReportAssembly(toolVersion: toolVersion, maximumOpenSessions: pipeline.maximumOpenSessions,
                                      sessionsListed: sessionsListed, firstInput: inputs.first?.input.name ?? "-",
                                      linter: linter)
        for summary in result.summaries { assembly.add(summary) }
        assembly.readerDiagnostics = result.diagnostics
        assembly.sessionsClosedEarly = result.sessionsClosedEarly
        assembly.add(unreported)
        assembly.decisions = result.decisions
        assembly.duplicateEvents = result.duplicateEvents
        assembly.partial = options.interruption?.isRaised == true
        assembly.checked = checksSessions
        var report = assembly.report(listing: listing, onDiagnostic: onDiagnostic)
        report.renderingJobs = jobs
        report.threads = threads
        return report
    }

    /// An input's line in the report.
    public static func reportInput(_ summary: InputSummary) -> LintReport.Input {
        ReportAssembly.reportInput(summary)
    }
}

/// Findings a team has accepted: `--write-baseline` records them, `--baseline` hides them in later
/// runs. Keyed by content (rule, app, message with its numbers blanked), not line numbers, so a
/// new export of the same device still matches. The file is one key per line, sorted, with a
/// header comment: diff-friendly.
public struct Baseline: Sendable, Hashable {
    /// The keys of the accepted findings (`Finding.baselineKey`).
    public var keys: Set<String>

    /// A baseline of these keys.
    public init(keys: Set<String> = []) {
        self.keys = keys
    }

    /// A baseline accepting these findings.
    public init(findings: some Sequence<Finding>) {
        self.keys = Set(findings.map(\.baselineKey))
    }

    /// The first line of a baseline file of this version.
    public static let header = "# prewarm-lint baseline v1: rule|app|message (numbers as #). Findings listed here are not reported."

    /// Whether `text` is a baseline file prewarm-lint wrote: its first line is the header of version 1 (or of
    /// the baselines written before versions, `# prewarm-lint baseline: …`). Another file (a report, another
    /// tool's baseline) would otherwise hide nothing, silently.
    public static func isBaseline(_ text: String) -> Bool {
        let first = text.prefix { $0 != "\n" && $0 != "\r\n" }
        return first.hasPrefix("# prewarm-lint baseline v1:") || first.hasPrefix("# prewarm-lint baseline:")
    }

    /// Parses a baseline file's text; blank lines and `#` comments are ignored.
    public init(text: String) {
        self.keys = Set(text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    /// The baseline file: a header comment, then one key per line, sorted.
    public var text: String {
        Self.header + "\n"
            + keys.sorted().map { $0 + "\n" }.joined()
    }

    /// Why a baseline file could not be used.
    public struct ReadError: Error, Sendable {
        /// What to tell the user (`not a prewarm-lint baseline (…)`).
        public var message: String
    }

    /// The baseline in the file at `path`: refused when it is larger than `maximumBytes`, not UTF-8, or not a file
    /// prewarm-lint wrote (``isBaseline(_:)``), so that a wrong file never silently hides nothing.
    public static func read(path: String, maximumBytes: Int) -> Result<Baseline, ReadError> {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumBytes {
            return .failure(ReadError(message: "the baseline file is \(size) bytes; at most \(maximumBytes) are read"))
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            return .failure(ReadError(message: "cannot read the baseline file (write one with --write-baseline)"))
        }
        guard isBaseline(text) else {
            return .failure(ReadError(message: "not a prewarm-lint baseline (its first line is not '# prewarm-lint baseline v1: …'); write one with --write-baseline"))
        }
        return .success(Baseline(text: text))
    }

    /// The findings not in the baseline, and how many were.
    public func filter(_ findings: some Collection<Finding>) -> (kept: [Finding], suppressed: Int) {
        let kept = findings.filter { !keys.contains($0.baselineKey) }
        return (kept, findings.count - kept.count)
    }

    /// The baselined findings this run no longer has (fixed, or their logs no longer read), sorted: what a strict
    /// baseline fails on, so that a fix shrinks the baseline instead of leaving room for the finding to come back.
    public func gone(from findings: some Sequence<Finding>) -> [String] {
        let present = Set(findings.map(\.baselineKey))
        return keys.subtracting(present).sorted()
    }
}
