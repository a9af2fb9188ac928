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
import Synchronization
import TerminalCore
import PaywallUI

/// `paywall-tui __play-worker`: a long-lived `play` for `test` (hidden; `test` starts one per
/// worker thread), speaking `PlayWorkerProtocol` on stdin and stdout. Each project is loaded once
/// and kept (`ProjectCache`, handed to each play): process start and project load were most of a
/// scenario's cost.
package enum PlayWorker {
  /// Serves requests until stdin ends; never returns.
  package static func serve() async -> Never {
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
    let cache = ProjectCache()
    var lines = PlayWorkerProtocol.LineReader(fd: requests)
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    while let line = lines.next() {
      // A request this program did not write: stop, and `test` reports the scenario crashed.
      guard let request = try? decoder.decode(PlayWorkerProtocol.Request.self, from: Data(line)), request.arguments.first == "play" else { _exit(70) }
      let response = await run(request.arguments, confinedTo: request.scenarioDirectory, cache: cache)
      guard let data = try? encoder.encode(response),
            data.withUnsafeBytes({ FileSystem.writeAll($0, to: responses) }) == nil,
            FileSystem.writeAll("\n", to: responses) == nil else { _exit(70) }
    }
    _exit(0)
  }

  /// Runs one `play` command line in this process, as a child process would have run it, its
  /// writes confined to `directory` and its project taken from `cache`.
  package static func run(_ arguments: [String], confinedTo directory: String? = nil, cache: ProjectCache? = nil) async -> PlayWorkerProtocol.Response {
    // Each scenario starts as a new process does: no failed write remembered from the last one.
    Console.forgetFailures()
    var step: StepFailure?
    let code = await PaywallCommand.ending {
      let parsed = try Arguments(Array(arguments.dropFirst()), spec: PlayCommand.spec)
      if parsed.wantsHelp { return try Console.out(PlayCommand.spec.help) }
      var command = try PlayCommand(parsed)
      command.confinement = directory
      command.cache = cache
      let report = try await command.play()
      step = report.failure
      if let failure = report.failure { throw CLIFailure.invalid(failure.message) }
    }
    switch Console.ending(code) {
    case .exit(let code): return PlayWorkerProtocol.Response(code: code, step: step)
    case .brokenPipe: return PlayWorkerProtocol.Response(signal: SIGPIPE, step: step)
    }
  }
}

/// Projects loaded once and kept, for the test worker: the same path and `--catalog` give the
/// same load result (and its warnings, said again each time). A command that runs once loads
/// once, with none.
package final class ProjectCache: Sendable {
  private struct Key: Hashable {
    var path: String
    var catalog: String?
    var sdk: SDKChoice
  }

  private let kept = Mutex<[Key: ProjectLoadResult]>([:])

  package init() {}

  /// `ProjectLoader.load`, or what it gave for the same arguments before.
  package func load(_ path: String, catalog: String?, sdk: SDKChoice = SDKChoice()) -> ProjectLoadResult {
    let key = Key(path: path, catalog: catalog, sdk: sdk)
    if let hit = kept.withLock({ $0[key] }) { return hit }
    let result = ProjectLoader.load(path: path, catalogPath: catalog, sdk: sdk)
    kept.withLock { $0[key] = result }
    return result
  }
}
