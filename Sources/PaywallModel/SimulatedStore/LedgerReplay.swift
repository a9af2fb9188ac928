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

/// Replays a ledger line by line into the state of every subscription: the one fold that both the
/// pure derivation (`LedgerDerivation.derive`) and the live store use, so what the store shows is
/// by construction what a replay from scratch gives.
///
/// Time between lines is not empty: before each line, every subscription is moved along the clock
/// to the line's date (renewals, trial to paid conversion, billing retry, expiry). Those lifecycle
/// events come back from `apply` and `advance` as ledger lines; the store appends them, and a later
/// replay applies them as they are instead of generating them again (they come after any earlier
/// action at the same instant, so an action at date D sees every event at D, and a record at D is
/// applied in place of the event it records). Events at one instant fire in subscription order.
///
/// Cost: O(1) per line plus O(log n) per subscription change; no calendar arithmetic on replayed
/// records (their dates are in the ledger).
package struct LedgerReplay: Sendable {
  package let catalog: Catalog
  package var rules: StoreRules
  package internal(set) var subscriptions: [StoreSubscription] = []
  /// Groups where this user has had a subscription: no introductory offer there again
  /// (`IntroOfferEligibility`).
  package internal(set) var usedIntroGroups: Set<String> = []
  /// Google Play: every offer a purchase took, as `product:basePlan:offer` (the offers Play gives
  /// once per user).
  package internal(set) var playOffersTaken: Set<String> = []
  /// The id the next line gets.
  package internal(set) var nextID: UInt64
  /// The time of the newest line or event replayed.
  package internal(set) var date: Date
  package internal(set) var transactionCount = 0
  /// Lines that do not fit the ledger before them (edited by hand, or a catalog that changed).
  package internal(set) var issues: [String] = []

  /// The largest id applied or generated: ids only grow, down the ledger.
  var lastID: UInt64 = 0
  var byOriginalID: [UInt64: Int] = [:]
  /// The user's own subscription in each group.
  var byGroup: [String: Int] = [:]
  var events = EventQueue()
  /// The time each subscription is queued for, to skip re-queuing an unchanged one.
  var queued: [Double?] = []
  var versions: [Int] = []
  /// Seconds of paid periods per group, and the end of each win-back offer's last period.
  var paidSeconds: [String: Double] = [:]
  /// Play: how the session that chose each product id of the ledger read it (`LedgerEntry.playIDReading`).
  var readings: [String: PlayProductIdentifier.Reading] = [:]
  var offerEnds: [String: Date] = [:]

  package static let firstID: UInt64 = 2_000_000_001

  package init(catalog: Catalog, rules: StoreRules, start: Date = .distantPast) {
    self.catalog = catalog
    self.rules = rules
    self.nextID = Self.firstID
    self.date = start
  }

  // MARK: - Replaying

  /// Moves every subscription along the clock to `entry.date`, then applies the line. Returns the
  /// lifecycle records that fell due before it.
  @discardableResult
  package mutating func apply(_ entry: LedgerEntry) -> [LedgerEntry] {
    let due = advance(to: entry.date, inclusive: !entry.kind.isLifecycleRecord)
    if entry.date < date { note(entry, "is dated before the line above it") }
    date = max(date, entry.date)
    if entry.id <= lastID { note(entry, "does not have a larger id than the line above it") }
    lastID = max(lastID, entry.id)
    // A run of renewals took ids up to its last one (lines of other subscriptions in between
    // have ids among them).
    nextID = max(nextID, entry.lastID &+ 1)
    if entry.kind.isTransaction { transactionCount += entry.occurrences }
    if let reading = entry.playIDReading { readings[entry.productID] = reading }
    switch entry.kind {
    case .purchase:
      applyPurchase(entry)
    case .renewal, .expiry, .billingRetry, .unacknowledgedRefund, .paused:
      guard let index = subscription(entry) else { break }
      switch entry.kind {
      case .paused: applyPaused(entry, to: index, replayed: true)
      case .renewal: applyRenewal(entry, to: index, replayed: true)
      case .expiry: applyExpiry(entry, to: index, replayed: true)
      case .unacknowledgedRefund: applyUnacknowledgedRefund(entry, to: index, replayed: true)
      default: applyBillingRetry(entry, to: index, replayed: true)
      }
    default:
      guard let index = subscription(entry) else { break }
      applyAction(entry, to: index)
    }
    return due
  }

  /// Moves every subscription along the clock to `now` (events at `now` included) and returns the
  /// lifecycle records that fell due, in time order.
  @discardableResult
  package mutating func advance(to now: Date) -> [LedgerEntry] {
    let due = advance(to: now, inclusive: true)
    date = max(date, now)
    return due
  }

  /// The state at the replay's time: call `advance(to:)` first to look at a later moment.
  package func snapshot(at now: Date) -> DerivedState {
    DerivedState(date: now, status: status, subscriptions: subscriptions, nextEvent: nextEvent,
                 usedIntroGroups: usedIntroGroups, offerHistory: offerHistory, transactionCount: transactionCount,
                 issues: issues)
  }

  /// The subscription status at the replay's time: what every active subscription grants.
  package var status: SubscriptionStatus {
    // The first active subscription's set is taken as it is (a union into an empty set hashed
    // every entitlement again, for each status a replay asks: 13% of `advance 1000y`).
    var entitlements: Set<Entitlement>?
    for subscription in subscriptions where subscription.isActive {
      if entitlements == nil {
        entitlements = subscription.entitlements
      } else {
        entitlements?.formUnion(subscription.entitlements)
      }
    }
    return .active(entitlements ?? [])
  }

  /// The earliest moment a subscription changes by itself: the subscription first in the event
  /// queue, whose first entry `schedule` and `advance` keep current. A scan of every subscription
  /// here made each store change cost O(n) in the subscriptions the ledger ever started.
  package var nextEvent: Date? {
    events.first.flatMap { subscriptions[$0.index].nextEvent }
  }

  /// Which introductory offers a purchase now gets: the rule the paywall shows too.
  package var introEligibility: IntroOfferEligibility {
    var eligibility = IntroOfferEligibility(usedGroups: usedIntroGroups)
    if let source = catalog.play, let history = playHistory { eligibility.play = PlayBuyer(source: source, history: history) }
    return eligibility
  }

  /// Takes an id for a line the caller is about to apply.
  package mutating func takeID() -> UInt64 {
    defer { nextID += 1 }
    return nextID
  }

  /// Whether the catalog is Google Play's: purchases get tokens and order ids and must be acknowledged.
  var isPlay: Bool { catalog.store == .playStore }

  static func groupKey(_ product: StoreProduct) -> String {
    IntroOfferEligibility.group(of: product)
  }

  // MARK: - The clock

  mutating func advance(to time: Date, inclusive: Bool) -> [LedgerEntry] {
    var due: [LedgerEntry] = []
    let limit = time.timeIntervalSince1970
    while let top = events.first, inclusive ? top.time <= limit : top.time < limit {
      events.removeFirst()
      guard top.version == versions[top.index] else { continue }
      queued[top.index] = nil
      if let record = fire(top.index, at: Date(timeIntervalSince1970: top.time)) { due.append(record) }
      schedule(top.index)
    }
    dropSupersededFirst()
    return due
  }

  /// What happens to subscription `index` when its next event comes.
  mutating func fire(_ index: Int, at time: Date) -> LedgerEntry? {
    let subscription = subscriptions[index]
    if subscription.isLive, let deadline = subscription.play?.acknowledgeBy, deadline <= time {
      var entry = line(.unacknowledgedRefund, index, at: time)
      entry.reason = .notAcknowledged
      entry.revokedID = subscription.transactionID
      applyUnacknowledgedRefund(entry, to: index, replayed: false)
      return entry
    }
    switch subscription.state {
    case .subscribed:
      if subscription.kind != .autoRenewable {
        return record(.expiry, index, at: time, reason: .periodEnded)
      }
      if !subscription.autoRenew {
        return record(.expiry, index, at: time,
                      reason: subscription.priceConsent == false ? .didNotConsentToPriceIncrease : .autoRenewDisabled)
      }
      if subscription.priceIncrease != nil && subscription.priceConsent != true {
        return record(.expiry, index, at: time, reason: .didNotConsentToPriceIncrease)
      }
      if subscription.pauseUntil != nil {
        // Google Play: a pause asked for during the period begins where the period ends.
        let entry = line(.paused, index, at: time)
        applyPaused(entry, to: index, replayed: false)
        return entry
      }
      if subscription.billingIssue || rules.renewalBillingIssues {
        let product = owned(subscription.productID)
        var entry = line(.billingRetry, index, at: time)
        if isPlay, let plan = product?.playPlan {
          // Play: the base plan's grace period (entitlement kept), then its account hold (lost),
          // then expiry. `billing-issue … no-grace` still skips the grace.
          let (grace, hold) = plan.durations(rules)
          let graced = (!subscription.billingIssue || subscription.billingIssueGrace) && grace > 0
          entry.graceUntil = graced ? time.addingTimeInterval(grace) : nil
          entry.retryUntil = time.addingTimeInterval((graced ? grace : 0) + hold)
        } else {
          let grace = subscription.billingIssue ? subscription.billingIssueGrace : rules.gracePeriodEnabled
          let period = product?.subscriptionPeriod
          entry.graceUntil = grace ? time.addingTimeInterval(rules.graceDuration(for: period)) : nil
          entry.retryUntil = time.addingTimeInterval(rules.retryDuration(for: period))
        }
        applyBillingRetry(entry, to: index, replayed: false)
        return entry
      }
      return renewal(index, at: time, periodStart: time)
    case .inGracePeriod:
      if let resolved = subscription.resolvedAt, resolved <= time {
        // Recovered in grace: no paid day was lost, the new period starts where the old one ended.
        return renewal(index, at: time, periodStart: subscription.expirationDate ?? time)
      }
      subscriptions[index].state = .inBillingRetryPeriod
      subscriptions[index].gracePeriodEnd = nil
      return nil
    case .inBillingRetryPeriod:
      if let resolved = subscription.resolvedAt, resolved <= time {
        // Recovered in billing retry: service was paused, the new period starts now.
        return renewal(index, at: time, periodStart: time)
      }
      return record(.expiry, index, at: time, reason: .billingError)
    case .paused:
      // The pause is over (or the subscriber resumed): it renews from now, unless cancelled.
      if !subscription.autoRenew { return record(.expiry, index, at: time, reason: .autoRenewDisabled) }
      return renewal(index, at: time, periodStart: time)
    case .expired, .revoked, .consumed:
      return nil
    }
  }

  mutating func record(_ kind: LedgerEntry.Kind, _ index: Int, at time: Date, reason: LedgerEntry.Reason) -> LedgerEntry {
    var entry = line(kind, index, at: time)
    entry.reason = reason
    applyExpiry(entry, to: index, replayed: false)
    return entry
  }

  mutating func line(_ kind: LedgerEntry.Kind, _ index: Int, at time: Date) -> LedgerEntry {
    let subscription = subscriptions[index]
    let id = takeID()
    lastID = id
    if kind.isTransaction { transactionCount += 1 }
    return LedgerEntry(id: id, kind: kind, date: time, originalID: subscription.originalID,
                       productID: subscription.productID, ownership: subscription.ownership)
  }

}

extension LedgerReplay {
  /// The product a line of the ledger names. A Play product is made as the release of the session
  /// that chose it read its id (the line says which): a subscription bought under 2.7 as
  /// `acme_pro:sw-auto:sw-auto` is the first base plan's when a later session follows 2.6, where
  /// that spelling names no product (or a base plan called `sw-auto`); a plan since removed from
  /// the catalog is gone under either. A ledger written before lines said so is read as the
  /// catalog reads it, then as the other release does. A paywall's id is never read this way:
  /// what a release cannot sell is refused at load.
  func owned(_ id: String) -> StoreProduct? {
    // Only a Play catalog reads ids more than one way: an App Store replay looks the id up once.
    guard let play = catalog.play else { return catalog.product(id: id) }
    let bought = readings[id]
    if let bought, bought != play.reading {
      return play.unlisted(id, locale: catalog.settings.locale, reading: bought)
    }
    if let product = catalog.product(id: id) { return product }
    guard bought == nil else { return nil }
    return play.unlisted(id, locale: catalog.settings.locale, reading: play.reading == .typed ? .literal : .typed)
  }
}
