import Foundation
import Testing
import PaywallModel

/// `import superwall` and a config given as a project path: the SDK's config decoded with JSON
/// paths in every error, and mapped to campaigns and paywalls as the SDK would evaluate them.
@Suite("Superwall config import")
struct SuperwallImportTests {
  static var fixtureDirectory: String {
    (Fixture.paywallsDirectory as NSString).deletingLastPathComponent + "/scenarios/projects/superwall-config"
  }
  static var fixture: String { fixtureDirectory + "/config.json" }
  static var storekit: String { fixtureDirectory + "/acme.storekit" }

  /// A minimal excerpt of the SDK's own config fixture (4.16.3
  /// `Tests/SuperwallKitTests/Models/Config/ConfigResponseTests.swift`): its first trigger and its
  /// paywall, with the products and substitutions a test needs.
  static let sdkExcerpt = """
    {
      "toggles": [{"key": "enable_session_events", "enabled": true}],
      "build_id": "poWduJZYQvCA8QbWLrjJC",
      "trigger_options": [{
        "trigger_version": "V2",
        "event_name": "MyEvent",
        "rules": [{
          "experiment_group_id": "39",
          "experiment_id": "80",
          "expression": null,
          "expression_js": null,
          "preload": {"behavior": "ALWAYS", "requires_re_evaluation": true},
          "variants": [
            {"percentage": 0, "variant_type": "HOLDOUT", "variant_id": "218"},
            {"percentage": 100, "variant_type": "TREATMENT", "variant_id": "219", "paywall_identifier": "example-paywall-4de1-2022-03-15"}
          ]
        }]
      }],
      "paywall_responses": [{
        "id": "571",
        "cache_key": "abc?sw=10293",
        "build_id": "abc?sw=10293",
        "url": "https://www.fitnessai.com/superwall-video?sw_cache_key=1659989801716",
        "url_config": {"endpoints": [], "max_attempts": 10},
        "name": "Example Paywall",
        "identifier": "example-paywall-4de1-2022-03-15",
        "paywalljs_event": "W3siZXZlbnRfbmFtZSI6InRlbXBsYXRlX3N1YnN0aXR1dGlvbnMiLCJzdWJzdGl0dXRpb25zIjpbeyJrZXkiOiJUaXRsZSIsInZhbHVlIjoiVGVzdCJ9LHsia2V5Ijoic3VidGl0bGUiLCJ2YWx1ZSI6IkhleSAge3sgdXNlci5maXJzdE5hbWUgfX0hXG5Pbmx5ICQxLjczIHBlciB3ZWVrIGJpbGxlZCBhbm51YWxseS48YnI+In0seyJrZXkiOiJidWxsZXQtMSIsInZhbHVlIjoiT3B0aW1pemVkIHdvcmtvdXRzIGV2ZXJ5ZGF5PGJyPiJ9LHsia2V5IjoiY2xvc2UtMSIsInZhbHVlIjoiRVhJVCIsInByb3BlcnRpZXMiOlt7InByZWZpeCI6ImRlZmF1bHQiLCJwcm9wZXJ0eSI6eyJ0eXBlIjoiY2xpY2stYmVoYXZpb3IiLCJjbGlja0JlaGF2aW9yIjp7InR5cGUiOiJjbG9zZSJ9fX1dfV19XQ==",
        "products_v2": [
          {"reference_name": "primary", "store_product": {"store": "APP_STORE", "product_identifier": "sk.superwall.annual.89.99_7"},
           "entitlements": [{"identifier": "test", "type": "SERVICE_LEVEL"}]},
          {"store_product": {"store": "PLAY_STORE", "product_identifier": "com.ui_tests.quarterly2", "base_plan_identifier": "test-2"}, "entitlements": []}
        ],
        "presentation_condition": "CHECK_USER_SUBSCRIPTION",
        "presentation_delay": 0,
        "presentation_style_v3": {"type": "DRAWER", "height": 250, "corner_radius": 25},
        "background_color_hex": "#000000"
      }],
      "log_level": 10,
      "localization": {"locales": []},
      "app_session_timeout_ms": 3600000,
      "disable_preload": {"all": false, "triggers": []}
    }
    """

