#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// A purchase as Google Play names it, for a subscription or one-time purchase on a Play catalog:
/// its purchase token (kept by every renewal, new on a replacement, which links the token it
/// replaces), its latest order id and whether the app acknowledged it.
///
/// Play's own shapes (developer.android.com/google/play/billing/subscriptions, "Subscription
/// lifecycle"; developers.google.com/android-publisher/api-ref/rest/v3/purchases.subscriptionsv2):
/// an order id is `GPA.` and four groups of digits; a renewal's is the purchase's followed by
/// `..0` for the first renewal, `..1` for the second… The simulated store derives both from the
/// ledger line that started the purchase, so the same ledger always gives the same ids.
public struct PlayPurchase: Sendable, Hashable {
  /// The purchase token: what the app and its server identify the purchase by.
  public var purchaseToken: String
  /// The token of the purchase this one replaced (an upgrade or downgrade between base plans).
  public var linkedPurchaseToken: String?
  /// The order id of the newest charge: the purchase's, then each renewal's.
  public var orderID: String
  /// When the app acknowledged the purchase; nil while it has not.
  public var acknowledgedAt: Date?
  /// While unacknowledged: when Play refunds it and revokes its entitlement.
  public var acknowledgeBy: Date?
  /// The ledger line that started the purchase (its purchase or replacement).
  package var startID: UInt64
  /// Renewals on this purchase token so far.
  package var renewals: Int

  /// A purchase started by ledger line `startID` at `date`, replacing `linked` if any; it must
  /// be acknowledged within `window` seconds (nil: no acknowledgement is needed).
  package init(startID: UInt64, linked: PlayPurchase?, at date: Date, window: Double?) {
    self.startID = startID
    purchaseToken = Self.purchaseToken(startID)
    linkedPurchaseToken = linked?.purchaseToken
    orderID = Self.orderID(startID, renewal: nil)
    renewals = 0
    acknowledgedAt = nil
    acknowledgeBy = window.map { date.addingTimeInterval($0) }
  }

  /// Acknowledged, or not yet (`acknowledged` / `pending`, in `purchases.subscriptionsv2` words).
  public var isAcknowledged: Bool { acknowledgedAt != nil }

  /// Counts `count` renewals on the token: the order id is the last one's.
  package mutating func renew(count: Int) {
    renewals += count
    orderID = Self.orderID(startID, renewal: renewals - 1)
  }

  /// Play gives an app 3 days to acknowledge a purchase before refunding it ("Process purchases":
  /// developer.android.com/google/play/billing/integrate#process); a license tester's purchase,
  /// on the accelerated test timeline (a `renewal=` rate here), 3 minutes.
  package static func acknowledgementWindow(_ rules: StoreRules) -> Double {
    rules.renewalInterval == nil ? 3 * 86_400 : 180
  }

  /// `GPA.1234-5678-9012-34567`, with `..N` for the renewal `N` (from 0).
  package static func orderID(_ startID: UInt64, renewal: Int?) -> String {
    let digits = String(mix(startID) % 100_000_000_000_000_000)
    let padded = String(repeating: "0", count: 17 - digits.count) + digits
    let chars = Array(padded)
    let groups = [chars[0..<4], chars[4..<8], chars[8..<12], chars[12..<17]].map { String($0) }
    return "GPA." + groups.joined(separator: "-") + (renewal.map { "..\($0)" } ?? "")
  }

  /// An opaque token shaped like Play's: 24 lowercase letters, a dot, then `AO-J1O` and more
  /// letters and digits.
  package static func purchaseToken(_ startID: UInt64) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    var state = mix(startID ^ 0x5EED)
    var head = ""
    for _ in 0..<24 {
      state = mix(state)
      head.append(letters[Int(state % 26)])
    }
    var tail = ""
    for _ in 0..<40 {
      state = mix(state)
      tail.append(alphabet[Int(state % 64)])
    }
    return "\(head).AO-J1O\(tail)"
  }

  /// SplitMix64's finalizer: the same id always gives the same digits, neighbours look unrelated.
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The payment instruments Google Play offers a license tester in its purchase dialog
/// ("Test your Google Play Billing Library integration": developer.android.com/google/play/billing/test).
/// The simulated store pays with the one chosen until another is.
public enum PlayTestCard: String, Sendable, Hashable, CaseIterable {
  /// "Test card, always approves": the purchase completes at once (the default).
  case alwaysApproves = "always-approves"
  /// "Test card, always declines": the purchase fails.
  case alwaysDeclines = "always-declines"
  /// "Slow test card, approves after a few minutes": the purchase is PENDING, then completes.
  case slowApproves = "slow-approves"
  /// "Slow test card, declines after a few minutes": the purchase is PENDING, then is dropped.
  case slowDeclines = "slow-declines"

