import Foundation
import PaywallTesting
import Testing

/// Issue 17, item 9: `validate --format json|github` (and `--json`), read by the programs they are
/// for: python3's json module, and GitHub's workflow-command grammar parsed back here; and the
/// summary counts the paywalls' products, not the catalog's (item 10).
@Suite("validate formats")
struct ValidateFormatTests {
  /// A copy of the demo project with a product id misspelt in onboarding.json.
  static func brokenProject() throws -> String {
    let dir = Scratch.root.appendingPathComponent("paywall-tui-validate-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: Fixtures.repositoryRoot.appendingPathComponent("paywalls"), to: dir)
    let file = dir.appendingPathComponent("onboarding.json")
    let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"com.acme.pro.monthly\"", with: "\"com.acme.pro.montly\"")
    try text.write(to: file, atomically: true, encoding: .utf8)
    return dir.path
  }

  /// Runs python3 on `program` with `input` on stdin; its stdout.
  static func python(_ program: String, input: String) throws -> String {
    let file = try Fixtures.directory(["in.txt": input, "p.py": program])
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", "python3 \(file)/p.py < \(file)/in.txt"])
    #expect(result.status == 0, "python3: \(result.stderr)")
    return result.stdout
  }

  @Test func jsonIsOneDocumentWithEveryDiagnostic() throws {
    let project = try Self.brokenProject()
    let result = try PaywallBinary.run(["validate", project, "--format", "json"])
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty, "the summary is in the document: \(result.stderr)")
    let read = try Self.python("""
      import json, sys
      d = json.load(sys.stdin)
      e = [x for x in d["diagnostics"] if x["severity"] == "error" and x["file"].endswith("onboarding.json")][0]
      print(d["ok"], d["errors"] >= 1, e["line"] > 0, e["column"] > 0, e["path"], e["fix"], "montly" in e["message"])
      """, input: result.stdout)
    #expect(read == "False True True True $.products.secondary com.acme.pro.monthly True\n")
    #expect(try PaywallBinary.run(["validate", project, "--json"]).stdout == result.stdout, "--json is --format json")
  }

  @Test func githubAnnotationsNameTheFileAndLine() throws {
    let project = try Self.brokenProject()
    let result = try PaywallBinary.run(["validate", project, "--format", "github"])
    #expect(result.status == 1)
    let errors = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") && $0.contains("onboarding.json,line=") }
    #expect(errors.count == 1, "\(result.stdout)")
    #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") }, "only annotations")
    // ::error file=F,line=L,col=C,title=T::MESSAGE, with properties escaped (%3A for ':', %2C for ',').
    let line = try #require(errors.first)
    let parts = line.dropFirst("::error ".count).split(separator: "::", maxSplits: 1)
    let properties = Dictionary(uniqueKeysWithValues: parts[0].split(separator: ",").map { pair in
      let kv = pair.split(separator: "=", maxSplits: 1)
      return (String(kv[0]), String(kv[1]).replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ","))
    })
    #expect(properties["file"]?.hasSuffix("onboarding.json") == true)
    #expect(Int(properties["line"] ?? "") ?? 0 > 0 && Int(properties["col"] ?? "") ?? 0 > 0)
    #expect(parts[1].contains("montly") && parts[1].hasSuffix("($.products.secondary)"))
  }

  @Test func aFormatThatIsNotOneIsAUsageError() throws {
    let result = try PaywallBinary.run(["validate", "paywalls", "--format", "jsno"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("did you mean 'json'"), "\(result.stderr)")
  }

  @Test func theSummaryCountsThePaywallsProducts() throws {
    let result = try PaywallBinary.run(["validate", "paywalls/plans.json"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("ok: paywalls/plans.json: 1 paywall, 3 products"), "the catalog has 6: \(result.stderr)")
  }
}

/// Issue 17, item 10: what loads but would fail a review or a user is a warning; `--strict` fails on it.
@Suite("validate lints")
struct ValidateLintTests {
  static let catalog = """
    {"products": [
      {"id": "yen", "name": "Yen", "price": "39.99", "currency": "JPY", "period": "P1M"},
      {"id": "euro", "name": "Euro", "price": "39.999", "currency": "EUR", "period": "P1M"},
      {"id": "ok", "name": "Fine", "price": "4.990", "currency": "EUR", "period": "P1M"}
    ]}
    """

  @Test func aBarePaywallGetsEveryLint() throws {
    let dir = try Fixtures.directory([
      "catalog.json": Self.catalog,
      "bare.json": #"{"id": "bare", "name": "Bare", "products": {"primary": "ok"}, "components": [{"type": "title", "text": "Hi"}]}"#,
    ])
    let result = try PaywallBinary.run(["validate", dir + "/bare.json", "--catalog", dir + "/catalog.json"])
    #expect(result.status == 0, "warnings alone pass: \(result.stdout)")
    for expected in ["shows no price", "has no purchase button", "has no restore button", "cannot be closed"] {
      #expect(result.stdout.contains("bare.json:1:") && result.stdout.contains(expected), "\(expected): \(result.stdout)")
    }
    let strict = try PaywallBinary.run(["validate", dir + "/bare.json", "--catalog", dir + "/catalog.json", "--strict"])
    #expect(strict.status == 1 && strict.stderr.contains("warnings found (--strict)"), "\(strict.stderr)")
  }

  @Test func theDemoPaywallsHaveNoLints() throws {
    let result = try PaywallBinary.run(["validate", "paywalls", "scenarios/projects/sdk-ui-tests"])
    #expect(!result.stdout.contains("no price") && !result.stdout.contains("cannot be closed") && !result.stdout.contains("decimals"),
            "\(result.stdout)")
  }

  @Test func aPriceWithMoreDecimalsThanItsCurrencyIsAWarning() throws {
    let dir = try Fixtures.directory(["catalog.json": Self.catalog])
    let result = try PaywallBinary.run(["validate", dir + "/catalog.json"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("'price' 39.99 has more decimals than JPY has no decimals; did you mean '40'? ($.products[0].price)"), "\(result.stdout)")
    #expect(result.stdout.contains("'price' 39.999 has more decimals than EUR has 2 decimals; did you mean '40'? ($.products[1].price)"))
    #expect(!result.stdout.contains("$.products[2]"), "4.990 is 4.99")
  }
}

/// Issue 17, item 10: a filter comparing with a value that can never occur is a warning with a did-you-mean.
@Suite("validate filter lints")
struct ValidateFilterLintTests {
  @Test func anImpossibleComparisonIsAWarningWithDidYouMean() throws {
    let dir = Scratch.root.appendingPathComponent("paywall-tui-lint-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: Fixtures.repositoryRoot.appendingPathComponent("paywalls"), to: dir)
    let app = dir.appendingPathComponent("app.json")
    let text = try String(contentsOf: app, encoding: .utf8)
      .replacingOccurrences(of: #"device.subscriptionStatus == \"INACTIVE\""#, with: #"device.subscriptionStatus == \"ACTIV\""#)
      .replacingOccurrences(of: #"!(\"pro\" in device.activeEntitlements)"#, with: #"!(\"prro\" in device.activeEntitlements)"#)
    try text.write(to: app, atomically: true, encoding: .utf8)
    let result = try PaywallBinary.run(["validate", dir.path])
    #expect(result.status == 0, "a warning: \(result.stdout)")
    #expect(result.stdout.contains("warning: filter: device.subscriptionStatus is never 'ACTIV': it is not a subscription status; did you mean 'ACTIVE'?"),
            "\(result.stdout)")
    #expect(result.stdout.contains("warning: filter: 'prro' is never in device.activeEntitlements: it is not an entitlement of the catalog; did you mean 'pro'?"))
    #expect(result.stdout.contains("app.json:10:"), "at the filter's line")
    let clean = try PaywallBinary.run(["validate", "paywalls"])
    #expect(!clean.stdout.contains("filter:"), "the demo's filters are fine: \(clean.stdout)")
  }
}

/// Found by review: a key with a line break split a diagnostic over two lines.
@Suite("validate one line per problem")
struct ValidateOneLineTests {
  @Test func aKeyWithALineBreakStaysOnOneLine() throws {
    let dir = try Fixtures.directory(["p.json": #"{"id": "x", "name": "X", "products": {}, "ti\nt": 1, "components": [{"type": "title", "text": "Hi"}]}"#])
    let result = try PaywallBinary.run(["validate", dir + "/p.json", "--catalog", "paywalls/catalog.json"])
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.allSatisfy { $0.hasPrefix(dir) }, "\(result.stdout)")
    #expect(result.stdout.contains(#"unknown key 'ti\nt'"#) && result.stdout.contains(#"($["ti\nt"])"#), "\(result.stdout)")
  }
}

/// `validate --start ENTITLEMENT=STATE` checks the offers paywall slots name against that user:
/// a slot whose offer the user cannot take shows the regular price, which the author rarely means.
@Suite("validate: offers the start state's user can never get")
struct ValidateOfferEligibilityTests {
  @Test func aWinBackOfferForASubscriberIsAWarningAtItsSlot() throws {
    let result = try PaywallBinary.run(["validate", "paywalls", "--start", "pro=subscribed"])
    #expect(result.status == 0, "a warning does not fail: \(result.stdout)\(result.stderr)")
    let line = try #require(result.stdout.split(separator: "\n").first { $0.hasSuffix("[offer-eligibility]") }, "\(result.stdout)")
    #expect(line.hasPrefix("paywalls/winback.json:6:61: warning: slot 'primary' sells com.acme.pro.annual with win-back offer 'annual.winback'"), "\(line)")
    #expect(line.contains("this user is subscribed in its group now (--start pro=subscribed)"), "\(line)")
    #expect(line.contains("show this paywall to lapsed subscribers"), "the fix: \(line)")
    #expect(line.contains("($.products.primary.offer)"), "\(line)")
    let strict = try PaywallBinary.run(["validate", "paywalls", "--start", "pro=subscribed", "--strict", "--allow", "trial-copy"])
    #expect(strict.status == 1, "--strict fails on it: \(strict.stdout)")
    let allowed = try PaywallBinary.run(["validate", "paywalls", "--start", "pro=subscribed", "--strict", "--allow", "trial-copy", "--allow", "offer-eligibility"])
    #expect(allowed.status == 0, "--allow offer-eligibility silences it: \(allowed.stdout)")
  }

  @Test func aPromotionalOfferForAUserWhoNeverSubscribedInTheGroupIsAWarning() throws {
    // The lifetime unlock is no subscription: this user never subscribed in the 'pro' group.
    let result = try PaywallBinary.run(["validate", "scenarios/projects/offers", "--start", "lifetime=subscribed"])
    #expect(result.stdout.contains("scenarios/projects/offers/stay.json:"), "\(result.stdout)")
    #expect(result.stdout.contains("with promotional offer 'annual.stay', which is for existing or former subscribers of its group; this user never subscribed in its group (--start lifetime=subscribed)"),
            "\(result.stdout)")
    for state in ["subscribed", "expired"] {
      let fine = try PaywallBinary.run(["validate", "scenarios/projects/offers", "--start", "pro=\(state)"])
      #expect(!fine.stdout.contains("offer-eligibility"), "a \(state) subscriber may take it: \(fine.stdout)")
    }
  }

  @Test func aNewUserIsStartNew() throws {
    let result = try PaywallBinary.run(["validate", "paywalls", "scenarios/projects/offers", "--start", "new"])
    #expect(result.stdout.contains("paywalls/winback.json:6:61: warning: slot 'primary' sells com.acme.pro.annual with win-back offer 'annual.winback', which is for churned subscribers who meet its rules; this user never subscribed in its group (--start new)"),
            "\(result.stdout)")
    #expect(result.stdout.contains("with promotional offer 'annual.stay', which is for existing or former subscribers of its group; this user never subscribed in its group (--start new)"),
            "\(result.stdout)")
    let both = try PaywallBinary.run(["validate", "paywalls", "--start", "new", "--start", "pro=expired"])
    #expect(both.status == 2 && both.stderr.contains("--start new is a user who bought nothing"), "\(both.stderr)")
  }

  @Test func withoutAStartStateThereIsNoUserToCheck() throws {
    let result = try PaywallBinary.run(["validate", "paywalls", "scenarios/projects/offers"])
    #expect(!result.stdout.contains("offer-eligibility"), "\(result.stdout)")
    let bad = try PaywallBinary.run(["validate", "paywalls", "--start", "pro=lapsed"])
    #expect(bad.status == 2 && bad.stderr.contains("'lapsed' is not a starting state"), "\(bad.stderr)")
  }
}
