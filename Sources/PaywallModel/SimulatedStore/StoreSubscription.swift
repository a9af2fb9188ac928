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

/// One subscription (or one-time purchase) as the ledger has it at some moment: every line with
/// the same `originalID`, folded. This is what `LedgerReplay` keeps per subscription and what
/// `paywall-tui store`, the debug panel and `expect subscription` show.
public struct StoreSubscription: Sendable, Hashable {
  /// StoreKit's renewal states, plus `consumed` for consumables (they never grant access).
  public enum State: String, Sendable, Hashable, CaseIterable {
    case subscribed, inGracePeriod, inBillingRetryPeriod, expired, revoked, consumed
    /// Google Play: paused by the subscriber, no access until it resumes.
    case paused
  }

  /// The id of its first purchase, as StoreKit's `originalID`.
  public var originalID: UInt64
  /// The newest transaction: the purchase, renewal or upgrade that pays for the current period.
  public var transactionID: UInt64
  /// The product it is now (after a plan change, the new one).
  public var productID: String
  /// Nil when the catalog no longer has the product.
  public var kind: ProductKind?
  /// The subscription group (for auto-renewables without one, the product id).
  public var group: String?
  /// Bought by the user or shared by the family.
  public var ownership: LedgerEntry.Ownership
  /// Where it is in its lifecycle.
  public var state: State
  /// When the current period started.
  public var periodStart: Date
  /// The end of the current period; nil for one-time purchases.
  public var expirationDate: Date?
  /// The introductory offer the current period was bought with.
  public var offer: IntroductoryOffer.PaymentMode?
  /// Pay-as-you-go periods at the introductory price still to come.
  public var offerPeriodsLeft: Int
  /// What the current period cost.
  public var price: Decimal?
  /// The subscriber's regular price: what they paid for the product when they subscribed to it
  /// (or moved to it), an increase they accepted, or a lower catalog price since. The App Store
  /// keeps it when the catalog price rises (a price increase is the only way to move it up) and
  /// renews at a lower catalog price by itself. Nil: the catalog's (a ledger written before the
  /// store kept it).
  public var renewalPrice: Decimal?
  /// `renewalPrice` is an increase the subscriber accepted (a later catalog price may be lower
  /// than it without being a decrease for them).
  public var priceRaised = false
  /// Whether it renews at the end of the period.
  public var autoRenew: Bool
  /// The product the next renewal switches to (a downgrade or crossgrade at renewal).
  public var renewalProductID: String?
  /// The payment method fails: the next renewal enters billing retry.
  public var billingIssue: Bool
  /// Whether the failing renewal gets a billing grace period.
  public var billingIssueGrace: Bool
  /// A price increase waiting for consent at the next renewal, and the answer (nil: none yet).
  public var priceIncrease: Decimal?
  /// The subscriber's answer to `priceIncrease`: true accepted, false declined, nil not answered.
  public var priceConsent: Bool?
  /// `inGracePeriod`: when the grace period ends.
  public var gracePeriodEnd: Date?
  /// `inGracePeriod`, `inBillingRetryPeriod`: when retrying stops and it expires.
  public var billingRetryEnd: Date?
  /// A billing issue resolved during grace or retry: the subscription renews at this time.
  public var resolvedAt: Date?
  /// When it expired or was revoked, and why.
  public var endDate: Date?
  /// Why it ended; nil while it has not.
  public var endReason: LedgerEntry.Reason?
  /// What it grants while active (the product's entitlements).
  public var entitlements: Set<Entitlement>
  /// The kind of offer the current period runs on (nil: the regular price).
  public var offerType: LedgerEntry.OfferType? = nil
  /// The offer's identifier (promotional, win-back, code).
  public var offerID: String? = nil
  /// A promotional or code offer a live subscriber accepted: it starts at the next renewal, as
  /// StoreKit starts an offer for the product the customer already has (nil: none pending).
  public var renewalOfferID: String? = nil
  /// On a Play catalog: the purchase token, order id and acknowledgement (nil on the App Store).
  public var play: PlayPurchase? = nil
  /// Google Play: when a pause ends (scheduled while subscribed, begun while `paused`), or when
  /// the subscriber resumed it early.
  public var pauseUntil: Date? = nil

  /// Whether it grants its entitlements: subscribed, or in a billing grace period.
  public var isActive: Bool { state == .subscribed || state == .inGracePeriod }

  /// Still a subscription the store acts on: not expired, revoked or consumed.
  public var isLive: Bool { state == .subscribed || state == .inGracePeriod || state == .inBillingRetryPeriod || state == .paused }

  /// The next moment its state changes by itself on the clock, if any.
  public var nextEvent: Date? {
    // An unacknowledged Play purchase is refunded when its window closes, whatever comes next.
    if isLive, let deadline = play?.acknowledgeBy {
      return [deadline, lifecycleEvent].compactMap { $0 }.min()
    }
    return lifecycleEvent
  }

