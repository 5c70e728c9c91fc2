import Foundation
import PrewarmLint

/// Formats the benchmark generator writes.
enum SyntheticLogFormat: String {
    case ndjson, logShow = "log-show", consoleCopy = "console-copy", plist
}

/// Writes a deterministic synthetic device log: the daemons' real message shapes (runningboardd,
/// SpringBoard/FrontBoard, dasd, securityd, kernel), multi-line assertion descriptors, and a
/// majority of unrelated noise, as a real device produces. Enough for throughput and memory;
/// issue #6 grows it into the realistic many-app generator.
struct SyntheticLogGenerator {
    let format: SyntheticLogFormat
    /// The share of lines (percent) from processes that have nothing to do with launches, as on a
    /// real device, where most lines matter to no rule. 0 keeps the dense launch-heavy mix.
    let noisePercent: Int
    private var state: UInt64
    private var microseconds: Int64 = 1_710_772_800_000_000  // 2024-03-18T14:40:00Z

    init(format: SyntheticLogFormat, seed: UInt64, noisePercent: Int = 0) {
        self.format = format
        self.noisePercent = noisePercent
        self.state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    private mutating func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }

    /// Daemons of a real device that log constantly and never about launches; half are not in the
    /// classifier's list of known system processes, as most of a real device's hundreds are not.
    private static let noise: [(String, Int, String, String, String)] = [
        ("locationd", 88, "CoreLocation", "com.apple.locationd.Core", "Client"),
        ("wifid", 71, "WiFiPolicy", "com.apple.WiFiPolicy", "WiFi"),
        ("CommCenter", 91, "CommCenter", "com.apple.CommCenter", "ul"),
        ("symptomsd", 130, "SymptomEvaluator", "com.apple.symptomsd", "analytics"),
        ("akd", 202, "AuthKit", "com.apple.authkit", "core"),
        ("geod", 214, "GeoServices", "com.apple.GeoServices", "tiles"),
        ("assistantd", 230, "AssistantServices", "com.apple.assistant", "Connection"),
        ("com.apple.WebKit.Networking", 640, "Network", "com.apple.network", "connection"),
        ("healthd", 151, "HealthDaemon", "com.apple.healthkit", "sync"),
        ("bluetoothd", 77, "bluetoothd", "com.apple.bluetooth", "Server.LE"),
    ]

    private mutating func noiseMessage() -> String {
        switch next(5) {
        case 0: return "[C\(next(9000)):\(next(9))] event: client:connection_idle @\(next(999)).\(next(999))s"
        case 1: return "Received bytes: \(next(99999)) from \(next(255)).\(next(255)).\(next(255)).\(next(255)):443 on en0"
        case 2: return "-[CLClientManager onClientEvent:] Client com.example.maps has registered for significant location changes"
        case 3: return "Timer fired for task \(next(99999)) with tolerance \(next(100)) ms, next fire in \(next(3600)) s"
        default: return "Cache hit ratio \(next(100))%, \(next(5000)) entries, \(next(2000)) KB resident"
        }
    }

    private static let bundles = ["com.example.ledger", "com.example.mail", "com.example.maps", "com.acme.chat", "org.example.reader"]
    private static let processes = [
        ("runningboardd", 33, "/usr/libexec/runningboardd", "RunningBoard", "com.apple.runningboard", "process"),
        ("SpringBoard", 34, "/System/Library/CoreServices/SpringBoard.app/SpringBoard", "FrontBoard", "com.apple.FrontBoard", "Process"),
        ("dasd", 105, "/usr/libexec/dasd", "dasd", "com.apple.aprs", "appResume.prewarmInterface"),
        ("securityd", 115, "/usr/libexec/securityd", "Security", "com.apple.securityd", "SecError"),
        ("kernel", 0, "/kernel", "kernel", "", ""),
        ("locationd", 88, "/usr/libexec/locationd", "CoreLocation", "com.apple.locationd.Core", "Client"),
        ("wifid", 71, "/usr/sbin/wifid", "WiFiPolicy", "com.apple.WiFiPolicy", "WiFi"),
        ("mediaserverd", 92, "/usr/sbin/mediaserverd", "MediaExperience", "com.apple.coremedia", "cmsession"),
    ]

