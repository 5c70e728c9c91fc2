import Foundation
import PrewarmLintModel
@testable import PrewarmLintReaders
import PrewarmLintTesting
import Testing

/// The device and system an input says it came from, read from real inputs only as they say it.
@Suite("device identity")
struct DeviceIdentityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func identities(_ path: String) throws -> [DeviceIdentity] {
        let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
        return ReaderVerifier.read(bytes, configuration: ReaderConfiguration(inputName: path)).statistics.deviceIdentities
    }

    @Test("a system as crash reports and MetricKit write it: its name, version and build; other text is none", arguments: [
        ("iPhone OS 17.4 (21E219)", "iPhone OS", "17.4", "21E219"), ("iPadOS 18.0 (22A3354)", "iPadOS", "18.0", "22A3354"),
        ("macOS 14.2.1 (23C71)", "macOS", "14.2.1", "23C71"), ("iPhone OS 17.4", "iPhone OS", "17.4", nil),
    ] as [(String, String, String, String?)])
    func systemParts(text: String, system: String, version: String, build: String?) throws {
        let parts = try #require(DeviceIdentity.systemParts(text))
        #expect(parts.system == system && parts.version == version && parts.build == build)
    }

    @Test("text that is not a system's: none")
    func notASystem() {
        for text in ["", "17.4", "iPhone OS", "iPhone OS seventeen (21E219)", "iPhone OS 17.4 (", "(21E219)"] {
            #expect(DeviceIdentity.systemParts(text) == nil, "\(text)")
        }
    }

    @Test("a JetsamEvent's metadata and body: the system, the model (product) and the incident")
    func jetsamReport() throws {
        #expect(try Self.identities("Corpus/formats/crash-report-ips-jetsam/JetsamEvent-2024-03-18-054000.ips")
            == [DeviceIdentity(system: "iPhone OS", version: "17.4", build: "21E219", model: "iPhone15,2", source: .crashReport,
                               reference: "7C2E9A41-5B3D-4F6E-8A1C-2D4F6B8E0A13")])
    }

    @Test("a real crash report pasted into an issue (metadata pretty-printed, body cut): the iPad it came from")
    func realPastedReport() throws {
        #expect(try Self.identities("Corpus/real-logs/79-deltachat2402-ips-metadata-pretty-printed-cut.log")
            == [DeviceIdentity(system: "iPhone OS", version: "17.6.1", build: "21G93", model: "iPad14,5", source: .crashReport,
                               reference: "C42F4956-3178-40EC-A804-D9782E2F6535")])
    }

    @Test("a real tracev3 file: its header's build, hardware and boot; a text log: none")
    func unifiedLogHeader() throws {
        #expect(try Self.identities("Tests/PrewarmLintReadersTests/UnifiedLogSamples/0000000000000030.tracev3")
            == [DeviceIdentity(build: "18D42", model: "Macmini7,1", source: .unifiedLog, reference: try #require(
                TraceV3StructureTests.outline(TraceV3StructureTests.macOSTiny).header?.bootUUID?.description))])
        #expect(try Self.identities("Corpus/formats/tracev3-macos-alone/0000000000000030.tracev3").count == 1)
        #expect(try Self.identities("Corpus/scenarios/prewarm-then-launch-scene-app/log.txt").isEmpty)
    }
}
