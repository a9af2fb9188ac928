import Foundation
import Testing
import PaywallModel

@Suite("Templates, resolution and slot overrides")
struct TemplateAndOverrideTests {
  static let slots = ["primary", "secondary", "tertiary"]

  static func parse(_ text: String, slots: [String] = slots) throws -> TemplateText {
    try TemplateText.parse(text, slots: slots).get()
  }

  static func problem(_ text: String, slots: [String] = slots) -> TemplateText.Problem? {
    if case .failure(let problem) = TemplateText.parse(text, slots: slots) { return problem }
    return nil
  }

  // MARK: - Parsing

  /// A paywall's texts share one memo of variable verdicts: what it answers, each problem's place
  /// included, is what parsing each text alone gives, whatever was parsed before.
  @Test func aMemoOfVariablesChangesNoVerdict() {
    let texts = ["{{ primary.price }} then {{ primary.nope }}", "é {{ primary.nope }} and {{ primary.price }}",
                 "{{ device.locale }} {{ quaternary.price }}", "no variables", "", "{{ primary.price", "😀{{ selected.period }}😀",
                 "{{ primary.price }}{{ primary.price }}", "{{ primary.nope }}"]
    let memo = TemplateText.VariableMemo()
    for round in 0..<2 {
      for text in texts {
        let alone = TemplateText.parseAll(text, slots: Self.slots)
        let remembered = TemplateText.parseAll(text, slots: Self.slots, memo: memo)
        #expect(remembered.0 == alone.0, "\(text), round \(round)")
        #expect(remembered.1 == alone.1, "\(text), round \(round)")
      }
    }
    // More spellings than the memo keeps: those after the first `capacity` are worked out each time.
    let spaced = (0..<(TemplateText.VariableMemo.capacity + 8)).map { "{{ primary.\($0 % 2 == 0 ? "price" : "nope")" + String(repeating: " ", count: $0) + "}}" }
    for text in spaced + spaced {
      let alone = TemplateText.parseAll(text, slots: Self.slots)
      let remembered = TemplateText.parseAll(text, slots: Self.slots, memo: memo)
      #expect(remembered.0 == alone.0 && remembered.1 == alone.1, "\(text)")
    }
    // The problem's offset is each text's own: the same unknown variable after "é " is at 2.
    #expect(TemplateText.parseAll(texts[1], slots: Self.slots, memo: memo).1.map(\.offset) == [2])
    // Two spellings Swift's String == takes for one (a Kelvin sign and K, a combining accent and
    // é) are two variables: each message quotes its own, byte for byte.
    for (first, second) in [("{{ products.K.price }}", "{{ products.\u{212A}.price }}"),
                            ("{{ products.caf\u{E9}.price }}", "{{ products.cafe\u{301}.price }}"),
                            ("{{ device.caf\u{E9} }}", "{{ device.cafe\u{301} }}")] {
      let shared = TemplateText.VariableMemo()
      _ = TemplateText.parseAll(first, slots: Self.slots, memo: shared)
      let remembered = TemplateText.parseAll(second, slots: Self.slots, memo: shared).1.map { Array($0.message.utf8) }
      #expect(remembered == TemplateText.parseAll(second, slots: Self.slots).1.map { Array($0.message.utf8) }, "\(second)")
      #expect(!remembered.isEmpty)
    }
  }

  @Test(arguments: [
    ("{{ products.primary.price }}", SlotReference.named("primary"), ProductAttribute.price),
    ("{{ secondary.monthlyPrice }}", .named("secondary"), .monthlyPrice),
    ("{{ products.selected.trialPeriodText }}", .selected, .trialPeriodText),
    ("{{ selected.period }}", .selected, .period),
    ("{{products.tertiary.rawPrice}}", .named("tertiary"), .rawPrice),
    ("{{   primary.currencySymbol \t }}", .named("primary"), .currencySymbol),
  ])
  func theThreeFormsParse(_ text: String, _ slot: SlotReference, _ attribute: ProductAttribute) throws {
    let template = try Self.parse(text)
    #expect(template.segments.count == 1)
    let variable = try #require(template.variables.first)
    #expect(variable.slot == slot)
    #expect(variable.attribute == attribute)
  }

