public import PrewarmLintModel

/// The message templates the classifier knows, in the order they are tried.
///
/// Order matters where templates overlap; the rule is *specific before general*:
/// - the DAS prewarm and closure-generation launch requests come before the generic
///   `Executing launch request`, whose explanation they refine;
/// - `Calculated state` lines that mean suspension or activation come before the general state change;
/// - FrontBoard's `Not Running` task state (an exit) comes before the general task-state change.
/// Sources: `docs/research/message-templates.md` (decompiled daemons) and `Corpus/real-logs/`.
public struct SignatureTable: Sendable {
    /// The signatures, in the order they are tried.
    public var signatures: [MessageSignature] {
        didSet { compile() }
    }
    /// For each role (by `ProcessRole.allCases` order), its signatures' positions and matchers, so
    /// an event is tried only against its own role's signatures, in table order.
    private var byRole: [CandidateList] = []
    /// The same, limited to the signatures that can place a line of a not-yet-known process in a session:
    /// those whose lines name the app they concern (their example holds an identity), and the hazard
    /// evidence (`EventMeaning.isHazardEvidence`), whose line is about the process that logs it.
    private var naming: [CandidateList] = []

    /// A table of these signatures, compiled for matching.
    public init(signatures: [MessageSignature]) {
        self.signatures = signatures
        compile()
    }

    private mutating func compile() {
        let lists = ProcessRole.allCases.map { role in
            signatures.enumerated().filter { $0.element.roles.contains(role) }.map { ($0.offset, SignatureMatcher($0.element)) }
        }
        byRole = lists.map(CandidateList.init)
        naming = lists.map { candidates in
            CandidateList(candidates.filter {
                AppIdentityParser.firstIdentity(in: signatures[$0.0].example) != nil || signatures[$0.0].meaning.isHazardEvidence
            })
        }
    }

    /// The first signature of `role` matching `message`, with its detail. With `namingOnly`, only
    /// signatures that can place a line of a not-yet-known process are tried (those naming their app,
    /// and hazard evidence).
    public func match(_ message: String, role: ProcessRole, namingOnly: Bool = false) -> (signature: MessageSignature, detail: String?)? {
        matchPosition(message, role: role, namingOnly: namingOnly).map { (signatures[$0.position], $0.detail) }
    }

    /// What ``match(_:role:namingOnly:)`` finds, as the signature's place in ``signatures``: the classifier reads
    /// the few fields it needs there (a `MessageSignature` handed back was copied and destroyed whole, its dozen
    /// strings and arrays retained and released, on every line a template matched).
    func matchPosition(_ message: String, role: ProcessRole, namingOnly: Bool = false) -> (position: Int, detail: String?)? {
        let list = namingOnly ? naming[role.position] : byRole[role.position]
        guard !list.all.isEmpty else { return nil }
        return ByteSearch.withBytes(of: message) { bytes in
            // Most lines contain no anchor of any signature: one pass over the bytes rules them all out,
            // and only the signatures whose anchor occurs, or that have none, remain to try (in table
            // order, as the first match wins).
            var detail: String?
            guard let index = list.firstCandidate(in: bytes, where: { matcher in
                let result = matcher.match(bytes)
                detail = result.detail
                return result.matched
            }) else { return nil }
            return (list.all[index].position, detail)
        }
    }

    /// Whether a signature of `role` whose lines name their app could match `message` or any longer
    /// message holding it: `false` only when none can (the texts each needs are not all there). What
    /// the launch-line gate (`LaunchLineGate`) asks of a record's first line before building a line of a process not
    /// yet known as an app.
    @usableFromInline package func mayNameApp(in message: UnsafeRawBufferPointer, role: ProcessRole) -> Bool {
        Self.mayMatch(message, among: naming[role.position])
    }

    /// Whether a signature of `role` could match `message` or any longer message holding it: `false`
    /// only when none can (the texts each needs are not all there).
    @usableFromInline package func mayMatch(in message: UnsafeRawBufferPointer, role: ProcessRole) -> Bool {
        Self.mayMatch(message, among: byRole[role.position])
    }

    private static func mayMatch(_ message: UnsafeRawBufferPointer, among list: CandidateList) -> Bool {
        guard !list.all.isEmpty else { return false }
        let bytes = message.assumingMemoryBound(to: UInt8.self)
        return list.firstCandidate(in: bytes, where: { $0.mayMatch(bytes) }) != nil
    }

    /// The same as ``match(_:role:namingOnly:)`` without the anchor prefilter: what the tests compare it with.
    func matchTryingEverySignature(_ message: String, role: ProcessRole, namingOnly: Bool = false) -> (signature: MessageSignature, detail: String?)? {
        let list = namingOnly ? naming[role.position] : byRole[role.position]
        return ByteSearch.withBytes(of: message) { firstMatch(among: list.all, in: $0) }
    }

    private func firstMatch(among candidates: [(position: Int, matcher: SignatureMatcher)], in bytes: UnsafeBufferPointer<UInt8>)
        -> (signature: MessageSignature, detail: String?)? {
        for (position, matcher) in candidates {
            let result = matcher.match(bytes)
            if result.matched { return (signatures[position], result.detail) }
        }
        return nil
    }

    /// The signatures prewarm-lint ships, each with the real line it was taken from.
    public static let builtIn = SignatureTable(signatures: dasd + runningboard + frontBoard + security + kernel + app + anyProcess)

    // MARK: - dasd

