import Foundation
import PrewarmLint

/// libFuzzer entry: every 4 bytes are one classified event — meaning, app (of 4), pid (of 4), time
/// step (may go backwards) — fed to the session builder, then the rules. Invariants: no crash; every
/// session has an app; milestones are in time order; every finding quotes evidence.
public func fuzzSessions(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let meanings = EventMeaning.allCases
    let apps = ["com.example.ledger", "com.example.notes", "com.acme.chat", "com.acme.maps"]
    let signatures = SignatureTable.builtIn.signatures
    var builder = LaunchSessionBuilder()
    var sessions: [LaunchSession] = []
    var time: Int64 = 1_710_772_862_000_000
    var index = 0
    var line = 1
    while index + 4 <= size {
        let meaning = meanings[Int(data[index]) % meanings.count]
        let app = apps[Int(data[index + 1]) % apps.count]
        let pid = 1000 + Int(data[index + 1] >> 4)
        time += (Int64(data[index + 2]) - 64) * 37_000_000 + Int64(data[index + 3])
        let candidates = signatures.filter { $0.meaning == meaning }
        let signature = candidates.isEmpty ? nil : candidates[Int(data[index + 3]) % candidates.count]
        let event = LogEvent(timestamp: LogTimestamp(microsecondsSinceEpoch: time, utcOffsetSeconds: -25_200, text: "fuzz"),
                             process: signature?.roles.contains(.app) == true ? "App" : "runningboardd",
                             message: signature?.example ?? "fuzz", origin: EventOrigin(input: "fuzz", line: line, byteOffset: index))
        let classified = ClassifiedEvent(event: event, role: signature?.roles.first ?? .other, meaning: meaning, signatureID: signature?.id,
                                         subject: AppIdentity(bundleID: app, processName: nil, pid: data[index + 3] & 1 == 0 ? pid : nil),
                                         detail: data[index + 2] & 1 == 0 ? "detail" : nil)
        sessions += builder.consume(classified)
        index += 4
        line += 1
    }
    sessions += builder.finish()
    for session in sessions {
        precondition(session.app.bundleID != nil || session.app.processName != nil, "a session without an app")
        for (a, b) in zip(session.milestones, session.milestones.dropFirst()) {
            precondition(a.time.microsecondsSinceEpoch <= b.time.microsecondsSinceEpoch, "milestones out of time order")
        }
    }
    let findings = Linter().findings(in: sessions, ids: LintReport.sessionIDs(sessions))
    for finding in findings { precondition(!finding.evidence.isEmpty, "a finding without evidence: \(finding.ruleID)") }
    return 0
}

#if FUZZING
/// Built with `-sanitize=fuzzer -DFUZZING` (`scripts/fuzz`): libFuzzer's driver, run from this `main`
/// (SwiftPM gives every executable a renamed entry point, so libFuzzer's own `main` cannot be used).
@main
struct FuzzSessionsDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzSessions(data!, size) }))
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#else
/// Without libFuzzer (a plain `swift build`): replays the files named on the command line through the
/// same entry point, to reproduce a crash or re-check a corpus (`scripts/fuzz` builds with `-DFUZZING`).
@main
struct FuzzSessionsReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
            let bytes = [UInt8](data)
            _ = bytes.withUnsafeBufferPointer { buffer in
                fuzzSessions(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            }
        }
        print("replayed \(CommandLine.arguments.count - 1) input(s)")
    }
}
#endif
