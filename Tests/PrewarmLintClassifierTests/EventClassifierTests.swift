import Foundation
import PrewarmLintClassifier
import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

func event(_ process: String, _ message: String, pid: Int? = nil, line: Int = 1) -> LogEvent {
    LogEvent(timestamp: LogTimestamp(microsecondsSinceEpoch: Int64(line) * 1000, utcOffsetSeconds: 0, text: "t"),
             process: process, pid: pid, message: message, origin: EventOrigin(input: "test", line: line, byteOffset: 0))
}

@Suite("signature table")
struct SignatureTableTests {
    @Test("each fact the session builder reads is carried by signatures of the one meaning it qualifies (typed, not ids compared)")
    func facts() {
        let expected: [(SignatureFacts, EventMeaning)] = [(.certainPrewarm, .prewarmRequest), (.bootstrapsProcess, .userLaunchRequest),
                                                          (.activeInForeground, .activation), (.wentToBackground, .stateChange),
                                                          (.startsNewProcess, .launchRequest)]
        for (fact, meaning) in expected {
            let carriers = SignatureTable.builtIn.signatures.filter { $0.facts.contains(fact) }
            #expect(!carriers.isEmpty, "no signature carries \(fact)")
            #expect(carriers.allSatisfy { $0.meaning == meaning }, "\(fact) on \(carriers.map(\.id))")
        }
        // A certain prewarm is runningboardd's; dasd's prewarm lines are attempts.
        #expect(SignatureTable.builtIn.signatures.filter { $0.facts.contains(.certainPrewarm) }.allSatisfy { $0.roles == [.runningboardd] })
        #expect(SignatureTable.builtIn.signatures.contains { $0.meaning == .prewarmRequest && !$0.facts.contains(.certainPrewarm) })
    }

    static let processForRole: [ProcessRole: String] = [
        .dasd: "dasd", .runningboardd: "runningboardd", .springboard: "SpringBoard", .securityd: "securityd", .kernel: "kernel",
    ]

    @Test("ids are unique and kebab-case")
    func ids() {
        let ids = SignatureTable.builtIn.signatures.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(id)") }
    }

    @Test("each signature's own example classifies as that signature, from every role it names",
          arguments: SignatureTable.builtIn.signatures.map(\.id))
    func example(id: String) throws {
        let signature = try #require(SignatureTable.builtIn.signatures.first { $0.id == id })
        for role in signature.roles.sorted(by: { $0.rawValue < $1.rawValue }) {
            var classifier = EventClassifier()
            let process: String
            switch role {
            case .app:
                // Teach the classifier that pid 2231 is an app first, as a runningboardd line would.
                _ = classifier.classify(event("runningboardd", "[app<com.example.ledger(501)>:2231] This process will be managed."))
                process = "Ledger Pro"
            case .other:
                process = "Ledger Pro"
            default:
                process = try #require(Self.processForRole[role])
            }
            let classified = classifier.classify(event(process, signature.example, pid: 2231))
            #expect(classified.role == role, "\(id) as \(role)")
            #expect(classified.signatureID == id, "\(id) as \(role) matched \(classified.signatureID ?? "nothing")")
            #expect(classified.meaning == signature.meaning)
        }
    }
}

@Suite("AppIdentityParser")
struct AppIdentityParserTests {
    @Test("an identity is written `bundle[pid]`, the process name without a bundle, the name alone without a pid")
    func description() {
        #expect(AppIdentity(bundleID: "com.example.ledger", pid: 2231).description == "com.example.ledger[2231]")
        #expect(AppIdentity(bundleID: "com.example.ledger", processName: "Ledger", pid: 0).description == "com.example.ledger[0]")
        #expect(AppIdentity(processName: "Ledger", pid: 7).description == "Ledger[7]")
        #expect(AppIdentity(processName: "Ledger", pid: nil).description == "Ledger")
        #expect(AppIdentity(bundleID: "日本.アプリ", pid: -42).description == "日本.アプリ[-42]")
        #expect(AppIdentity(bundleID: "a", pid: Int.min).description == "a[\(Int.min)]")
        #expect(AppIdentity(bundleID: "b", pid: Int.max).description == "b[\(Int.max)]")
        for pid in [1, 9, 10, 99, 100, 12_345, 99_999, 1_000_000] {
            #expect(AppIdentity(bundleID: "com.x", pid: pid).description == "com.x[\(pid)]")
        }
    }

