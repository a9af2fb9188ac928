import Foundation
import Testing
import PaywallModel

/// The binary started with its output going to files (no pipe another test could hold open),
/// so a test can signal it while it runs and bound how long it waits for it.
package final class RunningBinary {
  package let pid: pid_t
  package let directory: String

  /// `blocking` signals are blocked in the binary's starting mask, as a careless parent might leave them.
  package init(_ arguments: [String], directory: String, blocking: [Int32] = []) throws {
    self.directory = directory
    var actions = SpawnPlatform.emptyFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, directory + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, directory + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    var cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in cEnvironment { free(pointer) } }
    // As for tmux: the child closes every descriptor above 2 (other tests' pipes) and becomes the binary.
    let closeAll = #"for fd in $(ls /dev/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; cd "$0" && exec "$@""#
    let argv = ["bash", "-c", closeAll, Fixtures.repositoryRoot.path, PaywallBinary.binary.path] + arguments
    var cArguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    // The test runs on a dispatch thread, which blocks most signals; the binary must start
    // with none blocked, as from a shell, or the signals this suite sends stay pending.
    var attributes = SpawnPlatform.emptyAttributes()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in blocking { sigaddset(&mask, signal) }
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, "bash", &actions, &attributes, &cArguments, &cEnvironment)
    guard spawned == 0 else { throw FixtureError("cannot start the binary: \(String(cString: strerror(spawned)))") }
    self.pid = pid
  }

  /// How it ended: "exit N" or "signal N"; nil (and killed) when it still ran after `seconds`.
  package func wait(within seconds: Double) -> String? {
    let deadline = Date().addingTimeInterval(seconds)
    var status: Int32 = 0
    while Date() < deadline {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid {
        let signal = status & 0x7f
        return signal == 0 ? "exit \((status >> 8) & 0xff)" : "signal \(signal)"
      }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
    return nil
  }

  package var stdout: String { (try? String(contentsOfFile: directory + "/stdout", encoding: .utf8)) ?? "" }
  package var stderr: String { (try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)) ?? "" }
}
