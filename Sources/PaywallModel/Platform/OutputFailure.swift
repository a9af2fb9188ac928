#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A write that could not be made: to stdout, stderr or the `--events` file.
package struct OutputFailure: Error, Equatable {
  /// What was being written, as the error names it: "standard output", "the events to PATH".
  package var target: String
  /// The `errno` of the failed write.
  package var code: Int32

  package init(target: String, code: Int32) {
    self.target = target
    self.code = code
  }

  package static let standardOutput = "standard output"
  package static let standardError = "standard error"

  /// The reader went away (`| head -1`): not an error to report.
  package var isBrokenPipe: Bool { code == EPIPE }

  /// `error: cannot write to standard output: No space left on device`.
  package var message: String {
    let reason = String(cString: strerror(code))
    return target.hasPrefix("the ") ? "error: cannot write \(target): \(reason)" : "error: cannot write to \(target): \(reason)"
  }
}