  /// Play's own name for it, as its purchase dialog lists it.
  public var playName: String {
    switch self {
    case .alwaysApproves: "Test card, always approves"
    case .alwaysDeclines: "Test card, always declines"
    case .slowApproves: "Slow test card, approves after a few minutes"
    case .slowDeclines: "Slow test card, declines after a few minutes"
    }
  }

  /// How long a slow card keeps a purchase PENDING: Play says "a few minutes"; we take 3.
  public static let slowDelay: Double = 180

  /// The failure an app's purchase flow gets from the declining card.
  static let declinedMessage = "The payment was declined (Google Play license test card \"always declines\")"
}

/// Google Play's names for one ledger line: the order id of a charge (for a run of renewals, the
/// first's and the last's), the purchase token the line is about, and on a replacement the token
/// it replaced. What `paywall-tui store` shows for a Play catalog.
package struct PlayLineTerms: Sendable, Hashable {
  package var orderID: String?
  /// A run of renewals: the last renewal's order id.
  package var lastOrderID: String?
  package var purchaseToken: String?
  package var linkedPurchaseToken: String?

  /// Every line's terms, by line id, folded as the store folds them (`LedgerReplay`): a purchase
  /// or a replacement starts a token, renewals count on it, a refund names the order it refunds.
  package static func of(_ entries: [LedgerEntry]) -> [UInt64: PlayLineTerms] {
    var current: [UInt64: PlayPurchase] = [:]
    var orders: [UInt64: String] = [:]
    var terms: [UInt64: PlayLineTerms] = [:]
    for entry in entries {
      var line = PlayLineTerms()
      switch entry.kind {
      case .purchase, .upgrade, .downgrade, .crossgrade, .topUp:
        let linked = entry.kind == .purchase ? nil : current[entry.originalID]
        let purchase = PlayPurchase(startID: entry.id, linked: linked, at: entry.date, window: nil)
        current[entry.originalID] = purchase
        line.orderID = purchase.orderID
        line.linkedPurchaseToken = purchase.linkedPurchaseToken
      case .renewal:
        current[entry.originalID]?.renew(count: 1)
        line.orderID = current[entry.originalID]?.orderID
        if let run = entry.run {
          current[entry.originalID]?.renew(count: run.count - 1)
          line.lastOrderID = current[entry.originalID]?.orderID
          orders[run.lastID] = line.lastOrderID
        }
      case .refund, .revocation, .unacknowledgedRefund, .refundKeepingAccess:
        line.orderID = entry.revokedID.flatMap { orders[$0] }
      default:
        break
      }
      line.purchaseToken = current[entry.originalID]?.purchaseToken
      if entry.kind.isTransaction, entry.revokedID == nil, let order = line.orderID { orders[entry.id] = order }
      terms[entry.id] = line
    }
    return terms
  }
}

/// How long a Google Play subscriber may pause an auto-renewing subscription: one week to three
/// months ("Pause", developer.android.com/google/play/billing/lifecycle/subscriptions).
public enum PlayPauseDuration: String, Sendable, Hashable, CaseIterable {
  case oneWeek = "1w", twoWeeks = "2w", oneMonth = "1M", twoMonths = "2M", threeMonths = "3M"

  /// The pause as a period of the calendar.
  public var period: SubscriptionPeriod {
    switch self {
    case .oneWeek: SubscriptionPeriod(value: 1, unit: .week)
    case .twoWeeks: SubscriptionPeriod(value: 2, unit: .week)
    case .oneMonth: SubscriptionPeriod(value: 1, unit: .month)
    case .twoMonths: SubscriptionPeriod(value: 2, unit: .month)
    case .threeMonths: SubscriptionPeriod(value: 3, unit: .month)
    }
  }
}

/// How a Google Play subscription moves to another base plan (BillingFlowParams
/// `SubscriptionUpdateParams.ReplacementMode`, "Change subscription plans":
/// developer.android.com/google/play/billing/subscriptions#change).
public enum PlayReplacementMode: String, Sendable, Hashable, CaseIterable {
  /// Now; the unused value of the old plan buys time on the new one (the next billing date moves).
  case withTimeProration = "WITH_TIME_PRORATION"
  /// Now, billing date kept; the price difference for the rest of the period is charged (upgrades only).
  case chargeProratedPrice = "CHARGE_PRORATED_PRICE"
  /// Now, the new plan's full price charged; the unused value of the old extends the new period.
  case chargeFullPrice = "CHARGE_FULL_PRICE"
  /// Now, nothing charged until the next billing date, which is kept.
  case withoutProration = "WITHOUT_PRORATION"
  /// At the next billing date, when the new plan starts and is charged.
  case deferred = "DEFERRED"
}
