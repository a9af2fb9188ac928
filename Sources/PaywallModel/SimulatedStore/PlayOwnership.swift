#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// What a Google Play buyer holds, as Play counts it: a purchase owns a one-time product
/// (whichever purchase option bought it) or a subscription's base plan (whichever offer), not the
/// paywall's spelling of the id. Play sells what the buyer holds only once
/// (BillingClient.BillingResponseCode.ITEM_ALREADY_OWNED, "the item is already owned"; Process
/// purchases: a one-time product is bought again only once consumed).
extension LedgerReplay {
  /// What a Play purchase of `product` owns: the one-time product's id, or the subscription's id
  /// and base plan; the catalog's id where the product is not Play's.
  static func playOwnershipKey(_ product: StoreProduct) -> String {
    switch product.play?.selection {
    case .oneTime?: product.play?.details.productId ?? product.id
    case .subscription(let offer)?: (product.play?.details.productId ?? product.id) + ":" + offer.basePlanId
    case nil: product.id
    }
  }

  /// What the product bought as `productID` owns (the id itself where the catalog no longer has it).
  func playOwnershipKey(of productID: String) -> String {
    owned(productID).map(Self.playOwnershipKey) ?? productID
  }

  /// Whether `held` is a Play purchase of what `product` would buy: the same base plan or
  /// one-time product under any spelling.
  func playHolds(_ held: StoreSubscription, as product: StoreProduct) -> Bool {
    isPlay && playOwnershipKey(of: held.productID) == Self.playOwnershipKey(product)
  }

  /// Why Google Play answers `ITEM_ALREADY_OWNED` to a purchase of `product` now, if it does: a
  /// one-time product while a purchase of it is owned (a rental still running included); a base
  /// plan while its subscription renews, is paused or is on account hold (cancelled, buying it
  /// again restores it instead); a prepaid plan without time extension while it runs. A prepaid plan
  /// with time extension is topped up instead.
  func playAlreadyOwned(_ product: StoreProduct) -> String? {
    guard isPlay, product.kind != .consumable else { return nil }
    let wanted = Self.playOwnershipKey(product)
    for held in subscriptions where held.ownership == .purchased && held.isLive && playHolds(held, as: product) {
      let bought = "bought as \(held.productID)"
      switch product.kind {
      case .nonConsumable:
        let until = held.expirationDate.map { " or the rental ends (\(StoreDates.format($0)))" } ?? ""
        return "\(wanted) is owned (\(bought)): Google Play answers ITEM_ALREADY_OWNED until it is refunded\(until)"
      case .autoRenewable where held.state == .paused && held.autoRenew:
        return "\(wanted) is paused (\(bought)): Google Play answers ITEM_ALREADY_OWNED; resume it ('resume') to have it back"
      case .autoRenewable where held.state == .inBillingRetryPeriod && held.autoRenew:
        return "\(wanted) is on account hold, its renewal unpaid (\(bought)): Google Play answers ITEM_ALREADY_OWNED; fix the payment ('resolve-billing') to recover it"
      case .autoRenewable where held.autoRenew && held.renewalProductID == nil:
        return "\(wanted) is subscribed and renews (\(bought)): Google Play answers ITEM_ALREADY_OWNED; cancel it first, or buy another base plan to replace it"
      case .nonRenewing where product.playPlan?.timeExtension == false && held.state == .subscribed:
        return "\(product.id) is a prepaid plan that cannot be topped up (TIME_EXTENSION_INACTIVE) and is still running: Google Play answers ITEM_ALREADY_OWNED"
      default:
        continue
      }
    }
    return nil
  }

  /// Why Google Play answers `ITEM_ALREADY_OWNED` while a purchase of what `product` would buy
  /// waits to complete (a slow test card's, an approval's): that purchase is the buyer's already,
  /// in the PENDING state, until it completes or is declined.
  func playPendingPurchase(of product: StoreProduct, among pending: [PendingPurchase]) -> String? {
    guard isPlay, product.kind != .consumable else { return nil }
    let wanted = Self.playOwnershipKey(product)
    // An interrupted purchase has failed already (the buyer must act first): it holds nothing.
    guard let waiting = pending.first(where: { $0.kind != .interrupted && playOwnershipKey(of: $0.productID) == wanted }) else { return nil }
    return "\(wanted) is being bought (\(waiting.productID), PENDING): Google Play answers ITEM_ALREADY_OWNED until that purchase completes or is declined"
  }
}
