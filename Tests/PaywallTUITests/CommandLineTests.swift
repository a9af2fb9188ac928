import Foundation
import PaywallModel
@testable import PaywallCLI
import PaywallScenarios
import PaywallTesting
import Testing

/// The real `paywall-tui` binary, run as a user runs it: exit codes, stdout and stderr.
@Suite("Command line")
struct CommandLineTests {
  /// SDK 4's `PurchaseResult` has no `restored`: `--outcome purchase=restored` and a script's
  /// `answer purchase restored` are usage errors naming the version, the place and the fix; SDK 3 keeps them.
  @Test func restoredIsRefusedOnSDK4() throws {
    let outcome = try PaywallBinary.run(["play", "paywalls", "--controller", "scripted", "--outcome", "purchase=restored", "--keys", "enter"])
    #expect(outcome.status == 2, "\(outcome.stderr)")
    #expect(outcome.stderr == "error: --outcome purchase=restored: SDK 4 (app.json's options.sdk, or the default) has no restored purchase result, only SDK 3's PurchaseResult has it; use purchase=purchased, or --sdk 3\n")
    let option = try PaywallBinary.run(["play", "paywalls", "--sdk", "4.2", "--controller", "scripted", "--outcome", "purchase=restored", "--keys", "enter"])
    #expect(option.status == 2 && option.stderr.contains("SDK 4.2 (--sdk)"), "\(option.stderr)")
    let directory = try Fixtures.directory(["restored.play": "press enter\nanswer purchase restored 0ms\n"])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let script = directory + "/restored.play"
    let answered = try PaywallBinary.run(["play", "paywalls", "--status", "active:pro", "--script", script])
    #expect(answered.status == 2, "\(answered.stderr)")
    #expect(answered.stderr.hasPrefix("error: \(script):2: 'answer purchase restored 0ms': SDK 4 ") && answered.stderr.contains("--sdk 3"), "\(answered.stderr)")
    let v3 = try PaywallBinary.run(["play", "paywalls", "--sdk", "3", "--controller", "scripted", "--outcome", "purchase=restored", "--status", "active:pro", "--keys", "enter"])
    #expect(v3.status == 0 && v3.stdout.contains("transaction_restore"), "\(v3.stderr)")
  }

  @Test func binaryIsBuilt() {
    #expect(FileManager.default.isExecutableFile(atPath: PaywallBinary.binary.path), "build with `swift build --build-tests` first")
  }

  @Test func validateBundledDemoSucceeds() throws {
    let result = try PaywallBinary.run(["validate", "paywalls", "paywalls/acme.storekit"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    // Only warnings: the demo's onboarding and plans paywalls show trial copy over products without
    // a trial, as the SDK does, and validate says so.
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 2 && lines.allSatisfy { $0.contains(": warning: the free-trial texts show whenever") }, "\(result.stdout)")
    #expect(lines.first?.hasPrefix("paywalls/onboarding.json:5:15: warning:") == true)
    #expect(result.stderr.contains("ok: paywalls: 3 paywalls, 5 products"))
  }

  @Test func threePlantedMistakesGiveThreeLinesAndExitOne() throws {
    let paywall = """
      {
        "id": "broken",
        "name": "Broken",
        "products": { "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly" },
        "components": [
          { "type": "title", "text": "Hello {{ products.primary.prise }}" },
          { "type": "buton", "label": "Go", "action": "purchase" },
          { "type": "button", "label": "Go", "action": "purchse" }
        ]
      }
      """
    let dir = try Fixtures.directory(["catalog.json": acmeCatalogJSON, "broken.json": paywall])
    let file = dir + "/broken.json"
    let result = try PaywallBinary.run(["validate", file])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines == [
      "\(file):6:39: error: unknown product attribute 'prise' in '{{ products.primary.prise }}'; did you mean 'price'? ($.components[0].text)",
      "\(file):7:15: error: unknown component type 'buton'; did you mean 'button'? (expected one of 'title', 'text', 'features', 'products', 'button', 'divider', 'spacer', 'art') ($.components[1].type)",
      "\(file):8:50: error: unknown action 'purchse'; did you mean 'purchase'? (expected one of 'purchase', 'restore', 'close', 'select', 'placement') ($.components[2].action)",
    ])
    #expect(result.stderr.contains("3 errors found"))
  }

