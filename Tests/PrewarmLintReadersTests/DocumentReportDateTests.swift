import PrewarmLintReaders
import Testing

/// What dates a paste's undated logs: a crash report's `Date/Time:` when its process's pid is named in another block.
@Suite("the date a crash report gives a paste")
struct DocumentReportDateTests {
    static func date(_ blocks: [[String]]) -> (instant: Int64, line: Int, pid: Int)? {
        var reader = DocumentReportDate()
        var line = 0
        for (block, lines) in blocks.enumerated() {
            for text in lines {
                line += 1
                Array(text.utf8).withUnsafeBytes { reader.take($0, line: line, block: block) }
            }
        }
        return reader.date
    }

    static let report = ["Process:             Ledger [2231]", "Parent Process:      launchd [1]", "Date/Time:           2024-03-18 06:10:08.9530 -0700",
                         "Termination Reason: FRONTBOARD 2343432205",
                         "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression: app<com.example.ledger(501)>:2231 exhausted"]

    @Test("the pid named in another block, in each identity form a log line has, dates the paste at the report's Date/Time")
    func pidForms() throws {
        for copy in ["33\tdefault\t06:10:00.001000-0700\trunningboardd\t[app<com.example.ledger(501)>:2231] This process will be managed.",
                     "default\t06:10:00.002000-0700\tsecurityd\tLedger[2231]/1#4 LF=0 copy_matching Error Domain=NSOSStatusErrorDomain Code=-25308",
                     "default\t06:10:00.003000-0700\tSpringBoard\tApplication process state changed for com.example.ledger: <SBApplicationProcessState: 0x281a5ea00; pid: 2231; taskState: Running>",
                     "Mar 18 06:10:00 iPhone Ledger[2231] <Notice>: didFinishLaunching"] {
            let dated = try #require(Self.date([Self.report, [copy]]), "\(copy)")
            #expect(dated.pid == 2231 && dated.line == 3)
            #expect(dated.instant == 1_710_767_408_953_000)
            // The copy before the report, as often pasted.
            #expect(Self.date([[copy], Self.report])?.pid == 2231)
        }
    }

    @Test("no date when the pid is named only by the report itself, by no block, or only as a time's digits; nor without Date/Time")
    func noFit() {
        #expect(Self.date([Self.report]) == nil)
        #expect(Self.date([Self.report, ["default\t06:10:00.001000-0700\trunningboardd\t[app<com.example.other(501)>:4410] This process will be managed."]]) == nil)
        #expect(Self.date([Self.report, ["default\t22:31:22.2231\tkernel\tat 06:22:31 the clock was 2231 ticks"]]) == nil)
        #expect(Self.date([Self.report.filter { !$0.hasPrefix("Date/Time:") }, ["Ledger[2231]: hello"]]) == nil)
        // A report split over two blocks names its pid in its second: the paste is dated by it (its own date either way).
        #expect(Self.date([Array(Self.report.prefix(3)), Array(Self.report.suffix(2))]) != nil)
    }
}
