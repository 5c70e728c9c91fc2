/// dyld's launch statistics, as an app printed them before `main` with `DYLD_PRINT_STATISTICS` (up to iOS 14, to the
/// Xcode console) and as people paste them: the time of the launch's pre-main phase and its parts.
///
/// Two blocks, often pasted together:
/// - the summary, `Total pre-main time: 722.04 milliseconds (100.0%)`, then dylib loading, rebase/binding, ObjC setup and
///   initializer time and the slowest initializers;
/// - the details (`DYLD_PRINT_STATISTICS_DETAILS`), `total time: 1.0 seconds (100.0%)`, then images loaded, their loading
///   time, fixups, the debugger's pause and each image's initializer time.
///
/// Such a block names no process and has no time. It belongs to a launch only where a line proves it: in an Xcode
/// console, the app's next line names the process and its pid (``launch``). A value dyld could not have measured (a
/// known dyld fault prints `411015771.5 seconds (146403308.2%)`) is kept as printed and not read as a duration
/// (``Measure/milliseconds`` is nil).
public struct PreMainStatistics: Sendable, Hashable {
    /// A part of the pre-main phase, as dyld names it.
    public enum Phase: String, Sendable, Hashable, CaseIterable, Codable {
        /// `dylib loading time` (summary).
        case dylibLoading = "dylib-loading"
        /// `total images loading time` (details): the dylib loading with the debugger's pause in it.
        case imagesLoading = "images-loading"
        /// `rebase/binding time` (summary).
        case rebaseBinding = "rebase-binding"
        /// `ObjC setup time` (summary), `total load time in ObjC` (details).
        case objcSetup = "objc-setup"
        /// `initializer time` (summary), `total time in initializers and ObjC +load` (details).
        case initializers
        /// `total rebase fixups time` (details).
        case rebaseFixups = "rebase-fixups"
        /// `total binding fixups time` (details).
        case bindingFixups = "binding-fixups"
        /// `total weak binding fixups time` (details).
        case weakBindingFixups = "weak-binding-fixups"
        /// `total redo shared cached bindings time` (details).
        case sharedCacheBindings = "shared-cache-bindings"
        /// `total debugger pause time` (details): counted in its `total time`, not in the summary's pre-main time.
        case debuggerPause = "debugger-pause"
        /// `total dtrace DOF registration time` (details).
        case dtraceRegistration = "dtrace-registration"

        /// How reports name it.
        public var label: String {
            switch self {
            case .dylibLoading: "dylib loading"
            case .imagesLoading: "images loading (the debugger's pause in it)"
            case .rebaseBinding: "rebase/binding"
            case .objcSetup: "ObjC setup"
            case .initializers: "initializers"
            case .rebaseFixups: "rebase fixups"
            case .bindingFixups: "binding fixups"
            case .weakBindingFixups: "weak binding fixups"
            case .sharedCacheBindings: "shared cache bindings"
            case .debuggerPause: "debugger pause"
            case .dtraceRegistration: "DTrace registration"
            }
        }
    }

    /// A time as dyld printed it.
    public struct Measure: Sendable, Hashable {
        /// The value in milliseconds; nil when it cannot be a part of this launch (more than 100% of the total, or more
        /// than an hour): then only ``text`` is kept.
        public var milliseconds: Double?
        /// The share of the total dyld printed beside it, as printed.
        public var percent: Double?
        /// The value as printed (`722.04 milliseconds (100.0%)`).
        public var text: String

        /// A measure.
        public init(milliseconds: Double?, percent: Double?, text: String) {
            self.milliseconds = milliseconds
            self.percent = percent
            self.text = text
        }
    }

    /// One part's time.
    public struct PhaseTime: Sendable, Hashable {
        /// Which part.
        public var phase: Phase
        /// Its time.
        public var time: Measure

        /// A part's time.
        public init(phase: Phase, time: Measure) {
            self.phase = phase
            self.time = time
        }
    }

    /// One image's initializer time.
    public struct InitializerTime: Sendable, Hashable {
        /// The image (`libSystem.B.dylib`, the app's binary, a framework).
        public var image: String
        /// Its initializers' time.
        public var time: Measure

        /// An image's initializer time.
        public init(image: String, time: Measure) {
            self.image = image
            self.time = time
        }
    }

    /// The launch a line proves the block is about: the app's next line in an Xcode console.
    public struct Launch: Sendable, Hashable {
        /// The process that printed the next line.
        public var process: String
        /// Its pid.
        public var pid: Int
        /// The next line's time: pre-main ended before it.
        public var before: LogTimestamp
        /// The next line.
        public var evidence: EventOrigin

        /// A launch.
        public init(process: String, pid: Int, before: LogTimestamp, evidence: EventOrigin) {
            self.process = process
            self.pid = pid
            self.before = before
            self.evidence = evidence
        }
    }

    /// `Total pre-main time` (the summary block), nil when only the details were pasted.
    public var preMainTime: Measure?
    /// `total time` (the details block): the pre-main time with the debugger's pause in it.
    public var detailsTotal: Measure?
    /// The parts, in the order printed.
    public var phases: [PhaseTime] = []
    /// The initializer times per image, in the order printed (at most ``maximumInitializers``).
    public var initializers: [InitializerTime] = []
    /// Initializer lines beyond ``maximumInitializers``, counted.
    public var initializersNotKept = 0
    /// `total images loaded`.
    public var imagesLoaded: Int?
    /// How many of them came from the dyld shared cache.
    public var imagesFromSharedCache: Int?
    /// The lines whose value dyld could not have measured, as printed (a known dyld fault): said, not computed with.
    public var unbelievable: [String] = []
    /// The block's first line.
    public var origin: EventOrigin
    /// Its lines.
    public var lineCount: Int
    /// The launch a line proves it is about, if any.
    public var launch: Launch?

    /// The most initializer lines kept.
    public static let maximumInitializers = 64

    /// A block that starts at `origin`.
    public init(origin: EventOrigin, lineCount: Int = 0) {
        self.origin = origin
        self.lineCount = lineCount
    }

    /// The time of the pre-main phase: the summary's; else the details' total less the debugger's pause and the
    /// rebinding of the shared cache, as dyld's summary counts it; nil when neither can be read.
    public var milliseconds: Double? {
        if let preMain = preMainTime { return preMain.milliseconds }
        guard let total = detailsTotal?.milliseconds else { return nil }
        var time = total
        for phase in [Phase.debuggerPause, .sharedCacheBindings] where self.time(of: phase) != nil {
            guard let value = self.time(of: phase)?.milliseconds else { return nil }
            time -= value
        }
        return max(0, time)
    }

    /// Whether ``milliseconds`` is computed from the details block (its total less the debugger's pause and the shared
    /// cache's rebinding), not printed by dyld.
    public var isComputed: Bool {
        preMainTime == nil && (time(of: .debuggerPause) != nil || time(of: .sharedCacheBindings) != nil)
    }

    /// The first time given for `phase`.
    public func time(of phase: Phase) -> Measure? { phases.first { $0.phase == phase }?.time }
}
