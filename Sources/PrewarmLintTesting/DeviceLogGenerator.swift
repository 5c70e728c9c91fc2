import Foundation

/// Writes a realistic, deterministic day of an iPhone's logging: many apps, launch sessions of every
/// kind interleaved (cold launches, prewarms used hours later, prewarms never used, background launches
/// for pushes), each in the daemons' real message shapes — the templates of
/// `docs/research/message-templates.md` and the shapes `scripts/render-scenarios` takes from the
/// real excerpts, multi-line RunningBoard descriptors included — amid the mass of unrelated lines a
/// real device produces. It knows what it wrote: ``sessions`` is the ground truth a test compares
/// the rebuilt sessions with.
///
/// Big inputs are generated, never committed:
/// ```swift
/// var generator = DeviceLogGenerator(configuration: .init(seed: 7, targetBytes: 200 << 20))
/// var writer = DeviceLogWriter(format: .ndjson)
/// while let record = generator.next() { buffer += writer.render(record) }
/// ```
public struct DeviceLogGenerator: Sendable {
    /// What to generate.
    public struct Configuration: Sendable {
        /// The seed: the same seed, the same log, byte for byte.
        public var seed: UInt64
        /// Roughly how many bytes to write; the sessions open at that point are finished after it.
        public var targetBytes: Int
        /// The format the size is estimated in (lines of some formats are twice as long as others).
        public var format: DeviceLogFormat
        /// How many apps are installed.
        public var apps: Int
        /// Launch sessions started per day of log time (a heavy day of use: pushes, prewarms, taps).
        public var sessionsPerDay: Int
        /// How many bytes make one day of log time (nil: the target size, so any size is one whole day,
        /// night and daytime, with its ``sessionsPerDay``).
        public var bytesPerDay: Int?

        /// A configuration; the defaults make one device day of 100 apps and about 2,000 sessions, at any size.
        public init(seed: UInt64 = 1, targetBytes: Int, format: DeviceLogFormat = .ndjson, apps: Int = 100,
                    sessionsPerDay: Int = 3_000, bytesPerDay: Int? = nil) {
            self.seed = seed
            self.targetBytes = targetBytes
            self.format = format
            self.apps = apps
            self.sessionsPerDay = sessionsPerDay
            self.bytesPerDay = bytesPerDay
        }
    }

    /// A session the generator wrote: what a correct rebuild must find.
    public struct Session: Sendable, Hashable {
        /// The app's bundle identifier.
        public var bundleID: String
        /// The process's pid (never reused within one log).
        public var pid: Int
        /// The kind a correct rebuild gives it (`LaunchSession.Kind`'s raw value).
        public var kind: String
        /// When its first line was written, microseconds since 1970 (UTC).
        public var start: Int64
        /// Whether it holds a keychain read failing with -25308 while the device is locked.
        public var keychainLocked: Bool
    }

    /// An installed app.
    struct App: Sendable {
        var bundleID: String
        var name: String
        var containerUUID: String
        /// Scene-based apps run their delegate's launch methods during prewarm.
        var sceneBased: Bool
        /// Reads the keychain in didFinishLaunching (a login token).
        var readsKeychainAtLaunch: Bool
        var busyUntil: Int64 = 0
    }

    /// The UTC offset the device's clock is written in (Pacific daylight time).
    public static let utcOffsetSeconds = -7 * 3600
    /// Midnight of the generated day, local time, in microseconds since 1970 (2024-03-18T00:00-07:00).
    public static let dayStart: Int64 = 1_710_745_200_000_000

    /// What this generator writes.
    public let configuration: Configuration
    /// Every session started so far, in start order.
    public private(set) var sessions: [Session] = []
    private var random: SeededRandom
    private var apps: [App]
    private var clock: Int64 = DeviceLogGenerator.dayStart
    private var noiseGap: Int64
    private var nextStoryStart: Int64
    private var pending = PendingLines()
    private var nextPID = 310
    private var writtenEstimate = 0
    private var estimatedNoiseBytes: Int
    private var finishing = false

