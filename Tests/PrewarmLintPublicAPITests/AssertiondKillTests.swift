import Foundation
import PrewarmLint
import Testing

/// assertiond's 0x8badf00d: a background task that overran its time, not a launch watchdog — unless it came within a
/// launch's budget of the process's start.
@Suite("a kill assertiond made")
struct AssertiondKillTests {
    /// A legacy text crash report: its header, then the termination lines of the report in Instabug/Instabug-iOS#305
    /// (tonysung, 2019-01-14: `Termination Reason: Namespace ASSERTIOND, Code 0x8badf00d`) and the assertion assertiond
    /// said was beyond its permitted time (the same comment's console line); the times and names are made up.
    static func report(launched: String, killed: String) -> [UInt8] {
        Array("""
            Incident Identifier: 6A3C2F4E-1B2D-4C5E-8F90-0123456789AB
            Hardware Model:      iPhone11,2
            Process:             OurApp [24424]
            Path:                /private/var/containers/Bundle/Application/0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0/OurApp.app/OurApp
            Identifier:          com.ourdomain.OurApp
            Version:             1.0 (1)
            Code Type:           ARM-64 (Native)
            Role:                Non UI
            Parent Process:      launchd [1]

            Date/Time:           \(killed)
            Launch Time:         \(launched)
            OS Version:          iPhone OS 12.1.2 (16C101)

            Exception Type:  EXC_CRASH (SIGKILL)
            Exception Codes: 0x0000000000000000, 0x0000000000000000
            Exception Note:  EXC_CORPSE_NOTIFY
            Termination Reason: Namespace ASSERTIOND, Code 0x8badf00d
            Triggered by Thread:  0

            Application Specific Information:
            OurApp:24424 has active assertions beyond permitted time:
            <BKProcessAssertion: 0x10473d0c0; "Shared Background Assertion 446 for com.ourdomain.OurApp" (finishTask:180s); id:…475658F36F42> (owner: OurApp:24424)

            Thread 0 Crashed:
            0   libsystem_kernel.dylib        \t0x00000001ba3f9b5c mach_msg_trap + 8

            """.utf8)
    }

    @Test("minutes after its launch: no launch-watchdog finding, the kill said as a hazard no finding reports")
    func backgroundTaskOverrun() throws {
        let report = try LogAnalyzer().lint(bytes: Self.report(launched: "2019-01-08 13:21:02.0000 +0800", killed: "2019-01-08 13:26:14.0870 +0800"),
                                            named: "OurApp.crash")
        #expect(!report.findings.contains { $0.ruleID == "launch-watchdog" }, "\(report.findings.map(\.message))")
        #expect(report.diagnostics.contains { $0.code == .hazardNotReported && $0.severity == .warning }, "\(report.diagnostics.map(\.message))")
    }

    @Test("within a launch's budget of its start: the launch watchdog it is")
    func duringTheLaunch() throws {
        let report = try LogAnalyzer().lint(bytes: Self.report(launched: "2019-01-08 13:26:04.0000 +0800", killed: "2019-01-08 13:26:14.0870 +0800"),
                                            named: "OurApp.crash")
        #expect(report.findings.contains { $0.ruleID == "launch-watchdog" }, "\(report.findings.map(\.message)) \(report.diagnostics.map(\.message))")
    }
}
