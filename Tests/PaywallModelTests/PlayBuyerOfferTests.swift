import Foundation
import PaywallModel
import Testing

/// A Play product's offer for the buyer in front of it: Play returns only the offers the buyer
/// qualifies for ("Eligibility criteria" in Play Console Help) and the SDK selects among them
/// (`RawStoreProduct.getSelectedOfferDetails`), so the cards and the store's charge follow the
/// buyer's history, not a new customer's.
@Suite("Play offers for the buyer")
struct PlayBuyerOfferTests {
  static func catalog() throws -> Catalog {
    let path = ((Fixture.paywallsDirectory as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent("scenarios/projects/play-offers")
    let loaded = ProjectLoader.load(path: path)
    return try #require(loaded.project?.catalog, "\(loaded.diagnostics.map(\.description))")
  }

  static func offer(_ id: String, _ catalog: Catalog, _ history: PlayPurchaseHistory) throws -> IntroductoryOffer? {
    let source = try #require(catalog.play)
    let product = try #require(catalog.product(id: id))
    var eligibility = IntroOfferEligibility(usedGroups: [])
    eligibility.play = PlayBuyer(source: source, history: history)
    return eligibility.offer(for: product)
  }

  @Test func aFormerSubscriberGetsTheOfferPlayStillReturnsThemAndNoNewCustomersTrial() throws {
    let catalog = try Self.catalog()
    let newCustomer = PlayPurchaseHistory.newCustomer
    #expect(try Self.offer("acme_pro:monthly:sw-auto", catalog, newCustomer)?.paymentMode == .freeTrial)
    #expect(try Self.offer("acme_team:monthly:sw-auto", catalog, newCustomer)?.paymentMode == .freeTrial)

    let former = PlayPurchaseHistory(everSubscribed: ["acme_pro"])
    let selected = try Self.offer("acme_pro:monthly:sw-auto", catalog, former)
    let welcomeBack = try #require(selected)
    #expect(welcomeBack.paymentMode == .payAsYouGo && welcomeBack.price == Decimal(string: "5"))
    // "New customer acquisition" across the app: a former Pro subscriber is no new Team customer.
    #expect(try Self.offer("acme_team:monthly:sw-auto", catalog, former) == nil)
    // The product itself, as the controller's request names it, carries the offer selected.
    let source = try #require(catalog.play)
    let product = try #require(catalog.product(id: "acme_pro:monthly:sw-auto"))
    let remade = try #require(source.product(product, for: former))
    guard case .subscription(let chosen)? = remade.play?.selection else { Issue.record("no subscription offer selected"); return }
    #expect(chosen.offerId == "welcome-back")
  }

  /// A live subscriber moves by a replacement, which starts no offer in the simulated store: the
  /// card promises none.
  @Test func aLiveSubscriberIsPromisedNoOffer() throws {
    let catalog = try Self.catalog()
    let month = try #require(PlayDuration(iso8601: "P1M"))
    let live = PlayPurchaseHistory(current: [.init(productId: "acme_pro", basePlanId: "monthly", billingPeriod: month)])
    #expect(try Self.offer("acme_pro:monthly:sw-auto", catalog, live) == nil)
  }
}