  /// Issue 17 (polish): "has 1 problem; fix them".
  @Test func oneProblemIsSingular() throws {
    let dir = try Fixtures.directory(["catalog.json": acmeCatalogJSON, "bad.json": "{\n  \"id\": \"x\",\n  \"name\": \"X\"\n  \"components\": []\n}\n"])
    let result = try PaywallBinary.run(["render", dir + "/bad.json"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("has 1 problem; fix it or run"), "\(result.stderr)")
    #expect(!result.stderr.contains("fix them"))
  }

  /// "1 paywall, 1 products" read as wrong as "has 1 problem; fix them".
  @Test func oneProductIsSingular() throws {
    let catalog = #"{"products": [{"id": "com.acme.one", "name": "One", "price": "1.99", "period": "P1M", "entitlements": ["pro"]}]}"#
    let paywall = #"{"id": "one", "name": "One", "products": {"primary": "com.acme.one"}, "components": [{"type": "products"}, {"type": "button", "label": "Go", "action": "purchase"}, {"type": "button", "label": "Restore", "action": "restore"}, {"type": "button", "label": "Close", "action": "close"}]}"#
    let dir = try Fixtures.directory(["catalog.json": catalog, "one.json": paywall])
    let result = try PaywallBinary.run(["validate", dir + "/one.json"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains(": 1 paywall, 1 product\n"), "\(result.stderr)")
  }

  @Test func malformedJSONGivesTheSyntaxErrorPosition() throws {
    let dir = try Fixtures.directory(["catalog.json": acmeCatalogJSON, "bad.json": "{\n  \"id\": \"x\",\n  \"name\": \"X\"\n  \"components\": []\n}\n"])
    let result = try PaywallBinary.run(["validate", dir + "/bad.json"])
    #expect(result.status == 1)
    #expect(result.stdout == "\(dir)/bad.json:3:14: error: invalid JSON: expected ',' or '}' after the value of \"name\", found end of line\n"
      || result.stdout.hasPrefix("\(dir)/bad.json:4:3: error: invalid JSON: expected ',' or '}'"), "\(result.stdout)")
    #expect(!result.stdout.contains("NSCocoaErrorDomain") && !result.stderr.contains("Fatal"))
  }

  @Test func renderPrintsTheFrameAtTheRequestedSize() throws {
    let result = try PaywallBinary.run(["render", "paywalls/onboarding.json", "--size", "60x20", "--color", "never"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 20)
    #expect(lines.contains { $0.contains("Unlock Acme Pro") })
    #expect(!result.stdout.contains("\u{1B}"))
  }

  @Test func renderColorAlwaysWritesANSI() throws {
    let result = try PaywallBinary.run(["render", "paywalls/onboarding.json", "--color", "always"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("\u{1B}[0;1m"))
  }

  @Test func renderStorekitWithOverride() throws {
    let result = try PaywallBinary.run(["render", "paywalls/onboarding.json", "--catalog", "paywalls/acme.storekit",
                               "--override", "primary=com.acme.pro.weekly"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("$4.99/week"))
    #expect(!result.stdout.contains("$59.99/year"))
  }

  /// Issue 17, item 10: `render` draws a picture for a reviewer, so an override it cannot apply is
  /// an error (exit 1, no picture); `play` and `run` ignore it with a warning, as the SDK does.
  @Test func overrideWithUnknownProductFailsRenderAndWarnsInPlay() throws {
    let render = try PaywallBinary.run(["render", "paywalls", "--override", "primary=com.acme.pro.anual"])
    #expect(render.status == 1)
    #expect(render.stderr.contains("error: override primary=com.acme.pro.anual: no product 'com.acme.pro.anual' in the catalog; did you mean 'com.acme.pro.annual'?"))
    #expect(render.stdout.isEmpty)
    let slot = try PaywallBinary.run(["render", "paywalls", "--override", "primry=com.acme.pro.annual"])
    #expect(slot.status == 1 && slot.stderr.contains("has no slot 'primry'; did you mean 'primary'?"), "\(slot.stderr)")
    let play = try PaywallBinary.run(["play", "paywalls", "--override", "primary=com.acme.pro.anual", "--keys", "1"])
    #expect(play.status == 0, "\(play.stderr)")
    #expect(play.stderr.contains("keeps com.acme.pro.annual"), "\(play.stderr)")
  }

  @Test(arguments: [
    ["render", "paywalls", "--size", "80by24"],
    ["render", "paywalls", "--select", "primry"],
    ["render", "paywalls", "--paywall", "onboardng"],
    ["render", "paywalls", "--override", "primary"],
    ["render", "paywalls", "--color", "sometimes"],
    ["validate"],
    ["frobnicate", "--nope"],
  ])
  func usageErrorsExitTwo(arguments: [String]) throws {
    let result = try PaywallBinary.run(arguments)
    #expect(result.status == 2, "\(arguments): \(result.stderr)")
    #expect(!result.stderr.isEmpty)
    #expect(result.stdout.isEmpty)
  }

  /// A 5,000-character token: what a message may quote of it is 59 characters and "…".
  static let longToken = String(repeating: "q", count: 5000)

  /// Every line of `stderr` is one readable line that quotes `longToken` as an excerpt, never whole.
  static func expectExcerpted(_ stderr: String, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(!stderr.isEmpty, "\(what): nothing on stderr", sourceLocation: sourceLocation)
    for line in stderr.split(separator: "\n") {
      #expect(line.count < 500, "\(what): a \(line.count)-character line", sourceLocation: sourceLocation)
    }
    #expect(!stderr.contains(String(repeating: "q", count: UntrustedText.excerptLimit + 1)), "\(what): the token is echoed",
            sourceLocation: sourceLocation)
    #expect(stderr.contains(String(repeating: "q", count: UntrustedText.excerptLimit - 10) + "…"), "\(what): \(stderr.prefix(300))",
            sourceLocation: sourceLocation)
  }

  /// Issue 14 item 13: an error or warning quoting what the user typed caps it at 60 characters.
  @Test(arguments: [
    ["render", "paywalls", "--size", "LONG"],
    ["render", "paywalls", "--select", "LONG"],
    ["render", "paywalls", "--paywall", "LONG"],
    ["render", "paywalls", "--override", "LONG"],
    ["render", "paywalls", "--override", "LONG=com.acme.pro.annual"],
    ["render", "paywalls", "--override", "primary=LONG"],
    ["render", "paywalls", "--color", "LONG"],
    ["render", "paywalls", "LONG"],
    ["render", "paywalls", "--LONG"],
    ["render", "paywalls", "--LONG=x"],
    ["store", "paywalls", "--at", "LONG"],
    ["explain", "paywalls", "onboarding", "--status", "LONG"],
    ["explain", "paywalls", "onboarding", "--user", "LONG"],
    ["help", "LONG"],
  ])
  func aLongTokenIsQuotedAsAnExcerpt(arguments: [String]) throws {
    let state = Scratch.root.appendingPathComponent("long-\(UUID().uuidString)").path
    var given = arguments.map { $0.replacingOccurrences(of: "LONG", with: Self.longToken) }
    if ["store", "explain"].contains(arguments[0]) { given += ["--state-dir", state] }
    let result = try PaywallBinary.run(given)
    Self.expectExcerpted(result.stderr, arguments.joined(separator: " "))
  }

  @Test func missingFileIsOneClearLine() throws {
    let result = try PaywallBinary.run(["render", "nowhere/paywall.json"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("nowhere/paywall.json:1:1: error: no such file or directory"))
  }

  @Test func runWithoutATerminalExitsWithCode3AndPointsAtRenderAndPlay() throws {
    let result = try PaywallBinary.run([])
    #expect(result.status == 3)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("needs a terminal") && result.stderr.contains("paywall-tui render") && result.stderr.contains("paywall-tui play"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  // MARK: - explain and the option parser

  @Test func explainSaysWhichAudienceMatchedAndWhy() throws {
    let dir = Scratch.root.appendingPathComponent("explain-\(UUID().uuidString)").path
    let at12 = try PaywallBinary.run(["explain", "paywalls", "power_user_offer", "--user", "should_display=true", "--user", "some_value=12",
                             "--state-dir", dir])
    #expect(at12.status == 0, "\(at12.stderr)")
    #expect(at12.stdout.contains("no match because user.should_display is true, user.some_value is 12"))
    #expect(at12.stdout.contains("→ skipped (noAudienceMatch); the feature runs"))
    let at13 = try PaywallBinary.run(["explain", "paywalls", "power_user_offer", "--user", "should_display=true", "--user", "some_value=13",
                             "--state-dir", dir])
    #expect(at13.stdout.contains("→ presents paywall 'winback'"))
    // The subscriber rule is v3's (--sdk 3); v4, the default, has none, and explain says which applied.
    let subscriber = try PaywallBinary.run(["explain", "paywalls", "settings_upgrade", "--status", "active", "--sdk", "3", "--state-dir", dir])
    #expect(subscriber.stdout.contains("→ skipped (userIsSubscribed)"), "\(subscriber.stdout)")
    #expect(subscriber.stdout.contains("(SDK v3: an active user is skipped, userIsSubscribed"), "\(subscriber.stdout)")
    let v4 = try PaywallBinary.run(["explain", "paywalls", "settings_upgrade", "--status", "active", "--state-dir", dir])
    #expect(v4.stdout.contains("→ presents paywall 'plans'"), "\(v4.stdout)")
    #expect(v4.stdout.contains("(SDK v4 (latest: 4.16): no subscriber rule"), "\(v4.stdout)")
    let badSDK = try PaywallBinary.run(["explain", "paywalls", "settings_upgrade", "--sdk", "v3", "--state-dir", dir])
    #expect(badSDK.status == 2)
    #expect(badSDK.stderr.contains("--sdk 'v3' is not an SDK version (did you mean '3'?)"), "\(badSDK.stderr)")
    let unknown = try PaywallBinary.run(["explain", "paywalls", "onbording", "--state-dir", dir])
    #expect(unknown.stdout.contains("no campaign; did you mean 'onboarding'?"))
    let usage = try PaywallBinary.run(["explain", "paywalls"])
    #expect(usage.status == 2)
    #expect(usage.stderr == "error: 'explain' needs <placement>; see 'paywall-tui explain --help'\n")
  }

  /// Issue 18 item 3: a rule the emulator cannot evaluate is never silently true or false. `play`
  /// fails with one line naming the rule and `--assume-rule`; `explain` shows both answers and
  /// exits 1; with `--assume-rule` both go on as told.
  @Test func anUnsupportedRuleMustBeDecided() throws {
    let project = "scenarios/projects/audience-rules"
    let scripts = try Fixtures.directory(["open.play": "expect event paywall_open paywall_id=onboarding\n"])
    let script = scripts + "/open.play"
    let undecided = try PaywallBinary.run(["play", project, "--status", "inactive", "--placement", "js_rule", "--script", script])
    #expect(undecided.status == 1)
    #expect(undecided.stderr.hasSuffix("\n--placement js_rule: audience 1 of placement 'js_rule' has a rule in expression_js ('user.plan === 'free''), which the emulator cannot evaluate; decide it with --assume-rule js_rule#0=match or js_rule#0=nomatch\n"), "\(undecided.stderr)")
    #expect(!undecided.stdout.contains("trigger_fire"), "nothing ran")
    let matched = try PaywallBinary.run(["play", project, "--status", "inactive", "--placement", "js_rule", "--script", script,
                                "--assume-rule", "js_rule#0=match"])
    #expect(matched.status == 0, "\(matched.stderr)")
    let typo = try PaywallBinary.run(["play", project, "--script", script, "--assume-rule", "js_rule#1=match"])
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("error: --assume-rule 'js_rule#1' names no audience with an unsupported rule (rules to decide: js_rule#0; did you mean 'js_rule#0'?)"), "\(typo.stderr)")
    let dir = Scratch.root.appendingPathComponent("explain-\(UUID().uuidString)").path
    let explained = try PaywallBinary.run(["explain", project, "js_rule", "--state-dir", dir])
    #expect(explained.status == 1)
    #expect(explained.stdout.contains("  with --assume-rule js_rule#0=match: → presents paywall 'onboarding'\n  with --assume-rule js_rule#0=nomatch: → presents paywall 'plans'"), "\(explained.stdout)")
    let decided = try PaywallBinary.run(["explain", project, "js_rule", "--state-dir", dir, "--assume-rule", "js_rule#0=nomatch"])
    #expect(decided.status == 0)
    #expect(decided.stdout.contains("→ presents paywall 'plans'"), "\(decided.stdout)")
  }

  /// Issue 16 item 8 and SDK UI tests T28–T32: `explain --json` answers what the SDK's
  /// `getPresentationResult(forPlacement:params:)` returns (Paywall/Presentation/Get Presentation
  /// Result/), read with JSONSerialization, and writes no assignment.
  @Test func explainJSONIsTheSDKsPresentationResult() throws {
    let dir = Scratch.root.appendingPathComponent("explain-json-\(UUID().uuidString)").path
    func result(_ arguments: [String]) throws -> [String: Any] {
      let output = try PaywallBinary.run(["explain", "paywalls"] + arguments + ["--json", "--state-dir", dir])
      #expect(output.status == 0, "\(output.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
      return try #require(object?["result"] as? [String: Any], "\(output.stdout)")
    }
    // T28: paywall(experiment), with the variant's paywall id.
    let paywall = try result(["onboarding"])
    #expect(paywall["type"] as? String == "paywall")
    let experiment = try #require(paywall["experiment"] as? [String: Any])
    let variant = try #require(experiment["variant"] as? [String: Any])
    #expect(variant["paywallId"] as? String == "onboarding" && variant["type"] as? String == "TREATMENT")
    #expect(experiment["id"] is String && experiment["groupId"] is String)
    // T29: no audience matches (the user attributes are unset).
    #expect(try result(["power_user_offer"])["type"] as? String == "noAudienceMatch")
    // T30: a placement with no campaign.
    #expect(try result(["some_random_not_found_event"])["type"] as? String == "placementNotFound")
    // T31: the holdout, with its experiment (variant type HOLDOUT, no paywall).
    let holdout = try result(["beta_sync"])
    #expect(holdout["type"] as? String == "holdout")
    let held = try #require((holdout["experiment"] as? [String: Any])?["variant"] as? [String: Any])
    #expect(held["type"] as? String == "HOLDOUT" && held["paywallId"] is NSNull)
    // The experiment is named as trigger_fire names it (found by review: explain said beta_sync#audience-1).
    #expect((holdout["experiment"] as? [String: Any])?["id"] as? String == "beta_sync#0")
    // T32: a subscribed user. v4 has no subscriber rule, so the audience decides (its filter wants
    // INACTIVE: noAudienceMatch); v3 answers userIsSubscribed, and spells the others its own way.
    #expect(try result(["onboarding", "--status", "active"])["type"] as? String == "noAudienceMatch")
    #expect(try result(["onboarding", "--status", "active", "--sdk", "3"])["type"] as? String == "userIsSubscribed")
    #expect(try result(["some_random_not_found_event", "--sdk", "3"])["type"] as? String == "eventNotFound")
    #expect(try result(["power_user_offer", "--sdk", "3"])["type"] as? String == "noRuleMatch")
    // The status never arrives: paywallNotAvailable (subscriptionStatusTimeout).
    #expect(try result(["onboarding", "--status", "unknown"])["type"] as? String == "paywallNotAvailable")
    // Nothing was written: no assignment file in the state directory.
    let written = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    #expect(written.isEmpty, "\(written)")
  }

  @Test func usageErrorsAreOneLineWithExitCode2() throws {
    let typo = try PaywallBinary.run(["render", "paywalls", "--colour", "never"])
    #expect(typo.status == 2)
    #expect(typo.stderr == "error: unknown option '--colour' for 'render' (did you mean '--color'?); see 'paywall-tui render --help'\n")
    let help = try PaywallBinary.run(["help", "play"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: paywall-tui play <path> [options]") && help.stdout.contains("--user <key=value>"))
    let root = try PaywallBinary.run(["--help"])
    #expect(root.stdout.contains("explain") && root.stdout.contains("run (default)"))
  }
}

// MARK: - Issue 17: cascading errors, CLI conventions, scripts from pipes

extension CommandLineTests {
  @Test func theCascadeProjectIsValid() throws {
    let dir = try CascadeProject.directory()
    let result = try PaywallBinary.run(["validate", dir])
    #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
  }

  /// One paywall that is not JSON: its error once, and each campaign naming it says the file
  /// failed (after it). Before: `app.json:6:56: error: no paywall 'main' in this project (paywalls: other)`,
  /// listed before the cause, twice, and counted as three errors.
  @Test func aBrokenPaywallIsReportedOnceAndTheCampaignsNamingItSaySo() throws {
    let broken = CascadeProject.paywall("main", product: "pro.annual").replacingOccurrences(of: "\"id\": \"main\",", with: "\"id\": \"main\",,")
    let dir = try CascadeProject.directory(["main.json": broken])
    let result = try PaywallBinary.run(["validate", dir])
    #expect(result.status == 1)
    // Typed apart: as one `#expect` the literal took seconds to type-check.
    let printed: [String] = result.stdout.split(separator: "\n").map(String.init)
    let expected: [String] = [
      "\(dir)/main.json:2:16: error: invalid JSON: expected a quoted key, found ','",
      "\(dir)/app.json:6:56: error: no paywall 'main': main.json failed to load, see above ($.campaigns[0].audiences[0].paywall)",
      "\(dir)/app.json:7:80: error: no paywall 'main': main.json failed to load, see above ($.campaigns[1].audiences[1].paywall)",
    ]
    #expect(printed == expected, "\(result.stdout)")
    #expect(result.stderr == "1 error found (2 more follow from it)\n")
  }

  /// A paywall that is JSON but invalid: the campaign knows its id from the file and says so.
  @Test func anInvalidPaywallIsNamedByItsFileInTheCampaigns() throws {
    let invalid = CascadeProject.paywall("other", product: "pro.monthly").replacingOccurrences(of: "\"button\", \"label\": \"Continue\"", with: "\"buton\", \"label\": \"Continue\"")
    let dir = try CascadeProject.directory(["other.json": invalid])
    let result = try PaywallBinary.run(["validate", dir])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(result.stdout)")
    #expect(lines.first?.hasPrefix("\(dir)/other.json:8:15: error: unknown component type 'buton'; did you mean 'button'?") == true)
    #expect(lines.last == "\(dir)/app.json:7:56: error: no paywall 'other': other.json failed to load, see above ($.campaigns[1].audiences[0].paywall)")
    #expect(result.stderr == "1 error found (1 more follows from it)\n")
  }

  /// A product that fails to load: its error once; the slot naming it, the paywall with that
  /// slot (in the campaigns) and the override naming it each say so, in the order they follow.
  /// Before: "slot 'primary' names 'pro.annual', which is not in the catalog", then "no paywall
  /// 'main' in this project (paywalls: other)" twice, and the override line.
  @Test func aProductThatFailsIsReportedOnceAndEveryReferenceSaysSo() throws {
    let catalog = CascadeProject.catalog.replacingOccurrences(of: "\"59.99\"", with: "\"59,99\"")
    let dir = try CascadeProject.directory(["catalog.json": catalog])
    let result = try PaywallBinary.run(["validate", dir])
    #expect(result.status == 1)
    // Typed apart: as one `#expect` the literal took seconds to type-check.
    let printed: [String] = result.stdout.split(separator: "\n").map(String.init)
    let expected: [String] = [
      "\(dir)/catalog.json:3:54: error: 'price' must be a non-negative decimal such as \"4.99\", found \"59,99\" ($.products[0].price)",
      "\(dir)/main.json:4:28: error: slot 'primary' names 'pro.annual': its definition in \(dir)/catalog.json failed to load, see above ($.products.primary)",
      "\(dir)/app.json:6:56: error: no paywall 'main': main.json failed to load, see above ($.campaigns[0].audiences[0].paywall)",
      "\(dir)/app.json:7:80: error: no paywall 'main': main.json failed to load, see above ($.campaigns[1].audiences[1].paywall)",
      "\(dir)/app.json:9:55: error: overrideProductsByName: 'pro.annual': its definition in \(dir)/catalog.json failed to load, see above ($.options.overrideProductsByName.primary)",
    ]
    #expect(printed == expected, "\(result.stdout)")
    #expect(result.stderr == "1 error found (4 more follow from it)\n")
    // Every command that loads the project counts the problem once.
    let play = try PaywallBinary.run(["play", dir, "--keys", "q", "--state-dir", dir + "/state"])
    #expect(play.status == 1)
    #expect(play.stderr.hasSuffix("error: \(dir) has 1 problem; fix it or run 'paywall-tui validate \(dir)'\n"), "\(play.stderr)")
  }

  /// A duplicate product id is one error: the first definition stays, so nothing that names the
  /// product is touched by it.
  @Test func aDuplicateProductIDIsOneError() throws {
    let catalog = CascadeProject.catalog.replacingOccurrences(
      of: "\"P1M\" }", with: "\"P1M\" },\n    { \"id\": \"pro.annual\", \"name\": \"Again\", \"price\": \"1.99\", \"period\": \"P1Y\" }")
    let dir = try CascadeProject.directory(["catalog.json": catalog])
    let result = try PaywallBinary.run(["validate", dir])
    #expect(result.stdout == "\(dir)/catalog.json:5:13: error: duplicate product id 'pro.annual' (first defined at line 3) ($.products[2].id)\n")
    #expect(result.stderr == "1 error found\n")
  }

  /// A paywall file app.json lists that does not exist: a campaign naming the paywall of the same
  /// name says the file failed; one naming an id no file can hold is still "no paywall".
  @Test func aMissingPaywallFileIsNamedInTheCampaigns() throws {
    let app = CascadeProject.app.replacingOccurrences(of: "\"paywall\": \"other\"", with: "\"paywall\": \"othr\"")
    let dir = try CascadeProject.directory(["app.json": app, "main.json": ""])
    try FileManager.default.removeItem(atPath: dir + "/main.json")
    let result = try PaywallBinary.run(["validate", dir])
    // Typed apart: as one `#expect` the literal took seconds to type-check.
    let printed: [String] = result.stdout.split(separator: "\n").map(String.init)
    let expected: [String] = [
      "\(dir)/app.json:4:16: error: paywall file 'main.json' does not exist (looked for \(dir)/main.json) ($.paywalls[0])",
      "\(dir)/app.json:7:56: error: no paywall 'othr' in this project; did you mean 'other'? (paywalls: other) ($.campaigns[1].audiences[0].paywall)",
      "\(dir)/app.json:6:56: error: no paywall 'main': main.json failed to load, see above ($.campaigns[0].audiences[0].paywall)",
      "\(dir)/app.json:7:79: error: no paywall 'main': main.json failed to load, see above ($.campaigns[1].audiences[1].paywall)",
    ]
    #expect(printed == expected, "\(result.stdout)")
    #expect(result.stderr == "2 errors found (2 more follow from them)\n")
  }

  @Test func versionIsPrintedAndShownInHelp() throws {
    let version = try PaywallBinary.run(["--version"])
    #expect(version.status == 0 && version.stderr.isEmpty)
    #expect(version.stdout == "paywall-tui \(PaywallCommand.version)\n")
    #expect(version.stdout.wholeMatch(of: /paywall-tui 0\.\d+\.\d+\n/) != nil, "\(version.stdout)")
    let help = try PaywallBinary.run(["help"])
    #expect(help.stdout.hasPrefix("OVERVIEW: paywall-tui \(PaywallCommand.version), "), "\(help.stdout)")
    #expect(help.stdout.contains("  --version "))
    #expect(try PaywallBinary.run(["--version", "x"]).status == 2)
  }

  /// A mistyped subcommand is a usage error with a did-you-mean, never a project path handed to
  /// `run`. Before: "error: unexpected argument 'x' for 'run'" (and, alone, "run needs a terminal").
  @Test(arguments: [(["valdate", "x"], "error: unknown command 'valdate'; did you mean 'validate'?\n"),
                    (["valdate"], "error: unknown command 'valdate'; did you mean 'validate'?\n"),
                    (["rendr", "paywalls"], "error: unknown command 'rendr'; did you mean 'render'?\n"),
                    (["hlep"], "error: unknown command 'hlep'; did you mean 'help'?\n"),
                    (["frobnicate"], "error: unknown command 'frobnicate', and no file or directory of that name (commands: run, validate, render, play, explain, store, help); see 'paywall-tui help'\n")])
  func aMistypedSubcommandGetsDidYouMean(arguments: [String], message: String) throws {
    let result = try PaywallBinary.run(arguments)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == message.replacingOccurrences(of: "commands: run, validate, render, play, explain, store, help",
                                                          with: "commands: \((PaywallCommand.subcommands.map { $0.spec.name } + ["help"]).joined(separator: ", "))"))
  }

  /// Every subcommand's help ends with examples that run the command it documents; the root help
  /// has some too, and `store --help` has no stray backslash from a line continuation.
  @Test func everyHelpHasExamples() throws {
    for command in PaywallCommand.subcommands {
      let name = command.spec.name
      let result = try PaywallBinary.run([name, "--help"])
      let examples = result.stdout.components(separatedBy: "\nEXAMPLES:\n").dropFirst().first ?? ""
      let lines = examples.split(separator: "\n")
      #expect(!lines.isEmpty, "'\(name) --help' has no EXAMPLES section")
      #expect(lines.allSatisfy { $0.hasPrefix("  paywall-tui \(name) ") || $0.hasPrefix("  paywall-tui ") || $0.contains("| paywall-tui \(name) ") },
              "\(examples)")
      #expect(!result.stdout.contains("\\\n") && !result.stdout.contains("\\ "), "\(name): \(result.stdout)")
    }
    #expect(try PaywallBinary.run(["--help"]).stdout.contains("\nEXAMPLES:\n  paywall-tui "))
    let store = try PaywallBinary.run(["store", "--help"]).stdout
    #expect(store.contains("with the rules the last session ran with"), "\(store)")
  }

  /// `help script` lists the whole script language, one command a line, from the same table as
  /// docs/reference/script.md's; that table is this one, and every command the parser knows is in it.
  @Test func helpScriptAndTheReferenceShowTheSameScriptLanguage() throws {
    let doc = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/reference/script.md"), encoding: .utf8)
    let lines = doc.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex(of: "| command | does |"), "docs/reference/script.md has no script table")
    let table = lines[start...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
    #expect(table == ScriptLanguage.markdown, "docs/reference/script.md's table differs from ScriptLanguage.rows; it should read:\n\(ScriptLanguage.markdown)")
    let help = try PaywallBinary.run(["help", "script"])
    #expect(help.status == 0)
    let shown = help.stdout.components(separatedBy: "\n")
    for row in ScriptLanguage.rows {
      let syntax = ScriptLanguage.plain(row.syntax)
      let does = ScriptLanguage.plain(row.does)
      #expect(shown.contains { $0.hasPrefix("  \(syntax) ") && $0.hasSuffix("  \(does)") }, "help script lacks: \(syntax)")
    }
    #expect(!help.stdout.contains("`") && help.stdout.contains("  status unknown|inactive|active|active:ENT,…"))
    // Every command the parser accepts is documented (by its first word in a row's syntax).
    let documented = Set(ScriptLanguage.rows.flatMap { row in
      ScriptLanguage.plain(row.syntax).components(separatedBy: " / ").compactMap { $0.split(separator: " ").first.map(String.init) }
    })
    #expect(Set(PlayScript.commands).subtracting(documented).isEmpty, "\(Set(PlayScript.commands).subtracting(documented))")
    // `play --help` points at it instead of the docs.
    #expect(try PaywallBinary.run(["play", "--help"]).stdout.contains("'paywall-tui help script'"))
  }

  /// `--script` reads from a pipe as well as from `-`: `/dev/stdin` in a pipeline and `<(…)`.
  /// Before: "/dev/stdin:1:1: error: is not a regular file (a named pipe); give the path of a JSON file".
  @Test(arguments: [#"printf 'press enter\nexpect status active\n' | "$BIN" play paywalls --controller scripted --state-dir "$S" --script -"#,
                    #"printf 'press enter\nexpect status active\n' | "$BIN" play paywalls --controller scripted --state-dir "$S" --script /dev/stdin"#,
                    #""$BIN" play paywalls --controller scripted --state-dir "$S" --script <(printf 'press enter\nexpect status active\n')"#,
                    #""$BIN" play paywalls --controller scripted --state-dir "$S" --script /dev/stdin < <(printf 'press enter\nexpect status active\n')"#])
  func aScriptIsReadFromAPipe(command: String) throws {
    let state = try Fixtures.directory([:])
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/bash"), ["-c", command],
                                environment: ["BIN": PaywallBinary.binary.path, "S": state])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("{\"status\":\"active\",\"entitlements\":[\"pro\"]}\n"), "\(result.stdout)")
  }

  /// A named pipe is read when something writes to it; one nothing writes to is refused at once,
  /// never waited on, and a device other than the terminal is still refused.
  @Test func aScriptFromANamedPipeIsReadAndOneWithNoWriterOrADeviceNeverWaits() throws {
    let dir = try Fixtures.directory([:])
    let fifo = dir + "/script"
    #expect(mkfifo(fifo, 0o600) == 0)
    let written = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/bash"),
                                 ["-c", #"printf 'press enter\nexpect status active\n' > "$F" & "$BIN" play paywalls --controller scripted --state-dir "$S" --script "$F"; wait"#],
                                 environment: ["BIN": PaywallBinary.binary.path, "S": dir + "/state", "F": fifo])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.hasSuffix("{\"status\":\"active\",\"entitlements\":[\"pro\"]}\n"), "\(written.stdout)")
    let unwritten = try PaywallBinary.run(["play", "paywalls", "--state-dir", dir + "/state", "--script", fifo])
    #expect(unwritten.status == 2)
    #expect(unwritten.stderr == "\(fifo):1:1: error: is not a regular file (a named pipe) and nothing writes to it; start the writer first, or give a file or - for standard input\n",
            "\(unwritten.stderr)")
    let device = try PaywallBinary.run(["play", "paywalls", "--state-dir", dir + "/state", "--script", "/dev/zero"])
    #expect(device.status == 2)
    #expect(device.stderr == "/dev/zero:1:1: error: is not a regular file (a character device); give a file, a pipe, or - for standard input\n", "\(device.stderr)")
  }
}

/// Found by review: `explain --json` with a rule the emulator cannot evaluate printed nothing.
@Suite("explain --json and undecided rules")
struct ExplainUndecidedJSONTests {
  @Test func theQuestionAndBothAnswersAreJSON() throws {
    let result = try PaywallBinary.run(["explain", "scenarios/projects/audience-rules", "js_rule", "--status", "inactive", "--json"])
    #expect(result.status == 1)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let undecided = try #require(object?["undecided"] as? [String: Any], "\(result.stdout)")
    #expect(undecided["rule"] as? String == "js_rule#0" && undecided["kind"] as? String == "expression_js")
    let answers = try #require(object?["withAssumeRule"] as? [String: Any])
    #expect(Set(answers.keys) == ["js_rule#0=match", "js_rule#0=nomatch"])
    let match = try #require((answers["js_rule#0=match"] as? [String: Any])?["result"] as? [String: Any])
    #expect(match["type"] as? String == "paywall")
  }
}

// MARK: - The parameters an implicit placement's audiences read

extension CommandLineTests {
  /// A project of the demo's catalog, onboarding and win-back paywalls, and `campaigns`, one a
  /// line: written so the first campaign is line 7 of app.json and each starts at column 5, which
  /// the warnings' positions below count on.
  static func implicitParamsProject(campaigns: String) throws -> String {
    let demo = Fixtures.demoDirectory
    let lines = campaigns.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
    let app = """
    {
      "name": "implicit params",
      "ignore": ["trial-copy"],
      "catalog": "\(demo)/catalog.json",
      "paywalls": ["\(demo)/onboarding.json", "\(demo)/winback.json"],
      "campaigns": [
    \(lines)
      ]
    }
    """
    return try Fixtures.directory(["app.json": app])
  }

