import PrewarmLintClassifier
import PrewarmLintModel
import PrewarmLintRules
import PrewarmLintSessions
import PrewarmLintSpool

/// One self-contained HTML page (`--format html`): no network, no font or script from elsewhere — inline CSS, one
/// inline SVG per session and a few lines of script.
///
/// On top, what a reader wants first: the run's summary, sessions per kind, findings per rule and severity, launch
/// medians. Then, per app, each session as a bar on its own time axis: its phases coloured (prewarmed, the launch
/// the user waited for, running, in the background), a long suspension drawn as a break of the axis with its
/// length written on it, each milestone a tick, each finding a marker at its first evidence line — hover shows
/// what it is, a click opens the finding with the lines that prove it. Below the bar, the milestones in words.
///
/// It stays readable from one session to thousands: sessions are grouped by app; an app's sessions come in pages
/// of ``pageSize``, the first open and the others folded (a folded page is not laid out, so a page of 2,000
/// sessions opens at once); apps beyond the first few are folded too. The output depends only on the report:
/// no generation date, no random ids.
public struct HTMLReporter: Sendable {
    /// Sessions per page of an app.
    public static let pageSize = 100
    /// Apps shown unfolded; the others are listed folded.
    static let openApps = 8
    /// Findings shown in full per rule in the findings section; the rest are counted.
    static let findingsShownPerRule = 50

    /// A reporter; it has no settings.
    public init() {}

    /// The page.
    public func render(_ report: LintReport) -> String { ReportPieces.joined { render(report, to: $0) } }

    /// The page, written in pieces (a page per app and per session page).
    ///
    /// The page groups sessions by app, where the report lists them by time, so a spooled report is never read into
    /// memory: its findings are read once (their counts per rule, the findings section and whether they come in the
    /// listing's order), its sessions twice (what the overview and the bars' common scale need, then each session's
    /// article, kept in a temporary file of their own until their app's turn comes). What stays in memory is a few
    /// numbers a listed session and the findings shown.
    public func render(_ report: LintReport, to output: (String) -> Void) {
        var findingsRead = FindingsRead(sessionIDs: report.sessionIDs, sessionsNotListed: report.sessionsNotListed)
        for (index, finding) in report.findings.enumerated() { findingsRead.add(finding, at: index) }
        output(Self.head)
        output("<header><h1>prewarm-lint report</h1>")
        // The text summary but the configuration, which the footer names; its `code` spans as code.
        let summary = FindingTextReporter().summary(report, namingConfiguration: false)
        output("<p class=\"summary\">\(Self.codeSpans(Self.escape(summary.prefix(1).uppercased() + summary.dropFirst()))).</p>")
        if report.partial { output("<p class=\"warning\">Interrupted: this report is partial.</p>") }
        let unreadable = report.inputs.filter { $0.error != nil }
        if !unreadable.isEmpty {
            output("<p class=\"warning\">\(unreadable.count) input\(unreadable.count == 1 ? " was" : "s were") not read: "
                   + unreadable.prefix(5).map { "<code>\(Self.escape($0.path))</code> (\(Self.escape($0.error ?? "")))" }.joined(separator: ", ")
                   + (unreadable.count > 5 ? " and \(unreadable.count - 5) more" : "") + "</p>")
        }
        output("</header>\n")
        // The sessions' first reading: the overview, each session's app, and the scale the bars share.
        var apps = AppGroups()
        var overview = Overview(perRule: findingsRead.perRule)
        var spans: [Int64] = []
        spans.reserveCapacity(report.sessions.count)
        var findingsOf = findingsRead.sessionFindings(report)
        for (session, id) in zip(report.sessions, report.sessionIDs) {
            let findings = findingsOf.next(id: id)
            overview.add(session)
            apps.add(session, findings: findings.count)
            spans.append(Axis(Axis.times(of: session, findings: findings)).scaledMicroseconds)
        }
        overview.notListed = report.notListed.byKind
        output(overview.html)
        let reference = Axis.reference(spans: spans)
        spans = []
        output(Self.legend(reference: reference))
        output("<section id=\"sessions\"><h2>Sessions</h2>\n")
        if report.sessions.isEmpty { output("<p>No launch session in these logs.</p>\n") }
        // The second reading: each session's article, kept until its app's turn.
        var articles = SessionArticles(inFile: report.sessions.isSpooled)
        findingsOf = findingsRead.sessionFindings(report)
        for (index, (session, id)) in zip(report.sessions, report.sessionIDs).enumerated() {
            articles.append(Self.session(session, id: id, input: report.input(ofSessionAt: index), findings: findingsOf.next(id: id),
                                         reference: reference))
        }
        // Grouped by app, apps in the order their first session appears (the report's order).
        for (position, (app, members)) in zip(apps.apps, apps.membersByApp()).enumerated() {
            output("<details class=\"app\"\(position < Self.openApps ? " open" : "")><summary><span class=\"app-name\">\(Self.escape(app.name))</span> "
                   + "<span class=\"muted\">\(app.sessions) session\(app.sessions == 1 ? "" : "s") (\(Self.escape(SessionTally.kindCounts(app.kinds))))"
                   + "\(app.findings > 0 ? ", \(app.findings) finding\(app.findings == 1 ? "" : "s")" : "")</span></summary>\n")
            let pageCount = (members.count + Self.pageSize - 1) / Self.pageSize
            for pageIndex in 0..<pageCount {
                let page = members.dropFirst(pageIndex * Self.pageSize).prefix(Self.pageSize)
                if pageCount > 1 {
                    output("<details class=\"page\"\(pageIndex == 0 ? " open" : "")><summary>sessions \(pageIndex * Self.pageSize + 1)–\(pageIndex * Self.pageSize + page.count) of \(members.count)</summary>\n")
                }
                output(articles.joined(page.lazy.map { Int($0) }))
                if pageCount > 1 { output("</details>\n") }
            }
            output("</details>\n")
        }
        output("</section>\n")
        output(findingsRead.html)
        if !report.preMainStatistics.isEmpty { output(Self.preMain(report)) }
        if !report.fragments.isEmpty { output(Self.fragments(report)) }
        output(Self.diagnostics(report))
        output("<footer>prewarm-lint \(Self.escape(report.toolVersion)), report schema \(LintReport.schemaVersion); configuration \(Self.escape(report.configurationName))\(report.partial ? "; interrupted, partial" : "")</footer>\n")
        output(Self.script)
        output("</body></html>\n")
    }

