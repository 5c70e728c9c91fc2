import PrewarmLintClassifier
public import PrewarmLintInsights
import PrewarmLintSessions
import PrewarmLintModel

/// `prewarm-lint stats` output: per app and session kind, each phase's count, min, median, p90, p95,
/// max and a histogram; user-perceived phases apart from process-start-based ones, which are flagged
/// in prewarmed groups as including the suspension; then why apps were (not) prewarmed.
public struct StatisticsReporter: Sendable {
    /// The formats `stats --format` takes.
    public enum Format: String, Sendable, CaseIterable {
        /// A text table with histograms, JSON, Markdown tables, or CSV rows.
        case text, json, markdown, csv
    }

    /// The output format.
    public var format: Format

    /// A reporter of this format.
    public init(format: Format = .text) {
        self.format = format
    }

    /// The statistics in this format.
    public func render(_ statistics: LaunchStatistics) -> String {
        switch format {
        case .text: text(statistics)
        case .json: json(statistics)
        case .markdown: markdown(statistics)
        case .csv: csv(statistics)
        }
    }

    static let warning = "spans the suspension of prewarmed sessions: not a launch time"

    private func text(_ statistics: LaunchStatistics) -> String {
        var out = ""
        for group in statistics.groups {
            out += group.sessions == 0 ? "\(group.app) — no session: dyld's launch statistics only\n"
                : "\(group.app) — \(group.kind.rawValue), \(group.sessions) session\(group.sessions == 1 ? "" : "s")\n"
            guard !group.phases.isEmpty else { out += "  no phase measured\n\n"; continue }
            let width = max(30, group.phases.map(\.phase.name.count).max() ?? 0)
            out += "  " + "phase".padding(width) + "     n" + ["min", "median", "p90", "p95", "max"].map { $0.leftPadding(13) }.joined() + "\n"
            for (index, entry) in group.phases.enumerated() {
                let (phase, summary) = entry
                func section(_ phase: LaunchPhase) -> Int { phase.isPreMainStatistics ? 2 : phase.userPerceived ? 0 : 1 }
                if index == 0 || section(phase) != section(group.phases[index - 1].phase) {
                    out += ["  user-perceived: the launch the user waited for (measured as said below it), then its phases:\n",
                            "  after the first screen, from the process start, and the prewarm gap:\n",
                            "  pre-main, as dyld's launch statistics (DYLD_PRINT_STATISTICS) printed it:\n"][section(phase)]
                }
                var line = "  " + phase.name.padding(width) + String(summary.count).leftPadding(6)
                for value in [summary.minimum, summary.median, summary.p90, summary.p95, summary.maximum] {
                    line += PhaseSummary.duration(value).leftPadding(13)
                }
                out += line + "\n"
                out += "  " + "".padding(width) + "      " + summary.sparkline + "\n"
                if phase.isLaunch {
                    let measured = group.launchDefinitions.map { "\($0.label) ×\($0.sessions)" }.joined(separator: ", ")
                    out += "  " + "".padding(width) + "      measured as: \(measured)\n"
                }
                if group.includesSuspension(phase) { out += "  " + "".padding(width) + "      ⚠ \(Self.warning)\n" }
            }
            out += "\n"
        }
        if statistics.partial { out += "interrupted: these statistics cover only what was read until then\n\n" }
        if !statistics.metricKit.isEmpty {
            out += "MetricKit (Apple's own launch measures, from the metric payloads read):\n"
            for summary in statistics.metricKit {
                out += "  app version \(summary.appVersion), \(summary.payloads) payload\(summary.payloads == 1 ? "" : "s")\n"
                for metric in MetricKitLaunchMetrics.Metric.allCases {
                    guard let measure = summary.measures[metric] else { continue }
                    out += "    " + metric.rawValue.padding(30) + String(measure.launches).leftPadding(8) + " launches"
                        + "  median " + PhaseSummary.duration(measure.median) + "  p90 " + PhaseSummary.duration(measure.p90) + "\n"
                }
                if let share = summary.optimizedShare {
                    out += "    optimized (prewarmed) by the system: \(Self.percent(share)) of first draws\n"
                }
            }
            if statistics.metricKitUnreadableBuckets > 0 {
                out += "  \(statistics.metricKitUnreadableBuckets) bucket\(statistics.metricKitUnreadableBuckets == 1 ? "" : "s") not read: a localized value (a comma is 1,530 in English and 1.53 in German), an unknown unit, or a count or duration out of range\n"
            }
            out += "\n"
        }
        if !statistics.decisions.isEmpty {
            out += "why (not) prewarmed:\n"
            for decision in statistics.decisions {
                out += "  \(decision.time.iso8601) \(decision.app ?? "(device)")  \(decision.reason.rawValue): \(decision.reason.explanation)\n"
                out += "      \(decision.evidence)  \(decision.text)\n"
            }
        }
        return out
    }

