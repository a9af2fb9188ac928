import Foundation
import Testing
import PaywallModel

/// Superwall-Android's `ProductFetcherInstrumentedTest` (release 2.7.19,
/// `superwall/src/test/java/com/superwall/sdk/products/ProductFetcherTest.kt`): the same
/// `ProductDetails` fixture, one Swift test per Kotlin test, named after it, asserting what our
/// port computes (the selection, price, period, trial and trial price). The Kotlin tests' date,
/// locale and formatted-price assertions belong to the paywall variables, not to the choice.
@Suite("Superwall-Android's choice of base plan and offer")
struct PlayOfferSelectionTests {
  typealias Details = PlayProductDetails
  typealias Phase = PlayProductDetails.PricingPhase

  static func phase(_ price: Decimal, _ period: String, cycles: Int = 0, _ mode: Details.RecurrenceMode = .infiniteRecurring) -> Phase {
    // Through PlayMoney, which rounds: 18.99 written as a literal is 18.98999… as a Double.
    Phase(priceAmountMicros: PlayMoney(currencyCode: "USD", amount: price).micros, billingPeriod: period,
          billingCycleCount: cycles, recurrenceMode: mode)
  }

  static func offer(_ id: String, plan: String, tags: [String] = [], _ phases: [Phase]) -> Details.SubscriptionOfferDetails {
    Details.SubscriptionOfferDetails(basePlanId: plan, offerId: id.isEmpty ? nil : id, offerTags: tags, pricingPhases: phases)
  }

  /// `productDetails` of the Kotlin test, entry for entry and in its order.
  static let quarterly2 = Details(
    productId: "com.ui_tests.quarterly2", productType: .subs,
    title: "com.ui_tests.quarterly2 (com.superwall.superapp (unreviewed))",
    subscriptionOfferDetails: [
      offer("free-trial-offer", plan: "test-2", [phase(0, "P1M", cycles: 1, .finiteRecurring), phase(9.99, "P1M")]),
      offer("free-trial-one-week", plan: "test-2", [phase(0, "P1W", cycles: 1, .finiteRecurring), phase(9.99, "P1M")]),
      offer("ignored-offer", plan: "test-2", tags: ["sw-ignore-offer"], [phase(0, "P1Y", cycles: 1, .finiteRecurring), phase(9.99, "P1M")]),
      offer("trial-and-paid-offer", plan: "test-2",
            [phase(0, "P1M", cycles: 1, .finiteRecurring), phase(2.99, "P1M", cycles: 1, .finiteRecurring), phase(9.99, "P1M")]),
      offer("", plan: "test-2", [phase(9.99, "P1M")]),
      offer("paid-offer", plan: "test-3", [phase(1.99, "P1M", cycles: 1, .finiteRecurring), phase(2.99, "P1M")]),
      offer("paid-offer-2", plan: "test-3", [phase(5.99, "P1Y", cycles: 1, .finiteRecurring), phase(2.99, "P1M")]),
      offer("", plan: "test-3", [phase(2.99, "P1M")]),
      offer("base-plan-free-trial", plan: "com-ui-tests-quarterly2", [phase(0, "P1M", cycles: 1, .finiteRecurring), phase(18.99, "P3M")]),
      offer("", plan: "com-ui-tests-quarterly2", [phase(18.99, "P3M")]),
      offer("paid-offer", plan: "test-4", [phase(6.74, "P1M", cycles: 3, .finiteRecurring), phase(8.99, "P1M")]),
      offer("", plan: "test-4", [phase(8.99, "P1M")]),
      offer("", plan: "test-5", [phase(3.99, "P1Y")]),
    ])

  static let oneTimePurchaseProduct = Details(
    productId: "pro_test_8999_year", productType: .inapp,
    oneTimePurchaseOfferDetails: .init(priceAmountMicros: 89_990_000, purchaseOptionId: nil))

  static func select(_ details: Details, _ id: String) -> PlaySelectedProduct {
    PlaySelectedProduct(details: details, identifier: PlayProductIdentifier(id))
  }

