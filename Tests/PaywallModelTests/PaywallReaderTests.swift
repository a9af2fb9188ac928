import Foundation
import Testing
import PaywallModel

@Suite("Paywall reader")
struct PaywallReaderTests {
  static let threeProducts = Catalog(products: [TestCatalog.annual, TestCatalog.monthly, TestCatalog.lifetime],
                                     file: "catalog.json")

  static func read(_ json: String, file: String = "paywall.json", catalog: Catalog? = threeProducts) throws
    -> (PaywallDefinition?, [Diagnostic])
  {
    let root = try JSONParser.parse(json)
    let diagnostics = DiagnosticCollector(file: file, source: Array(json.utf8))
    let paywall = PaywallReader.read(root, file: file, catalog: catalog, diagnostics: diagnostics)
    return (paywall, diagnostics.diagnostics)
  }

  /// A paywall whose line 7 is `component`, indented by four spaces, as `components[1]`.
  static func withComponent(_ component: String) -> String {
    """
    {
      "id": "p",
      "name": "P",
      "products": { "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly" },
      "components": [
        { "type": "title", "text": "Hello" },
        \(component)
      ]
    }
    """
  }

  /// A paywall whose line 4 is `"products": <products>`.
  static func withProducts(_ products: String) -> String {
    """
    {
      "id": "p",
      "name": "P",
      "products": \(products),
      "components": [
        { "type": "title", "text": "Hello" },
        { "type": "button", "label": "Close", "action": "close" }
      ]
    }
    """
  }

  // MARK: - The canonical example

  /// SPEC 3.2, verbatim.
  static let canonical = """
    {
      "id": "onboarding",
      "name": "Onboarding",
      "products": { "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly",
                    "tertiary": "com.acme.pro.lifetime" },
      "selected": "primary",
      "featureGating": "nonGated",
      "components": [
        { "type": "title", "text": "Unlock Acme Pro" },
        { "type": "text", "text": "{{ products.selected.price }} per {{ products.selected.period }}",
          "freeTrialText": "Try {{ products.selected.trialPeriodText }} free, then {{ products.selected.price }}/{{ products.selected.period }}" },
        { "type": "features", "items": ["Unlimited notes", "Sync on every device"] },
        { "type": "products" },
        { "type": "button", "label": "Continue", "action": "purchase" },
        { "type": "button", "label": "Restore purchases", "action": "restore" },
        { "type": "button", "label": "Not now", "action": "close" }
      ]
    }
    """

