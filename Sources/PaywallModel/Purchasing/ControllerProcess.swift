#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// How a controller process ended, as messages say it.
enum ControllerTermination: Sendable, Equatable, CustomStringConvertible {
  case exited(Int32)
  case killed(signal: Int32)

  /// From a `waitpid` status.
  init(waitStatus status: Int32) {
    let signal = status & 0x7f
    self = signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
  }

  /// "exited with status 3", "was killed by signal 9"; a shell that ran the command and exited
  /// 128 + N says what that means: "exited with status 137 (killed by signal 9)".
  var description: String {
    switch self {
    case .exited(let status) where status > 128 && status < 128 + 65:
      return "exited with status \(status) (killed by signal \(status - 128))"
    case .exited(let status): return "exited with status \(status)"
    case .killed(let signal): return "was killed by signal \(signal)"
    }
  }
}

/// What the command controller talks to: the three pipe ends, a way to learn how the process
/// ended, and a way to end it. A real process (`ControllerProcess.spawn`) or, in the fuzz target
/// and tests, pipes fed from memory.
struct ControllerEndpoints: Sendable {
  /// The write end of its stdin.
  var input: Int32
  /// The read ends of its stdout and stderr.
  var output: Int32
  var errors: Int32
  /// Blocks until the process has ended; called once, from its own thread.
  var waitForExit: @Sendable () -> ControllerTermination
  /// Ends the process and everything it started, within a bounded time; may be called again.
  var terminate: @Sendable () -> Void
}

/// Starts a controller command as `/bin/sh -c COMMAND` in a process group of its own, so it and
/// every process it starts can be ended together, on every way out of the app.
enum ControllerProcess {
  /// How long a group has to end after SIGTERM before it gets SIGKILL.
  static let grace: Duration = .milliseconds(1000)

  static func spawn(_ command: String) throws(PurchaseError) -> ControllerEndpoints {
    func failure(_ what: String, _ code: Int32) -> PurchaseError {
      PurchaseError("cannot start the controller command \(quoting: command): \(what): \(String(cString: strerror(code)))")
    }
    // Pipes are close-on-exec (and above 2) from the start: the child gets exactly these three, as
    // its 0, 1 and 2, and no other process we start inherits them.
    var pipes: [(read: Int32, write: Int32)] = []
    func closeAll() { for pipe in pipes { close(pipe.read); close(pipe.write) } }
    for _ in 0..<3 {
      guard let pipe = makePipe() else {
        let code = errno
        closeAll()
        throw failure("pipe", code)
      }
      pipes.append(pipe)
    }
    let (stdin, stdout, stderr) = (pipes[0], pipes[1], pipes[2])

    var actions = SpawnPlatform.emptyFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
    // Descriptors someone else opened without close-on-exec are not the controller's business.
    let closeFlags = SpawnPlatform.closeDescriptorsFromThree(&actions)

    var attributes = SpawnPlatform.emptyAttributes()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | closeFlags)
    posix_spawnattr_setpgroup(&attributes, 0)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    // An ignored signal stays ignored across exec: the controller starts with the defaults,
    // whatever this process ignores (SIGPIPE, for one).
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)

    // A shell command line, as `sh -c` reads it: `FOO=1 python3 ctl.py`, pipes, redirections.
    let argv = ["sh", "-c", command]
    var cArguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArguments, SpawnPlatform.environment)
    close(stdin.read)
    close(stdout.write)
    close(stderr.write)
    guard spawned == 0 else {
      close(stdin.write)
      close(stdout.read)
      close(stderr.read)
      throw failure("/bin/sh", spawned)
    }
    let group = pid
    ControllerGroups.register(group)

    let reaped = Mutex(false)
    let ended = Mutex(false)
    return ControllerEndpoints(
      input: stdin.write, output: stdout.read, errors: stderr.read,
      waitForExit: {
        var status: Int32 = 0
        while waitpid(group, &status, 0) < 0 && errno == EINTR {}
        reaped.withLock { $0 = true }
        return ControllerTermination(waitStatus: status)
      },
      terminate: {
        let first = ended.withLock { ended -> Bool in
          defer { ended = true }
          return !ended
        }
        guard first else { return }
        ControllerGroups.end(group, grace: grace) { reaped.withLock { $0 } }
      })
  }

  /// A pipe with both ends close-on-exec and above 2 (were 0–2 closed, a pipe would take their
  /// place, and `dup2` onto itself would leave close-on-exec set: the child would lose it).
  private static func makePipe() -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    var result: [Int32] = []
    for fd in fds {
      let moved = fcntl(fd, F_DUPFD_CLOEXEC, 3)
      close(fd)
      guard moved >= 0 else {
        for kept in result { close(kept) }
        return nil
      }
      result.append(moved)
    }
    return (result[0], result[1])
  }
}

