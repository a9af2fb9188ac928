import Foundation
import PaywallTesting
import Testing
import enum PaywallModel.SpawnPlatform

/// The `command` controller's process through the real binary: it never outlives `play`, however
/// `play` ends, and a controller that floods stderr cannot keep `play` from ending.
@Suite("Controller process")
struct ControllerProcessTests {
  static func isGone(_ pid: Int32) -> Bool {
    kill(pid, 0) != 0 || TerminalEndToEndTests.isZombie(pid)
  }

  /// Waits for the controller's pid file ("CONTROLLER CHILD"); nil after `seconds`.
  static func pids(in file: String, within seconds: Double = 60) -> [Int32]? {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
      let numbers = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
        .split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int32($0) }
      if numbers.count == 2 { return numbers }
      usleep(10_000)
    } while Date() < deadline
    return nil
  }

  static func waitUntilGone(_ pids: [Int32], within seconds: Double = 30) -> [Int32] {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline && !pids.allSatisfy(isGone) { usleep(10_000) }
    let left = pids.filter { !isGone($0) }
    for pid in left { kill(pid, SIGKILL) }
    return left
  }

  /// A controller that ignores SIGTERM, starts `sleep 300` in the background, writes both pids,
  /// and never answers: `play` waits on its purchase until it is signalled.
  static let stubborn = """
    import os, signal, subprocess, sys, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    child = subprocess.Popen(["sleep", "300"])
    path = sys.argv[1]
    with open(path + ".tmp", "w") as f:
        f.write("%d %d" % (os.getpid(), child.pid))
    os.rename(path + ".tmp", path)
    while True:
        time.sleep(3600)
    """

  /// SIGTERM, SIGHUP or SIGINT to `play` mid-purchase: `play` ends of that signal (the shell
  /// sees 143, 129, 130) and takes the controller's whole process group with it, though the
  /// controller ignores the signal. Before: `play` died and the controller lived on with PPID 1.
  @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
  func aSignalToPlayEndsTheControllerAndItsChildren(signal: Int32) throws {
    let directory = try Fixtures.directory(["controller.py": Self.stubborn])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let play = try RunningBinary(["play", "paywalls", "--controller", "command", "--controller-timeout", "60s",
                                  "--controller-command", "python3 '\(directory)/controller.py' '\(directory)/pids'",
                                  "--keys", "enter", "--fresh", "--state-dir", directory + "/state"], directory: directory)
    let pids = try #require(Self.pids(in: directory + "/pids"), "the controller started: \(play.stderr)")
    kill(play.pid, signal)
    let ended = play.wait(within: 60)
    #expect(ended == "signal \(signal)" || ended == "exit \(128 + signal)", "play ended: \(ended ?? "not within 10 s")")
    #expect(Self.waitUntilGone(pids).isEmpty, "the controller \(pids[0]) or its child \(pids[1]) outlived play")
  }

  /// A parent that starts `play` with the ending signals blocked (a test runner's dispatch thread
  /// does) cannot make it deaf to them: SIGTERM still ends it and its controller. Before, the
  /// signal stayed pending for ever and `play` waited out its 60 s controller timeout.
  @Test func aSignalBlockedByTheParentStillEndsPlay() throws {
    let directory = try Fixtures.directory(["controller.py": Self.stubborn])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let play = try RunningBinary(["play", "paywalls", "--controller", "command", "--controller-timeout", "60s",
                                  "--controller-command", "python3 '\(directory)/controller.py' '\(directory)/pids'",
                                  "--keys", "enter", "--fresh", "--state-dir", directory + "/state"],
                                 directory: directory, blocking: [SIGTERM, SIGHUP, SIGINT, SIGQUIT])
    let pids = try #require(Self.pids(in: directory + "/pids"), "the controller started: \(play.stderr)")
    kill(play.pid, SIGTERM)
    let ended = play.wait(within: 60)
    #expect(ended == "signal \(SIGTERM)", "play ended: \(ended ?? "not within 10 s")")
    #expect(Self.waitUntilGone(pids).isEmpty, "the controller \(pids[0]) or its child \(pids[1]) outlived play")
  }

  /// `play` that ends normally (its purchase timed out) stops a controller that ignores SIGTERM,
  /// and its child.
  @Test func aNormalEndOfPlayEndsTheControllerAndItsChildren() throws {
    let directory = try Fixtures.directory(["controller.py": Self.stubborn])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let play = try RunningBinary(["play", "paywalls", "--controller", "command", "--controller-timeout", "3s", "--keys", "enter",
                                  "--controller-command", "python3 '\(directory)/controller.py' '\(directory)/pids'",
                                  "--fresh", "--state-dir", directory + "/state"], directory: directory)
    let pids = try #require(Self.pids(in: directory + "/pids"), "the controller started: \(play.stderr)")
    #expect(play.wait(within: 60) == "exit 0", "\(play.stderr)")
    #expect(Self.waitUntilGone(pids).isEmpty, "the controller \(pids[0]) or its child \(pids[1]) outlived play")
  }

  /// A controller that floods stderr while it answers: `play` buys, ends with the status the
  /// controller set, and records a bounded number of `controller_error` events. Before: `play`
  /// never ended (33,104 events in a minute, memory growing without bound).
  @Test func aStderrFloodDoesNotKeepPlayFromEnding() throws {
    let directory = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let play = try RunningBinary(["play", "paywalls", "--controller", "command",
                                  "--controller-command", "FLOOD_PIDS='\(directory)/pids' python3 Benchmarks/stderr_flood_controller.py",
                                  "--keys", "enter", "--fresh", "--state-dir", directory + "/state"], directory: directory)
    let ended = play.wait(within: 60)
    #expect(ended == "exit 0", "play ended: \(ended ?? "not within 30 s"); \(play.stderr.suffix(300))")
    let lines = play.stdout.split(separator: "\n")
    #expect(lines.contains { $0.contains("\"transaction_complete\"") }, "\(play.stdout.suffix(500))")
    #expect(lines.last == #"{"status":"active","entitlements":["pro"]}"#, "\(lines.last ?? "")")
    let errors = lines.filter { $0.contains("\"controller_error\"") }.count
    #expect(errors <= 60, "\(errors) controller_error events")
    if let pids = Self.pids(in: directory + "/pids") {
      #expect(Self.waitUntilGone(pids).isEmpty, "the controller or its child outlived play")
    }
  }

  /// Processes whose command line mentions `text` (the test's own directory).
  static func processes(mentioning text: String) -> [Int32] {
    ProcessTable.all().filter { pid, commandLine in
      pid != getpid() && !isGone(pid) && commandLine.contains(text)
    }.map(\.pid)
  }

  /// A usage error found after the controller started (`--outcome` with `--controller command`)
  /// exits 2 and leaves no process of the controller behind. Before: the controller, which does
  /// not read its stdin, lived on.
  @Test func aUsageErrorAfterTheControllerStartedLeavesNothingRunning() throws {
    let directory = try Fixtures.directory(["controller.py": Self.stubborn])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let play = try RunningBinary(["play", "paywalls", "--controller", "command", "--outcome", "purchase=pending",
                                  "--controller-command", "python3 '\(directory)/controller.py' '\(directory)/pids'",
                                  "--fresh", "--state-dir", directory + "/state"], directory: directory)
    #expect(play.wait(within: 60) == "exit 2", "\(play.stderr)")
    #expect(play.stderr.contains("--outcome applies to --controller scripted"), "\(play.stderr)")
    let deadline = Date().addingTimeInterval(5)
    while !Self.processes(mentioning: directory).isEmpty && Date() < deadline { usleep(10_000) }
    let left = Self.processes(mentioning: directory)
    for pid in left { kill(pid, SIGKILL) }
    if let pids = Self.pids(in: directory + "/pids", within: 0) { for pid in pids where !Self.isGone(pid) { kill(pid, SIGKILL) } }
    #expect(left.isEmpty, "still running: \(left)")
  }
}