    private func json(_ statistics: LaunchStatistics) -> String {
        var writer = JSONTextWriter()
        writer.beginObject()
        writer.field("schemaVersion", 1)
        if statistics.partial {
            writer.key("partial")
            writer.bool(true)
        }
        writer.key("groups")
        writer.beginArray()
        for group in statistics.groups {
            writer.beginObject()
            writer.field("app", group.app)
            writer.field("kind", group.kind.rawValue)
            writer.field("sessions", group.sessions)
            writer.key("launchDefinitions")
            writer.beginArray()
            for definition in group.launchDefinitions {
                writer.beginObject()
                writer.field("measuredAs", definition.label)
                writer.field("sessions", definition.sessions)
                writer.endObject()
            }
            writer.endArray()
            writer.key("phases")
            writer.beginArray()
            for (phase, summary) in group.phases {
                writer.beginObject()
                writer.field("phase", phase.name)
                writer.field("from", phase.from)
                writer.field("to", phase.to)
                writer.key("userPerceived")
                writer.bool(phase.userPerceived)
                writer.key("includesSuspension")
                writer.bool(group.includesSuspension(phase))
                writer.field("count", summary.count)
                for (key, value) in [("minMs", summary.minimum), ("medianMs", summary.median), ("p90Ms", summary.p90), ("p95Ms", summary.p95),
                                     ("maxMs", summary.maximum)] {
                    writer.key(key)
                    writer.number(value)
                }
                writer.key("histogram")
                writer.beginArray()
                for count in summary.histogram { writer.integer(count) }
                writer.endArray()
                writer.key("bucketEdgesMs")
                writer.beginArray()
                for edge in summary.bucketEdges { writer.number(edge) }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.key("prewarmDecisions")
        writer.beginArray()
        for decision in statistics.decisions { LintReport.write(decision, to: &writer) }
        writer.endArray()
        if !statistics.metricKit.isEmpty {
            writer.key("metricKit")
            writer.beginArray()
            for summary in statistics.metricKit {
                writer.beginObject()
                writer.field("appVersion", summary.appVersion)
                writer.field("payloads", summary.payloads)
                for metric in MetricKitLaunchMetrics.Metric.allCases {
                    guard let measure = summary.measures[metric] else { continue }
                    writer.key(metric.rawValue)
                    writer.beginObject()
                    writer.field("launches", measure.launches)
                    writer.key("medianMs")
                    writer.number(measure.median)
                    writer.key("p90Ms")
                    writer.number(measure.p90)
                    writer.endObject()
                }
                if let share = summary.optimizedShare {
                    writer.key("optimizedShare")
                    writer.number(share)
                }
                writer.endObject()
            }
            writer.endArray()
            writer.field("metricKitUnreadableBuckets", statistics.metricKitUnreadableBuckets)
        }
        writer.endObject()
        return writer.text + "\n"
    }

    /// `37%`.
    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }

    private func markdown(_ statistics: LaunchStatistics) -> String {
        var out = "# Launch statistics\n"
        for group in statistics.groups {
            out += group.sessions == 0 ? "\n## `\(group.app)` — no session: dyld's launch statistics only\n\n"
                : "\n## `\(group.app)` — \(group.kind.rawValue) (\(group.sessions) session\(group.sessions == 1 ? "" : "s"))\n\n"
            out += "| phase | n | min | median | p90 | p95 | max | |\n|---|---:|---:|---:|---:|---:|---:|---|\n"
            for (phase, summary) in group.phases {
                let note = group.includesSuspension(phase) ? "⚠ \(Self.warning)"
                    : phase.isLaunch ? "the user-perceived launch: " + group.launchDefinitions.map { "\($0.label) ×\($0.sessions)" }.joined(separator: ", ")
                    : phase.userPerceived ? "user-perceived" : ""
                let values = [summary.minimum, summary.median, summary.p90, summary.p95, summary.maximum].map(PhaseSummary.duration)
                out += "| \(phase.name) | \(summary.count) | " + values.joined(separator: " | ") + " | \(note) |\n"
            }
        }
        if !statistics.metricKit.isEmpty {
            out += "\n## MetricKit (Apple's launch measures)\n\n| app version | metric | launches | median | p90 |\n|---|---|---:|---:|---:|\n"
            for summary in statistics.metricKit {
                for metric in MetricKitLaunchMetrics.Metric.allCases {
                    guard let measure = summary.measures[metric] else { continue }
                    out += "| \(summary.appVersion) | \(metric.rawValue) | \(measure.launches) | \(PhaseSummary.duration(measure.median)) | \(PhaseSummary.duration(measure.p90)) |\n"
                }
                if let share = summary.optimizedShare { out += "| \(summary.appVersion) | optimized share | \(Self.percent(share)) | | |\n" }
            }
        }
        if !statistics.decisions.isEmpty {
            out += "\n## Why (not) prewarmed\n\n| time | app | decision | evidence |\n|---|---|---|---|\n"
            for decision in statistics.decisions {
                out += "| \(decision.time.iso8601) | \(decision.app ?? "(device)") | \(decision.reason.explanation) | `\(decision.evidence)` |\n"
            }
        }
        return out
    }

    private func csv(_ statistics: LaunchStatistics) -> String {
        var out = "app,kind,sessions,phase,user_perceived,includes_suspension,count,min_ms,median_ms,p90_ms,p95_ms,max_ms\n"
        for group in statistics.groups {
            for (phase, summary) in group.phases {
                let values = [summary.minimum, summary.median, summary.p90, summary.p95, summary.maximum].map { JSONTextWriter.numberText($0) }
                out += "\(group.app),\(group.kind.rawValue),\(group.sessions),\"\(phase.name)\",\(phase.userPerceived),\(group.includesSuspension(phase)),\(summary.count),"
                out += values.joined(separator: ",") + "\n"
            }
        }
        return out
    }
}

/// `prewarm-lint compare` output: one row per phase with both medians, the difference, the rank
/// test's p-value, the verdict and the runs a conclusive answer would need.
public struct ComparisonReporter: Sendable {
    /// The formats `compare --format` takes.
    public enum Format: String, Sendable, CaseIterable {
        /// Text, JSON, or a Markdown table.
        case text, json, markdown
    }

