import Foundation
import PaywallTesting
import Testing
import PaywallModel

/// Custom store products and the SDK's options as a user meets them on the command line: the
/// command controller's request, `validate` of a scenario and of app.json's options, and
/// `import superwall --sdk`.
@Suite("Custom store products and SDK options")
struct CustomProductAndOptionsTests {
  static let project = "scenarios/projects/custom-products"

  /// A custom product bought from a paywall reaches a command controller marked `"storeKit":false`
  /// (no StoreKit product behind it), an App Store product without the key; both requests are
  /// valid against the protocol's schema, which describes the key.
  @Test func aCustomProductsRequestSaysNoStoreKitProductStandsBehindIt() throws {
    let work = try Fixtures.directory(["buy.play": """
      placement upgrade
      press enter
      expect event transaction_complete product_id=web.pro.annual
      call purchase com.acme.pro.monthly
      expect event call.purchase product_id=com.acme.pro.monthly result=purchased

      """])
    defer { try? FileManager.default.removeItem(atPath: work) }
    let recorded = "tee -a \(work)/requests.jsonl | sh Examples/controllers/minimal.sh"
    let result = try PaywallBinary.run(["play", Self.project, "--controller", "command", "--controller-command", recorded,
                                           "--status", "inactive", "--script", work + "/buy.play"])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    let requests = try String(contentsOfFile: work + "/requests.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(requests.count == 2, "\(requests)")
    #expect(requests.first?.contains(#""id":"web.pro.annual""#) == true && requests.first?.contains(#""store":"custom""#) == true, "\(requests)")
    #expect(requests.first?.hasSuffix(#""storeKit":false}}"#) == true, "\(requests)")
    #expect(requests.last?.contains("storeKit") == false, "\(requests)")
    let checked = try ExampleControllerTests.validate("request", work + "/requests.jsonl")
    #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
  }

  /// `validate FILE.play` reads the scenario with its project and warns at the step that calls
  /// `purchase` with a custom product; a scenario without one is clean, and `--allow` silences it.
  @Test func validateWarnsWhereAScenarioCallsPurchaseWithACustomProduct() throws {
    let scenario = "scenarios/call-purchase-custom-product-storekit2.play"
    let result = try PaywallBinary.run(["validate", scenario])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 1, "\(result.stdout)")
    #expect(lines.first?.hasPrefix("\(scenario):6:15: warning: 'call purchase web.pro.annual': 'web.pro.annual' is a custom store product") == true, "\(result.stdout)")
    #expect(lines.first?.hasSuffix("[custom-product-call]") == true, "\(result.stdout)")
    #expect(try PaywallBinary.run(["validate", scenario, "--strict"]).status == 1)
    let allowed = try PaywallBinary.run(["validate", scenario, "--strict", "--allow", "custom-product-call"])
    #expect(allowed.status == 0 && allowed.stdout.isEmpty, "\(allowed.stdout)\(allowed.stderr)")
    let clean = try PaywallBinary.run(["validate", "scenarios/custom-product-controller-trial-new-user.play", "--strict"])
    #expect(clean.status == 0 && clean.stdout.isEmpty, "\(clean.stdout)\(clean.stderr)")
    // Before 4.15 the SDK has no custom products, so nothing to warn about.
    let old = try Fixtures.directory(["old.play": "# args: \(Fixtures.repositoryRoot.path)/\(Self.project) --sdk 4.14\ncall purchase web.pro.annual\n"])
    defer { try? FileManager.default.removeItem(atPath: old) }
    let before = try PaywallBinary.run(["validate", old + "/old.play", "--strict"])
    #expect(before.status == 0 && before.stdout.isEmpty, "\(before.stdout)\(before.stderr)")
  }

