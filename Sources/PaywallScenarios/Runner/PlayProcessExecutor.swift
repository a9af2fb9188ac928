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

/// Runs a scenario as `paywall-tui play ARGS --state-dir TMP --script FILE` in a child process of
/// this same binary: each in a fresh private state directory (removed afterwards), with nothing on
/// stdin, its events thrown away and its stderr kept as the failure's message, ended if it runs
/// past the timeout. A child that crashes or hangs costs its own scenario and nothing else.
package struct PlayProcessExecutor: ScenarioExecutor {
  /// This program (`SpawnPlatform.currentExecutable()`), so the children are exactly the `paywall-tui` that runs them.
  package var binary: String
  /// Wall time a scenario may take.
  package var timeout: Double
  /// Where the scenarios' state directories are made (`scratchDirectory()`).
  package var scratch: String
  /// `test --allow-commands`: a scenario may start its `--controller-command`.
  package var allowCommands = false
  /// How `play` reads a scenario's `# args:` line.
  package var commandLine: PlayCommandLine

  package init(binary: String, timeout: Double, scratch: String, allowCommands: Bool = false, commandLine: PlayCommandLine) {
    self.binary = binary
    self.timeout = timeout
    self.scratch = scratch
    self.allowCommands = allowCommands
    self.commandLine = commandLine
  }
  /// How much of a child's stderr is kept (the rest is counted, not stored).
  package static let stderrLimit = 256 * 1024
  /// After SIGTERM at the timeout, how long `play` has to end (its controllers with it) before SIGKILL.
  package static let grace = 2.0

  /// The running executable's path: what the children run.
  package static func currentExecutable() -> String {
    if let path = SpawnPlatform.currentExecutable(), FileManager.default.isExecutableFile(atPath: path) {
      return path
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
  }

  /// Where the state directories go: `$TMPDIR` when it is set; else `/dev/shm` where there is
  /// one (memory: `play` fsyncs every state file it writes, and on a disk those waits were two
  /// thirds of a scenario's time, for files removed a moment later); else the system's temporary
  /// directory.
  package static func scratchDirectory() -> String {
    if let set = ProcessInfo.processInfo.environment["TMPDIR"], !set.isEmpty { return set }
    var info = stat()
    if stat("/dev/shm", &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_mode & S_ISVTX != 0, access("/dev/shm", W_OK | X_OK) == 0 {
      return "/dev/shm"
    }
    return FileManager.default.temporaryDirectory.path
  }

  /// State directories are `paywall-tui-test-PID-RANDOM`, PID that of the `test` that made them.
  package static let prefix = "paywall-tui-test-"

  /// Removes the state directories a `test` that was killed left behind (a signal ends it before
  /// it can): ours by name and owner, made by a process that no longer exists. Nothing else.
  package static func removeLeftovers(in scratch: String) {
    for name in FileSystem.names(in: scratch) where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid() else { continue }
      guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
      let path = (scratch).appendingPathComponent(name)
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { continue }
      try? FileManager.default.removeItem(atPath: path)
    }
  }

  package mutating func run(_ scenario: Scenario) -> ScenarioResult {
    let start = ContinuousClock.now
    func result(_ outcome: ScenarioResult.Outcome, _ arguments: [String], step: StepFailure? = nil) -> ScenarioResult {
      let elapsed = ContinuousClock.now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      return ScenarioResult(scenario: scenario, outcome: outcome, seconds: seconds, arguments: arguments, step: step)
    }
    let arguments: [String]
    switch scenario.arguments(allowingCommands: allowCommands, commandLine: commandLine) {
    case .failure(let problem): return result(.failed(kind: .notRun, message: problem.message), [])
    case .success(let read): arguments = ["play"] + read.words + ["--script", scenario.path]
    }
    let stateDirectory: String
    switch Self.makeStateDirectory(in: scratch) {
    case .failure(let problem): return result(.failed(kind: .notRun, message: problem.message), arguments)
    case .success(let made): stateDirectory = made
    }
    defer { try? FileManager.default.removeItem(atPath: stateDirectory) }
    // The step that failed comes back as fields through a file of the runner's (`StepReport`).
    let report = StepReport.makeFile(in: stateDirectory)
    defer { if let report { close(report) } }
    let run = Self.spawn(binary, arguments + ["--state-dir", stateDirectory], timeout: timeout,
                         environment: [ScenarioConfinement.environmentVariable: scenario.directory], report: report)
    return result(run.outcome(timeout: timeout), arguments, step: report.flatMap(StepReport.read))
  }

  /// A fresh, private state directory for one scenario (`paywall-tui-test-PID-RANDOM` in `scratch`).
  package static func makeStateDirectory(in scratch: String) -> Result<String, ScenarioProblem> {
    var template = Array((scratch).appendingPathComponent("\(prefix)\(getpid())-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else {
      return .failure(ScenarioProblem("cannot create a temporary state directory in \(scratch): \(String(cString: strerror(errno)))"))
    }
    return .success(String(cString: created))
  }

  /// How a child ended and what it wrote on stderr.
  package struct ChildRun {
    package enum Ending { case exited(Int32), signalled(Int32), timedOut, notStarted(String) }
    package var ending: Ending
    package var stderr: String
    /// The step that failed, when the worker reported it.
    package var step: StepFailure?

    package init(ending: Ending, stderr: String, step: StepFailure? = nil) {
      self.ending = ending
      self.stderr = stderr
      self.step = step
    }

    package func outcome(timeout: Double) -> ScenarioResult.Outcome {
      let said = stderr.trimmingNewlines()
      switch ending {
      case .exited(0): return .passed
      case .exited(1): return .failed(kind: .failed, message: said.isEmpty ? "play exited with status 1 and said nothing" : said)
      case .exited(2): return .failed(kind: .usage, message: said.isEmpty ? "play exited with status 2 (a usage error) and said nothing" : said)
      case .exited(let code): return .failed(kind: .crashed, message: "play exited with status \(code)" + (said.isEmpty ? "" : "\n" + said))
      case .signalled(let signal):
        return .failed(kind: .crashed, message: "play was killed by signal \(signal) (\(String(cString: strsignal(signal))))" + (said.isEmpty ? "" : "\n" + said))
      case .timedOut:
        return .failed(kind: .timeout, message: "timed out after \(ScenarioResult.spell(seconds: timeout))" + (said.isEmpty ? "" : "; it had said:\n" + said))
      case .notStarted(let why): return .failed(kind: .notRun, message: why)
      }
    }
  }

  /// Starts `binary arguments…` and waits for it, at most `timeout` seconds (then SIGTERM, and
  /// SIGKILL after `grace`).
  /// With `report`, the child has it as `StepReport.descriptor`, and is told so.
  package static func spawn(_ binary: String, _ arguments: [String], timeout: Double,
                    environment: [String: String] = [:], report: Int32? = nil) -> ChildRun {
    var environment = environment
    if let report, let value = StepReport.environmentValue(for: report) { environment[StepReport.environmentVariable] = value }
    // This process's environment, with `environment` set over it (the scenario's directory).
    var variables: [String] = []
    var index = 0
    while let entry = SpawnPlatform.environment[index] {
      let text = String(cString: entry)
      let name = text.prefix { $0 != "=" }
      if environment[String(name)] == nil { variables.append(text) }
      index += 1
    }
    variables += environment.map { "\($0.key)=\($0.value)" }
    let envp = variables.map { strdup($0) } + [nil]
    defer { envp.forEach { free($0) } }
    let setup = ChildSpawnSetup()
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    // The pipe is made close-on-exec and the child started under one lock: a child another worker
    // starts at the same moment never inherits this pipe (its end of file would wait for that
    // child too). (`pipe2` is hidden from Swift.)
    let started = spawning.withLock { _ -> (read: Int32, spawned: Int32)? in
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { return nil }
      _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
      _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
      posix_spawn_file_actions_addopen(&setup.actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&setup.actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_adddup2(&setup.actions, fds[1], 2)
      if let report { posix_spawn_file_actions_adddup2(&setup.actions, report, StepReport.descriptor) }
      let spawned = posix_spawn(&pid, binary, &setup.actions, &setup.attributes, argv, envp)
      close(fds[1])
      return (fds[0], spawned)
    }
    guard let started else {
      return ChildRun(ending: .notStarted("cannot make a pipe: \(String(cString: strerror(errno)))"), stderr: "")
    }
    let readEnd = started.read
    defer { close(readEnd) }
    guard started.spawned == 0 else {
      return ChildRun(ending: .notStarted("cannot start \(binary): \(String(cString: strerror(started.spawned)))"), stderr: "")
    }
    RunningChildren.add(pid)
    defer { RunningChildren.remove(pid) }

    let deadline = ContinuousClock.now + .milliseconds(Int64((timeout * 1000).rounded(.up)))
    var kept: [UInt8] = []
    var dropped = 0
    var buffer = [UInt8](repeating: 0, count: 16_384)
    var open = true
    var status: Int32 = 0
    var reaped = false
    var timedOut = false
    while !reaped {
      let left = deadline - ContinuousClock.now
      if left <= .zero {
        timedOut = true
        break
      }
      if open {
        // Woken by output or end of file; every 100 ms the child is checked too (a process it
        // started could hold the pipe open after it ended).
        var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        let slice = Int32(min(100, max(1, milliseconds)))
        let ready = poll(&poller, 1, slice)
        if ready > 0 {
          let count = read(readEnd, &buffer, buffer.count)
          if count > 0 {
            let room = max(0, stderrLimit - kept.count)
            kept += buffer.prefix(min(room, count))
            dropped += max(0, count - room)
          } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            open = false
          }
          continue
        }
      } else {
        usleep(1_000)
      }
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { reaped = true }
      // ECHILD: someone else reaped it (never here); treat as gone.
      if waited < 0 && errno == ECHILD { reaped = true }
    }
    if timedOut {
      kill(pid, SIGTERM)
      let graceEnd = ContinuousClock.now + .milliseconds(Int64(grace * 1000))
      while ContinuousClock.now < graceEnd && waitpid(pid, &status, WNOHANG) == 0 { usleep(5_000) }
      kill(pid, SIGKILL)
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    } else if open {
      // It ended: take what it wrote last, without waiting on anything it left running.
      _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
      while true {
        let count = read(readEnd, &buffer, buffer.count)
        guard count > 0 else { break }
        let room = max(0, stderrLimit - kept.count)
        kept += buffer.prefix(min(room, count))
        dropped += max(0, count - room)
      }
    }
    var stderr = String(decoding: kept, as: UTF8.self)
    if dropped > 0 { stderr += "\n… (\(dropped) more bytes of stderr not kept)" }
    let ending: ChildRun.Ending
    if timedOut {
      ending = .timedOut
    } else if status & 0x7f == 0 {
      ending = .exited((status >> 8) & 0xff)
    } else {
      ending = .signalled(status & 0x7f)
    }
    return ChildRun(ending: ending, stderr: stderr)
  }
}

/// Held while a pipe is made and a child started (see `spawn`; the test worker's too).
package let spawning = Mutex(())

/// The children running now, so a signal that ends `test` ends them too (the exit hook runs in the
/// signal handler: fixed slots and atomics only).
package enum RunningChildren {
  package static let capacity = 64
  private static let slots = AtomicSlots(count: 64)

  package static func add(_ pid: pid_t) {
    slots.claim(pid)
  }

  package static func remove(_ pid: pid_t) {
    slots.release(pid)
  }

  /// SIGTERM to every child running. Async-signal-safe.
  package static func terminateAll() {
    for index in slots.indices {
      let pid = slots.load(index)
      if pid > 0 { kill(pid, SIGTERM) }
    }
  }
}

/// How `test` starts a child (a `play` or a worker): file actions to add to, and attributes that
/// keep it in our process group (Ctrl-C at a terminal reaches every scenario running), with no
/// signal blocked and every ending signal at its default.
package final class ChildSpawnSetup {
  package var actions = SpawnPlatform.emptyFileActions()
  package var attributes = SpawnPlatform.emptyAttributes()

  package init() {
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
  }

  deinit {
    posix_spawn_file_actions_destroy(&actions)
    posix_spawnattr_destroy(&attributes)
  }
}
