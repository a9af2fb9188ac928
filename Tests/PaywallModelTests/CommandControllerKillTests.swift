import Foundation
import Testing
import PaywallModel

/// The `command` controller killed (`SIGKILL`, no chance to clean up) at each point of a purchase.
/// After each: what the purchase returned, the status, what was reported, and that the next
/// request fails at once instead of hanging. The command is `exec python3 …`, so the shell
/// becomes the controller and its death is seen as it is; `shellReportsTheSignalItsCommandDiedOf`
/// covers a command the shell waits for.
@Suite struct CommandControllerKillTests {
  struct KillPoint: Sendable, CustomTestStringConvertible {
    var name: String
    /// Python run for the first request (`rid` is its id; `send` writes a line) before the kill.
    var beforeKill: String
    /// What the purchase returns: nil for "failed", else the result's name.
    var result: String?
    /// Text the failure message (or, for a purchase that succeeded, a reported problem) contains.
    var message: String
    var statusAfter: SubscriptionStatus
    var testDescription: String { name }
  }

  static let points: [KillPoint] = [
    KillPoint(name: "after reading the request", beforeKill: "pass", result: nil,
              message: "the controller command was killed by signal 9 before answering", statusAfter: .inactive),
    KillPoint(name: "after setting the status, before answering",
              beforeKill: #"send({"method": "setSubscriptionStatus", "status": "active", "entitlements": ["pro"]})"#,
              result: nil, message: "the controller command was killed by signal 9 before answering",
              statusAfter: .active(["pro"])),
    KillPoint(name: "in the middle of the answer",
              beforeKill: #"sys.stdout.write('{"id": %d, "resu' % rid); sys.stdout.flush()"#, result: nil,
              message: #"the controller command was killed by signal 9 in the middle of a line ({"id": 1, "resu)"#,
              statusAfter: .inactive),
    KillPoint(name: "after answering", beforeKill: #"send({"id": rid, "result": "purchased"})"#, result: "purchased",
              message: "the controller command was killed by signal 9", statusAfter: .inactive),
  ]

  static func exec(_ path: String) -> String { "exec python3 \(path)" }

  /// Without `exec`, `sh` waits for the controller and exits 128 + the signal that killed it:
  /// the message says both, and what the shell wrote ("Killed").
  // A guard against a hang, not a bar on speed: 3 minutes. These tests wait on the test pool,
  // which a busy 2-core run can keep from them for over a minute (a CI run failed 28 so at 1).
  @Test(.timeLimit(.minutes(3)))
  func shellReportsTheSignalItsCommandDiedOf() async throws {
    let rig = try CommandControllerTests.Rig(Self.script(killing: Self.points[0]), status: .inactive)
    defer { rig.stop() }
    let message = CommandControllerTests.failureMessage(await rig.purchase(TestCatalog.annual)) ?? "nil"
    #expect(message.hasPrefix("the controller command exited with status 137 (killed by signal 9) before answering"), "\(message)")
  }

  static func script(killing point: KillPoint) -> String {
    """
    import json, os, signal, sys

    def send(obj):
        sys.stdout.write(json.dumps(obj) + "\\n")
        sys.stdout.flush()

    line = sys.stdin.readline()
    rid = json.loads(line)["id"]
    \(point.beforeKill)
    os.kill(os.getpid(), signal.SIGKILL)
    """
  }

  @Test(.timeLimit(.minutes(3)), arguments: points)
  func killedDuringAPurchase(at point: KillPoint) async throws {
    let rig = try CommandControllerTests.Rig(Self.script(killing: point), status: .inactive, command: Self.exec)
    defer { rig.stop() }
    let result = try #require(await rig.purchase(TestCatalog.annual))
    if let expected = point.result {
      #expect(result.name == expected)
      #expect(await eventually { rig.problems.value.contains(point.message) }, "\(rig.problems.value)")
    } else {
      #expect(CommandControllerTests.failureMessage(result) == point.message)
    }
    #expect(rig.status.status == point.statusAfter, "the status is what the controller last said, nothing more")

    // The process is gone: the next requests fail at once, naming why.
    let again = CommandControllerTests.failureMessage(await rig.purchase(TestCatalog.monthly))
    #expect(again == "the controller command is not running (the controller command was killed by signal 9)")
    let restore = await rig.restore()
    guard case .failed(let error?)? = restore else {
      Issue.record("expected a failed restore, got \(String(describing: restore))")
      return
    }
    #expect(error.displayMessage.contains("is not running"))
    #expect(rig.status.status == point.statusAfter)
  }

  @Test(.timeLimit(.minutes(3)))
  func killedBeforeAnyRequest() async throws {
    let rig = try CommandControllerTests.Rig("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", command: Self.exec)
    defer { rig.stop() }
    #expect(await eventually { rig.problems.value == ["the controller command was killed by signal 9"] }, "\(rig.problems.value)")
    let message = CommandControllerTests.failureMessage(await rig.purchase(TestCatalog.annual))
    #expect(message == "the controller command is not running (the controller command was killed by signal 9)")
    #expect(rig.status.status == .inactive)
  }

  /// A last answer without a newline is still an answer when the process ends normally.
  @Test(.timeLimit(.minutes(3)))
  func aWholeLastLineWithoutANewlineCounts() async throws {
    let script = """
      import json, sys
      rid = json.loads(sys.stdin.readline())["id"]
      sys.stdout.write(json.dumps({"id": rid, "result": "purchased"}))
      sys.stdout.flush()
      """
    let rig = try CommandControllerTests.Rig(script)
    defer { rig.stop() }
    let result = await rig.purchase(TestCatalog.annual)
    #expect(result?.name == "purchased")
  }

  /// Whether `pid` is gone (or a zombie nobody reaped yet: it runs no more).
  static func isGone(_ pid: Int32) -> Bool {
    if kill(pid, 0) != 0 { return true }
    #if os(Linux)
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    #else
    // No /proc: waitpid tells, for a child of ours (every controller here is one).
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid
    #endif
  }

  /// `stop()` ends the controller's whole process group: the controller, though it ignores
  /// SIGTERM, and the child it started in the background (before: both lived on).
  @Test(.timeLimit(.minutes(3)))
  func stopEndsTheWholeProcessGroupEvenWhenItIgnoresSIGTERM() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let pids = directory.file("pids")
    let script = """
      import os, signal, subprocess, sys, time
      signal.signal(signal.SIGTERM, signal.SIG_IGN)
      child = subprocess.Popen(["sleep", "300"])
      with open("\(pids).tmp", "w") as f:
          f.write("%d %d" % (os.getpid(), child.pid))
      os.rename("\(pids).tmp", "\(pids)")
      while True:
          time.sleep(3600)
      """
    let rig = try CommandControllerTests.Rig(script)
    defer { rig.stop() }
    #expect(await eventually { FileManager.default.fileExists(atPath: pids) })
    let both = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
    try #require(both.count == 2)
    defer { for pid in both where !Self.isGone(pid) { kill(pid, SIGKILL) } }
    rig.controller.stop()
    #expect(await eventually(within: 5) { both.allSatisfy(Self.isGone) },
            "still running: \(both.filter { !Self.isGone($0) }) (controller \(both[0]), its child \(both[1]))")
  }
}
