import Foundation
@testable import PaywallModel
import Testing

/// Offers other than the introductory one, read from real `.storekit` files and applied by the
/// simulated store as StoreKit applies them.
@Suite("Subscription offers: promotional, code and win-back")
struct SubscriptionOfferTests {
  /// Trimmed from RevenueCat/purchases-ios, `Tests/TestingApps/PurchaseTester/
  /// RevenueCat_IntegrationPurchaseTesterConfiguration.storekit` (format 3.0, MIT licence): one
  /// subscription with a promotional offer (`adHocOffers`) and an offer code (`codeOffers`, no
  /// `offerID`, with `eligibility` and `isStackable`), as Xcode wrote them. Its
  /// `subscriptionOffersKeyPair` is left out.
  static let revenueCatVersion3 = """
    {
      "identifier" : "B495CDA2",
      "nonRenewingSubscriptions" : [ ],
      "products" : [ ],
      "settings" : { "_locale" : "en_US", "_storefront" : "USA", "_timeRate" : 13 },
      "subscriptionGroups" : [
        {
          "id" : "7096FF06",
          "localizations" : [ ],
          "name" : "subscription_group",
          "subscriptions" : [
            {
              "adHocOffers" : [
                {
                  "internalID" : "EC7974C4",
                  "offerID" : "com.revenuecat.monthly_4.99.1_free_week",
                  "paymentMode" : "free",
                  "referenceName" : "com.revenuecat.monthly_4.99.1_free_week",
                  "subscriptionPeriod" : "P1W"
                }
              ],
              "codeOffers" : [
                {
                  "eligibility" : [ "existing", "expired", "new" ],
                  "internalID" : "4373DD6D",
                  "isStackable" : true,
                  "paymentMode" : "free",
                  "referenceName" : "Offer codes",
                  "subscriptionPeriod" : "P3D"
                }
              ],
              "displayPrice" : "4.99",
              "familyShareable" : true,
              "groupNumber" : 1,
              "internalID" : "E5E51B92",
              "introductoryOffer" : { "internalID" : "D4FA46D0", "paymentMode" : "free", "subscriptionPeriod" : "P1W" },
              "localizations" : [
                { "description" : "Monthly subscription with a 1-week free trial", "displayName" : "Monthly Free Trial", "locale" : "en_US" }
              ],
              "productID" : "com.revenuecat.monthly_4.99.1_week_intro",
              "recurringSubscriptionPeriod" : "P1M",
              "referenceName" : "monthly free trial",
              "subscriptionGroupID" : "7096FF06",
              "type" : "RecurringSubscription"
            }
          ]
        }
      ],
      "version" : { "major" : 3, "minor" : 0 }
    }
    """

  /// Trimmed from RevenueCat/purchases-ios, `Tests/StoreKitUnitTests/UnitTestsConfiguration.storekit`
  /// (format 5.0, MIT licence): `introductoryOffers` as an array with one entry per billing plan
  /// beside the single `introductoryOffer`, a promotional offer with a `billingPlanType`, and an
  /// empty `winbackOffers`.
  static let revenueCatVersion5 = """
    {
      "identifier" : "B495CDA2",
      "nonRenewingSubscriptions" : [ ],
      "products" : [ ],
      "settings" : { "_locale" : "en_US", "_storefront" : "USA", "_timeRate" : 0 },
      "subscriptionGroups" : [
        {
          "id" : "7096FF06",
          "localizations" : [ ],
          "name" : "subscription_group_1",
          "subscriptions" : [
            {
              "adHocOffers" : [
                {
                  "billingPlanType" : "BILLED_UPFRONT",
                  "displayPrice" : "40.99",
                  "internalID" : "FF459F3D",
                  "numberOfPeriods" : 1,
                  "offerID" : "com.revenuecat.monthly_4.99.1_week_intro.year_discount",
                  "paymentMode" : "payUpFront",
                  "referenceName" : "year discount",
                  "subscriptionPeriod" : "P1Y"
                }
              ],
              "billingPlans" : [
                { "billingPlanType" : "BILLED_UPFRONT", "commitmentDisplayPrice" : "0.99", "displayPrice" : "0.99", "internalID" : "1261786A", "isEnabled" : true }
              ],
              "codeOffers" : [ ],
              "displayPrice" : "11.88",
              "familyShareable" : false,
              "groupNumber" : 1,
              "internalID" : "3AE07F63",
              "introductoryOffers" : [
                { "billingPlanType" : "MONTHLY", "internalID" : "1CEEA276", "numberOfPeriods" : 1, "paymentMode" : "free", "subscriptionPeriod" : "P2M" },
                { "billingPlanType" : "BILLED_UPFRONT", "internalID" : "9EB4AFC5", "numberOfPeriods" : 1, "paymentMode" : "free", "subscriptionPeriod" : "P1M" }
              ],
              "localizations" : [ { "description" : "", "displayName" : "", "locale" : "en_US" } ],
              "productID" : "com.revenuecat.sampleapp.monthly.12mocommitment",
              "recurringSubscriptionPeriod" : "P1Y",
              "referenceName" : "sub with 12mo monthly commitment",
              "subscriptionGroupID" : "7096FF06",
              "type" : "RecurringSubscription",
              "winbackOffers" : [ ]
            }
          ]
        }
      ],
      "version" : { "major" : 5, "minor" : 0 }
    }
    """

