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
import CTerminalGuard

/// Every line the command line prints goes through here: help, results, events, warnings and
/// errors. A write either goes out whole or fails with `OutputFailure` (Foundation's
/// `FileHandle.write(_: Data)` traps on an error and `print` drops it). The first failure is also
/// remembered, so code that cannot throw (event and warning callbacks) records it and the command
/// ends with it: `PaywallCommand.run` exits quietly with 141 after a broken pipe, 1 otherwise.
/// A stream that failed once is not written again.
package enum Console {
  private static let failures = Mutex<[OutputFailure]>([])

  /// Prints `text` and a line break on stdout.
  package static func out(_ text: String) throws(OutputFailure) {
    try write(text + "\n", to: STDOUT_FILENO, target: OutputFailure.standardOutput)
  }

  /// Prints `line` and a line break on stderr.
  package static func error(_ line: String) throws(OutputFailure) {
    try write(line + "\n", to: STDERR_FILENO, target: OutputFailure.standardError)
  }

  /// For callbacks that cannot throw: prints `line` on stderr, remembering a failure.
  package static func warn(_ line: String) {
    try? error(line)
  }

  /// For callbacks that cannot throw: prints `text` on stdout, remembering a failure.
  package static func outOrRecord(_ text: String) {
    try? out(text)
  }

  /// The first write that failed, if any did.
  package static var failure: OutputFailure? { failures.withLock { $0.first } }

  /// The first failed write of the command's output (stdout, the events file): stderr carries
  /// only warnings and errors, whose failure ends nothing early.
  package static var outputFailure: OutputFailure? {
    failures.withLock { $0.first { $0.target != OutputFailure.standardError } }
  }

  /// Remembers a failure found elsewhere (the events file).
  package static func record(_ failure: OutputFailure) {
    failures.withLock { list in
      if !list.contains(where: { $0.target == failure.target }) { list.append(failure) }
    }
  }


  private static let writing = Mutex(())

  /// Writes all of `text` to `fd`, or throws (and remembers) why not. Lines from several threads
  /// never interleave.
  package static func write(_ text: String, to fd: Int32, target: String) throws(OutputFailure) {
    let code = writing.withLock { _ -> Int32? in
      if let earlier = failures.withLock({ $0.first { $0.target == target } }) { return earlier.code }
      return FileSystem.writeAll(text, to: fd)
    }
    guard let code else { return }
    let failure = OutputFailure(target: target, code: code)
    record(failure)
    throw failure
  }
}

extension Console {
  /// How a command that ended with `code` exits once output failures are taken into account:
  /// after a broken pipe the process ends of SIGPIPE, quietly (a shell sees 141, as for any program
  /// whose reader left); after any other failure the exit code is 1 (or the command's own, if it
  /// failed anyway) and the failure is said on stderr, unless stderr is what failed.
  package static func finish(_ code: Int32) -> Never {
    switch ending(code) {
    // Not while a signal's handler is ending the process on another thread: it decides how.
    case .exit(let code): tg_exit(code); fatalError("tg_exit returned")
    case .brokenPipe: endOfBrokenPipe()
    }
  }

  /// How a command that ended with `code` ends, once output failures are taken into account.
  package enum Ending: Equatable { case exit(Int32), brokenPipe }

  /// `finish` without ending the process (the test worker runs many commands in one): the
  /// exit code, or SIGPIPE; a failure other than stderr's is said on stderr.
  package static func ending(_ code: Int32) -> Ending {
    guard let failure else { return .exit(code) }
    if failure.isBrokenPipe { return .brokenPipe }
    if failure.target != OutputFailure.standardError { warn(failure.message) }
    return .exit(code == 0 ? 1 : code)
  }

  /// Forgets the failed writes: the test worker starts each scenario as a new process would.
  package static func forgetFailures() {
    failures.withLock { $0.removeAll() }
  }

  /// Ends the process of SIGPIPE, as it would have without a handler or with SIGPIPE not ignored.
  package static func endOfBrokenPipe() -> Never {
    signal(SIGPIPE, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGPIPE)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(SIGPIPE)
    POSIX.exit(141)
  }
}

extension EventFile {
  /// Appends `event`; a failure is remembered for the command to end with (`Console.finish`).
  package func writeOrRecord(_ event: PaywallEvent) {
    do {
      try write(event)
    } catch {
      Console.record(OutputFailure(target: "the events to \(error.path)", code: error.code))
    }
  }
}