  @Test func literalsAndVariablesKeepTheirOrder() throws {
    let template = try Self.parse("Only {{ primary.price }}/{{ products.primary.period }}, cancel any time")
    #expect(template.segments.count == 5)
    guard case .literal(let first) = template.segments[0], case .literal(let slash) = template.segments[2],
          case .literal(let last) = template.segments[4]
    else {
      Issue.record("unexpected segments: \(template.segments)")
      return
    }
    #expect(first == "Only ")
    #expect(slash == "/")
    #expect(last == ", cancel any time")
    #expect(template.variables.map(\.attribute) == [.price, .period])
  }

  @Test func textWithoutVariablesIsOneLiteral() throws {
    #expect(try Self.parse("Unlock Acme Pro") == TemplateText(stringLiteral: "Unlock Acme Pro"))
    #expect(try Self.parse("a } and { b").segments == [.literal("a } and { b")])
    #expect(try Self.parse("").segments.isEmpty)
  }

  @Test func everyAttributeNameIsAccepted() throws {
    for attribute in ProductAttribute.allCases {
      let template = try Self.parse("{{ products.primary.\(attribute.rawValue) }}")
      #expect(template.variables.first?.attribute == attribute)
    }
  }

  @Test(arguments: [
    ("{{ price }}", 0, "unknown template variable '{{ price }}'"),
    ("{{ products.primary.price.amount }}", 0, "unknown template variable"),
    ("{{ products..price }}", 0, "unknown template variable"),
    ("{{ }}", 0, "unknown template variable '{{  }}'"),
    ("Hi {{ primry.price }}", 3, "unknown product slot 'primry' in '{{ primry.price }}'; did you mean 'primary'?"),
    ("{{ primary.price }} and {{ primary.prise }}", 24, "unknown product attribute 'prise'"),
    ("Price: {{ products.primary.price", 7, "'{{' is never closed with '}}'"),
    ("Café {{ products.Primary.price }}", 5, "unknown product slot 'Primary'"),
  ])
  func problemsHaveAnOffsetAndAMessage(_ text: String, _ offset: Int, _ message: String) throws {
    let problem = try #require(Self.problem(text))
    #expect(problem.offset == offset)
    #expect(problem.message.contains(message), "message was: \(problem.message)")
  }

  @Test func selectedIsAlwaysAValidSlot() throws {
    let template = try Self.parse("{{ products.selected.price }}", slots: [])
    #expect(template.variables.first?.slot == .selected)
    #expect(Self.problem("{{ products.primary.price }}", slots: []) != nil)
  }

  // MARK: - Resolution

  static func definition(slots: [(String, String)], selected: String? = nil) -> PaywallDefinition {
    PaywallDefinition(id: "t", name: "T", slots: slots.map { ProductSlot(name: $0.0, productID: $0.1) },
                      selectedSlot: selected, components: [])
  }

  static let content = TextContent(
    text: try! TemplateText.parse("{{ products.selected.price }}/{{ products.selected.period }}", slots: slots).get(),
    freeTrialText: try! TemplateText.parse("{{ primary.trialPeriodText }} free, then {{ primary.price }}", slots: slots).get())

  /// Every attribute the texts use, once each, in the order they come: titles, texts, a feature
  /// list's title and items, buttons, and the free-trial variants.
  @Test func templateAttributesAreEachAttributeOnce() throws {
    func text(_ template: String) throws -> TextContent { TextContent(text: try TemplateText.parse(template, slots: Self.slots).get()) }
    var definition = Self.definition(slots: [("primary", TestCatalog.annual.id)])
    definition.components = [.title(Self.content), .text(try text("{{ primary.price }} {{ primary.weeklyPrice }}"), style: .body),
                             .features(title: try text("{{ primary.locale }}"), items: [try text("{{ primary.currencyCode }}")]),
                             .button(PaywallButton(label: try text("{{ primary.yearlyPrice }} {{ primary.price }}"), action: .close))]
    #expect(definition.templateAttributes == [.trialPeriodText, .price, .period, .weeklyPrice, .locale, .currencyCode, .yearlyPrice])
  }

