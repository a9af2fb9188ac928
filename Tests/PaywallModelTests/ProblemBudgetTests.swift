import Foundation
import PaywallModel
import Testing

/// A controller's flood of problems is summed up once its second is over ("N more lines not
/// shown"). The summary must come then even when no task can run: it used to wait for a thread of
/// the cooperative pool, and a test run whose two pool threads were busy for a minute held it
/// back that long (CI saw the flood test fail so).
@Suite struct ProblemBudgetTests {
  @Test(.timeLimit(.minutes(1)))
  func theSummaryComesWhenTheSecondIsOverWithEveryPoolThreadBusy() async {
    let lines = Locked<[String]>([])
    let budget = ProblemBudget(perSecond: 2) { line in lines.withLock { $0.append(line) } }
    let started = ContinuousClock.now
    for i in 0..<50 { budget.report { "junk \(i)" } }
    #expect(lines.value == ["junk 0", "junk 1"], "two a second, the rest held back")
    // Every thread of the pool blocks (no await) until the summary is in or 4 s have passed.
    let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
    let arrivals = await withTaskGroup(of: Duration?.self) { group in
      for _ in 0..<width {
        group.addTask {
          let deadline = started + .seconds(4)
          while ContinuousClock.now < deadline {
            if lines.value.count == 3 { return ContinuousClock.now - started }
            usleep(2_000)
          }
          return nil
        }
      }
      return await group.reduce(into: [Duration?]()) { $0.append($1) }
    }
    withExtendedLifetime(budget) {}
    #expect(arrivals.allSatisfy { $0 != nil }, "the summary came only once the pool was free: \(lines.value)")
    #expect(lines.value.last == "48 more lines not shown (the last: junk 49)")
  }
}
