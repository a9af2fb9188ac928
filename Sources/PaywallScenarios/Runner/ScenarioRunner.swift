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

  /// The step that failed, as `play` reported it (its line, what was expected, what was there),
  /// when it got that far; nil when it passed or failed before a step.
  package var step: StepFailure?

  package init(scenario: Scenario, outcome: Outcome, seconds: Double, arguments: [String], step: StepFailure? = nil) {
    self.scenario = scenario
    self.outcome = outcome
    self.seconds = seconds
    self.arguments = arguments
    self.step = step
  }

  package var passed: Bool { outcome == .passed }

  /// `74 ms`, `1.2 s`.
  package static func spell(duration seconds: Double) -> String {
    seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : cFormat("%.1f s", seconds)
  }

  /// `60 s`, `0.5 s`: a limit as the user gave it.
  package static func spell(seconds: Double) -> String {
    seconds == seconds.rounded() && seconds < 1e15 ? "\(Int(seconds)) s" : cFormat("%g s", seconds)
  }

  /// The command that replays one scenario by hand, quoted for a POSIX shell; it starts from a
  /// fresh state, as `test` gave it (`play` starts from a fresh state in memory when no
  /// --state-dir is given).
  package static func rerunCommand(_ arguments: [String]) -> String {
    (["paywall-tui"] + arguments.map(ShellWord.quoted)).joined(separator: " ")
  }
}

/// Runs one scenario. Each worker thread owns one, so an executor may keep what it made for the
/// scenarios after (the worker process that keeps the projects it loaded).
package protocol ScenarioExecutor {
  mutating func run(_ scenario: Scenario) -> ScenarioResult
}

/// Runs every scenario given on `jobs` worker threads, each scenario through an executor of its
/// worker, and hands the results back in the order of the list, each as soon as it and every one
/// before it has finished: the output is the same whatever order they finish in.
package struct ScenarioRunner {
  package var jobs: Int
  package var makeExecutor: @Sendable () -> any ScenarioExecutor

  package init(jobs: Int, makeExecutor: @escaping @Sendable () -> any ScenarioExecutor) {
    self.jobs = jobs
    self.makeExecutor = makeExecutor
  }

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