  @Test func freeTrialTextIsUsedWhenAProductHasAnEligibleTrial() {
    let paywall = ResolvedPaywall(Self.definition(slots: [("primary", TestCatalog.annual.id), ("secondary", TestCatalog.monthly.id)]),
                                  catalog: TestCatalog.catalog)
    #expect(paywall.showsFreeTrial)
    #expect(paywall.slot(named: "primary")?.trialEligible == true)
    #expect(paywall.slot(named: "secondary")?.trialEligible == false)
    #expect(paywall.string(Self.content, selected: "secondary") == "7-day free, then $59.99")
  }

  @Test func plainTextIsUsedWhenNoProductHasATrial() {
    let paywall = ResolvedPaywall(Self.definition(slots: [("primary", TestCatalog.monthly.id), ("secondary", TestCatalog.lifetime.id)]),
                                  catalog: TestCatalog.catalog)
    #expect(!paywall.showsFreeTrial)
    #expect(paywall.string(Self.content, selected: "primary") == "$9.99/month")
  }

  @Test func plainTextIsUsedWhenTheTrialIsNotEligible() {
    // The group "pro" was used: annual's trial is gone.
    let paywall = ResolvedPaywall(Self.definition(slots: [("primary", TestCatalog.annual.id), ("secondary", TestCatalog.monthly.id)]),
                                  catalog: TestCatalog.catalog, eligibility: IntroOfferEligibility(usedGroups: ["pro"]))
    #expect(!paywall.showsFreeTrial)
    #expect(paywall.slot(named: "primary")?.trialEligible == false)
    #expect(paywall.string(Self.content, selected: "primary") == "$59.99/year")
  }

  @Test func textWithoutAFreeTrialVariantIsUsedEvenWithATrial() {
    let paywall = ResolvedPaywall(Self.definition(slots: [("primary", TestCatalog.annual.id)]), catalog: TestCatalog.catalog)
    #expect(paywall.showsFreeTrial)
    let content = TextContent(text: "Plain")
    #expect(paywall.string(content, selected: "primary") == "Plain")
  }

  @Test func selectedFollowsTheSelection() throws {
    let paywall = ResolvedPaywall(
      Self.definition(slots: [("primary", TestCatalog.annual.id), ("secondary", TestCatalog.monthly.id), ("tertiary", TestCatalog.lifetime.id)]),
      catalog: TestCatalog.catalog)
    let template = try Self.parse("{{ products.selected.name }}: {{ selected.price }} ({{ primary.name }})")
    #expect(paywall.string(template, selected: "primary") == "Annual: $59.99 (Annual)")
    #expect(paywall.string(template, selected: "secondary") == "Monthly: $9.99 (Annual)")
    #expect(paywall.string(template, selected: "tertiary") == "Lifetime: $149.99 (Annual)")
    // No selection: selected variables read as nothing.
    #expect(paywall.string(template, selected: nil) == ":  (Annual)")
  }

  @Test func trialEndDateUsesTheResolutionTime() throws {
    let newYear = Date(timeIntervalSince1970: 1_767_225_600)
    let paywall = ResolvedPaywall(Self.definition(slots: [("primary", TestCatalog.annual.id)]), catalog: TestCatalog.catalog, now: newYear)
    #expect(paywall.slot(named: "primary")?[.trialPeriodEndDate] == "Jan 8, 2026")
    #expect(paywall.string(try Self.parse("ends {{ primary.trialPeriodEndDate }}"), selected: nil) == "ends Jan 8, 2026")
  }

  // MARK: - Fidelity to the SDK's templates

