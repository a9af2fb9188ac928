import Foundation
import PaywallTesting
import Testing

/// The simulated store from the command line: sessions that continue, `paywall-tui store`, and the
/// one-line errors for its options and script commands.
@Suite("Simulated store on the command line")
struct SimulatedStoreCommandTests {
  static func run(_ arguments: [String]) throws -> PaywallBinary.Output {
    try PaywallBinary.run(arguments)
  }

  static func script(_ text: String) throws -> String {
    try Fixtures.directory(["s.play": text]) + "/s.play"
  }

  static func storeJSON(_ state: String) throws -> [String: Any] {
    let result = try Self.run(["store", "paywalls", "--state-dir", state, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  static func types(_ json: [String: Any]) -> [String] {
    ((json["transactions"] as? [[String: Any]]) ?? []).compactMap { $0["type"] as? String }
  }

  /// The second run picks up the ledger and the store's clock where the first stopped: 20 days in,
  /// 11 more days reach the monthly renewal of 2026-02-01. Starting over from 2026-01-01 would not.
  @Test func aSecondRunContinuesWhereTheLastLeftOff() throws {
    let state = PlayCommandTests.stateDir()
    let first = try Self.run(["play", "paywalls", "--status", "inactive", "--state-dir", state,
                         "--script", try Self.script("press 2 enter\nadvance 20d\n")])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasSuffix("{\"status\":\"active\",\"entitlements\":[\"pro\"]}\n"))
    let afterFirst = try Self.storeJSON(state)
    #expect(afterFirst["at"] as? String == "2026-01-21T00:00:00Z", "the first run's clock is saved")
    #expect(Self.types(afterFirst) == ["purchase"])

    let second = try Self.run(["play", "paywalls", "--state-dir", state, "--script", try Self.script("""
      expect status active:pro
      expect subscription com.acme.pro.monthly paid
      advance 11d
      expect subscription com.acme.pro.monthly paid
      cancel com.acme.pro.monthly
      """)])
    #expect(second.status == 0, "\(second.stderr)\(second.stdout)")
    let afterSecond = try Self.storeJSON(state)
    #expect(afterSecond["at"] as? String == "2026-02-01T00:00:00Z")
    #expect(Self.types(afterSecond) == ["purchase", "renewal", "autoRenewOff"])
    let subscription = try #require((afterSecond["subscriptions"] as? [[String: Any]])?.first)
    #expect(subscription["expirationDate"] as? String == "2026-03-01T00:00:00Z")
    #expect(subscription["autoRenew"] as? Bool == false)

    // And --fresh starts over: the old ledger is replaced.
    let fresh = try Self.run(["play", "paywalls", "--fresh", "--status", "inactive", "--state-dir", state, "--keys", "3 enter"])
    #expect(fresh.status == 0)
    #expect(Self.types(try Self.storeJSON(state)) == ["purchase"])
  }

  @Test func theStoreCommandPrintsTheLedgerAndTheDerivedState() throws {
    let state = PlayCommandTests.stateDir()
    let play = try Self.run(["play", "paywalls", "--status", "inactive", "--grace-period", "--state-dir", state,
                        "--script", try Self.script("press enter\nadvance 8d\nbilling-issue grace\nadvance 365d\n")])
    #expect(play.status == 0, "\(play.stderr)")
    let table = try Self.run(["store", "paywalls", "--state-dir", state])
    #expect(table.status == 0, "\(table.stderr)")
    let lines = table.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasSuffix("ledger.json: 4 lines, calendar periods, grace period on") == true, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("2000000001  2000000001  purchase ") && $0.contains("freeTrial") })
    #expect(lines.contains { $0.contains(" renewal ") && $0.contains("2026-01-08 00:00:00  2027-01-08 00:00:00  59.99") })
    #expect(lines.contains { $0.contains(" billingRetry ") && $0.contains("grace until 2027-01-24 00:00:00") })
    #expect(lines.contains { $0.contains("inGracePeriod") && $0.contains("billing grace period until 2027-01-24") })
    #expect(lines.last == "status: active:pro · next change 2027-01-24 00:00:00 UTC")

    // --at looks later: the grace period is over, billing retry is inactive.
    let later = try Self.run(["store", "paywalls", "--state-dir", state, "--at", "2027-02-01", "--json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [String: Any])
    #expect(json["status"] as? String == "inactive")
    #expect((json["subscriptions"] as? [[String: Any]])?.first?["state"] as? String == "inBillingRetryPeriod")
    #expect((json["rules"] as? [String: Any])?["gracePeriod"] as? Bool == true)
  }

  @Test func theStoreCommandExplainsAMissingOrCorruptLedger() throws {
    let state = PlayCommandTests.stateDir()
    let missing = try Self.run(["store", "paywalls", "--state-dir", state])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("error: \(state)/ledger.json: no ledger yet"))
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    try "{\"format\": \"paywall-tui.ledger\", \"version\": 2, \"transactions\": [{\"id\": \"x\"}]}"
      .write(toFile: state + "/ledger.json", atomically: true, encoding: .utf8)
    let corrupt = try Self.run(["store", "paywalls", "--state-dir", state])
    #expect(corrupt.status == 1)
    #expect(corrupt.stderr.contains("the ledger is unreadable"))
    #expect(FileManager.default.fileExists(atPath: state + "/ledger.json"), "store only reads: the file stays")
    let badDate = try Self.run(["store", "paywalls", "--state-dir", state, "--at", "soon"])
    #expect(badDate.status == 2)
    #expect(badDate.stderr == "error: --at 'soon' must be now, a date such as 2026-03-01 or a time such as 2026-03-01T12:00:00Z\n")
  }

  /// A ledger over the 64 MiB limit (an earlier paywall-tui wrote them) is named, with what to
  /// do; it is not "moved aside" by the next run any more.
  @Test func theStoreCommandExplainsALedgerTooLargeToRead() throws {
    let state = PlayCommandTests.stateDir()
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: state + "/ledger.json", contents: Data("{".utf8)))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: state + "/ledger.json"))
    try handle.truncate(atOffset: 70 * 1_048_576)
    try handle.close()
    let shown = try Self.run(["store", "paywalls", "--state-dir", state])
    #expect(shown.status == 1)
    #expect(shown.stderr == "error: \(state)/ledger.json is 70 MiB, more than the 64 MiB a ledger may hold, so it is not read; sessions leave it as it is (move it away to start a new ledger)\n",
            "\(shown.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: state) == ["ledger.json"])
  }

  @Test func theStoreCommandShowsADamagedLedgersLastGoodCopyAndChangesNothing() throws {
    let state = PlayCommandTests.stateDir()
    let bought = try Self.run(["play", "paywalls", "--controller", "simulated", "--status", "inactive", "--state-dir", state,
                               "--keys", "2 enter"])
    #expect(bought.status == 0, "\(bought.stderr)")
    let again = try Self.run(["play", "paywalls", "--controller", "simulated", "--state-dir", state, "--keys", "3 enter"])
    #expect(again.status == 0, "\(again.stderr)")
    let ledger = state + "/ledger.json"
    let whole = try #require(FileManager.default.contents(atPath: ledger))
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: ledger))
    let before = try FileManager.default.contentsOfDirectory(atPath: state).sorted()
    let shown = try Self.run(["store", "paywalls", "--state-dir", state, "--json"])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stderr.hasPrefix("warning: \(ledger): damaged ("), "\(shown.stderr)")
    #expect(shown.stderr.contains("using its last good copy, ledger.json.bak"))
    // The session's last save (its clock at the end) replaced one with the same transactions.
    #expect(shown.stdout.contains("com.acme.pro.monthly") && shown.stdout.contains("com.acme.pro.lifetime"),
            "both purchases survive: \(shown.stdout.prefix(300))")
    #expect(try FileManager.default.contentsOfDirectory(atPath: state).sorted() == before, "store only reads")
  }

  @Test(arguments: [
    (["--time-rate", "month=fast"], "error: --time-rate 'month=fast': use realtime, UNIT=DURATION"),
    (["--time-rate", "fortnight=30s"], "error: --time-rate 'fortnight=30s': use realtime"),
    (["--start", "pro"], "error: --start 'pro' must be ENTITLEMENT=STATE with STATE one of subscribed, trial, gracePeriod, billingRetry, expired, revoked"),
    (["--start", "pro=grace"], "error: --start 'grace' is not a starting state; use one of subscribed, trial, gracePeriod, billingRetry, expired, revoked"),
    (["--start", "pro=trail"], "error: --start 'trail' is not a starting state; did you mean 'trial'?"),
    (["--start", "por=trial"], "error: --start por=trial: no product grants 'por'; did you mean 'pro'?"),
    (["--start", "lifetime=expired"], "error: --start lifetime=expired: 'lifetime' is only granted by one-time purchases"),
    (["--controller", "scripted", "--ask-to-buy"], "error: --ask-to-buy applies to the simulated store (--controller simulated)"),
    (["--controller", "ask", "--time-rate", "month=30s"], "error: --time-rate applies to the simulated store (--controller simulated)"),
  ])
  func badStoreOptionsAreOneLineUsageErrors(arguments: [String], message: String) throws {
    let result = try Self.run(["play", "paywalls", "--state-dir", PlayCommandTests.stateDir(), "--keys", "q"] + arguments)
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
  }

  @Test func badStoreScriptLinesAreReportedWithTheirPlace() throws {
    let file = try Self.script("""
      upgrade a b
      fail purchase networkErorr
      fail checkout networkError
      billing-issue com.acme.pro.monthly grace extra
      latency soon
      expect subscription com.acme.pro.annual trail
      price-increase com.acme.pro.monthly 0
      approve now
      drop it
      fail restore ERROR
      fail purchase SERVICE_UNAVAILBLE
      """)
    let result = try Self.run(["play", "paywalls", "--script", file])
    #expect(result.status == 2)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 11, "\(lines)")
    let expected = [
      "\(file):1:11: error: 'upgrade' takes at most 1 argument",
      "\(file):2:15: error: unknown store error 'networkErorr'; did you mean 'networkError'?",
      "\(file):3:6: error: 'checkout': fail purchase or restore",
      "\(file):4:36: error: 'billing-issue' takes [PRODUCT_ID] [grace|no-grace]",
      "\(file):5:9: error: 'soon' is not a duration",
      "\(file):6:41: error: unknown subscription state 'trail'; did you mean 'trial'?",
      "\(file):7:37: error: a price must be more than 0",
      "\(file):8:9: error: 'approve' takes no arguments",
      "\(file):9:1: error: 'drop' takes no arguments",
      "\(file):10:14: error: 'ERROR' is Google Play's answer to a purchase; 'fail restore' takes the errors",
      "\(file):11:15: error: unknown store error 'SERVICE_UNAVAILBLE'; did you mean 'SERVICE_UNAVAILABLE'?",
    ]
    for (line, prefix) in zip(lines, expected) {
      #expect(line.hasPrefix(prefix), "\(line)\n  should start with\n\(prefix)")
    }
  }

  @Test func aStoreCommandThatFindsNothingFailsTheScenarioAtItsLine() throws {
    let file = try Self.script("press 2 enter\nresolve-billing\n")
    let result = try Self.run(["play", "paywalls", "--status", "inactive", "--state-dir", PlayCommandTests.stateDir(), "--script", file])
    #expect(result.status == 1)
    #expect(result.stderr == "\(file):2: 'resolve-billing' did nothing: no live subscription to resolve billing for (live: com.acme.pro.monthly)\n",
            "\(result.stderr)")
  }

  /// A `buy` the store refuses bought nothing: the step fails there with Play's answer (it passed,
  /// and the steps after it ran on a purchase that never happened).
  @Test func aBuyThatPlayRefusesFailsTheScenarioAtItsLine() throws {
    let file = try Self.script("buy acme_lifetime:buy\nbuy acme_lifetime:buy\nexpect status active:lifetime,pro\n")
    let result = try Self.run(["play", "Examples/android", "--status", "inactive", "--state-dir", PlayCommandTests.stateDir(), "--script", file])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("\(file):2: 'buy acme_lifetime:buy' did nothing: buying acme_lifetime:buy failed: This item is already owned (ITEM_ALREADY_OWNED): acme_lifetime is owned"),
            "\(result.stderr)")
  }

  /// `pause` without a product pauses the subscription even when a one-time product was bought after it.
  @Test func aPauseWithoutAProductFindsTheSubscriptionPastAOneTimeProduct() throws {
    let file = try Self.script("buy acme_pro:monthly:sw-none\nbuy acme_lifetime:buy\npause 1M\n")
    let result = try Self.run(["play", "Examples/android", "--status", "inactive", "--state-dir", PlayCommandTests.stateDir(), "--script", file])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// On a Play catalog the ledger's heading does not claim "no grace period": each base plan has its own.
  @Test func aPlayLedgersHeadingSaysGraceIsPerBasePlan() throws {
    let state = PlayCommandTests.stateDir()
    let file = try Self.script("buy acme_pro:monthly:sw-none\n")
    #expect(try Self.run(["play", "Examples/android", "--status", "inactive", "--state-dir", state, "--script", file]).status == 0)
    let result = try Self.run(["store", "Examples/android", "--state-dir", state])
    let heading = result.stdout.components(separatedBy: "\n").first ?? ""
    #expect(heading.hasSuffix("calendar periods, grace period and account hold as each base plan sets them"), "\(heading)")
  }

  /// A live plan that cannot pause says why (it said "no live subscription … (live: the same id)").
  @Test func aPauseOfAPlanThatCannotPauseSaysWhy() throws {
    for (steps, why) in [("buy acme_pro:season-pass\npause acme_pro:season-pass 1M\n",
                          "acme_pro:season-pass cannot pause: it is a prepaid plan, which does not renew"),
                         ("buy acme_pro:monthly:sw-none\ncancel acme_pro:monthly:sw-none\npause acme_pro:monthly:sw-none 1M\n",
                          "acme_pro:monthly:sw-none cannot pause: it is cancelled (auto-renewal off)"),
                         ("buy acme_lifetime:buy\npause acme_lifetime:buy 1M\n",
                          "acme_lifetime:buy cannot pause: it is a one-time product, not a subscription")] {
      let file = try Self.script(steps)
      let result = try Self.run(["play", "Examples/android", "--status", "inactive", "--state-dir", PlayCommandTests.stateDir(), "--script", file])
      #expect(result.status == 1)
      #expect(result.stderr.contains("did nothing: \(why)"), "\(result.stderr)")
    }
  }

  @Test func storeCommandsNeedTheSimulatedStore() throws {
    let file = try Self.script("family-share\n")
    let result = try Self.run(["play", "paywalls", "--controller", "scripted", "--state-dir", PlayCommandTests.stateDir(), "--script", file])
    #expect(result.status == 1)
    #expect(result.stderr.contains("\(file):1: 'family-share' needs the simulated store (--controller simulated)"))
  }

  /// Google Play's billing responses reach Superwall only through its own purchasing on Android:
  /// an iOS project refuses them, naming StoreKit's errors, and with the app's own purchase
  /// controller the failure is the controller's, so an Android project refuses the step there.
  @Test(arguments: [
    (["paywalls", "--controller", "simulated"], "fail purchase SERVICE_UNAVAILABLE",
     "'fail purchase SERVICE_UNAVAILABLE': SERVICE_UNAVAILABLE is Google Play's answer, for an Android project (--platform android); StoreKit's errors are unknown, userCancelled"),
    (["Examples/android", "--controller", "scripted"], "fail purchase ERROR",
     "'fail purchase ERROR' needs the simulated store (--controller simulated): with the app's own purchase controller, the failure is the controller's"),
  ])
  func aPlayResponseIsRefusedWhereNoPlayStoreAnswers(arguments: [String], step: String, message: String) throws {
    let file = try Self.script(step + "\n")
    let result = try Self.run(["play"] + arguments + ["--state-dir", PlayCommandTests.stateDir(), "--script", file])
    #expect(result.status == 1)
    #expect(result.stderr.contains("\(file):1: " + message), "\(result.stderr)")
  }

  /// The .storekit settings are the store's defaults: here Ask to Buy and a renewal every 10 s.
  @Test func storeKitSettingsSetTheDefaults() throws {
    let storekit = try String(contentsOfFile: Fixtures.demoDirectory + "/acme.storekit", encoding: .utf8)
      .replacingOccurrences(of: "\"_askToBuyEnabled\" : false", with: "\"_askToBuyEnabled\" : true")
      .replacingOccurrences(of: "\"_timeRate\" : 0", with: "\"_timeRate\" : 1004")
    let entitlements = try String(contentsOfFile: Fixtures.demoDirectory + "/acme.entitlements.json", encoding: .utf8)
    let paywall = try String(contentsOfFile: Fixtures.demoDirectory + "/onboarding.json", encoding: .utf8)
    let dir = try Fixtures.directory(["acme.storekit": storekit, "acme.entitlements.json": entitlements, "onboarding.json": paywall,
                                      "s.play": "press 2 enter\nexpect screen Waiting for Approval\npress enter\napprove\nexpect status active:pro\nadvance 10s\nexpect subscription com.acme.pro.monthly paid\n"])
    let state = PlayCommandTests.stateDir()
    let result = try Self.run(["play", dir + "/onboarding.json", "--catalog", dir + "/acme.storekit", "--status", "inactive",
                          "--state-dir", state, "--script", dir + "/s.play"])
    #expect(result.status == 0, "\(result.stderr)")
    let ledger = try String(contentsOfFile: state + "/ledger.json", encoding: .utf8)
    #expect(ledger.contains("\"type\":\"renewal\""), "renewal=10s from _timeRate 1004 renewed within 10 s")
    #expect(ledger.contains("\"renewalInterval\":10"))
  }
}