    // One signature per decision dasd states, each carrying its `decision` (typed: `stats` and the JSON
    // report list them).
    static let dasd: [MessageSignature] = [
        MessageSignature(
            id: "dasd-prewarm-attempt", roles: [.dasd], meaning: .prewarmRequest,
            any: ["Attempting prewarm for ", "DASDPREWARM Prewarm app attempt: "],
            seenOn: "iOS 15–26 (tvOS 18.2.1 _APRSPrewarmInterface.m, iOS 26.1 _DASSwapModelApplicationUsage.m)",
            example: "Attempting prewarm for com.example.ledger",
            source: "template 'Attempting prewarm for %@' (TV _APRSPrewarmInterface.m:122)", decision: .attempted),
        MessageSignature(
            id: "dasd-prewarm-prelaunched", roles: [.dasd], meaning: .prewarmRequest,
            any: ["Prelaunched app: "],
            seenOn: "iOS 15–26 (tvOS 18.2.1)",
            example: "Prelaunched app: com.example.ledger (2231)",
            source: "template 'Prelaunched app: %@ (%u)' (formats.md §5, dasd com.apple.aprs:appResume.prewarmInterface)"),
        MessageSignature(
            id: "dasd-prewarm-success", roles: [.dasd], meaning: .prewarmRequest,
            any: ["DASDPREWARM Prewarm app success: ", "DASDPREWARM Prewarm of "],
            seenOn: "iOS 15–26 (iOS 26.1 _DASSwapModelApplicationUsage.m)",
            example: "DASDPREWARM Prewarm app success: com.example.ledger",
            source: "template 'DASDPREWARM Prewarm app success: %@' (message-templates.md, dasd swap.appUsageModel)", decision: .succeeded),
        MessageSignature(
            id: "dasd-prewarm-developer-opt-out", roles: [.dasd], meaning: .prewarmRefused,
            any: ["Refusing to prewarm "],
            seenOn: "iOS 15–26",
            example: "DASPREWARM Refusing to prewarm com.example.ledger because it not allowed by developer",
            source: "template 'DASPREWARM Refusing to prewarm %@ because it not allowed by developer' (I26 _DASSwapModelApplicationUsage.m)", decision: .developerOptOut),
        MessageSignature(
            id: "dasd-prewarm-not-yet-allowed", roles: [.dasd], meaning: .prewarmRefused,
            any: ["Prewarm not yet allowed"],
            seenOn: "iOS 15–26",
            example: "Prewarm not yet allowed.",
            source: "template 'Prewarm not yet allowed.' (formats.md §5, dasd com.apple.aprs:appResume.PrewarmRecommendations)", decision: .notYetAllowed),
        MessageSignature(
            id: "dasd-prewarm-class-c-unavailable", roles: [.dasd], meaning: .prewarmRefused,
            any: ["Class C not yet available"],
            seenOn: "iOS 15–26",
            example: "Class C not yet available.",
            source: "template 'Class C not yet available.' (formats.md §5, dasd com.apple.aprs:appResume.PrewarmRecommendations)", decision: .beforeFirstUnlock),
        MessageSignature(
            id: "dasd-prewarm-already-running", roles: [.dasd], meaning: .prewarmRefused,
            any: ["Skipping from Prewarm"],
            seenOn: "iOS 15–26",
            example: "BundleID com.example.ledger is already running. Skipping from Prewarm",
            source: "template 'BundleID %@ is already running. Skipping from Prewarm' (_APRSPrewarmRecommendation.m:306)", decision: .alreadyRunning),
        MessageSignature(
            id: "dasd-prewarm-launch-error", roles: [.dasd], meaning: .prewarmRefused,
            any: ["Encountered error with prelaunch", "DASDPREWARM Encountered error launching"],
            seenOn: "iOS 15–26",
            example: "Encountered error with prelaunch (1) of com.example.ledger: Error Domain=RBSRequestErrorDomain Code=5",
            source: "template 'Encountered error with prelaunch (%u) of %@: %@' (_APRSPrewarmInterface.m:304)", decision: .attemptFailed),
        MessageSignature(
            id: "dasd-prewarm-disabled", roles: [.dasd], meaning: .prewarmRefused,
            any: ["Trial: Prewarm disabled set to 1"],
            seenOn: "iOS 15–26",
            example: "Trial: Prewarm disabled set to 1",
            source: "template 'Trial: Prewarm disabled set to %d' (formats.md §5, dasd swap.appUsageModel)", decision: .disabled),
        MessageSignature(
            id: "dasd-prewarm-assertion-lost", roles: [.dasd], meaning: .prewarmEnded,
            any: ["Prewarm assertion lost for "],
            seenOn: "iOS 15–26 (tvOS 18.2.1)",
            example: "Prewarm assertion lost for com.example.ledger",
            source: "template 'Prewarm assertion lost for %@' (TV _APRSPrewarmInterface.m:223)", decision: .assertionLost),
        MessageSignature(
            id: "dasd-prewarm-terminated", roles: [.dasd], meaning: .prewarmEnded,
            any: ["Prewarm terminated for ", "Requesting prewarm termination for "],
            seenOn: "iOS 15–26 (tvOS 18.2.1)",
            example: "Prewarm terminated for com.example.ledger",
            source: "template 'Prewarm terminated for %@' (formats.md §5, dasd com.apple.aprs:appResume.prewarmInterface)", decision: .terminated),
    ]

    // MARK: - runningboardd

