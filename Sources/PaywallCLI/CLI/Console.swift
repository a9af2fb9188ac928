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

  /// For a stream of lines (`play`'s events): `line` joins the lines waiting for stdout
  /// (`LineBatch`), which go out together once they fill a batch, before anything else is
  /// written, when the command ends, and at the latest `LineBatch.delayMilliseconds` after the
  /// first of them. A reader sees every line within that delay, and a run that prints ten
  /// thousand lines in a quarter of a second makes a few dozen writes instead of ten thousand,
  /// each of which woke the reader at the other end of a pipe. A failure is remembered, as
  /// `outOrRecord` does, when the lines are written: a reader gone is learnt at the next batch,
  /// and `play` stops at the step after. An ending signal writes the lines waiting
  /// (`flushWhenASignalEnds`); a fault does not. The delay holds when a core is free to run the
  /// writing thread.
  package static func outBatched(_ line: String) {
    let startTimer = writing.withLock { pending -> Bool in
      let (full, startTimer) = pending.add(line)
      if let full { writeToStdout(full) }
      return startTimer
    }
    guard startTimer else { return }
    DetachedThread.after(.milliseconds(LineBatch.delayMilliseconds), "stdout batch") { flush() }
  }

  /// Has an ending signal (SIGTERM, SIGINT…) write the lines `outBatched` holds before the
  /// process dies of it, as they were emitted before it (`tg_set_flush_hook`).
  package static func flushWhenASignalEnds() {
    tg_set_flush_hook(writeWaitingLinesAsTheProcessEnds)
  }

  /// The signal handler's write of the waiting lines: only if no thread holds them (it never
  /// waits for the lock), without changing them (no allocation or free in a handler), whole
  /// lines within a bound (`tg_write_lines_bounded`). Once it has begun, no other write sends
  /// them again: the process is ending.
  fileprivate static func writeWaitingLinesFromASignal() {
    _ = writing.withLockIfAvailable { pending in
      guard !signalWroteTheLines.exchange(true, ordering: .sequentiallyConsistent) else { return }
      pending.withWaitingBytes { bytes in
        tg_write_lines_bounded(STDOUT_FILENO, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count, 100)
      }
    }
  }

  /// Set by the signal handler's write: the lines waiting then are out, or as good as lost.
  private static let signalWroteTheLines = Atomic<Bool>(false)

  /// Writes the lines `outBatched` holds.
  package static func flush() {
    writing.withLock { pending in
      if let text = pending.take() { writeToStdout(text) }
    }
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


  /// Held for every write, so lines from several threads never interleave, and batched lines go
  /// out before whatever is written after them.
  private static let writing = Mutex(LineBatch())

  /// Writes batched lines (with `writing` held), remembering a failure.
  private static func writeToStdout(_ text: String) {
    guard !signalWroteTheLines.load(ordering: .sequentiallyConsistent) else { return }
    let target = OutputFailure.standardOutput
    guard failures.withLock({ !$0.contains { $0.target == target } }) else { return }
    if let code = FileSystem.writeAll(text, to: STDOUT_FILENO) { record(OutputFailure(target: target, code: code)) }
  }

  /// Writes all of `text` to `fd`, or throws (and remembers) why not; the lines `outBatched`
  /// holds go first.
  package static func write(_ text: String, to fd: Int32, target: String) throws(OutputFailure) {
    let code = writing.withLock { pending -> Int32? in
      if let waiting = pending.take() { writeToStdout(waiting) }
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
    flush()
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

/// Lines gathered to be written together (`Console.outBatched`).
package struct LineBatch: Sendable {
  /// A batch is written once it holds this many bytes.
  package static let bytes = 32 * 1024
  /// …and at the latest this long after its first line.
  package static let delayMilliseconds = 20

  private var text = ""
  private var timed = false

  package init() {}

  /// Adds `line` and its line break. Returns the batch when it is full (to be written now), and
  /// whether a timed write must be started: for the first line after a write, once.
  package mutating func add(_ line: String) -> (full: String?, startTimer: Bool) {
    text += line
    text += "\n"
    if text.utf8.count >= Self.bytes { return (take(), false) }
    if timed { return (nil, false) }
    timed = true
    return (nil, true)
  }

  /// Hands `body` the lines waiting as they are stored (a Swift string keeps its UTF-8 in one
  /// buffer), copying nothing; nothing when none wait.
  package func withWaitingBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
    guard !text.isEmpty else { return }
    _ = text.utf8.withContiguousStorageIfAvailable { body(UnsafeRawBufferPointer($0)) }
  }

  /// The lines waiting, if any, leaving none; the next line starts a timed write again.
  package mutating func take() -> String? {
    timed = false
    guard !text.isEmpty else { return nil }
    defer { text = "" }
    return text
  }
}

private func writeWaitingLinesAsTheProcessEnds() {
  Console.writeWaitingLinesFromASignal()
}