    private mutating func message(process: Int, bundle: String, pid: Int) -> String {
        switch (process, next(6)) {
        case (0, 0): return "Executing launch request for app<\(bundle)(501)> (DAS Prewarm launch)"
        case (0, 1): return "Calculated state for app<\(bundle)(501)>: running-suspended-NotVisible (role: None) (endowments: <private>)"
        case (0, 2): return "[app<\(bundle)(501)>:\(pid)] Set jetsam priority to 10 [0] flag[1]"
        case (0, _): return "Acquiring assertion targeting [app<\(bundle)(501)>:\(pid)] from originator [osservice<com.apple.SpringBoard>:34] with description <RBSAssertionDescriptor| \"FBApplicationProcess\" ID:33-34-\(next(99999)) target:\(pid) attributes:[\n\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"Bootstrap-Foreground\" sourceEnvironment:\"(null)\">,\n\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"Visibility\" sourceEnvironment:\"(null)\">\n\t]>"
        case (1, 0): return "Bootstrapping app<\(bundle)> with intent foreground-interactive"
        case (1, 1): return "[app<\(bundle)>:\(pid)] Setting process visibility to: Foreground"
        case (1, _): return "[app<\(bundle)>:\(pid)] Bootstrap success!"
        case (2, _): return "Attempting prewarm for \(bundle)"
        case (3, _): return "\(bundle.split(separator: ".").last!)[\(pid)]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308 \"ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.\" UserInfo={numberOfErrorsDeep=0}"
        case (4, _): return "memorystatus: set assertion priority(10) target \(bundle.split(separator: ".").last!):\(pid)"
        case (5, _): return "{\"msg\":\"client authorization\", \"client\":\"\(bundle)\", \"authorized\":\(next(2) == 0)}"
        case (6, _): return "WiFi link quality rssi:-\(40 + next(50)) noise:-\(90 + next(10)) tx rate:\(next(866)) Mbps, channel \(1 + next(165))"
        default: return "-CMSessionMgr- CMSessionMgrHandleApplicationStateChange: Client \(bundle) with pid '\(pid)' is now Background"
        }
    }