    @Test("every identity spelling of the real logs", arguments: [
        ("Executing launch request for application<com.xyz> (DAS Prewarm launch)", "com.xyz", nil),
        ("[application<com.AppCo.MyApp>:432] This process will be managed.", "com.AppCo.MyApp", 432),
        ("Acquiring assertion targeting app<com.hightowerai.MobileJarvisNative(BED36376-5A4B-42A9-9620-6AE0BC5F0283)> from originator [osservice<com.apple.SpringBoard>:34]",
         "com.hightowerai.MobileJarvisNative", nil),
        ("Removed job for [app<application.com.mowglii.ItsycalApp.35153645.35153651(501)>:73215]", "com.mowglii.ItsycalApp", 73215),
        ("[app<com.example.ledger(501)>:-1] Now flagged as pending exit for reason: launch failed", "com.example.ledger", nil),
        ("Received state update for 9529 (app<com.example.ledger(501)>, running-suspended-NotVisible", "com.example.ledger", 9529),
        ("Acquiring assertion targeting xpcservice<com.example.ledger.widget([app<com.example.ledger(501)>:2231])> from originator", "com.example.ledger", 2231),
        ("Application process state changed for com.elsystm.elsystm: <SBApplicationProcessState: 0x281a5ea00; pid: 1957; taskState: Running; visibility: Background>",
         "com.elsystm.elsystm", 1957),
        ("[sceneID:com.samsara.troy-default] Scene lifecycle state did change: Foreground", "com.samsara.troy", nil),
        ("Prewarming for launch of com.hightowerai.MobileJarvisNative", "com.hightowerai.MobileJarvisNative", nil),
    ] as [(String, String, Int?)])
    func identity(message: String, bundle: String, pid: Int?) throws {
        let identity = try #require(AppIdentityParser.firstIdentity(in: message))
        #expect(identity.bundleID == bundle)
        #expect(identity.pid == pid)
    }

    @Test("no identity where there is none, or only a redacted one")
    func none() {
        #expect(AppIdentityParser.firstIdentity(in: "Icon tapped: <private>") == nil)
        #expect(AppIdentityParser.firstIdentity(in: "Activating <private> from icon") == nil)
        #expect(AppIdentityParser.firstIdentity(in: "Created <FBWorkspace: 0x1; webapp<x>>") == nil)
        // Nothing before the persona, nested angle brackets, an empty one: no identity (the next one counts).
        #expect(AppIdentityParser.firstIdentity(in: "Executing launch request for app<(501)> (DAS Prewarm launch)") == nil)
        #expect(AppIdentityParser.firstIdentity(in: "Executing launch request for app<<private>(501)>") == nil)
        #expect(AppIdentityParser.firstIdentity(in: "[app<>:12] then [app<com.x(501)>:34]")?.bundleID == "com.x")
        #expect(AppIdentityParser.firstIdentity(in: "[app<application.>:12]") == nil)
    }
}

@Suite("EventClassifier on real excerpts")
struct RealExcerptClassificationTests {
    static let realLogs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/real-logs")

    static func classify(_ file: String) throws -> [ClassifiedEvent] {
        let bytes = Array(try Data(contentsOf: realLogs.appendingPathComponent(file)))
        var configuration = ReaderConfiguration(inputName: file)
        configuration.timeInference.date = CivilDateTime(year: 2022, month: 1, day: 1)
        var classifier = EventClassifier()
        return ReaderVerifier.read(bytes, configuration: configuration).events.map { classifier.classify($0) }
    }

    @Test("excerpt 01: the DAS prewarm launch request, about com.xyz")
    func prewarmRequest() throws {
        let line = try #require(try Self.classify("01-lyft-das-prewarm-launch-line.log").first)
        #expect(line.role == .runningboardd)
        #expect(line.meaning == .prewarmRequest)
        #expect(line.signatureID == "rb-prewarm-launch-request")
        #expect(line.subject == AppIdentity(bundleID: "com.xyz"))
    }

