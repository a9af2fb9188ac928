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

/// `paywall-tui __play-worker`: a long-lived `play` for `test` (hidden; `test` starts one per
/// worker thread). It reads requests on stdin, one JSON line each, `{"arguments": ["play", …]}`,
/// runs each exactly as a child `paywall-tui play …` would (the same parsing, the same command, a
/// fresh state directory the runner made, its stdout thrown away, its stderr on fd 2: a file the
/// runner reads), and answers on stdout with one JSON line, `{"code": N}` (its exit code) or
/// `{"signal": 13}` (a broken pipe, where a child would have died of SIGPIPE). Each project is
/// loaded once and kept (`ProjectCache`): process start and project load were most of a
/// scenario's cost. End of input ends it.
package enum PlayWorker {
  /// The hidden subcommand.
  package static let command = "__play-worker"

  /// One scenario to run: `play` and its arguments.
  package struct Request: Codable {
    package var arguments: [String]
    /// The scenario's directory: every file it writes must be inside it (`ScenarioConfinement`).
    package var scenarioDirectory: String?
  }

  /// How it ended: an exit code, or the signal a child would have died of.
  package struct Response: Codable, Equatable {
    package var code: Int32?
    package var signal: Int32?
  }

  /// Serves requests until stdin ends; never returns.
  package static func serve() -> Never {
    // The protocol keeps its own copies of stdin and stdout; play's stdout (the events) goes to
    // /dev/null, as `test` gives a child, and nothing play does can read the requests.
    let requests = dup(STDIN_FILENO)
    let responses = dup(STDOUT_FILENO)
    guard requests >= 0, responses >= 0 else { _exit(70) }
    _ = fcntl(requests, F_SETFD, FD_CLOEXEC)
    _ = fcntl(responses, F_SETFD, FD_CLOEXEC)
    let null = open("/dev/null", O_RDWR)
    guard null >= 0 else { _exit(70) }
    dup2(null, STDIN_FILENO)
    dup2(null, STDOUT_FILENO)
    close(null)
    ProjectCache.enable()
    var lines = LineReader(fd: requests)
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    while let line = lines.next() {
      // A request this program did not write: stop, and `test` reports the scenario crashed.
      guard let request = try? decoder.decode(Request.self, from: Data(line)), request.arguments.first == "play" else { _exit(70) }
      let response = ScenarioConfinement.with(request.scenarioDirectory) { run(request.arguments) }
      guard let data = try? encoder.encode(response),
            data.withUnsafeBytes({ FileSystem.writeAll($0, to: responses) }) == nil,
            FileSystem.writeAll("\n", to: responses) == nil else { _exit(70) }
    }
    _exit(0)
  }

  /// Runs one `play` command line in this process, as a child process would have run it.
  package static func run(_ arguments: [String]) -> Response {
    // Each scenario starts as a new process does: no failed write remembered from the last one.
    Console.forgetFailures()
    switch Console.ending(PaywallCommand.exitCode(arguments)) {
    case .exit(let code): return Response(code: code)
    case .brokenPipe: return Response(signal: SIGPIPE)
    }
  }

  /// Lines read from a descriptor, without their line break; nil at end of input.
  package struct LineReader {
    package var fd: Int32
    package var buffered: [UInt8] = []

    package mutating func next() -> [UInt8]? {
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        if let end = buffered.firstIndex(of: 0x0A) {
          let line = Array(buffered[..<end])
          buffered.removeSubrange(...end)
          return line
        }
        let count = read(fd, &chunk, chunk.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return nil }
        buffered += chunk[..<count]
      }
    }
  }
}

/// Projects loaded once and kept, for the test worker: the same path and `--catalog` give the
/// same load result (and its warnings, said again each time). Off everywhere else: a command
/// that runs once loads once.
package enum ProjectCache {
  private struct Key: Hashable {
    package var path: String
    package var catalog: String?
  }

  private static let kept = Mutex<[Key: ProjectLoadResult]?>(nil)

  /// From now on, loads are kept (the test worker; its current directory never changes).
  package static func enable() {
    kept.withLock { if $0 == nil { $0 = [:] } }
  }

  /// `ProjectLoader.load`, or what it gave for the same arguments before.
  package static func load(_ path: String, catalog: String?) -> ProjectLoadResult {
    let key = Key(path: path, catalog: catalog)
    if let hit = kept.withLock({ $0?[key] }) { return hit }
    let result = ProjectLoader.load(path: path, catalogPath: catalog)
    kept.withLock { if $0 != nil { $0![key] = result } }
    return result
  }
}

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
  private var worker: PlayWorkerProcess?

  package init(binary: String, timeout: Double, scratch: String, allowCommands: Bool = false) {
    self.binary = binary
    self.timeout = timeout
    self.scratch = scratch
    self.allowCommands = allowCommands
  }

  /// Whether a scenario's `play` arguments must run in a child process of their own: a command
  /// controller starts a controller process (with its process group, its exit hook and its
  /// stderr, which a shared worker would mix up) and `ask` asks at a terminal. Arguments play
  /// would refuse also go to a child, which says so exactly as before.
  package static func needsOwnProcess(_ words: [String]) -> Bool {
    guard let parsed = try? Arguments(words, spec: PlayCommand.spec) else { return true }
    let controller = parsed.value("controller")
    return controller == ControllerKind.command.rawValue || controller == ControllerKind.ask.rawValue
  }

  package mutating func run(_ scenario: Scenario) -> ScenarioResult {
    guard case .success(let words) = scenario.arguments(allowingCommands: allowCommands), !Self.needsOwnProcess(words) else {
      var child = PlayProcessExecutor(binary: binary, timeout: timeout, scratch: scratch, allowCommands: allowCommands)
      return child.run(scenario)
    }
    let start = ContinuousClock.now
    let arguments = ["play"] + words + ["--script", scenario.path]
    func result(_ outcome: ScenarioResult.Outcome) -> ScenarioResult {
      let elapsed = ContinuousClock.now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      return ScenarioResult(scenario: scenario, outcome: outcome, seconds: seconds, arguments: arguments)
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
    return result(run.outcome(timeout: timeout))
  }
}