    /// A generator; nothing is written until ``next()`` is called.
    public init(configuration: Configuration) {
        self.configuration = configuration
        random = SeededRandom(seed: configuration.seed)
        apps = (0..<max(1, configuration.apps)).map { index in
            let company = Self.companies[index % Self.companies.count]
            let product = Self.products[(index / Self.companies.count + index * 7) % Self.products.count]
            let suffix = index < Self.companies.count * Self.products.count ? "" : "\(index)"
            let name = product.prefix(1).uppercased() + product.dropFirst() + (index % 3 == 0 ? " Pro" : "")
            var uuid = SeededRandom(seed: UInt64(index) &+ 0xA99)
            return App(bundleID: "com.\(company).\(product)\(suffix)", name: name + suffix, containerUUID: uuid.uuid(),
                       sceneBased: index % 4 != 3, readsKeychainAtLaunch: index % 3 != 2)
        }
        // Calibrate: how many bytes one noise line takes in this format, to spread the day over the target size.
        var probe = SeededRandom(seed: configuration.seed ^ 0x5EED)
        var writer = DeviceLogWriter(format: configuration.format)
        var bytes = 0
        for index in 0..<256 { bytes += writer.render(Self.noise(&probe, at: Self.dayStart + Int64(index))).count }
        estimatedNoiseBytes = max(1, bytes / 256)
        let linesPerDay = max(1, (configuration.bytesPerDay ?? configuration.targetBytes) / estimatedNoiseBytes)
        noiseGap = max(1, 86_400_000_000 / Int64(linesPerDay))
        nextStoryStart = Self.dayStart + Int64(random.next(60_000_000))
    }

    /// The next record in time order, or nil when the target size is reached and every session is finished.
    public mutating func next() -> DeviceLogRecord? {
        if !finishing, writtenEstimate >= configuration.targetBytes { finishing = true }
        if finishing {
            guard let line = pending.popFirst() else { return nil }
            return line
        }
        let noiseTime = clock + noiseGap / 2 + Int64(random.next(Int(noiseGap)))
        while nextStoryStart <= noiseTime {
            startStory(at: nextStoryStart)
            let mean = 86_400_000_000 / Int64(max(1, configuration.sessionsPerDay))
            nextStoryStart += 1 + Int64(Double(mean) * random.exponential())
        }
        if let first = pending.first, first.microseconds <= noiseTime {
            let line = pending.popFirst()!
            writtenEstimate += Self.estimate(line, noiseBytes: estimatedNoiseBytes)
            return line
        }
        clock = noiseTime
        writtenEstimate += estimatedNoiseBytes
        return Self.noise(&random, at: noiseTime)
    }

    /// The whole log in memory, with the sessions it holds: for tests of a few megabytes.
    public static func generate(_ configuration: Configuration) -> (bytes: [UInt8], sessions: [Session]) {
        var generator = DeviceLogGenerator(configuration: configuration)
        var writer = DeviceLogWriter(format: configuration.format)
        var bytes = Array(writer.prologue().utf8)
        while let record = generator.next() { bytes += writer.render(record).utf8 }
        bytes += writer.epilogue().utf8
        return (bytes, generator.sessions)
    }

    /// Writes the log to `path` in 1 MiB blocks (memory stays flat at any size) and returns its sessions.
    public static func write(_ configuration: Configuration, to path: String) throws -> [Session] {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var generator = DeviceLogGenerator(configuration: configuration)
        var writer = DeviceLogWriter(format: configuration.format)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 21)
        buffer += writer.prologue().utf8
        while let record = generator.next() {
            buffer += writer.render(record).utf8
            if buffer.count >= 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer += writer.epilogue().utf8
        try handle.write(contentsOf: buffer)
        return generator.sessions
    }

    private static func estimate(_ record: DeviceLogRecord, noiseBytes: Int) -> Int {
        noiseBytes / 2 + record.message.utf8.count
    }

    // MARK: - Stories

