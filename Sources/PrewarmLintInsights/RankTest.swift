import Foundation

/// The Mann–Whitney U test (Wilcoxon rank-sum), two-sided, with the normal approximation and the
/// correction for ties: does one sample tend to be larger than the other? It assumes nothing about
/// the shape of the distributions, which launch times (skewed, with outliers) need.
public enum RankTest {
    /// The two-sided p-value for samples `a` and `b` (each needs at least one value), and U for `a`.
    public static func mannWhitney(_ a: [Double], _ b: [Double]) -> (u: Double, p: Double) {
        let n1 = Double(a.count), n2 = Double(b.count)
        guard n1 > 0, n2 > 0 else { return (0, 1) }
        var all = a.map { ($0, 0) } + b.map { ($0, 1) }
        all.sort { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: all.count)
        var tieTerm = 0.0
        var index = 0
        while index < all.count {
            var end = index
            while end + 1 < all.count, all[end + 1].0 == all[index].0 { end += 1 }
            let rank = Double(index + end + 2) / 2
            for position in index...end { ranks[position] = rank }
            let tied = Double(end - index + 1)
            tieTerm += tied * tied * tied - tied
            index = end + 1
        }
        let rankSumA = zip(all, ranks).filter { $0.0.1 == 0 }.map(\.1).reduce(0, +)
        let u = rankSumA - n1 * (n1 + 1) / 2
        let mean = n1 * n2 / 2
        let n = n1 + n2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return (u, 1) }
        // Continuity correction.
        let z = (abs(u - mean) - 0.5) / variance.squareRoot()
        return (u, min(1, erfc(max(z, 0) / 2.0.squareRoot())))
    }

    /// The sample size per group needed to detect a shift of `difference` with 80% power at a
    /// two-sided 5% level, for values spread like `spread` (a standard deviation), with the rank
    /// test's asymptotic efficiency (3/π of the t test's).
    public static func runsToDetect(difference: Double, spread: Double) -> Int? {
        guard difference > 0, spread > 0 else { return nil }
        let z = 1.959964 + 0.841621
        let n = 2 * (z * spread / difference) * (z * spread / difference) / (3 / Double.pi)
        return n.isFinite && n < 1e9 ? Int(n.rounded(.up)) : nil
    }

    /// The runs needed to know a median within ±`error` (95% confidence) for values spread like
    /// `spread`: the median's standard error is about 1.2533 σ / √n.
    public static func runsForMedian(within error: Double, spread: Double) -> Int? {
        guard error > 0, spread > 0 else { return nil }
        let n = (1.959964 * 1.2533 * spread / error) * (1.959964 * 1.2533 * spread / error)
        return n.isFinite && n < 1e9 ? Int(n.rounded(.up)) : nil
    }

    /// A robust standard deviation: the interquartile range / 1.349 (the sample's own when the IQR is 0).
    public static func spread(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard sorted.count > 1 else { return 0 }
        let iqr = PhaseSummary.percentile(sorted, 75) - PhaseSummary.percentile(sorted, 25)
        if iqr > 0 { return iqr / 1.349 }
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        return (sorted.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(sorted.count - 1)).squareRoot()
    }
}
