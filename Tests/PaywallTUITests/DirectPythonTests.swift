import Foundation
import PaywallTesting
import Testing

/// scripts/direct-python.sh, which the test command sources: the python3 every test starts is the
/// interpreter itself, found once through whatever shim comes first on PATH.
@Suite("scripts/direct-python.sh")
struct DirectPythonTests {
  /// Sources the script in bash with PATH set to `path`, then prints what python3 now is, runs it,
  /// and prints PATH.
  static func source(path: String, environment: [String: String] = [:]) throws -> (python: String, path: String) {
    let script = """
      . scripts/direct-python.sh
      command -v python3 || echo none
      command -v python3 >/dev/null && python3 -c pass
      printf '%s\\n' "$PATH"
      """
    let output = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: environment.merging(["PATH": path]) { $1 })
    #expect(output.status == 0, "\(output.stderr)")
    let lines = output.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 2, "\(output.stdout)")
    return (lines[0], lines[1])
  }

  /// The interpreter python3 runs here, by the path it was started from.
  static func interpreter() throws -> String {
    let found = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import sys; print(sys.executable)"])
    try #require(found.status == 0, "\(found.stderr)")
    return found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func aShimIsAskedOnceAndTheInterpreterComesFirst() throws {
    let real = try Self.interpreter()
    let shims = try Fixtures.directory([:])
    let log = shims + "/calls"
    // A version manager's shim: it notes each call, then runs the interpreter.
    try "#!/bin/sh\necho call >> '\(log)'\nexec '\(real)' \"$@\"\n".write(toFile: shims + "/python3", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: shims + "/python3")
    let outer = "\(shims):/usr/bin:/bin"
    let result = try Self.source(path: outer)
    let folder = (real as NSString).deletingLastPathComponent
    #expect(result.python == folder + "/python3")
    #expect(result.path == "\(folder):\(outer)")
    // Once to find the interpreter; the python3 after it went straight to Python.
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "call\n")
  }

  @Test func anInterpreterFirstOnPathLeavesPathAsItWas() throws {
    let folder = (try Self.interpreter() as NSString).deletingLastPathComponent
    let path = "\(folder):/usr/bin:/bin"
    let result = try Self.source(path: path)
    #expect(result.python == folder + "/python3")
    #expect(result.path == path)
  }

  @Test func withoutPythonNothingChangesAndNothingFails() throws {
    let empty = try Fixtures.directory([:])
    let result = try Self.source(path: empty)
    #expect(result.python == "none")
    #expect(result.path == empty)
  }
}
