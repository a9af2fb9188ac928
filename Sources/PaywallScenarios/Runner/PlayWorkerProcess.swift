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
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(binary), strdup(PlayWorkerProtocol.command), nil]
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
    guard let request = try? JSONEncoder().encode(PlayWorkerProtocol.Request(arguments: arguments, scenarioDirectory: scenarioDirectory)) else {
      return PlayProcessExecutor.ChildRun(ending: .notStarted("cannot encode the arguments for the test worker"), stderr: "")
    }
    // A worker that is gone takes the write with EPIPE (SIGPIPE does not end `test`); its end is
    // then read below as end of file.
    _ = request.withUnsafeBytes { FileSystem.writeAll($0, to: requests) }
    _ = FileSystem.writeAll("\n", to: requests)

    var buffer = [UInt8](repeating: 0, count: 4_096)
    var ending: PlayProcessExecutor.ChildRun.Ending?
    var step: StepFailure?
    while ending == nil {
      if let end = pending.firstIndex(of: 0x0A) {
        let line = Array(pending[..<end])
        pending.removeSubrange(...end)
        switch try? JSONDecoder().decode(PlayWorkerProtocol.Response.self, from: Data(line)) {
        case let response? where response.signal != nil:
          ending = .signalled(response.signal!)
          step = response.step
        case let response? where response.code != nil:
          ending = .exited(response.code!)
          step = response.step
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
    return PlayProcessExecutor.ChildRun(ending: ending!, stderr: stderrText(), step: step)
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
    let limit = PlayProcessExecutor.stderrLimit
    guard let (bytes, size) = FileSystem.readFromStart(stderrFile, atMost: limit) else { return "" }
    var text = String(decoding: bytes, as: UTF8.self)
    if size > limit { text += "\n… (\(size - limit) more bytes of stderr not kept)" }
    return text
  }
}
