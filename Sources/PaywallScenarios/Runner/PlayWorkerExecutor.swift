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
import TerminalCore
import PaywallUI

/// Runs scenarios in a long-lived `paywall-tui __play-worker` of its own (one per worker thread
/// of `test`), so a project is loaded once per worker instead of once per scenario; each scenario
/// still gets a fresh state directory and a fresh session, and the same result, message and exit
/// code a child `play` gives. A worker that crashes costs its scenario (reported as the child's
/// crash would be) and is started again for the next; one that runs past the timeout is ended
/// as a child would be. Scenarios that need a process of their own run as a child `play`
/// (`PlayProcessExecutor`): see `needsOwnProcess`.
package struct PlayWorkerExecutor: ScenarioExecutor {
  /// This program: the worker is `binary __play-worker`.
  package var binary: String
  /// Wall time a scenario may take.
  package var timeout: Double
  /// Where the state directories (and the worker's stderr file) are made.
  package var scratch: String
  /// `test --allow-commands`: a scenario may start its `--controller-command`.
  package var allowCommands: Bool
  /// How `play` reads a scenario's `# args:` line.
  package var commandLine: PlayCommandLine
  private var worker: PlayWorkerProcess?

  package init(binary: String, timeout: Double, scratch: String, allowCommands: Bool = false, commandLine: PlayCommandLine) {
    self.binary = binary
    self.timeout = timeout
    self.scratch = scratch
    self.allowCommands = allowCommands
    self.commandLine = commandLine
  }

  /// Whether a scenario's `play` arguments must run in a child process of their own: a command
  /// controller starts a controller process (with its process group, its exit hook and its
  /// stderr, which a shared worker would mix up) and `ask` asks at a terminal. Arguments play
  /// would refuse (`parsed` nil) also go to a child, which says so exactly as before.
  package static func needsOwnProcess(_ parsed: PlayWords?) -> Bool {
    guard let parsed else { return true }
    return parsed.controller == ControllerKind.command.rawValue || parsed.controller == ControllerKind.ask.rawValue
  }

  package mutating func run(_ scenario: Scenario) -> ScenarioResult {
    guard case .success(let read) = scenario.arguments(allowingCommands: allowCommands, commandLine: commandLine),
          !Self.needsOwnProcess(read.parsed) else {
      var child = PlayProcessExecutor(binary: binary, timeout: timeout, scratch: scratch, allowCommands: allowCommands,
                                      commandLine: commandLine)
      return child.run(scenario)
    }
    let words = read.words
    let start = ContinuousClock.now
    let arguments = ["play"] + words + ["--script", scenario.path]
    func result(_ outcome: ScenarioResult.Outcome, step: StepFailure? = nil) -> ScenarioResult {
      let elapsed = ContinuousClock.now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      return ScenarioResult(scenario: scenario, outcome: outcome, seconds: seconds, arguments: arguments, step: step)
    }
    let stateDirectory: String
    switch PlayProcessExecutor.makeStateDirectory(in: scratch) {
    case .failure(let problem): return result(.failed(kind: .notRun, message: problem.message))
    case .success(let made): stateDirectory = made
    }
    defer { try? FileManager.default.removeItem(atPath: stateDirectory) }
    if worker == nil {
      switch PlayWorkerProcess.start(binary: binary, scratch: scratch) {
      case .failure(let problem): return result(.failed(kind: .notRun, message: problem.message))
      case .success(let started): worker = started
      }
    }
    let run = worker!.run(arguments + ["--state-dir", stateDirectory], scenarioDirectory: scenario.directory, timeout: timeout)
    // A worker that crashed, hung or said something unreadable is gone: the next scenario starts
    // a new one.
    if !worker!.isAlive { worker = nil }
    return result(run.outcome(timeout: timeout), step: run.step)
  }
}