    static let runningboard: [MessageSignature] = [
        MessageSignature(
            id: "rb-prewarm-launch-request", roles: [.runningboardd], meaning: .prewarmRequest,
            all: ["Executing launch request for ", "(DAS Prewarm launch)"],
            seenOn: "iOS 15+",
            example: "Executing launch request for application<com.xyz> (DAS Prewarm launch)",
            source: "real-logs 01 (Lyft, WWDC lab)", facts: .certainPrewarm),
        MessageSignature(
            id: "rb-dasd-dyldlaunch-attribute", roles: [.runningboardd], meaning: .prewarmRequest,
            all: ["domain:\"com.apple.dasd\"", "name:\"DYLDLaunch\""],
            seenOn: "iOS 15+",
            example: "Acquiring assertion targeting app<com.example.ledger(501)> from originator [daemon<com.apple.dasd>:105] with description <RBSAssertionDescriptor| \"DAS Prewarm launch\" ID:33-105-77 target:app<com.example.ledger(501)> attributes:[\n<RBSDomainAttribute| domain:\"com.apple.dasd\" name:\"DYLDLaunch\" sourceEnvironment:\"(null)\">\n]>",
            source: "real-logs 37 (the attribute line and closing); descriptor shape of formats.md §2.1", facts: .certainPrewarm),
        MessageSignature(
            id: "rb-closure-generation-launch", roles: [.runningboardd], meaning: .closureGeneration,
            all: ["Executing launch request for ", "(DAS DYLD3 Closure Generation)"],
            seenOn: "iOS 15+",
            example: "Executing launch request for app<com.example.ledger(501)> (DAS DYLD3 Closure Generation)",
            source: "template 'Executing launch request for %{public}@ (%{public}@)' with dasd's closure explanation (TV RBProcessManager.m:762, _APRSPrewarmInterface.m:241)"),
        MessageSignature(
            id: "rb-user-launch-assertion", roles: [.runningboardd], meaning: .userLaunchRequest,
            all: ["Acquiring assertion targeting ", "FBApplicationProcess", "Bootstrap-Foreground"],
            seenOn: "iOS 14.5–26",
            example: "Acquiring assertion targeting app<com.hightowerai.MobileJarvisNative(BED36376-5A4B-42A9-9620-6AE0BC5F0283)> from originator [osservice<com.apple.SpringBoard>:34] with description <RBSAssertionDescriptor| \"FBApplicationProcess\" ID:33-34-2065846 target:app<com.hightowerai.MobileJarvisNative(BED36376-5A4B-42A9-9620-6AE0BC5F0283)> attributes:[\n\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"Bootstrap-Foreground\" sourceEnvironment:\"(null)\">,\n\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"Visibility\" sourceEnvironment:\"(null)\">\n\t]>",
            source: "formats.md §2.1 (Console copy of an iPhone launch)", facts: .bootstrapsProcess),
        MessageSignature(
            id: "rb-background-launch-assertion", roles: [.runningboardd], meaning: .backgroundLaunchRequest,
            all: ["Acquiring assertion targeting ", "FBWorkspace (BackgroundActive)"],
            seenOn: "iOS 14–26",
            example: "Acquiring assertion targeting [application<com.elsystm.elsystm>:1957] from originator [daemon<com.apple.SpringBoard>:59] with description <RBSAssertionDescriptor| \"FBWorkspace (BackgroundActive)\" ID:32-59-4107 target:1957 attributes:[\n\t<RBSRunningReasonAttribute| runningReason:10001>,\n\t]>",
            source: "real-logs 25 (flutterfire background push launch)"),
        MessageSignature(
            id: "rb-launch-request", roles: [.runningboardd], meaning: .launchRequest,
            all: ["Executing launch request for "], detailAfter: "> (",
            seenOn: "iOS 14–26, macOS",
            example: "Executing launch request for app<com.example.ledger(501)> (FBApplicationProcess)",
            source: "template 'Executing launch request for %{public}@ (%{public}@)' (TV RBProcessManager.m:762)"),
        MessageSignature(
            id: "rb-process-start", roles: [.runningboardd], meaning: .processStart,
            any: ["Now tracking process", "This process will be managed", "Creating and launching job for", "reported to RB as running",
                  "processStartTime calculated start"],
            seenOn: "iOS 14–26",
            example: "[application<com.AppCo.MyApp>:432] This process will be managed.",
            source: "real-logs 07 (Intune, iOS 14.5)"),
        MessageSignature(
            id: "rb-state-suspended", roles: [.runningboardd], meaning: .suspension,
            all: ["Calculated state for ", "running-suspended"], detailAfter: ">: ",
            seenOn: "iOS 14–26",
            example: "Calculated state for app<com.example.ledger(501)>: running-suspended (role: None) (endowments: <private>)",
            source: "template 'Calculated state for %{public}@: %{public}@ (role: %{public}@) (endowments: %@)' (TV RBProcessMonitor.m:305); state value seen in real logs"),
        MessageSignature(
            // RunningBoardServices logs `Received state update` inside its clients: SpringBoard, dasd, the app.
            id: "rbs-state-update-suspended", roles: [.runningboardd, .springboard, .app, .dasd, .other], meaning: .suspension,
            all: ["Received state update for ", "running-suspended"], detailAfter: ">, ",
            seenOn: "iOS 14–26",
            example: "Received state update for 2231 (app<com.example.ledger(501)>, running-suspended-NotVisible",
            source: "template 'Received state update for %d (%{public}@, %{public}@%{public}@' (TV RBSConnection.m:2217), the line people quote"),
        MessageSignature(
            id: "rb-suspending-task", roles: [.runningboardd], meaning: .suspension,
            all: ["Suspending task."],
            seenOn: "iOS 14–26",
            example: "[app<com.example.ledger(501)>:2231] Suspending task.",
            source: "template '%{public}@ Suspending task.' (TV RunningBoard.m:2858)"),
        MessageSignature(
            id: "rb-state-active-foreground", roles: [.runningboardd], meaning: .activation,
            all: ["Calculated state for ", "running-active (role: UserInteractive"],
            seenOn: "iOS 14–26",
            example: "Calculated state for application<com.AppCo.MyApp>: running-active (role: UserInteractiveNonFocal)",
            source: "real-logs 08 (Intune, iOS 14.5)", facts: .activeInForeground),
        MessageSignature(
            id: "rb-state-active-background", roles: [.runningboardd], meaning: .backgroundRunning,
            all: ["Calculated state for ", "running-active (role: Background)"], detailAfter: ">: ",
            seenOn: "iOS 14–26",
            example: "Calculated state for application<com.elsystm.elsystm>: running-active (role: Background)",
            source: "real-logs 25 (background push launch)"),
        MessageSignature(
            id: "rb-calculated-state", roles: [.runningboardd], meaning: .stateChange,
            all: ["Calculated state for "], detailAfter: ">: ",
            seenOn: "iOS 14–26, macOS",
            example: "Calculated state for app<com.hightowerai.MobileJarvisNative(BED36376-5A4B-42A9-9620-6AE0BC5F0283)>: none (role: None)",
            source: "real-logs 44 (an iOS 26 cold launch: the state before the process runs)"),
        MessageSignature(
            id: "rb-resuming-task", roles: [.runningboardd], meaning: .stateChange,
            all: ["Resuming task."],
            seenOn: "iOS 14–26",
            example: "[application<com.REDACTED>:796] Resuming task.",
            source: "real-logs 14 (idevicesyslog, iPadOS 14.2)"),
        MessageSignature(
            id: "rb-termination", roles: [.runningboardd], meaning: .termination,
            any: ["termination reported by launchd", "termination reported by proc_exit", "Removing process: ", "Removed job for ",
                  "Removing assertions for terminated process"],
            detailAfter: "termination reported by launchd ", detailEnds: [],
            seenOn: "iOS 14–26, macOS",
            example: "[app<com.example.ledger(501)>:2231] termination reported by launchd (2, 9, 9)",
            source: "template '%{public}@ termination reported by launchd (%u, %llu, %u)' (TV RunningBoard.m:2499)"),
    ]

    // MARK: - SpringBoard / FrontBoard

