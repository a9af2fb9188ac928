import Testing
import PaywallModel

/// Superwall-Android's `DecomposedProductIdsTest` and `OfferTypeTest` (release 2.7.19,
/// `superwall/src/test/java/com/superwall/sdk/billing/` and `…/store/abstractions/product/`),
/// one Swift test per Kotlin test, named after it.
@Suite("Play product ids as Superwall-Android splits them")
struct PlayProductIdentifierTests {
  typealias ID = PlayProductIdentifier

  @Test("productId only - returns Auto for both basePlan and offer")
  func productIdOnly() {
    let id = ID("my_product")
    #expect(id.productId == "my_product")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .auto)
    #expect(id.basePlanID == nil)
    #expect(id.offer.specificID == nil)
    #expect(id.fullId == "my_product")
  }

  @Test("specific basePlan and null offer - returns Specific basePlan and Auto offer")
  func specificBasePlanNullOffer() {
    let id = ID("my_product:monthly_plan")
    #expect(id.productId == "my_product")
    #expect(id.basePlan == .specific("monthly_plan"))
    #expect(id.offer == .auto)
    #expect(id.basePlanID == "monthly_plan")
    #expect(id.offer.specificID == nil)
  }

  @Test("specific basePlan and sw-auto offer - returns Specific basePlan and Auto offer")
  func specificBasePlanSwAutoOffer() {
    let id = ID("my_product:monthly_plan:sw-auto")
    #expect(id.basePlan == .specific("monthly_plan"))
    #expect(id.offer == .auto)
    #expect(id.offer.specificID == nil)
  }

  @Test("specific basePlan and specific offer - returns both Specific")
  func specificBoth() {
    let id = ID("my_product:monthly_plan:free_trial_offer")
    #expect(id.productId == "my_product")
    #expect(id.basePlan == .specific("monthly_plan"))
    #expect(id.offer == .specific("free_trial_offer"))
    #expect(id.basePlanID == "monthly_plan")
    #expect(id.offer.specificID == "free_trial_offer")
  }

  @Test("sw-auto basePlan and null offer - returns Auto for both")
  func swAutoBasePlanNullOffer() {
    let id = ID("my_product:sw-auto")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .auto)
    #expect(id.basePlanID == nil)
  }

  @Test("sw-auto basePlan and sw-auto offer - returns Auto for both")
  func swAutoBoth() {
    let id = ID("my_product:sw-auto:sw-auto")
    #expect(id.productId == "my_product")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .auto)
  }

  @Test("sw-auto basePlan and specific offer - returns Auto basePlan and Specific offer")
  func swAutoBasePlanSpecificOffer() {
    let id = ID("my_product:sw-auto:promo_offer")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .specific("promo_offer"))
    #expect(id.basePlanID == nil)
    #expect(id.offer.specificID == "promo_offer")
  }

  @Test("empty basePlan and null offer - returns Auto for both")
  func emptyBasePlanNullOffer() {
    let id = ID("my_product:")
    #expect(id.productId == "my_product")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .auto)
  }

  @Test("empty basePlan and sw-auto offer - returns Auto for both")
  func emptyBasePlanSwAutoOffer() {
    let id = ID("my_product::sw-auto")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .auto)
  }

  @Test("empty basePlan and specific offer - returns Auto basePlan and Specific offer")
  func emptyBasePlanSpecificOffer() {
    let id = ID("my_product::discount_offer")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .specific("discount_offer"))
  }

  @Test("specific basePlan and sw-none offer - returns Specific basePlan and None offer")
  func specificBasePlanSwNone() {
    let id = ID("my_product:monthly_plan:sw-none")
    #expect(id.basePlan == .specific("monthly_plan"))
    #expect(id.offer == .noOffer)
    #expect(id.offer.specificID == nil)
  }

  @Test("sw-auto basePlan and sw-none offer - returns Auto basePlan and None offer")
  func swAutoBasePlanSwNone() {
    let id = ID("my_product:sw-auto:sw-none")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .noOffer)
  }

  @Test("empty basePlan and sw-none offer - returns Auto basePlan and None offer")
  func emptyBasePlanSwNone() {
    let id = ID("my_product::sw-none")
    #expect(id.basePlan == .auto)
    #expect(id.offer == .noOffer)
  }

  @Test("fullId is preserved exactly as input",
        arguments: ["product", "product:plan", "product:plan:offer", "product:sw-auto", "product:sw-auto:sw-auto",
                    "product:plan:sw-none", "product::offer"])
  func fullIdPreserved(_ input: String) {
    #expect(ID(input).fullId == input)
  }

  // OfferTypeTest: `OfferType.from`.

  @Test("from whitespace only returns Specific (not treated as empty)")
  func whitespaceOfferIsSpecific() {
    #expect(ID.Offer("  ") == .specific("  "))
    #expect(ID.Offer("  ").specificID == "  ")
  }

  @Test("from null, empty, sw-auto returns Auto; from sw-none returns None; from specific value returns Specific")
  func offerTypeFrom() {
    #expect(ID.Offer(nil) == .auto)
    #expect(ID.Offer("") == .auto)
    #expect(ID.Offer("sw-auto") == .auto)
    #expect(ID.Offer("sw-none") == .noOffer)
    #expect(ID.Offer("monthly_plan") == .specific("monthly_plan"))
    #expect(ID.Offer("monthly_plan").specificID == "monthly_plan")
    // `sw-none` means no offer only in the offer's place: as a base plan it is an id.
    #expect(ID.BasePlan("sw-none") == .specific("sw-none"))
  }

  // PaywallProductIdsTest (`superwall/src/test/java/com/superwall/sdk/models/paywall/`): the id a
  // config's PLAY_STORE product stands for.

  @Test("productIds uses fullProductId computed from store product details")
  func configFullIdentifier() {
    #expect(ID.configFullIdentifier(productIdentifier: "product", basePlanIdentifier: "plan", offer: .automatic) == "product:plan:sw-auto")
    #expect(ID.configFullIdentifier(productIdentifier: "product", basePlanIdentifier: "plan", offer: .noOffer) == "product:plan:sw-none")
  }

  @Test("productIds correctly populated for multiple products with same productId but different plans")
  func configFullIdentifierPerPlan() {
    #expect(ID.configFullIdentifier(productIdentifier: "my_subscription", basePlanIdentifier: "monthly", offer: .specified("free_trial"))
            == "my_subscription:monthly:free_trial")
    #expect(ID.configFullIdentifier(productIdentifier: "my_subscription", basePlanIdentifier: "annual", offer: .specified("free_trial"))
            == "my_subscription:annual:free_trial")
  }

  /// `PlayStoreProductSerializer`: an unknown or missing offer type is no offer; `SPECIFIED`
  /// without an identifier fails; an empty or missing base plan leaves the product id alone.
  @Test func configOffersDecodeAsTheSDKDecodesThem() {
    #expect(ID.ConfigOffer(type: "AUTOMATIC", offerIdentifier: nil) == .automatic)
    #expect(ID.ConfigOffer(type: "NO_OFFER", offerIdentifier: nil) == .noOffer)
    #expect(ID.ConfigOffer(type: "SPECIFIED", offerIdentifier: "o") == .specified("o"))
    #expect(ID.ConfigOffer(type: "SPECIFIED", offerIdentifier: nil) == nil)
    #expect(ID.ConfigOffer(type: "LATER", offerIdentifier: nil) == .noOffer)
    #expect(ID.ConfigOffer(type: nil, offerIdentifier: nil) == .noOffer)
    #expect(ID.configFullIdentifier(productIdentifier: "lifetime", basePlanIdentifier: "", offer: .specified("o")) == "lifetime")
    #expect(ID.configFullIdentifier(productIdentifier: "lifetime", basePlanIdentifier: nil, offer: .automatic) == "lifetime")
  }
}

