import Foundation
@testable import PrewarmLintReaders
import Testing

/// Real shared-cache strings files (libyal's, copied into `UnifiedLogSamples/dsc/`), read a piece at a time.
@Suite("shared cache strings")
struct SharedCacheStringsTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("UnifiedLogSamples/dsc")
    static func file(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: samples.appendingPathComponent(name))) }

    /// A file that counts what was read of it.
    final class CountingFile: UnifiedLogFileBytes, @unchecked Sendable {
        let bytes: [UInt8]
        var read = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func bytes(at offset: Int, count: Int) -> [UInt8] {
            let piece = bytes.bytes(at: offset, count: count)
            read += piece.count
            return piece
        }
    }

    @Test("version 2: 263 ranges and 200 images; a format string found by its offset, with its image; only the descriptors and what was asked are read")
    func versionTwo() throws {
        let file = CountingFile(try Self.file("dsc-version2"))
        let strings = try SharedCacheStrings(file: file)
        #expect(strings.majorVersion == 2)
        #expect(strings.ranges.count == 263 && strings.images.count == 200)
        #expect(strings.images.first?.uuid.description == "4BE09C94-1FA5-3100-9527-EA16CD1A294E")
        #expect(strings.images.first?.path == "/System/Library/Extensions/corecapture.kext/corecapture")
        let found = try #require(strings.string(at: 0x2B76D))
        #expect(found.format == "site.IOSlowAdaptiveClockingDomain")
        #expect(found.image?.path == "/System/Library/Extensions/IOSlowAdaptiveClockingFamily.kext/IOSlowAdaptiveClockingFamily")
        #expect(strings.string(at: 0x2B78F)?.format == "121111121212121211")
        #expect(strings.string(at: 0) == nil)  // before the first range
        #expect(file.read < 60_000)  // of 4,143,147 bytes
    }

    @Test("a minimal version 1 file: its one string; its image's path offset lies past the file (an empty path); a string its range declares but the file does not hold is nil")
    func versionOneCut() throws {
        let strings = try SharedCacheStrings(file: try Self.file("8E21CAB1DCF936B49F85CF860E6F34EC"))
        #expect(strings.majorVersion == 1 && strings.ranges.count == 1 && strings.images.count == 1)
        let found = try #require(strings.string(at: 0x48A40))
        #expect(found.format == "%s Unknown app vocabulary type - %@")
        // The file has 24 bytes where a version 1 image descriptor has 28: the path offset read is 0x55207325 ("%s U").
        #expect(found.image?.path == "")
        #expect(strings.string(at: 0x48A40 + 300) == nil)
    }

    @Test("hostile headers: a wrong magic, counts past the limit, descriptors cut by the end of the file are errors naming what")
    func hostileHeaders() throws {
        let real = try Self.file("8E21CAB1DCF936B49F85CF860E6F34EC")
        var magic = real
        magic[0] = 0
        #expect { try SharedCacheStrings(file: magic) } throws: { ($0 as? UnifiedLogError)?.reason.hasPrefix("magic 0x") == true }
        var counts = real
        counts.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect { try SharedCacheStrings(file: counts) } throws: { ($0 as? UnifiedLogError)?.reason.contains("at most") == true }
        #expect { try SharedCacheStrings(file: Array(real.prefix(30))) } throws: { ($0 as? UnifiedLogError)?.structure == "shared cache strings range" }
        // As many ranges as are read, and more images than are: the images refused before anything is read.
        var images = real
        images.replaceSubrange(12..<16, with: [0x01, 0x80, 0x00, 0x00])
        #expect { try SharedCacheStrings(file: images) } throws: { ($0 as? UnifiedLogError)?.reason.contains("32768 read") == true }
        // A header claiming the most ranges read, in a file that holds a few: the file ends them, read in batches.
        var claimed = real
        claimed.replaceSubrange(8..<12, with: [0x00, 0x00, 0x10, 0x00])
        #expect { try SharedCacheStrings(file: claimed) } throws: { ($0 as? UnifiedLogError)?.reason.hasPrefix("cut") == true }
    }
}