  /// The Kotlin tests' `RawStoreProduct(productDetails, fullIdentifier, …)` on `quarterly2`.
  static func select(_ id: String) -> PlaySelectedProduct {
    select(quarterly2, id)
  }

  static func month(_ n: Int = 1) -> SubscriptionPeriod { SubscriptionPeriod(value: n, unit: .month) }

  @Test("test_storeProduct_basePlan_withFreeTrialOffer")
  func basePlanWithFreeTrialOffer() {
    let product = Self.select("com.ui_tests.quarterly2:test-2:free-trial-offer")
    #expect(product.offerId == "free-trial-offer")
    #expect(product.basePlanId == "test-2")
    #expect(product.hasFreeTrial)
    #expect(product.currencyCode == "USD")
    #expect(product.price == Fixture.decimal("9.99"))
    #expect(product.subscriptionPeriod == Self.month())
    #expect(product.trialPeriod == Self.month())
    #expect(product.trialPeriodPrice == 0)
    #expect(product.startsFreeTrialWhenPurchased)
  }

  @Test("test_storeProduct_basePlan_withFreeTrialOfferAndPaid")
  func basePlanWithFreeTrialOfferAndPaid() {
    let product = Self.select("com.ui_tests.quarterly2:test-2:trial-and-paid-offer")
    #expect(product.offerId == "trial-and-paid-offer")
    #expect(product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("9.99"))
    #expect(product.trialPeriod == Self.month())
    #expect(product.trialPeriodPrice == 0)
  }

  @Test("test_storeProduct_basePlan_withPaidOffer")
  func basePlanWithPaidOffer() {
    let product = Self.select("com.ui_tests.quarterly2:test-4:paid-offer")
    #expect(product.offerId == "paid-offer")
    // A paid introductory phase counts as a trial, as on iOS.
    #expect(product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("8.99"))
    #expect(product.subscriptionPeriod == Self.month())
    #expect(product.trialPeriod == Self.month())
    #expect(product.trialPeriodPrice == Fixture.decimal("6.74"))
    #expect(product.trialPhase?.billingCycleCount == 3)
  }

  @Test("test_storeProduct_basePlan_autoOffer_threeFreeTrials")
  func autoOfferThreeFreeTrials() {
    // The 1-year trial is tagged sw-ignore-offer; of the month and the week, the month wins.
    let product = Self.select("com.ui_tests.quarterly2:test-2:sw-auto")
    #expect(product.offerId == "free-trial-offer")
    #expect(product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("9.99"))
    #expect(product.trialPeriod == Self.month())
    #expect(product.trialPeriodPrice == 0)
  }

  @Test("test_storeProduct_basePlan_autoOffer_twoPaidOffers")
  func autoOfferTwoPaidOffers() {
    // No free trial: the cheapest first paid phase, 1.99 (not 5.99).
    let product = Self.select("com.ui_tests.quarterly2:test-3:sw-auto")
    #expect(product.offerId == "paid-offer")
    #expect(product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("2.99"))
    #expect(product.trialPeriodPrice == Fixture.decimal("1.99"))
  }

  @Test("test_storeProduct_basePlan_autoOffer_noOffers")
  func autoOfferNoOffers() {
    let product = Self.select("com.ui_tests.quarterly2:test-5:sw-auto")
    #expect(product.offerId == nil)
    #expect(!product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("3.99"))
    #expect(product.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .year))
    #expect(product.trialPeriod == nil)
    #expect(product.trialPeriodPrice == 0)
    #expect(!product.startsFreeTrialWhenPurchased)
  }

  @Test("test_storeProduct_basePlan")
  func basePlan() {
    let product = Self.select("com.ui_tests.quarterly2:test-5")
    #expect(product.basePlanId == "test-5")
    #expect(!product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("3.99"))
    #expect(product.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .year))
  }

