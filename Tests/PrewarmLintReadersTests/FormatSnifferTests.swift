import PrewarmLintReaders
import Testing

@Suite("FormatSniffer")
struct FormatSnifferTests {
    static let samples: [(String, LogFormat)] = [
        ("2023-07-19 08:22:51.916784+0300 0x3058     Info        0x0                  599    0    remotepairingd: (RemotePairing) [com.apple.dt.remotepairing:networktunnelmanager] tunnel-1: up\n", .logShow),
        ("2022-11-14 13:21:14.972 Df My App[59972:780a15] Configure argc/argv...\n", .logShowCompact),
        ("2023-05-26 13:42:44.136082+0200  localhost kernel[0]: (Sandbox) Sandbox: sandbox-exec(41398) deny(1) process-exec* /usr/bin/touch\n", .logShowSyslog),
        ("[{\n  \"timestamp\" : \"2025-07-26 18:10:17.745652-0400\",\n  \"eventMessage\" : \"x\"\n}]\n", .logShowJSON),
        ("{\"timestamp\":\"2025-07-26 18:10:17.745652-0400\",\"eventMessage\":\"x\",\"processImagePath\":\"\\/sbin\\/launchd\"}\n", .logShowNDJSON),
        ("default\t21:28:47.038326-0500\tSpringBoard\tBootstrapping app<com.x> with intent foreground-interactive\n", .consoleCopy),
        ("May  2 11:13:48.554160 sylk(sylk.debug.dylib)[1291] <Notice>: [SylkZRTP] ...\n", .idevicesyslog),
        ("2024-01-15 10:23:45.123456 runningboardd{RunningBoard}[33] <NOTICE>: hello\n", .pymobiledevice3),
        ("{\"pid\":33,\"timestamp\":\"2024-01-15T10:23:45.123456\",\"level\":\"NOTICE\",\"filename\":\"/usr/libexec/runningboardd\",\"message\":\"x\"}\n", .pymobiledevice3JSON),
        ("2022-05-08 00:27:03.060495+0800 Runner[25951:23399161] [Reporter] SDK init success\n", .xcodeConsole),
        ("{\"subsystem\":\"\",\"pid\":1,\"time\":1.7e18,\"process\":\"/sbin/launchd\",\"log_type\":\"Default\",\"message\":\"x\"}\n", .unifiedLogIterator),
    ]

    @Test("one real-shaped line is enough to tell each format", arguments: samples.indices)
    func sniffs(index: Int) {
        let (text, format) = Self.samples[index]
        let sniffed = Array(text.utf8).withUnsafeBytes { FormatSniffer.sniff($0, isComplete: true) }
        #expect(sniffed == format)
    }

    @Test("MetricKit by its keys, wherever in the sample; not by the same words quoted inside a string")
    func metricKitKeys() {
        func sniff(_ text: String) -> LogFormat? { Array(text.utf8).withUnsafeBytes { FormatSniffer.sniff($0, isComplete: true) } }
        // The key after a long stretch of other quoted keys and values (a call-stack tree first, as payloads have).
        let frames = (0..<400).map { #"{"binaryName":"Ledger","offsetIntoBinaryTextSegment":\#($0),"sampleCount":1}"# }.joined(separator: ",")
        for key in ["diagnosticMetaData", "crashDiagnostics", "timeStampBegin", "applicationLaunchMetrics", "hangDiagnostics"] {
            #expect(sniff(#"{"callStacks":[\#(frames)],"\#(key)":{"appVersion":"3.1.0"}}"#) == .metricKit, "\(key)")
            // The same words as text in a message: escaped quotes, so no key (also where the string ends with the word,
            // so that only the escaped opening quote tells).
            #expect(sniff(#"[{"note":"saw \"\#(key)\" in a payload","frames":[\#(frames)]}]"#) != .metricKit, "\(key) quoted")
            #expect(sniff(#"[{"note":"it ends with \"\#(key)","frames":[\#(frames)]}]"#) != .metricKit, "\(key) quoted last")
        }
    }

    @Test("text that is no log is not sniffed as one")
    func rejects() {
        for text in ["", "hello world\nthis is prose\n", "Exception Type:  EXC_CRASH (SIGKILL)\n", "\u{0}\u{1}\u{2}binary", "{\"name\":\"not a log\"}\n",
                     // a JSON array of objects that are not log records (our own scenario goldens)
                     "[\n  {\"id\":\"com.x#1\",\"kind\":\"cold-launch\",\"process\":\"x\"}\n]\n",
                     // a pretty-printed document whose lines hold objects followed by commas (our own expected.json)
                     "{\n  \"events\": [\n    {\"time\":\"2024\",\"process\":\"x\",\"message\":\"y\"},\n    {\"time\":\"2024\",\"process\":\"x\",\"message\":\"y\"}\n  ]\n}\n"] {
            #expect(Array(text.utf8).withUnsafeBytes { FormatSniffer.sniff($0, isComplete: true) } == nil, "\(text)")
        }
    }
}