  /// A campaign on `transaction_abandon`, `transaction_fail` or `paywall_decline` reads the SDK's
  /// parameters for it (`TrackingLogic.processParameters`, `PaywallInfo.audienceFilterParams()`):
  /// a key it never gives, such as the event's own `product_id`, is a warning at its column that
  /// says what to write; the keys it gives pass, and a register's params are the app's own.
  @Test func validateFlagsParamsTheSDKDoesNotGiveAnImplicitPlacement() throws {
    let dir = try Self.implicitParamsProject(campaigns: """
      { "placement": "onboarding", "audiences": [{ "filter": "params.product_id == \\"x\\"", "paywall": "onboarding" }] },
      { "placement": "transaction_abandon", "audiences": [{ "filter": "params.product_id == \\"com.acme.pro.annual\\"", "paywall": "winback" }] },
      { "placement": "transaction_fail", "audiences": [{ "filter": "params.paywall_id == \\"onboarding\\" && params.message == \\"x\\"", "paywall": "winback" }] },
      { "placement": "paywall_decline", "audiences": [{ "filter": "params.feature_gating == \\"GATED\\" && params.primary_product_id != \\"\\" && params[\\"$paywall_id\\"] == \\"onboarding\\"", "paywall": "winback" }] }
      """)
    let result = try PaywallBinary.run(["validate", dir])
    #expect(result.status == 0, "\(result.stderr)")
    // Typed apart: as one `#expect` the literal took seconds to type-check.
    let printed: [String] = result.stdout.split(separator: "\n").map(String.init)
    let expected: [String] = [
      "\(dir)/app.json:8:70: warning: filter: params.product_id is not a parameter the SDK gives transaction_abandon's audience filters: it reads as missing on a device; the product is abandoned_product_id ($.campaigns[1].audiences[0].filter) [audience-filter]",
      "\(dir)/app.json:9:106: warning: filter: params.message is not a parameter the SDK gives transaction_fail's audience filters: it reads as missing on a device; the SDK gives it as $message: params[\"$message\"] ($.campaigns[2].audiences[0].filter) [audience-filter]",
    ]
    #expect(printed == expected, "\(result.stdout)")
  }
}

extension CommandLineTests {
  /// `explain` evaluates with the params a device gives: a register's carry `event_name` (and
  /// drop a `$` key of the app's); for an implicit placement, a `--param` the SDK never gives its
  /// campaign is named, with the key to use.
  @Test func explainEvaluatesWithTheSDKsParams() throws {
    let dir = try Self.implicitParamsProject(campaigns: """
      { "placement": "export_pdf", "audiences": [{ "filter": "params.event_name == \\"export_pdf\\"", "paywall": "onboarding" }] },
      { "placement": "transaction_abandon", "audiences": [{ "filter": "params.abandoned_product_id == \\"com.acme.pro.annual\\"", "paywall": "winback" }] }
      """)
    let register = try PaywallBinary.run(["explain", dir, "export_pdf"])
    #expect(register.status == 0, "\(register.stderr)")
    #expect(register.stdout.contains("→ presents paywall 'onboarding'"), "\(register.stdout)")
    let wrongKey = try PaywallBinary.run(["explain", dir, "transaction_abandon", "--param", "product_id=com.acme.pro.annual"])
    let lines = wrongKey.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "warning: --param params.product_id is not a parameter the SDK gives transaction_abandon's audience filters: it reads as missing on a device; the product is abandoned_product_id",
            "\(wrongKey.stdout)")
    #expect(!wrongKey.stdout.contains("→ presents"), "\(wrongKey.stdout)")
    let sdkKey = try PaywallBinary.run(["explain", dir, "transaction_abandon", "--param", "abandoned_product_id=com.acme.pro.annual"])
    #expect(sdkKey.stdout.contains("→ presents paywall 'winback'") && !sdkKey.stdout.contains("warning"), "\(sdkKey.stdout)")
  }

