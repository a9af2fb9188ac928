import Foundation
import PaywallModel
import PaywallTesting
import Testing

/// The examples a library user copies from, run as they are: they must keep building and working.
@Suite("Examples")
struct ExamplesTests {
  /// Registers a gated placement, buys on its paywall and sees the feature run, with no terminal
  /// (its stdin and stdout are pipes here).
  @Test func theHeadlessExampleRunsTheFeatureAfterThePurchase() throws {
    let binary = PaywallBinary.binary.deletingLastPathComponent().appendingPathComponent("headless-register-example")
    let result = try PaywallBinary.spawn(binary, [Fixtures.demoDirectory])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("export_pdf presented plans (gated); the feature waits"))
    #expect(result.stdout.contains("handler.onDismiss placement=export_pdf paywall_id=plans result=purchased"))
    #expect(result.stdout.hasSuffix("feature ran: export_pdf · status: active:pro\n"), "\(result.stdout)")
  }
}

/// The purchase controllers of Examples/controllers/, run by `play` as a user runs them (their
/// scenarios sit beside them), and the protocol's JSON Schema held to the code and to real traffic.
@Suite("Example controllers")
struct ExampleControllerTests {
  static let schema = "docs/reference/controller-protocol.schema.json"

  /// `play FILE.play --allow-commands` from the repository root, as the files say.
  static func play(_ scenario: String, _ extra: [String] = []) throws -> PaywallBinary.Output {
    try PaywallBinary.run(["play", "Examples/controllers/" + scenario, "--allow-commands"] + extra)
  }

  /// The RevenueCat-shaped controller: a restore with nothing on record is "No Subscription
  /// Found"; a purchase sets the status itself, then answers; a restore after it restores. Its
  /// stderr is its log: never a controller_error.
  @Test func theRevenueCatShapedControllerSetsTheStatusItselfAndRestores() throws {
    let result = try Self.play("revenuecat.play")
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    #expect(result.stdout.hasSuffix(#"{"status":"active","entitlements":["pro"]}"# + "\n"), "\(result.stdout)")
    #expect(!result.stdout.contains("controller_error"), "\(result.stdout)")
    let cancelled = try Self.play("revenuecat-cancel.play")
    #expect(cancelled.status == 0, "\(cancelled.stdout)\n\(cancelled.stderr)")
    #expect(!cancelled.stdout.contains("controller_error"), "\(cancelled.stdout)")
  }

  /// The POSIX sh controller, run by `sh` (dash here, as on Debian: no bash-isms).
  @Test func theMinimalShellControllerBuysAndSetsTheStatus() throws {
    let result = try Self.play("minimal.play")
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    // Its log (stderr) is play's stderr, marked as the controller's.
    #expect(result.stderr.contains(#"controller: purchase, request 1: granting ["pro"]"#), "\(result.stderr)")
    #expect(result.stdout.hasSuffix(#"{"status":"active","entitlements":["pro"]}"# + "\n"), "\(result.stdout)")
    #expect(!result.stdout.contains("controller_error"), "\(result.stdout)")
  }

