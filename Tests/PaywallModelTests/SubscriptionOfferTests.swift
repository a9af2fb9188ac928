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
