#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel
import Synchronization

/// What became of one scenario.
package struct ScenarioResult: Sendable {
  package enum Outcome: Sendable, Equatable {
    case passed
    /// `play` failed (an `expect`, a usage error in its arguments or script, a crash), or the
    /// scenario could not be run; `message` is what it said (its stderr), `kind` what went wrong.
    case failed(kind: FailureKind, message: String)
  }

  /// How a scenario failed, for the JUnit `type` attribute.
  package enum FailureKind: String, Sendable {
    /// `play` exited 1: an `expect` did not hold, or the project has errors.
    case failed
    /// `play` exited 2: the scenario's arguments or script are malformed.
    case usage
    /// It ran past `--timeout` and was ended.
    case timeout
    /// `play` died of a signal or exited with a code it never uses.
    case crashed
    /// It could not be started (no `# args:` line, no temporary directory, no process).
    case notRun
  }

  package var scenario: Scenario
  package var outcome: Outcome
  /// Wall time, seconds.
  package var seconds: Double
  /// The `play` command line that reproduces it (with its own fresh state directory).
  package var arguments: [String]

  package var passed: Bool { outcome == .passed }
}

/// Runs one scenario. Each worker owns one (so an executor that loads a project once and keeps it
/// for the scenarios after, issue 20's in-process plan, fits here without touching the rest).
package protocol ScenarioExecutor {
  mutating func run(_ scenario: Scenario) -> ScenarioResult
}

/// Runs every scenario given on `jobs` worker threads, each scenario through an executor of its
/// worker, and hands the results back in the order of the list, each as soon as it and every one
/// before it has finished: the output is the same whatever order they finish in.
package struct ScenarioRunner {
  package var jobs: Int
  package var makeExecutor: @Sendable () -> any ScenarioExecutor

  /// Calls `report` on the calling thread for each result, in list order; `shouldStop` is asked
  /// before each scenario is started (true: start no more, e.g. stdout went away).
  package func run(_ scenarios: [Scenario], shouldStop: @escaping @Sendable () -> Bool = { false },
           report: (ScenarioResult) -> Void) -> [ScenarioResult] {
    let board = ResultBoard(count: scenarios.count)
    let workers = max(1, min(jobs, scenarios.count))
    let makeExecutor = makeExecutor
    for _ in 0..<workers {
      let work: @Sendable () -> Void = {
        do {
          var executor = makeExecutor()
          while !shouldStop(), let index = board.take() {
            board.finish(index, executor.run(scenarios[index]))
          }
        }  // The executor is gone (a worker process it kept has ended and been waited for)...
        board.workerEnded()
      }
      // A thread the system refuses: this thread does that worker's share itself.
      if !DetachedThread.start("pwt-scenarios", work) { work() }
    }
    var results: [ScenarioResult] = []
    while let result = board.next(after: results.count, workers: workers) {
      results.append(result)
      report(result)
    }
    // ...before the run is: nothing it started outlives it.
    board.waitForWorkers(workers)
    return results
  }
}

/// The shared state of a run: the next scenario to take, the results so far, the workers left.
private final class ResultBoard: @unchecked Sendable {
  private let condition = Condition()
  private var nextToTake = 0
  private var results: [ScenarioResult?]
  private var endedWorkers = 0

  package init(count: Int) { results = Array(repeating: nil, count: count) }

  package func take() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    guard nextToTake < results.count else { return nil }
    defer { nextToTake += 1 }
    return nextToTake
  }

  package func finish(_ index: Int, _ result: ScenarioResult) {
    condition.lock()
    results[index] = result
    condition.broadcast()
    condition.unlock()
  }

  package func workerEnded() {
    condition.lock()
    endedWorkers += 1
    condition.broadcast()
    condition.unlock()
  }

  /// Returns once every worker thread has ended (each ends its executor first).
  package func waitForWorkers(_ workers: Int) {
    condition.lock()
    defer { condition.unlock() }
    while endedWorkers < workers { condition.wait() }
  }

  /// Result `index` once it is in; nil when there is none and none will come (the list is done,
  /// or the workers stopped early).
  package func next(after index: Int, workers: Int) -> ScenarioResult? {
    condition.lock()
    defer { condition.unlock() }
    while index < results.count, results[index] == nil, endedWorkers < workers {
      condition.wait()
    }
    return index < results.count ? results[index] : nil
  }
}