    static let frontBoard: [MessageSignature] = [
        MessageSignature(
            id: "fb-watchdog-not-enforced", roles: [.springboard], meaning: .watchdogNotEnforced,
            any: ["Ignoring <FBProcessWatchdog", "Provision violated for watchdog", "Not terminating "],
            detailAfter: "for reason: ", detailEnds: [],
            seenOn: "iOS 14–26",
            example: "[application<com.example.helloFlutter>:1462] Ignoring <FBProcessWatchdog: 0x28175f7f0; name: process-launch> for reason: process is being debugged",
            source: "flutter/flutter#68558 (Console copy of an iOS 14 debug launch: Ignoring …, Provision violated …, Not terminating …)"),
        MessageSignature(
            id: "fb-open-request-debugger", roles: [.springboard], meaning: .debuggerLaunchRequest,
            all: ["Received request to open ", " from debugserver"], detailAfter: "\" from ", detailEnds: [":", "."],
            seenOn: "iOS 13–26",
            example: "[FBSystemService][0x7f7e] Received request to open \"com.example.helloFlutter\" from debugserver:1461.",
            source: "flutter/flutter#68558 (Console copy of an iOS 14 debug launch)"),
        MessageSignature(
            id: "fb-open-request", roles: [.springboard], meaning: .launchRequest,
            all: ["Received request to open "], detailAfter: "\" from ", detailEnds: [":", "."],
            seenOn: "iOS 13–26",
            example: "[FBSystemService][0x8a1c] Received request to open \"com.example.ledger\" from dasd:105.",
            source: "the FBSystemService open-request template of flutter/flutter#68558, with another requester (dasd, callservicesd)"),
        MessageSignature(
            id: "sb-process-state-running-foreground", roles: [.springboard], meaning: .activation,
            all: ["Application process state changed for ", "taskState: Running; visibility: Foreground"],
            seenOn: "iOS 14–26",
            example: "Application process state changed for com.example.helloFlutter: <SBApplicationProcessState: 0x2836ef980; pid: 1462; taskState: Running; visibility: Foreground>",
            source: "flutter/flutter#68558 (Console copy of an iOS 14 debug launch)"),
        MessageSignature(
            id: "sb-process-state-not-running", roles: [.springboard], meaning: .termination,
            all: ["Application process state changed for ", "taskState: Not Running"],
            seenOn: "iOS 14–26",
            example: "Application process state changed for com.example.ledger: <SBApplicationProcessState: 0x2836ef980; pid: 2231; taskState: Not Running; visibility: Unknown>",
            source: "the SBApplicationProcessState line of flutter/flutter#68558 with FrontBoard's `Not Running` task state (real-logs 39)"),
        MessageSignature(
            id: "fb-pending-exit", roles: [.springboard], meaning: .pendingExit,
            all: ["Now flagged as pending exit for reason: "], detailAfter: "for reason: ", detailEnds: [],
            seenOn: "iOS 14–26",
            example: "[app<com.example.ledger>:2231] Now flagged as pending exit for reason: workspace client connection invalidated",
            source: "template '%{public}@ Now flagged as pending exit for reason: %{public}@' (FBProcess, decompiled FrontBoard); reasons seen in public notes: 'workspace client connection invalidated', 'Bootstrap failed'"),
        MessageSignature(
            id: "sb-prewarming-for-launch", roles: [.springboard], meaning: .launchPreparation,
            all: ["Prewarming for launch of "],
            seenOn: "iOS 15–26",
            example: "Prewarming for launch of com.hightowerai.MobileJarvisNative",
            source: "formats.md §2.1 (a user tap: shared-cache page prewarming, not dasd)"),
        MessageSignature(
            id: "sb-bootstrap-foreground-interactive", roles: [.springboard], meaning: .userLaunchRequest,
            all: ["Bootstrapping ", "with intent foreground-interactive"],
            seenOn: "iOS 26",
            example: "Bootstrapping app<com.hightowerai.MobileJarvisNative> with intent foreground-interactive",
            source: "formats.md §2.1 (Console copy of an iPhone launch)", facts: .bootstrapsProcess),
        MessageSignature(
            // FrontBoard's process manager starting a new process for the app (iOS 17): the launch of a process that
            // was not running, whatever asked for it (a tap, a notification's action); the intent is said elsewhere.
            id: "fb-bootstrap-new-process", roles: [.springboard], meaning: .launchRequest,
            all: ["Asked to bootstrap a new process with identity: "],
            seenOn: "iOS 17–26",
            example: "Asked to bootstrap a new process with identity: app<com.myapp.example(195463C9-7E4D-48E0-83B5-E88FA15340ED)>",
            source: "real-logs 62 (microsoft/vscode-dotnettools#1282, a .NET MAUI app's tap launch); 44–46 (iOS 26)", facts: .startsNewProcess),
        MessageSignature(
            id: "sb-icon-touches-began", roles: [.springboard], meaning: .tap,
            all: ["SBIconView touches began"],
            seenOn: "iOS 26",
            example: "SBIconView touches began with event: <UITouchesEvent: 0x865746a00> timestamp: 2.93768e+06 touches: {(",
            source: "real-logs 44–46 (iOS 26 cold launches: the tap, 94–170 ms before the bootstrap; it names no app)"),
        MessageSignature(
            id: "sb-icon-tap", roles: [.springboard], meaning: .tap,
            any: ["Icon tapped", "SBUIApplicationIconLaunchEventLabel"],
            seenOn: "iOS 14",
            example: "Icon tapped: <private>",
            source: "real-logs 22 (idevicesyslog, iOS 14)"),
        MessageSignature(
            id: "sb-activating-from-icon", roles: [.springboard], meaning: .tap,
            all: ["Activating ", " from icon"],
            seenOn: "iOS 14",
            example: "Activating <private> from icon",
            source: "real-logs 22 (idevicesyslog, iOS 14)"),
        MessageSignature(
            id: "fb-bootstrap-success", roles: [.springboard], meaning: .activation,
            all: ["Bootstrap success"],
            seenOn: "iOS 14–26",
            example: "[application<com.REDACTED>:796] Bootstrap success!",
            source: "real-logs 14 (idevicesyslog, iPadOS 14.2)"),
        MessageSignature(
            id: "fb-scene-activated", roles: [.springboard], meaning: .activation,
            any: ["Scene activated.", "state did change: ForegroundActive"],
            seenOn: "iOS 14–26",
            example: "[(FBSceneManager):sceneID:com.example.ledger-default][1] Scene activated.",
            source: "observed-only form quoted in message-templates.md (excerpt 02)"),
        MessageSignature(
            id: "fb-visibility-foreground", roles: [.springboard], meaning: .activation,
            all: ["Setting process visibility to: Foreground"],
            seenOn: "iOS 14–26",
            example: "[application<com.AppCo.MyApp>:432] Setting process visibility to: Foreground",
            source: "real-logs 08 (Intune, iOS 14.5)"),
        MessageSignature(
            id: "fb-scene-content-ready", roles: [.springboard], meaning: .firstScreen,
            all: ["sceneID:", "scene content state changed: ready"],
            seenOn: "iOS 26",
            example: "[(FBSceneManager):sceneID:com.hightowerai.MobileJarvisNative-default] scene content state changed: ready",
            source: "real-logs 44–46 (the first screen of a cold launch, 211–229 ms after the tap)"),
        MessageSignature(
            id: "sb-dropping-launch-assertion", roles: [.springboard], meaning: .launchComplete,
            all: ["Dropping launch assertion"],
            seenOn: "iOS 26",
            example: "[app<com.hightowerai.MobileJarvisNative>:9964] Dropping launch assertion.",
            source: "real-logs 44–46 (about a second after the first screen)"),
        MessageSignature(
            // FrontBoard describes a watchdog kill it requested by the exit reason and the request's label, not by the
            // RunningBoard exit status `fb-process-exited` reads: a kill, not an exit.
            id: "fb-exit-context-watchdog", roles: [.springboard], meaning: .watchdog,
            all: ["Process exited: <FBProcessExitContext", "watchdog (\""],
            seenOn: "iOS 13–14",
            example: "[application<com.example.ledger>:2231] Process exited: <FBProcessExitContext: 0x283a6c960; watchdog (\"watchdog provision violated\">.",
            source: "template: FrontBoard's '%{public}@ Process exited: %{public}@.' with FBProcessExitContext's description of a watchdog exit, '<FBProcessExitContext: 0x…; watchdog (\"<label>\"' (decompiled FBProcessExitContext.m), the label 'watchdog provision violated' (FBProcess.m)"),
        MessageSignature(
            id: "fb-process-exited", roles: [.springboard], meaning: .termination,
            all: ["Process exited: "], detailAfter: "<RBSProcessExitStatus| ", detailEnds: [">"],
            seenOn: "iOS 15–26",
            example: "[application<app.alextran.immich>:8295] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(7)>>.",
            source: "real-logs 39 (immich, jetsam)"),
        MessageSignature(
            id: "fb-visibility-background", roles: [.springboard], meaning: .stateChange,
            all: ["Setting process visibility to: Background"], detailAfter: "visibility to: ",
            seenOn: "iOS 14–26",
            example: "[app<com.example.ledger>:2231] Setting process visibility to: Background",
            source: "template '%{public}@ Setting process visibility to: %{public}@' (I182 FBProcess.m)", facts: .wentToBackground),
        MessageSignature(
            id: "fb-task-state-not-running", roles: [.springboard], meaning: .termination,
            all: ["Setting process task state to: Not Running"],
            seenOn: "iOS 14–26",
            example: "[application<app.alextran.immich>:8295] Setting process task state to: Not Running",
            source: "real-logs 39 (immich, jetsam)"),
        MessageSignature(
            id: "fb-scene-foreground", roles: [.springboard], meaning: .activation,
            all: ["Scene lifecycle state did change: Foreground"],
            seenOn: "iOS 13–26",
            example: "[sceneID:com.samsara.troy-default] Scene lifecycle state did change: Foreground",
            source: "real-logs 11 (code-push, iOS 13/14)"),
        MessageSignature(
            id: "fb-state-change", roles: [.springboard], meaning: .stateChange,
            any: ["Setting process visibility to: ", "Setting process task state to: ", "Scene lifecycle state did change: ",
                  "Application process state changed for "],
            seenOn: "iOS 13–26",
            example: "[application<com.AppCo.MyApp>:432] Setting process task state to: Running",
            source: "real-logs 08 (Intune, iOS 14.5)"),
    ]

