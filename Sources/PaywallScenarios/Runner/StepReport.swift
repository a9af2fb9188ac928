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

/// How a child `play` that `test --process-per-scenario` started hands back the step that failed
/// as fields, as the worker does in its answer: the runner gives it an unlinked file of its own
/// as descriptor 3 and names that very file in `PAYWALL_TUI_REPORT_FD` (`3:DEVICE:INODE`); the
/// child writes its `StepFailure` there as JSON only when descriptor 3 is that file. A
/// descriptor, never a path, and never one a shell happened to leave open as 3 (bats does): a
/// `play` run by hand with the variable set writes nothing anywhere.
package enum StepReport {
  package static let environmentVariable = "PAYWALL_TUI_REPORT_FD"
  package static let descriptor: Int32 = 3
  /// More than any step's report holds (a screen of 200x60 is 12 KB): the rest is not read.
  static let limit = 1 << 20

  /// An unlinked file in `directory` (the scenario's private state directory), or nil when none
  /// can be made (the scenario then runs without its fields).
  package static func makeFile(in directory: String) -> Int32? {
    var template = Array(directory.appendingPathComponent("report-XXXXXX").utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { return nil }
    unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return fd
  }

  /// The variable's value for `fd`, the file the runner made: `3:DEVICE:INODE`.
  package static func environmentValue(for fd: Int32) -> String? {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    return "\(descriptor):\(info.st_dev):\(info.st_ino)"
  }

  /// What the child wrote, nil when it wrote nothing readable (it passed, or died first).
  package static func read(_ fd: Int32) -> StepFailure? {
    guard let (bytes, size) = FileSystem.readFromStart(fd, atMost: limit), size > 0, size <= limit else { return nil }
    return try? JSONDecoder().decode(StepFailure.self, from: Data(bytes))
  }

  /// In the child: the runner's descriptor when the environment names it and descriptor 3 is
  /// that very file (a regular file, by device and inode), made close-on-exec so a controller
  /// the play starts does not inherit it. The variable is taken out of the environment either
  /// way: a controller's own `play` must not read it.
  package static func runnerDescriptor() -> Int32? {
    let given = ProcessInfo.processInfo.environment[environmentVariable]
    unsetenv(environmentVariable)
    var info = stat()
    guard let given, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
          given == "\(descriptor):\(info.st_dev):\(info.st_ino)" else { return nil }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    return descriptor
  }

  /// In the child: `failure` written to the runner's descriptor (a failed write loses only the fields).
  package static func send(_ failure: StepFailure, to fd: Int32) {
    guard let data = try? JSONEncoder().encode(failure) else { return }
    _ = data.withUnsafeBytes { FileSystem.writeAll($0, to: fd) }
  }
}