    /// dyld's launch statistics read: a list item each, where it was read, then what ``PreMainReading/lines`` says.
    static func preMain(_ report: LintReport) -> String {
        var out = "<section id=\"pre-main\"><h2>dyld's launch statistics</h2>\n<ul>\n"
        for reading in report.preMainStatistics {
            let lines = reading.lines
            out += "<li><code>\(escape(reading.statistics.origin.description))</code>: \(escape(lines[0]))"
            out += "<ul>" + lines.dropFirst().map { "<li>\(escape($0))</li>" }.joined() + "</ul></li>\n"
        }
        if report.preMainStatisticsNotKept > 0 { out += "<li class=\"muted\">…and \(report.preMainStatisticsNotKept) more (counted, not kept)</li>\n" }
        return out + "</ul></section>\n"
    }

    /// The lines read alone that match a signature: where, what each shows and lacks, and the line.
    static func fragments(_ report: LintReport) -> String {
        var out = "<section id=\"fragments\"><h2>Lines read alone</h2>\n<ul>\n"
        for reading in report.fragments {
            out += "<li><code>\(escape(reading.fragment.origin.description))</code>: \(escape(reading.summary))"
            out += "<ul><li><code>\(escape(reading.fragment.text))</code></li></ul></li>\n"
        }
        return out + "</ul></section>\n"
    }

    // MARK: The overview

    /// The cards on top, gathered as the sessions are read: sessions per kind (those not listed too), findings per
    /// rule and severity, and the launch medians.
    struct Overview {
        var byKind: [LaunchSession.Kind: Int] = [:]
        /// Each rule's findings and highest severity.
        var perRule: [String: (severity: Severity, count: Int)]
        /// Sessions checked and not listed, by kind.
        var notListed: [LaunchSession.Kind: Int] = [:]
        /// User-perceived launches by kind, in microseconds (eight bytes a listed launch).
        var launches: [LaunchSession.Kind: [Int64]] = [:]
        /// Prewarm request → activation, in microseconds.
        var waits: [Int64] = []

        mutating func add(_ session: LaunchSession) {
            byKind[session.kind, default: 0] += 1
            if let launch = session.userPerceivedLaunch { launches[session.kind, default: []].append(launch.microseconds) }
            if let wait = session.milliseconds(from: .prewarmRequest, to: .activation) { waits.append(Int64(wait) * 1000) }
        }

