public import PrewarmLintModel

/// Collects the launch histograms of MetricKit JSON as it streams past (a streaming JSON path capture): one
/// `MetricKitLaunchMetrics` per payload holding `applicationLaunchMetrics`, whether the input is one payload
/// or an array of them. Values it cannot read (a localized number with a comma) are counted, never guessed.
public struct MetricKitLaunchCollector {
    private var capture = JSONPathCapture(limit: 1 << 20) { path in MetricKitLaunchCollector.kept(path) }
    private var launchMetrics: [Int: [MetricKitLaunchMetrics.Metric: [MetricKitLaunchMetrics.Bucket]]] = [:]
    private var metaData: [Int: (appVersion: String?, osVersion: String?)] = [:]
    /// The payload's top-level `appVersion` (`latestApplicationVersion`), which names the version better than the build.
    private var topLevelVersion: [Int: String] = [:]
    /// Buckets whose bounds could not be read (localized with a comma, an unknown unit).
    public private(set) var unreadableBuckets = 0
    /// The payloads beyond the limit (10,000), not read.
    public private(set) var payloadsDropped = 0

    static let maximumPayloads = 10_000

    /// A collector for one input.
    public init() {}

    private static func kept(_ path: [JSONPathCapture.Step]) -> Bool {
        let rest: ArraySlice<JSONPathCapture.Step>
        if case .index? = path.first { rest = path.dropFirst() } else { rest = path[...] }
        guard rest.count == 1, case .key(let key) = rest.first! else { return false }
        return key == "applicationLaunchMetrics" || key == "metaData" || key == "appVersion" || key == "latestApplicationVersion"
    }

    /// Reads the next bytes.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var taken: [JSONPathCapture.Value] = []
        capture.feed(bytes) { taken.append($0) }
        for value in taken where !value.overflowed { take(value) }
    }

    /// The payloads' launch metrics, in input order; and whether the JSON was whole.
    public mutating func finish() -> (metrics: [MetricKitLaunchMetrics], isWhole: Bool) {
        let whole = capture.finish()
        let payloads = Set(launchMetrics.keys).sorted()
        return (payloads.map { payload in
            MetricKitLaunchMetrics(appVersion: topLevelVersion[payload] ?? metaData[payload]?.appVersion, osVersion: metaData[payload]?.osVersion,
                                   histograms: launchMetrics[payload] ?? [:])
        }, whole)
    }

    private mutating func take(_ value: JSONPathCapture.Value) {
        let payload: Int
        if case .index(let index)? = value.path.first { payload = index } else { payload = 0 }
        guard case .key(let key)? = value.path.last else { return }
        if launchMetrics[payload] == nil, metaData[payload] == nil, launchMetrics.count + metaData.count >= Self.maximumPayloads * 2 {
            payloadsDropped += 1
            return
        }
        value.bytes.withUnsafeBytes { raw in
            if key == "appVersion" || key == "latestApplicationVersion" {
                if let string = try? JSONObjectScanner.scanValue(raw, JSONObjectScanner.skipWhitespace(raw, 0)), string.kind == .string {
                    topLevelVersion[payload] = JSONStringDecoder.decode(raw, string).text
                }
                return
            }
            if key == "metaData" {
                var appVersion: String?, buildVersion: String?, osVersion: String?
                _ = try? JSONObjectScanner.scanObject(raw, from: JSONObjectScanner.skipWhitespace(raw, 0)) { member, _, value in
                    guard value.kind == .string else { return }
                    let name = raw.slice(member.lowerBound, member.upperBound)
                    if name.elementsEqual("appVersion".utf8) { appVersion = JSONStringDecoder.decode(raw, value).text }
                    if name.elementsEqual("appBuildVersion".utf8) { buildVersion = JSONStringDecoder.decode(raw, value).text }
                    if name.elementsEqual("osVersion".utf8) { osVersion = JSONStringDecoder.decode(raw, value).text }
                }
                metaData[payload] = (appVersion ?? buildVersion, osVersion)
                return
            }
            var histograms: [MetricKitLaunchMetrics.Metric: [MetricKitLaunchMetrics.Bucket]] = [:]
            _ = try? JSONObjectScanner.scanObject(raw, from: JSONObjectScanner.skipWhitespace(raw, 0)) { member, _, value in
                guard value.kind == .object,
                      let metric = MetricKitLaunchMetrics.Metric.named(String(decoding: raw.slice(member.lowerBound, member.upperBound), as: UTF8.self))
                else { return }
                histograms[metric] = buckets(of: value, in: raw)
            }
            launchMetrics[payload] = histograms
        }
    }

    /// `{"histogramNumBuckets": N, "histogramValue": {"0": {"bucketStart": "1000 ms", "bucketEnd": "1010 ms",
    /// "bucketCount": 3}, …}}` (bucket keys in any order), as buckets sorted by their start.
    private mutating func buckets(of histogram: JSONValue, in raw: UnsafeRawBufferPointer) -> [MetricKitLaunchMetrics.Bucket] {
        var result: [MetricKitLaunchMetrics.Bucket] = []
        var unreadable = 0
        _ = try? JSONObjectScanner.scanObject(raw, from: histogram.range.lowerBound) { member, _, value in
            guard value.kind == .object, raw.slice(member.lowerBound, member.upperBound).elementsEqual("histogramValue".utf8) else { return }
            _ = try? JSONObjectScanner.scanObject(raw, from: value.range.lowerBound) { _, _, bucket in
                guard bucket.kind == .object else { return }
                var start: Double?, end: Double?, count: Int?
                _ = try? JSONObjectScanner.scanObject(raw, from: bucket.range.lowerBound) { field, _, fieldValue in
                    let name = raw.slice(field.lowerBound, field.upperBound)
                    let text = fieldValue.kind == .string ? JSONStringDecoder.decode(raw, fieldValue).text
                        : String(decoding: raw.slice(fieldValue.range.lowerBound, fieldValue.range.upperBound), as: UTF8.self)
                    if name.elementsEqual("bucketStart".utf8) { start = MetricKitLaunchMetrics.milliseconds(text) }
                    if name.elementsEqual("bucketEnd".utf8) { end = MetricKitLaunchMetrics.milliseconds(text) }
                    if name.elementsEqual("bucketCount".utf8) { count = MetricKitLaunchMetrics.bucketCount(text) }
                }
                if let start, let end, let count, end >= start {
                    result.append(MetricKitLaunchMetrics.Bucket(startMilliseconds: start, endMilliseconds: end, count: count))
                } else {
                    unreadable += 1
                }
            }
        }
        unreadableBuckets += unreadable
        return result.sorted { $0.startMilliseconds < $1.startMilliseconds }
    }
}