  @Test func promotionalAndCodeOffersOfAVersion3File() throws {
    let (catalog, diagnostics) = try StoreKitTests.read(Self.revenueCatVersion3)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let product = try StoreKitTests.product(catalog, "com.revenuecat.monthly_4.99.1_week_intro")
    let week = SubscriptionPeriod(value: 1, unit: .week)
    #expect(product.offers == [
      SubscriptionOffer(kind: .promotional, id: "com.revenuecat.monthly_4.99.1_free_week",
                        terms: IntroductoryOffer(paymentMode: .freeTrial, period: week)),
      SubscriptionOffer(kind: .code, id: "Offer codes",
                        terms: IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 3, unit: .day))),
    ])
    #expect(product.introductoryOffer == IntroductoryOffer(paymentMode: .freeTrial, period: week))
  }

  @Test func theArrayShapeOfIntroductoryOffersTakesTheUpFrontPlan() throws {
    let (catalog, diagnostics) = try StoreKitTests.read(Self.revenueCatVersion5)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let product = try StoreKitTests.product(catalog, "com.revenuecat.sampleapp.monthly.12mocommitment")
    #expect(product.introductoryOffer == IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .month)))
    #expect(product.offers.map(\.id) == ["com.revenuecat.monthly_4.99.1_week_intro.year_discount"])
    #expect(product.offers.first?.terms.price == Decimal(string: "40.99"))
  }

  @Test func anOfferKeyNotReadHereIsAWarningThatNamesIt() throws {
    let text = Self.revenueCatVersion3
      .replacingOccurrences(of: "\"codeOffers\" :", with: "\"retentionOffers\" : [ ], \"codeOffers\" :")
      .replacingOccurrences(of: "\"isStackable\" : true,", with: "\"isStackable\" : true, \"offerCodeLimit\" : 3,")
    let (_, diagnostics) = try StoreKitTests.read(text)
    let messages = diagnostics.map(\.message)
    #expect(messages.contains { $0.contains("'retentionOffers'") && $0.contains("offer key") }, "\(messages)")
    #expect(messages.contains { $0.contains("'offerCodeLimit'") }, "\(messages)")
    #expect(diagnostics.allSatisfy { $0.severity == .warning }, "\(diagnostics)")
  }

  // MARK: - Win-back rules

  static let annual = StoreProduct(
    id: "annual", displayName: "Annual", price: Decimal(string: "39.99")!, kind: .autoRenewable,
    subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year), subscriptionGroup: "pro", groupLevel: 1,
    offers: [winBack])
  static let winBack = SubscriptionOffer(
    kind: .winBack, id: "annual.back",
    terms: IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(value: 1, unit: .year), price: Decimal(string: "19.99")!),
    winBackRules: WinBackRules(paidMonths: 1, minimumMonthsSinceLapse: 1, maximumMonthsSinceLapse: 24, waitBetweenOffersMonths: nil))
  static let day: Double = 86_400
  static let lapsed = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

  @Test func aWinBackOfferIsOnlyForAChurnedSubscriberWhoMeetsItsRules() {
    let history = { (lapsedAt: Date?, paidDays: Double) in
      OfferHistory(groups: ["pro": OfferHistory.Group(lapsedAt: lapsedAt, paidSeconds: paidDays * Self.day)])
    }
    let twoMonthsOn = Self.lapsed.addingTimeInterval(61 * Self.day)
    #expect(history(Self.lapsed, 365).allows(Self.winBack, for: Self.annual, at: twoMonthsOn))
    #expect(!history(nil, 365).allows(Self.winBack, for: Self.annual, at: twoMonthsOn), "an active subscriber")
    #expect(!OfferHistory(groups: [:]).allows(Self.winBack, for: Self.annual, at: twoMonthsOn), "never subscribed")
    #expect(!history(Self.lapsed, 7).allows(Self.winBack, for: Self.annual, at: twoMonthsOn), "a week paid, a month asked")
    #expect(!history(Self.lapsed, 365).allows(Self.winBack, for: Self.annual, at: Self.lapsed.addingTimeInterval(10 * Self.day)),
            "lapsed under a month")
    #expect(!history(Self.lapsed, 365).allows(Self.winBack, for: Self.annual, at: Self.lapsed.addingTimeInterval(800 * Self.day)),
            "lapsed over 24 months")
    var used = history(Self.lapsed, 365)
    used.offerEnds["annual.back"] = Self.lapsed
    #expect(!used.allows(Self.winBack, for: Self.annual, at: twoMonthsOn), "once, without a wait between offers")
  }

  @Test func theStoreChargesTheWinBackPriceToALapsedSubscriberAndRefusesAnActiveOne() throws {
    let catalog = Catalog(products: [Self.annual])
    var requested = Self.annual
    requested.requestedOffer = Self.winBack
    let clock = SimulatedTimeSource()
    let store = SimulatedStore(catalog: catalog, status: SubscriptionStatusStore(), clock: clock, file: nil)
    #expect(store.purchaseNow(requested).isIneligible, "never subscribed")
    #expect(store.purchaseNow(Self.annual).isPurchased)
    #expect(store.purchaseNow(requested).isIneligible, "an active subscriber")
    _ = store.perform(.cancel(productID: "annual"))
    clock.advance(by: 365 * Self.day + 40 * Self.day)
    store.refreshStatus()
    #expect(store.purchaseNow(requested).isPurchased)
    let charge = try #require(store.entries.last { $0.kind == .purchase })
    #expect(charge.price == Decimal(string: "19.99") && charge.offerType == .winBack && charge.offerID == "annual.back", "\(charge)")
    #expect(store.derived.subscription(productID: "annual")?.offerName == "win-back annual.back")
  }
}