/// How Superwall-Android 2.0.0 to 2.6.8 reads the same ids (`billing/DecomposedProductIds.kt` at
/// 2.6.8, unchanged since 2.0.0): the base plan part is an id as written, and an offer part other
/// than `sw-auto` names an offer. The SDK has no tests of its own for this reading; each case
/// below is one of the 2.7.19 tests above, read the older way.
@Suite("Play product ids as Superwall-Android 2.0 to 2.6 reads them")
struct PlayProductIdentifierBefore27Tests {
  static func id(_ text: String) -> PlayProductIdentifier { PlayProductIdentifier(text, reading: .literal) }

  @Test func theReleasesBefore27ReadLiterally() throws {
    #expect(PlayProductIdentifier.Reading(try SDKVersion.parse("2.6").get()) == .literal)
    #expect(PlayProductIdentifier.Reading(try SDKVersion.parse("2.0").get()) == .literal)
    #expect(PlayProductIdentifier.Reading(try SDKVersion.parse("2.7").get()) == .typed)
    #expect(PlayProductIdentifier.Reading(.android) == .typed)
    #expect(PlayProductIdentifier.Reading(.latest) == .typed)
  }

  @Test func swAutoInTheBasePlansPlaceNamesABasePlan() {
    #expect(Self.id("my_product:sw-auto:sw-auto").basePlan == .specific("sw-auto"))
    #expect(Self.id("my_product:sw-auto:sw-auto").offer == .auto)
    #expect(Self.id("my_product:sw-auto").controllerBasePlanID == "sw-auto")
  }

  @Test func anOfferPartOtherThanSwAutoNamesAnOffer() {
    #expect(Self.id("my_product:monthly_plan").offer == .auto)
    #expect(Self.id("my_product:monthly_plan:sw-auto").offer == .auto)
    #expect(Self.id("my_product:monthly_plan:").offer == .specific(""))
    #expect(Self.id("my_product:monthly_plan:sw-none").offer == .specific("sw-none"))
    #expect(Self.id("my_product:monthly_plan:free_trial_offer").offer == .specific("free_trial_offer"))
  }

  /// `components.getOrNull(1) ?: ""`: the controller is handed "" for an id without a base plan,
  /// where 2.7 hands it null.
  @Test func anEmptyOrMissingBasePlanLetsTheSDKChooseAndReachesTheControllerAsEmpty() {
    for text in ["my_product", "my_product:", "my_product::sw-auto"] {
      #expect(Self.id(text).basePlan == .auto)
      #expect(Self.id(text).controllerBasePlanID == "")
      #expect(PlayProductIdentifier(text).controllerBasePlanID == nil)
    }
    #expect(Self.id("my_product:monthly_plan:x").controllerBasePlanID == "monthly_plan")
  }
}
