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

  @Test func eventLinesReachAPipeWhileThePlayWaits() throws {
    let dir = try Fixtures.directory(["buy.play": "expect event paywall_open\npress enter\nexpect event transaction_complete\n",
                                      "slow.sh": Self.slowController])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let process = Process()
    process.executableURL = PaywallBinary.binary
    process.arguments = ["play", "paywalls", "--controller", "command", "--controller-command",
                         "sh " + dir + "/slow.sh", "--script", dir + "/buy.play"]
    process.currentDirectoryURL = Fixtures.repositoryRoot
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = PaywallBinary.stateHome
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The first read returns what the first write gave: written only at the end, it would hold
    // the purchase's lines too, three seconds later.
    let first = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
    let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(first.hasPrefix(#"{"event":"#), "\(first)")
    #expect(!first.contains(#""event":"transaction_complete""#), "the lines before the purchase were written only once it was over")
    #expect(rest.contains(#""event":"transaction_complete""#))
  }
}