    // MARK: - securityd

    static let security: [MessageSignature] = [
        MessageSignature(
            id: "securityd-keychain-locked", roles: [.securityd], meaning: .keychainFailure,
            any: ["Code=-25308", "keychain is locked", "(-25308)", "OSStatus error -25308"], anyIsDetail: true,
            seenOn: "iOS 9–26 (`s3dl_query_row: … (-25308)` and `OSStatus error -25308` on iOS 9–10)",
            example: "logoutRepro[2247]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308 \"ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.\" UserInfo={numberOfErrorsDeep=0, NSDescription=ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.}",
            source: "real-logs 03 (Salesforce SDK #3437, iPadOS 15)"),
        MessageSignature(
            id: "securityd-keychain-call", roles: [.securityd], meaning: .keychainAccess,
            all: [" LF="], any: [" copy_matching ", " add ", " update ", " delete "],
            seenOn: "iOS 9–26",
            example: "Ledger Pro[2231]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25300 \"no matching items found\" UserInfo={numberOfErrorsDeep=0, NSDescription=no matching items found}",
            source: "template '%@ %@ %@' of securityd.m:8811 (message-templates.md, securityd) with the client prefix of real-logs 03; -25300 is errSecItemNotFound"),
    ]

    // MARK: - kernel

    static let kernel: [MessageSignature] = [
        MessageSignature(
            id: "kernel-jetsam-kill", roles: [.kernel], meaning: .termination,
            all: ["memorystatus: killing_"], detailAfter: "memorystatus: ",
            seenOn: "iOS 14–26",
            example: "1234.567 memorystatus: killing_specific_process pid 2231 [Ledger Pro] (per-process-limit 10 3s rf:- type:app) 51200KB - memorystatus_available_pages: 12345",
            source: "template 'memorystatus: killing_specific_process pid %d [%s] (%s %d %llus rf:%s type:%s) …' (ipsw-diffs, iOS 26 kernel)"),
    ]

    // MARK: - the app