  @Test("test_storeProduct_basePlan_invalidOfferId")
  func basePlanInvalidOfferID() {
    let product = Self.select("com.ui_tests.quarterly2:test-5:doesnt-exist")
    #expect(product.offerId == nil)
    #expect(!product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("3.99"))
  }

  @Test("test_storeProduct_subscriptionOnly")
  func subscriptionOnly() {
    // The Kotlin test's note: the SDK takes the first single-phase entry (test-2's 9.99 a
    // month), not the legacy-compatible base plan (18.99), which ProductDetails does not show.
    let product = Self.select("com.ui_tests.quarterly2")
    #expect(product.offerId == nil)
    #expect(product.basePlanId == nil)
    #expect(!product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("9.99"))
    #expect(product.subscriptionPeriod == Self.month())
  }

  @Test("test_storeProduct_oneTimePurchase")
  func oneTimePurchase() {
    let product = Self.select(Self.oneTimePurchaseProduct, "pro_test_8999_year")
    #expect(!product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("89.99"))
    #expect(product.subscriptionPeriod == nil)
    #expect(product.trialPeriodPrice == 0)
    #expect(!product.startsFreeTrialWhenPurchased)
  }

  // MARK: One-time products with purchase options

  /// `otpWithPurchaseOptionsProduct`: first-buy-option 42.90, second-buy-option 20.90, and
  /// first-buy-option with the fifty-off offer 21.50.
  static let otpWithOptions = Details(
    productId: "otp_with_options", productType: .inapp,
    oneTimePurchaseOfferDetailsList: [
      .init(priceAmountMicros: 42_900_000, purchaseOptionId: "first-buy-option", offerToken: "token-first-no-offer"),
      .init(priceAmountMicros: 20_900_000, purchaseOptionId: "second-buy-option", offerToken: "token-second-no-offer"),
      .init(priceAmountMicros: 21_500_000, purchaseOptionId: "first-buy-option", offerId: "fifty-off", offerToken: "token-first-fifty-off"),
    ],
    oneTimePurchaseOfferDetails: .init(priceAmountMicros: 42_900_000, purchaseOptionId: "first-buy-option", offerToken: "token-first-no-offer"))

  @Test("test_storeProduct_otp_specificOption_specificOffer_exactMatch")
  func otpSpecificOptionSpecificOfferExactMatch() {
    let product = Self.select(Self.otpWithOptions, "otp_with_options:first-buy-option:fifty-off")
    #expect(product.price == Fixture.decimal("21.50"))
    #expect(!product.hasFreeTrial)
    #expect(product.currencyCode == "USD")
  }

  @Test("test_storeProduct_otp_specificOption_specificOffer_fallbackToOption")
  func otpSpecificOptionSpecificOfferFallback() {
    #expect(Self.select(Self.otpWithOptions, "otp_with_options:second-buy-option:nonexistent-offer").price == Fixture.decimal("20.90"))
  }

  @Test("test_storeProduct_otp_autoOption_specificOffer")
  func otpAutoOptionSpecificOffer() {
    #expect(Self.select(Self.otpWithOptions, "otp_with_options::fifty-off").price == Fixture.decimal("21.50"))
  }

  @Test("test_storeProduct_otp_specificOption_autoOffer_selectsCheapest")
  func otpSpecificOptionAutoOfferCheapest() {
    #expect(Self.select(Self.otpWithOptions, "otp_with_options:first-buy-option:sw-auto").price == Fixture.decimal("21.50"))
  }

  @Test("test_storeProduct_otp_specificOption_autoOffer_noOffers")
  func otpSpecificOptionAutoOfferNoOffers() {
    #expect(Self.select(Self.otpWithOptions, "otp_with_options:second-buy-option:sw-auto").price == Fixture.decimal("20.90"))
  }

  @Test("test_storeProduct_otp_autoOption_autoOffer_prefersBothSet")
  func otpAutoOptionAutoOfferPrefersBothSet() {
    // Only first-buy-option + fifty-off has both ids, so 21.50 although 20.90 is cheaper.
    #expect(Self.select(Self.otpWithOptions, "otp_with_options::sw-auto").price == Fixture.decimal("21.50"))
  }

