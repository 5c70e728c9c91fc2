public import PrewarmLintModel

/// Apple's launch measures for one app version, summed over the MetricKit payloads read: per metric, how many
/// launches, their median and 90th percentile (read from the buckets: linear within the bucket the rank falls
/// in), and the share of launches the system optimized (prewarmed).
public struct MetricKitLaunchSummary: Sendable, Hashable {
    /// One metric's launches.
    public struct Measure: Sendable, Hashable {
        /// How many launches the histograms count.
        public var launches: Int
        /// The median, in milliseconds.
        public var median: Double
        /// The 90th percentile, in milliseconds.
        public var p90: Double
    }

    /// The app version (`metaData.appVersion`, else the build), or `unknown`.
    public var appVersion: String
    /// How many payloads.
    public var payloads: Int
    /// The measures present, by metric.
    public var measures: [MetricKitLaunchMetrics.Metric: Measure]

    /// The share of first draws the system optimized: optimized launches over optimized plus the others. Apple
    /// documents the two histograms as launches with and without prewarming; nil when either is absent.
    public var optimizedShare: Double? {
        guard let optimized = measures[.optimizedTimeToFirstDraw]?.launches, let other = measures[.timeToFirstDraw]?.launches else { return nil }
        let all = Double(optimized) + Double(other)
        return all > 0 ? Double(optimized) / all : nil
    }

    /// One summary per app version (sorted by version text), the payloads' buckets summed.
    public static func summaries(_ payloads: [MetricKitLaunchMetrics]) -> [MetricKitLaunchSummary] {
        var byVersion: [String: (payloads: Int, buckets: [MetricKitLaunchMetrics.Metric: [MetricKitLaunchMetrics.Bucket]])] = [:]
        for payload in payloads where !payload.histograms.isEmpty {
            let version = payload.appVersion ?? "unknown"
            byVersion[version, default: (0, [:])].payloads += 1
            for (metric, buckets) in payload.histograms { byVersion[version]!.buckets[metric, default: []] += buckets }
        }
        return byVersion.keys.sorted().map { version in
            let entry = byVersion[version]!
            var measures: [MetricKitLaunchMetrics.Metric: Measure] = [:]
            for (metric, buckets) in entry.buckets {
                let sorted = buckets.sorted { ($0.startMilliseconds, $0.endMilliseconds) < ($1.startMilliseconds, $1.endMilliseconds) }
                // Saturating: a bucket built by a caller may count anything (the reader keeps each to 2^32).
                let launches = sorted.reduce(0) { sum, bucket in
                    let (total, overflow) = sum.addingReportingOverflow(max(0, bucket.count))
                    return overflow ? Int.max : total
                }
                guard launches > 0 else { continue }
                measures[metric] = Measure(launches: launches, median: percentile(sorted, 50, of: launches), p90: percentile(sorted, 90, of: launches))
            }
            return MetricKitLaunchSummary(appVersion: version, payloads: entry.payloads, measures: measures)
        }
    }

    /// The value below which `percent` of the launches fall, linear within its bucket.
    static func percentile(_ buckets: [MetricKitLaunchMetrics.Bucket], _ percent: Double, of total: Int) -> Double {
        let rank = percent / 100 * Double(total)
        var below = 0.0
        for bucket in buckets where bucket.count > 0 {
            let count = Double(bucket.count)
            if below + count >= rank {
                let fraction = (rank - below) / count
                return bucket.startMilliseconds + fraction * (bucket.endMilliseconds - bucket.startMilliseconds)
            }
            below += count
        }
        return buckets.last?.endMilliseconds ?? 0
    }
}