    static let app: [MessageSignature] = [
        MessageSignature(
            id: "app-keychain-interaction-not-allowed", roles: [.app, .other], meaning: .keychainFailure,
            // Every text at least seven bytes, so the anchor prefilter rules out the lines holding none (a bare
            // `-25308` would be tried on every line of every process not known as an app).
            any: ["errSecInteractionNotAllowed", "User interaction is not allowed", " -25308", "(-25308)", "[-25308]", "=-25308"],
            anyIsDetail: true,
            seenOn: "any (iOS 9–26: `SecOSStatusWith error:[-25308]` on iOS 9–10; the message of -25308, `User interaction is not allowed.`, in apps' own error lines)",
            example: "SecItemCopyMatching: errSecInteractionNotAllowed (-25308)",
            source: "app line shape from domain.md §5 (keychain read while locked); the spellings 'Keychain error -25308: User interaction is not allowed.' (russhwolf/multiplatform-settings#171), 'getAuthToken error : User interaction is not allowed.' (kishikawakatsumi/KeychainAccess#488)"),
        MessageSignature(
            id: "app-keychain-access", roles: [.app], meaning: .keychainAccess,
            any: ["SecItemCopyMatching", "SecItemAdd", "SecItemUpdate", "SecItemDelete"], anyIsDetail: true,
            seenOn: "any",
            example: "SecItemCopyMatching",
            source: "formats.md §1.3 (the '(Security) SecItemCopyMatching' activity of a real capture)"),
        MessageSignature(
            id: "app-data-protection", roles: [.app, .other], meaning: .dataProtectionFailure,
            any: ["NSCocoaErrorDomain Code=257", "isProtectedDataAvailable", "protected data is unavailable"], anyIsDetail: true,
            seenOn: "any",
            example: "Error Domain=NSCocoaErrorDomain Code=257 \"The file “store.sqlite” couldn’t be opened because you don’t have permission to view it.\"",
            source: "domain.md §5 (protected data before unlock: NSCocoaErrorDomain 257)"),
        MessageSignature(
            // EPERM is everywhere (sandbox denials, any daemon's file operations): data protection only in
            // the lines of a process the log names as an app.
            id: "app-operation-not-permitted", roles: [.app], meaning: .dataProtectionFailure,
            any: ["Operation not permitted"], anyIsDetail: true,
            seenOn: "any",
            example: "Could not open store.sqlite: Operation not permitted",
            source: "domain.md §5 (protected data before unlock: \"Operation not permitted\")"),
        MessageSignature(
            id: "app-launch-duration", roles: [.app], meaning: .launchDuration,
            any: ["launch duration", "Launch duration", "launch time:", "Launch time:", "launch took", "Launch took"], anyIsDetail: true,
            seenOn: "any",
            example: "App launch took 7326 ms",
            source: "domain.md §4 (teams' own launch-duration lines; SDK issues report launches 'over 1 minute')"),
        MessageSignature(
            id: "app-first-frame", roles: [.app], meaning: .firstFrame,
            any: ["first frame", "First frame", "firstFrame"], anyIsDetail: true,
            seenOn: "any",
            example: "First frame rendered",
            source: "domain.md §4 (post-main ends at the first frame; teams log it as a marker)"),
        MessageSignature(
            id: "app-lifecycle", roles: [.app, .other], meaning: .appLifecycle,
            any: ["willFinishLaunching", "didFinishLaunching", "willConnectTo", "sceneWillEnterForeground", "sceneDidBecomeActive",
                  "applicationDidBecomeActive", "applicationWillEnterForeground", "UIApplicationMain", "ActivePrewarm"], anyIsDetail: true,
            seenOn: "any",
            example: "didFinishLaunchingWithOptions applicationState=2",
            source: "domain.md §3 (UIKit callbacks) and §4 (teams' own launch markers)"),
        MessageSignature(
            id: "app-state-query", roles: [.app], meaning: .stateQuery,
            any: ["applicationState", "UIApplicationState"], anyIsDetail: true,
            seenOn: "any",
            example: "Checking applicationState before restoring the session: background",
            source: "domain.md §5 (state assumed at launch: the app line reading state)"),
        MessageSignature(
            id: "app-network-task", roles: [.app], meaning: .appWork,
            all: ["Task <", "> resuming"],
            seenOn: "iOS 11–26",
            example: "Task <5C5F1A2B-3D4E-4F60-8172-93A4B5C6D7E8>.<1> resuming, timeouts(60.0, 604800.0) qos(0x19) voucher((null)) activity(00000000-0000-0000-0000-000000000000)",
            source: "CFNetwork's task log line as printed in apps' own process (subsystem com.apple.CFNetwork, category Summary)"),
        MessageSignature(
            id: "app-analytics", roles: [.app], meaning: .appWork,
            any: ["[Firebase/Analytics]", "[FirebaseAnalytics]", "session started", "Session started", "app_open", "App opened"], anyIsDetail: true,
            seenOn: "any",
            example: "10.24.0 - [FirebaseAnalytics][I-ACS023007] Analytics v.10.24.0 started",
            source: "domain.md §5 (analytics sessions and 'app opened' events during prewarm); Firebase's console prefix"),
        MessageSignature(
            id: "app-blocking-call", roles: [.app], meaning: .blockingCall,
            any: ["UIPasteboard", "CNContactStore", "requestAuthorization", "authorizationStatus", "evaluatePolicy", "PHPhotoLibrary"],
            anyIsDetail: true,
            seenOn: "any",
            example: "UIPasteboard general: reading items",
            source: "domain.md §4 (work that blocks the main thread at launch: pasteboard, address book, Touch ID, permission checks)"),
    ]

    // MARK: - any process