  @Test("test_storeProduct_otp_autoOption_autoOffer_fallbackToCheapest")
  func otpAutoOptionAutoOfferFallbackToCheapest() {
    let noOffers = Details(
      productId: "otp_no_offers", productType: .inapp,
      oneTimePurchaseOfferDetailsList: [
        .init(priceAmountMicros: 50_000_000, purchaseOptionId: "option-a", offerToken: "token-a"),
        .init(priceAmountMicros: 30_000_000, purchaseOptionId: "option-b", offerToken: "token-b"),
      ],
      oneTimePurchaseOfferDetails: .init(priceAmountMicros: 50_000_000, purchaseOptionId: "option-a"))
    #expect(Self.select(noOffers, "otp_no_offers::sw-auto").price == Fixture.decimal("30.00"))
  }

  @Test("test_storeProduct_otp_selectedOffer_isOneTimeType")
  func otpSelectedOfferIsOneTime() throws {
    let product = Self.select(Self.otpWithOptions, "otp_with_options:first-buy-option:fifty-off")
    guard case .oneTime(let option)? = product.selection else {
      Issue.record("expected a one-time selection, got \(String(describing: product.selection))")
      return
    }
    #expect(option.purchaseOptionId == "first-buy-option")
    #expect(option.offerId == "fifty-off")
  }

  @Test("test_storeProduct_otp_specificOption_noOffer_hasPurchaseOptionIdWithNullOfferId")
  func otpSpecificOptionNoOffer() throws {
    let product = Self.select(Self.otpWithOptions, "otp_with_options:second-buy-option:sw-auto")
    guard case .oneTime(let option)? = product.selection else {
      Issue.record("expected a one-time selection, got \(String(describing: product.selection))")
      return
    }
    #expect(option.purchaseOptionId == "second-buy-option")
    #expect(option.offerId == nil)
    #expect(option.offerToken == "token-second-no-offer")
  }

  @Test("test_storeProduct_otp_withOptions_noSubscriptionValues")
  func otpNoSubscriptionValues() {
    let product = Self.select(Self.otpWithOptions, "otp_with_options:first-buy-option:fifty-off")
    #expect(!product.hasFreeTrial)
    #expect(product.subscriptionPeriod == nil)
    #expect(product.trialPeriodPrice == 0)
    #expect(product.trialPeriod == nil)
  }

  // MARK: Rules the Kotlin tests do not pin, read from RawStoreProduct.kt

  /// With no base plan named, the offer part is not read at all: `getSelectedOfferDetails`
  /// returns the first base plan before it looks at the offer.
  @Test func anOfferWithoutABasePlanIsIgnoredForSubscriptions() {
    let product = Self.select("com.ui_tests.quarterly2::free-trial-offer")
    #expect(product.offerId == nil)
    #expect(!product.hasFreeTrial)
    #expect(product.price == Fixture.decimal("9.99"))
  }

  /// `sw-none` sells the base plan even where a free trial exists.
  @Test func swNoneSellsTheBasePlanAlone() {
    let product = Self.select("com.ui_tests.quarterly2:test-2:sw-none")
    #expect(product.offerId == nil)
    #expect(!product.hasFreeTrial)
    #expect(!product.startsFreeTrialWhenPurchased)
  }

  /// A base plan the product lacks selects nothing: price 0, no trial, nothing to buy.
  @Test func anUnknownBasePlanSelectsNothing() {
    let product = Self.select("com.ui_tests.quarterly2:test-9:sw-auto")
    #expect(product.selection == nil)
    #expect(product.price == 0)
    #expect(!product.startsFreeTrialWhenPurchased)
    #expect(product.storeProduct() == nil)
  }

