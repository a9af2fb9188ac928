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

/// One running `paywall-tui __play-worker`: its pipes and its stderr file. Ended (end of input,
/// then SIGKILL if it lingers) when the executor holding it goes.
package final class PlayWorkerProcess {
  package let pid: pid_t
  private let requests: Int32
  private let responses: Int32
  /// The worker's fd 2: an unlinked file opened for appending, emptied before each scenario.
  private let stderrFile: Int32
  private var pending: [UInt8] = []
  package private(set) var isAlive = true
  /// How long a worker may take to end after its input ends before it is killed.
  package static let exitWait = 1.0

  private init(pid: pid_t, requests: Int32, responses: Int32, stderrFile: Int32) {
    self.pid = pid
    self.requests = requests
    self.responses = responses
    self.stderrFile = stderrFile
  }

  deinit {
    close(requests)
    if isAlive {
      // End of input ends it; a worker that lingers is killed.
      let end = ContinuousClock.now + .milliseconds(Int64(Self.exitWait * 1000))
      var status: Int32 = 0
      var reaped = false
      while ContinuousClock.now < end {
        if waitpid(pid, &status, WNOHANG) != 0 { reaped = true; break }
        usleep(1_000)
      }
      if !reaped {
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      }
      RunningChildren.remove(pid)
    }
    close(responses)
    close(stderrFile)
  }

  /// Starts `binary __play-worker`, its stderr an unlinked file in `scratch`.
  package static func start(binary: String, scratch: String) -> Result<PlayWorkerProcess, ScenarioProblem> {
    var template = Array(scratch.appendingPathComponent("\(PlayProcessExecutor.prefix)\(getpid())-stderr-XXXXXX").utf8CString)
    let file = mkstemp(&template)
    guard file >= 0 else {
      return .failure(ScenarioProblem("cannot create a temporary file in \(scratch): \(String(cString: strerror(errno)))"))
    }
    unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    _ = fcntl(file, F_SETFD, FD_CLOEXEC)
    // Appending: after the runner empties it, the worker's next write lands at its start.
    _ = fcntl(file, F_SETFL, fcntl(file, F_GETFL) | O_APPEND)

    // As a child play: same process group (Ctrl-C reaches it), signals at their defaults.
    let setup = ChildSpawnSetup()
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(binary), strdup(PlayWorker.command), nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    // Under the same lock as a child play's start: no other child inherits these pipes.
    let started = spawning.withLock { _ -> (requests: Int32, responses: Int32, spawned: Int32)? in
      var input: [Int32] = [0, 0]
      var output: [Int32] = [0, 0]
      guard pipe(&input) == 0 else { return nil }
      guard pipe(&output) == 0 else {
        close(input[0])
        close(input[1])
        return nil
      }
      for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      posix_spawn_file_actions_adddup2(&setup.actions, input[0], 0)
      posix_spawn_file_actions_adddup2(&setup.actions, output[1], 1)
      posix_spawn_file_actions_adddup2(&setup.actions, file, 2)
      let spawned = posix_spawn(&pid, binary, &setup.actions, &setup.attributes, argv, SpawnPlatform.environment)
      close(input[0])
      close(output[1])
      return (input[1], output[0], spawned)
    }
    guard let started else {
      close(file)
      return .failure(ScenarioProblem("cannot make a pipe: \(String(cString: strerror(errno)))"))
    }
    guard started.spawned == 0 else {
      close(started.requests)
      close(started.responses)
      close(file)
      return .failure(ScenarioProblem("cannot start \(binary): \(String(cString: strerror(started.spawned)))"))
    }
    RunningChildren.add(pid)
    return .success(PlayWorkerProcess(pid: pid, requests: started.requests, responses: started.responses, stderrFile: file))
  }

  /// Runs one `play` command line in the worker: how it ended and what it said on stderr, as
  /// `PlayProcessExecutor.spawn` gives them for a child. After a crash or a timeout the worker
  /// is gone (`isAlive` false).
  package func run(_ arguments: [String], scenarioDirectory: String? = nil, timeout: Double) -> PlayProcessExecutor.ChildRun {
    precondition(isAlive)
    _ = ftruncate(stderrFile, 0)
    let deadline = ContinuousClock.now + .milliseconds(Int64((timeout * 1000).rounded(.up)))
    guard let request = try? JSONEncoder().encode(PlayWorker.Request(arguments: arguments, scenarioDirectory: scenarioDirectory)) else {
      return PlayProcessExecutor.ChildRun(ending: .notStarted("cannot encode the arguments for the test worker"), stderr: "")
    }
    // A worker that is gone takes the write with EPIPE (SIGPIPE does not end `test`); its end is
    // then read below as end of file.
    _ = request.withUnsafeBytes { FileSystem.writeAll($0, to: requests) }
    _ = FileSystem.writeAll("\n", to: requests)

    var buffer = [UInt8](repeating: 0, count: 4_096)
    var ending: PlayProcessExecutor.ChildRun.Ending?
    while ending == nil {
      if let end = pending.firstIndex(of: 0x0A) {
        let line = Array(pending[..<end])
        pending.removeSubrange(...end)
        switch try? JSONDecoder().decode(PlayWorker.Response.self, from: Data(line)) {
        case let response? where response.signal != nil: ending = .signalled(response.signal!)
        case let response? where response.code != nil: ending = .exited(response.code!)
        default:
          killNow()
          ending = .notStarted("the test worker gave an answer that is not one: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        break
      }
      let left = deadline - ContinuousClock.now
      if left <= .zero {
        endAfterTimeout()
        ending = .timedOut
        break
      }
      var poller = pollfd(fd: responses, events: Int16(POLLIN), revents: 0)
      let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
      let ready = poll(&poller, 1, Int32(min(100, max(1, milliseconds))))
      if ready > 0 {
        let count = read(responses, &buffer, buffer.count)
        if count > 0 {
          pending += buffer[..<count]
          continue
        }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        // End of file: the worker died during the scenario.
        ending = reapDead()
      } else {
        // Checked every 100 ms too: a worker gone without closing its end is gone all the same.
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
          markGone()
          ending = Self.ending(status)
        }
      }
    }
    return PlayProcessExecutor.ChildRun(ending: ending!, stderr: stderrText())
  }

  private func killNow() {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    markGone()
  }

  private func markGone() {
    isAlive = false
    RunningChildren.remove(pid)
  }

  /// At the timeout, as for a child: SIGTERM, then SIGKILL after the grace.
  private func endAfterTimeout() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    let graceEnd = ContinuousClock.now + .milliseconds(Int64(PlayProcessExecutor.grace * 1000))
    var reaped = false
    while ContinuousClock.now < graceEnd {
      if waitpid(pid, &status, WNOHANG) == pid { reaped = true; break }
      usleep(5_000)
    }
    if !reaped {
      kill(pid, SIGKILL)
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    markGone()
  }

  /// Its output ended: it is ending or has ended; waited for (SIGKILL if it takes past `exitWait`).
  private func reapDead() -> PlayProcessExecutor.ChildRun.Ending {
    var status: Int32 = 0
    let end = ContinuousClock.now + .milliseconds(Int64(Self.exitWait * 1000))
    var reaped = false
    while ContinuousClock.now < end {
      if waitpid(pid, &status, WNOHANG) == pid { reaped = true; break }
      usleep(1_000)
    }
    if !reaped {
      kill(pid, SIGKILL)
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    markGone()
    return Self.ending(status)
  }

  private static func ending(_ status: Int32) -> PlayProcessExecutor.ChildRun.Ending {
    status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
  }

  /// What the worker wrote on stderr since the scenario began, kept up to the same limit as a
  /// child's.
  private func stderrText() -> String {
    var info = stat()
    guard fstat(stderrFile, &info) == 0 else { return "" }
    let size = Int(info.st_size)
    let limit = PlayProcessExecutor.stderrLimit
    var bytes = [UInt8](repeating: 0, count: min(size, limit))
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeMutableBytes { pread(stderrFile, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      offset += count
    }
    var text = String(decoding: bytes[..<offset], as: UTF8.self)
    if size > limit { text += "\n… (\(size - limit) more bytes of stderr not kept)" }
    return text
  }
}