  /// Every product variable the SDK gives a template: `StoreProduct.attributes`
  /// (`StoreKit/Products/StoreProduct/StoreProduct.swift`, 4.16.3) and `isSubscribed`
  /// (`Paywall/View Controller/Web View/Templating/TemplateLogic.swift`).
  static let sdkProductVariables = [
    "rawPrice", "price", "periodAlt", "localizedPeriod", "period", "periodly", "weeklyPrice", "dailyPrice",
    "monthlyPrice", "yearlyPrice", "rawTrialPeriodPrice", "trialPeriodPrice", "trialPeriodDailyPrice",
    "trialPeriodWeeklyPrice", "trialPeriodMonthlyPrice", "trialPeriodYearlyPrice", "trialPeriodDays",
    "trialPeriodWeeks", "trialPeriodMonths", "trialPeriodYears", "trialPeriodText", "trialPeriodEndDate",
    "periodDays", "periodWeeks", "periodMonths", "periodYears", "locale", "languageCode", "currencyCode",
    "currencySymbol", "identifier", "billingPlanType", "isBillingPlanAvailable", "isSubscribed",
  ]

  @Test(arguments: sdkProductVariables)
  func everySDKProductVariableParsesInEveryForm(_ name: String) throws {
    for text in ["{{ products.primary.\(name) }}", "{{ primary.\(name) }}", "{{primary.\(name)}}", "{{ products.selected.\(name) }}"] {
      let template = try Self.parse(text)
      #expect(template.variables.first?.attribute.rawValue == name, "\(text)")
    }
  }

  /// `{{ user.firstName }}` reads the user attributes (`Models/Variables.swift`: `user`), empty when unset.
  @Test func userVariablesRenderFromTheUserAttributes() throws {
    let template = try Self.parse("Hi {{ user.firstName }}{{user.suffix}}!")
    let definition = Self.definition(slots: [("primary", TestCatalog.annual.id)])
    let known = ResolvedPaywall(definition, catalog: TestCatalog.catalog, userAttributes: ["firstName": "Ada"])
    #expect(known.string(template, selected: "primary") == "Hi Ada!")
    let unknown = ResolvedPaywall(definition, catalog: TestCatalog.catalog)
    #expect(unknown.string(template, selected: "primary") == "Hi !")
    // `params` are the placement's (`makeJsonVariables` in `DependencyContainer.swift`); `device` renders empty here.
    let more = try Self.parse("{{ params.source }}/{{ device.locale }}")
    #expect(ResolvedPaywall(definition, catalog: TestCatalog.catalog, params: ["source": "settings"]).string(more, selected: nil) == "settings/")
  }

  /// The SDK's short form exists only for `primary`, `secondary` and `tertiary` (`Variables.swift`).
  @Test func theShortFormIsOnlyForTheThreeLegacySlots() {
    let problem = Self.problem("{{ annual.price }}", slots: ["annual"])
    #expect(problem?.message.contains("write {{ products.annual.price }}") == true)
    #expect(Self.problem("{{ products.annual.price }}", slots: ["annual"]) == nil)
  }

  static func introProduct(_ mode: IntroductoryOffer.PaymentMode) -> StoreProduct {
    var product = TestCatalog.monthly
    product.id = "com.acme.pro.monthly.intro"
    product.introductoryOffer = IntroductoryOffer(paymentMode: mode, period: SubscriptionPeriod(value: 1, unit: .month),
                                                  periodCount: 3, price: Fixture.decimal("0.99"))
    return product
  }

  /// A paid intro is a trial to the SDK: the paywall's free-trial copy shows
  /// (`Paywall/Request/Operators/AddPaywallProducts.swift`, via `hasFreeTrial` in `SK2StoreProduct.swift`).
  @Test(arguments: [IntroductoryOffer.PaymentMode.payAsYouGo, .payUpFront])
  func aPaidIntroShowsTheFreeTrialCopy(_ mode: IntroductoryOffer.PaymentMode) throws {
    let product = Self.introProduct(mode)
    let catalog = Catalog(products: [product, TestCatalog.lifetime])
    let definition = Self.definition(slots: [("primary", product.id), ("secondary", TestCatalog.lifetime.id)])
    let paywall = ResolvedPaywall(definition, catalog: catalog)
    #expect(paywall.showsFreeTrial)
    let content = TextContent(text: "Subscribe", freeTrialText: try Self.parse("Try {{ primary.trialPeriodText }} for {{ primary.trialPeriodPrice }}"))
    #expect(paywall.string(content, selected: "primary") == "Try 30-day for $0.99")
    // Not eligible (the group's intro was used): the regular copy.
    let used = ResolvedPaywall(definition, catalog: catalog, eligibility: .everyGroupUsed(in: catalog))
    #expect(!used.showsFreeTrial)
    #expect(used.string(content, selected: "primary") == "Subscribe")
  }