    /// The hour of the day (local) of a time.
    static func hour(_ microseconds: Int64) -> Int {
        Int((microseconds - dayStart) / 3_600_000_000 % 24)
    }

    private mutating func startStory(at time: Int64) {
        let idle = apps.indices.filter { apps[$0].busyUntil < time }
        guard !idle.isEmpty else { return }
        let index = idle[random.next(idle.count)]
        let night = Self.hour(time) < 6
        let roll = random.next(100)
        let kind: String
        if night {
            kind = roll < 50 ? "prewarm-unused" : roll < 90 ? "background-launch" : "prewarm-then-launch"
        } else {
            kind = roll < 35 ? "cold-launch" : roll < 65 ? "prewarm-then-launch" : roll < 80 ? "prewarm-unused" : "background-launch"
        }
        let pid = nextPID
        nextPID += 1 + random.next(40)
        if nextPID > 99_000 { nextPID = 310 }
        var story = Story(app: apps[index], pid: pid, start: time, random: random.split())
        let keychainLocked: Bool
        switch kind {
        case "cold-launch": keychainLocked = story.coldLaunch()
        case "prewarm-then-launch": keychainLocked = story.prewarm(used: true, locked: night)
        case "prewarm-unused": keychainLocked = story.prewarm(used: false, locked: night)
        default: keychainLocked = story.backgroundLaunch(locked: night)
        }
        apps[index].busyUntil = story.end + 1_000_000
        sessions.append(Session(bundleID: apps[index].bundleID, pid: pid, kind: kind, start: time, keychainLocked: keychainLocked))
        for line in story.lines { pending.insert(line) }
    }

    // MARK: - Noise

    static let companies = ["example", "acme", "northwind", "contoso", "fabrikam", "globex", "initech", "umbrella"]
    static let products = ["ledger", "notes", "chat", "maps", "reader", "fitness", "weather", "photos", "bank", "music",
                           "podcasts", "mail", "tasks", "travel", "news", "scanner", "wallet", "recipes", "translate", "radio"]

    /// Daemons of a real device that log constantly and never about launches; half are not in the
    /// classifier's list of known system processes, as most of a real device's hundreds are not.
    static let noiseProcesses: [(process: String, pid: Int, image: String, sender: String, subsystem: String, category: String)] = [
        ("locationd", 88, "/usr/libexec/locationd", "/System/Library/Frameworks/CoreLocation.framework/CoreLocation", "com.apple.locationd.Core", "Client"),
        ("wifid", 71, "/usr/sbin/wifid", "/System/Library/PrivateFrameworks/WiFiPolicy.framework/WiFiPolicy", "com.apple.WiFiPolicy", "WiFi"),
        ("CommCenter", 91, "/System/Library/Frameworks/CoreTelephony.framework/Support/CommCenter", "/System/Library/Frameworks/CoreTelephony.framework/Support/CommCenter", "com.apple.CommCenter", "ul"),
        ("symptomsd", 130, "/usr/libexec/symptomsd", "/System/Library/PrivateFrameworks/SymptomEvaluator.framework/SymptomEvaluator", "com.apple.symptomsd", "analytics"),
        ("akd", 202, "/System/Library/PrivateFrameworks/AuthKit.framework/akd", "/System/Library/PrivateFrameworks/AuthKit.framework/AuthKit", "com.apple.authkit", "core"),
        ("geod", 214, "/usr/libexec/geod", "/System/Library/PrivateFrameworks/GeoServices.framework/GeoServices", "com.apple.GeoServices", "tiles"),
        ("assistantd", 230, "/System/Library/PrivateFrameworks/AssistantServices.framework/assistantd", "/System/Library/PrivateFrameworks/AssistantServices.framework/AssistantServices", "com.apple.assistant", "Connection"),
        ("com.apple.WebKit.Networking", 640, "/System/Library/Frameworks/WebKit.framework/XPCServices/com.apple.WebKit.Networking.xpc/com.apple.WebKit.Networking", "/System/Library/Frameworks/Network.framework/Network", "com.apple.network", "connection"),
        ("healthd", 151, "/usr/libexec/healthd", "/System/Library/PrivateFrameworks/HealthDaemon.framework/HealthDaemon", "com.apple.healthkit", "sync"),
        ("bluetoothd", 77, "/usr/sbin/bluetoothd", "/usr/sbin/bluetoothd", "com.apple.bluetooth", "Server.LE"),
        ("mediaserverd", 92, "/usr/sbin/mediaserverd", "/System/Library/PrivateFrameworks/MediaExperience.framework/MediaExperience", "com.apple.coremedia", "cmsession"),
        ("kernel", 0, "/kernel", "/kernel", "", ""),
        ("runningboardd", 33, "/usr/libexec/runningboardd", "/System/Library/PrivateFrameworks/RunningBoard.framework/RunningBoard", "com.apple.runningboard", "assertion"),
        ("SpringBoard", 34, "/System/Library/CoreServices/SpringBoard.app/SpringBoard", "/System/Library/CoreServices/SpringBoard.app/SpringBoard", "com.apple.SpringBoard", "Common"),
    ]

