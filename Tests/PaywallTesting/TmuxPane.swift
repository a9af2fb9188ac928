import Foundation
import Testing
import PaywallModel

package struct TmuxError: Error {
  package var message: String
}

/// A tmux server of our own, running one command in an 80x24 (or other) pane, so the real binary
/// meets a real terminal: keys go in with send-keys, the screen comes back with capture-pane.
package final class TmuxPane {
  package let socket = "paywall-tui-test-\(UUID().uuidString.prefix(8))"
  package let directory: String

  /// `shell` runs inside the pane; it can refer to $BIN (the binary) and $DIR (a scratch directory).
  package init(_ shell: String, width: Int = 80, height: Int = 24, term: String = "xterm-256color") throws {
    directory = Scratch.root.appendingPathComponent("paywall-tui-e2e-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let script = """
      export BIN='\(PaywallBinary.binary.path)' DIR='\(directory)' TERM='\(term)' SWIFT_BACKTRACE=enable=no LANG=C.UTF-8 XDG_STATE_HOME='\(PaywallBinary.stateHome)'
      cd '\(Fixtures.repositoryRoot.path)'
      \(shell)
      sleep 600
      """
    try script.write(toFile: directory + "/pane.sh", atomically: true, encoding: .utf8)
    // The server this starts outlives the command: give it no pipe to hold open.
    try tmux(["-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)", "sh \(directory)/pane.sh"],
             readOutput: false)
    let pids = try tmux(["display-message", "-p", "-t", "main", "#{pid} #{pane_pid}"]).split(separator: " ")
      .compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    (serverPID, panePID) = pids.count == 2 ? (pids[0], pids[1]) : (0, 0)
  }

  package private(set) var serverPID: pid_t = 0
  private var panePID: pid_t = 0

  deinit {
    // `kill-server` alone can leave the server (and the app in its pane) running; nothing may
    // outlive a test, so the pane's process group and the server are killed outright.
    if panePID > 0 { kill(-panePID, SIGKILL) }
    _ = try? tmux(["kill-server"], readOutput: false)
    if serverPID > 0 { kill(serverPID, SIGKILL) }
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Runs tmux with `posix_spawnp` and reaps it with `waitpid` (Foundation's Process can miss a
  /// client that exits while the server it started lives on). Output goes through a file.
  @discardableResult
  package func tmux(_ arguments: [String], readOutput: Bool = true) throws -> String {
    let outputPath = directory + "/tmux-out-\(UUID().uuidString.prefix(6))"
    var actions = SpawnPlatform.emptyFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, readOutput ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    // The tmux server outlives this call: it must not inherit pipes other tests are reading from,
    // or their reads never reach end of file. The child closes every descriptor above 2 itself
    // (listing them in the parent would race with other tests opening pipes), then becomes tmux.
    let closeAll = #"for fd in $(ls /dev/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec tmux "$@""#
    let argv = ["bash", "-c", closeAll, "tmux", "-L", socket] + arguments
    var cArguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, "bash", &actions, nil, &cArguments, SpawnPlatform.environment)
    guard spawned == 0 else { throw TmuxError(message: "cannot run tmux: \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard readOutput else { return "" }
    defer { unlink(outputPath) }
    return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
  }

  package var screen: String { (try? tmux(["capture-pane", "-p", "-t", "main"])) ?? "" }

  package func send(_ keys: String...) throws {
    try tmux(["send-keys", "-t", "main"] + keys)
  }

  package func resize(width: Int, height: Int) throws {
    try tmux(["resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
  }

  /// Whether the pane shows the alternate screen (an app that did not give the terminal back).
  package var alternateScreen: Bool {
    ((try? tmux(["display-message", "-p", "-t", "main", "#{alternate_on}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines) == "1"
  }

  package var title: String { ((try? tmux(["display-message", "-p", "-t", "main", "#{pane_title}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }

  package func file(_ name: String) -> String? {
    (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Waits until `condition` holds for the screen, up to `seconds`; records the last screen if not.
  @discardableResult
  package func wait(for what: String, within seconds: Double = 10, sourceLocation: Testing.SourceLocation = #_sourceLocation,
            _ condition: (String) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var last = ""
    while Date() < deadline {
      last = screen
      if condition(last) { return true }
      usleep(20_000)
    }
    Issue.record("waited \(seconds) s for \(what); the screen was:\n\(last)", sourceLocation: sourceLocation)
    return false
  }

  @discardableResult
  package func wait(forText text: String, within seconds: Double = 10, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
    wait(for: "'\(text)'", within: seconds, sourceLocation: sourceLocation) { $0.contains(text) }
  }

  /// Waits for a file the pane's script writes (an exit code, stty settings).
  @discardableResult
  package func wait(forFile name: String, within seconds: Double = 10, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let text = file(name), !text.isEmpty { return text }
      usleep(20_000)
    }
    Issue.record("waited \(seconds) s for \(name); the screen was:\n\(screen)", sourceLocation: sourceLocation)
    return nil
  }

  /// The pid of the app: the child of the pane's shell.
  package func appPID() throws -> Int32? {
    let shell = try tmux(["display-message", "-p", "-t", "main", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    return Int32(shell).flatMap { ProcessTable.children(of: $0).first }
  }
}
