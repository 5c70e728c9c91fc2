@testable import PrewarmLint
import PrewarmLintTesting
import Synchronization
import Testing

/// `ReorderWindow` moves its elements out to whoever it releases them to. What it releases must be a stable sort of
/// what went in when no element is later than the window allows; every element is released exactly once (none
/// copied and left behind, none destroyed twice); and a copy of a window is a window of its own.
@Suite("ReorderWindow", .serialized)
struct ReorderWindowTests {
    /// An element that counts the instances alive, ordered by `instant`, `id` its place in the input.
    struct Item: TimeOrdered, Sendable {
        final class Token: Sendable {
            static let alive = Atomic<Int>(0)
            init() { Self.alive.add(1, ordering: .relaxed) }
            deinit { Self.alive.subtract(1, ordering: .relaxed) }
        }
        let instant: Int64, id: Int, bytes: Int
        let token = Token()
        var orderingInstant: Int64 { instant }
        var messageBytes: Int { bytes }
    }

    static func run(size: Int, byteBudget: Int, items: [(instant: Int64, bytes: Int)]) -> [Int] {
        var window = ReorderWindow<Item>(size: size, byteBudget: byteBudget)
        var released: [Int] = []
        for (id, item) in items.enumerated() {
            window.insert(Item(instant: item.instant, id: id, bytes: item.bytes)) { released.append($0.id) }
        }
        window.drain { released.append($0.id) }
        return released
    }

    @Test("late by less than the window: a stable sort by instant; each element released once, none left alive",
          arguments: [1, 3, 16])
    func stableSort(size: Int) {
        var generator = SeededGenerator(seed: UInt64(size))
        let before = Item.Token.alive.load(ordering: .relaxed)
        // Instants that go back by at most `size - 1` places: within what the window reorders. Repeated instants
        // check stability.
        var instants = (0..<2_000).map { Int64($0 / 3) }
        for start in stride(from: 0, to: instants.count - size, by: size) {
            instants[start..<(start + size)].shuffle(using: &generator)
        }
        let items = instants.map { ($0, 10) }
        let released = Self.run(size: size, byteBudget: .max, items: items)
        let expected = items.indices.sorted { (instants[$0], $0) < (instants[$1], $1) }
        #expect(released == expected)
        #expect(Item.Token.alive.load(ordering: .relaxed) == before)
    }

    @Test("heavy messages: the earlier half handed on early, still each element once and in order")
    func byteBudget() {
        let before = Item.Token.alive.load(ordering: .relaxed)
        let items = (0..<300).map { (Int64($0), $0 % 7 == 0 ? 1_000 : 1) }
        let released = Self.run(size: 512, byteBudget: 4_000, items: items)
        #expect(released == Array(0..<300))
        #expect(Item.Token.alive.load(ordering: .relaxed) == before)
    }

    @Test("a window of size 0 acts as one of size 1: every element handed on, in order")
    func sizeZero() {
        let released = Self.run(size: 0, byteBudget: .max, items: (0..<50).map { (Int64($0), 1) })
        #expect(released == Array(0..<50))
    }

    @Test("a copy of a window is a window of its own (copy on write)")
    func copyOnWrite() {
        let before = Item.Token.alive.load(ordering: .relaxed)
        do {
            var first = ReorderWindow<Item>(size: 4)
            var fromFirst: [Int] = []
            for id in 0..<5 { first.insert(Item(instant: Int64(10 - id), id: id, bytes: 1)) { fromFirst.append($0.id) } }
            var second = first
            var fromSecond: [Int] = []
            second.insert(Item(instant: 0, id: 99, bytes: 1)) { fromSecond.append($0.id) }
            second.drain { fromSecond.append($0.id) }
            first.drain { fromFirst.append($0.id) }
            #expect(fromSecond == [99, 4, 3, 2, 1, 0])
            #expect(fromFirst == [4, 3, 2, 1, 0])
        }
        #expect(Item.Token.alive.load(ordering: .relaxed) == before)
    }

    /// The window's rule on a plain array: each element inserted after the last one not later than it; the earlier
    /// half handed on at twice the size, or half (rounded up) once the held bytes pass the budget.
    struct ArrayWindow {
        let size: Int, byteBudget: Int
        var held: [(instant: Int64, id: Int, bytes: Int)] = []
        mutating func insert(_ item: (instant: Int64, id: Int, bytes: Int), release: (Int) -> Void) {
            var index = held.count
            while index > 0, held[index - 1].instant > item.instant { index -= 1 }
            held.insert(item, at: index)
            let bytes = held.map(\.bytes).reduce(0, +)
            let count = held.count >= 2 * size ? size : bytes > byteBudget ? (held.count + 1) / 2 : 0
            for released in held.prefix(count) { release(released.id) }
            held.removeFirst(count)
        }
    }

    @Test("wherever its ring wraps (early halves of any length, lines late by more than the window, a copy made midway), the window hands on what the plain array's rule does")
    func ringAgainstArray() {
        let before = Item.Token.alive.load(ordering: .relaxed)
        var generator = SeededGenerator(seed: 22)
        for round in 0..<200 {
            let size = [1, 2, 3, 5, 8][round % 5]
            let byteBudget = [Int.max, 40, 100][round % 3]
            let count = Int.random(in: 0...120, using: &generator)
            let items = (0..<count).map { id in
                (instant: Int64(id - Int.random(in: 0...(2 * size + 2), using: &generator)), id: id,
                 bytes: Int.random(in: 1...30, using: &generator))
            }
            let copyAt = Int.random(in: 0...max(0, count), using: &generator)
            var window = ReorderWindow<Item>(size: size, byteBudget: byteBudget)
            var model = ArrayWindow(size: size, byteBudget: byteBudget)
            var released: [Int] = [], expected: [Int] = []
            var copy: ReorderWindow<Item>?
            var copyModel = model
            var copyReleased: [Int] = [], copyExpected: [Int] = []
            for (index, item) in items.enumerated() {
                if index == copyAt { copy = window; copyModel = model }
                window.insert(Item(instant: item.instant, id: item.id, bytes: item.bytes)) { released.append($0.id) }
                model.insert(item) { expected.append($0) }
                if copy != nil {
                    // The copy takes the same lines after it was made, and must go its own way from the same state.
                    copy!.insert(Item(instant: item.instant, id: item.id + 1_000, bytes: item.bytes)) { copyReleased.append($0.id) }
                    copyModel.insert((item.instant, item.id + 1_000, item.bytes)) { copyExpected.append($0) }
                }
            }
            window.drain { released.append($0.id) }
            expected += model.held.map(\.id)
            #expect(released == expected, "round \(round): size \(size), budget \(byteBudget)")
            if var copy {
                copy.drain { copyReleased.append($0.id) }
                copyExpected += copyModel.held.map(\.id)
                #expect(copyReleased == copyExpected, "round \(round), the copy")
            }
            copy = nil
        }
        #expect(Item.Token.alive.load(ordering: .relaxed) == before)
    }
}