        var html: String {
            var out = "<section id=\"overview\" class=\"cards\">\n<div class=\"card\"><h2>Sessions per kind</h2><table>"
            // Every session checked: those past the listing's limit are counted, not listed.
            let byKind = byKind.merging(notListed, uniquingKeysWith: +)
            for kind in LaunchSession.Kind.allCases where byKind[kind] != nil {
                out += "<tr><td><span class=\"swatch kind-\(kind.rawValue)\"></span>\(kind.rawValue)</td><td class=\"number\">\(byKind[kind]!)</td></tr>"
            }
            if byKind.isEmpty { out += "<tr><td>none</td><td class=\"number\">0</td></tr>" }
            out += "</table></div>\n<div class=\"card\"><h2>Findings per rule</h2><table>"
            for (rule, entry) in perRule.sorted(by: { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }) {
                out += "<tr><td><a href=\"#rule-\(rule)\"><code>\(escape(rule))</code></a></td><td><span class=\"severity \(entry.severity.rawValue)\">\(entry.severity.rawValue)</span></td><td class=\"number\">\(entry.count)</td></tr>"
            }
            if perRule.isEmpty { out += "<tr><td>none</td><td></td><td class=\"number\">0</td></tr>" }
            out += "</table></div>\n<div class=\"card\"><h2>Launch the user waited for</h2><table>"
            let all = launches.values.flatMap { $0 }
            if all.isEmpty {
                out += "<tr><td colspan=\"2\">no launch the user waited for is in these logs</td></tr>"
            } else {
                out += "<tr><td>median of \(all.count)</td><td class=\"number\">\(escape(UserPerceivedLaunch.milliseconds(median(all))))</td></tr>"
                for kind in LaunchSession.Kind.allCases {
                    guard let values = launches[kind], values.count < all.count else { continue }
                    out += "<tr><td>\(kind.rawValue) (\(values.count))</td><td class=\"number\">\(escape(UserPerceivedLaunch.milliseconds(median(values))))</td></tr>"
                }
            }
            if !waits.isEmpty {
                out += "<tr><td>prewarm → activation, median of \(waits.count)</td><td class=\"number\">\(escape(SpokenDuration.text(microseconds: median(waits))))</td></tr>"
            }
            out += "</table></div>\n</section>\n"
            return out
        }
    }

    /// The lower median, as the text summary takes it (so both say the same number).
    static func median(_ values: [Int64]) -> Int64 {
        let sorted = values.sorted()
        return sorted[(sorted.count - 1) / 2]
    }

    /// The apps of the listed sessions, in the order each first appears, and which app each session is of.
    struct AppGroups {
        struct App {
            var name: String
            var sessions = 0
            var findings = 0
            var kinds: [LaunchSession.Kind: Int] = [:]
        }
        private(set) var apps: [App] = []
        private var index: [String: Int32] = [:]
        /// Each listed session's app, by its place in `apps`.
        private var appOfSession: [Int32] = []

        mutating func add(_ session: LaunchSession, findings: Int) {
            let name = session.app.bundleID ?? session.app.processName ?? "unknown app"
            let at: Int32
            if let known = index[name] { at = known } else {
                at = Int32(apps.count)
                index[name] = at
                apps.append(App(name: name))
            }
            appOfSession.append(at)
            apps[Int(at)].sessions += 1
            apps[Int(at)].findings += findings
            apps[Int(at)].kinds[session.kind, default: 0] += 1
        }

        /// Each app's sessions (their places in the listing, in order), in the order of `apps`: a counting sort.
        func membersByApp() -> [ArraySlice<Int32>] {
            var starts = [Int](repeating: 0, count: apps.count + 1)
            for (at, app) in apps.enumerated() { starts[at + 1] = starts[at] + app.sessions }
            var order = [Int32](repeating: 0, count: appOfSession.count)
            var next = starts
            for (session, app) in appOfSession.enumerated() {
                order[next[Int(app)]] = Int32(session)
                next[Int(app)] += 1
            }
            return apps.indices.map { order[starts[$0]..<starts[$0 + 1]] }
        }
    }

    /// Each session's article, rendered in the listing's order and written out in its app's: in memory for a report in
    /// memory, in a temporary file (unlinked when made, written 64 KiB at a time) for a spooled one. An article the file
    /// could not take stays in memory.
    struct SessionArticles {
        private let file: SpoolFile?
        /// False once the file refused a write: later articles stay in memory (those in it are read from it).
        private var fileTakesMore: Bool
        private var pending: [UInt8] = []
        private var written: Int64 = 0
        /// Each article: where it starts in the file and how long it is, or (`start` -1) its place in `texts`.
        private var places: [(start: Int64, length: Int)] = []
        private var texts: [String] = []

        init(inFile: Bool) {
            file = inFile ? try? SpoolFile() : nil
            fileTakesMore = file != nil
        }

        mutating func append(_ article: String) {
            guard fileTakesMore else {
                places.append((-1, texts.count))
                texts.append(article)
                return
            }
            places.append((written + Int64(pending.count), article.utf8.count))
            pending.append(contentsOf: article.utf8)
            if pending.count >= 1 << 16 { flush() }
        }

        private mutating func flush() {
            guard let file, fileTakesMore, !pending.isEmpty else { return }
            do {
                written = try file.append(pending) + Int64(pending.count)
            } catch {
                // The articles the write was to take stay in memory.
                fileTakesMore = false
                for index in places.indices where places[index].start >= written {
                    let place = places[index]
                    places[index] = (-1, texts.count)
                    texts.append(String(decoding: pending[Int(place.start - written)...].prefix(place.length), as: UTF8.self))
                }
            }
            pending.removeAll(keepingCapacity: true)
        }

