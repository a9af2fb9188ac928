import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one folder a test process keeps its temporary files in: under the system's temporary
/// folder, made at first use and removed with everything in it when the process exits. A test
/// run used to leave some 360 folders of its own in /tmp, and a developer's /tmp filled up run by
/// run. A process killed before it exits leaves this one folder, named after it.
package enum Scratch {
  /// `paywall-tui-tests-PID-XXXXXX` under the system's temporary folder.
  package static let root: URL = {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-tui-tests-\(getpid())-XXXXXX").path
    var template = Array(base.utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      fatalError("cannot make the tests' scratch folder \(base): \(String(cString: strerror(errno)))")
    }
    // Others may pass through (tests run a command as another user on a folder inside), not write.
    chmod(made, 0o755)
    let root = URL(fileURLWithPath: String(cString: made))
    atexit { Scratch.removeRoot() }
    return root
  }()

  static func removeRoot() {
    try? FileManager.default.removeItem(at: root)
  }
}
