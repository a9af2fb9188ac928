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

/// One line of the simulated store's ledger. The ledger is append-only and in time order; the
/// subscription status is never stored, only derived from these lines and the clock
/// (`LedgerDerivation`).
///
/// Transactions (`purchase`, `renewal`, `upgrade`, `crossgrade`, …) carry the period they pay for;
/// every line of one subscription shares its `originalID`, the id of its first purchase, as
/// StoreKit's `originalID` does. Some lines change what happens at the next renewal
/// (`autoRenewOff`, `billingIssue`, `priceIncrease`, a `downgrade`). The store's clock writes the
/// lifecycle records (`renewal`, `billingRetry`, `expiry`) when their time comes; a replay trusts
/// them, so a ledger replays the same however long ago it was written.
public struct LedgerEntry: Sendable, Hashable {
  /// What a line records.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// A new subscription or one-time purchase (or a return to an expired subscription group).
    case purchase
    /// A renewal at the end of a period (or when a billing issue is resolved). Lifecycle record.
    case renewal
    /// To a higher level in the group: immediately, the unused part of the old period prorated.
    case upgrade
    /// To a lower level: takes effect at the next renewal.
    case downgrade
    /// To the same level: immediately when the periods match, else at the next renewal.
    case crossgrade
    /// The buyer got their money back: access ends now.
    case refund
    /// Apple or the developer revoked it (or a family organizer stopped sharing): access ends now.
    case revocation
    /// The subscription ended (auto-renewal off, billing retry over, a price increase declined, a
    /// non-renewing period over). Lifecycle record.
    case expiry
    case autoRenewOff
    case autoRenewOn
    /// The payment method fails from now on: the next renewal enters billing retry.
    case billingIssue
    /// A renewal failed: grace period (still active) or billing retry (inactive). Lifecycle record.
    case billingRetry
    /// The billing issue was fixed; in grace or retry, the subscription renews now.
    case billingResolved
    /// The next renewal needs the subscriber's consent to `price`.
    case priceIncrease
    /// The subscriber accepted (`accepted`) or declined the price increase.
    case priceConsent
    /// Google Play: the app acknowledged the purchase (its newest purchase token).
    case acknowledgement
    /// Google Play: the purchase was not acknowledged within its window, so Play refunded it and
    /// revoked its entitlement. Lifecycle record.
    case unacknowledgedRefund
    /// Google Play: a prepaid plan topped up before it ended: its end moves to `expirationDate`.
    case topUp
    /// Google Play: the money of an order (`revokedID`'s) given back while the subscription
    /// "remains valid until its expiration time and it will continue to recur"
    /// (purchases.subscriptions.refund); a revocation is what ends it.
    case refundKeepingAccess
    /// Google Play: the subscriber paused it from the end of the period until `expirationDate`.
    case pause
    /// Google Play: the pause began (access ends until it resumes). Lifecycle record.
    case paused
    /// Google Play: the subscriber resumed it (it renews now), or dropped a pause not yet begun.
    case resume

    /// Written by the store's clock rather than by an action; a replay applies them as they are.
    package var isLifecycleRecord: Bool {
      self == .renewal || self == .expiry || self == .billingRetry || self == .unacknowledgedRefund || self == .paused
    }

    /// A line where the buyer chooses what to buy: a purchase, a plan change, a top-up. On Google
    /// Play each is a purchase of its own (a new purchase token, acknowledged again).
    package var buysAProduct: Bool {
      switch self {
      case .purchase, .upgrade, .downgrade, .crossgrade, .topUp: true
      default: false
      }
    }