    @Test("no other real excerpt contains a prewarm request")
    func noFalsePrewarm() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.realLogs.path).sorted()
        for file in files where !file.hasPrefix("01-") && !file.hasPrefix("19-") && !file.hasPrefix("37-") {
            let prewarm = try Self.classify(file).filter { $0.meaning == .prewarmRequest }
            #expect(prewarm.isEmpty, "\(file): \(prewarm.map(\.event.message))")
        }
    }

    @Test("excerpt 03: securityd's -25308 is a keychain failure of logoutRepro, pid 2247")
    func keychain() throws {
        let lines = try Self.classify("03-salesforce3437-securityd-25308-keychain-locked.log")
        #expect(lines.count == 3)
        for line in lines {
            #expect(line.role == .securityd)
            #expect(line.meaning == .keychainFailure)
            #expect(line.subject == AppIdentity(processName: "logoutRepro", pid: 2247))
        }
    }

    @Test("excerpt 25: a background launch, then a background running state")
    func background() throws {
        let lines = try Self.classify("25-flutterfire5702-ios14-background-push-launch.log")
        #expect(lines.map(\.meaning) == [.stateChange, .backgroundLaunchRequest, nil, nil, nil, .backgroundRunning])
        #expect(lines[1].subject == AppIdentity(bundleID: "com.elsystm.elsystm", pid: 1957))
        #expect(lines[5].detail == "running-active")
    }

    @Test("excerpt 39: FrontBoard's exit line is a termination with the jetsam status")
    func jetsam() throws {
        let lines = try Self.classify("39-immich54-ios-jetsam-per-process-limit-process-exited.log")
        let exit = try #require(lines.first { $0.signatureID == "fb-process-exited" })
        #expect(exit.meaning == .termination)
        #expect(exit.detail == "domain:jetsam(1) code:per-process-limit(7)")
        #expect(exit.subject == AppIdentity(bundleID: "app.alextran.immich", pid: 8295))
        #expect(lines.contains { $0.signatureID == "fb-task-state-not-running" })
    }

    @Test("excerpt 14: running-active as user-interactive and Bootstrap success are activation")
    func activation() throws {
        let lines = try Self.classify("14-macios10086-idevicesyslog-ipad-bootstrap-success.log")
        #expect(lines.filter { $0.meaning == .activation }.map(\.signatureID) == ["rb-state-active-foreground", "fb-bootstrap-success"])
    }
}

@Suite("ProcessDirectory")
struct ProcessDirectoryTests {
    @Test("an app's own lines are the app's once a daemon names its pid; a reused pid under another name is not")
    func learnsApps() {
        var classifier = EventClassifier()
        #expect(classifier.classify(event("Ledger Pro", "didFinishLaunching", pid: 2231)).role == .other)
        _ = classifier.classify(event("runningboardd", "[app<com.example.ledger(501)>:2231] Now tracking process"))
        let own = classifier.classify(event("Ledger Pro", "SecItemCopyMatching", pid: 2231))
        #expect(own.role == .app)
        #expect(own.meaning == .keychainAccess)
        #expect(own.subject == AppIdentity(bundleID: "com.example.ledger", processName: "Ledger Pro", pid: 2231))
        #expect(classifier.classify(event("Other App", "hello", pid: 2231)).role == .other)
    }

    @Test("securityd and the kernel teach a process name for an app pid")
    func learnsNames() {
        var classifier = EventClassifier()
        _ = classifier.classify(event("runningboardd", "[app<com.samsara.troy>:377] Set jetsam priority to 10 [0] flag[1]"))
        let kernel = classifier.classify(event("kernel", "memorystatus: set assertion priority(10) target Samsara Internal:377"))
        #expect(kernel.subject == AppIdentity(bundleID: "com.samsara.troy", processName: "Samsara Internal", pid: 377))
        #expect(classifier.directory.nameByPID[377] == "Samsara Internal")
        let sandbox = classifier.classify(event("kernel", "Sandbox: Samsara Internal(377) deny(1) sysctl-read kern.bootargs"))
        #expect(sandbox.subject == AppIdentity(bundleID: "com.samsara.troy", processName: "Samsara Internal", pid: 377))
        let jetsam = classifier.classify(event("kernel", "1234.567 memorystatus: killing_specific_process pid 377 [Samsara Internal] (per-process-limit 10 3s rf:- type:app) 51200KB - memorystatus_available_pages: 12345"))
        #expect(jetsam.meaning == .termination)
        #expect(jetsam.subject == AppIdentity(bundleID: "com.samsara.troy", processName: "Samsara Internal", pid: 377))
    }
}

