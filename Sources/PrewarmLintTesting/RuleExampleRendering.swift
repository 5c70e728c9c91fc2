import Foundation
public import PrewarmLint

/// Renders a `RuleExample` as real exports, the way `scripts/render-scenarios` renders the
/// scenario corpus: a Console.app copy with the PID column (the layout of `Corpus/real-logs/03`),
/// `log show --style ndjson` (the key set of `docs/research/formats.md` §1.6, with its
/// preamble and trailer), and the same records as an XML property list (what
/// `plutil -convert xml1` makes of them, with Apple's DOCTYPE). Then runs the whole pipeline on it, so a rule's examples test reading,
/// classification, sessions and the rule together.
public enum RuleExampleRendering: String, CaseIterable, Sendable {
    /// A Console.app copy with the PID column.
    case consoleCopy = "console-copy"
    /// `log show --style ndjson`.
    case ndjson
    /// An XML property list of the ndjson records.
    case plist

    static let offset = "-0700"
    static let bootUUID = "E312ED28-914E-4C3C-9B9E-4926AFCCD890"

    /// Daemons' image paths, subsystems and categories; any other process is the example's app.
    static let daemons: [String: (image: String, sender: String, subsystem: String, category: String)] = [
        "dasd": ("/usr/libexec/dasd", "/usr/libexec/dasd", "com.apple.aprs", "appResume.prewarmInterface"),
        "runningboardd": ("/usr/libexec/runningboardd", "/System/Library/PrivateFrameworks/RunningBoard.framework/RunningBoard", "com.apple.runningboard", "process"),
        "SpringBoard": ("/System/Library/CoreServices/SpringBoard.app/SpringBoard", "/System/Library/PrivateFrameworks/FrontBoard.framework/FrontBoard", "com.apple.FrontBoard", "Process"),
        "securityd": ("/usr/libexec/securityd", "/usr/libexec/securityd", "com.apple.securityd", "SecError"),
        "kernel": ("/kernel", "/kernel", "", ""),
    ]

    /// The example as this format's bytes.
    public func render(_ example: RuleExample) -> String {
        let lines = example.lines
        switch self {
        case .plist:
            var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            out += "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
            out += "<plist version=\"1.0\">\n<array>\n"
            for line in lines {
                let daemon = Self.daemons[line.process]
                let image = daemon?.image ?? Self.appImage(line.process)
                let members: [(String, String, String)] = [
                    ("activityIdentifier", "integer", "0"), ("bootUUID", "string", Self.bootUUID),
                    ("category", "string", daemon?.category ?? "lifecycle"), ("eventMessage", "string", line.message),
                    ("eventType", "string", "logEvent"), ("formatString", "string", "%{public}@"),
                    ("messageType", "string", line.isError ? "Error" : "Default"), ("processID", "integer", String(line.pid)),
                    ("processImagePath", "string", image), ("senderImagePath", "string", daemon?.sender ?? image),
                    ("subsystem", "string", daemon?.subsystem ?? ExampleLog.bundle), ("threadID", "integer", String(0x2b07 + line.pid)),
                    ("timestamp", "string", "\(example.date) \(line.time)\(Self.offset)"), ("timezoneName", "string", ""),
                ]
                out += "\t<dict>\n"
                for (key, type, value) in members {
                    out += "\t\t<key>\(key)</key>\n"
                    out += value.isEmpty ? "\t\t<\(type)></\(type)>\n" : "\t\t<\(type)>\(Self.xmlEscaped(value))</\(type)>\n"
                }
                out += "\t</dict>\n"
            }
            return out + "</array>\n</plist>\n"
        case .consoleCopy:
            return lines.map { line in
                "\(line.pid)\t\(line.isError ? "error" : "default")\t\(line.time)\(Self.offset)\t\(line.process)\t\(line.message)\n"
            }.joined()
        case .ndjson:
            var out = "Filtering the log data using \"process IN {\"dasd\", \"runningboardd\", \"SpringBoard\", \"securityd\", \"kernel\", \"Ledger Pro\"}\"\n"
            for line in lines {
                let daemon = Self.daemons[line.process]
                let image = daemon?.image ?? Self.appImage(line.process)
                var writer = JSONTextWriter()
                writer.beginObject()
                writer.field("timezoneName", "")
                writer.field("messageType", line.isError ? "Error" : "Default")
                writer.field("eventType", "logEvent")
                writer.key("source"); writer.string(nil)
                writer.field("formatString", "%{public}@")
                writer.field("activityIdentifier", 0)
                writer.field("subsystem", daemon?.subsystem ?? ExampleLog.bundle)
                writer.field("category", daemon?.category ?? "lifecycle")
                writer.field("threadID", 0x2b07 + line.pid)
                writer.field("bootUUID", Self.bootUUID)
                writer.field("processImagePath", image)
                writer.field("senderImagePath", daemon?.sender ?? image)
                writer.field("timestamp", "\(example.date) \(line.time)\(Self.offset)")
                writer.field("eventMessage", line.message)
                writer.field("processID", line.pid)
                writer.field("parentActivityIdentifier", 0)
                writer.endObject()
                out += writer.text.replacingOccurrences(of: "/", with: "\\/") + "\n"
            }
            return out + "{\"count\":\(lines.count),\"finished\":1}\n"
        }
    }

    static func appImage(_ process: String) -> String {
        "/private/var/containers/Bundle/Application/8C1D2E3F-4A5B-6C7D-8E9F-0A1B2C3D4E5F/\(process).app/\(process)"
    }

    /// Text as plist element content: `&`, `<`, `>` escaped, as plistlib and plutil write it.
    static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Writes the rendering to a temporary file and lints it with `registry`; returns the report.
    public func lint(_ example: RuleExample, registry: RuleRegistry = .builtIn,
                     configuration: LintConfiguration = LintConfiguration()) throws -> LintReport {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("prewarm-lint-example-\(UUID().uuidString).\(self == .consoleCopy ? "txt" : rawValue)")
        try render(example).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var inference = TimeInference()
        inference.date = CivilDateTime(dateText: example.date)
        let run = LintRun(options: ReadOptions(timeInference: inference), linter: Linter(registry: registry, configuration: configuration),
                          toolVersion: "test")
        return run.run([DiscoveredInput(input: .file(file.path), foundInDirectory: false)])
    }

    /// How a marked line is quoted in a finding's evidence: `process[pid]: first line`.
    public static func quoted(_ line: RuleExample.Line) -> String {
        "\(line.process)[\(line.pid)]: \(line.message.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")"
    }
}
