import CTerminalGuard
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
import PaywallScenarios
import PaywallUI

/// `paywall-tui test [PATH…]`: the scenario runner for CI. Every `.play` file under the paths runs
/// as `play` with the arguments of its `# args:` line, each in a fresh state directory of its own,
/// several at once; one line per scenario in a stable order, a summary, the failures' messages,
/// exit 1 if any failed, and JUnit XML for the CI's test report.
package struct TestCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "test",
    abstract: "Run the .play scenarios under each PATH (default: scenarios/) in parallel, each in a fresh state; exit 1 if any fails.",
    discussion: """
      Each scenario runs as 'paywall-tui play' with the arguments of its first line ('# args: PATH OPTIONS'), \
      in a private temporary state directory removed afterwards, with its paths relative to the current \
      directory. A worker process per job loads each project once and runs its scenarios one after another, \
      each as a fresh 'play' (--process-per-scenario starts a process for each). One line per scenario, in path order, then '31 passed, 0 failed (2.3 s)' and each failure's \
      message under its name. Exit 0 when all pass, 1 when any fails, 2 for a usage error.
      """,
    positionals: [PositionalSpec(name: "path", help: "Scenario files or directories, searched recursively for *.play (default: scenarios).", count: .zeroOrMore)],
    options: TestFlags.all,
    examples: [
      "paywall-tui test                                 # every scenario under scenarios/",
      "paywall-tui test scenarios/refund.play           # one scenario",
      "paywall-tui test --filter 'purchase|restore'     # those whose path (below the PATH) matches",
      "paywall-tui test --shard 2/4 --junit junit.xml   # the second of four CI machines' shares, as JUnit XML",
      "paywall-tui test --list --filter sdk-            # what would run",
      "paywall-tui test --process-per-scenario          # each scenario in a play process of its own",
    ]
  )

  package var paths: [String]
  package var selection: ScenarioSelection
  package var jobs: Int
  package var timeout: Double
  package var junit: String?
  package var list: Bool
  /// `--process-per-scenario`: a child `play` for every scenario, not a worker per job.
  package var processPerScenario: Bool
  /// `--allow-commands`: a scenario's `# args:` line may start its `--controller-command`.
  package var allowCommands: Bool

  package init(_ arguments: Arguments) throws(CLIFailure) {
    paths = arguments.positionals.isEmpty ? [] : arguments.positionals
    let filters = arguments[TestFlags.filter]
    try CLIFailure.reporting { () throws(PlayFailure) in try ScenarioSelection.checkFilters(filters) }
    selection = ScenarioSelection(filters: filters, shard: try arguments[TestFlags.shard])
    jobs = try arguments[TestFlags.jobs] ?? min(max(1, ProcessInfo.processInfo.activeProcessorCount), RunningChildren.capacity)
    timeout = try arguments[TestFlags.timeout]
    junit = arguments[TestFlags.junit]
    list = arguments[TestFlags.list]
    processPerScenario = arguments[TestFlags.processPerScenario]
    allowCommands = arguments[TestFlags.allowCommands]
  }

  /// How each job runs its scenarios: a worker that keeps the projects it loads (the default),
  /// or with --process-per-scenario a child `play` for each.
  package static func makeExecutor(processPerScenario: Bool, binary: String, timeout: Double, scratch: String,
                           allowCommands: Bool = false) -> any ScenarioExecutor {
    processPerScenario
      ? PlayProcessExecutor(binary: binary, timeout: timeout, scratch: scratch, allowCommands: allowCommands, commandLine: PlayCommand.commandLine)
      : PlayWorkerExecutor(binary: binary, timeout: timeout, scratch: scratch, allowCommands: allowCommands, commandLine: PlayCommand.commandLine)
  }

  package func run() async throws {
    var roots = paths
    if roots.isEmpty {
      guard FileSystem.isDirectory("scenarios") else {
        throw CLIFailure.usage("no scenarios/ in \(FileManager.default.currentDirectoryPath); give the scenarios to run, e.g. paywall-tui test path/to/scenarios")
      }
      roots = ["scenarios"]
    }
    let found = try ScenarioDiscovery.scenarios(under: roots)
    let selected = selection.select(found)
    if list {
      for scenario in selected { try Console.out(UntrustedText.printable(scenario.path)) }
      return
    }
    if let junit { try JUnitReport.checkWritable(junit) }
    // A filter that selects nothing is a typo more often than a wish: CI must not pass on it.
    if selected.isEmpty && !found.isEmpty && !selection.filters.isEmpty {
      throw CLIFailure.invalid("error: --filter selects none of the \(found.count) scenario\(found.count == 1 ? "" : "s") under \(roots.joined(separator: ", ")); see them with --list")
    }

    // A path read the old way (from the current directory) still works, and says how to write it.
    for scenario in selected {
      for warning in scenario.pathWarnings(commandLine: PlayCommand.commandLine) { try Console.error(UntrustedText.printable(warning)) }
    }
    tg_set_exit_hook(endScenariosBeforeDying)
    let start = ContinuousClock.now
    let workers = min(jobs, max(1, selected.count))
    try Console.out("running \(selected.count) scenario\(selected.count == 1 ? "" : "s") from \(roots.joined(separator: ", ")), \(workers) at a time")
    let binary = PlayProcessExecutor.currentExecutable()
    let timeout = timeout
    let scratch = PlayProcessExecutor.scratchDirectory()
    PlayProcessExecutor.removeLeftovers(in: scratch)
    // One worker process per job that keeps each project it loads (scenarios that need a
    // process of their own still get one: PlayWorkerExecutor.needsOwnProcess), or a child per scenario.
    let perScenario = processPerScenario
    let allowCommands = allowCommands
    let runner = ScenarioRunner(jobs: jobs) {
      Self.makeExecutor(processPerScenario: perScenario, binary: binary, timeout: timeout, scratch: scratch, allowCommands: allowCommands)
    }
    // Paths come from file names, which nothing sanitised: shown printable.
    let width = (selected.map { UntrustedText.printable($0.path).count }.max() ?? 0)
    let results = runner.run(selected, shouldStop: { Console.outputFailure != nil }) { result in
      let mark = result.passed ? "ok    " : "FAILED"
      let shown = UntrustedText.printable(result.scenario.path)
      let padding = String(repeating: " ", count: max(0, width - shown.count))
      Console.outOrRecord("\(mark) \(shown)\(padding)  \(ScenarioResult.spell(duration: result.seconds))")
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    if let junit { try JUnitReport.write(JUnitReport.xml(results, seconds: seconds), to: junit) }
    if let failure = Console.outputFailure { throw failure }

    let failed = results.filter { !$0.passed }
    if !failed.isEmpty {
      try Console.out("\nfailures:")
      for result in failed {
        guard case .failed(_, let message) = result.outcome else { continue }
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { UntrustedText.printable($0) }
        try Console.out("\n---- \(UntrustedText.printable(result.scenario.path)) ----\n\(lines.joined(separator: "\n"))")
        if !result.arguments.isEmpty { try Console.out("To run it alone: \(UntrustedText.printable(ScenarioResult.rerunCommand(result.arguments)))") }
      }
    }
    var summary = "\(results.count - failed.count) passed, \(failed.count) failed (\(cFormat(seconds < 1 ? "%.2f" : "%.1f", seconds)) s)"
    if selected.count < found.count {
      let by = [selection.filters.isEmpty ? nil : "--filter", selection.shard == nil ? nil : "--shard"].compactMap { $0 }
      summary += "; \(found.count - selected.count) of \(found.count) not selected (\(by.joined(separator: ", ")))"
    }
    try Console.out((failed.isEmpty ? "" : "\n") + summary)
    if !failed.isEmpty { throw CLIFailure(message: "", code: ExitStatus.failed.rawValue) }
  }
}