        /// These articles (in this order), one after the other; neighbours in the file are read at once.
        mutating func joined(_ indices: some Sequence<Int>) -> String {
            flush()
            var out = ""
            var run: (start: Int64, length: Int)?
            func readRun() {
                guard let place = run, let file else { return }
                var bytes: [UInt8] = []
                do { try file.read(at: place.start, count: place.length, into: &bytes) } catch {
                    // As for a spooled report's pages: only a failing disk gets here, and a page without its sessions would be false.
                    preconditionFailure("prewarm-lint: \(error)")
                }
                out += String(decoding: bytes, as: UTF8.self)
                run = nil
            }
            for index in indices {
                let place = places[index]
                if place.start < 0 {
                    readRun()
                    out += texts[place.length]
                } else if let current = run, current.start + Int64(current.length) == place.start {
                    run = (current.start, current.length + place.length)
                } else {
                    readRun()
                    run = place
                }
            }
            readRun()
            return out
        }
    }

    // MARK: A session

    /// The phase a stretch of the session's life belongs to, by colour.
    enum Phase: String {
        case prewarm, suspended, launch, running, background
    }

    /// One session: its heading, its bar, its milestones in words and its findings' markers.
    static func session(_ session: LaunchSession, id: String, input: String? = nil, findings: [(index: Int, finding: Finding)],
                        reference: Int64) -> String {
        var out = "<article class=\"session\" id=\"\(anchor(id))\"><div class=\"meta\"><code>\(escape(id))</code>"
        if let pid = session.app.pid { out += " <span class=\"muted\">pid \(pid)</span>" }
        if let name = session.app.processName, name != session.app.bundleID { out += " <span class=\"muted\">(\(escape(name)))</span>" }
        if let input { out += " <span class=\"muted\">from <code>\(escape(input))</code></span>" }
        out += " <span class=\"kind kind-\(session.kind.rawValue)\">\(session.kind.rawValue)</span> <span class=\"confidence\">\(session.confidence.rawValue)</span>"
        if let launch = session.userPerceivedLaunch {
            out += " <span class=\"launch\">launch \(escape(UserPerceivedLaunch.milliseconds(launch.microseconds)))</span>"
        }
        for (index, finding) in findings {
            out += " <a class=\"badge severity \(finding.severity.rawValue)\" href=\"#finding-\(index + 1)\" data-finding=\"finding-\(index + 1)\">\(escape(finding.ruleID))</a>"
        }
        out += "</div>\n"
        // A bar places milestones; without one it would be an empty axis (the badges above open the findings).
        if !session.milestones.isEmpty { out += bar(session, findings: findings, reference: reference) + "\n" }
        var steps = steps(session)
        let scaled = Axis(Axis.times(of: session, findings: findings)).scaledMicroseconds
        if !session.milestones.isEmpty, scaled > reference { steps += " <span class=\"muted\">(its bar is drawn to its own scale: \(escape(SpokenDuration.text(microseconds: scaled))) wide)</span>" }
        out += "<p class=\"steps\">" + steps + "</p>\n"
        if session.evidenceIncomplete {
            out += "<p class=\"incomplete\">evidence incomplete: " + session.incompleteEvidence.map(escape).joined(separator: "; ") + "</p>\n"
        }
        return out + "</article>\n"
    }

    /// Where each point of the session goes on its bar: times in order, a gap much longer than the rest (a
    /// suspension of hours beside milliseconds of launch) replaced by a fixed-width break.
    struct Axis {
        static let width = 1000.0, margin = 12.0, breakWidth = 56.0
        var times: [Int64]
        var positions: [Double]
        /// The breaks: the x where each starts, and the time it stands for.
        var breaks: [(x: Double, microseconds: Int64)]

        /// The time drawn to scale (all but the breaks).
        var scaledMicroseconds: Int64 = 0

        /// An axis for `times`, drawn so that `reference` microseconds fill the width (the report's sessions share it,
        /// so bars compare); a session whose time to scale is longer is drawn to its own, narrower scale.
        init(_ times: [Int64], reference: Int64 = 0) {
            let unique = Array(Set(times)).sorted()
            self.times = unique
            breaks = []
            guard unique.count > 1 else {
                positions = unique.map { _ in Self.margin }
                return
            }
            let gaps = zip(unique.dropFirst(), unique).map { LogTimestamp.microseconds(from: $1, to: $0) }
            let ordered = gaps.sorted()
            let typical = max(ordered[ordered.count / 2], 1)
            // A break: over a minute, or over 10 s and 20 times the middle gap (so a cold launch's 1.2 s stays to scale).
            let broken = gaps.map { $0 > 60_000_000 || ($0 > 10_000_000 && $0 / 20 > typical) }
            let scaled = zip(gaps, broken).reduce(Int64(0)) { $1.1 ? $0 : Int64.addingSaturated($0, $1.0) }
            scaledMicroseconds = scaled
            let breakCount = Double(broken.filter { $0 }.count)
            let span = Self.width - 2 * Self.margin - breakCount * Self.breakWidth
            let perMicrosecond = span / Double(max(scaled, reference, 1))
            var x = Self.margin
            positions = [x]
            for (gap, isBreak) in zip(gaps, broken) {
                if isBreak {
                    breaks.append((x, gap))
                    x += Self.breakWidth
                } else {
                    x += perMicrosecond * Double(gap)
                }
                positions.append(x)
            }
        }

