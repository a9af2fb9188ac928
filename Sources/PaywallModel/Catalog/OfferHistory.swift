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

/// What the rules of offers other than the introductory one read from a user's purchase
/// history: the one answer the simulated store's charge, the product cards and the offer's
/// template variables follow, so a paywall never shows an offer price the store will not charge.
///
/// Win-back offers, StoreKit's rules ("Supporting win-back offers in your app",
/// developer.apple.com/documentation/storekit/supporting-win-back-offers-in-your-app): a win-back
/// offer is for a customer whose subscription is churned, its `expirationDate` in the past and
/// `willAutoRenew` false, and who meets the offer's own criteria: months of paid subscription,
/// months since the subscription expired, months between redemptions of the same offer
/// (`WinBackRules`). An active subscriber, or one who never subscribed in the group, never gets one.
///
/// Promotional offers are for existing or former subscribers of the group: "available to eligible
/// existing or former subscribers" (App Store Connect API, `SubscriptionPromotionalOffer`,
/// developer.apple.com/documentation/appstoreconnectapi/subscriptionpromotionaloffer; "Implementing
/// promotional offers in your app": "lapsed or current subscribers"). A customer who never
/// subscribed in the group gets the introductory offer instead, and StoreKit refuses the
/// purchase (`ineligibleForOffer`). The app decides which of those customers gets one (the signed
/// offer is its say); iOS 18 (2024) left this rule as it was and added win-back offers beside it
/// for churned subscribers. Offer codes follow the customer eligibility each code was created
/// with (`CustomerStanding`: new, existing, expired).
public struct OfferHistory: Sendable, Hashable {
  /// One subscription group as the rules see it.
  public struct Group: Sendable, Hashable {
    /// When the group's subscription expired; nil while it is live (or in billing retry).
    public var lapsedAt: Date?
    /// Seconds of paid (not free-trial) periods in the group, in total.
    public var paidSeconds: Double
    /// Whether the group's subscription is live (subscribed, in a grace period or billing retry).
    public var live: Bool

    /// A group lapsed at `lapsedAt` after `paidSeconds` of paid periods; `live` defaults to not lapsed.
    public init(lapsedAt: Date?, paidSeconds: Double, live: Bool? = nil) {
      self.lapsedAt = lapsedAt
      self.paidSeconds = paidSeconds
      self.live = live ?? (lapsedAt == nil)
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

  /// On a Google Play catalog, the buyer's history as Play's offer eligibility reads it; nil for
  /// another store, or when the history is not known.
  package var play: PlayPurchaseHistory?

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

  /// Where the customer stands in `product`'s group: never subscribed, subscribed now, or ended.
  /// Nil when the history is unknown.
  public func standing(in product: StoreProduct) -> CustomerStanding? {
    guard let groups else { return nil }
    guard let group = groups[IntroOfferEligibility.group(of: product)] else { return .new }
    return group.live ? .existing : .expired
  }

  /// Whether buying `product` with `offer` at `now` meets StoreKit's rules for the offer's kind
  /// (true when the history is unknown: the controller decides).
  public func allows(_ offer: SubscriptionOffer, for product: StoreProduct, at now: Date) -> Bool {
    guard product.kind == .autoRenewable else { return false }
    guard let standing = standing(in: product) else { return true }
    switch offer.kind {
    case .promotional: return standing != .new
    case .code: return offer.codeEligibility.contains(standing)
    case .winBack: break
    }
    guard let groups, let group = groups[IntroOfferEligibility.group(of: product)], let lapsedAt = group.lapsedAt,
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

  /// Why `allows` says no, in one clause ("is for existing or former subscribers of the group;
  /// this user never subscribed there"), for an error a tester reads; nil when it allows.
  public func refusal(of offer: SubscriptionOffer, for product: StoreProduct, at now: Date) -> String? {
    guard !allows(offer, for: product, at: now) else { return nil }
    let standing = standing(in: product)
    let user = switch standing {
    case .new?: "this user never subscribed in its group"
    case .existing?: "this user is subscribed in its group now"
    case .expired?: "this user's subscription in its group has ended"
    case nil: "this user"
    }
    switch offer.kind {
    case .promotional:
      return "is for existing or former subscribers of its group; \(user)"
    case .code:
      let who = CustomerStanding.allCases.filter(offer.codeEligibility.contains).map(\.rawValue).joined(separator: ", ")
      return "is for \(who.isEmpty ? "no one" : who) customers; \(user)"
    case .winBack:
      return "is for churned subscribers who meet its rules; \(winBackShortfall(offer, for: product, at: now) ?? user)"
    }
  }

  /// Which of a win-back offer's rules a churned subscriber misses, in words; nil when the user
  /// has not churned (or meets them all).
  func winBackShortfall(_ offer: SubscriptionOffer, for product: StoreProduct, at now: Date) -> String? {
    guard let group = groups?[IntroOfferEligibility.group(of: product)], let lapsedAt = group.lapsedAt else { return nil }
    let rules = offer.winBackRules
    if adding(months: rules.minimumMonthsSinceLapse, to: lapsedAt) > now {
      return "this user lapsed less than \(rules.minimumMonthsSinceLapse) month\(rules.minimumMonthsSinceLapse == 1 ? "" : "s") ago"
    }
    if let maximum = rules.maximumMonthsSinceLapse, adding(months: maximum, to: lapsedAt) < now {
      return "this user lapsed more than \(maximum) month\(maximum == 1 ? "" : "s") ago"
    }
    if group.paidSeconds + 1 < adding(months: rules.paidMonths, to: lapsedAt).timeIntervalSince(lapsedAt) {
      return "this user paid for less than the \(rules.paidMonths) month\(rules.paidMonths == 1 ? "" : "s") it asks"
    }
    if offerEnds[offer.id] != nil {
      return rules.waitBetweenOffersMonths.map { "this user took it less than \($0) month\($0 == 1 ? "" : "s") ago" } ?? "this user took it once already"
    }
    return nil
  }

  /// The offer a purchase of `product` asking for `requested` starts at `now`, as terms the card
  /// shows and the store charges: the offer when its rules allow it (`allows`), else nil (the
  /// regular price). A promotional offer's signature is the app's own check, simulated as valid
  /// unless a fault says `invalidOfferSignature`.
  public func terms(of requested: SubscriptionOffer, for product: StoreProduct, at now: Date) -> IntroductoryOffer? {
    allows(requested, for: product, at: now) ? requested.terms : nil
  }
}