  static let sdkCatalog = """
    {"products": [{"id": "sk.superwall.annual.89.99_7", "name": "Annual", "price": "89.99", "period": "P1Y", "trial": "P7D", "group": "pro"}]}
    """

  static func load(_ config: String, catalog: String = sdkCatalog) throws -> ProjectLoadResult {
    try withTemporaryDirectory { directory in
      let file = try directory.write("config.json", config)
      let catalogFile = try directory.write("catalog.json", catalog)
      return ProjectLoader.load(path: file, catalogPath: catalogFile)
    }
  }

  // MARK: - The SDK's fixture

  @Test func sdkFixtureImportsAndExplainsToThePaywallItsRuleNames() throws {
    let result = try Self.load(Self.sdkExcerpt)
    #expect(result.errors.isEmpty, "\(result.diagnostics.map(\.description))")
    let project = try #require(result.project)
    #expect(project.placements == ["MyEvent"])
    let paywall = try #require(project.paywall(id: "example-paywall-4de1-2022-03-15"))
    #expect(paywall.slots == [ProductSlot(name: "primary", productID: "sk.superwall.annual.89.99_7")])
    #expect(paywall.featureGating == .nonGated)
    #expect(paywall.components.first == .title(TextContent(text: "Test")))
    #expect(paywall.components.contains(.button(PaywallButton(label: TextContent(text: "EXIT"), action: .close))))
    // The PLAY_STORE product is dropped, as the SDK drops it.
    #expect(result.warnings.contains { $0.message.contains("PLAY_STORE") && $0.path?.description == "$.paywall_responses[0].products_v2[1]" })
    var book = AssignmentBook(userID: "tester")
    let evaluation = PlacementRules.evaluate("MyEvent", project: project, context: FilterContext(status: .inactive), book: &book)
    #expect(evaluation.outcome == .present(paywallID: "example-paywall-4de1-2022-03-15"))
    #expect(evaluation.variantID == "219")
    #expect(evaluation.steps.first?.experimentID == "80")
  }

  // MARK: - Our fixture: every field

