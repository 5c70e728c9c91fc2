import Testing
@testable import PrewarmLint
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The read loops' buffer starts on a page: the kernel then copies each page-cache page to the same place in a page
/// of the buffer, the fast case of its copy (see `InputReader.allocateReadBuffer(byteCount:)`).
@Suite struct ReadBufferTests {
    @Test(arguments: [1, 4096, 1 << 16, 1 << 20, (1 << 20) + 17])
    func startsOnAPage(byteCount: Int) {
        #if canImport(Darwin)
        let page = Int(getpagesize())
        #else
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        #endif
        var buffers: [UnsafeMutableRawBufferPointer] = []
        defer { buffers.forEach { $0.deallocate() } }
        // Several at once, so that one aligned by chance does not pass for all.
        for _ in 0..<8 {
            let buffer = InputReader.allocateReadBuffer(byteCount: byteCount)
            buffers.append(buffer)
            #expect(buffer.count == byteCount)
            #expect(Int(bitPattern: buffer.baseAddress) % max(4096, page) == 0)
        }
    }
}
