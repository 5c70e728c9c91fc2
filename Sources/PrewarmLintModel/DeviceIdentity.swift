/// The device and system an input says it came from, taken only from what the input says: a crash report's header, a
/// unified log file's header, a sysdiagnose's name and `SystemVersion.plist`, MetricKit's metadata. Never guessed: a
/// part the input does not say is nil.
public struct DeviceIdentity: Sendable, Hashable, Comparable {
    /// What said it.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// An `.ips` report's metadata line and body (`os_version`, `modelCode` or `product`, `incident_id`).
        case crashReport = "crash-report"
        /// A tracev3 file's header (the build, the hardware, the boot).
        case unifiedLog = "unified-log"
        /// A sysdiagnose's name and its `SystemVersion.plist`.
        case sysdiagnose
        /// A MetricKit payload's metadata (`osVersion`, `deviceType`).
        case metricKit = "metrickit"
    }

    /// The system's name as the input writes it (`iPhone OS`, `iPadOS`, `macOS`).
    public var system: String?
    /// Its version (`17.4`).
    public var version: String?
    /// Its build (`21E219`).
    public var build: String?
    /// The device model (`iPhone15,2`), or the board (`J96AP`) where that is what the input says.
    public var model: String?
    /// What said it.
    public var source: Source
    /// The input's own identity: a crash report's incident, a unified log's boot, a sysdiagnose's name.
    public var reference: String?

    /// An identity; every part the input does not say is nil.
    public init(system: String? = nil, version: String? = nil, build: String? = nil, model: String? = nil, source: Source,
                reference: String? = nil) {
        self.system = system
        self.version = version
        self.build = build
        self.model = model
        self.source = source
        self.reference = reference
    }

    /// `iPhone OS 17.4 (21E219)` (a crash report's `os_version`, MetricKit's `osVersion`) as its system, version and
    /// build; nil for text of another shape.
    public static func systemParts(_ text: String) -> (system: String, version: String, build: String?)? {
        var words = text.split(separator: " ", omittingEmptySubsequences: true)
        var build: String?
        if let last = words.last, last.hasPrefix("("), last.hasSuffix(")"), last.count > 2 {
            build = String(last.dropFirst().dropLast())
            words.removeLast()
        }
        guard words.count >= 2, let version = words.last, version.first?.isNumber == true,
              version.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        return (words.dropLast().joined(separator: " "), String(version), build)
    }

    /// Orders by source, then by each part: a stable order for reports.
    public static func < (lhs: DeviceIdentity, rhs: DeviceIdentity) -> Bool {
        func key(_ identity: DeviceIdentity) -> [String] {
            [identity.source.rawValue, identity.system ?? "", identity.version ?? "", identity.build ?? "", identity.model ?? "", identity.reference ?? ""]
        }
        return key(lhs).lexicographicallyPrecedes(key(rhs))
    }
}
