import Foundation
import PaywallTesting
import Testing

/// The signal handlers of `CTerminalGuard` against the command's own thread. A handler runs on
/// whichever thread the kernel picks, while the command goes on elsewhere; if the command reaches
/// its end while the handler is still ending the controllers, the process must still end as the
/// signal says, not with the command's exit code. A `play` sent SIGSEGV once exited 0 that way
/// (in CI, under load): the handler had killed its controller, the command saw it go and
/// finished before the handler re-raised.
///
/// The race is made certain here rather than waited for: a small C program built from the
/// guard's own source installs the handlers, sets an exit hook that lets a second thread call
/// `tg_exit(0)` and then takes its time, and raises the signal.
@Suite("signal endings against the command's thread")
struct SignalRaceTests {
  static let driver = #"""
    #include <pthread.h>
    #include <signal.h>
    #include <stdlib.h>
    #include <sys/resource.h>
    #include <time.h>
    #include <unistd.h>
    #include "terminal_guard.h"

    static int handoff[2];

    /* Stands for ending the controllers: the command's thread is let go, and given time. */
    static void slow_hook(int sig) {
      (void)sig;
      char byte = 'h';
      if (write(handoff[1], &byte, 1) != 1) { _exit(4); }
      struct timespec wait = {0, 300 * 1000 * 1000};
      nanosleep(&wait, NULL);
    }

    static void *command(void *unused) {
      (void)unused;
      char byte;
      if (read(handoff[0], &byte, 1) == 1) { tg_exit(0); }
      _exit(5);
    }

    int main(int argc, char **argv) {
      if (argc != 2 || pipe(handoff) != 0) { return 2; }
      struct rlimit no_core = {0, 0};
      setrlimit(RLIMIT_CORE, &no_core);
      tg_install_process_handlers();
      tg_set_exit_hook(slow_hook);
      /* The command's thread blocks every signal: the handler runs on this one. */
      sigset_t all, before;
      sigfillset(&all);
      pthread_sigmask(SIG_BLOCK, &all, &before);
      pthread_t thread;
      if (pthread_create(&thread, NULL, command, NULL) != 0) { return 2; }
      pthread_sigmask(SIG_SETMASK, &before, NULL);
      raise(atoi(argv[1]));
      return 3;
    }
    """#

  /// How the driver ended: the signal it died of, or its exit status.
  enum Ending: Equatable { case signal(Int32), exit(Int32) }

  static func build() throws -> String {
    let directory = Scratch.root.appendingPathComponent("signal-race-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let source = directory + "/driver.c"
    try driver.write(toFile: source, atomically: true, encoding: .utf8)
    let guardDirectory = Fixtures.repositoryRoot.appendingPathComponent("Sources/CTerminalGuard").path
    let compiled = try PaywallBinary.spawn(URL(fileURLWithPath: Tool.cCompiler.path), [
      "-std=c11", "-pthread", "-I", guardDirectory + "/include", source, guardDirectory + "/terminal_guard.c", "-o", directory + "/driver",
    ])
    try #require(compiled.status == 0, "the driver did not build: \(compiled.stderr)")
    return directory + "/driver"
  }

  static func run(_ driver: String, raising signal: Int32) throws -> Ending {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: driver)
    process.arguments = [String(signal)]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let status = process.terminationStatus
    return process.terminationReason == .uncaughtSignal ? .signal(status) : .exit(status)
  }

  /// A fault (here SIGSEGV, as `kill -SEGV` sends it) and two ending signals: each ends the
  /// process as it would with the command still running. Before, the fault's handler let the
  /// command's `tg_exit(0)` through, and the process exited 0.
  @Test(.requires(.cCompiler))
  func theSignalDecidesHowTheProcessEndsWhileItsHandlerRuns() throws {
    let driver = try Self.build()
    defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: driver).deletingLastPathComponent().path) }
    #expect(try Self.run(driver, raising: SIGSEGV) == .signal(SIGSEGV))
    #expect(try Self.run(driver, raising: SIGABRT) == .signal(SIGABRT))
    #expect(try Self.run(driver, raising: SIGTERM) == .signal(SIGTERM))
    #expect(try Self.run(driver, raising: SIGQUIT) == .exit(128 + SIGQUIT))
  }
}