  /// Every line of a real exchange (both examples, purchases, restores, a cancel) is valid
  /// against the schema: requests as `request`, what the controllers wrote as `reply`.
  @Test func realTrafficIsValidAgainstTheSchema() throws {
    let work = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: work) }
    let controllers = [
      ("revenuecat.play", "python3 Examples/controllers/revenuecat.py"),
      ("revenuecat-cancel.play", "python3 Examples/controllers/revenuecat.py --cancel com.acme.pro.annual"),
      ("minimal.play", "sh Examples/controllers/minimal.sh"),
    ]
    for (index, (scenario, command)) in controllers.enumerated() {
      // The scenario's own options, with the controller's pipe copied to files both ways.
      let recorded = "tee -a \(work)/requests.jsonl | \(command) | tee -a \(work)/replies.jsonl"
      let result = try PaywallBinary.run(["play", "paywalls", "--controller", "command", "--controller-command", recorded,
                                             "--status", "inactive", "--script", "Examples/controllers/" + scenario])
      #expect(result.status == 0, "\(index): \(result.stdout)\n\(result.stderr)")
    }
    let requests = try String(contentsOfFile: work + "/requests.jsonl", encoding: .utf8)
    let replies = try String(contentsOfFile: work + "/replies.jsonl", encoding: .utf8)
    #expect(requests.contains(#""method":"purchase""#) && requests.contains(#""method":"restorePurchases""#), "\(requests)")
    #expect(replies.contains("setSubscriptionStatus") && replies.contains("cancelled"), "\(replies)")
    for (definition, file) in [("request", "requests.jsonl"), ("reply", "replies.jsonl")] {
      let checked = try Self.validate(definition, work + "/" + file)
      #expect(checked.status == 0, "\(file) against $defs/\(definition):\n\(checked.stdout)\(checked.stderr)")
    }
  }

  /// A purchase from a slot selling a promotional offer names the offer in the request, and that
  /// request is valid against the schema (the protocol's `product.offer`).
  @Test func aRequestNamingAnOfferIsValidAgainstTheSchema() throws {
    let work = try Fixtures.directory(["buy.play": "placement cancel_subscription\npress enter\nexpect event transaction_complete\n"])
    defer { try? FileManager.default.removeItem(atPath: work) }
    let recorded = "tee -a \(work)/requests.jsonl | sh Examples/controllers/minimal.sh"
    let result = try PaywallBinary.run(["play", "scenarios/projects/offers", "--home", "--controller", "command", "--controller-command", recorded,
                                           "--status", "inactive", "--allow-commands", "--script", work + "/buy.play"])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    let requests = try String(contentsOfFile: work + "/requests.jsonl", encoding: .utf8)
    #expect(requests.contains(#""offer":{"type":"promotional","id":"annual.stay","paymentMode":"payUpFront","price":"39.99","period":"P1Y","periods":1}"#),
            "\(requests)")
    let checked = try Self.validate("request", work + "/requests.jsonl")
    #expect(checked.status == 0, "requests.jsonl against $defs/request:\n\(checked.stdout)\(checked.stderr)")
  }

  /// Under Superwall-Android (`Examples/android` says `"platform": "android"`), a purchase request
  /// carries Play's `ProductDetails`, the base plan and the selected offer, and a restore says its
  /// platform; both are valid against the schema.
  @Test func anAndroidRequestIsValidAgainstTheSchema() throws {
    let work = try Fixtures.directory(["buy.play": "placement upgrade\npress enter\nexpect event transaction_complete\npress r\n"])
    defer { try? FileManager.default.removeItem(atPath: work) }
    let recorded = "tee -a \(work)/requests.jsonl | sh Examples/controllers/minimal.sh"
    let result = try PaywallBinary.run(["play", "Examples/android", "--controller", "command", "--controller-command", recorded,
                                           "--status", "inactive", "--script", work + "/buy.play"])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    let requests = try String(contentsOfFile: work + "/requests.jsonl", encoding: .utf8)
    #expect(requests.contains(#""platform":"android""#) && requests.contains(#""basePlanId":"annual","offerId":"free-week","productDetails":{"productId":"acme_pro""#),
            "\(requests)")
    let checked = try Self.validate("request", work + "/requests.jsonl")
    #expect(checked.status == 0, "requests.jsonl against $defs/request:\n\(checked.stdout)\(checked.stderr)")
  }

  /// The validator is not a yes-machine: a request missing its product, an unknown error code, a
  /// status the protocol lacks and a field the schema does not describe are each refused.
  @Test func theSchemaRefusesWhatTheProtocolDoesNotHave() throws {
    let work = try Fixtures.directory([
      "requests.jsonl": #"{"id":1,"method":"purchase"}"# + "\n" + #"{"id":2,"method":"purchase","product":{"id":"a","name":"A","price":"1","currency":"USD","type":"consumable","store":"appStore","entitlements":[],"offers":[]}}"# + "\n",
      "replies.jsonl": #"{"id":1,"result":"failed","error":{"code":"userCanceled"}}"# + "\n" + #"{"method":"setSubscriptionStatus","status":"expired"}"# + "\n",
    ])
    defer { try? FileManager.default.removeItem(atPath: work) }
    let requests = try Self.validate("request", work + "/requests.jsonl")
    #expect(requests.status == 1 && requests.stdout.contains("requests.jsonl:1: ") && requests.stdout.contains("'product' is required"), "\(requests.stdout)")
    #expect(requests.stdout.contains("requests.jsonl:2: ") && requests.stdout.contains("'offers' is not a property"), "\(requests.stdout)")
    let replies = try Self.validate("reply", work + "/replies.jsonl")
    #expect(replies.status == 1 && replies.stdout.contains("replies.jsonl:1: ") && replies.stdout.contains("replies.jsonl:2: "), "\(replies.stdout)")
  }

  /// The schema's lists are the code's: every StoreKit error name a controller may send, every
  /// product type and store a request may carry.
  @Test func theSchemasListsAreTheCodes() throws {
    let data = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(Self.schema))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let defs = try #require(root["$defs"] as? [String: Any])
    func list(_ path: [String]) -> [String] {
      var node: Any? = defs
      for key in path { node = (node as? [String: Any])?[key] }
      return (node as? [String: Any])?["enum"] as? [String] ?? []
    }
    #expect(list(["storeErrorCode"]) == StoreError.allCases.map(\.rawValue))
    #expect(Set(list(["product", "properties", "type"])) == Set([ProductKind.autoRenewable, .nonRenewing, .consumable, .nonConsumable].map(\.rawValue)))
    #expect(list(["product", "properties", "store"]) == Store.allCases.map(\.rawValue))
  }

  static func validate(_ definition: String, _ file: String) throws -> PaywallBinary.Output {
    try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"),
                               ["python3", "scripts/json-schema-subset.py", schema, "--def", definition, file])
  }
}