/// The process groups of the running controllers, so every way out of the app ends them: `stop()`
/// on a normal end, `exit()` (an error) through an `atexit` hook, and a signal that ends the
/// program through the command line's handlers, which call `endAll(graceMilliseconds:)` or
/// `killAllNow` before the process dies. Fixed slots and atomics only, so a signal handler can
/// read them.
package enum ControllerGroups {
  private static let slots = AtomicSlots(count: 16)
  private static let exitHookInstalled = Atomic<Bool>(false)

  static func register(_ pgid: pid_t) {
    if exitHookInstalled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
      atexit { ControllerGroups.endAll(graceMilliseconds: 500) }
    }
    slots.claim(pgid)
  }

  static func unregister(_ pgid: pid_t) {
    slots.release(pgid)
  }

  /// SIGTERM (and SIGCONT, should it be stopped) to the group; once its leader has ended, or after
  /// `grace`, SIGKILL to whatever is left of it (a child that ignores SIGTERM, `sleep 300 &`).
  static func end(_ pgid: pid_t, grace: Duration, leaderReaped: () -> Bool) {
    kill(-pgid, SIGTERM)
    kill(-pgid, SIGCONT)
    let clock = ContinuousClock()
    let deadline = clock.now + grace
    while clock.now < deadline && !leaderReaped() && !leaderIsGone(pgid) {
      usleep(5_000)
    }
    kill(-pgid, SIGKILL)
    unregister(pgid)
  }

  /// Ends every registered group: SIGTERM, up to `graceMilliseconds` for the leaders to go, then
  /// SIGKILL. Async-signal-safe (kill and nanosleep only): the command line's handler of a
  /// signal that ends the program calls it (through CTerminalGuard's exit hook).
  package static func endAll(graceMilliseconds: Int) {
    var any = false
    for index in slots.indices {
      let pgid = slots.load(index)
      if pgid > 0 {
        any = true
        kill(-pgid, SIGTERM)
        kill(-pgid, SIGCONT)
      }
    }
    guard any else { return }
    var waited = 0
    while waited < graceMilliseconds {
      var running = false
      for index in slots.indices {
        let pgid = slots.load(index)
        if pgid > 0 && !leaderIsGone(pgid) { running = true }
      }
      if !running { break }
      var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
      nanosleep(&pause, nil)
      waited += 5
    }
    killAllNow()
  }

  /// SIGKILL to every registered group at once, for a crash handler that cannot wait.
  /// Async-signal-safe.
  package static func killAllNow() {
    for index in slots.indices {
      let pgid = slots.take(index)
      if pgid > 0 { kill(-pgid, SIGKILL) }
    }
  }

  /// Whether the group's leader has ended and been reaped (the controller's own thread reaps it
  /// as soon as it ends, so a zombie does not last). Async-signal-safe.
  static func leaderIsGone(_ pid: pid_t) -> Bool {
    kill(pid, 0) != 0 && errno == ESRCH
  }
}