    static func noise(_ random: inout SeededRandom, at time: Int64) -> DeviceLogRecord {
        let source = noiseProcesses[random.next(noiseProcesses.count)]
        let message: String
        switch (source.process, random.next(5)) {
        case ("kernel", 0): message = "Sandbox: \(["bluetoothd", "locationd", "geod"][random.next(3)])(\(70 + random.next(200))) deny(1) mach-lookup com.apple.\(["cfprefsd.daemon", "tccd", "mobilegestalt.xpc"][random.next(3)])"
        case ("kernel", _): message = "memorystatus: set assertion priority(\(random.next(20))) target \(["mediaserverd", "locationd", "healthd"][random.next(3)]):\(80 + random.next(100))"
        case ("runningboardd", 0): message = "[daemon<com.apple.nsurlsessiond>:112] Set jetsam priority to \(random.next(12)) [0] flag[1]"
        case ("runningboardd", 1): message = "Acquiring assertion targeting [daemon<com.apple.mediaserverd>:92] from originator [daemon<com.apple.audiomxd>:94] with description <RBSAssertionDescriptor| \"AudioSession\" ID:33-94-\(random.next(99_999)) target:92 attributes:[\n\t<RBSDomainAttribute| domain:\"com.apple.mediaexperience\" name:\"AudioPlayback\" sourceEnvironment:\"(null)\">\n\t]>"
        case ("runningboardd", _): message = "Invalidating assertion 33-\(80 + random.next(100))-\(random.next(99_999)) (target:[daemon<com.apple.\(["healthd", "geod", "locationd"][random.next(3)])>:\(80 + random.next(200))]) from originator [daemon<com.apple.assertiond>:33]"
        case ("SpringBoard", 0): message = "[SBLockScreenManager] unlock requested by source: \(["TouchID", "FaceID", "Passcode"][random.next(3)])"
        case ("SpringBoard", _): message = "Wallpaper cache hit for variant \(random.next(3)), \(random.next(4000)) KB"
        case (_, 0): message = "[C\(random.next(9000)):\(random.next(9))] event: client:connection_idle @\(random.next(999)).\(random.next(999))s"
        case (_, 1): message = "Received bytes: \(random.next(99_999)) from \(random.next(255)).\(random.next(255)).\(random.next(255)).\(random.next(255)):443 on en0"
        case (_, 2): message = "-[CLClientManager onClientEvent:] Client com.example.maps has registered for significant location changes"
        case (_, 3): message = "Timer fired for task \(random.next(99_999)) with tolerance \(random.next(100)) ms, next fire in \(random.next(3600)) s"
        default: message = "Cache hit ratio \(random.next(100))%, \(random.next(5000)) entries, \(random.next(2000)) KB resident"
        }
        let type: DeviceLogRecord.Level = [.default, .default, .info, .debug, .error][random.next(5)]
        return DeviceLogRecord(microseconds: time, process: source.process, pid: source.pid, thread: 0x1000 + random.next(0xF_FFFF), level: type,
                               subsystem: source.subsystem, category: source.category, image: source.image, sender: source.sender, message: message)
    }
}

