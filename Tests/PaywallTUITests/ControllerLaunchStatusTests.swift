import Foundation
import PaywallTesting
import Testing

/// A command controller's launch-time status reaches `play` before its first step when no status
/// is known yet, as an app's reaches the SDK before a registration is presented; `play` waits in
/// wall time, at most `--controller-timeout`, and no longer than the process lives.
@Suite("controller launch status")
struct ControllerLaunchStatusTests {
  /// Sets `active:pro` after `delay` seconds (a Python controller's start-up, and more), then
  /// answers every purchase.
  static func slow(delay: Double) -> String {
    """
    import json, sys, time
    time.sleep(\(delay))
    print(json.dumps({"method": "setSubscriptionStatus", "status": "active", "entitlements": ["pro"]}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps({"id": request["id"], "result": "purchased"}), flush=True)
    """
  }

  /// Answers, never sets a status.
  static let silent = """
    import json, sys
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps({"id": request["id"], "result": "purchased"}), flush=True)
    """

  static func play(_ directory: String, script: String, _ extra: [String]) throws -> PaywallBinary.Output {
    try script.write(toFile: directory + "/s.play", atomically: true, encoding: .utf8)
    return try PaywallBinary.run(["play", "paywalls", "--controller", "command",
                                     "--controller-command", "python3 '\(directory)/controller.py'",
                                     "--script", directory + "/s.play"] + extra)
  }

  /// Before: the script's first step saw `unknown`, 5 of 5 runs: the status came after play ended.
  @Test func aSlowControllersLaunchStatusIsThereAtTheFirstStep() throws {
    let directory = try Fixtures.directory(["controller.py": Self.slow(delay: 0.8)])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try Self.play(directory, script: "expect status active:pro\n", [])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    #expect(result.stdout.contains("\"event\":\"subscriptionStatus_didChange\""), "\(result.stdout)")
    #expect(!result.stderr.contains("set no subscription status"), "\(result.stderr)")
  }

  /// A status given on the command line is the app's until the controller sets another (the
  /// SDK's cached status): nothing waits for the controller then.
  @Test func aKnownStatusDoesNotWaitForTheController() throws {
    let directory = try Fixtures.directory(["controller.py": Self.slow(delay: 30)])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try Self.play(directory, script: "expect status inactive\n", ["--status", "inactive"])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
  }

  /// A controller that never sets one: play goes on after `--controller-timeout`, saying what to
  /// send; the status stays unknown.
  @Test func aControllerThatSetsNoStatusIsNamedAfterTheTimeout() throws {
    let directory = try Fixtures.directory(["controller.py": Self.silent])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try Self.play(directory, script: "expect status unknown\n", ["--controller-timeout", "1s"])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    #expect(result.stderr.contains("the controller set no subscription status within --controller-timeout (1s)"), "\(result.stderr)")
    #expect(result.stderr.contains("setSubscriptionStatus"), "\(result.stderr)")
  }

  /// A controller that exits at once ends the wait at once: waiting longer cannot bring a status.
  @Test func aControllerThatExitsEndsTheWait() throws {
    let directory = try Fixtures.directory(["controller.py": "import sys\nsys.exit(3)\n", "s.play": "expect status unknown\n"])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let play = try RunningBinary(
      ["play", "paywalls", "--controller", "command", "--controller-timeout", "10m",
       "--controller-command", "python3 '\(directory)/controller.py'", "--script", directory + "/s.play"],
      directory: directory)
    let ended = play.wait(within: 60)
    #expect(ended != nil, "play still waited a minute for a controller that had exited: \(play.stderr)")
    #expect(!play.stderr.contains("set no subscription status"), "\(play.stderr)")
  }
}