/// The command line's signal handlers call this before `test` dies of a signal: the scenarios
/// running get SIGTERM too (at a terminal, Ctrl-C reached them already: same process group).
private func endScenariosBeforeDying(_ signal: Int32) {
  RunningChildren.terminateAll()
}

/// `test`'s options.
package enum TestFlags {
  /// Checked as a whole (every pattern compiles) by `init`.
  package static let filter = Flag.list("filter", "regex", "Run only the scenarios whose path below the PATH given matches this (or another --filter).")
  package static let shard = Flag.parsed("shard", "K/N", "Run shard K of N (from 1): every N-th scenario of the sorted list, so N machines split a suite.") {
    (text: String) throws(CLIFailure) in
    try CLIFailure.reporting { () throws(PlayFailure) in try ScenarioSelection.Shard(parsing: text) }
  }
  /// nil when not given: the number of processors.
  package static let jobs = Flag.parsed("jobs", "n", "Scenarios run at once (default: the number of processors).") { (text: String) throws(CLIFailure) in
    guard let n = Int(text), n >= 1, n <= RunningChildren.capacity else {
      throw .usage("--jobs \(quoting: text) must be a whole number from 1 to \(RunningChildren.capacity), e.g. --jobs 4")
    }
    return n
  }
  /// Seconds; a plain number is seconds, as before units were taken.
  package static let timeout = Flag.parsed("timeout", "duration", "Wall time each scenario may take before it is ended and failed (default 60s).",
                                           default: "60s") { (text: String) throws(CLIFailure) in
    try CLIFailure.reporting { () throws(SessionError) in
      try DurationOption.seconds("timeout", text, DurationOption.scenarioTimeout, bareSeconds: true)
    }
  }
  package static let junit = Flag.text("junit", "file", "Also write the results as JUnit XML to this file (replaced atomically).")
  package static let list = Flag.bool("list", "Print the scenarios that would run, one a line, and run nothing.")
  package static let processPerScenario = Flag.bool("process-per-scenario", "Start a 'play' process for every scenario instead of one long-lived worker per job that loads each project once (slower; the same results).")
  package static let allowCommands = Flag.bool("allow-commands", "Let scenarios whose '# args:' line gives --controller-command start that command (only for scenarios you trust); without it each such scenario fails, saying so.")

  /// In the order help lists them.
  package static let all: [OptionInfo] = [
    filter.option, shard.option, jobs.option, timeout.option, junit.option, list.option, processPerScenario.option,
    allowCommands.option,
  ]
}
