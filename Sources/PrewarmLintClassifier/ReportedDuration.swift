/// The duration an app line reports: the first number in it, with its unit (`ms` when none).
public enum ReportedDuration {
    /// `App launch took 7326 ms` → 7,326,000 µs; `launch time: 1.5 s` → 1,500,000 µs;
    /// `stop 7326 0` → 7,326,000 µs.
    public static func microseconds(in text: String) -> Int64? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            guard scalars[index].properties.numericType != nil, scalars[index].isASCII else { index += 1; continue }
            // A number inside a word (`v2`, `0x1f`) is not a duration.
            if index > 0, scalars[index - 1].properties.isAlphabetic || scalars[index - 1] == "." { index += 1; continue }
            var number = ""
            while index < scalars.count, scalars[index].isASCII, scalars[index].properties.numericType != nil || scalars[index] == "." {
                number.unicodeScalars.append(scalars[index])
                index += 1
            }
            while index < scalars.count, scalars[index] == " " { index += 1 }
            var unit = ""
            while index < scalars.count, scalars[index].properties.isAlphabetic { unit.unicodeScalars.append(scalars[index]); index += 1 }
            guard let value = Double(number) else { continue }
            let scale: Double
            switch unit.lowercased() {
            case "s", "sec", "secs", "second", "seconds": scale = 1_000_000
            case "min", "mins", "minute", "minutes": scale = 60_000_000
            case "h", "hour", "hours": scale = 3_600_000_000
            case "us", "µs": scale = 1
            default: scale = 1000
            }
            let result = value * scale
            return result < 1e17 ? Int64(result) : nil
        }
        return nil
    }
}