  static func options(_ options: String) throws -> String {
    try Fixtures.directory([
      "app.json": #"{"catalog": "catalog.json", "paywalls": ["main.json"], "campaigns": [], "options": \#(options)}"#,
      "catalog.json": #"{"products": [{"id": "pro.annual", "name": "Annual", "price": "59.99", "period": "P1Y"}]}"#,
      "main.json": #"{"id": "main", "name": "Main", "products": {"primary": "pro.annual"}, "components": [{"type": "title", "text": "Pro"}, {"type": "products"}, {"type": "button", "label": "Buy", "action": "purchase"}, {"type": "button", "label": "Restore", "action": "restore"}, {"type": "button", "label": "Close", "action": "close"}]}"#,
    ])
  }

  /// Every documented key of the SDK's `SuperwallOptions` and `PaywallOptions` loads; each one
  /// that does nothing in a terminal gets a warning naming it and why; those the emulator follows
  /// get none.
  @Test func validateAcceptsTheSDKsOptionsAndSaysWhichHaveNoEffect() throws {
    let dir = try Self.options("""
      {"shouldPreload": false, "transactionBackgroundView": "none", "storeKitVersion": "storeKit1",
       "shouldObservePurchases": true, "isHapticFeedbackEnabled": false, "logging": {"level": "debug"},
       "eventTrackingBehavior": "superwallOnly", "maxConfigRetryCount": 2, "automaticallyDismiss": false}
      """)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let result = try PaywallBinary.run(["validate", dir])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let warned = result.stdout.split(separator: "\n").filter { $0.hasSuffix("[option-no-effect]") }
    #expect(warned.count == 6, "\(result.stdout)")
    #expect(result.stdout.contains("warning: 'shouldPreload' (PaywallOptions.shouldPreload) has no effect here: paywalls are read from the project's files"), "\(result.stdout)")
    #expect(result.stdout.contains("'transactionBackgroundView' (PaywallOptions.transactionBackgroundView) has no effect here"), "\(result.stdout)")
    #expect(result.stdout.contains("'eventTrackingBehavior' (SuperwallOptions.eventTrackingBehavior) has no effect here"), "\(result.stdout)")
    for followed in ["storeKitVersion", "shouldObservePurchases", "automaticallyDismiss"] {
      #expect(!result.stdout.contains("'\(followed)'"), "\(result.stdout)")
    }
  }