    mutating func write(to path: String, bytes target: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
        defer { try? handle.close() }
        var buffer = ""
        var written = 0
        if format == .logShow {
            buffer += "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
        }
        if format == .plist {
            buffer += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<array>\n"
        }
        while written < target {
            microseconds += Int64(50 + next(4000))
            var processIndex = next(Self.processes.count)
            var process = Self.processes[processIndex]
            let bundle = Self.bundles[next(Self.bundles.count)]
            var text: String
            if noisePercent > 0, next(100) < noisePercent {
                let daemon = Self.noise[next(Self.noise.count)]
                process = (daemon.0, daemon.1, "/usr/libexec/\(daemon.0)", daemon.2, daemon.3, daemon.4)
                processIndex = -1
                text = noiseMessage()
            } else {
                // Each app keeps its pid, as a real process does, so sessions are real sessions.
                let pid = 1000 + (Self.bundles.firstIndex(of: bundle) ?? 0) * 11 + (noisePercent > 0 ? 0 : next(3000))
                text = message(process: processIndex, bundle: bundle, pid: pid)
            }
            let type = ["Default", "Info", "Debug", "Error"][next(4)]
            let thread = 0x1000 + next(0xfffff)
            let local = microseconds - 7 * 3_600_000_000
            let seconds = local / 1_000_000
            let days = seconds / 86_400
            let (year, month, day) = CivilDateTime.civil(fromDays: days)
            let secondOfDay = Int(seconds % 86_400)
            let fraction = Int(local % 1_000_000)
            let clock = String(format: "%02d:%02d:%02d.%06d", secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, fraction)
            let date = String(format: "%04d-%02d-%02d", year, month, day)
            switch format {
            case .ndjson:
                let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
                let image = process.2.replacingOccurrences(of: "/", with: "\\/")
                buffer += "{\"timezoneName\":\"\",\"messageType\":\"\(type)\",\"eventType\":\"logEvent\",\"source\":null,\"formatString\":\"%{public}@\",\"userID\":501,\"activityIdentifier\":0,\"subsystem\":\"\(process.4)\",\"category\":\"\(process.5)\",\"threadID\":\(thread),\"senderImageUUID\":\"6E1B2C4D-8A7F-3B21-9C0E-5D4F3A2B1C0D\",\"backtrace\":{\"frames\":[{\"imageOffset\":\(next(900000)),\"imageUUID\":\"6E1B2C4D-8A7F-3B21-9C0E-5D4F3A2B1C0D\"}]},\"bootUUID\":\"E312ED28-914E-4C3C-9B9E-4926AFCCD890\",\"processImagePath\":\"\(image)\",\"senderImagePath\":\"\(image)\",\"timestamp\":\"\(date) \(clock)-0700\",\"machTimestamp\":\(microseconds * 24),\"eventMessage\":\"\(escaped)\",\"processImageUUID\":\"05BA185B-9D21-3EE8-B7D8-5CE21382B5E5\",\"traceID\":0,\"processID\":\(process.1),\"senderProgramCounter\":\(next(900000)),\"parentActivityIdentifier\":0}\n"
            case .logShow:
                let scope = process.4.isEmpty ? "" : "[\(process.4):\(process.5)] "
                let image = process.3 == process.0 ? "" : "(\(process.3)) "
                let typeColumn = type.padding(toLength: 12, withPad: " ", startingAt: 0)
                let pid = String(process.1).padding(toLength: 7, withPad: " ", startingAt: 0)
                let threadColumn = "0x\(String(thread, radix: 16))".padding(toLength: 11, withPad: " ", startingAt: 0)
                buffer += "\(date) \(clock)-0700 \(threadColumn)\(typeColumn)0x0                  \(pid)0    \(process.0): \(image)\(scope)\(text)\n"
            case .consoleCopy:
                buffer += "\(type.lowercased())\t\(clock)-0700\t\(process.0)\t\(text)\n"
            case .plist:
                // What `plutil -convert xml1` (or Python's plistlib) writes for the ndjson record above.
                let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    .replacingOccurrences(of: ">", with: "&gt;")
                buffer += "\t<dict>\n\t\t<key>activityIdentifier</key>\n\t\t<integer>0</integer>\n\t\t<key>bootUUID</key>\n\t\t<string>E312ED28-914E-4C3C-9B9E-4926AFCCD890</string>\n\t\t<key>category</key>\n\t\t<string>\(process.5)</string>\n\t\t<key>eventMessage</key>\n\t\t<string>\(escaped)</string>\n\t\t<key>eventType</key>\n\t\t<string>logEvent</string>\n\t\t<key>formatString</key>\n\t\t<string>%{public}@</string>\n\t\t<key>machTimestamp</key>\n\t\t<integer>\(microseconds * 24)</integer>\n\t\t<key>messageType</key>\n\t\t<string>\(type)</string>\n\t\t<key>processID</key>\n\t\t<integer>\(process.1)</integer>\n\t\t<key>processImagePath</key>\n\t\t<string>\(process.2)</string>\n\t\t<key>senderImagePath</key>\n\t\t<string>\(process.2)</string>\n\t\t<key>subsystem</key>\n\t\t<string>\(process.4)</string>\n\t\t<key>threadID</key>\n\t\t<integer>\(thread)</integer>\n\t\t<key>timestamp</key>\n\t\t<string>\(date) \(clock)-0700</string>\n\t\t<key>timezoneName</key>\n\t\t<string></string>\n\t</dict>\n"
            }
            if buffer.utf8.count >= 1 << 20 {
                written += buffer.utf8.count
                handle.write(Data(buffer.utf8))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if format == .plist { buffer += "</array>\n</plist>\n" }
        if !buffer.isEmpty { handle.write(Data(buffer.utf8)) }
    }
}