        /// The times on a session's bar: its milestones and its findings' first evidence lines.
        static func times(of session: LaunchSession, findings: [(index: Int, finding: Finding)]) -> [Int64] {
            var times = session.milestones.map(\.time.microsecondsSinceEpoch) + findings.compactMap { $0.finding.evidence.first?.time.microsecondsSinceEpoch }
            if times.isEmpty, let start = session.start { times = [start.microsecondsSinceEpoch] }
            return times
        }

        /// What fills the width for these sessions: the time to scale of the longest but a tenth of them, kept between
        /// 2 s and 60 s (a day of 300 ms launches still shows them as bars; a few long sessions do not squash the rest —
        /// they are drawn to their own scale, and say so).
        /// `spans` are the sessions' times to scale (`scaledMicroseconds`), in any order.
        static func reference(spans: [Int64]) -> Int64 {
            guard !spans.isEmpty else { return 2_000_000 }
            let spans = spans.sorted()
            return min(max(spans[(spans.count - 1) * 9 / 10], 2_000_000), 60_000_000)
        }

        func x(_ time: Int64) -> Double {
            guard let index = times.firstIndex(where: { $0 >= time }) else { return positions.last ?? Self.width / 2 }
            return positions[index]
        }
    }

    static func bar(_ session: LaunchSession, findings: [(index: Int, finding: Finding)], reference: Int64) -> String {
        let milestones = session.milestones.sorted { $0.time.microsecondsSinceEpoch < $1.time.microsecondsSinceEpoch }
        let axis = Axis(Axis.times(of: session, findings: findings), reference: reference)
        var svg = "<svg class=\"bar\" viewBox=\"0 0 1000 40\" role=\"img\" aria-label=\"timeline of \(escape(session.kind.rawValue))\">"
        svg += "<line class=\"axis\" x1=\"\(Axis.margin)\" y1=\"20\" x2=\"\(Axis.width - Axis.margin)\" y2=\"20\"/>"
        // Phases between consecutive milestones.
        let activation = session.milestone(.activation)?.time.microsecondsSinceEpoch
        let launch = session.userPerceivedLaunch
        for (from, to) in zip(milestones, milestones.dropFirst()) {
            let start = from.time.microsecondsSinceEpoch, end = to.time.microsecondsSinceEpoch
            guard end > start else { continue }
            let phase: Phase
            if let launch, start >= launch.start.time.microsecondsSinceEpoch, end <= launch.end.time.microsecondsSinceEpoch {
                phase = .launch
            } else if let activation, start >= activation {
                phase = session.kind == .coldLaunch || session.kind == .debuggerLaunch || launch != nil ? .running : .launch
            } else if from.name == .suspended {
                phase = .suspended
            } else if session.wasPrewarmed {
                phase = .prewarm
            } else if session.kind == .coldLaunch || session.kind == .debuggerLaunch {
                phase = .launch
            } else {
                phase = .background
            }
            let x1 = axis.x(start), x2 = axis.x(end)
            svg += "<rect class=\"phase \(phase.rawValue)\" x=\(attribute(format(x1))) y=\"13\" width=\(attribute(format(max(x2 - x1, 2)))) height=\"14\">"
                + "<title>\(phase.rawValue): \(escape(SessionTimelineReporter.label(from.name))) → \(escape(SessionTimelineReporter.label(to.name))), \(escape(SpokenDuration.text(microseconds: LogTimestamp.microseconds(from: start, to: end))))</title></rect>"
        }
        var previousLabel = -1000.0
        for (x, microseconds) in axis.breaks {
            let middle = x + Axis.breakWidth / 2
            // Labels of breaks side by side would overlap: past the first, a close one's is cut to its largest unit.
            let crowded = middle - previousLabel < 2 * Axis.breakWidth
            let label = crowded && microseconds >= 60_000_000 && microseconds < 3_600_000_000
                ? "\(microseconds / 60_000_000) min" : SpokenDuration.text(microseconds: microseconds)
            let labelX = crowded ? max(middle, previousLabel + 2 * Axis.breakWidth) : middle
            previousLabel = labelX
            svg += "<g class=\"break\"><rect x=\(attribute(format(x))) y=\"8\" width=\(attribute(format(Axis.breakWidth))) height=\"24\"/>"
                // The zigzag ends at y 28, above the label's letters (its baseline at 39, 10 px high): it does not cross them.
                + "<path d=\"M\(format(middle - 6)) 4 l6 6 l-6 6 l6 6 l-6 6\"/><path d=\"M\(format(middle + 2)) 4 l6 6 l-6 6 l6 6 l-6 6\"/>"
                + "<text x=\(attribute(format(labelX))) y=\"39\">\(escape(label))</text>"
                + "<title>\(escape(SpokenDuration.text(microseconds: microseconds))) not drawn to scale</title></g>"
        }
        for milestone in milestones {
            let x = format(axis.x(milestone.time.microsecondsSinceEpoch))
            svg += "<line class=\"tick \(milestone.name.rawValue)\" x1=\(attribute(x)) y1=\"9\" x2=\(attribute(x)) y2=\"31\">"
                + "<title>\(escape(SessionTimelineReporter.label(milestone.name))) \(escape(clock(milestone.time)))\(SessionTimelineReporter.detail(of: milestone).map { " — " + escape($0) } ?? "") (\(escape(milestone.evidence.description)))</title></line>"
        }
        var lastMarker = -100.0
        for (index, finding) in findings {
            guard let time = finding.evidence.first?.time.microsecondsSinceEpoch else { continue }
            // Findings of one line side by side, not on top of each other.
            var position = axis.x(time)
            if position < lastMarker + 11 { position = lastMarker + 11 }
            lastMarker = position
            let x = format(position)
            svg += "<a href=\"#finding-\(index + 1)\" data-finding=\"finding-\(index + 1)\"><circle class=\"marker \(finding.severity.rawValue)\" cx=\(attribute(x)) cy=\"6\" r=\"5\">"
                + "<title>\(escape(finding.ruleID)): \(escape(finding.message))</title></circle></a>"
        }
        return svg + "</svg>"
    }

