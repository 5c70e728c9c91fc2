/// The launch histograms of MetricKit metric payloads (`MXMetricPayload.applicationLaunchMetrics`): Apple's own
/// measure of launches — with and without prewarming — per app version, for `stats` to show beside the launches
/// the logs show.
public struct MetricKitLaunchMetrics: Sendable, Hashable {
    /// Which launch measure a histogram holds.
    public enum Metric: String, Sendable, Hashable, CaseIterable, Codable {
        /// `histogrammedTimeToFirstDraw`: launches to the first frame, the system not having prewarmed them.
        case timeToFirstDraw = "time-to-first-draw"
        /// `histogrammedOptimizedTimeToFirstDraw` (iOS 15.2+): launches the system optimized (prewarmed).
        case optimizedTimeToFirstDraw = "optimized-time-to-first-draw"
        /// `histogrammedApplicationResumeTime`: resumes from the background.
        case resume
        /// `histogrammedExtendedLaunch` (iOS 16+): launches including the app's extended launch tasks.
        case extendedLaunch = "extended-launch"

        /// The metric a key names, in every spelling seen (with and without `Key`, `ResumeTime` and
        /// `ApplicationResumeTime`).
        public static func named(_ key: String) -> Metric? {
            let name = key.hasSuffix("Key") ? String(key.dropLast(3)) : key
            switch name {
            case "histogrammedTimeToFirstDraw": return .timeToFirstDraw
            case "histogrammedOptimizedTimeToFirstDraw": return .optimizedTimeToFirstDraw
            case "histogrammedApplicationResumeTime", "histogrammedResumeTime": return .resume
            case "histogrammedExtendedLaunch": return .extendedLaunch
            default: return nil
            }
        }
    }

    /// One bucket: launches that took from `startMilliseconds` to `endMilliseconds`.
    public struct Bucket: Sendable, Hashable {
        /// The bucket's lower bound, in milliseconds.
        public var startMilliseconds: Double
        /// Its upper bound, in milliseconds.
        public var endMilliseconds: Double
        /// How many launches fell in it.
        public var count: Int

        /// A bucket.
        public init(startMilliseconds: Double, endMilliseconds: Double, count: Int) {
            self.startMilliseconds = startMilliseconds
            self.endMilliseconds = endMilliseconds
            self.count = count
        }
    }

    /// The app version the payload is about (`metaData.appVersion`, else `appBuildVersion`), or nil.
    public var appVersion: String?
    /// The OS (`metaData.osVersion`), or nil.
    public var osVersion: String?
    /// The histograms the payload holds, buckets in ascending order.
    public var histograms: [Metric: [Bucket]]

    /// Metrics of one payload.
    public init(appVersion: String?, osVersion: String?, histograms: [Metric: [Bucket]]) {
        self.appVersion = appVersion
        self.osVersion = osVersion
        self.histograms = histograms
    }

    /// The longest duration read as one (a week, in milliseconds): a launch histogram's buckets end within minutes, so
    /// anything longer is not a duration MetricKit wrote, and every later sum and conversion stays exact.
    public static let maximumMilliseconds: Double = 7 * 24 * 3_600_000
    /// The most launches one bucket is read as counting (2^32): a device's day counts thousands, and sums of buckets
    /// over any number of payloads cannot overflow.
    public static let maximumBucketCount = 1 << 32

    /// A duration as MetricKit writes it (`1000 ms`, `1.5 s`, `20 secs.`, `1530毫秒`), in milliseconds; nil for a
    /// value it cannot read without guessing — a grouping or decimal comma (`1,530 ms` is 1530 in English and
    /// 1.53 in German) or an unknown unit — and for one over ``maximumMilliseconds``.
    public static func milliseconds(_ text: String) -> Double? {
        var number = ""
        var rest = Substring(text)
        while let first = rest.first, first.isASCII, first.isNumber || first == "." {
            number.append(first)
            rest = rest.dropFirst()
        }
        guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, let value = Double(number), value.isFinite else { return nil }
        let unit = rest.drop { $0 == " " || $0 == "\u{00A0}" }.lowercased()
        let milliseconds: Double
        switch unit {
        case "ms", "msec", "msecs", "msecs.", "毫秒", "мс", "ミリ秒": milliseconds = value
        case "s", "sec", "sec.", "secs", "secs.", "second", "seconds", "秒", "с", "sek.", "seg.": milliseconds = value * 1000
        default: return nil
        }
        return milliseconds <= maximumMilliseconds ? milliseconds : nil
    }

    /// A bucket's launch count as written (`3`), or nil for one that is not a whole number from 0 to
    /// ``maximumBucketCount``.
    public static func bucketCount(_ text: String) -> Int? {
        guard let count = Int(text), count >= 0, count <= maximumBucketCount else { return nil }
        return count
    }
}

