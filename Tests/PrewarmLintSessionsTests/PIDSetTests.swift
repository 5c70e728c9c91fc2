@testable import PrewarmLint
import PrewarmLintTesting
import Testing

/// The gate keeps the pids of apps in a `PIDSet` (bits below 131,072, a `Set` beyond): it must
/// answer as a `Set<Int>` does after any sequence of insertions and removals, at the edges of its bits too.
@Suite("PIDSet")
struct PIDSetTests {
    @Test("the same answers as a Set<Int> after 20,000 random insertions and removals")
    func sameAsASet() {
        var generator = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15)
        let edges = [-1, 0, 1, 63, 64, 65, 131_071, 131_072, 131_073, Int.max, Int.min, 99_999]
        var pids = PIDSet()
        var model = Set<Int>()
        for step in 0..<20_000 {
            let pid = step % 3 == 0 ? edges.randomElement(using: &generator)! : Int.random(in: -10...140_000, using: &generator)
            if Bool.random(using: &generator) {
                pids.insert(pid)
                model.insert(pid)
            } else {
                pids.remove(pid)
                model.remove(pid)
            }
            #expect(pids.count == model.count)
            #expect(pids.isEmpty == model.isEmpty)
        }
        for pid in edges + Array(-5...200) + Array(131_000...131_100) {
            #expect(pids.contains(pid) == model.contains(pid), "\(pid)")
        }
        let copied = PIDSet(model)
        for pid in model { #expect(copied.contains(pid)) }
        #expect(copied.count == model.count)
    }
}