    /// The milestones in words: `prewarm request 06:02:11.118 → process start +45 ms → … suspended ⟿ 2 h 12 min ⟿ activation`.
    static func steps(_ session: LaunchSession) -> String {
        let milestones = session.milestones.sorted { $0.time.microsecondsSinceEpoch < $1.time.microsecondsSinceEpoch }
        guard let first = milestones.first else { return "<span class=\"muted\">no milestone in the logs</span>" }
        var parts = ["\(escape(SessionTimelineReporter.label(first.name))) <time>\(escape(clock(first.time)))</time>"]
        for (previous, milestone) in zip(milestones, milestones.dropFirst()) {
            let gap = milestone.time.microseconds(since: previous.time)
            parts.append("<span class=\"gap\">+\(escape(SpokenDuration.text(microseconds: gap)))</span> \(escape(SessionTimelineReporter.label(milestone.name)))")
        }
        return parts.joined(separator: " → ")
    }

    /// `06:02:11.118`.
    static func clock(_ time: LogTimestamp) -> String {
        String(time.iso8601.dropFirst(11).prefix(12))
    }

    // MARK: Findings and diagnostics

    /// What the page says of the findings, gathered in one reading of them: each rule's count and highest severity,
    /// its first ``findingsShownPerRule`` findings rendered for the findings section, and whether the findings come in
    /// the listing's order (each session's together, the sessions in the listing's order, those of sessions not listed
    /// last: a run's report) — else each session's are looked up by id, in memory (a report made by hand).
    struct FindingsRead {
        private let sessionIDs: ReportList<String>
        private let sessionsNotListed: Int
        /// The listed session the last finding was of (ids past it are those findings still to come may be of).
        private var cursor = 0
        private(set) var inListingOrder = true
        private(set) var perRule: [String: (severity: Severity, count: Int)] = [:]
        /// The rules in the order of their first finding, with the findings section's entries.
        private var rules: [(rule: String, shown: String)] = []
        /// Whether a finding shown has an evidence time with an inferred part (marked `~`, and the mark explained).
        private var inferredTimesShown = false
        private var ruleIndex: [String: Int] = [:]
        private var count = 0

        init(sessionIDs: ReportList<String>, sessionsNotListed: Int) {
            self.sessionIDs = sessionIDs
            self.sessionsNotListed = sessionsNotListed
        }

        mutating func add(_ finding: Finding, at index: Int) {
            count += 1
            if inListingOrder {
                while cursor < sessionIDs.count, sessionIDs[cursor] != finding.sessionID { cursor += 1 }
                // Not ahead: of a session not listed (they come after every listed one), or out of order.
                if cursor == sessionIDs.count, sessionsNotListed == 0 { inListingOrder = false }
            }
            let entry = perRule[finding.ruleID]
            let ruleCount = (entry?.count ?? 0) + 1
            perRule[finding.ruleID] = (max(entry?.severity ?? finding.severity, finding.severity), ruleCount)
            let at: Int
            if let known = ruleIndex[finding.ruleID] { at = known } else {
                at = rules.count
                ruleIndex[finding.ruleID] = at
                rules.append((finding.ruleID, ""))
            }
            if ruleCount <= HTMLReporter.findingsShownPerRule {
                rules[at].shown += HTMLReporter.finding(finding, index: index)
                if finding.evidence.contains(where: { !$0.time.inferred.isEmpty }) { inferredTimesShown = true }
            }
        }

        /// A reading of each listed session's findings, in the listing's order.
        func sessionFindings(_ report: LintReport) -> SessionFindings {
            SessionFindings(report.findings, inListingOrder: inListingOrder)
        }

