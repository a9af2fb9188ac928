import Synchronization
import Testing
@testable import PaywallModel

/// `parallelMap`: the results of `map`, in order, each element transformed once, whatever the
/// count and however the threads share it.
@Suite struct ParallelMapTests {
  @Test(arguments: [0, 1, 2, 3, 7, 400, 10_000])
  func itGivesMapsResultsInOrder(count: Int) {
    let items = Array(0..<count)
    let calls = Atomic<Int>(0)
    let results = items.parallelMap { item -> String in
      calls.add(1, ordering: .relaxed)
      return "item \(item * 3)"
    }
    #expect(results == items.map { "item \($0 * 3)" })
    #expect(calls.load(ordering: .relaxed) == count)
  }

  /// Work of very different lengths: a thread that takes a long one leaves the rest to others,
  /// and every result still lands at its own index.
  @Test func unevenWorkStillLandsInOrder() {
    let items = (0..<64).map { $0 % 8 == 0 ? 20_000 : 10 }
    let sums = items.parallelMap { n in (0..<n).reduce(0, &+) }
    #expect(sums == items.map { n in (0..<n).reduce(0, &+) })
  }

  /// Each element's own mutable state (here, a collector of diagnostics, as the importer gives
  /// each paywall) is changed by its own call only.
  @Test func eachCallOwnsItsElementsState() {
    let collectors = (0..<200).map { _ in DiagnosticCollector(file: "config.json", source: []) }
    let counts = collectors.enumerated().map { ($0, $1) }.parallelMap { index, collector -> Int in
      for line in 0..<(index % 5) {
        collector.warning(.superwallImport, "warning \(line) of \(index)", at: .start, path: nil)
      }
      return collector.diagnostics.count
    }
    #expect(counts == (0..<200).map { $0 % 5 })
    #expect(collectors[9].diagnostics.map(\.message) == (0..<4).map { "warning \($0) of 9" })
  }

  /// `dropOnEveryCore`: every element is freed once, the array keeping none of them alive, and
  /// what an element alone holds goes with it, on whichever core took it.
  @Test(arguments: [0, 1, 2, 3, 400])
  func droppingFreesEachElementOnce(count: Int) {
    final class Counter: Sendable { let freed = Atomic<Int>(0) }
    final class Tracked: Sendable {
      let counter: Counter
      let inner: [String]
      init(_ counter: Counter, _ n: Int) {
        self.counter = counter
        self.inner = (0..<3).map { "held by \(n), \($0), a string too long to be small" }
      }
      deinit { counter.freed.add(1, ordering: .relaxed) }
    }
    let counter = Counter()
    let items = (0..<count).map { [Tracked(counter, $0)] }
    weak let first = items.first?.first
    dropOnEveryCore(consume items)
    #expect(counter.freed.load(ordering: .relaxed) == count, "each element freed once, before the call returns")
    #expect(first == nil)
  }
}