/// One launch session's lines, in the shapes of `scripts/render-scenarios` (each named there with
/// the real excerpt it comes from).
struct Story {
    let app: DeviceLogGenerator.App
    let pid: Int
    var time: Int64
    var random: SeededRandom
    var lines: [DeviceLogRecord] = []
    var end: Int64 { time }

    init(app: DeviceLogGenerator.App, pid: Int, start: Int64, random: SeededRandom) {
        self.app = app
        self.pid = pid
        self.time = start
        self.random = random
    }

    static let runningboard = ("runningboardd", 33, "/usr/libexec/runningboardd", "/System/Library/PrivateFrameworks/RunningBoard.framework/RunningBoard", "com.apple.runningboard", "process")
    static let frontboard = ("SpringBoard", 34, "/System/Library/CoreServices/SpringBoard.app/SpringBoard", "/System/Library/PrivateFrameworks/FrontBoard.framework/FrontBoard", "com.apple.FrontBoard", "Process")
    static let springboard = ("SpringBoard", 34, "/System/Library/CoreServices/SpringBoard.app/SpringBoard", "/System/Library/CoreServices/SpringBoard.app/SpringBoard", "com.apple.SpringBoard", "Icon")
    static let dasd = ("dasd", 105, "/usr/libexec/dasd", "/usr/libexec/dasd", "com.apple.aprs", "appResume.prewarmInterface")
    static let securityd = ("securityd", 115, "/usr/libexec/securityd", "/usr/libexec/securityd", "com.apple.securityd", "SecError")

    var rb: String { "app<\(app.bundleID)(501)>" }
    var proem: String { "[app<\(app.bundleID)(501)>:\(pid)]" }
    var fb: String { "[app<\(app.bundleID)>:\(pid)]" }

    /// Advances the story's clock by `milliseconds` (jittered by up to a quarter) and writes a line.
    mutating func after(_ milliseconds: Double, _ source: (String, Int, String, String, String, String), _ message: String,
                        level: DeviceLogRecord.Level = .default) {
        let jitter = 1 + (Double(random.next(500)) - 250) / 1000
        time += max(1, Int64(milliseconds * 1000 * jitter))
        lines.append(DeviceLogRecord(microseconds: time, process: source.0, pid: source.1, thread: 0x2b07 + source.1, level: level,
                                     subsystem: source.4, category: source.5, image: source.2, sender: source.3, message: message))
    }

    /// A line of the app itself.
    mutating func appLine(_ milliseconds: Double, _ message: String, level: DeviceLogRecord.Level = .default) {
        let image = "/private/var/containers/Bundle/Application/\(app.containerUUID)/\(app.name).app/\(app.name)"
        after(milliseconds, (app.name, pid, image, image, app.bundleID, "lifecycle"), message, level: level)
    }

    mutating func keychainLockedFailure(_ milliseconds: Double) {
        after(milliseconds, Self.securityd, "\(app.name)[\(pid)]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308 \"ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.\" UserInfo={numberOfErrorsDeep=0, NSDescription=ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.}", level: .error)
    }

    mutating func userAssertion(_ milliseconds: Double) {
        after(milliseconds, Self.runningboard, "Acquiring assertion targeting \(rb) from originator [osservice<com.apple.SpringBoard>:34] with description <RBSAssertionDescriptor| \"FBApplicationProcess\" ID:33-34-\(random.next(9_999_999)) target:\(rb) attributes:[\n\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"Bootstrap-Foreground\" sourceEnvironment:\"(null)\">,\n\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"Visibility\" sourceEnvironment:\"(null)\">\n\t]>")
    }

