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

/// What a win-back offer's rules read from a user's purchase history: the one answer the
/// simulated store's charge, the product cards and the offer's template variables follow, so a
/// paywall never shows a win-back price the store will not charge.
///
/// StoreKit's rules ("Supporting win-back offers in your app",
/// developer.apple.com/documentation/storekit/supporting-win-back-offers-in-your-app): a win-back
/// offer is for a customer whose subscription is churned, its `expirationDate` in the past and
/// `willAutoRenew` false, and who meets the offer's own criteria: months of paid subscription,
/// months since the subscription expired, months between redemptions of the same offer
/// (`WinBackRules`). An active subscriber, or one who never subscribed in the group, never gets one.
public struct OfferHistory: Sendable, Hashable {
  /// One subscription group as the rules see it.
  public struct Group: Sendable, Hashable {
    /// When the group's subscription expired; nil while it is live (or in billing retry).
    public var lapsedAt: Date?
    /// Seconds of paid (not free-trial) periods in the group, in total.
    public var paidSeconds: Double

    /// A group lapsed at `lapsedAt` (nil: live) after `paidSeconds` of paid periods.
    public init(lapsedAt: Date?, paidSeconds: Double) {
      self.lapsedAt = lapsedAt
      self.paidSeconds = paidSeconds
    }
  }

  /// Nil when the purchase history is unknown (a controller other than the simulated store):
  /// every offer is then shown as configured and the controller decides.
  public var groups: [String: Group]?
  /// The end of the period each win-back offer (by id) last ran on.
  public var offerEnds: [String: Date]
  /// How long a "month" of the rules is: nil for calendar months; one renewal interval at the
  /// store's `renewal=` time rates, so the rules keep their shape at any speed.
  public var secondsPerMonth: Double?

  /// A history of `groups` (nil: unknown).
  public init(groups: [String: Group]?, offerEnds: [String: Date] = [:], secondsPerMonth: Double? = nil) {
    self.groups = groups
    self.offerEnds = offerEnds
    self.secondsPerMonth = secondsPerMonth
  }

  /// No purchase history known.
  public static let unknownHistory = OfferHistory(groups: nil)

  /// `months` after `date`, in the history's months.
  func adding(months: Int, to date: Date) -> Date {
    if let secondsPerMonth { return date.addingTimeInterval(secondsPerMonth * Double(months)) }
    return SubscriptionPeriod(value: months, unit: .month).added(to: date)
  }

  /// Whether buying `product` with win-back offer `offer` at `now` meets StoreKit's rules.
  public func allows(_ offer: SubscriptionOffer, for product: StoreProduct, at now: Date) -> Bool {
    guard offer.kind == .winBack, product.kind == .autoRenewable else { return false }
    guard let groups else { return true }
    guard let group = groups[IntroOfferEligibility.group(of: product)], let lapsedAt = group.lapsedAt,
          lapsedAt <= now else { return false }
    let rules = offer.winBackRules
    if adding(months: rules.minimumMonthsSinceLapse, to: lapsedAt) > now { return false }
    if let maximum = rules.maximumMonthsSinceLapse, adding(months: maximum, to: lapsedAt) < now { return false }
    let paidNeeded = adding(months: rules.paidMonths, to: lapsedAt).timeIntervalSince(lapsedAt)
    if group.paidSeconds + 1 < paidNeeded { return false }
    if let ended = offerEnds[offer.id] {
      guard let wait = rules.waitBetweenOffersMonths, adding(months: wait, to: ended) <= now else { return false }
    }
    return true
  }

  /// The offer a purchase of `product` asking for `requested` starts at `now`, as terms the card
  /// shows and the store charges: a win-back offer when the rules allow it (nil: the regular
  /// price); a promotional or code offer as configured (a promotional offer's own check is its
  /// signature, a code's its redemption).
  public func terms(of requested: SubscriptionOffer, for product: StoreProduct, at now: Date) -> IntroductoryOffer? {
    switch requested.kind {
    case .winBack: allows(requested, for: product, at: now) ? requested.terms : nil
    case .promotional, .code: requested.terms
    }
  }
}
