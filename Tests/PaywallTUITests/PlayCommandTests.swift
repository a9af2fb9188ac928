import Foundation
import PaywallModel
import PaywallTUI
import Testing

/// `paywall-tui play` end to end: the real binary, scripted controllers, state across runs.
@Suite("play")
struct PlayCommandTests {
  static func run(_ arguments: [String]) throws -> CommandLineTests.Output {
    try CommandLineTests.run(arguments)
  }

  static func events(_ stdout: String) -> [String] {
    stdout.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("{\"event\":\"") else { return nil }
      return String(line.dropFirst(10).prefix { $0 != "\"" })
    }
  }

  static func stateDir() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("paywall-tui-play-\(UUID().uuidString)").path
  }

  /// The issue's table: each scripted outcome gives the SDK's events and screen.
  @Test(arguments: [
    ("purchase=purchased", "enter", ["paywall_open", "transaction_start", "subscriptionStatus_didChange", "transaction_complete", "freeTrial_start", "paywall_close"], "closed: purchased"),
    // The demo's campaign on transaction_abandon puts the win-back paywall in the first one's place.
    ("purchase=cancelled", "enter", ["paywall_open", "transaction_start", "transaction_abandon", "paywall_close", "trigger_fire",
                                     "paywallPresentationRequest", "paywall_open"], "Come back for half price"),
    ("purchase=pending", "enter", ["paywall_open", "transaction_start", "transaction_fail"], "Waiting for Approval"),
    ("purchase=failed:Card declined", "enter", ["paywall_open", "transaction_start", "transaction_fail"], "Card declined"),
    ("restore=restored", "r", ["paywall_open", "restore_start", "restore_fail"], "No Subscription Found"),
    ("purchase=purchased", "2 enter", ["paywall_open", "transaction_start", "subscriptionStatus_didChange", "transaction_complete", "subscription_start", "paywall_close"], "status: active:pro"),
    ("purchase=purchased", "3 enter", ["paywall_open", "transaction_start", "subscriptionStatus_didChange", "transaction_complete", "nonRecurringProduct_purchase", "paywall_close"], "active:lifetime,pro"),
  ])
  func scriptedOutcome(outcome: String, keys: String, expected: [String], screen: String) throws {
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--outcome", outcome, "--status", "inactive",
                               "--state-dir", Self.stateDir(), "--keys", keys, "--screen"])
    #expect(result.status == 0, "\(result.stderr)")
    // --status inactive is the starting status, so the run's own events are exactly these.
    #expect(Self.events(result.stdout) == expected)
    #expect(result.stdout.contains(screen), "\(result.stdout)")
  }

  @Test func simulatedPurchaseIsRememberedByTheNextRun() throws {
    let dir = Self.stateDir()
    let first = try Self.run(["play", "paywalls", "--state-dir", dir, "--fresh", "--keys", "2 enter"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains(#"{"status":"active","entitlements":["pro"]}"#))
    let second = try Self.run(["play", "paywalls", "--state-dir", dir, "--keys", "q", "--screen"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(!Self.events(second.stdout).contains("transaction_start"))
    #expect(second.stdout.contains(#"{"status":"active","entitlements":["pro"]}"#))
    #expect(second.stdout.contains("status: active:pro"))
    // The cache file says so too, for a controller that does not derive status itself.
    let scripted = try Self.run(["play", "paywalls", "--controller", "scripted", "--state-dir", dir, "--keys", "q"])
    #expect(scripted.stdout.contains(#"{"status":"active","entitlements":["pro"]}"#))
  }

  @Test func aCorruptStatusCacheWarnsAndStartsUnknown() throws {
    let dir = Self.stateDir()
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try "{\"format\": \"paywall-tui.status\", \"version\": 1, \"status\": ".write(toFile: dir + "/status.json", atomically: true, encoding: .utf8)
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--state-dir", dir, "--keys", "q"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("warning: \(dir)/status.json: ignoring the cached status"))
    #expect(result.stdout.contains(#"{"status":"unknown","entitlements":[]}"#))
  }

  @Test func latencyRunsOnTheSimulatedClock() throws {
    let script = """
      press enter
      expect screen Purchasing Annual
      expect status unknown
      advance 1s
      expect screen Purchasing Annual
      advance 2s
      expect event transaction_complete
      expect status active:pro
      """
    let dir = try Fixtures.directory(["latency.play": script])
    let start = Date()
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--outcome", "latency=3s", "--fresh",
                               "--state-dir", Self.stateDir(), "--script", dir + "/latency.play"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Date().timeIntervalSince(start) < 2.9, "three seconds of simulated latency take no wall time")
  }

  @Test func aFailedExpectSaysWhichLineAndWhatWasThere() throws {
    let dir = try Fixtures.directory(["fail.play": "press 2\nexpect screen ● Annual\n"])
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--state-dir", Self.stateDir(), "--script", dir + "/fail.play"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("\(dir)/fail.play:2: expected the screen to show \"● Annual\"; the screen was:"))
    #expect(result.stderr.contains("● Monthly"))
  }

  @Test func expectEventReportsWhatHappenedInstead() throws {
    let dir = try Fixtures.directory(["events.play": "press enter\nexpect event transaction_complete\n"])
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--outcome", "purchase=cancelled",
                               "--state-dir", Self.stateDir(), "--script", dir + "/events.play"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("events.play:2: expected event transaction_complete; the events so far were: paywall_open, transaction_start, transaction_abandon"))
  }

  /// Found by fuzzing: Swift reads "\r\n" as one Character, so splitting on "\n" left a script
  /// saved with CRLF line ends as one line (and its error messages with line breaks in them).
  @Test func scriptsWithCRLFLineEndsParseLineByLine() throws {
    let script = try PlayScript.parse("press down enter\r\nadvance 1d\r\n\r\n# done\r\nexpect event paywall_open\r\n", file: "crlf.play")
    #expect(script.steps.map(\.line) == [1, 2, 5])
    #expect(script.steps.map(\.text) == ["press down enter", "advance 1d", "expect event paywall_open"])
    do throws(ValidationFailure) {
      _ = try PlayScript.parse("press enter\r\npres enter\r\n", file: "bad.play")
      Issue.record("a bad command parsed")
    } catch {
      #expect(error.diagnostics.count == 1)
      #expect(error.diagnostics.first?.description.hasPrefix("bad.play:2:1: error: unknown command 'pres'; did you mean 'press'?") == true)
    }
  }

  @Test func scriptErrorsAreUsageErrorsWithPositions() throws {
    let dir = try Fixtures.directory(["bad.play": "# comment\npres enter\npress enter dwn\nadvance soon\nexpect event transaction_compete\n"])
    let result = try Self.run(["play", "paywalls", "--script", dir + "/bad.play"])
    #expect(result.status == 2)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(lines)")
    #expect(lines[0].hasPrefix("\(dir)/bad.play:2:1: error: unknown command 'pres'; did you mean 'press'?"))
    #expect(lines[1].hasPrefix("\(dir)/bad.play:3:13: error: unknown key 'dwn'; did you mean 'down'?"))
    #expect(lines[2].hasPrefix("\(dir)/bad.play:4:9: error: 'soon' is not a duration"))
    #expect(lines[3].hasPrefix("\(dir)/bad.play:5:14: error: unknown event 'transaction_compete'; did you mean 'transaction_complete'?"))
  }

  @Test func askToBuyWithTheSimulatedStore() throws {
    let script = """
      press enter
      expect screen Waiting for Approval
      expect status inactive
      press enter
      approve
      expect status active:pro
      """
    // A .storekit catalog with _askToBuyEnabled makes the simulated store answer pending.
    let storekit = try String(contentsOfFile: Fixtures.demoDirectory + "/acme.storekit", encoding: .utf8)
      .replacingOccurrences(of: "\"_askToBuyEnabled\" : false", with: "\"_askToBuyEnabled\" : true")
    let entitlements = try String(contentsOfFile: Fixtures.demoDirectory + "/acme.entitlements.json", encoding: .utf8)
    let paywall = try String(contentsOfFile: Fixtures.demoDirectory + "/onboarding.json", encoding: .utf8)
    let dir = try Fixtures.directory(["acme.storekit": storekit, "acme.entitlements.json": entitlements,
                                      "onboarding.json": paywall, "ask.play": script])
    let result = try Self.run(["play", dir + "/onboarding.json", "--catalog", dir + "/acme.storekit", "--fresh",
                               "--state-dir", Self.stateDir(), "--status", "inactive", "--script", dir + "/ask.play"])
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test func eventsFileGetsTheSameLines() throws {
    let dir = Self.stateDir()
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let file = dir + "/events.jsonl"
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--state-dir", dir, "--events", file, "--keys", "q"])
    #expect(result.status == 0)
    let written = try String(contentsOfFile: file, encoding: .utf8)
    #expect(written.split(separator: "\n").map(String.init) == result.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"event\"") }.map(String.init))
    #expect(Self.events(written) == ["paywall_open", "paywall_decline", "paywall_close"])
  }

  @Test func sameInputSameOutput() throws {
    let arguments = ["play", "paywalls", "--controller", "scripted", "--outcome", "purchase=pending", "--fresh", "--keys",
                     "2 tab tab btab enter enter 3 enter r enter q", "--screen"]
    let a = try Self.run(arguments + ["--state-dir", Self.stateDir()])
    let b = try Self.run(arguments + ["--state-dir", Self.stateDir()])
    #expect(a.status == 0 && a.stdout == b.stdout)
  }
}