    /// The user activates the (running or prewarmed) process: FrontBoard makes it visible, runningboardd active.
    mutating func activate(_ milliseconds: Double) {
        after(milliseconds, Self.springboard, "Icon tapped: <private>")
        after(100, Self.frontboard, "\(fb) Setting process visibility to: Foreground")
        after(2, Self.runningboard, "Calculated state for \(rb): running-active (role: UserInteractiveFocal) (endowments: <private>)")
    }

    /// Minutes of use with the app's own lines, then background, suspension and, later, the process's end.
    mutating func useThenEnd() {
        for _ in 0..<(1 + random.next(4)) {
            appLine(Double(5_000 + random.next(120_000)), "Task <\(random.uuid()).<\(1 + random.next(9))> resuming")
        }
        after(Double(10_000 + random.next(600_000)), Self.frontboard, "\(fb) Setting process visibility to: Background")
        after(2_300, Self.runningboard, "Calculated state for \(rb): running-suspended (role: None) (endowments: <private>)")
        after(1, Self.runningboard, "\(proem) Suspending task.")
        terminate(Double(60_000 + random.next(3_600_000)))
    }

    mutating func terminate(_ milliseconds: Double) {
        after(milliseconds, Self.frontboard, "\(fb) Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(7)>>.")
        after(2, Self.frontboard, "\(fb) Setting process task state to: Not Running")
    }

    /// Icon tap, foreground-interactive bootstrap, FBApplicationProcess assertion, process start,
    /// bootstrap success, running-active; callbacks after the tap (the cold-launch scenario).
    mutating func coldLaunch() -> Bool {
        after(0, Self.springboard, "Icon tapped: <private>")
        after(0.9, Self.frontboard, "Bootstrapping app<\(app.bundleID)> with intent foreground-interactive")
        if random.next(2) == 0 { after(0.8, Self.frontboard, "Prewarming for launch of \(app.bundleID)") }
        userAssertion(1.3)
        after(8.4, Self.runningboard, "Now tracking process: \(proem)")
        after(0.5, Self.runningboard, "\(proem) This process will be managed.")
        appLine(Double(150 + random.next(700)), "application(_:didFinishLaunchingWithOptions:) applicationState=1")
        after(12, Self.frontboard, "\(fb) Bootstrap success!")
        after(0.5, Self.frontboard, "\(fb) Setting process visibility to: Foreground")
        after(0.7, Self.runningboard, "Calculated state for \(rb): running-active (role: UserInteractiveFocal) (endowments: <private>)")
        appLine(Double(60 + random.next(300)), app.sceneBased ? "sceneDidBecomeActive" : "applicationDidBecomeActive")
        useThenEnd()
        return false
    }

    /// dasd's attempt, runningboardd's DAS Prewarm launch with the DYLDLaunch attribute, the scene
    /// app's delegate during prewarm with state background (and its keychain read failing when the
    /// device is locked), suspension; then hours later either the user's activation of the same pid
    /// or a jetsam exit with no activation.
    mutating func prewarm(used: Bool, locked: Bool) -> Bool {
        after(0, Self.dasd, "Attempting prewarm for \(app.bundleID)")
        after(2.4, Self.runningboard, "Executing launch request for \(rb) (DAS Prewarm launch)")
        after(0.7, Self.runningboard, "Acquiring assertion targeting \(rb) from originator [daemon<com.apple.dasd>:105] with description <RBSAssertionDescriptor| \"DAS Prewarm launch\" ID:33-105-\(random.next(99_999)) target:\(rb) attributes:[\n\t<RBSDomainAttribute| domain:\"com.apple.dasd\" name:\"DYLDLaunch\" sourceEnvironment:\"(null)\">\n\t]>")
        after(42, Self.runningboard, "Now tracking process: \(proem)")
        var keychainFailed = false
        if app.sceneBased {
            appLine(Double(150 + random.next(300)), "didFinishLaunchingWithOptions applicationState=2 ActivePrewarm=1")
            if locked && app.readsKeychainAtLaunch {
                keychainLockedFailure(6)
                keychainFailed = true
            }
        }
        after(Double(400 + random.next(600)), Self.runningboard, "Calculated state for \(rb): running-suspended (role: None) (endowments: <private>)")
        after(0.4, Self.runningboard, "\(proem) Suspending task.")
        let idle = Double(300_000 + random.next(3 * 3_600_000))
        if used {
            activate(idle)
            appLine(Double(60 + random.next(120)), app.sceneBased ? "scene(_:willConnectTo:options:)" : "application(_:didFinishLaunchingWithOptions:)")
            appLine(Double(30 + random.next(80)), app.sceneBased ? "sceneDidBecomeActive" : "applicationDidBecomeActive")
            useThenEnd()
        } else {
            terminate(idle)
            after(0.2, Self.frontboard, "\(fb) Setting process visibility to: Unknown")
        }
        return keychainFailed
    }