    static let anyProcess: [MessageSignature] = [
        MessageSignature(
            // A kill: runningboardd's RBSTerminateContext, FrontBoard's exit status, a crash report's code.
            // Never a provision line: FrontBoard logs those for watchdogs it does not enforce
            // (`fb-watchdog-not-enforced`, tried first).
            id: "watchdog", roles: Set(ProcessRole.allCases), meaning: .watchdog,
            any: ["0x8BADF00D", "0x8badf00d", "0x000000008badf00d", "0x000000008BADF00D", "watchdog transgression", "watchdog(2343432205)"],
            anyIsDetail: true,
            none: ["Provision violated for watchdog", "Not terminating"],
            detailAfter: "explanation:", detailEnds: [":"],
            seenOn: "iOS 10–26",
            example: "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression: application<jp.go.mhlw.covid19radar>:27928 exhausted CPU time allowance of 3.37 seconds",
            source: "real-logs 19 (cocoa, crash report text)"),
        MessageSignature(
            // iOS ≤ 11 said a watchdog kill in words: a legacy crash report's Application Specific Information
            // (`… failed to launch in time`, iOS ≤ 8; `… failed to launch after 20.00s (launchIntent: …)`, iOS 9), and
            // SpringBoard's `Forcing crash report of <FBApplicationProcess: …> (reason: 1, description: … failed to launch
            // after 20.00s …)`.
            id: "watchdog-failed-in-time", roles: Set(ProcessRole.allCases), meaning: .watchdog,
            any: ["failed to launch in time", "failed to launch after ", "failed to resume in time", "failed to suspend in time"],
            anyIsDetail: true,
            seenOn: "iOS 5–11",
            example: "com.franck.testPod.testPod failed to launch after 20.00s (launchIntent: foreground-interactive)",
            source: "CocoaPods/CocoaPods#5047 (an iOS 9.2.1 report's Application Specific Information), chaitin/passionfruit#21 (SpringBoard, iOS 11), Apple's QA1592"),
        // A crash or jetsam report read as evidence (`crash-report`, `crash-report-text`): its termination, exception
        // or jetsam kill is an event of the reported process. A watchdog kill is `watchdog` (above), tried first.
        MessageSignature(
            id: "report-lock-state", roles: Set(ProcessRole.allCases), meaning: .deviceLockState,
            all: ["\"isLocked\" : "],
            seenOn: "crash reports (.ips body, iOS 15–26)",
            example: "\"isLocked\" : 1, \"wasUnlockedSinceBoot\" : 0",
            source: "the .ips body's `isLocked` and `wasUnlockedSinceBoot` keys (public TestFlight and App Store .ips bodies, iOS 16–26), as prewarm-lint renders them on one line"),
        MessageSignature(
            id: "report-launch-time", roles: Set(ProcessRole.allCases), meaning: .processStart,
            all: ["Launch Time: "],
            seenOn: "crash reports (legacy text `Launch Time:`; the .ips body's `procLaunch` as prewarm-lint renders it)",
            example: "Launch Time: 2021-03-02 08:14:40.9912 +0100",
            source: "the crash report header's `Launch Time:` line (Apple, \"Examining the fields in a crash report\")"),
        MessageSignature(
            id: "report-termination", roles: Set(ProcessRole.allCases), meaning: .termination,
            all: ["Termination Reason: "], detailAfter: "Termination Reason: ", detailEnds: ["\n"],
            seenOn: "crash reports (legacy text, iOS ≤ 14; the .ips termination as prewarm-lint renders it, iOS 15–26)",
            example: "Termination Reason: SIGNAL 11 Segmentation fault: 11",
            source: "the crash report's `Termination Reason:` line (Apple, \"Understanding the exception types in a crash report\"; real-logs 19)"),
        MessageSignature(
            id: "report-exception", roles: Set(ProcessRole.allCases), meaning: .termination,
            all: ["Exception Type: "], detailAfter: "Exception Type: ", detailEnds: ["\n"],
            seenOn: "crash reports without a termination reason",
            example: "Exception Type: EXC_BAD_ACCESS (SIGSEGV)",
            source: "the crash report's `Exception Type:` line (real-logs 19: `Exception Type:  EXC_CRASH (SIGKILL)`)"),
        MessageSignature(
            id: "report-jetsam-kill", roles: Set(ProcessRole.allCases), meaning: .termination,
            all: ["JetsamEvent: killed ("], detailAfter: "JetsamEvent: killed (", detailEnds: [")"],
            seenOn: "JetsamEvent reports (bug_type 298), iOS 15–26",
            example: "JetsamEvent: killed (per-process-limit); states: suspended",
            source: "a process of a JetsamEvent report with a `reason` (Apple, \"Identifying high-memory use with jetsam event reports\"), as prewarm-lint renders it"),
        MessageSignature(
            id: "report-launch-diagnostic", roles: Set(ProcessRole.allCases), meaning: .slowLaunchDiagnostic,
            all: ["MetricKit app launch diagnostic: launchDuration "], detailAfter: "launchDuration ", detailEnds: [" ("],
            seenOn: "MetricKit diagnostic payloads (`appLaunchDiagnostics`), iOS 16–26",
            example: "MetricKit app launch diagnostic: launchDuration 3219 ms",
            source: "MXAppLaunchDiagnostic's dictionary (iOS 26.1 MetricKit: `launchDuration` in `diagnosticMetaData`, a localized measurement in milliseconds), as prewarm-lint renders it"),
    ]
}

extension ProcessRole {
    /// The role's position in `allCases`, without building that array (a synthesized `allCases` is a new
    /// array at every call, and this runs once per line).
    var position: Int {
        switch self {
        case .dasd: 0
        case .runningboardd: 1
        case .springboard: 2
        case .app: 3
        case .securityd: 4
        case .kernel: 5
        case .other: 6
        }
    }
}

/// One role's signatures in table order, with the prefilter that rules most of them out for a line at
/// once. A class, so handing one to a match retains one object, not its arrays.
final class CandidateList: Sendable {
    /// Every signature of the role, in table order.
    let all: [(position: Int, matcher: SignatureMatcher)]
    /// The anchors of the anchored signatures among the first 64, each tagged with its signature's place in `all`.
    let anchors: AnchorFilter
    /// The places in `all` (of the first 64) tried on every line: signatures without an anchor (a required
    /// text shorter than ``AnchorFilter/minimumTextLength``). Those beyond the 64th are always tried too.
    let unanchored: UInt64

    init(_ all: [(Int, SignatureMatcher)]) {
        self.all = all
        var anchors = AnchorFilter()
        var unanchored: UInt64 = 0
        for (index, (_, matcher)) in all.enumerated() where index < 64 {
            // A signature can only match a line holding one of these texts: its first `all` text, else any `any` text.
            let required = matcher.all.first.map { [$0] } ?? matcher.any
            if required.isEmpty || required.contains(where: { $0.count < AnchorFilter.minimumTextLength }) {
                unanchored |= 1 << UInt64(index)
            } else {
                for text in required { anchors.insert(text, candidate: index) }
            }
        }
        self.unanchored = unanchored
        self.anchors = anchors
    }

    /// The place in `all` of the first signature, in table order, that passes `test`, trying only those
    /// that can match `bytes`: whose anchor occurs in it, or that have none.
    @inline(__always)
    func firstCandidate(in bytes: UnsafeBufferPointer<UInt8>, where test: (SignatureMatcher) -> Bool) -> Int? {
        var tried = unanchored | anchors.candidates(in: bytes)
        while tried != 0 {
            let index = tried.trailingZeroBitCount
            if test(all[index].matcher) { return index }
            tried &= tried &- 1
        }
        var index = 64
        while index < all.count {
            if test(all[index].matcher) { return index }
            index += 1
        }
        return nil
    }
}