  @Test func canonicalExampleIsAccepted() throws {
    let (paywall, diagnostics) = try Self.read(Self.canonical, file: "onboarding.json")
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    let p = try #require(paywall)
    #expect(p.id == "onboarding")
    #expect(p.name == "Onboarding")
    #expect(p.file == "onboarding.json")
    #expect(p.slots == [
      ProductSlot(name: "primary", productID: "com.acme.pro.annual"),
      ProductSlot(name: "secondary", productID: "com.acme.pro.monthly"),
      ProductSlot(name: "tertiary", productID: "com.acme.pro.lifetime"),
    ])
    #expect(p.slotNames == ["primary", "secondary", "tertiary"])
    #expect(p.productID(forSlot: "tertiary") == "com.acme.pro.lifetime")
    #expect(p.selectedSlot == "primary")
    #expect(p.featureGating == .nonGated)
    #expect(p.presentationCondition == .checkUserSubscription)
    #expect(p.components.count == 7)
    #expect(p.components[0] == .title(TextContent(text: "Unlock Acme Pro")))
    #expect(p.components[2] == .features(title: nil, items: [TextContent(text: "Unlimited notes"),
                                                             TextContent(text: "Sync on every device")]))
    #expect(p.components[3] == .products(ProductPicker()))
    #expect(p.components[4] == .button(PaywallButton(label: TextContent(text: "Continue"), action: .purchase(slot: nil))))
    #expect(p.components[5] == .button(PaywallButton(label: TextContent(text: "Restore purchases"), action: .restore)))
    #expect(p.components[6] == .button(PaywallButton(label: TextContent(text: "Not now"), action: .close)))

    guard case .text(let content, let style) = p.components[1] else {
      Issue.record("components[1] is not a text")
      return
    }
    #expect(style == .body)
    let resolved = ResolvedPaywall(p, catalog: Self.threeProducts)
    #expect(resolved.showsFreeTrial)
    #expect(resolved.string(content, selected: "primary") == "Try 7-day free, then $59.99/year")
    let noTrial = ResolvedPaywall(p, catalog: Self.threeProducts, eligibility: .everyGroupUsed(in: Self.threeProducts))
    #expect(noTrial.string(content, selected: "primary") == "$59.99 per year")
    #expect(noTrial.string(content, selected: "secondary") == "$9.99 per month")
  }

  @Test func canonicalExampleWithoutACatalogIsAccepted() throws {
    let (paywall, diagnostics) = try Self.read(Self.canonical, catalog: nil)
    #expect(diagnostics.isEmpty)
    #expect(paywall?.slots.count == 3)
  }

  @Test func optionalSettingsAreRead() throws {
    let json = """
      {
        "$schema": "paywall.schema.json",
        "$comment": "a gated win-back",
        "id": "w",
        "name": "W",
        "products": { "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly" },
        "featureGating": "gated",
        "presentationCondition": "always",
        "components": [
          { "type": "art", "lines": ["  /\\\\  ", " /  \\\\ "] },
          { "type": "text", "text": "Muted", "style": "muted" },
          { "type": "features", "title": "Pro", "items": ["{{ primary.price }}"] },
          { "type": "divider" },
          { "type": "spacer", "lines": 2 },
          { "type": "products", "slots": ["secondary"], "badges": { "secondary": "Popular" }, "savings": false },
          { "type": "button", "label": "Buy", "freeTrialLabel": "Try free", "action": "purchase", "slot": "secondary" },
          { "type": "button", "label": "Pick annual", "action": "select", "slot": "primary" },
          { "type": "button", "label": "More", "action": "placement", "placement": "show_more" }
        ]
      }
      """
    let (paywall, diagnostics) = try Self.read(json)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    let p = try #require(paywall)
    #expect(p.featureGating == .gated)
    #expect(p.presentationCondition == .always)
    #expect(p.selectedSlot == "primary")  // the first slot when 'selected' is absent
    #expect(p.components[0] == .art(lines: [#"  /\  "#, #" /  \ "#]))
    #expect(p.components[1] == .text(TextContent(text: "Muted"), style: .muted))
    #expect(p.components[3] == .divider)
    #expect(p.components[4] == .spacer(lines: 2))
    #expect(p.components[5] == .products(ProductPicker(slots: ["secondary"], badges: ["secondary": "Popular"], showsSavings: false)))
    guard case .button(let buy) = p.components[6] else {
      Issue.record("components[6] is not a button")
      return
    }
    #expect(buy.action == .purchase(slot: "secondary"))
    #expect(buy.label.freeTrialText == TemplateText(stringLiteral: "Try free"))
    #expect(p.components[7] == .button(PaywallButton(label: TextContent(text: "Pick annual"), action: .select(slot: "primary"))))
    #expect(p.components[8] == .button(PaywallButton(label: TextContent(text: "More"), action: .placement("show_more"))))
  }

  // MARK: - One error each

  static let errorCases: [ErrorCase] = [
    ErrorCase(name: "unknown top-level key", json: """
      {
        "id": "p",
        "name": "P",
        "products": { "primary": "com.acme.pro.annual" },
        "featureGatng": "gated",
        "components": [
          { "type": "title", "text": "Hello" }
        ]
      }
      """, line: 5, column: 3, path: "$.featureGatng", message: "unknown key 'featureGatng'; did you mean 'featureGating'?"),
    ErrorCase(name: "unknown component key",
              json: withComponent(#"{ "type": "text", "text": "Hi", "styel": "muted" }"#),
              line: 7, column: 37, path: "$.components[1].styel", message: "unknown key 'styel'; did you mean 'style'?"),
    ErrorCase(name: "unknown component type",
              json: withComponent(#"{ "type": "buton", "label": "Go", "action": "purchase" }"#),
              line: 7, column: 15, path: "$.components[1].type",
              message: "unknown component type 'buton'; did you mean 'button'? (expected one of 'title', 'text', 'features', 'products', 'button', 'divider', 'spacer', 'art')"),
    ErrorCase(name: "unknown action",
              json: withComponent(#"{ "type": "button", "label": "Go", "action": "purchse" }"#),
              line: 7, column: 50, path: "$.components[1].action",
              message: "unknown action 'purchse'; did you mean 'purchase'? (expected one of 'purchase', 'restore', 'close', 'select', 'placement')"),
    ErrorCase(name: "unknown button slot",
              json: withComponent(#"{ "type": "button", "label": "Go", "action": "purchase", "slot": "primry" }"#),
              line: 7, column: 70, path: "$.components[1].slot",
              message: "unknown slot 'primry'; did you mean 'primary'? (slots: 'primary', 'secondary')"),
    ErrorCase(name: "select action without a slot",
              json: withComponent(#"{ "type": "button", "label": "Go", "action": "select" }"#),
              line: 7, column: 5, path: "$.components[1]", message: "missing required key 'slot'"),
    ErrorCase(name: "placement action without a placement",
              json: withComponent(#"{ "type": "button", "label": "Go", "action": "placement" }"#),
              line: 7, column: 5, path: "$.components[1]", message: "missing required key 'placement'"),
    ErrorCase(name: "button without a label",
              json: withComponent(#"{ "type": "button", "action": "close" }"#),
              line: 7, column: 5, path: "$.components[1]", message: "missing required key 'label'"),
    ErrorCase(name: "slot names a product missing from the catalog",
              json: withProducts(#"{ "primary": "com.acme.pro.anual", "secondary": "com.acme.pro.monthly" }"#),
              line: 4, column: 28, path: "$.products.primary",
              message: "slot 'primary' names 'com.acme.pro.anual', which is not in the catalog catalog.json; did you mean 'com.acme.pro.annual'?"),
    ErrorCase(name: "duplicate slot",
              json: withProducts(#"{ "primary": "com.acme.pro.annual", "primary": "com.acme.pro.monthly" }"#),
              line: 4, column: 51, path: "$.products.primary", message: "duplicate slot 'primary'"),
    ErrorCase(name: "'selected' is not a slot name",
              json: withProducts(#"{ "primary": "com.acme.pro.annual", "selected": "com.acme.pro.monthly" }"#),
              line: 4, column: 51, path: "$.products.selected",
              message: "'selected' cannot be a slot name: templates use it for the selected product"),
    ErrorCase(name: "slot value not a string",
              json: withProducts(#"{ "primary": "com.acme.pro.annual", "secondary": 2 }"#),
              line: 4, column: 64, path: "$.products.secondary", message: "slot 'secondary' must name a product id (a string, or {\"product\": ID, \"offer\": OFFER_ID})"),
    ErrorCase(name: "products not an object",
              json: withProducts(#"["com.acme.pro.annual"]"#),
              line: 4, column: 15, path: "$.products", message: "'products' must be an object of slot name → product id"),
    ErrorCase(name: "selected names no slot", json: """
      {
        "id": "p",
        "name": "P",
        "products": { "primary": "com.acme.pro.annual" },
        "selected": "primry",
        "components": [
          { "type": "title", "text": "Hello" }
        ]
      }
      """, line: 5, column: 15, path: "$.selected",
      message: "'selected' names the slot 'primry', which is not in 'products'; did you mean 'primary'?"),
    ErrorCase(name: "unknown featureGating value", json: """
      {
        "id": "p",
        "name": "P",
        "featureGating": "gate",
        "components": [
          { "type": "title", "text": "Hello" }
        ]
      }
      """, line: 4, column: 20, path: "$.featureGating",
      message: "unknown featureGating 'gate'; did you mean 'gated'? (expected one of 'gated', 'nonGated')"),
    ErrorCase(name: "unknown template slot",
              json: withComponent(#"{ "type": "text", "text": "Only {{ products.primry.price }}" }"#),
              line: 7, column: 37, path: "$.components[1].text",
              message: "unknown product slot 'primry' in '{{ products.primry.price }}'; did you mean 'primary'? (slots: 'primary', 'secondary', 'selected')"),
    ErrorCase(name: "unknown template attribute",
              json: withComponent(#"{ "type": "text", "text": "Only {{ products.primary.prise }}" }"#),
              line: 7, column: 37, path: "$.components[1].text",
              message: "unknown product attribute 'prise' in '{{ products.primary.prise }}'; did you mean 'price'?"),
    ErrorCase(name: "unknown template attribute, short form, second variable",
              json: withComponent(#"{ "type": "text", "text": "{{ primary.price }} or {{ secondary.monthlyPirce }}" }"#),
              line: 7, column: 55, path: "$.components[1].text",
              message: "unknown product attribute 'monthlyPirce' in '{{ secondary.monthlyPirce }}'; did you mean 'monthlyPrice'?"),
    ErrorCase(name: "unknown template attribute in a free-trial text",
              json: withComponent(#"{ "type": "title", "text": "Hi", "freeTrialText": "{{ primary.trialDays }}" }"#),
              line: 7, column: 56, path: "$.components[1].freeTrialText",
              message: "unknown product attribute 'trialDays' in '{{ primary.trialDays }}'"),
    ErrorCase(name: "template variable in a feature item",
              json: withComponent(#"{ "type": "features", "items": ["ok", "{{ price }}"] }"#),
              line: 7, column: 44, path: "$.components[1].items[1]",
              message: "unknown template variable '{{ price }}'; write {{ products.SLOT.ATTRIBUTE }}"),
    ErrorCase(name: "unclosed '{{'",
              json: withComponent(#"{ "type": "text", "text": "Only {{ products.primary.price" }"#),
              line: 7, column: 37, path: "$.components[1].text", message: "'{{' is never closed with '}}'"),
    ErrorCase(name: "empty components", json: """
      {
        "id": "p",
        "name": "P",
        "components": []
      }
      """, line: 4, column: 17, path: "$.components", message: "'components' is empty; add at least a title and a button"),
    ErrorCase(name: "component not an object", json: withComponent(#""title""#),
              line: 7, column: 5, path: "$.components[1]", message: "a component must be an object, found a string"),
    ErrorCase(name: "spacer lines out of range", json: withComponent(#"{ "type": "spacer", "lines": 11 }"#),
              line: 7, column: 34, path: "$.components[1].lines", message: "'lines' must be between 1 and 10, found 11"),
    ErrorCase(name: "badge for an unknown slot",
              json: withComponent(#"{ "type": "products", "badges": { "tertiary": "Best" } }"#),
              line: 7, column: 39, path: "$.components[1].badges.tertiary", message: "badge for unknown slot 'tertiary'"),
    ErrorCase(name: "picker names an unknown slot",
              json: withComponent(#"{ "type": "products", "slots": ["primary", "secondry"] }"#),
              line: 7, column: 48, path: "$.components[1].slots[1]",
              message: "unknown slot 'secondry'; did you mean 'secondary'?"),
    ErrorCase(name: "purchase button without products", json: """
      {
        "id": "p",
        "name": "P",
        "components": [
          { "type": "button", "label": "Buy", "action": "purchase" }
        ]
      }
      """, line: 1, column: 1, path: "$", message: "a paywall with a purchase button needs 'products'"),
  ]

  // MARK: - Fidelity to the SDK's templates

  /// The SDK's product variables, its short form without spaces and user variables all validate.
  @Test func theSDKsTemplateVariablesValidate() throws {
    let (paywall, diagnostics) = try Self.read(Self.withComponent(
      #"{ "type": "text", "text": "{{ products.primary.periodAlt }} {{ primary.rawTrialPeriodPrice }} {{primary.trialPeriodDays}} {{ products.selected.trialPeriodMonthlyPrice }} {{ primary.languageCode }} {{ user.firstName }}" }"#))
    #expect(paywall != nil)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
  }

  @Test func everyUnknownVariableOfAStringIsReported() throws {
    let (paywall, diagnostics) = try Self.read(Self.withComponent(
      #"{ "type": "text", "text": "{{ products.primary.prise }} / {{ secondary.perod }}" }"#))
    #expect(paywall == nil)
    #expect(diagnostics.map(\.location) == [Position(line: 7, column: 32), Position(line: 7, column: 63)])
    #expect(diagnostics.allSatisfy { $0.severity == .error })
  }

  @Test func theEmulatorsOwnAttributesWarn() throws {
    let (paywall, diagnostics) = try Self.read(Self.withComponent(#"{ "type": "text", "text": "{{ products.primary.name }}" }"#))
    #expect(paywall != nil)
    #expect(diagnostics.map(\.severity) == [.warning])
    #expect(diagnostics.first?.message.contains("renders it empty") == true)
  }

  /// Trial copy on a paywall that also sells a product without a trial: the SDK shows it while that
  /// product is selected (`AddPaywallProducts.swift`), and `validate` says so.
  @Test func trialCopyOverAProductWithoutATrialIsFlagged() throws {
    let (trialCopy, _) = try Self.read(Self.withComponent(
      #"{ "type": "button", "label": "Buy", "freeTrialLabel": "Start my free trial", "action": "purchase" }"#))
    let trialPaywall = try #require(trialCopy)
    let warning = try #require(PaywallReader.trialCopyWarning(trialPaywall, catalog: Self.threeProducts))
    #expect(warning.contains("slot 'secondary' ('com.acme.pro.monthly'), which has no trial, is selected"))
    let (plain, _) = try Self.read(Self.withComponent(#"{ "type": "button", "label": "Buy", "action": "purchase" }"#))
    let plainPaywall = try #require(plain)
    #expect(PaywallReader.trialCopyWarning(plainPaywall, catalog: Self.threeProducts) == nil)
  }

  @Test(arguments: errorCases)
  func eachMistakeGivesExactlyOneDiagnostic(_ c: ErrorCase) throws {
    let (paywall, diagnostics) = try Self.read(c.json)
    #expect(paywall == nil, "nothing that fails validation is returned")
    #expect(diagnostics.count == 1, "\(diagnostics.map(\.description).joined(separator: "\n"))")
    let d = try #require(diagnostics.first)
    #expect(d.severity == .error)
    #expect(d.location == Position(line: c.line, column: c.column))
    #expect(d.path?.description == c.path)
    #expect(d.message.contains(c.message), "message was: \(d.message)")
    #expect(d.description == "paywall.json:\(c.line):\(c.column): error: \(d.message) (\(c.path))")
  }

  @Test func missingRequiredKeysAreAllReported() throws {
    let (paywall, diagnostics) = try Self.read("{}")
    #expect(paywall == nil)
    #expect(diagnostics.map(\.message) == [
      "missing required key 'id'", "missing required key 'name'", "missing required key 'components'",
    ])
    #expect(diagnostics.allSatisfy { $0.location == Position(line: 1, column: 1) && $0.path?.description == "$" })
  }

  @Test func rootMustBeAnObject() throws {
    let (paywall, diagnostics) = try Self.read("[]")
    #expect(paywall == nil)
    #expect(diagnostics.map(\.message) == ["a paywall must be an object, found an array"])
  }

  @Test func threeMistakesAreReportedInOnePass() throws {
    let json = """
      {
        "id": "three",
        "name": "Three mistakes",
        "products": { "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly" },
        "featureGatng": "gated",
        "components": [
          { "type": "title", "text": "Save {{ products.primary.prise }}" },
          { "type": "products" },
          { "type": "button", "label": "Continue", "action": "purchse" }
        ]
      }
      """
    let (paywall, diagnostics) = try Self.read(json, file: "three.json")
    #expect(paywall == nil)
    let sorted = diagnostics.sorted { $0.location < $1.location }
    #expect(sorted.map(\.description) == [
      "three.json:5:3: error: unknown key 'featureGatng'; did you mean 'featureGating'? ($.featureGatng)",
      "three.json:7:38: error: unknown product attribute 'prise' in '{{ products.primary.prise }}'; did you mean 'price'? ($.components[0].text)",
      "three.json:9:56: error: unknown action 'purchse'; did you mean 'purchase'? (expected one of 'purchase', 'restore', 'close', 'select', 'placement') ($.components[2].action)",
    ])
  }

  @Test func diagnosticDescriptionFormat() {
    let withPath = Diagnostic(file: "paywalls/x.json", location: Position(line: 12, column: 7), severity: .error,
                              message: "unknown action 'buy'", path: JSONPath.root.appending("components").appending(3).appending("action"))
    #expect(withPath.description == "paywalls/x.json:12:7: error: unknown action 'buy' ($.components[3].action)")
    let withoutPath = Diagnostic(file: "x.storekit", location: Position(line: 1, column: 1), severity: .warning,
                                 message: "old", path: nil)
    #expect(withoutPath.description == "x.storekit:1:1: warning: old")
    // Keys that are not identifiers are quoted.
    let odd = JSONPath.root.appending("products").appending("my slot").appending("").appending(0)
    #expect(odd.description == #"$.products["my slot"][""][0]"#)
  }

  // MARK: - Template columns with wide characters

  /// The template error's column points at '{{', counting Unicode scalars like every other column:
  /// "👍🏽" is one Character but two scalars.
  @Test func templateErrorColumnAfterAMultiScalarCharacter() throws {
    let json = Self.withComponent(#"{ "type": "text", "text": "👍🏽 {{ products.primary.prise }}" }"#)
    let (_, diagnostics) = try Self.read(json)
    let d = try #require(diagnostics.first)
    #expect(d.location == Position(line: 7, column: 35))
  }

  /// Escapes in the source are longer than the characters they decode to; the column is still the
  /// '{{' in the file.
  @Test func templateErrorColumnAfterAnEscape() throws {
    let json = Self.withComponent(#"{ "type": "text", "text": "\"Hi\" {{ products.primary.prise }}" }"#)
    let (_, diagnostics) = try Self.read(json)
    let d = try #require(diagnostics.first)
    #expect(d.location == Position(line: 7, column: 39))
  }

  /// An escape the sanitiser removes (ESC) still takes six columns in the file.
  @Test func templateErrorColumnAfterARemovedControlEscape() throws {
    let json = Self.withComponent(#"{ "type": "text", "text": "\u001b[2J {{ products.primary.prise }}" }"#)
    let (_, diagnostics) = try Self.read(json)
    let d = try #require(diagnostics.first)
    let line = Array(json.split(separator: "\n", omittingEmptySubsequences: false)[d.location.line - 1].unicodeScalars)
    #expect(String(String.UnicodeScalarView(line[(d.location.column - 1)...])).hasPrefix("{{ products.primary.prise }}"))
  }

  @Test func templateErrorColumnAfterPrecomposedAccent() throws {
    // "é" as one scalar is one Character and one column: the offset is right.
    let json = Self.withComponent("{ \"type\": \"text\", \"text\": \"Caf\u{E9} {{ products.primary.prise }}\" }")
    let (_, diagnostics) = try Self.read(json)
    #expect(diagnostics.first?.location == Position(line: 7, column: 37))
  }

  // MARK: - Long text: the length cap and what errors echo

  /// A valid template longer than the 4,096-character cap for text from files. Before, the cap cut
  /// it inside `{{ … }}` and the reader reported "'{{' is never closed" at a column past the cut,
  /// a problem the cut made. Now the cut never splits a variable: it ends before it.
  @Test func theLengthCapNeverSplitsATemplateVariable() throws {
    let long = String(repeating: "a", count: UntrustedText.maximumScalars - 16) + " {{ products.primary.price }} and more"
    let json = Self.withComponent(#"{ "type": "text", "text": "\#(long)" }"#)
    let (paywall, diagnostics) = try Self.read(json)
    #expect(diagnostics.isEmpty, "\(diagnostics.map { $0.description.prefix(200) })")
    let paywallRead = try #require(paywall)
    guard case .text(let content, _) = paywallRead.components[1] else { Issue.record("not a text"); return }
    let literal = content.text.segments.map { if case .literal(let l) = $0 { l } else { "{{}}" } }.joined()
    #expect(literal.unicodeScalars.count <= UntrustedText.maximumScalars)
    #expect(literal.hasSuffix("…") && !literal.contains("{{"))
  }

  /// The length cap is for display: a template problem that is really in the file is reported
  /// wherever it is in the string, at its real column. Before, a string over 4,096 characters
  /// was checked only as cut, so a broken variable at or past the cut vanished and the paywall
  /// passed.
  @Test(arguments: [
    // Never closed: the cut dropped the unclosed variable whole.
    ("{{ products.primary.price " + String(repeating: "y", count: 5000), "{{ products.primary.price", "never closed"),
    // An unknown slot past the cut.
    (String(repeating: "z", count: 4080) + "{{ products.nope }}", "{{ products.nope", "unknown product slot"),
    // A variable longer than the cap.
    ("{{ products." + String(repeating: "n", count: 5000) + " }}", "{{ products.nnn", "unknown"),
  ])
  func aTemplateProblemPastTheLengthCapIsStillReported(text: String, at marker: String, message: String) throws {
    let json = Self.withComponent(#"{ "type": "title", "text": "\#(text)" }"#)
    let (paywall, diagnostics) = try Self.read(json)
    #expect(paywall == nil)
    let error = try #require(diagnostics.first { $0.severity == .error }, "no error for a \(text.count)-character text")
    #expect(error.message.contains(message), "\(error.description.prefix(300))")
    let line = json.split(separator: "\n", omittingEmptySubsequences: false)[6]
    let column = line.unicodeScalars.count - line[try #require(line.range(of: marker)).lowerBound...].unicodeScalars.count + 1
    #expect(error.location == SourceLocation(line: 7, column: column))
    #expect(error.description.count < 400, "\(error.description.prefix(300))")
  }

  /// A valid template past the cap reads, and renders cut (the cut never splits a variable).
  @Test func aLongValidTemplateReadsAndIsCut() throws {
    let long = String(repeating: "z", count: 4080) + "{{ products.primary.price }}" + String(repeating: "w", count: 100)
    let (paywall, diagnostics) = try Self.read(Self.withComponent(#"{ "type": "title", "text": "\#(long)" }"#))
    #expect(diagnostics.isEmpty, "\(diagnostics.map { $0.description.prefix(200) })")
    guard case .title(let content) = try #require(paywall).components[1] else { Issue.record("not a title"); return }
    #expect(content.text.variables.isEmpty)
    let literal = content.text.segments.map { if case .literal(let l) = $0 { l } else { "{{}}" } }.joined()
    #expect(literal == String(repeating: "z", count: 4080) + "…")
  }

  /// Whatever a file says, an error quotes at most 60 characters of it. Before, an over-long
  /// token was echoed whole: 4,208 characters on one error line.
  @Test(arguments: [
    #"{ "type": "text", "text": "{{ products.primary.\#(String(repeating: "x", count: 4000)) }}" }"#,
    #"{ "type": "text", "text": "{{ \#(String(repeating: "x", count: 4000)).price }}" }"#,
    #"{ "type": "text", "text": "{{ \#(String(repeating: "x y", count: 1300)) }}" }"#,
    #"{ "type": "\#(String(repeating: "t", count: 4000))" }"#,
    #"{ "type": "text", "text": "Hi", "\#(String(repeating: "k", count: 4000))": 1 }"#,
    #"{ "type": "button", "label": "Go", "action": "\#(String(repeating: "a", count: 4000))" }"#,
    #"{ "type": "button", "label": "Go", "action": "select", "slot": "\#(String(repeating: "s", count: 4000))" }"#,
  ])
  func errorsQuoteAtMostSixtyCharactersOfTheFile(component: String) throws {
    let (_, diagnostics) = try Self.read(Self.withComponent(component))
    let error = try #require(diagnostics.first)
    #expect(error.description.count < 400, "\(error.description.count) characters: \(error.description.prefix(300))")
    #expect(error.description.contains("…"), "\(error.description.prefix(300))")
  }

  /// A slot name that long, quoted in a did-you-mean and in the list of slots, is capped too.
  @Test func longSlotNamesAreCappedInHintsAndLists() throws {
    let slot = String(repeating: "s", count: 300)
    let json = Self.withProducts(#"{ "\#(slot)": "com.acme.pro.annual" }"#)
      .replacingOccurrences(of: #""text": "Hello""#, with: #""text": "{{ \#(slot)x.price }}""#)
    let (_, diagnostics) = try Self.read(json)
    let error = try #require(diagnostics.first)
    #expect(error.message.contains("did you mean"), "\(error.description.prefix(300))")
    #expect(error.description.count < 400, "\(error.description.count) characters: \(error.description.prefix(300))")
  }
}

/// A slot may sell a promotional or win-back offer, never an offer code: StoreKit redeems codes in
/// the App Store's sheet and has no purchase option that buys with one.
@Suite("Paywall reader: offers in slots")
struct PaywallSlotOfferTests {
  @Test func aSlotNamingAnOfferCodeIsAnErrorAtItsOffer() throws {
    var monthly = TestCatalog.monthly
    monthly.offers = [SubscriptionOffer(kind: .code, id: "FRIENDS", terms: IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 3, unit: .month))),
                      SubscriptionOffer(kind: .promotional, id: "stay", terms: IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(value: 1, unit: .month), price: 1))]
    let catalog = Catalog(products: [monthly], file: "catalog.json")
    let (code, diagnostics) = try PaywallReaderTests.read(PaywallReaderTests.withProducts(#"{ "primary": { "product": "com.acme.pro.monthly", "offer": "FRIENDS" } }"#),
                                                           catalog: catalog)
    #expect(code?.slots.contains { $0.offerID == "FRIENDS" } != true, "the slot is not kept")
    let error = try #require(diagnostics.first, "no diagnostic")
    #expect(error.severity == .error && error.location.line == 4 && error.path?.description == "$.products.primary.offer", "\(error)")
    #expect(error.message == "slot 'primary': 'FRIENDS' is an offer code, which a user redeems in the App Store's sheet, not buys from a paywall; name a promotional or win-back offer, or try the code with 'redeem FRIENDS' in a script",
            "\(error)")
    let (promotional, fine) = try PaywallReaderTests.read(PaywallReaderTests.withProducts(#"{ "primary": { "product": "com.acme.pro.monthly", "offer": "stay" } }"#),
                                                           catalog: catalog)
    #expect(fine.isEmpty, "\(fine)")
    #expect(promotional?.slots.first?.offerID == "stay")
  }
}