  /// The next renewal, expiry or end of grace or retry.
  var lifecycleEvent: Date? {
    switch state {
    case .subscribed:
      return expirationDate
    case .inGracePeriod:
      return [resolvedAt, gracePeriodEnd].compactMap { $0 }.min()
    case .inBillingRetryPeriod:
      return [resolvedAt, billingRetryEnd].compactMap { $0 }.min()
    case .paused:
      return pauseUntil
    case .expired, .revoked, .consumed:
      return nil
    }
  }

  /// Whether the current period's offer, if any, is the group's introductory offer.
  public var isIntroductory: Bool { offer != nil && (offerType == nil || offerType == .introductory) }

  /// A word for the current period: `trial`, `intro` (a paid introductory price), `win-back`,
  /// `promotional` or `code` with the offer's id (`win-back annual.back`), or nil.
  public var offerName: String? {
    if let offerType, offerType != .introductory, offer != nil {
      let word = offerType == .winBack ? "win-back" : offerType.rawValue
      return offerID.map { "\(word) \($0)" } ?? word
    }
    switch offer {
    case .freeTrial: return "trial"
    case .payAsYouGo, .payUpFront: return "intro"
    case nil: return nil
    }
  }
}

extension StoreSubscription {
  /// A Play purchase's newest order and its acknowledgement, for people: `order GPA.…..0 ·
  /// acknowledged`, `not acknowledged: refunded 2026-01-04 00:00:00 · order GPA.…`; nil off Play.
  public var playSummary: String? {
    guard let play else { return nil }
    // The deadline first: a narrow panel cuts the end of the line.
    if isLive, let deadline = play.acknowledgeBy {
      return "not acknowledged: refunded \(StoreDates.format(deadline)) · order \(play.orderID)"
    }
    return "order \(play.orderID) · \(play.isAcknowledged ? "acknowledged" : "not acknowledged")"
  }

  /// One line for people: `trial · renews 2026-01-08 00:00:00`, `billing retry until …`.
  public var summary: String {
    var parts: [String] = []
    if ownership == .familyShared { parts.append("family-shared") }
    switch state {
    case .subscribed:
      parts.append(offerName ?? "subscribed")
      if let end = expirationDate {
        parts.append("\(autoRenew && kind == .autoRenewable ? "renews" : "expires") \(StoreDates.format(end))")
      } else {
        parts.append("owned")
      }
    case .inGracePeriod:
      parts.append("billing grace period until \(gracePeriodEnd.map(StoreDates.format) ?? "?")")
    case .inBillingRetryPeriod:
      // Play calls it account hold.
      parts.append("\(play == nil ? "billing retry" : "account hold") until \(billingRetryEnd.map(StoreDates.format) ?? "?")")
    case .expired, .revoked:
      parts.append("\(state.rawValue) \(endDate.map(StoreDates.format) ?? "") (\(endReason?.rawValue ?? "?"))")
    case .consumed:
      parts.append("consumed")
    case .paused:
      parts.append("paused until \(pauseUntil.map(StoreDates.format) ?? "?")")
    }
    if state == .subscribed, let resume = pauseUntil { parts.append("pauses at renewal until \(StoreDates.format(resume))") }
    if isLive {
      if let next = renewalProductID { parts.append("then \(next)") }
      if let offer = renewalOfferID { parts.append("offer \(offer) from the next renewal") }
      if billingIssue { parts.append("payment failing") }
      if let price = priceIncrease {
        parts.append("price increase to \(price) \(priceConsent.map { $0 ? "accepted" : "declined" } ?? "awaiting consent")")
      }
    }
    return parts.joined(separator: " · ")
  }
}

/// The changes `LedgerReplay` makes to a subscription as it applies ledger lines.
extension StoreSubscription {
  /// Opens the period `entry` starts (a renewal, or a plan change that applies now): its
  /// transaction, dates and price, subscribed again with no grace, retry or resolution pending.
  mutating func beginPeriod(_ entry: LedgerEntry) {
    transactionID = entry.id
    periodStart = entry.date
    expirationDate = entry.expirationDate
    price = entry.price
    clearRecovery()
    pauseUntil = nil
    state = .subscribed
  }

  /// Out of any grace period or billing retry, with no resolution pending.
  mutating func clearRecovery() {
    resolvedAt = nil
    gracePeriodEnd = nil
    billingRetryEnd = nil
  }

  /// Now `productID` (`product`, as the ledger's replay finds it), with its kind and entitlements.
  mutating func switchProduct(to productID: String, product: StoreProduct?) {
    kind = product?.kind ?? kind
    entitlements = product?.entitlements ?? []
    self.productID = productID
  }
}