        /// The findings section.
        var html: String {
            var out = "<section id=\"findings\"><h2>Findings</h2>\n"
            if count == 0 { out += "<p>None.</p>\n" }
            for (rule, shown) in rules {
                let total = perRule[rule]!.count
                out += "<h3 id=\"rule-\(rule)\"><code>\(escape(rule))</code> <span class=\"muted\">(\(total))</span></h3>\n" + shown
                if total > findingsShownPerRule {
                    out += "<p class=\"muted\">…and \(total - findingsShownPerRule) more (all in <code>--format json</code>).</p>\n"
                }
            }
            if inferredTimesShown { out += "<p class=\"muted\">\(escape(LogTimestamp.inferredMarkNote)).</p>\n" }
            return out + "</section>\n"
        }
    }

    /// Each listed session's findings, asked for in the listing's order: taken as they come when the findings are in
    /// that order, else from a table of them all by session.
    struct SessionFindings {
        private let findings: ReportList<Finding>
        private var next = 0
        private let bySession: [String: [(index: Int, finding: Finding)]]?

        init(_ findings: ReportList<Finding>, inListingOrder: Bool) {
            self.findings = findings
            if inListingOrder {
                bySession = nil
            } else {
                var table: [String: [(index: Int, finding: Finding)]] = [:]
                for (index, finding) in findings.enumerated() { table[finding.sessionID, default: []].append((index, finding)) }
                bySession = table
            }
        }

        /// The findings of the session with this id, the next listed one.
        mutating func next(id: String) -> [(index: Int, finding: Finding)] {
            if let bySession { return bySession[id] ?? [] }
            var found: [(index: Int, finding: Finding)] = []
            while next < findings.count {
                let finding = findings[next]
                guard finding.sessionID == id else { break }
                found.append((next, finding))
                next += 1
            }
            return found
        }
    }

    /// One finding's entry in the findings section: its summary, its evidence lines.
    static func finding(_ finding: Finding, index: Int) -> String {
        var out = "<details class=\"finding\" id=\"finding-\(index + 1)\"><summary><span class=\"severity \(finding.severity.rawValue)\">\(finding.severity.rawValue)</span> "
            + "<a href=\"#\(anchor(finding.sessionID))\"><code>\(escape(finding.sessionID))</code></a> \(escape(finding.message))</summary><pre>"
        for evidence in finding.evidence {
            out += "\(escape(evidence.origin.description)) \(escape(evidence.time.evidenceText)) [\(escape(evidence.label))]\n  \(escape(evidence.text))\n"
        }
        out += "</pre>"
        if let missing = finding.missingEvidence { out += "<p class=\"incomplete\">evidence incomplete: \(escape(missing))</p>" }
        return out + "</details>\n"
    }

    static func diagnostics(_ report: LintReport) -> String {
        guard !report.diagnostics.isEmpty else { return "" }
        let shown = min(report.diagnostics.count, 100)
        var out = "<section id=\"diagnostics\"><details><summary>\(report.diagnostics.count) reading diagnostic\(report.diagnostics.count == 1 ? "" : "s")"
        out += shown < report.diagnostics.count ? " (the first \(shown))" : ""
        out += "</summary><pre>"
        for diagnostic in report.diagnostics.prefix(shown) { out += escape(diagnostic.description) + "\n" }
        return out + "</pre></details></section>\n"
    }

    // MARK: Text