    /// The output format.
    public var format: Format

    /// A reporter of this format.
    public init(format: Format = .text) {
        self.format = format
    }

    /// The comparison in this format.
    public func render(_ comparison: LaunchComparison) -> String {
        switch format {
        case .json: return json(comparison)
        case .text, .markdown:
            let markdown = format == .markdown
            var out = markdown ? "# Launch comparison\n\n| app | kind | phase | baseline median (n) | candidate median (n) | Δ | p | verdict | runs for a \(Int(comparison.thresholdMilliseconds)) ms shift | runs for ±\(Int(comparison.errorMilliseconds)) ms |\n|---|---|---|---:|---:|---:|---:|---|---:|---:|\n" : ""
            for row in comparison.rows {
                let delta = Self.signed(row.medianDifference, PhaseSummary.duration(abs(row.medianDifference)))
                    + (row.baseline.median > 0 ? " (\(Self.signed(row.medianDifference, "\(Int(abs(row.medianDifference / row.baseline.median * 100).rounded()))%")))" : "")
                let p = row.p < 0.001 ? "<0.001" : String((row.p * 1000).rounded() / 1000)
                let runs = row.runsToDetectThreshold.map(String.init) ?? "–"
                let error = row.runsForError.map(String.init) ?? "–"
                if markdown {
                    out += "| \(row.app) | \(row.kind.rawValue) | \(row.phase.name) | \(PhaseSummary.duration(row.baseline.median)) (\(row.baseline.count)) | \(PhaseSummary.duration(row.candidate.median)) (\(row.candidate.count)) | \(delta) | \(p) | \(row.verdict.rawValue) | \(runs) | \(error) |\n"
                } else {
                    out += "\(row.verdict == .regression ? "REGRESSION" : row.verdict.rawValue): \(row.app) \(row.kind.rawValue) \(row.phase.name): "
                    out += "median \(PhaseSummary.duration(row.baseline.median)) (n=\(row.baseline.count)) → \(PhaseSummary.duration(row.candidate.median)) (n=\(row.candidate.count)), \(delta), p=\(p)\n"
                    let detect = row.runsToDetectThreshold.map { "about \($0) run\($0 == 1 ? "" : "s") per side would detect a \(Int(comparison.thresholdMilliseconds)) ms shift" }
                        ?? "no spread in these runs to estimate how many would detect a \(Int(comparison.thresholdMilliseconds)) ms shift"
                    let pin = row.runsForError.map { "; \($0) run\($0 == 1 ? " pins" : "s pin") the median within ±\(Int(comparison.errorMilliseconds)) ms" } ?? ""
                    out += "    \(detect)\(pin)\n"
                }
            }
            if comparison.rows.isEmpty { out += "no phase measured in both sets\n" } else { out += (markdown ? "\n" : "") + Self.verdicts(comparison) + "\n" }
            if comparison.partial { out += "interrupted: the comparison covers only what was read until then; no verdict stands\n" }
            return out
        }
    }