  @Test func ourFixtureMapsEveryField() throws {
    let result = ProjectLoader.load(path: Self.fixture, catalogPath: Self.storekit)
    #expect(result.errors.isEmpty, "\(result.diagnostics.map(\.description))")
    let project = try #require(result.project)
    #expect(project.placements == ["campaign_trigger", "upgrade", "legacy_rule", "pro_feature"])
    let campaign = try #require(project.campaigns.first)
    #expect(campaign.audiences.map(\.experimentID) == ["101", "102", "103"])
    #expect(campaign.audiences[0].outcome == .paywalls([], holdout: 100))
    #expect(campaign.audiences[0].holdoutID == "1001")
    #expect(campaign.audiences[0].filter?.text == "user.plan == \"pro\"")
    #expect(campaign.audiences[1].outcome == .paywalls([.init(paywallID: "pw_gated_annual", percent: 50, id: "1021"),
                                                        .init(paywallID: "pw_nongated_monthly", percent: 50, id: "1022")], holdout: 0))
    #expect(campaign.audiences[1].maxOccurrences == 2)
    #expect(campaign.audiences[2].filter == nil)
    #expect(project.campaigns[1].audiences[0].maxOccurrences == 1)
    // A rule with only 3.x's `expression` matches everyone, as on a 4.x device, with a warning.
    #expect(project.campaigns[2].audiences[0].filter == nil)
    #expect(result.warnings.contains { $0.path?.description == "$.trigger_options[2].rules[0].expression" })
    // app_launch is the SDK's own event, and it presents a campaign (`canImplicitlyTriggerPaywall`):
    // kept. Before, it was left out with a warning.
    #expect(project.campaigns.contains { $0.placement == "app_launch" })
    #expect(!result.warnings.contains { $0.message.contains("app_launch") })

    let gated = try #require(project.paywall(id: "pw_gated_annual"))
    #expect(gated.featureGating == .gated)
    #expect(gated.slotNames == ["primary", "secondary"])  // PLAY_STORE and CONSUMABLE skipped
    #expect(result.warnings.contains { $0.message.contains("'CONSUMABLE', not SERVICE_LEVEL") })
    #expect(gated.components.first == .title(TextContent(text: "Unlock Acme Pro\ntoday")))
    let texts = gated.components.compactMap { if case .text(let t, _) = $0 { t } else { nil } }
    let subtitle = try #require(texts.first)
    #expect(subtitle.text.segments.contains { if case .context(let v) = $0 { v.scope == .user && v.key == "firstName" } else { false } })
    #expect(subtitle.text.segments.contains(.literal(" per ")))
    #expect(gated.components.contains(.features(title: nil, items: [TextContent(text: "Unlimited projects"), TextContent(text: "Sync on every device"),
                                                                        TextContent(text: "billed yearly")])))
    let purchase = gated.components.first { if case .button(let b) = $0, case .purchase = b.action { true } else { false } }
    guard case .button(let button)? = purchase else { Issue.record("no purchase button"); return }
    #expect(button.label.freeTrialText != nil)
    #expect(gated.components.contains(.button(PaywallButton(label: TextContent(text: "Already a member? Restore"), action: .restore))))
    #expect(gated.components.contains(.button(PaywallButton(label: TextContent(text: "Not now"), action: .close))))
    // An unknown variable in a substitution is left out with a warning naming it.
    #expect(result.warnings.contains { $0.message.contains("primary.unknownThing") && $0.path?.description == "$.paywall_responses[0].paywalljs_event" })

    let legacy = try #require(project.paywall(id: "pw_v3_products"))
    #expect(legacy.presentationCondition == .always)
    #expect(legacy.slots == [ProductSlot(name: "primary", productID: "com.acme.pro.weekly")])
    #expect(legacy.components.first == .title(TextContent(text: "Legacy products")))
    #expect(project.paywall(id: "pw_nongated_monthly")?.featureGating == .nonGated)
  }

  /// `validate`'s advice on a paywall built from a config points at the config's paywall (its
  /// `paywall_responses` item), not at a `products` key the config does not have, at 1:1; and it
  /// does not read the config again for each paywall (a 5 MB config of 400 paywalls took 4 s).
  @Test func validateAdviceOnAnImportedPaywallPointsAtItsConfigPaywall() throws {
    let project = try #require(ProjectLoader.load(path: Self.fixture, catalogPath: Self.storekit).project)
    let advice = PaywallReader.validationAdvice(for: project)
    let trial = try #require(advice.first { $0.kind == .trialCopy }, "\(advice)")
    #expect(trial.file == Self.fixture)
    #expect(trial.path?.description == "$.paywall_responses[0]")
    #expect(trial.location != .start && trial.location.line > 1, "\(trial.location)")
    #expect(trial.message.hasPrefix("the paywall built from it: the free-trial texts show"), "\(trial.message)")
    #expect(project.paywalls.allSatisfy { $0.origin != nil })
  }

  @Test func explainNamesThePaywallTheRulesName() throws {
    let project = try #require(ProjectLoader.load(path: Self.fixture, catalogPath: Self.storekit).project)
    func outcome(_ placement: String, user: [String: FilterValue] = [:], params: [String: FilterValue] = [:]) -> PlacementEvaluation.Outcome {
      var book = AssignmentBook(userID: "tester")
      return PlacementRules.evaluate(placement, project: project, context: FilterContext(status: .inactive, user: user, params: params),
                                     book: &book).outcome
    }
    #expect(outcome("campaign_trigger", user: ["plan": .string("pro")]) == .skip(.holdout))
    #expect(outcome("campaign_trigger") == .present(paywallID: "pw_nongated_monthly"))
    #expect(outcome("upgrade", user: ["age": .number(13), "country": .string("CA")]) == .present(paywallID: "pw_v3_products"))
    #expect(outcome("upgrade", user: ["age": .number(13), "country": .string("FR")]) == .skip(.noAudienceMatch))
    #expect(outcome("pro_feature") == .present(paywallID: "pw_gated_annual"))
  }

  // MARK: - Bad configs

  static func errors(_ config: String, catalog: String = sdkCatalog) throws -> [String] {
    let result = try load(config, catalog: catalog)
    #expect(result.project == nil)
    return result.errors.map { "\($0.path?.description ?? "-"): \($0.message)" }
  }

  @Test func truncatedConfigIsASyntaxError() throws {
    let result = try Self.load(String(Self.sdkExcerpt.prefix(700)))
    #expect(result.project == nil)
    #expect(result.errors.first?.message.hasPrefix("invalid JSON") == true)
  }

  @Test func wrongTypeAtAKnownKeyNamesItsPath() throws {
    let bad = Self.sdkExcerpt.replacingOccurrences(of: "\"percentage\": 100,", with: "\"percentage\": \"100\",")
    #expect(try Self.errors(bad) == ["$.trigger_options[0].rules[0].variants[1].percentage: 'percentage' must be a whole number, found a string"])
  }

  /// A percentage is a dashboard percent: a huge one trapped the sum of shares (SIGILL in every
  /// command that read the config); now each out-of-range number is an error at its path.
  @Test(arguments: ["9223372036854775807", "101", "1e308", "1e16", "-1", "-9223372036854775808", "1e999"])
  func aPercentageOutsideZeroToAHundredIsAnErrorAtItsPath(number: String) throws {
    let bad = Self.sdkExcerpt.replacingOccurrences(of: "\"percentage\": 0,", with: "\"percentage\": \(number),")
    #expect(try Self.errors(bad) == ["$.trigger_options[0].rules[0].variants[0].percentage: 'percentage' must be a whole number from 0 to 100 (a percent of users), found \(number)"])
  }

  @Test func minusZeroIsAPercentageOfZero() throws {
    let zero = Self.sdkExcerpt.replacingOccurrences(of: "\"percentage\": 0,", with: "\"percentage\": -0,")
    #expect(try Self.load(zero).project != nil)
  }

  @Test func aBlankEventNameIsAnErrorAtItsKey() throws {
    // Found by the fuzzer: "\u007f" reads as "" (control characters are dropped), which our
    // campaigns refuse; the import passed it on and the project it made did not load.
    for name in [#"\u007f"#, "  ", ""] {
      let bad = Self.sdkExcerpt.replacingOccurrences(of: #""event_name": "MyEvent""#, with: "\"event_name\": \"\(name)\"")
      #expect(try Self.errors(bad) == ["$.trigger_options[0].event_name: 'event_name' is empty once its control characters and spaces are dropped; give the trigger a placement name"], "\(name)")
    }
  }

  @Test func missingRequiredKeyNamesItsObject() throws {
    let bad = Self.sdkExcerpt.replacingOccurrences(of: "\"experiment_id\": \"80\",", with: "")
    #expect(try Self.errors(bad) == ["$.trigger_options[0].rules[0]: missing required key 'experiment_id' (the SDK requires it)"])
    let noPreload = Self.sdkExcerpt.replacingOccurrences(of: "\"preload\": {\"behavior\": \"ALWAYS\", \"requires_re_evaluation\": true},", with: "")
    #expect(try Self.errors(noPreload) == ["$.trigger_options[0].rules[0]: missing required key 'preload' (the SDK requires it)"])
  }

  @Test func variantNamingAMissingPaywall() throws {
    let bad = Self.sdkExcerpt.replacingOccurrences(of: "\"paywall_identifier\": \"example-paywall-4de1-2022-03-15\"",
                                                   with: "\"paywall_identifier\": \"example-paywall-4de1-2022-03-16\"")
    #expect(try Self.errors(bad) == [
      "$.trigger_options[0].rules[0].variants[1].paywall_identifier: no paywall 'example-paywall-4de1-2022-03-16' in paywall_responses; did you mean 'example-paywall-4de1-2022-03-15'?",
    ])
  }

  @Test func productMissingFromTheCatalogListsWhatIsMissing() throws {
    let catalog = """
      {"products": [{"id": "sk.superwall.annual.89.99_8", "name": "Annual", "price": "89.99", "period": "P1Y", "group": "pro"}]}
      """
    let errors = try Self.errors(Self.sdkExcerpt, catalog: catalog)
    #expect(errors.count == 2)
    #expect(errors.contains { $0.hasPrefix("$.paywall_responses[0].products_v2[0].store_product.product_identifier: product 'sk.superwall.annual.89.99_7' is not in the catalog") && $0.hasSuffix("did you mean 'sk.superwall.annual.89.99_8'?") })
    #expect(errors.contains { $0.hasPrefix("$.paywall_responses: 1 product id is not in the catalog") && $0.contains(": sk.superwall.annual.89.99_7;") })
  }

  /// Found by fuzzing: a MINUTES interval of 0 minutes imported into a project that could not load.
  @Test func anOccurrenceOurFormatCannotHoldIsAnErrorAtItsPath() throws {
    let text = try String(contentsOfFile: Self.fixture, encoding: .utf8)
    #expect(text.contains("\"minutes\": 1440"))
    let result = try withTemporaryDirectory { directory in
      let file = try directory.write("config.json", text.replacingOccurrences(of: "\"minutes\": 1440", with: "\"minutes\": 0"))
      return ProjectLoader.load(path: file, catalogPath: Self.storekit)
    }
    #expect(result.project == nil)
    let errors = result.errors.map { "\($0.path?.description ?? "-"): \($0.message)" }
    #expect(errors.count == 1, "\(errors)")
    #expect(errors.first?.hasSuffix(".occurrence.interval.minutes: occurrence interval minutes must be from 1 to 525600000, found 0") == true,
            "\(errors)")
  }

  @Test func ruleWeCannotEvaluateNamesItsPath() throws {
    let bad = Self.sdkExcerpt.replacingOccurrences(of: "\"expression\": null,", with: "\"expression_cel\": \"lowercase(user.plan) == \\\"pro\\\"\",")
    let errors = try Self.errors(bad)
    #expect(errors.count == 1)
    #expect(errors.first?.hasPrefix("$.trigger_options[0].rules[0].expression_cel: expression_cel: ") == true)
  }

  @Test func withoutACatalogTheErrorSaysToPassOne() throws {
    try withTemporaryDirectory { directory in
      let file = try directory.write("config.json", Self.sdkExcerpt)
      let result = ProjectLoader.load(path: file)
      #expect(result.project == nil)
      #expect(result.errors.map(\.message).contains { $0.contains("pass --catalog FILE") })
    }
  }

  // MARK: - Pieces

  @Test(arguments: [
    ([0, 100], [0, 100]),
    ([20, 40, 40], [20, 40, 40]),
    ([1, 1, 1], [34, 33, 33]),
    ([0, 0], [50, 50]),
    ([30], [100]),  // one variant is chosen whatever its percentage (ConfigLogic.chooseVariant)
    ([10, 10], [50, 50]),
  ])
  func variantShares(percentages: [Int], shares: [Int]) {
    #expect(SuperwallImporter.shares(percentages) == shares)
  }

  @Test func htmlBecomesLines() {
    #expect(SubstitutionText.plain("Heading<br>line 2") == "Heading\nline 2")
    #expect(SubstitutionText.plain("<p class=\"a\">One<br/>two</p><p>Three &amp; four&nbsp;</p>") == "One\ntwo\nThree & four")
    #expect(SubstitutionText.plain("a < b") == "a < b")
    #expect(SubstitutionText.plain("<div>Already?</div><div>Restore</div>") == "Already?\nRestore")
    // Tag names in any case; a name that only starts like one is another tag.
    #expect(SubstitutionText.plain("A<BR>b<Br/>c</P>d</H2>e</h4>f<bra>g</pre>h") == "A\nb\nc\nd\nefgh")
    // Spaces at a line's ends go, a no-break or ideographic one too; inside a line they stay.
    #expect(SubstitutionText.plain(" \u{A0}Save  50%\u{3000}<br>\t<br>\u{2003}é ü\u{A0}") == "Save  50%\né ü")
    #expect(SubstitutionText.plain("   ") == "" && SubstitutionText.plain("") == "")
    // A tag never closed and an entity cut short stay as written.
    #expect(SubstitutionText.plain("Save &am") == "Save &am" && SubstitutionText.plain("One <p") == "One <p")
    #expect(SubstitutionText.plain("&amp;&lt;b&gt;&#39;&quot;") == "&<b>'\"")
    // A tag runs to the first `>` after its `<`, however many `<` come before that.
    #expect(SubstitutionText.plain("a<b<c>d") == "ad")
    #expect(SubstitutionText.plain(String(repeating: "<", count: 3000) + "&lt;") == String(repeating: "<", count: 3001))
  }

  /// Text is copied a word (eight bytes) at a time up to the next `<` or `&`: each must be found
  /// wherever it falls in and across those words.
  @Test func tagsAndEntitiesAreFoundWhereverTheyFallInAWord() {
    for before in 0..<17 {
      let x = String(repeating: "x", count: before)
      // A blank first line is dropped.
      #expect(SubstitutionText.plain(x + "<br>y&amp;z</p>w") == (before == 0 ? "" : x + "\n") + "y&z\nw", "at \(before)")
      #expect(SubstitutionText.plain(x + "&lt;" + x + "<b>" + x) == x + "<" + x + x, "at \(before)")
    }
  }

  /// A paywall's substitutions share the verdicts on their variables: a variable spelled another
  /// way (a combining accent for é) is another variable, and its warning quotes it as written.
  @Test func eachSpellingOfAVariableIsQuotedAsWritten() {
    let variables = TemplateText.VariableMemo()
    var warnings: [String] = []
    for text in ["{{ products.caf\u{E9}.price }}", "{{ products.cafe\u{301}.price }}"] {
      _ = SubstitutionText.template(text, slots: ["primary"], variables: variables) { warnings.append($0) }
    }
    var alone: [String] = []
    _ = SubstitutionText.template("{{ products.cafe\u{301}.price }}", slots: ["primary"]) { alone.append($0) }
    // String's == takes both spellings for one; their bytes tell them apart.
    #expect(warnings.count == 2 && alone.count == 1 && Array(warnings[1].utf8) == Array(alone[0].utf8), "\(warnings)")
  }

  @Test func unknownVariablesAreLeftOut() {
    var warnings: [String] = []
    let text = SubstitutionText.template("{{ primary.price }} then {{ primary.nope }} {{ user.firstName }} {{ oops", slots: ["primary"]) {
      warnings.append($0)
    }
    #expect(text == "{{ primary.price }} then  {{ user.firstName }}  oops")
    #expect(warnings.count == 2)
  }

  // MARK: - File names

  /// A config of paywall responses with these identifiers, no products and no triggers.
  static func config(paywallIDs ids: [String]) -> String {
    let paywalls = ids.enumerated().map { n, id in
      ##"{"id":"\##(n)","identifier":"\##(id)","name":"P\##(n)","cache_key":"k","build_id":"b","url":"https://example.com","url_config":{"endpoints":[],"max_attempts":1},"paywalljs_event":"","presentation_style_v3":{"type":"FULLSCREEN"},"presentation_delay":0,"background_color_hex":"#000000","products_v2":[]}"##
    }
    return #"{"build_id":"b","log_level":10,"app_session_timeout_ms":1,"toggles":[],"disable_preload":{"all":false,"triggers":[]},"localization":{"locales":[]},"trigger_options":[],"paywall_responses":[\#(paywalls.joined(separator: ","))]}"#
  }

  static func importedFiles(_ ids: [String]) throws -> [String] {
    let text = config(paywallIDs: ids)
    let root = try JSONParser.parse(text)
    let collector = DiagnosticCollector(file: "config.json", source: Array(text.utf8))
    let catalog = Catalog(products: [TestCatalog.annual], file: "catalog.json")
    let (imported, diagnostics) = SuperwallImporter.importConfig(root: root, collector: collector, catalog: catalog,
                                                                 catalogReference: "catalog.json", name: "t")
    let result = try #require(imported, "\(diagnostics.map(\.description).prefix(3))")
    return result.paywalls.map(\.file)
  }

  /// The config's diagnostics come in its order though its paywalls are built on every core: a
  /// repeated paywall's warning follows what the paywall before it gave, its document's included.
  @Test func diagnosticsKeepTheConfigsOrderWhileItsPaywallsAreBuiltOnEveryCore() throws {
    let substitutions = #"[{"event_name":"template_substitutions","substitutions":[{"key":"Title","value":"Only {{ primary.price }}"}]}]"#
    let event = Data(substitutions.utf8).base64EncodedString()
    let text = Self.config(paywallIDs: ["a", "b", "a", "c", "c"])
      .replacingOccurrences(of: #""paywalljs_event":"""#, with: #""paywalljs_event":"\#(event)""#)
    let collector = DiagnosticCollector(file: "config.json", source: Array(text.utf8))
    let catalog = Catalog(products: [TestCatalog.annual], file: "catalog.json")
    let (_, diagnostics) = SuperwallImporter.importConfig(root: try JSONParser.parse(text), collector: collector, catalog: catalog,
                                                          catalogReference: "catalog.json", name: "t")
    let paths = diagnostics.map { $0.path?.description ?? "" }
    #expect(paths == ["$.paywall_responses[0].paywalljs_event", "$.paywall_responses[1].paywalljs_event",
                      "$.paywall_responses[2].identifier", "$.paywall_responses[3].paywalljs_event",
                      "$.paywall_responses[4].identifier"], "\(diagnostics.map(\.description))")
  }

  /// Ids that differ only in case write one file on a case-insensitive file system (macOS's
  /// default): their names differ in more than case.
  @Test func fileNamesAreUniqueIgnoringCase() throws {
    let files = try Self.importedFiles(["Pro", "pro", "PRO", "pro-2", "a b", "a_b", "A.B"])
    #expect(files == ["paywalls/Pro.json", "paywalls/pro-2.json", "paywalls/PRO-3.json", "paywalls/pro-2-2.json",
                      "paywalls/a_b.json", "paywalls/a_b-2.json", "paywalls/A.B.json"])
    #expect(Set(files.map { $0.lowercased() }).count == files.count)
    #expect(try Self.importedFiles(["Pro", "pro", "PRO", "pro-2", "a b", "a_b", "A.B"]) == files)
  }

  /// Thousands of ids that all shorten to one name (the first 80 characters) each get the next
  /// free suffix, not a count from 2 again: 4,000 of them took 4,000²/2 tries. A bound against a
  /// hang, not a benchmark (a debug build, a shared machine).
  @Test func manyIdsWithOneFileNameImportInLinearTime() throws {
    let long = String(repeating: "A", count: 80)
    let ids = (0..<4_000).map { long + String($0) }
    let start = ContinuousClock.now
    let files = try Self.importedFiles(ids)
    let elapsed = ContinuousClock.now - start
    #expect(Set(files.map { $0.lowercased() }).count == ids.count)
    #expect(files[0] == "paywalls/\(long).json")
    #expect(files[1] == "paywalls/\(long)-2.json")
    #expect(files[3_999] == "paywalls/\(long)-4000.json")
    #expect(elapsed < .seconds(4), "\(elapsed)")
  }

  @Test func badBase64IsAWarningNotAnError() throws {
    let bad = Self.sdkExcerpt.replacingOccurrences(of: "\"paywalljs_event\": \"W3si", with: "\"paywalljs_event\": \"!!!!W3si")
    let result = try Self.load(bad)
    // `.ignoreUnknownCharacters`: the SDK never decodes it; we skip what is not base64.
    #expect(result.project != nil)
    let garbage = Self.sdkExcerpt.replacingOccurrences(of: "\"paywalljs_event\": \"W3si", with: "\"paywalljs_event\": \"AAAAW3si")
    let second = try Self.load(garbage)
    #expect(second.project != nil)
    #expect(second.warnings.contains { $0.path?.description == "$.paywall_responses[0].paywalljs_event" })
  }
}