    /// An HTML id from a session id (`com.example.ledger#2` → `session-com.example.ledger-2`).
    static func anchor(_ id: String) -> String {
        "session-" + String(id.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "." || scalar == "_" || scalar == "-")
                ? Character(scalar) : "-"
        })
    }

    static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
    }

    static func attribute(_ value: String) -> String { "\"\(value)\"" }

    /// Text and attribute escaping (``MarkupText/escape(_:)``).
    static func escape<S: StringProtocol>(_ text: S) -> String { MarkupText.escape(text) }

    /// Escaped text whose backtick-quoted spans (the summary's `stats`) are shown as code; a lone backtick stays.
    static func codeSpans(_ escaped: String) -> String {
        escaped.replacing(/`([^`]+)`/) { "<code>\($0.output.1)</code>" }
    }

    static func legend(reference: Int64) -> String {
        """
        <p class="legend"><span class="swatch phase prewarm"></span>prewarmed, before the user \
        <span class="swatch phase suspended"></span>suspended \
        <span class="swatch phase launch"></span>the launch the user waited for \
        <span class="swatch phase running"></span>running \
        <span class="swatch phase background"></span>in the background \
        <span class="swatch break-swatch"></span>a long wait, not to scale \
        <span class="dot error"></span>error <span class="dot warning"></span>warning <span class="dot info"></span>info (click for the lines). \
        Bars share one scale: the full width is \(escape(SpokenDuration.text(microseconds: reference))).</p>

        """
    }

    static let head = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>prewarm-lint report</title>
        <style>
        :root{--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--bg:#fff;--card:#f6f8fa;--prewarm:#8250df;--suspended:#c8ccd1;--launch:#0969da;--running:#9fb3c8;--background:#1a7f64;--error:#cf222e;--warning:#bf8700;--info:#0969da}
        @media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--line:#30363d;--bg:#0d1117;--card:#161b22;--suspended:#484f58;--running:#3d5a78}}
        body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;padding:16px 24px;max-width:1200px}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:18px 0 8px}h3{font-size:15px;margin:14px 0 6px}
        code,pre,time{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
        pre{background:var(--card);padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:6px 0}
        .summary{margin:0 0 8px}.muted{color:var(--muted)}.warning{color:var(--error);font-weight:600}
        .cards{display:flex;flex-wrap:wrap;gap:12px}.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:4px 12px 10px;flex:1 1 300px}
        table{border-collapse:collapse;width:100%}td{padding:2px 6px;border-bottom:1px solid var(--line)}td.number{text-align:right;font-variant-numeric:tabular-nums}
        .swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin:0 5px -1px 8px;background:var(--muted)}
        .dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin:0 4px -1px 8px}
        .dot.error{background:var(--error)}.dot.warning{background:var(--warning)}.dot.info{background:var(--info)}
        .legend{font-size:12.5px;color:var(--muted);margin:14px 0 0}
        .swatch.phase.prewarm,.kind-prewarm-then-launch,.kind-prewarm-unused,.kind-prewarm-outcome-unknown{background:var(--prewarm)}
        .swatch.phase.suspended{background:var(--suspended)}.swatch.phase.launch,.kind-cold-launch{background:var(--launch)}
        .swatch.phase.running,.kind-resume,.kind-unknown{background:var(--running)}.swatch.phase.background,.kind-background-launch,.kind-debugger-launch{background:var(--background)}
        .swatch.break-swatch{background:repeating-linear-gradient(135deg,var(--card) 0 3px,var(--muted) 3px 4px)}
        details.app{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:4px 10px}details.app>summary{cursor:pointer;font-weight:600;padding:4px 0}
        details.page>summary{cursor:pointer;color:var(--muted);margin:6px 0}
        .app-name{font-family:ui-monospace,Menlo,monospace}
        article.session{border-top:1px solid var(--line);padding:6px 0 4px}
        .meta{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:baseline}
        .kind{color:#fff;border-radius:10px;padding:0 8px;font-size:12px}.confidence{color:var(--muted);font-size:12px}.launch{font-weight:600}
        .badge{font-size:11.5px;border-radius:10px;padding:0 7px;text-decoration:none;color:#fff}
        .severity{font-size:12px;font-weight:600}.severity.error{color:var(--error)}.severity.warning{color:var(--warning)}.severity.info{color:var(--info)}
        .badge.severity{color:#fff}.badge.error{background:var(--error)}.badge.warning{background:var(--warning)}.badge.info{background:var(--info)}
        svg.bar{width:100%;height:auto;display:block;margin:2px 0}
        svg .axis{stroke:var(--line);stroke-width:1}
        svg .phase{rx:2}svg .phase.prewarm{fill:var(--prewarm)}svg .phase.suspended{fill:var(--suspended)}svg .phase.launch{fill:var(--launch)}
        svg .phase.running{fill:var(--running)}svg .phase.background{fill:var(--background)}
        svg .break rect{fill:var(--bg)}svg .break path{fill:none;stroke:var(--muted);stroke-width:1.5}svg .break text{font-size:10px;fill:var(--muted);text-anchor:middle}
        svg .tick{stroke:var(--fg);stroke-width:1.5}svg .tick.termination{stroke:var(--error)}svg .tick.tap{stroke-dasharray:2 2}
        svg .marker{stroke:var(--bg);stroke-width:1.5;cursor:pointer}svg .marker.error{fill:var(--error)}svg .marker.warning{fill:var(--warning)}svg .marker.info{fill:var(--info)}
        .steps{margin:0;font-size:12.5px;color:var(--muted)}.steps time{color:var(--fg)}.gap{color:var(--fg)}
        .incomplete{margin:2px 0 0;font-size:12.5px;color:var(--warning)}
        details.finding{margin:4px 0}details.finding>summary{cursor:pointer}details.finding.flash{outline:2px solid var(--launch)}
        footer{margin:24px 0 8px;color:var(--muted);font-size:12px}
        </style></head><body>

        """

    /// A click on a finding's marker or badge opens the finding (its evidence lines) and shows it.
    static let script = """
        <script>
        document.addEventListener("click", function (event) {
          var link = event.target.closest("[data-finding]");
          if (!link) return;
          var finding = document.getElementById(link.getAttribute("data-finding"));
          if (!finding) return;
          event.preventDefault();
          finding.open = true;
          finding.scrollIntoView({block: "center"});
          finding.classList.add("flash");
          setTimeout(function () { finding.classList.remove("flash"); }, 1200);
        });
        </script>

        """
}
