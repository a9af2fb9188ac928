import Foundation
import PaywallModel
import Testing

/// A controller's flood of problems is summed up once its second is over ("N more lines not
/// shown"). The summary must come then even when no task can run: it used to wait for a thread of
/// the cooperative pool, and a test run whose two pool threads were busy for a minute held it
/// back that long (CI saw the flood test fail so).
@Suite struct ProblemBudgetTests {
  // A guard against a hang, not a bar on speed: 3 minutes. These tests wait on the test pool,
  // which a busy 2-core run can keep from them for over a minute (a CI run failed 28 so at 1).
  @Test(.timeLimit(.minutes(3)))
  func theSummaryComesWhenTheSecondIsOverWithEveryPoolThreadBusy() async {
    let lines = Locked<[String]>([])
    let budget = ProblemBudget(perSecond: 2) { line in lines.withLock { $0.append(line) } }
    let started = ContinuousClock.now
    for i in 0..<50 { budget.report { "junk \(i)" } }
    #expect(lines.value == ["junk 0", "junk 1"], "two a second, the rest held back")
    // A thread of the test's own, outside the pool, notes when the summary comes (or gives up
    // after 5 s); meanwhile every pool thread it can get blocks, without await, until then. In a
    // busy run some may start late, which only lets the summary through sooner.
    let arrival = Locked<Duration?>(nil)
    let watched = Locked(false)
    Thread.detachNewThread {
      while ContinuousClock.now - started < .seconds(5) {
        if lines.value.count == 3 {
          arrival.withLock { $0 = ContinuousClock.now - started }
          break
        }
        usleep(2_000)
      }
      watched.withLock { $0 = true }
    }
    let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<width {
        group.addTask {
          while !watched.value && ContinuousClock.now - started < .seconds(6) { usleep(2_000) }
        }
      }
    }
    withExtendedLifetime(budget) {}
    let came = arrival.value
    #expect(came != nil && came! < .seconds(3), "the summary came at \(String(describing: came)), not when its second was over: \(lines.value)")
    #expect(lines.value.last == "48 more lines not shown (the last: junk 49)")
  }
}
