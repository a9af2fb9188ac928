import Foundation
import PaywallTesting
import Testing

/// scripts/direct-python.sh, which the test command sources: the python3 every test starts runs the
/// interpreter directly, found once through whatever shim comes first on PATH.
@Suite("scripts/direct-python.sh")
struct DirectPythonTests {
  struct Sourced {
    /// What `command -v python3` said, and what that python3 reports as `sys.executable`.
    var python: String
    var executable: String
    var path: String
    /// The files in the folder the script made, or nil when it made none.
    var made: [String]?
  }

  /// Sources the script in bash with PATH set to `path`, in the folder `work`, then runs what
  /// python3 now is.
  static func source(path: String, in work: String? = nil) throws -> Sourced {
    let script = """
      cd "$WORK" && . "$REPOSITORY/scripts/direct-python.sh"
      command -v python3 || echo none
      if command -v python3 >/dev/null; then python3 -c 'import sys; print(sys.executable)'; else echo none; fi
      printf '%s\\n' "$PATH"
      if [ -n "$direct_python_dir" ]; then (cd "$direct_python_dir" && echo *); rm -rf "$direct_python_dir"; else echo -; fi
      """
    let output = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/bash"), ["-c", script],
                                          environment: ["PATH": path, "WORK": try work ?? Fixtures.directory([:]), "REPOSITORY": Fixtures.repositoryRoot.path])
    #expect(output.status == 0, "\(output.stderr)")
    let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    try #require(lines.count == 5, "\(output.stdout)")
    return Sourced(python: lines[0], executable: lines[1], path: lines[2], made: lines[3] == "-" ? nil : lines[3].split(separator: " ").map(String.init))
  }

  /// The interpreter python3 runs here, by the path it reports.
  static func interpreter() throws -> String {
    let found = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import sys; print(sys.executable)"])
    try #require(found.status == 0, "\(found.stderr)")
    return found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A version manager's shim in a folder of its own: it notes each call in `calls`, then runs
  /// `interpreter`.
  static func shim(running interpreter: String) throws -> String {
    let shims = try Fixtures.directory([:])
    let quoted = interpreter.replacingOccurrences(of: "'", with: "'\\''")
    try "#!/bin/sh\necho call >> '\(shims)/calls'\nexec '\(quoted)' \"$@\"\n".write(toFile: shims + "/python3", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: shims + "/python3")
    return shims
  }

  @Test func aShimIsAskedOnceAndOnlyPython3ComesFirst() throws {
    let real = try Self.interpreter()
    let shims = try Self.shim(running: real)
    let outer = "\(shims):/usr/bin:/bin"
    let result = try Self.source(path: outer)
    let made = (result.python as NSString).deletingLastPathComponent
    #expect(result.path == "\(made):\(outer)")
    #expect(result.made == ["python3"], "the interpreter's own folder, and what else it holds, stays off PATH")
    #expect(result.executable == real)
    // Once to find the interpreter; the python3 after it went straight to Python.
    #expect(try String(contentsOfFile: shims + "/calls", encoding: .utf8) == "call\n")
  }

  /// The interpreter's path is data in the python3 the script writes: quotes, `$(…)` and spaces in
  /// it start nothing.
  @Test func anInterpretersPathIsNeverRunAsCode() throws {
    let odd = try Fixtures.directory([:]) + "/it's \"odd\" $(touch pwned) `touch pwned`"
    try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: odd + "/python3", withDestinationPath: try Self.interpreter())
    let shims = try Self.shim(running: odd + "/python3")
    let work = try Fixtures.directory([:])
    defer { #expect(!FileManager.default.fileExists(atPath: work + "/pwned"), "a command in the path ran") }
    let result = try Self.source(path: "\(shims):/usr/bin:/bin", in: work)
    #expect(result.executable == odd + "/python3")
    #expect(result.made == ["python3"])
  }

  @Test func anInterpreterFirstOnPathLeavesPathAsItWas() throws {
    let real = try Self.interpreter()
    let path = "\((real as NSString).deletingLastPathComponent):/usr/bin:/bin"
    let result = try Self.source(path: path)
    #expect(result.python == real)
    #expect(result.path == path)
    #expect(result.made == nil)
  }

  @Test func withoutPythonNothingChangesAndNothingFails() throws {
    let empty = try Fixtures.directory([:])
    let result = try Self.source(path: empty)
    #expect(result.python == "none")
    #expect(result.path == empty)
    #expect(result.made == nil)
  }
}