    /// SpringBoard's process state with visibility Background, the FBWorkspace (BackgroundActive)
    /// assertion, running-active with role Background; the push handler; suspension; a later exit.
    mutating func backgroundLaunch(locked: Bool) -> Bool {
        after(0, Self.frontboard, "Application process state changed for \(app.bundleID): <SBApplicationProcessState: 0x281a5ea00; pid: \(pid); taskState: Running; visibility: Background>")
        after(1, Self.runningboard, "Acquiring assertion targeting \(proem) from originator [osservice<com.apple.SpringBoard>:34] with description <RBSAssertionDescriptor| \"FBWorkspace (BackgroundActive)\" ID:33-34-\(random.next(99_999)) target:\(pid) attributes:[\n\t<RBSRunningReasonAttribute| runningReason:10001>,\n\t<RBSDefineRelativeStartTimeGrant>,\n\t<RBSCPUAccessGrant| role:NonUserInteractive>,\n\t<RBSJetsamPriorityGrant| priority:Background>\n\t]>")
        after(1, Self.runningboard, "Calculated state for \(rb): running-active (role: Background) (endowments: <private>)")
        appLine(Double(200 + random.next(400)), "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
        var keychainFailed = false
        if locked && app.readsKeychainAtLaunch {
            keychainLockedFailure(4)
            keychainFailed = true
        }
        after(Double(2_000 + random.next(25_000)), Self.runningboard, "Calculated state for \(rb): running-suspended (role: None) (endowments: <private>)")
        terminate(Double(60_000 + random.next(1_800_000)))
        return keychainFailed
    }
}

/// Lines waiting to be written, kept in time order (a binary heap; ties in insertion order).
struct PendingLines: Sendable {
    private var heap: [(record: DeviceLogRecord, order: Int)] = []
    private var inserted = 0

    var first: DeviceLogRecord? { heap.first?.record }

    private static func precedes(_ a: (record: DeviceLogRecord, order: Int), _ b: (record: DeviceLogRecord, order: Int)) -> Bool {
        a.record.microseconds != b.record.microseconds ? a.record.microseconds < b.record.microseconds : a.order < b.order
    }

    mutating func insert(_ record: DeviceLogRecord) {
        heap.append((record, inserted))
        inserted += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> DeviceLogRecord? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast().record
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, Self.precedes(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, Self.precedes(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}

/// xorshift64*: fast, deterministic on every platform (Swift's own generators are not seedable).
struct SeededRandom: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = (seed &* 0x9E37_79B9_7F4A_7C15) | 1
    }

    mutating func nextRaw() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A number in 0..<bound.
    mutating func next(_ bound: Int) -> Int {
        Int(nextRaw() % UInt64(max(1, bound)))
    }

    /// An exponentially distributed number of mean 1.
    mutating func exponential() -> Double {
        let uniform = (Double(nextRaw() >> 11) + 0.5) / Double(1 << 53)
        return -log(uniform)
    }

    /// An independent stream for a story, so a story's length does not shift the noise after it.
    mutating func split() -> SeededRandom {
        SeededRandom(seed: nextRaw())
    }

    mutating func uuid() -> String {
        let hex = Array("0123456789ABCDEF")
        var text = ""
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(hex[next(16)])
        }
        return text
    }
}