  /// Equal free trials: the first listed wins (`maxByOrNull` keeps the first maximum).
  @Test func equalTrialsGoToTheFirstListed() {
    let details = Details(productId: "p", productType: .subs, subscriptionOfferDetails: [
      Self.offer("", plan: "m", [Self.phase(5, "P1M")]),
      Self.offer("week-a", plan: "m", [Self.phase(0, "P7D", cycles: 1, .finiteRecurring), Self.phase(5, "P1M")]),
      Self.offer("week-b", plan: "m", [Self.phase(0, "P1W", cycles: 1, .finiteRecurring), Self.phase(5, "P1M")]),
    ])
    #expect(Self.select(details, "p:m").offerId == "week-a")
  }

  /// A free trial beats a cheaper paid offer whatever their lengths.
  @Test func aFreeTrialBeatsAPaidOffer() {
    let details = Details(productId: "p", productType: .subs, subscriptionOfferDetails: [
      Self.offer("", plan: "m", [Self.phase(5, "P1M")]),
      Self.offer("cheap", plan: "m", [Self.phase(0.99, "P1Y", cycles: 1, .finiteRecurring), Self.phase(5, "P1M")]),
      Self.offer("three-days", plan: "m", [Self.phase(0, "P3D", cycles: 1, .finiteRecurring), Self.phase(5, "P1M")]),
    ])
    #expect(Self.select(details, "p:m:sw-auto").offerId == "three-days")
  }
}

/// The same fixtures as Superwall-Android 2.0.0 to 2.6.8 selects from them
/// (`RawStoreProduct.getSelectedOfferDetails` at 2.6.8).
@Suite("Superwall-Android 2.0 to 2.6's choice of base plan and offer")
struct PlayOfferSelectionBefore27Tests {
  typealias Fixtures = PlayOfferSelectionTests

  static func select(_ details: PlayProductDetails, _ id: String) -> PlaySelectedProduct {
    PlaySelectedProduct(details: details, identifier: PlayProductIdentifier(id, reading: .literal))
  }

  @Test func swAutoAsTheBasePlanSelectsNothing() {
    let product = Self.select(Fixtures.quarterly2, "com.ui_tests.quarterly2:sw-auto:sw-auto")
    #expect(product.selection == nil)
    #expect(product.price == 0)
    #expect(!product.startsFreeTrialWhenPurchased)
    // 2.7 chooses the first base plan.
    #expect(Fixtures.select("com.ui_tests.quarterly2:sw-auto:sw-auto").price == Fixture.decimal("9.99"))
  }

  /// An empty or `sw-none` offer names an offer no plan has, so the base plan stands in; 2.7 reads
  /// the empty one as its own choice, the longest free trial.
  @Test func anEmptyOrNoneOfferIsTheBasePlan() {
    for id in ["com.ui_tests.quarterly2:test-2:", "com.ui_tests.quarterly2:test-2:sw-none"] {
      let product = Self.select(Fixtures.quarterly2, id)
      #expect(!product.hasFreeTrial, "\(id)")
      #expect(product.offerId == nil, "\(id)")
      #expect(product.price == Fixture.decimal("9.99"), "\(id)")
    }
    #expect(Fixtures.select("com.ui_tests.quarterly2:test-2:").offerId == "free-trial-offer")
    #expect(Self.select(Fixtures.quarterly2, "com.ui_tests.quarterly2:test-2:sw-auto").offerId == "free-trial-offer")
  }

  /// A one-time product sells its legacy purchase option whatever the id names, and no offer id
  /// reaches the controller.
  @Test func aOneTimeProductSellsItsLegacyOption() {
    for id in ["otp_with_options", "otp_with_options:second-buy-option", "otp_with_options:first-buy-option:fifty-off"] {
      let product = Self.select(Fixtures.otpWithOptions, id)
      #expect(product.price == Fixture.decimal("42.90"), "\(id)")
      #expect(product.offerId == nil, "\(id)")
    }
    #expect(Fixtures.select(Fixtures.otpWithOptions, "otp_with_options:second-buy-option").price == Fixture.decimal("20.90"))
    #expect(Fixtures.select(Fixtures.otpWithOptions, "otp_with_options:first-buy-option:fifty-off").offerId == "fifty-off")
  }
}