  /// `notificationPermissionsDenied` is followed (the alert a refused trial reminder shows): no
  /// "no effect" warning, its keys checked; Superwall-Android has no such option. Before, every
  /// project that set it was told it did nothing.
  @Test func theNotificationDeniedAlertIsFollowedAndItsKeysChecked() throws {
    let good = try Self.options(#"{"notificationPermissionsDenied": {"title": "Off", "actionButtonTitle": "Settings"}}"#)
    let typo = try Self.options(#"{"notificationPermissionsDenied": {"tittle": "Off"}}"#)
    let android = try Self.options(#"{"platform": "android", "notificationPermissionsDenied": {"title": "Off"}}"#)
    defer { for dir in [good, typo, android] { try? FileManager.default.removeItem(atPath: dir) } }
    let ok = try PaywallBinary.run(["validate", good])
    #expect(ok.status == 0 && !ok.stdout.contains("notificationPermissionsDenied"), "\(ok.stdout)\(ok.stderr)")
    let misspelt = try PaywallBinary.run(["validate", typo])
    #expect(misspelt.status == 1 && misspelt.stdout.contains("'tittle'") && misspelt.stdout.contains("title"), "\(misspelt.stdout)")
    let refused = try PaywallBinary.run(["validate", android])
    #expect(refused.status == 1 && refused.stdout.contains("'notificationPermissionsDenied' is an option of Superwall-iOS"), "\(refused.stdout)")
  }

  /// A key the chosen SDK does not have yet is an error naming the release that added it; a
  /// value of the wrong shape is an error at the key.
  @Test func anOptionOfALaterSDKOrOfTheWrongShapeIsAnError() throws {
    let dir = try Self.options(#"{"sdk": "4.2", "eventTrackingBehavior": "none", "storeKitVersion": "storeKit3", "shouldPreload": "no"}"#)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let result = try PaywallBinary.run(["validate", dir])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("error: 'eventTrackingBehavior' is an option of SDK 4.16 and later (SuperwallOptions.eventTrackingBehavior), not of SDK 4.2 that this project follows ('sdk'): raise 'sdk' or remove the key"), "\(result.stdout)")
    #expect(result.stdout.contains("unknown storeKitVersion 'storeKit3'"), "\(result.stdout)")
    #expect(result.stdout.contains("'shouldPreload' must be true or false"), "\(result.stdout)")
  }

  static let customConfig = #"""
    {"build_id": "b", "log_level": 10, "app_session_timeout_ms": 1, "toggles": [], "disable_preload": {"all": false, "triggers": []},
     "localization": {"locales": []},
     "trigger_options": [{"trigger_version": "V2", "event_name": "upgrade", "rules": [{"experiment_group_id": "1", "experiment_id": "2",
       "expression": null, "expression_js": null, "preload": {"behavior": "ALWAYS"},
       "variants": [{"percentage": 100, "variant_type": "TREATMENT", "variant_id": "3", "paywall_identifier": "web"}]}]}],
     "paywall_responses": [{"id": "1", "identifier": "web", "name": "Web", "cache_key": "k", "build_id": "b", "url": "https://example.com",
       "url_config": {"endpoints": [], "max_attempts": 1}, "paywalljs_event": "", "presentation_style_v3": {"type": "FULLSCREEN"},
       "presentation_delay": 0, "background_color_hex": "#000000",
       "products_v2": [
         {"reference_name": "primary", "store_product": {"store": "CUSTOM", "product_identifier": "web.pro.annual"},
          "entitlements": [{"identifier": "pro", "type": "SERVICE_LEVEL"}]},
         {"reference_name": "secondary", "store_product": {"store": "APP_STORE", "product_identifier": "com.acme.pro.monthly"},
          "entitlements": [{"identifier": "pro", "type": "SERVICE_LEVEL"}]}]}]}
    """#

  /// `import superwall` keeps a CUSTOM product as the SDK decodes it from 4.15.0 (the default is
  /// the latest), and skips it, saying so, with `--sdk 4.14`, writing that version into app.json.
  @Test func importKeepsCustomProductsFromSDK415() throws {
    let work = try Fixtures.directory(["config.json": Self.customConfig])
    defer { try? FileManager.default.removeItem(atPath: work) }
    let catalog = Fixtures.repositoryRoot.path + "/" + Self.project + "/catalog.json"
    let latest = try PaywallBinary.run(["import", "superwall", work + "/config.json", "--catalog", catalog, "--out", work + "/latest"])
    #expect(latest.status == 0, "\(latest.stderr)")
    #expect(!latest.stderr.contains("skipped"), "\(latest.stderr)")
    let paywall = try String(contentsOfFile: work + "/latest/paywalls/web.json", encoding: .utf8)
    #expect(paywall.contains("\"primary\": \"web.pro.annual\""), "\(paywall)")

    let old = try PaywallBinary.run(["import", "superwall", work + "/config.json", "--catalog", catalog, "--out", work + "/old", "--sdk", "4.14"])
    #expect(old.status == 0, "\(old.stderr)")
    #expect(old.stderr.contains("product skipped as the SDK skips it: its store is 'CUSTOM', which SDK 4.14 does not decode (custom store products arrived in 4.15)"), "\(old.stderr)")
    let oldPaywall = try String(contentsOfFile: work + "/old/paywalls/web.json", encoding: .utf8)
    #expect(!oldPaywall.contains("web.pro.annual"), "\(oldPaywall)")
    let app = try String(contentsOfFile: work + "/old/app.json", encoding: .utf8)
    #expect(app.contains("\"sdk\": \"4.14\""), "\(app)")
    let bad = try PaywallBinary.run(["import", "superwall", work + "/config.json", "--catalog", catalog, "--out", work + "/bad", "--sdk", "4.99"])
    #expect(bad.status == 2 && bad.stderr.contains("--sdk: '4.99' is newer than 4.16"), "\(bad.stderr)")
  }
}
