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
    let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
      guard let path = mkdtemp(buffer.baseAddress!) else { return nil }
      // Others may pass through (tests run a command as another user on a folder inside), not write.
      chmod(path, 0o755)
      return String(cString: path)
    }
    guard let made else { fatalError("cannot make the tests' scratch folder \(base): \(String(cString: strerror(errno)))") }
    let root = URL(fileURLWithPath: made)
    atexit { Scratch.removeRoot() }
    return root
  }()

  static func removeRoot() {
    try? FileManager.default.removeItem(at: root)
  }
}
