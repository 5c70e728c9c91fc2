import Foundation
import Testing

/// The HTML report (issue 21), read as a person's browser reads it: headless Chromium loads the page, runs its
/// script, and the test reads the DOM it ends with. Chromium comes from Debian's packages (`.ci/run` installs it);
/// without it these tests say so and check the page's text alone.
@Suite("prewarm-lint --format html")
struct HTMLReportTests {
    typealias CLI = EventsCommandTests
    static let root = EventsCommandTests.repositoryRoot
    static let scene = "Corpus/scenarios/prewarm-then-launch-scene-app/log.txt"

    static var chromium: String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }

    /// The DOM after the page's scripts ran (and `probe`, a script appended to the page, when given), and what
    /// Chromium logged of the page's console.
    static func load(_ html: String, probe: String = "") throws -> (dom: String, console: String)? {
        guard let chromium else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        let withProbe = probe.isEmpty ? html : html.replacingOccurrences(of: "</body></html>", with: "<script>\(probe)</script></body></html>")
        try withProbe.write(to: page, atomically: true, encoding: .utf8)
        let run = try CLI.run(["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/profile", "--enable-logging=stderr",
                               "--v=0", "--virtual-time-budget=5000", "--dump-dom", page.absoluteString],
                              executable: URL(fileURLWithPath: chromium))
        return (run.stdout, run.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }.joined(separator: "\n"))
    }

    /// Without Chromium the page is checked as text only; in CI (which installs it) that is a failure.
    static func noBrowser() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("chromium is not installed: the page was not loaded in a browser (.ci/run installs it: apt-get install chromium)")
        } else {
            print("note: chromium is not installed: the HTML report was checked as text, not loaded in a browser (apt-get install chromium)")
        }
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("one session: the summary, the session's bar with its phases, a break for the suspension, a marker per finding; a click on a marker opens the finding; no console error")
    func oneSession() throws {
        let run = try CLI.run(["--format", "html", "--date", "2024-03-18", Self.scene], in: Self.root)
        #expect(run.status == 1)
        let html = run.stdout
        // The summary's quoted commands are code, never raw backticks.
        let many = try CLI.run(["--format", "html", "--date", "2024-03-18", "Corpus/scenarios"], in: Self.root).stdout
        let summary = try #require(many.firstMatch(of: /<p class="summary">.*?<\/p>/)).output
        #expect(summary.contains("(<code>stats</code> for more)") && !summary.contains("`"), "\(summary)")
        #expect(html.hasPrefix("<!doctype html>"))
        // Self-contained: nothing fetched from anywhere.
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src="), "the page must load nothing")
        #expect(Self.count("<article class=\"session\"", in: html) == 1)
        #expect(html.contains("<rect class=\"phase prewarm\""))
        #expect(html.contains("<rect class=\"phase launch\""))
        #expect(html.contains("<text x=") && html.contains(">1 h 31 min</text>"), "the suspension is a break labelled with its length")
        #expect(Self.count("<circle class=\"marker", in: html) == 4)
        #expect(Self.count("<details class=\"finding\"", in: html) == 4)
        let probe = """
            var marker = document.querySelector("svg a[data-finding]");
            marker.dispatchEvent(new MouseEvent("click", {bubbles: true}));
            document.body.setAttribute("data-opened", document.getElementById(marker.getAttribute("data-finding")).open ? "yes" : "no");
            document.body.setAttribute("data-sessions", document.querySelectorAll("article.session svg.bar").length);
            """
        guard let loaded = try Self.load(html, probe: probe) else {
            Self.noBrowser()
            return
        }
        #expect(loaded.dom.contains("data-opened=\"yes\""), "a click on a marker opens its finding")
        #expect(loaded.dom.contains("data-sessions=\"1\""))
        #expect(!loaded.console.contains("Uncaught") && !loaded.console.lowercased().contains("error"), "\(loaded.console)")
    }

    /// Runs `script` with `md`, markdown-it-py's CommonMark parser with GFM tables (as GitHub renders Markdown), and
    /// `sys` in scope; nil when markdown-it-py is not installed (an issue on CI, where `.ci/run` installs it).
    static func markdownIt(_ script: String, _ arguments: String...) throws -> CLI.Run? {
        let run = try CLI.run(["python3", "-c", """
            import sys
            try:
                from markdown_it import MarkdownIt
            except ImportError:
                print("NO-RENDERER"); sys.exit(0)
            md = MarkdownIt("commonmark").enable("table")
            """ + "\n" + script] + arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
        if run.stdout.contains("NO-RENDERER") {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("markdown-it-py is not installed (scripts/test installs it)")
            } else {
                _ = InstalledTools.runs(pythonModule: "markdown_it", package: "markdown-it-py")
            }
            return nil
        }
        return run
    }

    /// The Markdown report rendered as GitHub renders issues and PR comments (CommonMark with GFM tables, by
    /// markdown-it-py; `.ci/run` installs it), then loaded in Chromium.
    @Test("Markdown renders as GitHub does: its tables are tables, its findings headings, its evidence code blocks; nothing left as raw markup")
    func markdownRenders() throws {
        let run = try CLI.run(["--separately", "--format", "markdown", "Corpus/"], in: Self.root)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-md-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let markdown = folder.appendingPathComponent("report.md")
        try run.stdout.write(to: markdown, atomically: true, encoding: .utf8)
        guard let render = try Self.markdownIt("""
            html = md.render(open(sys.argv[1], encoding="utf-8").read())
            open(sys.argv[2], "w", encoding="utf-8").write("<!doctype html><html><body>" + html + "</body></html>")
            """, markdown.path, folder.appendingPathComponent("report.html").path) else { return }
        #expect(render.status == 0, "\(render.stderr)")
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        let rules = Self.count("\n### ", in: run.stdout), findings = Self.count("\n#### ", in: run.stdout)
        #expect(Self.count("<table>", in: html) == 3, "the rules, the kinds and the sessions (inside <details>) are tables")
        #expect(Self.count("<h3>", in: html) == rules && Self.count("<h4>", in: html) == findings && findings > 0)
        let diagnosticsBlock = run.stdout.contains("## Reading diagnostics") ? 1 : 0
        #expect(Self.count("<pre><code class=\"language-text\">", in: html) == findings + diagnosticsBlock, "each finding's evidence is a code block, and the diagnostics")
        #expect(!html.contains("|---|") && !html.contains("~~~~") && !html.contains("#### "), "no raw markup left")
        // The Markdown's note on sessions without a start, a list item with its ids as code.
        let note = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("- the log does not show how this process started — ") })
        let count = note.dropFirst("- the log does not show how this process started — ".count).prefix { $0.isNumber }
        #expect(!count.isEmpty && html.contains("<li>the log does not show how this process started — \(count) sessions: <code>"))
        guard let loaded = try Self.load(html, probe: "document.body.setAttribute('data-rows', document.querySelectorAll('table tr').length)") else {
            Self.noBrowser()
            return
        }
        let rows = Self.count("\n| ", in: run.stdout)
        #expect(loaded.dom.contains("data-rows=\"\(rows)\""), "every table row of the Markdown is a row in the browser")
    }

    @Test("Markdown of a hostile log renders none of its markup: backticks, tags, links, images and fences in a process name, a message and a file name stay text")
    func markdownOfHostileLog() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-lint-md-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A Console copy (the shape of Corpus/formats/console-copy-pid-column) whose process name, message and file
        // name carry Markdown and HTML, and whose message continues on lines that would close a fence.
        let process = "x`<img src=y onerror=alert(1)>`[l](http://e)"
        let text = "2231\terror\t14:14:22.944797+1100\t\(process)\tKeychain error -25308 `<a href=\"http://e\">a</a>` ![i](http://e/i.png)\n"
            + "~~~~\n<script>alert(2)</script>\n```\n# heading\n"
        let log = folder.appendingPathComponent("log`\n::error::x~~~~.txt")
        try Data(text.utf8).write(to: log)
        let run = try CLI.run(["--date", "2021-10-20", "--format", "markdown", log.path])
        #expect(run.status == 1, "\(run.stderr)")
        let markdown = folder.appendingPathComponent("report.md")
        try run.stdout.write(to: markdown, atomically: true, encoding: .utf8)
        guard let render = try Self.markdownIt("""
            kinds = set()
            def walk(tokens):
                for token in tokens:
                    # The report's own HTML (its footer's <sub>, a folded listing's <details>) is named by its tag.
                    kinds.add("html:" + token.content.strip() if token.type.startswith("html_") else token.type)
                    walk(token.children or [])
            walk(md.parse(open(sys.argv[1], encoding="utf-8").read()))
            print(" ".join(sorted(kinds)))
            """, markdown.path) else { return }
        let kinds = Set(render.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
        let ownHTML: Set<String> = ["html:<sub>", "html:</sub>"]
        #expect(kinds.filter { $0.hasPrefix("html:") }.isSubset(of: ownHTML), "\(kinds.sorted()): \(run.stdout)")
        #expect(kinds.isDisjoint(with: ["image", "link_open"]), "\(kinds.sorted()): \(run.stdout)")
        #expect(!kinds.contains("heading_open") || !run.stdout.contains("\n# heading"), "\(run.stdout)")
        // The report's own markup is still there: its headings and its fenced evidence.
        #expect(kinds.isSuperset(of: ["heading_open", "fence", "table_open", "code_inline"]), "\(kinds.sorted())")
        #expect(!run.stdout.contains("\n::error"), "a file name starts no line")
    }

    @Test("the corpus: every session and finding on the page, apps folded past the first, pages of 100; the same bytes twice")
    func corpus() throws {
        let run = try CLI.run(["--separately", "--format", "html", "Corpus/"], in: Self.root)
        let json = try CLI.run(["--separately", "--format", "json", "Corpus/"], in: Self.root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let html = run.stdout
        #expect(Self.count("<article class=\"session\"", in: html) == sessions.count)
        // Each finding: a badge on its session, a marker on its bar (when it has evidence), and its entry (50 per rule at most).
        #expect(Self.count("class=\"badge severity", in: html) == findings.count)
        #expect(Self.count("<details class=\"page\"", in: html) >= 2, "206 sessions of one app come in pages")
        #expect(html == (try CLI.run(["--separately", "--format", "html", "Corpus/"], in: Self.root)).stdout)
        guard let loaded = try Self.load(html, probe: "document.body.setAttribute('data-bars', document.querySelectorAll('svg.bar').length)") else {
            Self.noBrowser()
            return
        }
        // A bar for each session with a milestone; none for a session without (an empty axis said nothing).
        let placed = sessions.filter { !($0["milestones"] as? [Any] ?? []).isEmpty }.count
        #expect(placed < sessions.count, "the corpus has sessions without a milestone (real-logs 03's)")
        #expect(loaded.dom.contains("data-bars=\"\(placed)\""))
        #expect(!loaded.console.contains("Uncaught"), "\(loaded.console)")
    }
}