  /// The SDK decides the trial copy for the whole paywall (any product with a trial the user can
  /// take), so it also shows with a product without a trial selected; the emulator does the same
  /// and says so.
  @Test func theTrialCopyFollowsThePaywallNotTheSelection() {
    let content = TextContent(text: "Subscribe", freeTrialText: "Start your free trial")
    var definition = Self.definition(slots: [("primary", TestCatalog.annual.id), ("secondary", TestCatalog.monthly.id)])
    let plain = ResolvedPaywall(definition, catalog: TestCatalog.catalog)
    #expect(!plain.trialCopyMisleads(selected: "secondary"), "no trial copy, nothing to mislead")
    definition.components = [.title(content)]
    let paywall = ResolvedPaywall(definition, catalog: TestCatalog.catalog)
    #expect(paywall.string(content, selected: "secondary") == "Start your free trial")
    #expect(paywall.trialCopyMisleads(selected: "secondary"))
    #expect(!paywall.trialCopyMisleads(selected: "primary"))
  }

  @Test func isSubscribedReadsThePresentersAnswer() throws {
    let definition = Self.definition(slots: [("primary", TestCatalog.annual.id), ("secondary", TestCatalog.monthly.id)])
    let paywall = ResolvedPaywall(definition, catalog: TestCatalog.catalog, isSubscribed: { $0.id == TestCatalog.annual.id })
    let template = try Self.parse("{{ primary.isSubscribed }} {{ secondary.isSubscribed }}")
    #expect(paywall.string(template, selected: nil) == "true false")
  }

  @Test func slotsMissingFromTheCatalogAreDropped() {
    let paywall = ResolvedPaywall(Self.definition(slots: [("primary", "com.nowhere"), ("secondary", TestCatalog.monthly.id)]),
                                  catalog: TestCatalog.catalog)
    #expect(paywall.slots.map(\.slot) == ["secondary"])
    #expect(paywall.slot(named: "primary") == nil)
  }

  // MARK: - Slot overrides

  @Test(arguments: [
    ("primary=com.acme.promo", "primary", "com.acme.promo"),
    (" primary = com.acme.promo ", "primary", "com.acme.promo"),
    ("a=b=c", "a", "b=c"),
  ])
  func overrideArgumentsParse(_ argument: String, _ slot: String, _ product: String) throws {
    let override = try #require(SlotOverride(argument: argument))
    #expect(override.slot == slot)
    #expect(override.productID == product)
    #expect(override.description == "\(slot)=\(product)")
  }

  @Test(arguments: ["", "primary", "primary=", "=com.acme.promo", " = ", "="])
  func malformedOverrideArgumentsAreRejected(_ argument: String) {
    #expect(SlotOverride(argument: argument) == nil)
  }

  static let paywall = definition(slots: [("primary", TestCatalog.annual.id), ("secondary", TestCatalog.monthly.id)], selected: "primary")

  @Test func overrideWithAKnownProductReplacesTheSlot() throws {
    let (changed, warnings) = Self.paywall.applying([SlotOverride(slot: "primary", productID: TestCatalog.weekly.id)],
                                                    catalog: TestCatalog.catalog)
    #expect(warnings.isEmpty)
    #expect(changed.productID(forSlot: "primary") == TestCatalog.weekly.id)
    #expect(changed.productID(forSlot: "secondary") == TestCatalog.monthly.id)
    #expect(changed.slotNames == ["primary", "secondary"])
    #expect(Self.paywall.productID(forSlot: "primary") == TestCatalog.annual.id)  // the original is untouched

    let before = ResolvedPaywall(Self.paywall, catalog: TestCatalog.catalog)
    let after = ResolvedPaywall(changed, catalog: TestCatalog.catalog)
    let price = try Self.parse("{{ primary.price }}")
    #expect(before.string(price, selected: nil) == "$59.99")
    #expect(after.string(price, selected: nil) == "$4.99")
    #expect(after.slot(named: "primary")?.product.id == TestCatalog.weekly.id)
  }