  /// A Play rental (`rentOption`) is held for its period: its card says so, where it said
  /// "lifetime access" as a purchase to keep does. The controller hears the period too.
  @Test func aPlayRentalsCardSaysItIsARental() throws {
    let catalog = try String(contentsOfFile: "Examples/android/play-catalog.json", encoding: .utf8)
    let paywall = #"{"id": "p", "name": "P", "products": {"primary": "acme_lifetime:rent-30-days", "secondary": "acme_lifetime:buy"}, "components": [{"type": "products"}]}"#
    let dir = try Fixtures.directory(["play-catalog.json": catalog, "p.json": paywall])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let result = try PaywallBinary.run(["render", dir + "/p.json", "--catalog", dir + "/play-catalog.json", "--color", "never"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("30-day rental") && result.stdout.contains("lifetime access"), "\(result.stdout)")
  }

  /// A rental of mixed units is named in words ("rental: 1 year 2 months"); it read "P1Y2M rental".
  @Test func aRentalOfMixedUnitsIsNamedInWords() throws {
    let catalog = try String(contentsOfFile: "Examples/android/play-catalog.json", encoding: .utf8)
      .replacingOccurrences(of: #""rentalPeriod": "P30D""#, with: #""rentalPeriod": "P1Y2M""#)
    #expect(catalog.contains("P1Y2M"), "the fixture no longer has a 30-day rental")
    let paywall = #"{"id": "p", "name": "P", "products": {"primary": "acme_lifetime:rent-30-days"}, "components": [{"type": "products"}]}"#
    let dir = try Fixtures.directory(["play-catalog.json": catalog, "p.json": paywall])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let result = try PaywallBinary.run(["render", dir + "/p.json", "--catalog", dir + "/play-catalog.json", "--color", "never"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("rental: 1 year 2 months"), "\(result.stdout)")
  }


  /// `explain` reads the device template `play` gives for the project's platform: on Android
  /// `device.platform` is "Android" and the entitlements are `activeEntitlementsObject`. Before,
  /// it read iOS's and contradicted `play`.
  @Test func explainReadsTheProjectsPlatformsDevice() throws {
    let app = try String(contentsOfFile: "Examples/android/app.json", encoding: .utf8)
      .replacingOccurrences(of: #""filter": "!(\"pro\" in device.activeEntitlements)""#,
                            with: #""filter": "device.platform == \"Android\" && device.activeEntitlementsObject[0].identifier == \"pro\"""#)
    let files = ["app.json", "plans.json", "play-catalog.json", "play-catalog.entitlements.json"]
    var contents = ["app.json": app]
    for file in files.dropFirst() { contents[file] = try String(contentsOfFile: "Examples/android/" + file, encoding: .utf8) }
    let dir = try Fixtures.directory(contents)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(app.contains("activeEntitlementsObject"))
    let result = try PaywallBinary.run(["explain", dir, "upgrade", "--status", "active:pro"])
    #expect(result.stdout.contains("presents paywall 'plans'"), "\(result.stdout)\n\(result.stderr)")
  }

}
