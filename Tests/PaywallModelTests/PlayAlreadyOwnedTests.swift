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

  /// A fresh store on the example catalog; the caller removes the rig.
  static func fresh() throws -> (catalog: Catalog, rig: SimulatedStoreRig, store: SimulatedStore) {
    let catalog = try Self.catalog()
    let rig = try SimulatedStoreRig(catalog: catalog)
    return (catalog, rig, rig.makeStore())
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
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let rental = try Self.product("acme_lifetime:rent-30-days", in: catalog)
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
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

  /// The debug panel's and a script's `buy`: a refusal is a failed action, and nothing is written.
  @Test func aBuyActionOfWhatIsOwnedFailsWithPlaysAnswer() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    #expect(try store.perform(.buy(productID: kept.id)).get() == "bought acme_lifetime:buy")
    let before = store.entries
    let again = store.perform(.buy(productID: kept.id))
    guard case .failure(let refused) = again else {
      Issue.record("a second buy of an owned product succeeded: \(again)")
      return
    }
    #expect(refused.message.hasPrefix("buying acme_lifetime:buy failed: This item is already owned (ITEM_ALREADY_OWNED): acme_lifetime is owned"), "\(refused.message)")
    #expect(store.entries == before)
  }

  /// A `buy` of a product the Play catalog defines but does not sell in its region is told why, as
  /// a paywall slot and `call purchase` naming it are, not that the catalog has no such product.
  @Test func aBuyActionOfWhatTheRegionIsNotSoldSaysWhy() throws {
    let german = try PlayCatalog.load(path: PlayCatalogReaderTests.examplePath).catalog(region: "DE")
    let rig = try SimulatedStoreRig(catalog: german)
    defer { rig.remove() }
    let store = rig.makeStore()
    let refused = store.perform(.buy(productID: "acme_pro:season-pass"))
    guard case .failure(let error) = refused else {
      Issue.record("a product not sold in DE was bought: \(refused)")
      return
    }
    #expect(error.message.hasPrefix("'acme_pro:season-pass': ") && error.message.contains("sells nothing under it to a buyer in DE"), "\(error.message)")
    #expect(store.entries.isEmpty)
  }

  /// An interrupted buy is not refused: it waits for `resolve-interrupted`, which buys it.
  @Test func anInterruptedBuyActionWaitsAndIsNotAFailure() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    _ = try store.perform(.interruptNextPurchase).get()
    let interrupted = try store.perform(.buy(productID: kept.id)).get()
    #expect(interrupted.hasPrefix("buying acme_lifetime:buy was interrupted"), "\(interrupted)")
    #expect(try store.perform(.resolveInterrupted).get().contains("acme_lifetime:buy"))
    #expect(store.entries.filter { $0.kind == .purchase }.map(\.productID) == ["acme_lifetime:buy"], "\(store.entries.map(\.kind))")
  }

  /// Play refunds a subscription's order and leaves the subscription running
  /// (purchases.subscriptions.refund); `revoke` ends it. The ledger line names the order refunded.
  @Test func aPlaySubscriptionsRefundReturnsTheOrderAndKeepsItRenewing() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    #expect(store.purchaseNow(monthly) == .purchased)
    let bought = try #require(store.entries.first)
    let said = try store.perform(.refund(productID: monthly.id)).get()
    #expect(said.contains("Google Play keeps the subscription renewing"), "\(said)")
    let refund = try #require(store.entries.last)
    #expect(refund.kind == .refundKeepingAccess && refund.revokedID == bought.id)
    #expect(store.subscription(monthly.id)?.isLive == true && store.subscription(monthly.id)?.autoRenew == true)
    #expect(store.derived.status.entitlements.contains("pro"))
    // One order is refunded once.
    guard case .failure(let again) = store.perform(.refund(productID: monthly.id)) else {
      Issue.record("the same order was refunded twice")
      return
    }
    #expect(again.message.contains("is refunded already"), "\(again.message)")
    _ = try store.perform(.revoke(productID: monthly.id)).get()
    #expect(store.subscription(monthly.id)?.state == .revoked)
  }

  @Test func aRefundedOneTimeProductIsSoldAgain() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    #expect(store.purchaseNow(kept) == .purchased)
    #expect(Self.refusal(store.purchaseNow(kept))?.0 == .itemAlreadyOwned)
    _ = try store.perform(.refund(productID: kept.id)).get()
    #expect(store.purchaseNow(kept) == .purchased)
    #expect(store.kinds().filter { $0 == .purchase }.count == 2, "\(store.kinds())")
  }

  @Test func theBasePlanASubscriptionRenewsOnIsNotSoldAgainUnderAnySpelling() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let plain = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    let chosen = try Self.product("acme_pro:monthly", in: catalog)
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
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    let annual = try Self.product("acme_pro:annual:sw-none", in: catalog)
    #expect(store.purchaseNow(monthly) == .purchased)
    #expect(store.purchaseNow(annual) == .purchased)
    #expect(store.kinds().contains { [.upgrade, .downgrade, .crossgrade].contains($0) }, "\(store.kinds())")
  }

  @Test func theRefusalComesBeforeTheTestCard() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    #expect(store.purchaseNow(kept) == .purchased)
    _ = try store.perform(.testCard(.slowApproves)).get()
    #expect(Self.refusal(store.purchaseNow(kept))?.0 == .itemAlreadyOwned)
    #expect(store.pendingPurchases.isEmpty, "an owned product waited for the slow card")
  }

  /// A purchase waiting on the slow test card is the buyer's already (PENDING): a second one of
  /// the same product is refused, so the two never both complete and charge twice.
  @Test func aPendingPurchaseHoldsWhatItBuys() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let rental = try Self.product("acme_lifetime:rent-30-days", in: catalog)
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    _ = try store.perform(.testCard(.slowApproves)).get()
    #expect(store.purchaseNow(rental) == .pending)
    #expect(store.purchaseNow(monthly) == .pending)
    let refusal = try #require(Self.refusal(store.purchaseNow(kept)), "a second purchase of acme_lifetime waited beside the first")
    #expect(refusal.0 == .itemAlreadyOwned)
    #expect(refusal.1.contains("acme_lifetime is being bought (acme_lifetime:rent-30-days, PENDING)"), "\(refusal.1)")
    let offer = try Self.product("acme_pro:monthly:half-off-3-months", in: catalog)
    #expect(Self.refusal(store.purchaseNow(offer))?.0 == .itemAlreadyOwned, "a second purchase of the monthly plan waited beside the first")
    #expect(store.pendingPurchases.count == 2)
    rig.advance(store, by: 600)
    #expect(store.kinds().filter { $0 == .purchase }.count == 2, "\(store.kinds())")
    #expect(!store.kinds().contains { [.upgrade, .downgrade, .crossgrade].contains($0) }, "\(store.kinds())")
  }

  /// An interrupted purchase has failed (the buyer must act first) and holds nothing: buying again
  /// is not refused as owned.
  @Test func anInterruptedPurchaseHoldsNothing() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    _ = try store.perform(.interruptNextPurchase).get()
    guard case .failed = store.purchaseNow(monthly) else { Issue.record("the purchase was not interrupted"); return }
    #expect(store.purchaseNow(monthly) == .purchased)
  }

  /// An approval whose purchase Play no longer sells says so, and buys nothing.
  @Test func anApprovalOfWhatWasBoughtMeanwhileSaysItWasNotBought() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    _ = try store.perform(.interruptNextPurchase).get()
    _ = store.purchaseNow(monthly)
    #expect(store.purchaseNow(monthly) == .purchased)
    // Bought nothing, the resolution fails as a refused buy does (a script stops there).
    guard case .failure(let said) = store.perform(.resolveInterrupted) else {
      Issue.record("resolving an interrupted purchase of what was bought meanwhile succeeded")
      return
    }
    #expect(said.message.contains("not bought") && said.message.contains("ITEM_ALREADY_OWNED"), "\(said.message)")
    #expect(store.kinds().filter { $0 == .purchase }.count == 1, "\(store.kinds())")
  }

  /// An interruption does not get past Play's refusal: what is owned is refused at once, and the
  /// interruption stays armed for the next purchase.
  @Test func anInterruptionDoesNotGetPastItemAlreadyOwned() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let kept = try Self.product("acme_lifetime:buy", in: catalog)
    #expect(store.purchaseNow(kept) == .purchased)
    _ = try store.perform(.interruptNextPurchase).get()
    #expect(Self.refusal(store.purchaseNow(kept))?.0 == .itemAlreadyOwned)
    #expect(store.pendingPurchases.isEmpty && store.interruptsNextPurchase)
  }

  /// An interrupted purchase is paid when the buyer completes it: with the declining test card
  /// it is not bought.
  @Test func aResolvedInterruptionPaysWithTheTestCard() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    _ = try store.perform(.testCard(.alwaysDeclines)).get()
    _ = try store.perform(.interruptNextPurchase).get()
    _ = store.purchaseNow(monthly)
    guard case .failure(let said) = store.perform(.resolveInterrupted) else {
      Issue.record("an interrupted purchase completed on the declining card")
      return
    }
    #expect(said.message.contains("was not bought"), "\(said.message)")
    #expect(!store.kinds().contains(.purchase), "\(store.kinds())")
  }

  /// A Play subscription that has ended is refunded as it is (expired, not revoked), and once.
  @Test func anEndedPlaySubscriptionsRefundLeavesItExpired() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    #expect(store.purchaseNow(monthly) == .purchased)
    _ = try store.perform(.cancel(productID: monthly.id)).get()
    rig.advance(store, by: 62 * 86_400)
    #expect(store.subscription(monthly.id)?.state == .expired)
    #expect(try store.perform(.refund(productID: monthly.id)).get().contains("as it is (expired)"))
    #expect(store.subscription(monthly.id)?.state == .expired)
    guard case .failure = store.perform(.refund(productID: monthly.id)) else {
      Issue.record("the ended subscription's last order was refunded twice")
      return
    }
  }

  /// A paused subscription, or one on account hold, is still the buyer's: the refusal says which,
  /// and what gives it back.
  @Test func aPausedOrHeldSubscriptionIsRefusedWithItsState() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    #expect(store.purchaseNow(monthly) == .purchased)
    _ = try store.perform(.pause(productID: monthly.id, .oneMonth)).get()
    rig.advance(store, by: days(32))
    #expect(store.subscription(monthly.id)?.state == .paused)
    let paused = try #require(Self.refusal(store.purchaseNow(monthly)))
    #expect(paused.1.contains("acme_pro:monthly is paused") && paused.1.contains("'resume'"), "\(paused.1)")

    let (_, other, held) = try Self.fresh()
    defer { other.remove() }
    #expect(held.purchaseNow(monthly) == .purchased)
    _ = try held.perform(.billingIssue(productID: monthly.id, grace: false)).get()
    other.advance(held, by: days(32))
    #expect(held.subscription(monthly.id)?.state == .inBillingRetryPeriod)
    let onHold = try #require(Self.refusal(held.purchaseNow(monthly)))
    #expect(onHold.1.contains("acme_pro:monthly is on account hold") && onHold.1.contains("'resolve-billing'"), "\(onHold.1)")
  }

  /// Another spelling of the same base plan is the same purchase: a prepaid plan is topped up, a
  /// cancelled subscription restored, where each became a second purchase or a change to itself.
  @Test func anotherSpellingOfTheSamePlanIsTheSamePurchase() throws {
    let (catalog, rig, store) = try Self.fresh()
    defer { rig.remove() }
    let pass = try Self.product("acme_pro:season-pass", in: catalog)
    let passAgain = try Self.product("acme_pro:season-pass:sw-none", in: catalog)
    #expect(store.purchaseNow(pass) == .purchased)
    #expect(store.purchaseNow(passAgain) == .purchased)
    #expect(store.kinds().filter { $0 == .purchase }.count == 1, "\(store.kinds())")
    #expect(store.kinds().contains(.topUp), "\(store.kinds())")

    let monthly = try Self.product("acme_pro:monthly:sw-none", in: catalog)
    let offer = try Self.product("acme_pro:monthly:half-off-3-months", in: catalog)
    let (_, other, cancelled) = try Self.fresh()
    defer { other.remove() }
    #expect(cancelled.purchaseNow(monthly) == .purchased)
    _ = try cancelled.perform(.cancel(productID: monthly.id)).get()
    #expect(cancelled.purchaseNow(offer) == .purchased)
    #expect(cancelled.kinds().last == .autoRenewOn, "\(cancelled.kinds())")
    #expect(cancelled.subscription(monthly.id)?.autoRenew == true)
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