    /// Lines StoreKit would show as transactions (with a price or a refund).
    package var isTransaction: Bool {
      switch self {
      case .purchase, .renewal, .upgrade, .downgrade, .crossgrade, .refund, .revocation, .unacknowledgedRefund, .topUp,
           .refundKeepingAccess: true
      default: false
      }
    }
  }

  /// Bought by this user, or shared by a family organizer (Family Sharing).
  public enum Ownership: String, Sendable, Hashable {
    case purchased, familyShared
  }

  /// When an upgrade, downgrade or crossgrade changes the product.
  public enum Effect: String, Sendable, Hashable {
    case immediately, atRenewal
  }

  /// Which kind of offer a period ran on: StoreKit's `Transaction.offer.type`.
  public enum OfferType: String, Sendable, Hashable, CaseIterable {
    case introductory, promotional, winBack, code
  }

  /// Why access ended, in StoreKit's words.
  public enum Reason: String, Sendable, Hashable, CaseIterable {
    case autoRenewDisabled, billingError, didNotConsentToPriceIncrease, periodEnded, refunded, revoked,
         familySharingRevoked
    /// Google Play refunded a purchase the app did not acknowledge in time.
    case notAcknowledged
  }

  /// The line's id, growing down the ledger; for a transaction, its transaction id.
  public var id: UInt64
  /// What happened.
  public var kind: Kind
  /// When it happened, on the store's clock.
  public var date: Date
  /// The id of the subscription's first purchase, shared by all its lines.
  public var originalID: UInt64
  /// The product the line is about (after a plan change, the new one).
  public var productID: String
  /// The end of the period a transaction pays for (nil for one-time purchases).
  public var expirationDate: Date?
  /// The introductory offer this period was bought with, if any.
  public var offer: IntroductoryOffer.PaymentMode?
  /// The kind of offer the period ran on (`offer` says how it was paid): StoreKit's `Transaction.offer.type`.
  public var offerType: OfferType?
  /// The offer's identifier (promotional, win-back, code): StoreKit's `Transaction.offer.id`.
  public var offerID: String?
  /// Pay-as-you-go periods at the intro price still to come after this one.
  public var offerPeriodsLeft: Int
  /// What the period cost, or the new price of a `priceIncrease`, or the credit of an upgrade.
  public var price: Decimal?
  /// A purchase on an offer: the product's regular price that day, which the subscriber keeps
  /// paying once the offer ends, whatever the catalog says later (nil: the purchase paid it, or
  /// a ledger written before the field, where the catalog's price stands in).
  public var regularPrice: Decimal?

  /// The regular price this line sets for the periods after it: `regularPrice` for a period on
  /// an offer, what it cost for one at the regular price, nil when it sets none (an offer's
  /// period from a ledger written before `regularPrice`).
  var keptPrice: Decimal? { regularPrice ?? (offer == nil ? price : nil) }
  /// The unused part of the old period an upgrade credits.
  public var proratedCredit: Decimal?
  /// Bought by the user or shared by the family.
  public var ownership: Ownership
  /// `expiry`, `refund`, `revocation`: why access ended.
  public var reason: Reason?
  /// The transaction a refund or revocation takes back.
  public var revokedID: UInt64?
  /// `billingRetry`: when the grace period ends (nil without one) and when retrying stops.
  public var graceUntil: Date?
  /// `billingRetry`: when the store stops retrying and the subscription expires.
  public var retryUntil: Date?
  /// `billingIssue`: whether the failure gets a grace period.
  public var grace: Bool?
  /// `priceConsent`: accepted or declined.
  public var accepted: Bool?
  /// `upgrade`, `downgrade`, `crossgrade`: now or at the next renewal.
  public var effect: Effect?
  /// A `renewal` line that stands for a run of plain renewals (`LedgerCompactor`): this line's
  /// fields are the first renewal's, `run` says how many there were and where the last one left
  /// the subscription. Nil for every other line.
  public var run: Run?
  /// Google Play: the replacement mode of a plan change.
  public var replacementMode: PlayReplacementMode?
  /// Google Play: how the release of the session that bought `productID` read that spelling, on
  /// the lines that choose a product (a purchase, a plan change, a top-up). A later session that
  /// follows another release finds the product bought, not what the spelling names there. Nil on
  /// other lines, for other stores, and in ledgers written before it.
  package var playIDReading: PlayProductIdentifier.Reading?

  /// A run of plain renewals of one subscription kept as one line: the same product at the same
  /// price, each at the end of the period before it, with no other line of that subscription in
  /// between. Replaying the line gives the subscription the state the last renewal gave it.
  public struct Run: Sendable, Hashable {
    /// Renewals in the run, the first one included (at least 2).
    public var count: Int
    /// The last renewal's id, date and the end of the period it paid for.
    public var lastID: UInt64
    /// When the last renewal of the run happened.
    public var lastDate: Date
    /// The end of the period the last renewal paid for.
    public var lastExpirationDate: Date?

    package init(count: Int, lastID: UInt64, lastDate: Date, lastExpirationDate: Date?) {
      self.count = count
      self.lastID = lastID
      self.lastDate = lastDate
      self.lastExpirationDate = lastExpirationDate
    }
  }

  package init(id: UInt64, kind: Kind, date: Date, originalID: UInt64, productID: String, expirationDate: Date? = nil,
              offer: IntroductoryOffer.PaymentMode? = nil, offerPeriodsLeft: Int = 0, price: Decimal? = nil,
              proratedCredit: Decimal? = nil, ownership: Ownership = .purchased, reason: Reason? = nil,
              revokedID: UInt64? = nil, graceUntil: Date? = nil, retryUntil: Date? = nil, grace: Bool? = nil,
              accepted: Bool? = nil, effect: Effect? = nil, run: Run? = nil, offerType: OfferType? = nil,
              offerID: String? = nil, regularPrice: Decimal? = nil) {
    self.regularPrice = regularPrice
    self.offerType = offerType
    self.offerID = offerID
    self.id = id
    self.kind = kind
    self.date = date
    self.originalID = originalID
    self.productID = productID
    self.expirationDate = expirationDate
    self.offer = offer
    self.offerPeriodsLeft = offerPeriodsLeft
    self.price = price
    self.proratedCredit = proratedCredit
    self.ownership = ownership
    self.reason = reason
    self.revokedID = revokedID
    self.graceUntil = graceUntil
    self.retryUntil = retryUntil
    self.grace = grace
    self.accepted = accepted
    self.effect = effect
    self.run = run
  }

  /// How many ledger events this line stands for: the renewals of a run, else 1.
  public var occurrences: Int { run?.count ?? 1 }

  /// The id of the last event this line stands for (its own id unless it is a run).
  public var lastID: UInt64 { run?.lastID ?? id }

  /// The end of the period the last event of this line paid for.
  public var lastExpirationDate: Date? { run.map(\.lastExpirationDate) ?? expirationDate }

  /// The same line without its id, to compare what happened regardless of numbering.
  var withoutID: LedgerEntry {
    var copy = self
    copy.id = 0
    return copy
  }
}

