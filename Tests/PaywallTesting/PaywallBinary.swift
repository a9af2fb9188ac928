import Foundation

/// The real `paywall-tui` binary, run as a user runs it: exit codes, stdout and stderr. The one
/// way every test target starts it.
package enum PaywallBinary {
  /// What a run printed, and how it ended.
  package struct Output: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
  }

  package static var binary: URL {
    // Tests run from the build products directory, where `swift build --build-tests` put the binary.
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [products, products.deletingLastPathComponent()] {
      let url = candidate.appendingPathComponent("paywall-tui")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return Fixtures.repositoryRoot.appendingPathComponent(".build/debug/paywall-tui")
  }

  /// The `XDG_STATE_HOME` every spawned binary gets by default: one private directory per test run.
  package static let stateHome: String = {
    let path = Scratch.root.appendingPathComponent("paywall-tui-tests-state-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return path
  }()


  package static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
    try spawn(binary, arguments, environment: environment)
  }

  /// Runs any program from the repository root (Swift's crash prompt off) and collects its output.
  package static func spawn(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = Fixtures.repositoryRoot
    var env = ProcessInfo.processInfo.environment
    env["SWIFT_BACKTRACE"] = "enable=no"
    // The tests never write the tester's own state (~/.local/state/paywall-tui): the default
    // state directory is a private one, unless a test sets HOME or XDG_STATE_HOME itself.
    if environment["HOME"] == nil && environment["XDG_STATE_HOME"] == nil { env["XDG_STATE_HOME"] = Self.stateHome }
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                  stderr: String(decoding: stderr, as: UTF8.self))
  }
}
