public import PrewarmLintModel

extension LogTimestamp {
    /// The time as reports write it beside a finding's evidence: ISO 8601, then `~` when part of it (the year, the date
    /// or the UTC offset) is not in the log and was inferred (`--date`, `--year`, `--utc-offset`, or the file's date) —
    /// as the event table marks it.
    public var evidenceText: String { inferred.isEmpty ? iso8601 : iso8601 + "~" }

    /// What the `~` after an evidence time means, for a report that shows one (a sentence, without its full stop).
    public static let inferredMarkNote = "A time marked ~ has a part the log does not print (its year, date or UTC offset), inferred from --date, --year, --utc-offset or the file's date"
}