/// Issue 16: what a line is about, when the log names it only partly.
@Suite("identity without pids, nested identities, hazard lines of unnamed processes")
struct IdentityTests {
    @Test("a pid-less line of the app is joined by the name the log paired with its pid")
    func joinedByName() {
        var classifier = EventClassifier()
        _ = classifier.classify(event("runningboardd", "Now tracking process: [app<com.example.ledger(501)>:2231]"))
        // Before any pairing of the name, the pid-less line is nobody's.
        let refused8969 = classifier.classifyIfMeaningful(event("Ledger Pro", "application:didFinishLaunchingWithOptions:"))
        #expect(refused8969 == nil)
        _ = classifier.classify(event("securityd", "Ledger Pro[2231]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25300", pid: 115))
        let joined = classifier.classifyIfMeaningful(event("Ledger Pro", "application:didFinishLaunchingWithOptions:"))
        #expect(joined?.role == .app)
        #expect(joined?.subject == AppIdentity(bundleID: "com.example.ledger", processName: "Ledger Pro", pid: 2231))
    }

    @Test("a name paired with two apps joins neither, and the lines are counted")
    func ambiguousName() {
        var classifier = EventClassifier()
        _ = classifier.classify(event("runningboardd", "Now tracking process: [app<com.example.ledger(501)>:2231]"))
        _ = classifier.classify(event("runningboardd", "Now tracking process: [app<com.example.ledger.widget(501)>:2240]"))
        _ = classifier.classify(event("kernel", "memorystatus: set assertion priority(10) target Ledger:2231"))
        _ = classifier.classify(event("kernel", "memorystatus: set assertion priority(10) target Ledger:2240"))
        #expect(classifier.directory.ambiguousNames == ["Ledger"])
        let refused6957 = classifier.classifyIfMeaningful(event("Ledger", "application:didFinishLaunchingWithOptions:"))
        #expect(refused6957 == nil)
        #expect(classifier.directory.ambiguousNameLines == 1)
        // With the pid, the line is the process's as before.
        let withPID = classifier.classifyIfMeaningful(event("Ledger", "application:didFinishLaunchingWithOptions:", pid: 2240))
        #expect(withPID?.subject?.bundleID == "com.example.ledger.widget")
    }

    @Test("a name learnt for a pid is forgotten when another app takes the pid")
    func pidReused() {
        var classifier = EventClassifier()
        _ = classifier.classify(event("runningboardd", "Now tracking process: [app<com.example.ledger(501)>:2231]"))
        _ = classifier.classify(event("Ledger Pro", "hello", pid: 2231))
        #expect(classifier.directory.joinablePID(name: "Ledger Pro") == 2231)
        _ = classifier.classify(event("runningboardd", "Now tracking process: [app<com.example.notes(501)>:2231]"))
        #expect(classifier.directory.joinablePID(name: "Ledger Pro") == nil)
    }

    @Test("an identity nested in an extension's names the host; the line is about the extension", arguments: [
        "Received state update for 2240 (xpcservice<com.apple.WebKit.Networking([app<com.example.ledger(501)>:2231])>, running-suspended-NotVisible",
        "Calculated state for xpcservice<com.apple.WebKit.WebContent([application<com.example.ledger>:2231])>:2241: running-suspended (role: None)",
        "xpcservice<com.apple.WebKit.WebContent([app<com.example.ledger(501)>:2231])>:2241 termination reported by launchd (2, 15, 15)",
    ])
    func nested(message: String) throws {
        let mention = try #require(AppIdentityParser.firstMention(in: message))
        #expect(mention.isNested)
        #expect(mention.identity == AppIdentity(bundleID: "com.example.ledger", pid: 2231))
        var classifier = EventClassifier()
        let refused5797 = classifier.classifyIfMeaningful(event("runningboardd", message))
        #expect(refused5797 == nil)
        // The host's pid is still learnt.
        #expect(classifier.directory.bundleByPID[2231] == "com.example.ledger")
    }

    @Test("an app identity before an extension's is not nested")
    func notNested() throws {
        let mention = try #require(AppIdentityParser.firstMention(in: "Acquiring assertion targeting [app<com.example.ledger(501)>:2231] from originator [xpcservice<com.example.ledger.widget([app<com.example.ledger(501)>:2231])>:2240]"))
        #expect(!mention.isNested)
        #expect(mention.identity.pid == 2231)
    }

