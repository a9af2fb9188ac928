import Foundation
import PaywallTesting
import Testing

/// `paywall-tui store` on a Google Play catalog: Play's order ids, purchase tokens and
/// acknowledgement in the tables and in `--json`, read back with a JSON parser.
@Suite("The Play store on the command line")
struct PlayStoreCommandTests {
  static func store(_ state: String, json: Bool) throws -> PaywallBinary.Output {
    let result = try PaywallBinary.run(["store", "Examples/android", "--state-dir", state] + (json ? ["--json"] : []))
    #expect(result.status == 0, "\(result.stderr)")
    return result
  }

  /// `store` shows the status the next session will see: on a project that follows
  /// Superwall-Android before 2.5.8, whose own purchaser counts no one-time purchase, a lifetime
  /// unlock leaves it inactive there as in the session, though the ledger has the purchase.
  @Test func storeShowsTheStatusAsTheProjectsSDKSetsIt() throws {
    let root = Fixtures.repositoryRoot.appendingPathComponent("Examples/android").path
    let app = try String(contentsOfFile: root + "/app.json", encoding: .utf8)
      .replacingOccurrences(of: #""options": { "platform": "android" }"#, with: #""options": { "platform": "android", "sdk": "2.5" }"#)
      .replacingOccurrences(of: #""catalog": "play-catalog.json""#, with: #""catalog": "\#(root)/play-catalog.json""#)
      .replacingOccurrences(of: #""paywalls": ["plans.json"]"#, with: #""paywalls": ["\#(root)/plans.json"]"#)
    #expect(app.contains("\"sdk\": \"2.5\"") && app.contains(root + "/plans.json"), "the fixture no longer matches Examples/android/app.json")
    let project = try Fixtures.directory(["app.json": app])
    let state = PlayCommandTests.stateDir()
    defer { try? FileManager.default.removeItem(atPath: state); try? FileManager.default.removeItem(atPath: project) }
    let played = try PaywallBinary.run(["play", project, "--status", "inactive", "--state-dir", state, "--placement", "upgrade", "--keys", "3 enter"])
    #expect(played.status == 0, "\(played.stderr)")
    #expect(played.stdout.contains(#"{"status":"inactive","entitlements":[]}"#), "\(played.stdout)")
    let shown = try PaywallBinary.run(["store", project, "--state-dir", state])
    #expect(shown.stdout.contains("acme_lifetime"), "the ledger has the purchase: \(shown.stdout)")
    #expect(shown.stdout.contains("status: inactive"), "\(shown.stdout)")
  }

  @Test func storeShowsOrderIdsTokensAndTheLinkOfAReplacement() throws {
    let state = PlayCommandTests.stateDir()
    defer { try? FileManager.default.removeItem(atPath: state) }
    // The free week, its conversion (the first renewal, ..0), then a move to the monthly plan
    // (more a day: an upgrade; its plan's prorationMode makes it DEFERRED).
    let played = try PaywallBinary.run(["play", "Examples/android", "--status", "inactive", "--state-dir", state, "--script",
                                        try SimulatedStoreCommandTests.script("""
      buy acme_pro:annual:sw-auto
      advance 8d
      buy acme_pro:monthly:sw-none
      """)])
    #expect(played.status == 0, "\(played.stderr)\(played.stdout)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(Self.store(state, json: true).stdout.utf8)) as? [String: Any])
    let lines = try #require(json["transactions"] as? [[String: Any]])
    #expect(lines.compactMap { $0["type"] as? String } == ["purchase", "acknowledgement", "renewal", "upgrade", "acknowledgement"])
    let purchase = lines[0], renewal = lines[2], change = lines[3]
    let order = try #require(purchase["orderId"] as? String)
    #expect(order.hasPrefix("GPA.") && order.count == 24, "\(order)")
    #expect(renewal["orderId"] as? String == order + "..0")
    let token = try #require(purchase["purchaseToken"] as? String)
    #expect(renewal["purchaseToken"] as? String == token, "a renewal keeps the token")
    let newToken = try #require(change["purchaseToken"] as? String)
    #expect(newToken != token)
    #expect(change["linkedPurchaseToken"] as? String == token)
    #expect(purchase["linkedPurchaseToken"] is NSNull)
    let subscription = try #require((json["subscriptions"] as? [[String: Any]])?.first)
    #expect(subscription["purchaseToken"] as? String == newToken)
    #expect(subscription["linkedPurchaseToken"] as? String == token)
    #expect(subscription["acknowledgementState"] as? String == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED")
    #expect(subscription["latestOrderId"] as? String == change["orderId"] as? String)

    let table = try Self.store(state, json: false).stdout
    #expect(table.contains("ORDER ID") && table.contains("PURCHASE TOKEN") && table.contains("ACKNOWLEDGED"), "\(table)")
    #expect(table.contains(order + "..0"), "\(table)")
    #expect(table.contains("linked \(token.prefix(12))…"), "\(table)")
  }

  /// An App Store project's `store` is as it was: no Play column, no Play key.
  @Test func anAppStoreLedgerHasNoneOfIt() throws {
    let state = PlayCommandTests.stateDir()
    defer { try? FileManager.default.removeItem(atPath: state) }
    let played = try PaywallBinary.run(["play", "paywalls", "--status", "inactive", "--state-dir", state, "--keys", "2 enter"])
    #expect(played.status == 0, "\(played.stderr)")
    let table = try PaywallBinary.run(["store", "paywalls", "--state-dir", state]).stdout
    #expect(!table.contains("ORDER ID") && !table.contains("acknowledgement"), "\(table)")
    let json = try PaywallBinary.run(["store", "paywalls", "--state-dir", state, "--json"]).stdout
    #expect(!json.contains("purchaseToken") && !json.contains("orderId"), "\(json)")
  }
}
