import Foundation
@testable import PrewarmLint
import PrewarmLintModel
import PrewarmLintTesting
import Synchronization
import Testing

/// `InputParallelism`: several inputs at once (`--separately`, and inputs collected for a merge), the largest started
/// first so that a big input named last does not run alone at the end; the results always in input order.
@Suite("inputs read at once")
struct InputParallelismTests {
    @Test("the largest inputs start first, ties in input order; without sizes, input order")
    func startingOrder() {
        #expect(InputParallelism.startingOrder(count: 6, sizes: [10, 300, 5, 300, 0, 40]) == [1, 3, 5, 0, 2, 4])
        #expect(InputParallelism.startingOrder(count: 3, sizes: nil) == [0, 1, 2])
        // Sizes that do not match the inputs are not used.
        #expect(InputParallelism.startingOrder(count: 3, sizes: [1, 2]) == [0, 1, 2])
    }

    @Test("whatever the jobs, each input is read once and the results come back in input order; with two, a largest one first")
    func resultsInInputOrder() {
        let sizes = [10, 300, 5, 300, 0, 40]
        for jobs in [1, 2, 4] {
            let started = Mutex<[Int]>([])
            let results = InputParallelism.map(count: sizes.count, jobs: jobs, threads: ThreadStarter(), sizes: sizes) { index in
                started.withLock { $0.append(index) }
                return index * 10
            }
            #expect(results == [0, 10, 20, 30, 40, 50], "jobs \(jobs)")
            #expect(started.withLock { $0.sorted() } == Array(0..<6), "each input once (jobs \(jobs))")
            if jobs == 2 {
                // Two threads, each saying what it took before it takes more: the first said is one of the first two
                // taken, the two largest (not input 0, which an input-order start takes first).
                #expect([1, 3].contains(started.withLock { $0.first }), "jobs \(jobs): \(started.withLock { $0 })")
            }
        }
    }

    @Test("sizes are the files' bytes on disk; standard input and missing files count 0")
    func sizesOnDisk() throws {
        let folder = try TemporaryFolder("prewarm-lint-input-sizes")
        defer { folder.remove() }
        let small = try folder.write(Array(repeating: UInt8(ascii: "x"), count: 10), named: "small.log")
        let big = try folder.write(Array(repeating: UInt8(ascii: "x"), count: 5_000), named: "big.log")
        let inputs = [small, big, folder.url.appendingPathComponent("missing.log").path].map {
            DiscoveredInput(input: .file($0), foundInDirectory: false)
        } + [DiscoveredInput(input: .standardInput, foundInDirectory: false)]
        #expect(InputParallelism.sizes(of: inputs) == [10, 5_000, 0, 0])
    }
}
