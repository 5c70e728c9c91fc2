/// An input format prewarm-lint reads, sniffed from content (never from a file name).
///
/// The raw value is the stable identifier used by `--input-format` and in reports.
public enum LogFormat: String, Sendable, Hashable, CaseIterable, Codable {
    /// `log show` / `log stream` default style: `2023-07-19 08:22:51.916784+0300 0x3058  Info  0x0  599  0  proc: …`.
    case logShow = "log-show"
    /// `log show --style compact`: `2022-11-14 13:21:14.972 Df My App[59972:780a15] …` (ms, no offset).
    case logShowCompact = "log-show-compact"
    /// `log show --style syslog`: `2023-05-26 13:42:44.136082+0200  localhost kernel[0]: …`.
    case logShowSyslog = "log-show-syslog"
    /// `log show --style json`: one pretty-printed array of objects.
    case logShowJSON = "log-show-json"
    /// `log show --style ndjson`: one object per line, optional `Filtering…` preamble, `{"count":N,"finished":1}` trailer.
    case logShowNDJSON = "log-show-ndjson"
    /// Console.app Edit ▸ Copy: tab-separated columns in any order, time without a date.
    case consoleCopy = "console-copy"
    /// libimobiledevice `idevicesyslog`: `May  2 11:13:48.554160 proc(image)[pid] <Notice>: …`, and the
    /// legacy relay form with a device name and no fraction.
    case idevicesyslog = "idevicesyslog"
    /// pymobiledevice3 `syslog live`: `2024-01-15 10:23:45.123456 proc{image}[pid] <NOTICE>: …`.
    case pymobiledevice3 = "pymobiledevice3"
    /// pymobiledevice3 `syslog live --format json`: NDJSON with snake_case keys.
    case pymobiledevice3JSON = "pymobiledevice3-json"
    /// The Xcode debug console: `2022-05-08 00:27:03.060495+0800 Runner[25951:23399161] …`.
    case xcodeConsole = "xcode-console"
    /// mandiant/macos-UnifiedLogs `unifiedlog_iterator -f jsonl`: NDJSON with `time` in epoch nanoseconds.
    case unifiedLogIterator = "unifiedlog-iterator"
    /// An XML property list: an array of dicts keyed like `log show --style json` or pymobiledevice3's JSON.
    case plist
    /// A binary property list (`bplist00`) of the same shapes.
    case binaryPlist = "bplist"
    /// `xcrun xctrace export` XML of the `os-log` or `os-signpost` table of an Instruments trace.
    case xctrace = "xctrace-export"
    /// A crash or jetsam report in the two-part `.ips` JSON form (iOS 15+).
    case crashReport = "crash-report"
    /// A crash report in the legacy text form, or pasted into an issue.
    case crashReportText = "crash-report-text"
    /// MetricKit JSON: an `MXDiagnosticPayload`, a single diagnostic, an `MXMetricPayload`, or an array of them.
    case metricKit = "metrickit"
    /// A tar archive (a sysdiagnose, gzip undone first): the crash and jetsam reports inside it.
    case tarArchive = "tar"
    /// A unified log file (`.tracev3`), read natively: a `.logarchive`'s, or one alone.
    case unifiedLog = "tracev3"
    /// A pasted document (an issue body, an e-mail): Markdown fences, quotes, indented and `<pre>` blocks around its
    /// logs, each block read on its own.
    case document
    /// A unified log archive (a `.logarchive` folder, or one inside a sysdiagnose) read natively: each of its tracev3
    /// files as ``unifiedLog``, with the archive's strings and clock, their events merged by time. Never sniffed (a
    /// folder has no bytes); the format of the exporter's output when an exporter reads the archive instead.
    case logArchive = "logarchive"

    /// A human name for summaries.
    public var displayName: String {
        switch self {
        case .logShow: "log show (default style)"
        case .logShowCompact: "log show --style compact"
        case .logShowSyslog: "log show --style syslog"
        case .logShowJSON: "log show --style json"
        case .logShowNDJSON: "log show --style ndjson"
        case .consoleCopy: "Console.app copy"
        case .idevicesyslog: "idevicesyslog"
        case .pymobiledevice3: "pymobiledevice3 syslog"
        case .pymobiledevice3JSON: "pymobiledevice3 syslog --format json"
        case .xcodeConsole: "Xcode console"
        case .unifiedLogIterator: "unifiedlog_iterator jsonl"
        case .plist: "property list (XML)"
        case .binaryPlist: "property list (binary)"
        case .xctrace: "xctrace export (XML)"
        case .crashReport: "crash, jetsam or system watchdog report (.ips JSON)"
        case .crashReportText: "crash report (text)"
        case .metricKit: "MetricKit JSON (diagnostic or metric payloads)"
        case .tarArchive: "tar archive (a sysdiagnose): its reports, text logs and unified log"
        case .unifiedLog: "unified log file (tracev3), read natively with its archive's strings and clock"
        case .logArchive: "unified log archive (a .logarchive folder, or one in a sysdiagnose), read natively: its tracev3 files with their strings and clock"
        case .document: "a pasted document (an issue body, an e-mail): each block read on its own, dyld's launch statistics too"
        }
    }
}
