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
        var lastArrival = monotonicMicroseconds()
        var lastPause: Int64?
        var lastTick = lastArrival
        var failure: String?
        func say(_ update: LiveLint.Update) { printer.print(update) }
        reading: while !SignalHandling.interruption.isRaised {
            switch input.next() {
            case .bytes(let count):
                lastArrival = monotonicMicroseconds()
                lastPause = nil
                let pushed: Result<Void, ReaderError> = input.buffer.withUnsafeBytes { bytes in
                    do throws(ReaderError) {
                        try live.push(UnsafeRawBufferPointer(rebasing: bytes[..<count]), say)
                        return .success(())
                    } catch { return .failure(error) }
                }
                if case .failure(let error) = pushed {
                    failure = error.message
                    break reading
                }
                // Bytes keep coming: each quiet period, the lines that waited that long in the reorder window go on, and a
                // format sniffed from its first 64 KiB is decided from what came.
                if lastArrival - lastTick >= Self.quietPeriod {
                    lastTick = lastArrival
                    do throws(ReaderError) { try live.tick(say) } catch {
                        failure = error.message
                        break reading
                    }
                }
            case .nothing:
                // Quiet for the quiet period: what waited for later lines is decided; then again each second, so that
                // a session whose process ended closes once its grace has passed on the wall clock.
                let now = monotonicMicroseconds()
                let quiet = now - lastArrival
                guard quiet >= Self.quietPeriod, lastPause.map({ now - $0 >= 1_000_000 }) ?? true else { break }
                lastPause = now
                do throws(ReaderError) { try live.pause(quietFor: quiet, say) } catch {
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

    /// ``LiveLint/quietPeriod`` in microseconds.
    static let quietPeriod = Int64(LiveLint.quietPeriod.components.seconds) * 1_000_000
        + Int64(LiveLint.quietPeriod.components.attoseconds / 1_000_000_000_000)
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

    init(format: ReportFormat, settings: ReportFormat.Settings, maximumDiagnostics: Int) {
        self.format = format
        self.settings = settings
        diagnostics = DiagnosticPrinter(limit: maximumDiagnostics)
    }

    mutating func print(_ update: LiveLint.Update) {
        switch update {
        case .diagnostic(let diagnostic):
            // Reader warnings go to standard error as they come, in every format (as `lint` prints them in text).
            diagnostics.take(diagnostic)
        case .finding(let finding):
            write(findings: [finding], session: nil, givenEarly: [false])
        case .session(let closed):
            write(findings: closed.findings, session: closed, givenEarly: closed.givenEarly)
        case .report:
            // The summary is the command's to print, after the run.
            break
        }
    }

    /// What a finding or a closed session prints.
    private func write(findings: [Finding], session closed: LiveLint.ClosedSession?, givenEarly: [Bool]) {
        let fresh = zip(findings, givenEarly).filter { !$0.1 }.map(\.0)
        switch format {
        case .ndjson:
            FindingNDJSONReporter().renderLive(findings: fresh, closed: closed.map { ($0.session, $0.id, $0.findings) },
                                               toUTF8: StandardStreams.outBytes)
        case .github:
            guard !fresh.isEmpty else { return }
            GitHubAnnotationReporter().render(Self.report(of: fresh, session: nil)) { StandardStreams.outBytes($0) }
        default:
            let reporter = FindingTextReporter(color: settings.color, timelines: closed != nil, markers: settings.markers)
            if let closed {
                let early = givenEarly.filter { $0 }.count
                var line = "closed \(TerminalText.singleLine(closed.id)): \(closed.session.kind.rawValue) (\(closed.session.confidence.rawValue))"
                if let pid = closed.session.app.pid { line += ", pid \(pid)" }
                line += findings.isEmpty ? ", no findings" : ", \(findings.count) finding\(findings.count == 1 ? "" : "s")"
                if early > 0 { line += " (\(early) given as \(early == 1 ? "its line" : "their lines") came; final words below)" }
                StandardStreams.out(line)
                if !findings.isEmpty { reporter.renderFindings(Self.report(of: findings, session: closed)) { StandardStreams.outBytes($0) } }
            } else {
                reporter.renderFindings(Self.report(of: findings, session: nil)) { StandardStreams.outBytes($0) }
            }
        }
    }

    /// A report of `findings` alone (and their session), for a renderer.
    private static func report(of findings: [Finding], session closed: LiveLint.ClosedSession?) -> LintReport {
        LintReport(toolVersion: ToolVersion.current, inputs: [], sessions: closed.map { [$0.session] } ?? [],
                   sessionIDs: closed.map { [$0.id] } ?? [], findings: findings, diagnostics: [])
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

extension StandardStreams {
    /// `outBytes` for a `String` piece.
    static func outBytes(_ text: String) {
        var text = text
        text.withUTF8 { outBytes(UnsafeRawBufferPointer($0)) }
    }
}