/// A bitset of four-byte windows of the texts signatures require, tested at every fourth position of a
/// line: a line where none occurs cannot match any anchored signature. False positives only cost the
/// ordinary matching; there are no false negatives (below).
///
/// Each text contributes the four windows starting at offsets `b…b+3` of a seven-byte region `b…b+6`
/// of it. Wherever the text occurs in a line, exactly one of the region's first four positions is a
/// multiple of four, and the window there lies within the region, so it is one of the four inserted:
/// testing every fourth position is enough. That quarters the cost of the scan, which runs on every line.
struct AnchorFilter: Sendable {
    /// Texts shorter than this have no region and leave their signature unanchored.
    static let minimumTextLength = 7
    private static let bitCount = 1 << 16
    private var words = [UInt64](repeating: 0, count: AnchorFilter.bitCount / 64)
    private var isEmpty = true
    /// For each window inserted with a candidate, the candidates (bit `i`: the `i`-th) whose texts gave it.
    private var candidatesByWindow = WindowCandidates()

    /// The region least likely to occur by chance: the one with the fewest lowercase letters and spaces
    /// (prose is made of those; templates' distinctive parts are not), the first on a tie.
    static func regionStart(of text: [UInt8]) -> Int {
        var best = 0, bestScore = Int.max
        for start in 0...(text.count - minimumTextLength) {
            var score = 0
            for byte in text[start..<(start + minimumTextLength)] where byte == UInt8(ascii: " ") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) {
                score += 1
            }
            if score < bestScore { best = start; bestScore = score }
        }
        return best
    }

    @inline(__always)
    private static func slot(_ window: UInt32) -> Int {
        Int((window &* 0x9E37_79B1) >> 16)
    }

    /// Adds a required text (at least ``minimumTextLength`` bytes), of the `candidate`-th signature (0…63) when given.
    mutating func insert(_ text: [UInt8], candidate: Int? = nil) {
        precondition(text.count >= Self.minimumTextLength)
        let start = Self.regionStart(of: text)
        text.withUnsafeBytes { bytes in
            for offset in start..<(start + 4) {
                let window = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let slot = Self.slot(window)
                words[slot >> 6] |= 1 << UInt64(slot & 63)
                if let candidate {
                    precondition(candidate < 64)
                    candidatesByWindow.add(1 << UInt64(candidate), to: window)
                }
            }
        }
        isEmpty = false
    }

    /// The candidates (bit `i`: the `i`-th given to ``insert(_:candidate:)``) one of whose texts may occur in
    /// `bytes`: those that gave a window found at a position that is a multiple of four. Wherever a text
    /// occurs, one of its four windows is at such a position (see the type's comment), so no candidate
    /// whose text occurs is left out.
    func candidates(in bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard !isEmpty, bytes.count >= Self.minimumTextLength, let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        return words.withUnsafeBufferPointer { words in
            var found: UInt64 = 0
            var position = 0
            let last = bytes.count - 4
            while position <= last {
                let window = raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)
                let slot = Self.slot(window)
                if words[slot >> 6] & (1 << UInt64(slot & 63)) != 0 {
                    found |= candidatesByWindow.candidates(of: window)
                }
                position += 4
            }
            return found
        }
    }

    /// Whether some required text may occur in `bytes` (always false for an empty filter).
    func mayOccur(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !isEmpty, bytes.count >= Self.minimumTextLength, let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        return words.withUnsafeBufferPointer { words in
            var position = 0
            let last = bytes.count - 4
            while position <= last {
                let slot = Self.slot(raw.loadUnaligned(fromByteOffset: position, as: UInt32.self))
                if words[slot >> 6] & (1 << UInt64(slot & 63)) != 0 { return true }
                position += 4
            }
            return false
        }
    }
}

/// The candidates of each four-byte window an ``AnchorFilter`` was given: an open-addressing table probed
/// linearly from a multiplicative hash, looked up for each window of a line whose bit is set (a
/// `Dictionary` would hash each with SipHash). A few hundred windows at most.
struct WindowCandidates: Sendable {
    private var windows: [UInt32] = Array(repeating: 0, count: 16)
    /// 0 for an empty slot: a window is stored with at least one candidate.
    private var masks: [UInt64] = Array(repeating: 0, count: 16)
    private var count = 0

    private func start(_ window: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(window) &* 0x9E37_79B9_7F4A_7C15) >> 40) & (windows.count - 1)
    }

    /// The candidates stored for `window`, or none.
    @inline(__always)
    func candidates(of window: UInt32) -> UInt64 {
        var slot = start(window)
        while masks[slot] != 0 {
            if windows[slot] == window { return masks[slot] }
            slot = (slot + 1) & (windows.count - 1)
        }
        return 0
    }

    /// Adds `candidates` (not none) to those of `window`.
    mutating func add(_ candidates: UInt64, to window: UInt32) {
        precondition(candidates != 0)
        if 2 * (count + 1) > windows.count { grow() }
        var slot = start(window)
        while masks[slot] != 0 {
            if windows[slot] == window { masks[slot] |= candidates; return }
            slot = (slot + 1) & (windows.count - 1)
        }
        windows[slot] = window
        masks[slot] = candidates
        count += 1
    }

    private mutating func grow() {
        let entries = zip(windows, masks).filter { $0.1 != 0 }
        windows = Array(repeating: 0, count: 2 * windows.count)
        masks = Array(repeating: 0, count: windows.count)
        count = 0
        for (window, mask) in entries { add(mask, to: window) }
    }
}

extension SignatureTable {
    /// The signature a line read alone matches (`LogFragment`): its message read as the process it names would
    /// write it (a name no daemon has is the app's), or as runningboardd's for RunningBoard's own syntax; nil for
    /// none. A fragment that names no process and is not in RunningBoard's syntax matches nothing: a value quoted in
    /// prose is not evidence.
    public func match(_ fragment: LogFragment) -> (signature: MessageSignature, detail: String?)? {
        let role: ProcessRole
        if let process = fragment.process {
            role = ProcessRole.known(processName: process) ?? .app
        } else if fragment.isRunningBoardSyntax {
            role = .runningboardd
        } else {
            return nil
        }
        return match(fragment.message, role: role)
    }
}