  @Test func overrideWithAnUnknownProductWarnsAndKeepsTheSlot() {
    let (changed, warnings) = Self.paywall.applying([SlotOverride(slot: "primary", productID: "com.acme.pro.anual")],
                                                    catalog: TestCatalog.catalog)
    #expect(changed == Self.paywall)
    #expect(warnings == [
      "override primary=com.acme.pro.anual: no product 'com.acme.pro.anual' in the catalog; did you mean 'com.acme.pro.annual'?; slot 'primary' keeps com.acme.pro.annual",
    ])
  }

  @Test func overrideOfAnUnknownSlotWarns() {
    let (changed, warnings) = Self.paywall.applying([SlotOverride(slot: "primry", productID: TestCatalog.weekly.id)],
                                                    catalog: TestCatalog.catalog)
    #expect(changed == Self.paywall)
    #expect(warnings == ["override primry=com.acme.pro.weekly: paywall 't' has no slot 'primry'; did you mean 'primary'?; ignored"])
  }

  @Test func severalOverridesApplyInOrder() {
    let (changed, warnings) = Self.paywall.applying([
      SlotOverride(slot: "secondary", productID: TestCatalog.weekly.id),
      SlotOverride(slot: "tertiary", productID: TestCatalog.lifetime.id),
      SlotOverride(slot: "secondary", productID: TestCatalog.lifetime.id),
    ], catalog: TestCatalog.catalog)
    #expect(changed.productID(forSlot: "secondary") == TestCatalog.lifetime.id)
    #expect(changed.slotNames == ["primary", "secondary"])  // overrides never add slots
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("has no slot 'tertiary'") == true)
  }

  // MARK: - Suggestions

  @Test(arguments: [
    ("pirce", ["id", "name", "price", "period"], "price"),
    ("featureGatng", ["id", "featureGating", "components"], "featureGating"),
    ("buton", PaywallComponent.typeNames, "button"),
    ("purchse", ButtonAction.names, "purchase"),
    ("primry", ["primary", "secondary", "tertiary"], "primary"),
    ("PRIMARY", ["primary", "secondary"], "primary"),
    ("secondry", ["primary", "secondary"], "secondary"),
    ("com.acme.pro.anual", ["com.acme.pro.annual", "com.acme.pro.monthly"], "com.acme.pro.annual"),
    ("montlhyPrice", ProductAttribute.allCases.map(\.rawValue), "monthlyPrice"),
  ])
  func closeTyposAreFound(_ word: String, _ candidates: [String], _ expected: String) {
    #expect(Suggestions.closest(to: word, in: candidates) == expected)
    #expect(Suggestions.hint(for: word, in: candidates) == "; did you mean '\(expected)'?")
  }

  @Test(arguments: [
    ("banana", ["id", "name", "price", "period"]),
    ("colour", ["id", "name", "price", "period", "entitlements"]),
    ("x", ["primary", "secondary"]),
    ("anything", [String]()),
  ])
  func unrelatedWordsHaveNoSuggestion(_ word: String, _ candidates: [String]) {
    #expect(Suggestions.closest(to: word, in: candidates) == nil)
    #expect(Suggestions.hint(for: word, in: candidates) == "")
  }

  @Test func theClosestCandidateWins() {
    // "pric" is one edit from "price" and two from "prince".
    #expect(Suggestions.closest(to: "pric", in: ["prince", "price"]) == "price")
    // Equal distances keep the first candidate.
    #expect(Suggestions.closest(to: "cat", in: ["bat", "hat"]) == "bat")
  }
}