/// A purchase waiting for someone: a parent (Ask to Buy) or the buyer (an interrupted purchase,
/// e.g. new terms to accept). Not a transaction until it completes.
public struct PendingPurchase: Sendable, Hashable {
  /// Who the purchase waits for: a parent (Ask to Buy) or the buyer (interrupted).
  public enum Kind: String, Sendable, Hashable {
    case askToBuy, interrupted
    /// Google Play: paid with a slow license-test card, PENDING until it approves or declines.
    case slowApproves, slowDeclines
  }

  /// What the purchase waits for.
  public var kind: Kind
  /// The product being bought.
  public var productID: String
  /// When the purchase was asked for, on the store's clock.
  public var requestDate: Date
  /// The promotional, win-back or code offer the purchase names: it completes on that offer.
  public var offerID: String?

  /// A slow test card's purchase: when it completes (or is dropped) by itself.
  public var completesAt: Date? {
    kind == .slowApproves || kind == .slowDeclines ? requestDate.addingTimeInterval(PlayTestCard.slowDelay) : nil
  }

  /// How `store` and the debug panel name what it waits for.
  public var waitsFor: String {
    switch kind {
    case .askToBuy: "Ask to Buy"
    case .interrupted: "interrupted"
    case .slowApproves, .slowDeclines: "PENDING (slow test card, \(kind == .slowApproves ? "approves" : "declines") \(completesAt.map(StoreDates.format) ?? ""))"
    }
  }

  package init(kind: Kind, productID: String, requestDate: Date, offerID: String? = nil) {
    self.kind = kind
    self.productID = productID
    self.requestDate = requestDate
    self.offerID = offerID
  }
}
