import Foundation
import PaywallModel
import Testing

/// The real `paywall-tui` binary, run as a user runs it: exit codes, stdout and stderr.
@Suite("Command line")
struct CommandLineTests {
  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static var binary: URL {
    // Tests run from the build products directory, where `swift build --build-tests` put the binary.
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [products, products.deletingLastPathComponent()] {
      let url = candidate.appendingPathComponent("paywall-tui")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return Fixtures.repositoryRoot.appendingPathComponent(".build/debug/paywall-tui")
  }

  static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
    try spawn(binary, arguments, environment: environment)
  }

  /// Runs any program from the repository root (Swift's crash prompt off) and collects its output.
  static func spawn(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = Fixtures.repositoryRoot
    var env = ProcessInfo.processInfo.environment
    env["SWIFT_BACKTRACE"] = "enable=no"
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                  stderr: String(decoding: stderr, as: UTF8.self))
  }

  @Test func binaryIsBuilt() {
    #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build with `swift build --build-tests` first")
  }

  @Test func validateBundledDemoSucceeds() throws {
    let result = try Self.run(["validate", "paywalls", "paywalls/acme.storekit"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    // Only warnings: the demo's onboarding and plans paywalls show trial copy over products without
    // a trial, as the SDK does (issue 16 item 5), and validate says so.
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 2 && lines.allSatisfy { $0.contains(": warning: the free-trial texts show whenever") }, "\(result.stdout)")
    #expect(lines.first?.hasPrefix("paywalls/onboarding.json:5:15: warning:") == true)
    #expect(result.stderr.contains("ok: paywalls: 3 paywalls, 6 products"))
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
    let result = try Self.run(["validate", file])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines == [
      "\(file):6:39: error: unknown product attribute 'prise' in '{{ products.primary.prise }}'; did you mean 'price'? ($.components[0].text)",
      "\(file):7:15: error: unknown component type 'buton'; did you mean 'button'? (expected one of 'title', 'text', 'features', 'products', 'button', 'divider', 'spacer', 'art') ($.components[1].type)",
      "\(file):8:50: error: unknown action 'purchse'; did you mean 'purchase'? (expected one of 'purchase', 'restore', 'close', 'select', 'placement') ($.components[2].action)",
    ])
    #expect(result.stderr.contains("3 errors found"))
  }

  @Test func malformedJSONGivesTheSyntaxErrorPosition() throws {
    let dir = try Fixtures.directory(["catalog.json": acmeCatalogJSON, "bad.json": "{\n  \"id\": \"x\",\n  \"name\": \"X\"\n  \"components\": []\n}\n"])
    let result = try Self.run(["validate", dir + "/bad.json"])
    #expect(result.status == 1)
    #expect(result.stdout == "\(dir)/bad.json:3:14: error: invalid JSON: expected ',' or '}' after the value of \"name\", found end of line\n"
      || result.stdout.hasPrefix("\(dir)/bad.json:4:3: error: invalid JSON: expected ',' or '}'"), "\(result.stdout)")
    #expect(!result.stdout.contains("NSCocoaErrorDomain") && !result.stderr.contains("Fatal"))
  }

  @Test func renderPrintsTheFrameAtTheRequestedSize() throws {
    let result = try Self.run(["render", "paywalls/onboarding.json", "--size", "60x20", "--color", "never"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 20)
    #expect(lines.contains { $0.contains("Unlock Acme Pro") })
    #expect(!result.stdout.contains("\u{1B}"))
  }

  @Test func renderColorAlwaysWritesANSI() throws {
    let result = try Self.run(["render", "paywalls/onboarding.json", "--color", "always"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("\u{1B}[0;1m"))
  }

  @Test func renderStorekitWithOverride() throws {
    let result = try Self.run(["render", "paywalls/onboarding.json", "--catalog", "paywalls/acme.storekit",
                               "--override", "primary=com.acme.pro.weekly"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("$4.99/week"))
    #expect(!result.stdout.contains("$59.99/year"))
  }

  @Test func overrideWithUnknownProductWarnsAndKeepsTheSlot() throws {
    let result = try Self.run(["render", "paywalls", "--override", "primary=com.acme.pro.anual"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("no product 'com.acme.pro.anual' in the catalog; did you mean 'com.acme.pro.annual'?"))
    #expect(result.stdout.contains("$59.99/year"))
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
    let result = try Self.run(arguments)
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
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString)").path
    var given = arguments.map { $0.replacingOccurrences(of: "LONG", with: Self.longToken) }
    if ["store", "explain"].contains(arguments[0]) { given += ["--state-dir", state] }
    let result = try Self.run(given)
    Self.expectExcerpted(result.stderr, arguments.joined(separator: " "))
  }

  @Test func missingFileIsOneClearLine() throws {
    let result = try Self.run(["render", "nowhere/paywall.json"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("nowhere/paywall.json:1:1: error: no such file or directory"))
  }

  @Test func runWithoutATerminalExitsWithCode3AndPointsAtRenderAndPlay() throws {
    let result = try Self.run([])
    #expect(result.status == 3)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("needs a terminal") && result.stderr.contains("paywall-tui render") && result.stderr.contains("paywall-tui play"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  // MARK: - explain and the option parser

  @Test func explainSaysWhichAudienceMatchedAndWhy() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("explain-\(UUID().uuidString)").path
    let at12 = try Self.run(["explain", "paywalls", "power_user_offer", "--user", "should_display=true", "--user", "some_value=12",
                             "--state-dir", dir])
    #expect(at12.status == 0, "\(at12.stderr)")
    #expect(at12.stdout.contains("no match because user.should_display is true, user.some_value is 12"))
    #expect(at12.stdout.contains("→ skipped (noAudienceMatch); the feature runs"))
    let at13 = try Self.run(["explain", "paywalls", "power_user_offer", "--user", "should_display=true", "--user", "some_value=13",
                             "--state-dir", dir])
    #expect(at13.stdout.contains("→ presents paywall 'winback'"))
    // The subscriber rule is v3's (--sdk 3); v4, the default, has none, and explain says which applied.
    let subscriber = try Self.run(["explain", "paywalls", "settings_upgrade", "--status", "active", "--sdk", "3", "--state-dir", dir])
    #expect(subscriber.stdout.contains("→ skipped (userIsSubscribed)"), "\(subscriber.stdout)")
    #expect(subscriber.stdout.contains("(SDK v3: an active user is skipped, userIsSubscribed"), "\(subscriber.stdout)")
    let v4 = try Self.run(["explain", "paywalls", "settings_upgrade", "--status", "active", "--state-dir", dir])
    #expect(v4.stdout.contains("→ presents paywall 'plans'"), "\(v4.stdout)")
    #expect(v4.stdout.contains("(SDK v4 (latest: 4.16): no subscriber rule"), "\(v4.stdout)")
    let badSDK = try Self.run(["explain", "paywalls", "settings_upgrade", "--sdk", "v3", "--state-dir", dir])
    #expect(badSDK.status == 2)
    #expect(badSDK.stderr.contains("--sdk 'v3' is not an SDK version (did you mean '3'?)"), "\(badSDK.stderr)")
    let unknown = try Self.run(["explain", "paywalls", "onbording", "--state-dir", dir])
    #expect(unknown.stdout.contains("no campaign; did you mean 'onboarding'?"))
    let usage = try Self.run(["explain", "paywalls"])
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
    let undecided = try Self.run(["play", project, "--status", "inactive", "--placement", "js_rule", "--script", script])
    #expect(undecided.status == 1)
    #expect(undecided.stderr.hasSuffix("\n--placement js_rule: audience 1 of placement 'js_rule' has a rule in expression_js ('user.plan === 'free''), which the emulator cannot evaluate; decide it with --assume-rule js_rule#0=match or js_rule#0=nomatch\n"), "\(undecided.stderr)")
    #expect(!undecided.stdout.contains("trigger_fire"), "nothing ran")
    let matched = try Self.run(["play", project, "--status", "inactive", "--placement", "js_rule", "--script", script,
                                "--assume-rule", "js_rule#0=match"])
    #expect(matched.status == 0, "\(matched.stderr)")
    let typo = try Self.run(["play", project, "--script", script, "--assume-rule", "js_rule#1=match"])
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("error: --assume-rule 'js_rule#1' names no audience with an unsupported rule (rules to decide: js_rule#0; did you mean 'js_rule#0'?)"), "\(typo.stderr)")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("explain-\(UUID().uuidString)").path
    let explained = try Self.run(["explain", project, "js_rule", "--state-dir", dir])
    #expect(explained.status == 1)
    #expect(explained.stdout.contains("  with --assume-rule js_rule#0=match: → presents paywall 'onboarding'\n  with --assume-rule js_rule#0=nomatch: → presents paywall 'plans'"), "\(explained.stdout)")
    let decided = try Self.run(["explain", project, "js_rule", "--state-dir", dir, "--assume-rule", "js_rule#0=nomatch"])
    #expect(decided.status == 0)
    #expect(decided.stdout.contains("→ presents paywall 'plans'"), "\(decided.stdout)")
  }

  /// Issue 16 item 8 and SDK UI tests T28–T32: `explain --json` answers what the SDK's
  /// `getPresentationResult(forPlacement:params:)` returns (Paywall/Presentation/Get Presentation
  /// Result/), read with JSONSerialization, and writes no assignment.
  @Test func explainJSONIsTheSDKsPresentationResult() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("explain-json-\(UUID().uuidString)").path
    func result(_ arguments: [String]) throws -> [String: Any] {
      let output = try Self.run(["explain", "paywalls"] + arguments + ["--json", "--state-dir", dir])
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
    let typo = try Self.run(["render", "paywalls", "--colour", "never"])
    #expect(typo.status == 2)
    #expect(typo.stderr == "error: unknown option '--colour' for 'render' (did you mean '--color'?); see 'paywall-tui render --help'\n")
    let help = try Self.run(["help", "play"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: paywall-tui play <path> [options]") && help.stdout.contains("--user <key=value>"))
    let root = try Self.run(["--help"])
    #expect(root.stdout.contains("explain") && root.stdout.contains("run (default)"))
  }
}