extension PurchaseResult {
  var isPurchased: Bool { if case .purchased = self { true } else { false } }
  var isIneligible: Bool { if case .failed(let error) = self { "\(error)".contains("ineligibleForOffer") } else { false } }
}

/// Promotional offers and offer codes, applied by the simulated store as StoreKit applies them.
@Suite("Promotional offers and offer codes")
struct PromotionalAndCodeOfferTests {
  static let stay = SubscriptionOffer(
    kind: .promotional, id: "annual.stay",
    terms: IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(value: 1, unit: .year), price: Decimal(string: "39.99")!))
  static let friends = SubscriptionOffer(
    kind: .code, id: "FRIENDS", terms: IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 3, unit: .month)),
    codeEligibility: [.new, .expired])
  static let annual = StoreProduct(
    id: "annual", displayName: "Annual", price: Decimal(string: "59.99")!, kind: .autoRenewable,
    subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year), subscriptionGroup: "pro", groupLevel: 1, offers: [stay])
  static let monthly = StoreProduct(
    id: "monthly", displayName: "Monthly", price: Decimal(string: "9.99")!, kind: .autoRenewable,
    subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "pro", groupLevel: 2, offers: [friends])
  static let day: Double = 86_400

  static func store() -> (SimulatedStore, SimulatedTimeSource) {
    let clock = SimulatedTimeSource()
    return (SimulatedStore(catalog: Catalog(products: [annual, monthly]), status: SubscriptionStatusStore(), clock: clock, file: nil), clock)
  }

  /// A store whose user subscribed to monthly, cancelled, and lapsed 40 days ago.
  static func lapsedStore(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (SimulatedStore, SimulatedTimeSource) {
    let (store, clock) = store()
    #expect(store.purchaseNow(monthly).isPurchased, sourceLocation: sourceLocation)
    _ = store.perform(.cancel(productID: "monthly"))
    clock.advance(by: 40 * day)
    store.refreshStatus()
    return (store, clock)
  }

  static var stayRequested: StoreProduct {
    var product = annual
    product.requestedOffer = stay
    return product
  }

  @Test func aPromotionalOfferIsForExistingOrFormerSubscribersOfTheGroup() {
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    #expect(!OfferHistory(groups: [:]).allows(Self.stay, for: Self.annual, at: now), "never subscribed")
    #expect(OfferHistory(groups: ["pro": .init(lapsedAt: nil, paidSeconds: 0, live: true)]).allows(Self.stay, for: Self.annual, at: now))
    #expect(OfferHistory(groups: ["pro": .init(lapsedAt: now, paidSeconds: 0)]).allows(Self.stay, for: Self.annual, at: now))
    #expect(OfferHistory.unknownHistory.allows(Self.stay, for: Self.annual, at: now), "unknown history: the controller decides")
    #expect(OfferHistory(groups: [:]).terms(of: Self.stay, for: Self.annual, at: now) == nil, "the card shows the regular price")
  }

  @Test func theStoreRefusesAPromotionalOfferToAUserWhoNeverSubscribed() {
    let (store, _) = Self.store()
    #expect(store.purchaseNow(Self.stayRequested).isIneligible)
    #expect(store.entries.isEmpty, "nothing charged")
  }

  @Test func aLapsedSubscriberPaysThePromotionalPriceNow() throws {
    let (store, _) = Self.lapsedStore()
    #expect(store.purchaseNow(Self.stayRequested).isPurchased)
    let charge = try #require(store.entries.last)
    #expect(charge.kind == .purchase && charge.price == Decimal(string: "39.99"), "\(charge)")
    #expect(charge.offerType == .promotional && charge.offerID == "annual.stay", "\(charge)")
  }

  @Test func anActiveSubscriberGetsThePromotionalOfferFromTheNextRenewal() throws {
    let (store, clock) = Self.store()
    #expect(store.purchaseNow(Self.annual).isPurchased)
    _ = store.perform(.cancel(productID: "annual"))
    #expect(store.purchaseNow(Self.stayRequested).isPurchased)
    let accepted = try #require(store.entries.last)
    #expect(accepted.kind == .autoRenewOn && accepted.offerType == .promotional && accepted.offerID == "annual.stay", "\(accepted)")
    #expect(store.derived.subscription(productID: "annual")?.summary.contains("offer annual.stay from the next renewal") == true)
    clock.advance(by: 366 * Self.day)
    store.refreshStatus()
    let renewal = try #require(store.entries.last { $0.kind == .renewal })
    #expect(renewal.price == Decimal(string: "39.99") && renewal.offerType == .promotional && renewal.offerID == "annual.stay", "\(renewal)")
    clock.advance(by: 366 * Self.day)
    store.refreshStatus()
    let regular = try #require(store.entries.last { $0.kind == .renewal })
    #expect(regular.price == Decimal(string: "59.99") && regular.offerType == nil, "one offer period, then the regular price: \(regular)")
  }

  @Test func aSlotSellsThePromotionalOfferOnlyToAUserWhoMayTakeItAndTellsTheController() throws {
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    let newUser = SlotProduct(slot: "primary", product: Self.annual, now: now, eligibility: IntroOfferEligibility(usedGroups: []),
                              attributes: [.trialPeriodPrice], offerID: "annual.stay", history: OfferHistory(groups: [:]))
    #expect(newUser.product.requestedOffer == nil && newUser.introOffer == nil, "a user who never subscribed: the regular product")
    #expect(newUser[.trialPeriodPrice] == Self.annual.attribute(.trialPeriodPrice), "the product's own value, not the offer's $39.99")
    let subscriber = SlotProduct(slot: "primary", product: Self.annual, now: now, eligibility: IntroOfferEligibility(usedGroups: ["pro"]),
                                 attributes: [.trialPeriodPrice], offerID: "annual.stay",
                                 history: OfferHistory(groups: ["pro": .init(lapsedAt: nil, paidSeconds: 0, live: true)]))
    #expect(subscriber.product.requestedOffer == Self.stay)
    #expect(subscriber[.trialPeriodPrice] == "$39.99")
    // The command protocol's purchase request names the offer, for the controller to pass on.
    let request = CommandPurchaseController.describe(subscriber.product).text
    #expect(request.contains(#""offer":{"type":"promotional","id":"annual.stay","paymentMode":"payUpFront","price":"39.99","period":"P1Y","periods":1}"#),
            "\(request)")
    #expect(!CommandPurchaseController.describe(newUser.product).text.contains("\"offer\""))
  }

  @Test func aPurchaseThatWaitsForAskToBuyCompletesOnItsOffer() throws {
    let (store, _) = Self.lapsedStore()
    store.setAskToBuy(true)
    let waiting = store.purchaseNow(Self.stayRequested)
    #expect({ if case .pending = waiting { true } else { false } }(), "Ask to Buy: \(waiting)")
    #expect(store.pendingPurchases.first?.offerID == "annual.stay")
    _ = store.approve()
    let charge = try #require(store.entries.last)
    #expect(charge.kind == .purchase && charge.price == Decimal(string: "39.99") && charge.offerID == "annual.stay", "\(charge)")
  }

  @Test func anOfferCodeGrantsItsPeriodToAnEligibleUserAndIsRecorded() throws {
    let (store, clock) = Self.store()
    let redeemed = try store.perform(.redeem(code: "friends")).get()
    #expect(redeemed.contains("redeemed offer code FRIENDS") && redeemed.contains("monthly"), "\(redeemed)")
    let grant = try #require(store.entries.last)
    #expect(grant.kind == .purchase && grant.productID == "monthly" && grant.price == 0, "\(grant)")
    #expect(grant.offerType == .code && grant.offerID == "FRIENDS" && grant.offer == .freeTrial, "\(grant)")
    #expect(store.derived.subscription(productID: "monthly")?.offerName == "code FRIENDS")
    clock.advance(by: 95 * Self.day)
    store.refreshStatus()
    let paid = try #require(store.entries.last { $0.kind == .renewal })
    #expect(paid.price == Decimal(string: "9.99") && paid.offerType == nil, "\(paid)")
  }

  @Test func anOfferCodeOutsideItsEligibilityOrUnknownIsAClearError() {
    let (store, _) = Self.store()
    #expect(store.purchaseNow(Self.annual).isPurchased)
    guard case .failure(let refused) = store.perform(.redeem(code: "FRIENDS")) else {
      Issue.record("a subscriber redeemed a code for new and expired customers")
      return
    }
    #expect(refused.message == "offer code 'FRIENDS' (monthly) is for new, expired customers; this user is subscribed in its group now", "\(refused)")
    guard case .failure(let unknown) = store.perform(.redeem(code: "FRIENDZ")) else {
      Issue.record("an unknown code was redeemed")
      return
    }
    #expect(unknown.message.contains("no offer code 'FRIENDZ' in the catalog") && unknown.message.contains("FRIENDS"), "\(unknown)")
    #expect(store.entries.count == 1, "nothing but the first purchase: \(store.entries)")
  }

  @Test func anOfferCodesEligibilityIsReadFromTheStoreKitFile() throws {
    let text = SubscriptionOfferTests.revenueCatVersion3
      .replacingOccurrences(of: "\"eligibility\" : [ \"existing\", \"expired\", \"new\" ]", with: "\"eligibility\" : [ \"expired\", \"lapsed\" ]")
    let (catalog, diagnostics) = try StoreKitTests.read(text)
    let product = try StoreKitTests.product(catalog, "com.revenuecat.monthly_4.99.1_week_intro")
    #expect(product.offers.first { $0.kind == .code }?.codeEligibility == [.expired])
    #expect(diagnostics.map(\.message).contains { $0.contains("'lapsed'") && $0.contains("new, existing, expired") }, "\(diagnostics)")
  }
}
