import Foundation
import PaywallTesting
import Testing

/// `play` gathers its event lines into batches; a reader still gets each line while the run goes
/// on, not only when it ends.
@Suite("play's output reaches its reader as it goes")
struct PlayOutputEndToEndTests {
  /// A controller that takes three seconds over a purchase and says nothing meanwhile (nothing on
  /// stderr, which would write the lines waiting before its own): the lines before the purchase
  /// are read while `play` is still running.
  static let slowController = """
    printf '%s\\n' '{"method":"setSubscriptionStatus","status":"inactive"}'
    while IFS= read -r line; do
      id=$(printf '%s\\n' "$line" | sed -n 's/^{"id":\\([0-9][0-9]*\\),.*/\\1/p')
      [ -n "$id" ] || continue
      sleep 3
      printf '%s\\n' '{"method":"setSubscriptionStatus","status":"active","entitlements":["pro"]}'
      printf '{"id":%s,"result":"purchased"}\\n' "$id"
    done
    """

  /// `play paywalls ARGUMENTS` started, its stdout a pipe to read as it goes, stderr dropped.
  static func play(_ arguments: [String]) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = PaywallBinary.binary
    process.arguments = ["play", "paywalls"] + arguments
    process.currentDirectoryURL = Fixtures.repositoryRoot
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = PaywallBinary.stateHome
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    return (process, out)
  }

  /// Runs `body`, which blocks on a process, on a thread of its own: the test's wait holds none of
  /// the two threads the other tests run on.
  static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }

  @Test func eventLinesReachAPipeWhileThePlayWaits() async throws {
    let dir = try Fixtures.directory(["buy.play": "expect event paywall_open\npress enter\nexpect event transaction_complete\n",
                                      "slow.sh": Self.slowController])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (process, out) = try Self.play(["--controller", "command", "--controller-command", "sh " + dir + "/slow.sh",
                                        "--script", dir + "/buy.play"])
    // The first read returns what the first write gave: written only at the end, it would hold
    // the purchase's lines too, three seconds later.
    let (first, rest, status) = try await Self.offThePool {
      let first = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
      let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (first, rest, process.terminationStatus)
    }
    #expect(status == 0)
    #expect(first.hasPrefix(#"{"event":"#), "\(first)")
    #expect(!first.contains(#""event":"transaction_complete""#), "the lines before the purchase were written only once it was over")
    #expect(rest.contains(#""event":"transaction_complete""#))
  }

  /// Lines emitted before an ending signal are written before the process dies of it: stdout
  /// holds what the events file holds. The signal comes as soon as the events file has the
  /// purchase's status change, while the lines wait for their batch and a long `advance` runs.
  @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
  func anEndingSignalWritesTheLinesWaiting(signal: Int32) async throws {
    let dir = try Fixtures.directory(["long.play": "buy com.acme.pro.monthly\nadvance 7000y\n"])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let events = dir + "/events.jsonl"
    let (process, out) = try Self.play(["--controller", "simulated", "--status", "inactive", "--script", dir + "/long.play",
                                        "--events", events])
    let lines = { @Sendable (text: String) in text.split(separator: "\n").filter { $0.hasPrefix(#"{"event":"subscriptionStatus_didChange""#) }.count }
    let (seen, stdout, reason, status) = try await Self.offThePool {
      var seen = false
      for _ in 0..<20_000 where process.isRunning {
        if let text = try? String(contentsOfFile: events, encoding: .utf8), lines(text) > 0 {
          seen = true
          break
        }
        usleep(500)
      }
      // The events file is written just before stdout's batch: a moment for the line to join
      // it, well inside the batch's 20 ms.
      usleep(5_000)
      kill(process.processIdentifier, signal)
      let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (seen, stdout, process.terminationReason, process.terminationStatus)
    }
    #expect(seen, "the purchase's lines never reached the events file")
    #expect(reason == .uncaughtSignal && status == signal)
    let written = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
    #expect(lines(stdout) == lines(written), "stdout: \(stdout)")
    #expect(stdout.split(separator: "\n").count == written.split(separator: "\n").count)
  }
}
