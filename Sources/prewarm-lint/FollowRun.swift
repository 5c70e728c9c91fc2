import Foundation
import PrewarmLint
import Synchronization

/// `lint --follow`: one input linted as it arrives, each answer printed (and flushed) as soon as it is decided; the end
/// of the input or Ctrl-C ends the run normally, with the summary and the findings' exit status; SIGTERM or SIGHUP ends it
/// with the report marked partial (``endedBySignal``).
struct FollowRun {
    /// The formats that can print as a log arrives: one record or annotation at a time. The others (json, sarif,
    /// markdown, html, junit) are documents of every session, written once at the end.
    static let formats: [ReportFormat] = [.text, .ndjson, .github]

    var input: FollowedInput
    var live: LiveLint
    let format: ReportFormat
    let settings: ReportFormat.Settings
    let showsStatus: Bool
    let maximumDiagnostics: Int

    /// Reads until the input ends or the user stops the run; the report of everything read.
    mutating func run() -> (report: LintReport?, failure: String?) {
        let status = LiveStatusLine(input: input.path)
        if showsStatus { ProgressLine.shared.start(totalBytes: nil, describe: { status.text }) }
        defer { ProgressLine.shared.stop() }
        var printer = LivePrinter(format: format, settings: settings, maximumDiagnostics: maximumDiagnostics)
        var failure: String?
        func say(_ update: LiveLint.Update) { printer.print(update) }
        // The run's clock is the live run's own (`LiveClock`), as the library's: the same arrivals, the same moments.
        let clock = ContinuousClock()
        reading: while !SignalHandling.interruption.isRaised {
            switch input.next() {
            case .bytes(let count):
                let now = clock.now
                let pushed: Result<Void, ReaderError> = input.buffer.withUnsafeBytes { bytes in
                    do throws(ReaderError) {
                        try live.push(UnsafeRawBufferPointer(rebasing: bytes[..<count]), arrivedAt: now, say)
                        return .success(())
                    } catch { return .failure(error) }
                }
                if case .failure(let error) = pushed {
                    failure = error.message
                    break reading
                }
            case .nothing:
                // Quiet (each wait is at most the poll interval): what is due now — a pause once quiet for the quiet period.
                do throws(ReaderError) { try live.wait(until: clock.now, say) } catch {
                    failure = error.message
                    break reading
                }
            case .end:
                break reading
            case .failed(let reason):
                failure = "cannot read: \(reason)"
                break reading
            case .said(let severity, let message):
                printer.print(.diagnostic(Self.followed(severity, message, input: input.path)))
            }
            status.update(live.status)
            printer.flush()
        }
        if let summary = input.summary { printer.print(.diagnostic(Self.followed(.warning, summary, input: input.path))) }
        input.release()
        if let failure, live.status.lines == 0 { return (nil, failure) }
        var report: LintReport?
        do throws(ReaderError) { report = try live.finish(partial: Self.endedBySignal != nil, say) } catch {
            failure = failure ?? (live.status.lines == 0 && input.bytesRead == 0 && input.path == "-"
                ? "standard input is empty: nothing was piped in (when a command writes to the pipe, its own error is above)"
                : error.message)
        }
        printer.finish()
        return (report, failure)
    }

    /// The signal that ended the run when it was not the normal end of a followed run: SIGTERM (a CI cancel, `timeout`,
    /// `docker stop`) or SIGHUP (a closed terminal) stop a run before its input ended, so its report is partial and the
    /// exit status 128 + the signal. Nil for Ctrl-C, the normal way to end following.
    static var endedBySignal: Int32? {
        let number = SignalHandling.received.load(ordering: .relaxed)
        return number == 0 || number == SIGINT ? nil : number
    }

    /// What the followed file's watch says, as a diagnostic of the input.
    static func followed(_ severity: ReaderDiagnostic.Severity, _ message: String, input: String) -> ReaderDiagnostic {
        ReaderDiagnostic(code: DiagnosticCode(rawValue: "followed-input"), severity: severity, message: message,
                         origin: EventOrigin(input: input, line: 0, byteOffset: 0), lineCount: 0)
    }
}

/// The status line's text, written by the reading thread and read by the line's own.
final class LiveStatusLine: @unchecked Sendable {
    private let lock = NSLock()
    private var status = LiveLint.Status(lines: 0, openSessions: 0, findings: 0)
    private let input: String

    init(input: String) {
        self.input = input
    }

    func update(_ status: LiveLint.Status) {
        lock.lock()
        self.status = status
        lock.unlock()
    }

    /// `prewarm-lint: following -: 12,408 lines, 3 sessions open, 2 findings`.
    var text: String {
        lock.lock()
        let status = self.status
        lock.unlock()
        let name = input == "-" ? "standard input" : TerminalText.singleLine(input)
        return "prewarm-lint: following \(name): \(status.lines) line\(status.lines == 1 ? "" : "s"), \(status.openSessions) session\(status.openSessions == 1 ? "" : "s") open, \(status.findings) finding\(status.findings == 1 ? "" : "s")"
    }
}

/// Prints a live run's updates in a format that can print as a log arrives: each through the format's own renderer,
/// so that what the input holds is escaped for it in one place.
struct LivePrinter {
    let format: ReportFormat
    let settings: ReportFormat.Settings
    private var diagnostics: DiagnosticPrinter

