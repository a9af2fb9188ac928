import Foundation
import Testing
@testable import PaywallModel

/// Google Play sells what the buyer holds only once: a purchase of an owned one-time product (by
/// any of its purchase options) or of the base plan a subscription renews on fails with
/// `ITEM_ALREADY_OWNED`, before any payment, and changes nothing. The App Store answers the same
/// purchases as bought.
@Suite struct PlayAlreadyOwnedTests {
  static func catalog() throws -> Catalog {
    try PlayCatalog.load(path: PlayCatalogReaderTests.examplePath)
      .catalog(entitlements: ["acme_lifetime": ["lifetime"], "acme_pro": ["pro"]])
  }

  static func product(_ id: String, in catalog: Catalog) throws -> StoreProduct {
    try #require(catalog.product(id: id), "the example catalog sells \(id)")
  }

  /// The response a purchase failed with, and the reason the store gave.
  static func refusal(_ result: PurchaseResult) -> (PlayBillingResponse, String)? {
    guard case .failed(let error) = result, let failure = error as? PlayBillingFailure else { return nil }
    return (failure.response, failure.reason ?? "")
  }

  @Test func aOneTimeProductOwnedThroughOneOptionIsNotSoldAgainThroughAnother() throws {
    let catalog = try Self.catalog()
    let rental = try Self.product("acme_lifetime:rent-30-days", in: catalog)
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.purchaseNow(rental) == .purchased)
    let before = store.entries

    let again = try #require(Self.refusal(store.purchaseNow(rental)), "the running rental was rented again")
    #expect(again.0 == .itemAlreadyOwned)
    let other = try #require(Self.refusal(store.purchaseNow(kept)), "the option bought to keep was sold beside the running rental")
    #expect(other.0 == .itemAlreadyOwned)
    #expect(other.1.contains("acme_lifetime is owned (bought as acme_lifetime:rent-30-days)"), "\(other.1)")
    #expect(other.1.contains("the rental ends"), "\(other.1)")
    #expect(store.entries == before, "a refused purchase wrote to the ledger")

    rig.advance(store, by: days(31))
    #expect(store.purchaseNow(kept) == .purchased, "once the rental ended the product is sold again")
    let owned = try #require(Self.refusal(store.purchaseNow(kept)))
    #expect(owned.1.contains("until it is refunded") && !owned.1.contains("rental"), "\(owned.1)")
  }

  @Test func aRefundedOneTimeProductIsSoldAgain() throws {
    let catalog = try Self.catalog()
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.purchaseNow(kept) == .purchased)
    #expect(Self.refusal(store.purchaseNow(kept))?.0 == .itemAlreadyOwned)
    _ = try store.perform(.refund(productID: kept.id)).get()
    #expect(store.purchaseNow(kept) == .purchased)
    #expect(store.kinds().filter { $0 == .purchase }.count == 2, "\(store.kinds())")
  }

  @Test func theBasePlanASubscriptionRenewsOnIsNotSoldAgainUnderAnySpelling() throws {
    let catalog = try Self.catalog()
    let plain = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    let chosen = try Self.product("acme_pro:monthly", in: catalog)
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.purchaseNow(plain) == .purchased)
    let before = store.entries
    for product in [plain, chosen] {
      let refusal = try #require(Self.refusal(store.purchaseNow(product)), "\(product.id) was sold to its subscriber")
      #expect(refusal.0 == .itemAlreadyOwned)
      #expect(refusal.1.contains("acme_pro:monthly is subscribed and renews"), "\(refusal.1)")
    }
    #expect(store.entries == before)
    // Cancelled, it is bought again as a restoration on the same token, not refused.
    _ = try store.perform(.cancel(productID: plain.id)).get()
    #expect(store.purchaseNow(plain) == .purchased)
    #expect(store.kinds().last == .autoRenewOn, "\(store.kinds())")
  }

  @Test func anotherBasePlanStillReplacesTheSubscription() throws {
    let catalog = try Self.catalog()
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    let annual = try Self.product("acme_pro:annual:sw-none", in: catalog)
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.purchaseNow(monthly) == .purchased)
    #expect(store.purchaseNow(annual) == .purchased)
    #expect(store.kinds().contains { [.upgrade, .downgrade, .crossgrade].contains($0) }, "\(store.kinds())")
  }

  @Test func theRefusalComesBeforeTheTestCard() throws {
    let catalog = try Self.catalog()
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.purchaseNow(kept) == .purchased)
    _ = try store.perform(.testCard(.slowApproves)).get()
    #expect(Self.refusal(store.purchaseNow(kept))?.0 == .itemAlreadyOwned)
    #expect(store.pendingPurchases.isEmpty, "an owned product waited for the slow card")
  }

  @Test func theAppStoreSellsAnOwnedNonConsumableAsBoughtAndRecordsNothing() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    let lifetime = try #require(rig.catalog.products.first { $0.kind == .nonConsumable })
    #expect(store.purchaseNow(lifetime) == .purchased)
    #expect(store.purchaseNow(lifetime) == .purchased)
    #expect(store.kinds().filter { $0 == .purchase }.count == 1, "\(store.kinds())")
  }
}