    @Test("a hazard in the own line of a process no daemon names is that process's", arguments: [
        "Keychain error -25308: User interaction is not allowed.",
        "getAuthToken error : User interaction is not allowed.",
        "SecOSStatusWith error:[-25308] The operation couldn’t be completed.",
        "Error Domain=NSCocoaErrorDomain Code=257 \"The file couldn’t be opened.\"",
        "Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression",
    ])
    func hazardOfUnnamedProcess(message: String) throws {
        var classifier = EventClassifier()
        let classifiedFound = classifier.classifyIfMeaningful(event("logoutRepro", message))
        let classified = try #require(classifiedFound)
        #expect(classified.meaning?.isHazardEvidence == true)
        #expect(classified.subject == AppIdentity(processName: "logoutRepro", pid: nil))
        // Generic EPERM is data protection only for a process named as an app.
        let refused7100 = classifier.classifyIfMeaningful(event("logoutRepro", "open(store.sqlite): Operation not permitted"))
        #expect(refused7100 == nil)
    }

    @Test("securityd's iOS 9–10 client spelling names the client by name and pid")
    func oldSecuritydClient() throws {
        var classifier = EventClassifier()
        let line = " securityd_xpc_dictionary_handler Ledger Pro[2231] copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308 \"ks_crypt: e00002e2 failed to 'od' item (class 6, bag: 0) Access to item attempted while keychain is locked.\""
        let classifiedFound = classifier.classifyIfMeaningful(event("securityd", line, pid: 98))
        let classified = try #require(classifiedFound)
        #expect(classified.meaning == .keychainFailure)
        #expect(classified.subject == AppIdentity(processName: "Ledger Pro", pid: 2231))
        // s3dl_query_row names no client: classified, but about no process.
        let refused2156 = classifier.classifyIfMeaningful(event("securityd", " s3dl_query_row: failed to decrypt item (-25308)", pid: 98))
        #expect(refused2156 == nil)
        #expect(classifier.lastMeaning == .keychainFailure)
    }

    @Test("FrontBoard's watchdog lines that kill nothing are not kills")
    func watchdogNotEnforced() throws {
        var classifier = EventClassifier()
        for line in [
            "[application<com.example.helloFlutter>:1462] Ignoring <FBProcessWatchdog: 0x28175f7f0; name: process-launch> for reason: process is being debugged",
            "[application<com.example.helloFlutter>:1462] Provision violated for watchdog process-launch: <FBSProcessResourceProvision: 0x281830800; allowance: <; FBSProcessResourceAllowance; type: realTime; timeValue: 20.0s>; violated: YES>",
            "Not terminating \"application<com.example.helloFlutter>:1462\"",
        ] {
            let classifiedFound = classifier.classifyIfMeaningful(event("SpringBoard", line, pid: 34))
        let classified = try #require(classifiedFound)
            #expect(classified.meaning == .watchdogNotEnforced, "\(line)")
            #expect(classified.subject?.pid == 1462)
        }
        let killFound = classifier.classifyIfMeaningful(event("SpringBoard", "[app<com.example.ledger>:2231] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:frontboard(10) code:watchdog(2343432205)>>.", pid: 34))
        let kill = try #require(killFound)
        #expect(kill.meaning == .termination)
    }
}

@Suite("byte search in strings")
struct UTF8SearchTests {
    @Test("containsUTF8 and rangeOfUTF8 find what a plain byte search finds, and what contains finds in ASCII text")
    func againstReferences() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "b", "ab", "applicationState", "=2", " ", "\"", "é", "🚀", "didFinishLaunching", "\u{301}"]
        func random(_ count: Int, from alphabet: [String]) -> String {
            (0..<count).map { _ in alphabet.randomElement(using: &generator)! }.joined()
        }
        for round in 0..<3_000 {
            let ascii = round % 2 == 0
            let alphabet = ascii ? pieces.filter { $0.utf8.allSatisfy { $0 < 0x80 } } : pieces
            let text = random(Int.random(in: 0...12, using: &generator), from: alphabet)
            let needle = random(Int.random(in: 1...3, using: &generator), from: alphabet.filter { $0 != "\u{301}" })
            let bytes = Array(text.utf8), wanted = Array(needle.utf8)
            let offset = bytes.count >= wanted.count
                ? (0...(bytes.count - wanted.count)).first { Array(bytes[$0..<($0 + wanted.count)]) == wanted } : nil
            #expect(text.containsUTF8(needle) == (offset != nil), "\(text.debugDescription) \(needle.debugDescription)")
            let range = text.rangeOfUTF8(needle)
            #expect(range.map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) } == offset)
            if let range { #expect(String(text[range]) == needle) }
            if ascii { #expect(text.containsUTF8(needle) == text.contains(needle)) }
        }
        #expect("".containsUTF8("a") == false)
        #expect("abc".rangeOfUTF8("c").map { String("abc"[$0.upperBound...]) } == "")
    }
}