    /// `+78 ms`, `−12%`: the sign of `value` (a minus sign, not a hyphen) before `magnitude`.
    static func signed(_ value: Double, _ magnitude: String) -> String {
        (value >= 0 ? "+" : "−") + magnitude
    }

    /// The comparison in one line, naming each phase that moved: `3 phases compared: 1 regressed (com.example.ledger
    /// cold-launch first-frame-marker +78 ms), 2 with no significant change`.
    static func verdicts(_ comparison: LaunchComparison) -> String {
        func named(_ verdict: LaunchComparison.Verdict) -> [String] {
            comparison.rows.filter { $0.verdict == verdict }.map {
                "\($0.app) \($0.kind.rawValue) \($0.phase.name) \(signed($0.medianDifference, PhaseSummary.duration(abs($0.medianDifference))))"
            }
        }
        let regressed = named(.regression), improved = named(.improvement)
        let unchanged = comparison.rows.filter { $0.verdict == .noSignificantChange }.count
        let tooFew = comparison.rows.filter { $0.verdict == .tooFewRuns }.count
        var parts: [String] = []
        if !regressed.isEmpty { parts.append("\(regressed.count) regressed (\(regressed.joined(separator: "; ")))") }
        if !improved.isEmpty { parts.append("\(improved.count) improved (\(improved.joined(separator: "; ")))") }
        if unchanged > 0 { parts.append("\(unchanged) with no significant change") }
        if tooFew > 0 { parts.append("\(tooFew) with too few runs") }
        let count = comparison.rows.count
        return "\(count) phase\(count == 1 ? "" : "s") compared: " + parts.joined(separator: ", ")
    }

    private func json(_ comparison: LaunchComparison) -> String {
        var writer = JSONTextWriter()
        writer.beginObject()
        writer.field("schemaVersion", 1)
        if comparison.partial {
            writer.key("partial")
            writer.bool(true)
        }
        writer.key("regressed")
        writer.bool(comparison.regressed)
        writer.key("thresholdMs")
        writer.number(comparison.thresholdMilliseconds)
        writer.key("thresholdPercent")
        writer.number(comparison.thresholdPercent)
        writer.key("alpha")
        writer.number(comparison.alpha)
        writer.key("rows")
        writer.beginArray()
        for row in comparison.rows {
            writer.beginObject()
            writer.field("app", row.app)
            writer.field("kind", row.kind.rawValue)
            writer.field("phase", row.phase.name)
            for (key, value) in [("baselineMedianMs", row.baseline.median), ("candidateMedianMs", row.candidate.median),
                                 ("medianDifferenceMs", row.medianDifference), ("p", row.p)] {
                writer.key(key)
                writer.number(value)
            }
            writer.field("baselineCount", row.baseline.count)
            writer.field("candidateCount", row.candidate.count)
            writer.field("verdict", row.verdict.rawValue)
            writer.field("runsToDetectThreshold", row.runsToDetectThreshold)
            writer.field("runsForError", row.runsForError)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.text + "\n"
    }
}

extension String {
    func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
