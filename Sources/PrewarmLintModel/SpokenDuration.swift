/// Durations as every report says them: `845 ms`, `3.2 s`, `4 min 12 s`, `1 h 31 min` — findings, timelines,
/// statistics and the HTML and Markdown reports alike (the one place this wording is written).
public enum SpokenDuration {
    /// A duration in whole milliseconds (cut, not rounded), seconds to a tenth, minutes with seconds, hours with minutes.
    public static func text(microseconds: Int64) -> String {
        let milliseconds = max(0, microseconds) / 1000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let seconds = milliseconds / 1000
        if seconds < 60 { return "\(seconds).\(milliseconds % 1000 / 100) s" }
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds / 60 % 60) min"
    }

    /// A duration given in milliseconds, a fraction below one kept to two decimals (`0.25 ms`: a histogram's edge).
    public static func text(milliseconds: Double) -> String {
        if milliseconds < 1 { return "\((milliseconds * 100).rounded() / 100) ms" }
        return text(microseconds: Int64(milliseconds * 1000))
    }
}
