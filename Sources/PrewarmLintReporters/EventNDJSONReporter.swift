public import PrewarmLintModel
public import PrewarmLintClassifier

/// Renders events as NDJSON, one object per line, for pipelines (`prewarm-lint events --format ndjson`).
///
/// Schema version 1; every key is always present (`null` when the format lacks it), in this order:
/// ```
/// {"time":"2023-07-19T08:22:51.916784+03:00","timeText":"2023-07-19 08:22:51.916784+0300","inferred":[],
///  "process":"remotepairingd","pid":599,"senderImage":"RemotePairing","subsystem":"com.apple.dt.remotepairing",
///  "category":"networktunnelmanager","type":"info","thread":12376,"activity":null,"message":"tunnel-1: …",
///  "origin":{"path":"device.log","line":2,"byteOffset":90}}
/// ```
/// With a classification, four keys follow `origin`: `role`, `meaning` (or null), `detail` (or
/// null) and `app` (`{"bundleID","process","pid"}`, each possibly null, or null). Documented in `docs/events-schema.md`. Adding keys is
/// compatible; renaming or removing one is not.
public struct EventNDLintReporter: Sendable {
    /// The version of the event schema (`docs/events-schema.md`).
    public static let schemaVersion = 1

    /// An ndjson reporter.
    public init() {}

    /// One event as one line of JSON, without the line break; with its classification when given.
    public func line(for event: LogEvent, classification: ClassifiedEvent? = nil) -> String {
        var writer = JSONTextWriter()
        writer.beginObject()
        writer.field("time", event.timestamp)
        writer.field("timeText", event.timestamp.text)
        writer.key("inferred")
        writer.beginArray()
        for name in event.timestamp.inferred.names { writer.string(name) }
        writer.endArray()
        writer.field("process", event.process)
        writer.field("pid", event.pid)
        writer.field("senderImage", event.senderImage)
        writer.field("subsystem", event.subsystem)
        writer.field("category", event.category)
        writer.field("type", event.type.rawValue)
        writer.field("thread", event.threadID)
        writer.field("activity", event.activityID)
        writer.field("message", event.message)
        writer.key("origin")
        writer.beginObject()
        writer.field("path", event.origin.input)
        writer.field("line", event.origin.line)
        writer.field("byteOffset", event.origin.byteOffset)
        writer.endObject()
        if let classification {
            writer.field("role", classification.role.rawValue)
            writer.field("meaning", classification.meaning?.rawValue)
            writer.field("detail", classification.detail)
            writer.key("app")
            if let subject = classification.subject {
                writer.beginObject()
                writer.field("bundleID", subject.bundleID)
                writer.field("process", subject.processName)
                writer.field("pid", subject.pid)
                writer.endObject()
            } else {
                writer.string(nil)
            }
        }
        writer.endObject()
        return writer.text
    }
}
