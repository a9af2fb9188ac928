import Foundation
import PaywallModel
@testable import TerminalCore
@testable import PaywallUI
@testable import PaywallCLI
import PaywallScenarios
import PaywallTesting
import Testing

/// `paywall-tui play` end to end: the real binary, scripted controllers, state across runs.
@Suite("play")
struct PlayCommandTests {
  static func run(_ arguments: [String]) throws -> PaywallBinary.Output {
    try PaywallBinary.run(arguments)
  }

  static func events(_ stdout: String) -> [String] {
    stdout.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("{\"event\":\"") else { return nil }
      return String(line.dropFirst(10).prefix { $0 != "\"" })
    }
  }

  static func stateDir() -> String {
    Scratch.root.appendingPathComponent("paywall-tui-play-\(UUID().uuidString)").path
  }

  /// Issue 16, item 9c: a cached `active:pro` that the simulated store's ledger does not back
  /// becomes `inactive` at launch, and that is a change: the SDK loads the cached status at
  /// configure and tracks `subscriptionStatus_didChange` for every later one (Superwall.swift,
  /// `listenToSubscriptionStatus`: removeDuplicates, dropFirst). It used to go unreported.
  /// An experiment id (`PLACEMENT#N`) is a value a script must be able to expect: `#` starts a
  /// comment only at the start of a line or after a space.
  @Test func aHashInsideAValueIsNotAComment() throws {
    let script = try PlayScript.parse("# a comment\nexpect event trigger_fire unmatched_audience_p#0=OCCURRENCE # why\n", file: "t.play")
    #expect(script.steps.count == 1)
    guard case .expectEvent(_, let params)? = script.steps.first?.command else { Issue.record("\(script.steps)"); return }
    #expect(params == ["unmatched_audience_p#0": "OCCURRENCE"])
  }

  /// Found by review: `#` after a space inside double quotes started a comment.
  @Test func aHashInsideQuotesIsNotAComment() throws {
    let script = try PlayScript.parse("expect screen \"Plan #1\" # the first plan\n", file: "t.play")
    #expect(script.steps.count == 1)
    guard case .expectScreen(let text)? = script.steps.first?.command else { Issue.record("\(script.steps)"); return }
    #expect(text.contains("Plan #1") && !text.contains("first plan"), "\(text)")
  }

  @Test func aCachedStatusTheStoreDoesNotBackChangesAtLaunch() throws {
    let dir = Self.stateDir()
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try StatusCache(directory: StateDirectory(path: dir)).save(.active([Entitlement("pro")]))
    let scripts = try Fixtures.directory(["s.play": "expect event subscriptionStatus_didChange\nexpect status inactive\n"])
    let result = try Self.run(["play", "paywalls", "--home", "--controller", "simulated", "--state-dir", dir, "--script", scripts + "/s.play"])
    #expect(result.status == 0, "\(result.stderr)")
    let change = result.stdout.split(separator: "\n").first { $0.contains("subscriptionStatus_didChange") }
    #expect(change?.contains(#""status":"INACTIVE""#) == true, "to what the store says: \(change ?? "none")")
    // The cache now holds what the store says.
    #expect(StatusCache(directory: StateDirectory(path: dir)).load().0 == .inactive)
  }

  /// A first launch's events, as the SDK tracks them (`Presenter.launch`): every run below starts
  /// with them (a new state directory, or none: a fresh install).
  static let launch = ["app_install", "app_open", "session_start", "user_attributes", "app_launch", "first_seen"]

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
    #expect(Self.events(result.stdout) == Self.launch + expected)
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

  /// Restore on a fresh install: `--reinstall` starts the app's own state over (the status cache,
  /// a new anonymous user) and keeps the store's ledger, the Apple ID's purchases. Before, there
  /// was no way to do it: `--fresh` also emptied the ledger, so a restore found nothing.
  @Test func aReinstallKeepsThePurchasesAndForgetsTheApp() throws {
    let dir = Self.stateDir()
    let first = try Self.run(["play", "paywalls", "--state-dir", dir, "--fresh", "--keys", "2 enter"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains(#"{"status":"active","entitlements":["pro"]}"#))
    let user = try String(contentsOfFile: dir + "/user.json", encoding: .utf8)
    // The app's own controller (scripted) knows nothing until it restores: the cache went with the app.
    let scripted = try Self.run(["play", "paywalls", "--controller", "scripted", "--state-dir", dir, "--reinstall", "--keys", "q"])
    #expect(scripted.status == 0, "\(scripted.stderr)")
    #expect(scripted.stdout.contains(#"{"status":"unknown","entitlements":[]}"#), "\(scripted.stdout)")
    #expect(try String(contentsOfFile: dir + "/user.json", encoding: .utf8) != user, "a reinstall is a new anonymous user")
    // StoreKit (the simulated store) still has the purchase: the status comes back from the
    // ledger, and a restore finds it.
    let restored = try Self.run(["play", "paywalls", "--state-dir", dir, "--reinstall", "--keys", "r"])
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(Self.events(restored.stdout).contains("restore_complete"), "\(restored.stdout)")
    #expect(restored.stdout.contains(#"{"status":"active","entitlements":["pro"]}"#), "\(restored.stdout)")
    let both = try Self.run(["play", "paywalls", "--state-dir", dir, "--fresh", "--reinstall", "--keys", "q"])
    #expect(both.status == 2 && both.stderr.contains("--fresh and --reinstall"), "\(both.stderr)")
  }

  /// `--placement` registers after the launch, as an app's launch code would: over the paywall a
  /// campaign on `app_launch` presented, it fails `paywallAlreadyPresented`. Before, play dropped
  /// the registration without a word.
  @Test func aPlacementGivenOverALaunchCampaignsPaywallIsRefused() throws {
    let result = try Self.run(["play", "scenarios/projects/sdk-launch/app_launch.json", "--controller", "scripted", "--status", "inactive",
                               "--placement", "campaign_trigger", "--keys", "q"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.events(result.stdout).starts(with: Self.launch + ["trigger_fire", "paywallPresentationRequest", "paywall_open"]), "\(result.stdout)")
    #expect(result.stdout.contains(#""event":"handler.onError""#) && result.stdout.contains("paywallAlreadyPresented"), "\(result.stdout)")
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
    #expect(result.stderr.contains("events.play:2: expected event transaction_complete; the events so far were: app_install, app_open, session_start, user_attributes, app_launch, first_seen, paywall_open, transaction_start, transaction_abandon"))
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

  /// A script is split into lines in bytes, and an ASCII line is read in bytes where any other is
  /// read in characters: each must cut lines, comments and words where Swift's characters do.
  /// Each comment case is tried as it is and with a non-ASCII word in front, which takes the
  /// characters' path.
  @Test func bytesAndCharactersReadALineAlike() {
    let texts = ["a\nb\r\nc\r\r\nd\re\n\n", "\r\n\n", "", "\n", "no end", "x\r", "\u{301}\nq\r\n\u{301}\r\n"]
    for text in texts + texts.map({ "é " + $0 }) {
      let expected = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
      #expect(PlayScript.lines(text) == expected, "\(text.debugDescription)")
      #expect(PlayScript.lines(text).map { $0.utf8.count } == expected.map { $0.utf8.count }, "\(text.debugDescription)")
    }
    let comments: [(String, String)] = [
      ("# all", ""), ("press enter # why", "press enter "), ("press\t# tab", "press\t"), ("id p#0=X", "id p#0=X"),
      ("say \"a # b\" # c", "say \"a # b\" "), ("say \"a \\\" # b\" # c", "say \"a \\\" # b\" "), ("open \"unclosed # x", "open \"unclosed # x"),
      ("x \\ # y", "x \\ "), ("a\u{301} # b", "a\u{301} "),
    ]
    for (line, kept) in comments {
      for prefix in ["", "é "] {
        #expect(PlayScript.stripComment(Substring(prefix + line)) == prefix + kept, "\((prefix + line).debugDescription)")
      }
    }
    // A space with a combining mark after it is one character, not a space: the character path's.
    #expect(PlayScript.stripComment(" \u{301}# b") == " \u{301}# b")
    #expect(PlayScript.words("e\u{301} \u{301}x") == ["e\u{301} \u{301}x"])
    #expect(PlayScript.wordStarts("é  \u{301}x y") == [0, 2, 5])
    for line in ["press enter", "  expect   screen  x ", "a", "é b  c", "x\ty z"] {
      #expect(PlayScript.words(line) == line.split(separator: " ").map(String.init), "\(line)")
    }
    #expect(PlayScript.wordStarts("  expect   screen  x ") == [2, 11, 19])
    #expect(PlayScript.wordStarts("é  expect   screen  x ") == [0, 3, 12, 20])
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

  /// Issue 17 (polish): `--keys` errors named column 7 for the first key (the column in the
  /// "press …" line `--keys` becomes); the column is the key's within the option's value.
  @Test func keysErrorsNameTheColumnWithinTheKeys() throws {
    let result = try Self.run(["play", "paywalls", "--keys", "dwn enter"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("--keys:1:1: error: unknown key 'dwn'"), "\(result.stderr)")
    let later = try Self.run(["play", "paywalls", "--keys", "down  nope"])
    #expect(later.stderr.hasPrefix("--keys:1:7: error: unknown key 'nope'"), "\(later.stderr)")
  }

  /// Issue 17 (polish): `expect screen "Go Premium"` looked for the quotes too.
  @Test func expectScreenStripsSurroundingQuotes() throws {
    let script = try PlayScript.parse("expect screen \"Unlock Acme Pro\"\nexpect no screen \"Go Premium\"\nexpect screen say \"hi\"\n", file: "t.play")
    let commands = script.steps.map(\.command)
    guard case .expectScreen(let found) = commands[0], case .expectNoScreen(let absent) = commands[1],
          case .expectScreen(let inner) = commands[2] else {
      Issue.record("\(commands)")
      return
    }
    #expect(found == "Unlock Acme Pro" && absent == "Go Premium")
    #expect(inner == "say \"hi\"", "only quotes around the whole text go")
    let dir = try Fixtures.directory(["q.play": "expect screen \"Unlock Acme Pro\"\n"])
    let result = try Self.run(["play", "paywalls", "--script", dir + "/q.play"])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// Issue 14 item 13: a script line or an option of `play` with a 5,000-character token is
  /// quoted as an excerpt in its error or warning. (`--placement LONG` is not here: it is no
  /// error, and the placement is data, in the event lines whole.)
  @Test(arguments: [
    // Script lines: parse errors, then steps that fail when they run.
    ["script", "LONG"], ["script", "advance LONG"], ["script", "open LONG"], ["script", "press LONG"],
    ["script", "status LONG"], ["script", "user LONG"], ["script", "override LONG"], ["script", "latency LONG"],
    ["script", "fail purchase LONG"], ["script", "expect LONG"],
    ["script", "expect event LONG"], ["script", "expect status LONG"], ["script", "expect subscription x LONG"],
    ["script", "placement x LONG"], ["script", "buy LONG"], ["script", "cancel LONG"], ["script", "refund LONG"],
    ["script", "expect screen LONG"],
    ["script", "expect event paywall_open paywall_id=LONG"], ["script", "override primary=LONG"],
    // Options.
    ["--keys", "LONG"], ["--paywall", "LONG"], ["--status", "LONG"], ["--user", "LONG"], ["--time-rate", "LONG"],
    ["--controller", "LONG"], ["--size", "LONG"], ["--start", "LONG"], ["--start", "pro=LONG"], ["--start", "LONG=trial"],
    ["--controller-timeout", "LONG"], ["--LONG"], ["--override", "LONG"], ["--override", "LONG=com.acme.pro.annual"],
    ["--controller", "scripted", "--outcome", "LONG"], ["--controller", "scripted", "--outcome", "purchase=LONG"],
  ])
  func aLongTokenIsQuotedAsAnExcerpt(arguments: [String]) throws {
    let long = CommandLineTests.longToken
    var given = ["play", "paywalls", "--state-dir", Self.stateDir(), "--fresh"]
    if arguments[0] == "script" {
      let file = try Fixtures.directory(["long.txt": arguments[1].replacingOccurrences(of: "LONG", with: long) + "\n"]) + "/long.txt"
      given += ["--script", file]
    } else {
      given += arguments.map { $0.replacingOccurrences(of: "LONG", with: long) }
      if !arguments.contains("--keys") { given += ["--keys", "q"] }
    }
    let result = try Self.run(given)
    CommandLineTests.expectExcerpted(result.stderr, arguments.joined(separator: " "))
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
    let fileLines: [String] = written.split(separator: "\n").map(String.init)
    let eventLines: [String] = result.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"event\"") }.map(String.init)
    #expect(fileLines == eventLines)
    #expect(Self.events(written) == Self.launch + ["paywall_open", "paywall_decline", "paywall_close"])
  }

  /// `--events` naming a named pipe nobody reads: refused at once (exit 2) with a line naming
  /// it. Before, opening it waited for a reader forever.
  @Test func anEventsPipeWithNoReaderIsRefusedAtOnce() throws {
    let dir = Self.stateDir()
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fifo = dir + "/events"
    #expect(mkfifo(fifo, 0o600) == 0)
    // `timeout` so that a hang fails the test rather than holding up the suite: with SIGKILL,
    // which the signals the test runner blocks (and its children inherit) cannot hold off.
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"), [
      "-s", "KILL", "10", PaywallBinary.binary.path, "play", "paywalls", "--controller", "scripted", "--state-dir", dir + "/state",
      "--events", fifo, "--keys", "enter",
    ])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr == "error: --events \(fifo) is a named pipe with no reader; start the reader first or give a regular file\n",
            "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  /// A named pipe with a reader gets the events, as a regular file does (`--events >(jq …)`).
  @Test func anEventsPipeWithAReaderGetsTheEvents() throws {
    let dir = Self.stateDir()
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fifo = dir + "/events"
    #expect(mkfifo(fifo, 0o600) == 0)
    // The reader opens first (a non-blocking read end opens without a writer); the few events fit
    // in the pipe's buffer, read once the run is over.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(reader >= 0)
    defer { close(reader) }
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--state-dir", dir + "/state",
                               "--events", fifo, "--keys", "q"])
    #expect(result.status == 0, "\(result.stderr)")
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while case let n = read(reader, &buffer, buffer.count), n > 0 { bytes += buffer[..<n] }
    #expect(Self.events(String(decoding: bytes, as: UTF8.self)) == Self.launch + ["paywall_open", "paywall_decline", "paywall_close"])
  }

  @Test func sameInputSameOutput() throws {
    let arguments = ["play", "paywalls", "--controller", "scripted", "--outcome", "purchase=pending", "--fresh", "--keys",
                     "2 tab tab btab enter enter 3 enter r enter q", "--screen"]
    let a = try Self.run(arguments + ["--state-dir", Self.stateDir()])
    let b = try Self.run(arguments + ["--state-dir", Self.stateDir()])
    #expect(a.status == 0 && a.stdout == b.stdout)
  }

  /// Found by red-teaming: `advance 99999999999999999999y` was accepted and never finished (it
  /// renewed one period at a time, forever). A duration longer than the dates a ledger holds, a
  /// number too large to be one, and advances that together pass 9999 are refused when the
  /// script is read, each at its line and column.
  @Test func advancesPastTheLedgersDatesAreRefusedWithTheirPlace() throws {
    let dir = try Fixtures.directory([
      "huge.play": "# no purchase: the old code finished this one at once\n  advance 99999999999999999999y\nadvance 1e400y\n",
      "sum.play": "advance 5000y\nadvance  3000y\n",
    ])
    let huge = try Self.run(["play", "paywalls", "--fresh", "--state-dir", Self.stateDir(), "--script", dir + "/huge.play"])
    #expect(huge.status == 2, "\(huge.stdout.suffix(300))")
    let lines = huge.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(lines)")
    #expect(lines.first?.hasPrefix("\(dir)/huge.play:2:11: error: '99999999999999999999y' is longer than 8035y, the span of dates a ledger holds") == true,
            "\(lines)")
    #expect(lines.last?.hasPrefix("\(dir)/huge.play:3:9: error: '1e400y' is longer than") == true, "\(lines)")
    let sum = try Self.run(["play", "paywalls", "--fresh", "--state-dir", Self.stateDir(), "--script", dir + "/sum.play"])
    #expect(sum.status == 2)
    #expect(sum.stderr.hasPrefix("\(dir)/sum.play:2:10: error: 'advance  3000y' would move the clock to 10026-01-01"), "\(sum.stderr)")  // calendar years
    #expect(sum.stderr.contains("past 9999-12-31 23:59:59, the last date a ledger holds"), "\(sum.stderr)")
  }

  /// Found by red-teaming: `advance 100y` on a monthly plan took 4.8 s on the release build and
  /// `advance 1000y` over a minute, each renewal a rewrite and an fsync of the whole ledger. Each
  /// `advance` step now writes the ledger once, whatever it goes through, and every status
  /// change on the way is still seen.
  @Test func anAdvanceWritesTheLedgerOnceAndSeesEveryStatusChange() async throws {
    let state = Self.stateDir()
    let options = try SessionConfiguration(Arguments(["paywalls", "--state-dir", state, "--fresh", "--status", "inactive"],
                                               spec: PlayCommand.spec))
    let clock = SimulatedTimeSource()
    let events = EventRecorder()
    let app = try AppSession.make(project: try Fixtures.demoProject(), path: "paywalls", options: options, overrides: [],
                                  clock: clock, simulatedClock: clock, animates: false) { events.append($0) }
    let store = try #require(app.store)
    let player = Player(app: app, clock: clock, events: events, size: Size(width: 80, height: 24))
    func play(_ text: String) async throws -> Player.Outcome {
      await player.play(try PlayScript.parse(text, file: "t.play"), placement: nil)
    }
    guard case .passed = try await play("buy com.acme.pro.monthly\nexpect status active:pro\n") else { Issue.record("buy"); return }
    let writes = store.ledgerWrites
    let outcome = try await play("""
      advance 1000y
      expect status active:pro
      expect subscription com.acme.pro.monthly paid
      billing-issue no-grace
      advance 100y
      expect status inactive
      expect subscription com.acme.pro.monthly expired
      """)
    guard case .passed = outcome else { Issue.record("\(outcome)"); return }
    // The second advance stops where the renewal fails (the status changes) and goes on to the
    // end of billing retry: still one write.
    #expect(store.ledgerWrites == writes + 3, "one write for each advance and one for the billing issue")
    #expect(store.entries.map(\.kind) == [.purchase, .renewal, .billingIssue, .billingRetry, .expiry])
    // 1000 calendar years are 12,000 monthly renewals (11,992 when a year was 365 days).
    #expect(store.entries[1].run?.count == 12_000)
    let changes = events.all.filter { $0.name == .subscriptionStatusDidChange }
    #expect(changes.count == 2, "inactive to active, then into billing retry: \(changes)")
    let ledger = try #require(FileManager.default.contents(atPath: state + "/ledger.json"))
    #expect(ledger.count < 2048, "\(ledger.count) bytes")
  }

  /// Found by red-teaming: at `--time-rate renewal=10ms`, `advance 1m` (6,000 renewals) never
  /// finished. It does now, at once; an advance through more than a million renewals is refused
  /// at its line, since it could not finish either.
  @Test func fastRenewalsAdvanceAtOnceWithinABound() throws {
    let dir = try Fixtures.directory(["fast.play": """
      buy com.acme.pro.monthly
      advance 1m
      expect status active:pro
      advance 1y
      """])
    let result = try Self.run(["play", "paywalls", "--time-rate", "renewal=10ms", "--fresh", "--status", "inactive",
                               "--state-dir", Self.stateDir(), "--script", dir + "/fast.play"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("\(dir)/fast.play:4: 'advance 1y' would renew every 10ms 3153600000 times; one advance goes through at most 1000000 renewals (advance less, or use a slower --time-rate)"),
            "\(result.stderr)")
  }
}

extension PlayCommandTests {
  /// `trialPeriodEndDate` is counted from the app's clock: in `play` the simulated one, which
  /// starts on 2026-01-01 and moves only with `advance`. It used to follow the wall clock, so the
  /// same script showed a different date every day.
  @Test func theTrialEndDateFollowsTheSimulatedClock() throws {
    let project = Scratch.root.appendingPathComponent("paywall-tui-trial-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: project) }
    try FileManager.default.copyItem(atPath: Fixtures.demoDirectory, toPath: project.path)
    let onboarding = project.appendingPathComponent("onboarding.json")
    let text = try String(contentsOf: onboarding, encoding: .utf8).replacingOccurrences(
      of: #"{ "type": "features""#, with: #"{ "type": "text", "text": "Trial ends {{ products.primary.trialPeriodEndDate }}" }, { "type": "features""#)
    try text.write(to: onboarding, atomically: true, encoding: .utf8)
    let script = project.appendingPathComponent("trial.play")
    try """
      expect screen Trial ends Jan 8, 2026
      press q
      advance 30d
      open onboarding
      expect screen Trial ends Feb 7, 2026
      """.write(to: script, atomically: true, encoding: .utf8)
    let result = try Self.run(["play", project.path, "--state-dir", Self.stateDir(), "--fresh", "--status", "inactive",
                               "--script", script.path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}

/// Issue 17: `play` for CI (a fresh state by default, a script that starts with a placement, one
/// format on stdout).
extension PlayCommandTests {
  /// An empty directory for `$HOME` or `$TMPDIR`, and what is in it afterwards.
  static func emptyDirectory() throws -> String {
    let dir = stateDir()
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  static func contents(_ dir: String) -> [String] {
    (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).sorted()
  }

  /// Item 2: the same script passed once and failed the next time ("expected event
  /// freeTrial_start"), because `play` went on from the project's saved state. With no
  /// `--state-dir` it now starts afresh every time, and leaves nothing behind, in `$HOME`,
  /// `$XDG_STATE_HOME` or `$TMPDIR`, whether the script passes or fails.
  @Test func theSameScriptPassesEveryTimeWithNoStateDir() throws {
    let home = try Self.emptyDirectory()
    let temporary = try Self.emptyDirectory()
    defer {
      try? FileManager.default.removeItem(atPath: home)
      try? FileManager.default.removeItem(atPath: temporary)
    }
    let scripts = try Fixtures.directory(["trial.play": "press enter\nexpect event freeTrial_start\n",
                                          "fails.play": "expect event transaction_complete\n"])
    let environment = ["HOME": home, "XDG_STATE_HOME": home + "/.local/state", "TMPDIR": temporary]
    for run in 1...2 {
      let result = try PaywallBinary.run(["play", "paywalls", "--script", scripts + "/trial.play"], environment: environment)
      #expect(result.status == 0, "run \(run): \(result.stderr)")
    }
    let failed = try PaywallBinary.run(["play", "paywalls", "--script", scripts + "/fails.play"], environment: environment)
    #expect(failed.status == 1, "\(failed.stderr)")
    #expect(Self.contents(home) == [], "nothing is written under $HOME")
    #expect(Self.contents(temporary) == [], "nothing is left in $TMPDIR")
  }

  /// Item 2: with `--state-dir` a run goes on from the last one, as before: the trial is used.
  @Test func withAStateDirTheNextRunContinues() throws {
    let state = Self.stateDir()
    defer { try? FileManager.default.removeItem(atPath: state) }
    let scripts = try Fixtures.directory(["trial.play": "press enter\nexpect event freeTrial_start\n"])
    let first = try Self.run(["play", "paywalls", "--state-dir", state, "--script", scripts + "/trial.play"])
    #expect(first.status == 0, "\(first.stderr)")
    let second = try Self.run(["play", "paywalls", "--state-dir", state, "--script", scripts + "/trial.play"])
    #expect(second.status == 1)
    #expect(second.stderr.contains("trial.play:2: expected event freeTrial_start"), "\(second.stderr)")
    // --fresh starts that directory over.
    let fresh = try Self.run(["play", "paywalls", "--state-dir", state, "--fresh", "--script", scripts + "/trial.play"])
    #expect(fresh.status == 0, "\(fresh.stderr)")
  }

  /// Item 2: `play` needs no home: with neither `$HOME` nor `$XDG_STATE_HOME` it runs (it
  /// used to exit 2, "no default state directory").
  @Test func playRunsWithNoHome() throws {
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), [
      "-u", "HOME", "-u", "XDG_STATE_HOME", PaywallBinary.binary.path, "play", "paywalls", "--keys", "enter",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.events(result.stdout).contains("freeTrial_start"), "\(result.stdout)")
  }

  /// Item 3: a script whose first step is `placement` used to open the first paywall, so the
  /// placement got `handler.onError … paywallAlreadyPresented` and the run still passed. It
  /// now starts on the home screen, also after steps that only set things up (`user`).
  @Test(arguments: ["placement export_pdf\n", "# set up first\nuser should_display=true some_value=20\nstatus inactive\nplacement export_pdf\n"])
  func aScriptThatStartsWithAPlacementStartsOnTheHomeScreen(script: String) throws {
    let dir = try Fixtures.directory(["p.play": script + "expect event paywall_open paywall_id=plans\nexpect screen Choose your plan\n"])
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--status", "inactive", "--script", dir + "/p.play"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!Self.events(result.stdout).contains("handler.onError"), "\(result.stdout)")
    let opened = result.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"event":"paywall_open""#) }
    #expect(opened.count == 1 && opened[0].contains(#""paywall_id":"plans""#), "\(opened)")
  }

  /// Item 3: `--paywall` and `--home` still decide where a script that starts with a placement begins.
  @Test func anExplicitPaywallStillOpensFirst() throws {
    let dir = try Fixtures.directory(["p.play": "placement export_pdf\nexpect event handler.onError\n"])
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--status", "inactive", "--paywall", "onboarding",
                               "--script", dir + "/p.play"])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// Item 3: an unknown `--placement` is a usage error with a did-you-mean, as `explain` gives;
  /// it used to register it (placementNotFound) and pass.
  @Test func anUnknownPlacementOptionGetsDidYouMean() throws {
    let result = try Self.run(["play", "paywalls", "--placement", "export_pfd", "--keys", "q"])
    #expect(result.status == 2, "\(result.stdout)")
    #expect(result.stderr == "error: --placement 'export_pfd': no campaign has this placement; did you mean 'export_pdf'? (placements: onboarding, export_pdf, settings_upgrade, power_user_offer, beta_sync, transaction_abandon)\n",
            "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    let known = try Self.run(["play", "paywalls", "--controller", "scripted", "--status", "inactive", "--placement", "export_pdf", "--keys", "q"])
    #expect(known.status == 0, "\(known.stderr)")
    #expect(known.stdout.contains(#""paywall_id":"plans""#), "\(known.stdout)")
  }

  /// Item 5: `--screen` put the screen's text among the JSON lines, so `jq` failed on it. Every
  /// line of stdout is now JSON (read here by python3's json, line by line): the events, each
  /// with the simulated clock's time, then the status, then `{"screen": [rows…]}`.
  @Test func stdoutIsJSONLinesWithTheScreenLast() throws {
    let state = try Self.emptyDirectory()
    defer { try? FileManager.default.removeItem(atPath: state) }
    let dir = try Fixtures.directory(["t.play": "press q\nadvance 1w\nadvance 500ms\nopen plans\n"])
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--status", "inactive", "--screen",
                               "--events", state + "/events.jsonl", "--script", dir + "/t.play"])
    #expect(result.status == 0, "\(result.stderr)")
    let input = try Fixtures.directory(["stdout.txt": result.stdout])
    let python = """
      import json, sys
      lines = open(sys.argv[1], encoding="utf-8").read().split("\\n")
      assert lines[-1] == "", "stdout ends with a line break"
      print(json.dumps([json.loads(line) for line in lines[:-1]]))
      """
    let parsed = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", python, input + "/stdout.txt"])
    try #require(parsed.status == 0, "python3's json rejects a line: \(parsed.stderr)")
    let values = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String: Any]])
    try #require(values.count >= 4, "\(values)")
    let rows = try #require(values.last?["screen"] as? [String], "the screen is the last line: \(result.stdout)")
    #expect(values.last?.count == 1)
    #expect(rows.count == 24, "one string per row of --size 80x24")
    #expect(rows.allSatisfy { !$0.hasSuffix(" ") }, "\(rows)")
    #expect(rows.contains { $0.contains("Choose your plan") }, "\(rows)")
    let status = values[values.count - 2]
    #expect(status["status"] as? String == "inactive" && status["entitlements"] as? [String] == [])
    let events = values.dropLast(2)
    #expect(events.allSatisfy { $0.keys.sorted() == ["at", "event", "params"] }, "\(events)")
    let times = events.map { "\($0["event"] ?? "") \($0["at"] ?? "")" }
    #expect(times.first == "app_install 2026-01-01T00:00:00Z", "\(times)")
    #expect(times.last == "paywall_open 2026-01-08T00:00:00.500Z", "\(times)")
    // The key order is the documented one: event, at, params.
    #expect(result.stdout.hasPrefix(#"{"event":"app_install","at":"2026-01-01T00:00:00Z","params":{"#), "\(result.stdout)")
    // --events gets the same lines as stdout's events.
    let written = try String(contentsOfFile: state + "/events.jsonl", encoding: .utf8)
    let stdoutLines = result.stdout.split(separator: "\n").map(String.init)
    let fileLines: [String] = written.split(separator: "\n").map(String.init)
    #expect(fileLines == Array(stdoutLines.prefix(events.count)))
  }

  /// Item 5: in `run` an event carries the store's clock's time: the wall clock, moved on by the
  /// debug panel's advance (and by --time-rate), so it reads as the ledger does.
  @Test func runStampsEventsWithTheStoresClock() throws {
    let options = try SessionConfiguration(Arguments(["paywalls", "--status", "inactive"], spec: RunCommand.spec))
    let events = EventRecorder()
    let app = try AppSession.make(project: try Fixtures.demoProject(), path: "paywalls", options: options, overrides: [],
                                  clock: LiveTimeSource(), animates: false, state: .library(nil)) { events.append($0) }
    let before = Date()
    app.runtime.send(.presentation(.open(paywallID: "onboarding", selected: nil)))
    app.runtime.drain()
    let after = Date()
    let opened = try #require(events.all.first { $0.name == .paywallOpen }?.at)
    #expect(opened >= before.addingTimeInterval(-0.001) && opened <= after, "\(opened) between \(before) and \(after)")
    app.runtime.send(.world(.advanceClock(.seconds(86_400))))
    app.runtime.send(.key(.escape))
    app.runtime.drain()
    let closed = try #require(events.all.last?.at)
    #expect(closed.timeIntervalSince(opened) >= 86_400 && closed.timeIntervalSince(opened) < 86_400 + 60, "\(opened) then \(closed)")
    #expect(events.all.last?.jsonLine.contains(#""at":"\#(StoreDates.iso8601(closed))""#) == true)
  }
}

/// Found by review: a register still waiting for a status when the script ends made `play` exit 0
/// having shown nothing (the 5 s timeout is on the simulated clock, which no step moved).
@Suite("play and a waiting register")
struct PlayWaitingRegisterTests {
  @Test func aRegisterStillWaitingForAStatusFailsTheRun() throws {
    let scripts = try Fixtures.directory(["w.play": "placement export_pdf\nexpect no event handler.onError\n",
                                          "t.play": "placement export_pdf\nadvance 5s\nexpect event handler.onError code=subscriptionStatusTimeout\n"])
    let waiting = try PaywallBinary.run(["play", "paywalls", "--home", "--controller", "scripted", "--script", scripts + "/w.play"])
    #expect(waiting.status == 1)
    #expect(waiting.stderr.contains("placement 'export_pdf' is still waiting for a subscription status"), "\(waiting.stderr)")
    let timedOut = try PaywallBinary.run(["play", "paywalls", "--home", "--controller", "scripted", "--script", scripts + "/t.play"])
    #expect(timedOut.status == 0, "the timeout seen is the end of the wait: \(timedOut.stderr)")
  }
}