    /// Standard output, coloured as the settings say.
    private let output: StandardOutput

    init(format: ReportFormat, settings: ReportFormat.Settings, maximumDiagnostics: Int) {
        self.format = format
        self.settings = settings
        output = StandardOutput(colors: settings.color)
        diagnostics = DiagnosticPrinter(limit: maximumDiagnostics)
    }

    /// The words of the findings given early and not yet closed, by rule, pid and deciding line: what the close's `now:`
    /// lines compare with (forgotten as their session closes).
    private var earlyWords: [String: String] = [:]

    mutating func print(_ update: LiveLint.Update) {
        switch update {
        case .diagnostic(let diagnostic):
            // Reader warnings go to standard error as they come, in every format (as `lint` prints them in text).
            diagnostics.take(diagnostic)
        case .finding(let finding):
            earlyWords[Self.key(finding)] = Self.words(finding)
            write(early: finding)
        case .session(let closed):
            write(closed)
        case .report:
            // The summary is the command's to print, after the run.
            break
        }
    }

    /// A finding as a live run keys it: its rule, pid and deciding line.
    private static func key(_ finding: Finding) -> String {
        "\(finding.ruleID) \(finding.app.pid ?? -1) \(finding.location?.line ?? -1)"
    }

    /// What a finding says: its severity and message.
    private static func words(_ finding: Finding) -> String { "\(finding.severity.rawValue): \(finding.message)" }

    /// A finding given as its line came. GitHub's annotations, which cannot be corrected, wait for the close.
    private func write(early finding: Finding) {
        switch format {
        case .ndjson:
            FindingNDJSONReporter().renderLive(findings: [finding], closed: nil, toUTF8: output.bytes)
        case .github:
            break
        default:
            // Said to be early, with the session it will close as: the close's line says what changed.
            var early = finding
            early.message += " (early: \(finding.sessionID) still open)"
            FindingTextReporter(color: settings.color, timelines: false, markers: settings.markers)
                .renderFindings(Self.report(of: [early], session: nil)) { output.bytes($0) }
        }
    }

    /// A closed session: each finding said once. ndjson: the findings not given early as lines of their own, then the
    /// session's record with every finding in its final words. github: one annotation per finding, final. text: the
    /// close's line; under it, `now: …` for a finding given early whose words the close changed; then the findings not
    /// given early and the session's timeline.
    private mutating func write(_ closed: LiveLint.ClosedSession) {
        let findings = closed.findings
        let fresh = zip(findings, closed.givenEarly).filter { !$0.1 }.map(\.0)
        let early = zip(findings, closed.givenEarly).filter(\.1).map(\.0)
        defer { for finding in early { earlyWords[Self.key(finding)] = nil } }
        switch format {
        case .ndjson:
            FindingNDJSONReporter().renderLive(findings: fresh, closed: (closed.session, closed.id, findings), toUTF8: output.bytes)
        case .github:
            guard !findings.isEmpty else { return }
            GitHubAnnotationReporter().render(Self.report(of: findings, session: nil)) { output.bytes($0) }
        default:
            let reporter = FindingTextReporter(color: settings.color, timelines: true, markers: settings.markers)
            var line = "closed \(TerminalText.singleLine(closed.id)): \(closed.session.kind.rawValue) (\(closed.session.confidence.rawValue))"
            if let pid = closed.session.app.pid { line += ", pid \(pid)" }
            line += findings.isEmpty ? ", no findings" : ", \(findings.count) finding\(findings.count == 1 ? "" : "s")"
            if !early.isEmpty { line += " (\(early.count) given as \(early.count == 1 ? "its line" : "their lines") came)" }
            output.line(line)
            for finding in early where earlyWords[Self.key(finding)] != Self.words(finding) {
                let place = finding.location.map { TerminalText.singleLine($0.description) + ": " } ?? ""
                output.line("    now: \(place)\(finding.severity.rawValue): [\(finding.ruleID)] \(TerminalText.singleLine(finding.message))")
            }
            // The findings not given early with the session's timeline; with none, the timeline alone.
            reporter.renderFindings(Self.report(of: fresh, session: closed)) { output.bytes($0) }
            if fresh.isEmpty {
                let timeline = SessionTimelineReporter().render(closed.session, id: closed.id, input: nil, markers: settings.markers, preMain: [])
                output.line(timeline.split(separator: "\n").map { "  │ " + $0 }.joined(separator: "\n") + "\n")
            }
        }
    }

    /// A report of `findings` alone (and their session), for a renderer.
    private static func report(of findings: [Finding], session closed: LiveLint.ClosedSession?) -> LintReport {
        LintReport.excerpt(findings: findings, session: closed.map { ($0.session, $0.id) }, toolVersion: ToolVersion.current)
    }

    /// Sends what was printed on its way, the status line cleared first (standard output may be the same terminal).
    func flush() {
        if StandardStreams.hasBufferedOutput { ProgressLine.shared.around { StandardStreams.flush() } }
    }

    /// The diagnostics' count, when some were not printed.
    mutating func finish() {
        diagnostics.finish()
        StandardStreams.flush()
    }
}
