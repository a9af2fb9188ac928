#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which introductory offers a user may still take: the one answer that the simulated store's
/// charge, the product cards, the offer's template variables (`trialPeriodPrice`,
/// `trialPeriodText`…), the free-trial copy and the purchase event all read, so a paywall never
/// promises an offer the store will not give.
///
/// StoreKit's rule (`Product.SubscriptionInfo.isEligibleForIntroOffer`): a subscription group's
/// introductory offer is for a user who has never subscribed to any product of the group, with
/// or without an offer; once per group, ever, whatever happened to that subscription since
/// (expired, refunded, still active). The SDK asks StoreKit exactly that for each product
/// (`StoreKit/Products/Receipt Manager/Receipt Manager/SK2ReceiptManager.swift`,
/// `isEligibleForIntroOffer`, which first needs the product's `hasFreeTrial`, i.e. an offer), and
/// its `isFreeTrialAvailable` is that answer for any product of the paywall
/// (`Paywall/Request/Operators/AddPaywallProducts.swift`, `refreshFreeTrialAvailability`).
///
/// From SDK 4.15 a custom store product (`"store": "custom"`) has no StoreKit behind it: its trial is for a user
/// who has never had any of its entitlements, active now or held before, and never for a product
/// that grants none or while the history is not known (the SDK's placeholder customer info)
/// (`StoreKit/Transactions/TransactionManager.swift` `isCustomProductFreeTrialAvailable`,
/// `Paywall/Request/Operators/AddPaywallProducts.swift` `checkCustomTrialEligibility`,
/// `hasEverHadEntitlement`).
///
/// Other offer types (promotional, win-back, offer codes) have rules of their own and do not
/// use a group's introductory offer; they belong beside this type, not in it.
public struct IntroOfferEligibility: Sendable, Hashable {
  /// The subscription groups this user has subscribed in (by `group(of:)`); nil when the
  /// purchase history is unknown (a controller other than the simulated store), and every offer
  /// then shows as a new user sees it.
  public var usedGroups: Set<String>?

  /// Whether a custom store product's trial follows `entitlementHistory` (SDK 4.15 and later, which
  /// has such products); otherwise it is any product's, by its group.
  public var decidesCustomProductsByEntitlements: Bool
  /// The entitlements this user has had, active now or before (the SDK's customer info); nil
  /// while not known, when no custom store product's trial is offered.
  public var entitlementHistory: Set<Entitlement>?
  /// On a Google Play catalog with a known history: each Play product's offer is the one Play and
  /// the SDK give this buyer (`PlaySource.product(_:for:)`), not a group's once-only trial.
  package var play: PlayBuyer?

  /// A user who has subscribed in `usedGroups` (nil: history unknown); with
  /// `decidesCustomProductsByEntitlements`, one who has had the entitlements in
  /// `entitlementHistory` (nil: not known).
  public init(usedGroups: Set<String>?, decidesCustomProductsByEntitlements: Bool = false,
              entitlementHistory: Set<Entitlement>? = nil) {
    self.usedGroups = usedGroups
    self.decidesCustomProductsByEntitlements = decidesCustomProductsByEntitlements
    self.entitlementHistory = entitlementHistory
  }

  /// No purchase history known: every product's offer is shown.
  public static let unknownHistory = IntroOfferEligibility(usedGroups: nil)

  /// The group whose introductory offer `product`'s is: its subscription group, or the product
  /// itself when it names none (a group of one).
  public static func group(of product: StoreProduct) -> String {
    product.subscriptionGroup ?? product.id
  }

  /// The introductory offer a new subscription to `product` starts with now: nil when the
  /// product has none (only auto-renewable subscriptions do) or this user used its group's (a
  /// custom store product's: had one of its entitlements, or the history is not known).
  public func offer(for product: StoreProduct) -> IntroductoryOffer? {
    offerTaken(by: product).offer
  }

  /// The introductory offer a purchase of `product` starts now, and on a Play catalog the id of
  /// the Play offer it is (which the ledger keeps, for the offers Play gives once per user).
  package func offerTaken(by product: StoreProduct) -> (offer: IntroductoryOffer?, playOfferID: String?) {
    // Play leaves out the offers a buyer may not take and the SDK selects among the rest: an offer
    // it selects for this buyer is the buyer's to take (`PlaySelectedProduct.startsFreeTrialWhenPurchased`).
    if let play, let selected = product.play, product.kind == .autoRenewable {
      // A live subscriber of the subscription moves by a replacement (`StorePlanner.playReplacement`),
      // which starts no offer in the simulated store: the card promises none either.
      if play.history.current.contains(where: { $0.productId == selected.identifier.productId }) { return (nil, nil) }
      guard let remade = play.source.product(product, for: play.history), let offer = remade.introductoryOffer else { return (nil, nil) }
      guard case .subscription(let details)? = remade.play?.selection else { return (offer, nil) }
      return (offer, details.offerId)
    }
    return (groupOffer(for: product), nil)
  }

  /// Any other product's offer: by its entitlements (a custom store product), else by its group.
  private func groupOffer(for product: StoreProduct) -> IntroductoryOffer? {
    guard product.kind == .autoRenewable, let offer = product.introductoryOffer else { return nil }
    if decidesCustomProductsByEntitlements && product.store == .custom {
      guard !product.entitlements.isEmpty, let entitlementHistory else { return nil }
      return entitlementHistory.isDisjoint(with: product.entitlements) ? offer : nil
    }
    guard let usedGroups else { return offer }
    return usedGroups.contains(Self.group(of: product)) ? nil : offer
  }

  /// Whether buying `product` now starts its introductory offer.
  public func isEligible(for product: StoreProduct) -> Bool {
    offer(for: product) != nil
  }
}
