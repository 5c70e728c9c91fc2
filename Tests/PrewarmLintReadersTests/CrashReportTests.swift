import Foundation
import PrewarmLintModel
import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// Crash and jetsam reports (issue 20): what the `.ips` and text decoders make of them, on the corpus's reports
/// (written in real reports' shapes, `case.json` says which) and on the ways they arrive damaged.
@Suite("crash and jetsam reports")
struct CrashReportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: root.appendingPathComponent(path))) }
    static let ips = "Corpus/verdicts/report-joined-to-prewarm-session/Ledger-2024-03-18-030214.ips"
    static let text = "Corpus/formats/crash-report-text-markdown-springboard/issue.md"

    static func read(_ bytes: [UInt8], chunkSize: Int? = nil) -> ReaderVerifier.Outcome {
        ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "report"), chunkSize: chunkSize)
    }

    static func accounted(_ outcome: ReaderVerifier.Outcome) -> Bool {
        let statistics = outcome.statistics
        return statistics.lines == statistics.eventLines + statistics.skipped.values.reduce(0, +) + statistics.diagnosedLines
    }

    @Test("an .ips crash report: its launch, lock state and termination, of its process, pid and bundle, at the report's times")
    func ipsCrash() throws {
        let outcome = Self.read(try Self.bytes(Self.ips))
        #expect(outcome.format == .crashReport)
        #expect(outcome.diagnostics.isEmpty)
        #expect(Self.accounted(outcome))
        #expect(outcome.events.map(\.process) == ["Chat", "Chat", "Chat"])
        #expect(outcome.events.map(\.pid) == [4410, 4410, 4410])
        #expect(outcome.events.map(\.reportedBundleID) == ["com.acme.chat", "com.acme.chat", "com.acme.chat"])
        #expect(outcome.events.map(\.timestamp.text) == ["2024-03-18 03:02:10.0450 -0700", "2024-03-18 03:02:14.9120 -0700",
                                                         "2024-03-18 03:02:14.9120 -0700"])
        #expect(outcome.events[1].message == #""isLocked" : 1, "wasUnlockedSinceBoot" : 0"#)
        // 2024-03-18 10:02:14.912 UTC.
        #expect(outcome.events.last?.timestamp.microsecondsSinceEpoch == 1_710_756_134_912_000)
        #expect(outcome.events.last?.timestamp.utcOffsetSeconds == -7 * 3600)
        let termination = try #require(outcome.events.last?.message.split(separator: "\n").map(String.init))
        #expect(termination.first == "Termination Reason: FRONTBOARD 2343432205")
        #expect(termination.count == 10)
        #expect(termination.contains("WatchdogVisibility: Background"))
        #expect(termination.last == ") reportType:CrashLog maxTerminationResistance:Interactive>")
        #expect(outcome.events.map(\.origin.line) == [22, 34, 39])
    }

    @Test("an iOS ≤ 9 report says its watchdog kill in its Application Specific Information: one termination event of the app named there, its words first")
    func legacyApplicationSpecificInformation() throws {
        // CocoaPods/CocoaPods#5047 (iOS 9.2.1), from `OS Version:` on, as pasted: the app named only in the block.
        let outcome = Self.read(try Self.bytes("Corpus/verdicts/legacy-report-failed-to-launch-after/log.txt"))
        #expect(outcome.format == .crashReportText)
        let event = try #require(outcome.events.first)
        #expect(outcome.events.count == 1)
        #expect(event.process == "com.franck.testPod.testPod" && event.reportedBundleID == "com.franck.testPod.testPod")
        #expect(event.message.hasPrefix("com.franck.testPod.testPod failed to launch after 20.00s (launchIntent: foreground-interactive)\n"))
        #expect(event.message.contains("Elapsed application CPU time (seconds): 0.020") && event.message.hasSuffix("Exception Codes: 0x000000008badf00d"))
        #expect(Self.accounted(outcome))
        // The iOS ≤ 8 wording, the block alone as a blog pasted it (elision lines and blank lines between): read too.
        let alone = """
            Application Specific Information:

            com.example.ledger failed to launch in time


            Elapsed total CPU time (seconds): 20.770 (user 20.770, system 0.000), 52% CPU

            Elapsed application CPU time (seconds): 19.963, 50% CPU

            ….
            Thread 0 name:  Dispatch queue: com.apple.main-thread

            """
        let old = Self.read(Array(alone.utf8))
        #expect(old.format == .crashReportText)
        #expect(old.events.map(\.process) == ["com.example.ledger"])
        #expect(old.events.first?.message.hasPrefix("com.example.ledger failed to launch in time\nElapsed total CPU time") == true)
        // A block that names no watchdog is the report's structure, as before.
        let other = Self.read(Array("Exception Type: EXC_CRASH (SIGABRT)\nApplication Specific Information:\nabort() called\n".utf8))
        #expect(other.events.map(\.message) == ["Exception Type: EXC_CRASH (SIGABRT)"])
    }

    @Test("two Application Specific Information blocks in one report are one block: every line accounted for, the watchdog said in the second still read; a flood of them or of Termination Reason lines keeps a bounded text")
    func applicationInformationTwice() {
        let twice = """
            Exception Codes: 0x000000008badf00d
            Application Specific Information:
            abort() called
            Thread 0 Crashed:
            Application Specific Information:
            com.example.ledger failed to launch in time
            Thread 0 Crashed:

            """
        let outcome = Self.read(Array(twice.utf8))
        #expect(Self.accounted(outcome))
        #expect(outcome.events.map(\.process) == ["com.example.ledger"])
        #expect(outcome.events.first?.message == "abort() called\ncom.example.ledger failed to launch in time\nException Codes: 0x000000008badf00d")
        #expect(outcome.events.first?.origin.line == 2)
        for key in ["Application Specific Information: x", "Termination Reason: Namespace SIGNAL, Code 0x9"] {
            let flood = Self.read(Array(("Exception Type: EXC_CRASH (SIGKILL)\n" + String(repeating: key + "\nThread 0 Crashed:\n", count: 10_000)).utf8))
            #expect(Self.accounted(flood), "\(key)")
            #expect(flood.events.allSatisfy { $0.message.split(separator: "\n").count <= 64 }, "\(key)")
        }
    }

    @Test("the .ips old form (iOS ≤ 14: a JSON metadata line, then the report as text) is read as the text report it holds; a Process with no name is its bundle's, with its pid")
    func ipsOldForm() throws {
        // kpwn/yalu102#69 (Corpus/real-logs 81): bug_type 109, `Process:              [758]` as the device wrote it.
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Corpus/real-logs").path)
            .first { $0.hasPrefix("81-") })
        let outcome = Self.read(try Self.bytes("Corpus/real-logs/" + name))
        #expect(outcome.format == .crashReportText)
        #expect(Self.accounted(outcome))
        #expect(outcome.events.map { String($0.message.prefix(12)) } == ["Launch Time:", "Termination "])
        #expect(outcome.events.map(\.pid) == [758, 758])
        #expect(outcome.events.map(\.process) == ["ml.coffeebreakers.zday", "ml.coffeebreakers.zday"])
        #expect(outcome.events.last?.timestamp.text == "2017-01-25 22:59:47.2962 -0800")
        // A metadata line followed by a JSON body is still the two-part form.
        let twoPart = try Self.bytes(Self.ips)
        #expect(Self.read(twoPart).format == .crashReport)
    }

    @Test("an .ips whose metadata a JSON viewer spread over several lines (deltachat-ios#2402's paste): the metadata is read as such and the body after it, whole or drip-fed")
    func prettyPrintedMetadata() throws {
        let bytes = try Self.bytes(Self.ips)
        let newline = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
        let metadata = try JSONSerialization.jsonObject(with: Data(bytes[..<newline]))
        let pretty = try JSONSerialization.data(withJSONObject: metadata, options: [.prettyPrinted, .sortedKeys])
        let spread = Array(pretty) + [UInt8(ascii: "\n")] + Array(bytes[(newline + 1)...])
        let original = Self.read(bytes)
        for chunk in [nil, 1, 7] as [Int?] {
            let outcome = Self.read(spread, chunkSize: chunk)
            #expect(outcome.format == .crashReport)
            #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
            #expect(outcome.events.map(\.message) == original.events.map(\.message))
            #expect(outcome.events.map(\.pid) == original.events.map(\.pid))
            #expect(Self.accounted(outcome))
        }
        // A body pasted alone, its first object the body itself, is not taken for metadata.
        #expect(Self.read(Array(bytes[(newline + 1)...])).events.count == original.events.count)
    }

    @Test("a Termination Description that names a watchdog, pasted alone in a block, is a report (Lockbox#63's line)")
    func terminationDescriptionAlone() {
        let line = "Termination Description: SPRINGBOARD, process-exit watchdog transgression: application<cn.baoxiaosheng.mobile>:18532 exhausted real (wall clock) time allowance of 5.00 seconds | ProcessVisibility: Background\n"
        let outcome = Self.read(Array(line.utf8))
        #expect(outcome.format == .crashReportText)
        #expect(outcome.events.map(\.pid) == [18532])
        // One that names no watchdog is not enough on its own.
        let signal = Array("Termination Reason: Namespace SIGNAL, Code 0x9\n".utf8).withUnsafeBytes { FormatSniffer.sniff($0, isComplete: true) }
        #expect(signal != .crashReportText)
    }

    @Test("the same events whatever the chunking, a byte at a time included")
    func dripFed() throws {
        for path in [Self.ips, Self.text, "Corpus/formats/crash-report-ips-jetsam/JetsamEvent-2024-03-18-054000.ips"] {
            let bytes = try Self.bytes(path)
            let whole = Self.read(bytes)
            for chunk in [1, 3, 64] {
                #expect(Self.read(bytes, chunkSize: chunk) == whole, "\(path) in chunks of \(chunk)")
            }
        }
    }

    @Test("a body pasted without its metadata line is still a report")
    func bodyAlone() throws {
        let bytes = try Self.bytes(Self.ips)
        let body = Array(bytes[(bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1)...])
        let outcome = Self.read(body)
        #expect(outcome.format == .crashReport)
        #expect(outcome.events.map(\.process) == ["Chat", "Chat", "Chat"])
        #expect(outcome.events.last?.message.hasPrefix("Termination Reason: FRONTBOARD 2343432205\n") == true)
    }

    @Test("a pasted .ips with words before its body and after it (its metadata line mangled), as a public paste has it")
    func pastedWithWords() throws {
        // The shape of a real paste found with the search tool: three lines of the poster's own (the metadata line
        // cut mid-way), the body, a blank line and a signature.
        let text = String(decoding: try Self.bytes(Self.ips), as: UTF8.self)
        let body = text.split(separator: "\n", maxSplits: 1)[1]
        let pasted = "# -s-T-ation-1\nyours truly \np_devs\":0,\"is_first_party\":0,\"bug_type\":\"309\"}\n" + body + "\n\nsincerly, a user\n"
        let outcome = Self.read(Array(pasted.utf8))
        #expect(outcome.format == .crashReport)
        #expect(outcome.events.count == 3)
        #expect(outcome.diagnostics.map(\.code) == [.orphanLines, .malformedLine])
        #expect(outcome.diagnostics.first?.message == "3 lines before the report are not part of it; skipped")
        #expect(Self.accounted(outcome))
        for chunk in [1, 5] { #expect(Self.read(Array(pasted.utf8), chunkSize: chunk) == outcome) }
    }

    @Test("a report cut short: what was read is used, the cut is said")
    func truncated() throws {
        let bytes = try Self.bytes(Self.ips)
        // Cut inside the threads, after the termination.
        let text = String(decoding: bytes, as: UTF8.self)
        let cut = Array(text.utf8.prefix(text.utf8.count - 900))
        let outcome = Self.read(cut)
        #expect(outcome.events.count == 3)
        #expect(outcome.diagnostics.map(\.code) == [.truncatedInput])
        #expect(Self.accounted(outcome))
        // Cut before the termination: the launch only.
        let early = Array(text.utf8.prefix(text.utf8.count / 3))
        let before = Self.read(early)
        #expect(before.events.map(\.message).allSatisfy { $0.hasPrefix("Launch Time: ") })
        #expect(before.diagnostics.map(\.code) == [.truncatedInput])
    }

    /// A system watchdog report in the shape of a public iOS/macOS 26 SystemWatchdogCrash (bug_type 409: a
    /// `termination` of namespace `WATCHDOG` with an `indicator` and `details`, the process tables under
    /// `stackshot`), as a public .ips parser's test holds it; here SpringBoard's.
    @Test("a system watchdog report (409) is said in a note: which system process, when, why; no event; a kind not read (238) is named; every line accounted for")
    func systemWatchdogAndUnreadKinds() {
        let report = """
        {"name":"SpringBoard","timestamp":"2024-03-18 03:02:15.00 -0700","os_version":"iPhone OS 17.4 (21E219)","incident_id":"1A2B3C4D-0000-4000-8000-000000000001","bug_type":"409","app_name":"SpringBoard"}
        {
          "bug_type" : "409",
          "procName" : "SpringBoard",
          "pid" : 34,
          "termination" : {
            "namespace" : "WATCHDOG",
            "code" : 1,
            "indicator" : "monitoring timed out for service",
            "details" : [
              "(1 monitored services unresponsive): checkin with service: SpringBoard (0 induced crashes) returned not alive with context:",
              "is_alive_func returned unhealthy"
            ]
          },
          "stackshot" : {"processByPid" : {"34" : {"pid" : 34, "procname" : "SpringBoard", "threadById" : {}}}}
        }

        """
        let outcome = Self.read(Array(report.utf8))
        #expect(outcome.format == .crashReport)
        #expect(outcome.events.isEmpty)
        #expect(outcome.diagnostics.map(\.code) == [.unreadReport])
        #expect(outcome.diagnostics.first?.message == "a system watchdog report (bug_type 409): SpringBoard [34] was killed at 2024-03-18 03:02:15.00 -0700 by WATCHDOG: monitoring timed out for service ((1 monitored services unresponsive): checkin with service: SpringBoard (0 induced crashes) returned not alive with context:) — a system process, not an app launch; apps on screen then may have ended with it")
        #expect(Self.accounted(outcome))
        let launchDiagnostics = Self.read(Array((#"{"bug_type":"238","timestamp":"2024-03-18 03:02:15.00 -0700","app_name":"Ledger"}"# + "\n{\n  \"procName\" : \"Ledger\"\n}\n").utf8))
        #expect(launchDiagnostics.events.isEmpty)
        #expect(launchDiagnostics.diagnostics.map(\.message) == ["a report of bug_type 238 (app launch diagnostics): not read (no public sample of its body was found to read it from)"])
        let hang = Self.read(Array((#"{"bug_type":"385","app_name":"Ledger"}"# + "\n{}\n").utf8))
        #expect(hang.diagnostics.map(\.message) == ["a report of bug_type 385 (resource exception): not read (crash 309 and JetsamEvent 298 are)"])
    }

    @Test("a termination after a 20 MB threads value on one line is still found; the threads are not kept")
    func hugeThreads() throws {
        var bytes = Array(#"{"bug_type":"309","name":"Ledger","timestamp":"2024-03-18 03:02:15.00 -0700"}"#.utf8) + [0x0A]
        bytes += Array("{\n  \"pid\" : 2231,\n  \"procName\" : \"Ledger\",\n  \"threads\" : [".utf8)
        let frame = Array(#"{"imageOffset":26088,"symbol":"__psynch_cvwait","symbolLocation":8,"imageIndex":47},"#.utf8)
        for _ in 0..<(20_000_000 / frame.count) { bytes += frame }
        bytes += Array(#"{}],"#.utf8) + [0x0A]
        bytes += Array(#"  "termination" : {"namespace":"SIGNAL","code":11,"reasons":["Segmentation fault: 11"]}"#.utf8) + [0x0A, UInt8(ascii: "}"), 0x0A]
        let outcome = Self.read(bytes, chunkSize: 1 << 16)
        #expect(outcome.diagnostics.isEmpty)
        #expect(outcome.events.map(\.message) == ["Termination Reason: SIGNAL 11\nSegmentation fault: 11"])
        #expect(outcome.events.first?.origin.line == 6)
        #expect(Self.accounted(outcome))
    }

    @Test("a pasted text report: quoted with > or indented, it reads as the same events")
    func pastedText() throws {
        let text = String(decoding: try Self.bytes(Self.text), as: UTF8.self)
        let plain = Self.read(Array(text.utf8))
        #expect(plain.format == .document)
        #expect(plain.events.map(\.process) == ["Ledger", "Ledger"])
        #expect(plain.events.map(\.pid) == [2231, 2231])
        #expect(plain.events.map(\.reportedBundleID) == ["com.example.ledger", "com.example.ledger"])
        #expect(plain.events.map { String($0.message.prefix(13)) } == ["Launch Time: ", "Termination R"])
        #expect(plain.events.last?.message.split(separator: "\n").count == 2)
        // Quoted, it is a pasted document whose one block is the report; indented, the report itself.
        for (decorate, format) in [({ (line: Substring) in "> " + line }, LogFormat.document), ({ (line: Substring) in "    " + line }, .crashReportText)] {
            let pasted = text.split(separator: "\n", omittingEmptySubsequences: false).map(decorate).joined(separator: "\n")
            let outcome = Self.read(Array(pasted.utf8))
            #expect(outcome.format == format)
            #expect(outcome.events.map(\.message) == plain.events.map(\.message))
            #expect(outcome.events.map(\.timestamp) == plain.events.map(\.timestamp))
        }
    }

    @Test("a header annotated by the person who pasted it: the bundle identifier and pid are read, the remarks after them are not")
    func annotatedHeader() throws {
        // The header of a real text report (firebase/firebase-ios-sdk#5463, an iOS 13.3.1 scene-create watchdog kill),
        // with the remarks a reporter adds after a value when pasting it into an issue.
        let header = """
            Process:             theloungerz [1935]   <-- the app
            Identifier:          games.spontom.theloungerz   <-- our bundle
            Date/Time:           2020-05-11 17:49:43.0476 +0530
            Launch Time:         2020-05-11 17:49:32.2554 +0530
            Exception Type:  EXC_CRASH (SIGKILL)
            Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d

            """
        let plain = Self.read(Array(header.replacingOccurrences(of: "   <-- the app", with: "")
            .replacingOccurrences(of: "   <-- our bundle", with: "").utf8))
        #expect(plain.events.map(\.reportedBundleID) == ["games.spontom.theloungerz", "games.spontom.theloungerz"])
        for remark in ["   <-- our bundle", " // ours", "\t# the app that dies", "  (ours)"] {
            let annotated = Self.read(Array(header.replacingOccurrences(of: "   <-- our bundle", with: remark).utf8))
            #expect(annotated.events.map(\.reportedBundleID) == plain.events.map(\.reportedBundleID), "\(remark)")
            #expect(annotated.events.map(\.process) == ["theloungerz", "theloungerz"], "\(remark)")
            #expect(annotated.events.map(\.pid) == [1935, 1935], "\(remark)")
            #expect(annotated.events.map(\.message) == plain.events.map(\.message), "\(remark)")
        }
        // A process name with a space and brackets of its own keeps them; the pid is the first bracketed number.
        let spaced = Self.read(Array(header.replacingOccurrences(of: "theloungerz [1935]", with: "Ledger [Pro] [2231] [arm64e]").utf8))
        #expect(spaced.events.map(\.process) == ["Ledger [Pro]", "Ledger [Pro]"])
        #expect(spaced.events.map(\.pid) == [2231, 2231])
    }

    @Test("two reports pasted one after another are two reports")
    func twoReports() throws {
        let text = String(decoding: try Self.bytes(Self.text), as: UTF8.self)
        let report = text.split(separator: "```", omittingEmptySubsequences: false)[1]
        let second = report.replacingOccurrences(of: "Ledger [2231]", with: "Ledger [2290]")
        let outcome = Self.read(Array((report + "\n" + second).utf8))
        #expect(outcome.events.filter { $0.message.hasPrefix("Termination") }.map(\.pid) == [2231, 2290])
        #expect(Self.accounted(outcome))
    }

    @Test("a JetsamEvent: one termination per killed process, with its reason and states; the others are not events")
    func jetsam() throws {
        let outcome = Self.read(try Self.bytes("Corpus/formats/crash-report-ips-jetsam/JetsamEvent-2024-03-18-054000.ips"))
        #expect(outcome.events.map(\.message) == ["JetsamEvent: killed (per-process-limit); states: frontmost, suspended",
                                                  "JetsamEvent: killed (idle-exit); states: daemon, idle"])
        #expect(outcome.events.map(\.process) == ["Chat", "financed"])
        #expect(outcome.events.map(\.pid) == [4410, 44152])
        #expect(outcome.events.map(\.origin.line) == [23, 24])
        #expect(outcome.events.allSatisfy { $0.timestamp.text == "2024-03-18 05:40:00.04 -0700" })
    }

    @Test("hostile bodies: not an object, garbage after it, a huge number, nesting 100,000 deep: diagnostics, no crash")
    func hostile() {
        let head = #"{"bug_type":"309"}"# + "\n"
        let cases: [(String, DiagnosticCode?)] = [
            (head + "[1, 2]\n", .truncatedInput),
            (head + "{\"pid\": 12}\ngarbage\n", .malformedLine),
            (head + "{\"pid\": 1e999999999, \"procName\": \"X\", \"termination\": {\"namespace\": \"SIGNAL\", \"code\": 9}}\n", .inferredTime),
            (head + "{\"threads\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + ", \"pid\": 7}\n", nil),
        ]
        for (text, code) in cases {
            let outcome = Self.read(Array(text.utf8))
            #expect(outcome.format == .crashReport)
            #expect(outcome.diagnostics.first?.code == code, "\(text.prefix(60))")
            #expect(Self.accounted(outcome))
        }
    }
}

/// MetricKit JSON (issue 20): the real payloads of the corpus, and the shapes SDKs store them in.
@Suite("MetricKit payloads")
struct MetricKitTests {
    static func read(_ text: String, chunkSize: Int? = nil) -> ReaderVerifier.Outcome {
        ReaderVerifier.read(Array(text.utf8), configuration: ReaderConfiguration(inputName: "metrickit.json"), chunkSize: chunkSize)
    }

    static let crash = #"{"version":"1.0.0","callStackTree":{"callStacks":[{"threadAttributed":true,"callStackRootFrames":[{"binaryUUID":"8D2B8436-6351-3A6D-9682-A75CC5E59A06","offsetIntoBinaryTextSegment":54784,"sampleCount":1,"binaryName":"Ledger","address":4305022976}]}],"callStackPerThread":true},"diagnosticMetaData":{"appBuildVersion":"310","appVersion":"3.1.0","osVersion":"iPhone OS 26.0 (23A341)","bundleIdentifier":"com.example.ledger","pid":2231,"exceptionType":10,"signal":9,"exceptionCode":0,"terminationReason":"<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression: app<com.example.ledger(E4B1C9A2-5D3F-4A6B-8C7E-1F2A3B4C5D6E)>:2231 exhausted CPU time allowance of 2.00 seconds\nWatchdogEvent: scene-create\nWatchdogVisibility: Background\n) reportType:CrashLog maxTerminationResistance:Interactive>"}}"#

    @Test("an array of two payloads: each crash diagnostic at the end of its own payload's window, named by its bundle and pid")
    func arrayOfPayloads() {
        let payloads = "[\n"
            + #"{"timeStampBegin":"2025-10-01 00:00:00 +0000","timeStampEnd":"2025-10-01 23:59:00 +0000","crashDiagnostics":["# + Self.crash + "]},\n"
            + #"{"timeStampBegin":"2025-10-02 00:00:00 +0000","timeStampEnd":"2025-10-02 23:59:00 +0000","hangDiagnostics":[{"version":"1.0.0","diagnosticMetaData":{"hangDuration":"20 secs."}}],"crashDiagnostics":["# + Self.crash.replacingOccurrences(of: "\"pid\":2231", with: "\"pid\":2290") + "]}\n]\n"
        let outcome = Self.read(payloads)
        #expect(outcome.format == .metricKit)
        #expect(outcome.events.map(\.pid) == [2231, 2290])
        #expect(outcome.events.map(\.process) == ["com.example.ledger", "com.example.ledger"])
        #expect(outcome.events.map(\.timestamp.text) == ["2025-10-01 23:59:00 +0000", "2025-10-02 23:59:00 +0000"])
        #expect(outcome.events.allSatisfy { $0.timestamp.inferred == [.date] })
        #expect(outcome.events.first?.message.hasPrefix("Termination Reason: <RBSTerminateContext| domain:10 code:0x8BADF00D") == true)
        #expect(outcome.diagnostics.map(\.code) == [.inferredTime, .unreadReport])
        #expect(outcome.diagnostics.last?.message == "MetricKit: 1 hangDiagnostics not read (crash and app-launch diagnostics are)")
        for chunk in [1, 7] { #expect(Self.read(payloads, chunkSize: chunk) == outcome) }
    }

    /// An app-launch diagnostic as iOS 26.1's MetricKit writes it (MXAppLaunchDiagnostic's dictionary, read in the
    /// decompiled framework: `launchDuration` is put into `diagnosticMetaData` as a measurement in milliseconds,
    /// formatted for the device's locale; the call-stack tree beside it).
    static func launchDiagnostic(_ duration: String) -> String {
        #"{"version":"1.0.0","callStackTree":{"callStacks":[{"threadAttributed":true,"callStackRootFrames":[{"binaryUUID":"8D2B8436-6351-3A6D-9682-A75CC5E59A06","offsetIntoBinaryTextSegment":54784,"sampleCount":12,"binaryName":"Ledger","address":4305022976}]}],"callStackPerThread":false},"diagnosticMetaData":{"appBuildVersion":"310","appVersion":"3.1.0","osVersion":"iPhone OS 26.1 (23B85)","bundleIdentifier":"com.example.ledger","pid":2231,"launchDuration":"\#(duration)","platformArchitecture":"arm64e"}}"#
    }

    @Test("an app-launch diagnostic is an event of its app: the launch the system measured, in milliseconds; a localized number is kept as written and said")
    func appLaunchDiagnostics() {
        let payload = #"{"timeStampBegin":"2025-11-01 00:00:00","timeStampEnd":"2025-11-01 23:59:00","appLaunchDiagnostics":["#
            + Self.launchDiagnostic("3219 ms") + "," + Self.launchDiagnostic("2.5 s") + "," + Self.launchDiagnostic("3,219 ms") + "]}"
        let outcome = Self.read(payload)
        #expect(outcome.format == .metricKit)
        #expect(outcome.events.map(\.message) == ["MetricKit app launch diagnostic: launchDuration 3219 ms",
                                                   "MetricKit app launch diagnostic: launchDuration 2500 ms",
                                                   "MetricKit app launch diagnostic: launchDuration 3,219 ms (as written: not read as a number)"])
        #expect(outcome.events.allSatisfy { $0.process == "com.example.ledger" && $0.pid == 2231 && $0.reportedBundleID == "com.example.ledger" })
        #expect(outcome.diagnostics.map(\.code) == [.inferredTime, .invalidRecord])
        #expect(outcome.diagnostics.last?.message.hasPrefix("1 app launch diagnostic's launchDuration could not be read without guessing") == true)
        for chunk in [1, 7] { #expect(Self.read(payload, chunkSize: chunk) == outcome) }
    }

    @Test("a crash without a termination reason is named by its exception and signal")
    func exceptionNames() {
        let payload = Self.crash.replacingOccurrences(of: #""terminationReason":"#, with: #""other":"#)
            .replacingOccurrences(of: #""exceptionType":10,"signal":9"#, with: #""exceptionType":1,"signal":11"#)
        #expect(Self.read(payload).events.map(\.message) == ["Exception Type: EXC_BAD_ACCESS (SIGSEGV)"])
    }

    @Test("a metric payload is named in a note, not read as a log; a cut or malformed payload keeps what was read")
    func metricsAndDamage() {
        let metrics = #"{"timeStampBegin":"2025-10-01 00:00:00 +0000","timeStampEnd":"2025-10-01 23:59:00 +0000","metaData":{"appBuildVersion":"310"},"applicationLaunchMetrics":{"histogrammedTimeToFirstDrawKey":{"histogramNumBuckets":1,"histogramValue":{"0":{"bucketStart":"1000 ms","bucketEnd":"1010 ms","bucketCount":3}}}}}"#
        let outcome = Self.read(metrics)
        #expect(outcome.format == .metricKit)
        #expect(outcome.events.isEmpty)
        #expect(outcome.diagnostics.map(\.message) == ["MetricKit: 1 metric payload: launch histograms, in `prewarm-lint stats`"])
        let cut = Self.read(String(Self.crash.dropLast()))
        #expect(cut.events.count == 1)
        #expect(cut.diagnostics.first?.code == .truncatedInput)
        let deep = Self.read(#"{"callStackTree":"# + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + "}")
        #expect(deep.events.isEmpty)
        #expect(deep.diagnostics.isEmpty)
        let garbage = Self.read(Self.crash + "}}]")
        #expect(garbage.events.count == 1)
        #expect(garbage.diagnostics.first?.code == .truncatedInput)
    }
}

/// Sysdiagnose archives (issue 20): tar (inside gzip) read as a stream, the reports inside it read as reports.
@Suite("sysdiagnose archives")
struct SysdiagnoseTests {
    static let root = CrashReportTests.root
    static let folder = "sysdiagnose_2024.03.18_07-45-00-0700_iPhone-OS_iPhone_21E219"
    static let systemVersion = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>ProductBuildVersion</key>
        \t<string>21E219</string>
        \t<key>ProductName</key>
        \t<string>iPhone OS</string>
        \t<key>ProductVersion</key>
        \t<string>17.4</string>
        </dict>
        </plist>

        """

    /// A sysdiagnose's shape: its folder, two reports in crashes_and_spins (one under a long pax name, one a
    /// JetsamEvent under a GNU long name), SystemVersion.plist, a logarchive's binary file, ps.txt.
    static func sysdiagnose() throws -> TarArchiveBuilder {
        var tar = TarArchiveBuilder()
        let crash = try CrashReportTests.bytes("Corpus/verdicts/report-lock-state-for-keychain-failure/Ledger Pro-2024-03-18-074102.ips")
        let jetsam = try CrashReportTests.bytes("Corpus/formats/crash-report-ips-jetsam/JetsamEvent-2024-03-18-054000.ips")
        tar.add("\(folder)/logs/SystemVersion/SystemVersion.plist", Array(systemVersion.utf8))
        tar.add("\(folder)/crashes_and_spins/Ledger Pro-2024-03-18-074102.ips", crash, style: .pax)
        tar.add("\(folder)/crashes_and_spins/Retired/JetsamEvent-2024-03-18-054000-with-a-long-name-to-need-more-than-a-hundred-bytes.ips", jetsam,
                style: .gnuLongName)
        tar.add("\(folder)/system_logs.logarchive/Persist/0000000000000001.tracev3", [UInt8](repeating: 0x6A, count: 5000))
        tar.add("\(folder)/ps.txt", Array("USER PID COMMAND\nmobile 2231 Ledger Pro\n".utf8))
        tar.end()
        return tar
    }

    static func read(_ bytes: [UInt8], chunkSize: Int? = nil) -> ReaderVerifier.Outcome {
        ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: "sd.tar.gz"), chunkSize: chunkSize)
    }

    @Test("a sysdiagnose .tar.gz: its reports' events in time order, named archive:path; the OS build and the logarchive said")
    func sysdiagnoseArchive() throws {
        let archive = try Self.sysdiagnose().gzipped()
        let outcome = Self.read(archive)
        #expect(outcome.format == .tarArchive)
        #expect(outcome.failure == nil)
        #expect(outcome.events.map(\.process) == ["Chat", "financed", "Ledger Pro", "Ledger Pro", "Ledger Pro"])
        #expect(outcome.events.map(\.timestamp.microsecondsSinceEpoch) == outcome.events.map(\.timestamp.microsecondsSinceEpoch).sorted())
        #expect(outcome.events.last?.origin.input == "sd.tar.gz:\(Self.folder)/crashes_and_spins/Ledger Pro-2024-03-18-074102.ips")
        #expect(outcome.events.first?.origin.input.hasSuffix("Retired/JetsamEvent-2024-03-18-054000-with-a-long-name-to-need-more-than-a-hundred-bytes.ips") == true)
        let notes = outcome.diagnostics.filter { $0.code == .archiveContents }.map(\.message)
        #expect(notes.first == "a tar archive of 5 files: 2 crash or jetsam reports read (iPhone OS 17.4 (21E219)); 1 other text file is not a log format it reads")
        #expect(notes.count == 2)
        #expect(notes.last?.contains("log show --archive system_logs.logarchive --style ndjson") == true)
        #expect(!outcome.diagnostics.contains { $0.severity >= .warning })
        for chunk in [1, 511, 4096] { #expect(Self.read(archive, chunkSize: chunk) == outcome, "chunks of \(chunk)") }
    }

    @Test("a text log inside the archive is sniffed and read like any input, its events among the reports' in time order; a table is counted, not read")
    func textLogsInside() throws {
        var tar = TarArchiveBuilder()
        let crash = try CrashReportTests.bytes("Corpus/verdicts/report-lock-state-for-keychain-failure/Ledger Pro-2024-03-18-074102.ips")
        let log = try CrashReportTests.bytes("Corpus/scenarios/cold-launch/log.ndjson")
        tar.add("\(Self.folder)/crashes_and_spins/Ledger Pro-2024-03-18-074102.ips", crash)
        tar.add("\(Self.folder)/logs/exported/launch.ndjson", log)
        tar.add("\(Self.folder)/logs/MobileInstallation/mobile_installation.log.0", Array("not a log prewarm-lint reads\n".utf8))
        tar.add("\(Self.folder)/ps.txt", Array("USER PID COMMAND\nmobile 2231 Ledger Pro\n".utf8))
        tar.end()
        let outcome = Self.read(tar.bytes)
        let alone = ReaderVerifier.read(log, configuration: ReaderConfiguration(inputName: "x"))
        #expect(outcome.format == .tarArchive)
        #expect(outcome.events.filter { $0.origin.input.hasSuffix("launch.ndjson") }.map(\.message) == alone.events.map(\.message))
        #expect(outcome.events.count == alone.events.count + 3)
        #expect(outcome.events.map(\.timestamp.microsecondsSinceEpoch) == outcome.events.map(\.timestamp.microsecondsSinceEpoch).sorted())
        let notes = outcome.diagnostics.filter { $0.code == .archiveContents }.map(\.message)
        #expect(notes == ["a tar archive of 4 files: 1 crash or jetsam report read, 1 text log; 2 other text files are not a log format it reads"])
        #expect(!outcome.diagnostics.contains { $0.severity >= .warning })
        for chunk in [1, 4096] { #expect(Self.read(tar.bytes, chunkSize: chunk) == outcome, "chunks of \(chunk)") }
    }

    @Test("hostile archives: a 10 GB declared size, ../ names, a damaged header, a cut: bounded, said, what came before kept")
    func hostile() throws {
        let crash = try CrashReportTests.bytes("Corpus/verdicts/report-lock-state-for-keychain-failure/Ledger Pro-2024-03-18-074102.ips")
        var huge = TarArchiveBuilder()
        huge.add("../../etc/Ledger.ips", crash)
        huge.add("big.bin", [1, 2, 3], declaredSize: 10 << 30)
        let outcome = Self.read(huge.bytes)
        #expect(outcome.events.count == 3)
        #expect(outcome.events.first?.origin.input == "sd.tar.gz:../../etc/Ledger.ips")
        #expect(outcome.diagnostics.last?.message.hasPrefix("the archive ends inside an entry") == true)

        var damaged = TarArchiveBuilder()
        damaged.add("a.ips", crash)
        damaged.add("b.ips", crash, damageChecksum: true)
        damaged.end()
        let read = Self.read(damaged.bytes)
        #expect(read.events.count == 3)
        #expect(read.diagnostics.last?.message.contains("is damaged (its checksum does not match)") == true)

        var notReports = TarArchiveBuilder()
        notReports.add("notes.ips", Array("just some text\n".utf8))
        notReports.end()
        let unread = Self.read(notReports.bytes)
        #expect(unread.events.isEmpty)
        #expect(unread.diagnostics.map(\.code).contains(.unreadReport))
    }
}

/// MetricKit's launch histograms (issue 20): what `stats` reads beside the log's launches.
@Suite("MetricKit launch histograms")
struct MetricKitLaunchTests {
    @Test("durations as MetricKit writes them; a localized comma or an unknown unit is not guessed")
    func durations() {
        #expect(MetricKitLaunchMetrics.milliseconds("1000 ms") == 1000)
        #expect(MetricKitLaunchMetrics.milliseconds("1.5 s") == 1500)
        #expect(MetricKitLaunchMetrics.milliseconds("20 secs.") == 20_000)
        #expect(MetricKitLaunchMetrics.milliseconds("1530毫秒") == 1530)
        #expect(MetricKitLaunchMetrics.milliseconds("1,530毫秒") == nil)
        #expect(MetricKitLaunchMetrics.milliseconds("1.000,5 ms") == nil)
        #expect(MetricKitLaunchMetrics.milliseconds("12 fortnights") == nil)
        #expect(MetricKitLaunchMetrics.milliseconds("") == nil)
    }

    @Test("every key spelling, bucket keys in any order, drip-fed: the payloads' histograms")
    func collector() throws {
        let bytes = try CrashReportTests.bytes("Corpus/insights/metrickit-metric-payloads/payloads.json")
        for chunk in [1, 13, bytes.count] {
            var collector = MetricKitLaunchCollector()
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + chunk)
                bytes[index..<end].withUnsafeBytes { collector.feed($0) }
                index = end
            }
            let (metrics, whole) = collector.finish()
            #expect(whole)
            #expect(metrics.map(\.appVersion) == ["3.1.0", "3.2.0"])
            #expect(metrics.map(\.osVersion) == ["iPhone OS 17.4 (21E219)", "iPhone OS 18.0 (22A3354)"])
            #expect(Set(metrics[0].histograms.keys) == [.timeToFirstDraw, .optimizedTimeToFirstDraw, .resume])
            #expect(Set(metrics[1].histograms.keys) == [.timeToFirstDraw, .optimizedTimeToFirstDraw, .extendedLaunch])
            #expect(metrics[0].histograms[.timeToFirstDraw]?.map(\.startMilliseconds) == [1000, 1010, 2000])
            #expect(metrics[1].histograms[.timeToFirstDraw]?.map(\.count) == [4, 4])
            #expect(collector.unreadableBuckets == 1)
        }
    }
}
