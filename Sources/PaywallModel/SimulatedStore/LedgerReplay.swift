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
  package private(set) var subscriptions: [StoreSubscription] = []
  /// Groups where this user has had a subscription: no introductory offer there again
  /// (`IntroOfferEligibility`).
  package private(set) var usedIntroGroups: Set<String> = []
  /// The id the next line gets.
  package private(set) var nextID: UInt64
  /// The time of the newest line or event replayed.
  package private(set) var date: Date
  package private(set) var transactionCount = 0
  /// Lines that do not fit the ledger before them (edited by hand, or a catalog that changed).
  package private(set) var issues: [String] = []

  /// The largest id applied or generated: ids only grow, down the ledger.
  private var lastID: UInt64 = 0
  private var byOriginalID: [UInt64: Int] = [:]
  /// The user's own subscription in each group.
  private(set) var byGroup: [String: Int] = [:]
  private var events = EventQueue()
  /// The time each subscription is queued for, to skip re-queuing an unchanged one.
  private var queued: [Double?] = []
  private var versions: [Int] = []
  /// Seconds of paid periods per group, and the end of each win-back offer's last period.
  private var paidSeconds: [String: Double] = [:]
  private var offerEnds: [String: Date] = [:]

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
    switch entry.kind {
    case .purchase:
      applyPurchase(entry)
    case .renewal, .expiry, .billingRetry:
      guard let index = subscription(entry) else { break }
      switch entry.kind {
      case .renewal: applyRenewal(entry, to: index, replayed: true)
      case .expiry: applyExpiry(entry, to: index, replayed: true)
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
    var entitlements: Set<Entitlement> = []
    for subscription in subscriptions where subscription.isActive { entitlements.formUnion(subscription.entitlements) }
    return .active(entitlements)
  }

  /// The earliest moment a subscription changes by itself.
  package var nextEvent: Date? {
    subscriptions.lazy.compactMap(\.nextEvent).min()
  }

  /// Which introductory offers a purchase now gets: the rule the paywall shows too.
  package var introEligibility: IntroOfferEligibility {
    IntroOfferEligibility(usedGroups: usedIntroGroups)
  }

  /// Takes an id for a line the caller is about to apply.
  package mutating func takeID() -> UInt64 {
    defer { nextID += 1 }
    return nextID
  }

  static func groupKey(_ product: StoreProduct) -> String {
    IntroOfferEligibility.group(of: product)
  }

  // MARK: - The clock

  private mutating func advance(to time: Date, inclusive: Bool) -> [LedgerEntry] {
    var due: [LedgerEntry] = []
    let limit = time.timeIntervalSince1970
    while let top = events.first, inclusive ? top.time <= limit : top.time < limit {
      events.removeFirst()
      guard top.version == versions[top.index] else { continue }
      queued[top.index] = nil
      if let record = fire(top.index, at: Date(timeIntervalSince1970: top.time)) { due.append(record) }
      schedule(top.index)
    }
    return due
  }

  /// What happens to subscription `index` when its next event comes.
  private mutating func fire(_ index: Int, at time: Date) -> LedgerEntry? {
    let subscription = subscriptions[index]
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
      if subscription.billingIssue || rules.renewalBillingIssues {
        let grace = subscription.billingIssue ? subscription.billingIssueGrace : rules.gracePeriodEnabled
        let period = catalog.product(id: subscription.productID)?.subscriptionPeriod
        var entry = line(.billingRetry, index, at: time)
        entry.graceUntil = grace ? time.addingTimeInterval(rules.graceDuration(for: period)) : nil
        entry.retryUntil = time.addingTimeInterval(rules.retryDuration(for: period))
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
    case .expired, .revoked, .consumed:
      return nil
    }
  }

  private mutating func record(_ kind: LedgerEntry.Kind, _ index: Int, at time: Date, reason: LedgerEntry.Reason) -> LedgerEntry {
    var entry = line(kind, index, at: time)
    entry.reason = reason
    applyExpiry(entry, to: index, replayed: false)
    return entry
  }

  private mutating func line(_ kind: LedgerEntry.Kind, _ index: Int, at time: Date) -> LedgerEntry {
    let subscription = subscriptions[index]
    let id = takeID()
    lastID = id
    if kind.isTransaction { transactionCount += 1 }
    return LedgerEntry(id: id, kind: kind, date: time, originalID: subscription.originalID,
                       productID: subscription.productID, ownership: subscription.ownership)
  }

  /// The renewal that is due: the product it switches to, the intro price while pay-as-you-go
  /// periods are left, an accepted price increase.
  private mutating func renewal(_ index: Int, at time: Date, periodStart: Date) -> LedgerEntry {
    let subscription = subscriptions[index]
    let productID = subscription.renewalProductID ?? subscription.productID
    guard let product = catalog.product(id: productID), let period = product.subscriptionPeriod else {
      // The catalog lost the product: nothing to renew into.
      if issues.count < 100 {
        issues.append("subscription \(subscription.originalID): cannot renew \(productID), which the catalog does not sell as a subscription")
      }
      return record(.expiry, index, at: time, reason: .periodEnded)
    }
    var entry = line(.renewal, index, at: time)
    entry.productID = productID
    var length = period
    // The subscriber keeps the price they subscribed at when the catalog's rises, and renews at the
    // catalog's when it falls ("existing subscriptions will automatically renew at the lower
    // price": App Store Connect Help, Manage pricing for auto-renewable subscriptions); only an
    // accepted price increase raises it. A move to another product pays that product's price.
    var price = product.price
    if productID == subscription.productID, let kept = subscription.renewalPrice {
      price = subscription.priceRaised ? kept : min(kept, product.price)
    }
    if subscription.priceConsent == true, let increased = subscription.priceIncrease { price = increased }
    if let offerID = subscription.renewalOfferID, let offer = product.offer(id: offerID) {
      // A promotional or code offer accepted while subscribed runs from this renewal on.
      entry.offer = offer.terms.paymentMode
      entry.offerType = LedgerEntry.OfferType(offer.kind)
      entry.offerID = offer.id
      if offer.terms.paymentMode == .payAsYouGo {
        entry.offerPeriodsLeft = offer.terms.periodCount - 1
        length = offer.terms.period
      } else {
        length = offer.terms.totalPeriod
      }
      price = offer.terms.price
    } else if subscription.offer == .payAsYouGo, subscription.offerPeriodsLeft > 0, productID == subscription.productID,
       let intro = Self.terms(of: subscription, in: product), intro.paymentMode == .payAsYouGo {
      entry.offer = .payAsYouGo
      entry.offerType = subscription.offerType
      entry.offerID = subscription.offerID
      entry.offerPeriodsLeft = subscription.offerPeriodsLeft - 1
      length = intro.period
      price = intro.price
    }
    entry.price = price
    entry.expirationDate = rules.end(of: length, from: periodStart)
    applyRenewal(entry, to: index, replayed: false)
    return entry
  }

  /// The terms the subscription's current offer has in the catalog: its introductory offer, or
  /// the promotional, win-back or code offer it names.
  static func terms(of subscription: StoreSubscription, in product: StoreProduct) -> IntroductoryOffer? {
    switch subscription.offerType {
    case nil, .introductory?: product.introductoryOffer
    default: subscription.offerID.flatMap(product.offer(id:))?.terms
    }
  }

  /// Counts a transaction's period as paid time in its group (what a win-back offer's
  /// `paidMonths` reads), and notes the end of a win-back offer's period.
  private mutating func notePaid(_ entry: LedgerEntry, group: String?) {
    guard let group, entry.ownership == .purchased else { return }
    if entry.offerType == .winBack, let offerID = entry.offerID, let end = entry.expirationDate {
      offerEnds[offerID] = end
    }
    guard entry.offer != .freeTrial, let end = entry.lastExpirationDate, end > entry.date else { return }
    paidSeconds[group, default: 0] += end.timeIntervalSince(entry.date)
  }

  /// What win-back offers' rules read now: each group's lapse and paid time, each offer's last end.
  package var offerHistory: OfferHistory {
    var groups: [String: OfferHistory.Group] = [:]
    for (group, index) in byGroup {
      let subscription = subscriptions[index]
      // Churned, in StoreKit's words: expired, not renewing (a revoked one was taken back, not lapsed).
      let lapsed = subscription.state == .expired ? (subscription.endDate ?? subscription.expirationDate) : nil
      groups[group] = OfferHistory.Group(lapsedAt: lapsed, paidSeconds: paidSeconds[group] ?? 0, live: subscription.isLive)
    }
    return OfferHistory(groups: groups, offerEnds: offerEnds, secondsPerMonth: rules.renewalInterval)
  }

  private mutating func schedule(_ index: Int) {
    let next = subscriptions[index].nextEvent?.timeIntervalSince1970
    guard next != queued[index] else { return }
    versions[index] += 1
    queued[index] = next
    if let next { events.insert(EventQueue.Event(time: next, index: index, version: versions[index])) }
  }

  // MARK: - Applying lines

  private mutating func subscription(_ entry: LedgerEntry) -> Int? {
    guard let index = byOriginalID[entry.originalID] else {
      note(entry, "belongs to subscription \(entry.originalID), which has no purchase before it")
      return nil
    }
    return index
  }

  private mutating func note(_ entry: LedgerEntry, _ problem: String) {
    if issues.count < 100 { issues.append("line \(entry.id) (\(entry.kind.rawValue) \(entry.productID)) \(problem)") }
  }

  private mutating func applyPurchase(_ entry: LedgerEntry) {
    let product = catalog.product(id: entry.productID)
    if product == nil { note(entry, "names a product the catalog does not have") }
    let kind = product?.kind
    let group = product.map { kind == .autoRenewable ? Self.groupKey($0) : $0.id }
    let fresh = StoreSubscription(
      originalID: entry.originalID, transactionID: entry.id, productID: entry.productID, kind: kind, group: group,
      ownership: entry.ownership, state: kind == .consumable ? .consumed : .subscribed, periodStart: entry.date,
      expirationDate: entry.expirationDate, offer: entry.offer, offerPeriodsLeft: entry.offerPeriodsLeft, price: entry.price,
      renewalPrice: kind == .autoRenewable ? entry.keptPrice : nil,
      autoRenew: kind == .autoRenewable, renewalProductID: nil, billingIssue: false,
      billingIssueGrace: false, priceIncrease: nil, priceConsent: nil, gracePeriodEnd: nil, billingRetryEnd: nil,
      resolvedAt: nil, endDate: nil, endReason: nil, entitlements: product?.entitlements ?? [],
      offerType: entry.offerType, offerID: entry.offerID)
    if kind == .autoRenewable { notePaid(entry, group: group) }
    let index: Int
    if let existing = byOriginalID[entry.originalID] {
      // Back to a group after its subscription ended: the same subscription, as StoreKit keeps it.
      if subscriptions[existing].isLive { note(entry, "buys into subscription \(entry.originalID) while it is still live") }
      index = existing
      subscriptions[index] = fresh
    } else {
      if entry.originalID != entry.id { note(entry, "names original \(entry.originalID), which has no purchase before it") }
      index = subscriptions.count
      subscriptions.append(fresh)
      queued.append(nil)
      versions.append(0)
      byOriginalID[entry.originalID] = index
    }
    if entry.ownership == .purchased, kind == .autoRenewable, let group {
      byGroup[group] = index
      usedIntroGroups.insert(group)
    }
    schedule(index)
  }

  private mutating func applyRenewal(_ entry: LedgerEntry, to index: Int, replayed: Bool) {
    if replayed {
      // Field by field, not a copy of the whole subscription: once per renewal of a long ledger.
      let state = subscriptions[index].state
      let expected = state == .subscribed ? subscriptions[index].expirationDate : subscriptions[index].resolvedAt
      if !(subscriptions[index].isLive && expected == entry.date) {
        note(entry, "renews when nothing was due (state \(state.rawValue), due \(expected.map(Self.format) ?? "never"))")
      }
    }
    let catalog = self.catalog
    // In place: this runs once per renewal, the bulk of a long ledger.
    Self.renew(&subscriptions[index], with: entry, catalog: catalog)
    notePaid(entry, group: subscriptions[index].kind == .autoRenewable ? subscriptions[index].group : nil)
    if let run = entry.run {
      // A run of plain renewals: the later ones change nothing but the period.
      if run.count < 2 || run.lastID <= entry.id || run.lastDate <= entry.date
          || !(run.lastExpirationDate.map { $0 > run.lastDate } ?? false) {
        note(entry, "stands for \(run.count) renewals that do not add up (the last \(run.lastID) at \(Self.format(run.lastDate)))")
      }
      subscriptions[index].transactionID = run.lastID
      subscriptions[index].periodStart = run.lastDate
      subscriptions[index].expirationDate = run.lastExpirationDate
    }
    schedule(index)
  }

  private static func renew(_ subscription: inout StoreSubscription, with entry: LedgerEntry, catalog: Catalog) {
    if entry.productID != subscription.productID {
      subscription.switchProduct(to: entry.productID, in: catalog)
      subscription.priceRaised = false
    }
    if subscription.renewalProductID == entry.productID { subscription.renewalProductID = nil }
    subscription.beginPeriod(entry)
    subscription.offer = entry.offer
    subscription.offerType = entry.offerType
    subscription.offerID = entry.offerID
    subscription.offerPeriodsLeft = entry.offerPeriodsLeft
    subscription.renewalOfferID = nil
    // A period at the regular price sets what the next ones cost (a lower catalog price is kept).
    if let kept = entry.keptPrice { subscription.renewalPrice = kept }
    if subscription.priceConsent == true {
      subscription.renewalPrice = subscription.priceIncrease
      subscription.priceRaised = true
      subscription.priceIncrease = nil
      subscription.priceConsent = nil
    }
  }

  private mutating func applyExpiry(_ entry: LedgerEntry, to index: Int, replayed: Bool) {
    if replayed, subscriptions[index].nextEvent != entry.date {
      note(entry, "expires when nothing was due")
    }
    end(index, state: .expired, at: entry.date, reason: entry.reason ?? .autoRenewDisabled)
  }

  private mutating func applyBillingRetry(_ entry: LedgerEntry, to index: Int, replayed: Bool) {
    if replayed, !(subscriptions[index].state == .subscribed && subscriptions[index].expirationDate == entry.date) {
      note(entry, "fails a renewal that was not due")
    }
    subscriptions[index].state = entry.graceUntil == nil ? .inBillingRetryPeriod : .inGracePeriod
    subscriptions[index].gracePeriodEnd = entry.graceUntil
    subscriptions[index].billingRetryEnd = entry.retryUntil ?? entry.date
    subscriptions[index].resolvedAt = nil
    schedule(index)
  }

  private mutating func end(_ index: Int, state: StoreSubscription.State, at time: Date, reason: LedgerEntry.Reason) {
    subscriptions[index].state = state
    subscriptions[index].endDate = time
    subscriptions[index].endReason = reason
    subscriptions[index].autoRenew = false
    subscriptions[index].clearRecovery()
    schedule(index)
  }

  private mutating func applyAction(_ entry: LedgerEntry, to index: Int) {
    var subscription = subscriptions[index]
    let live = subscription.isLive
    switch entry.kind {
    case .upgrade, .downgrade, .crossgrade:
      guard live else { return note(entry, "changes a subscription that has ended") }
      if entry.effect == .immediately || entry.kind == .upgrade {
        subscription.switchProduct(to: entry.productID, in: catalog)
        subscription.beginPeriod(entry)
        // The new product's period: at its regular price, or on the offer the change named.
        subscription.offer = entry.offer
        subscription.offerType = entry.offerType
        subscription.offerID = entry.offerID
        subscription.offerPeriodsLeft = entry.offerPeriodsLeft
        subscription.renewalOfferID = nil
        // The product it moves to, at its regular price that day (a change on an offer records it).
        subscription.renewalPrice = entry.keptPrice
        subscription.priceRaised = false
        subscription.renewalProductID = nil
        subscription.priceIncrease = nil
        subscription.priceConsent = nil
        subscription.billingIssue = false
      } else {
        subscription.renewalProductID = entry.productID
        subscription.renewalOfferID = entry.offerID
      }
      subscription.autoRenew = true
    case .refund, .revocation:
      subscriptions[index] = subscription
      end(index, state: .revoked, at: entry.date, reason: entry.reason ?? (entry.kind == .refund ? .refunded : .revoked))
      return
    case .autoRenewOff:
      subscription.autoRenew = false
      if subscription.state == .inGracePeriod || subscription.state == .inBillingRetryPeriod {
        // Nothing left to retry for: it ends now.
        subscriptions[index] = subscription
        end(index, state: .expired, at: entry.date, reason: .autoRenewDisabled)
        return
      }
    case .autoRenewOn:
      guard live else { return note(entry, "turns auto-renewal on for a subscription that has ended") }
      subscription.autoRenew = true
      subscription.renewalProductID = nil
      // Buying the product again with a promotional or code offer: it runs from the next renewal.
      if let offerID = entry.offerID { subscription.renewalOfferID = offerID }
      if subscription.priceIncrease != nil { subscription.priceConsent = true }
    case .billingIssue:
      subscription.billingIssue = true
      subscription.billingIssueGrace = entry.grace ?? rules.gracePeriodEnabled
    case .billingResolved:
      subscription.billingIssue = false
      if subscription.state == .inGracePeriod || subscription.state == .inBillingRetryPeriod {
        subscription.resolvedAt = entry.date
      }
    case .priceIncrease:
      subscription.priceIncrease = entry.price
      subscription.priceConsent = nil
    case .priceConsent:
      subscription.priceConsent = entry.accepted ?? false
      if entry.accepted != true { subscription.autoRenew = false }
    case .purchase, .renewal, .expiry, .billingRetry:
      return
    }
    subscriptions[index] = subscription
    schedule(index)
  }

  static func format(_ date: Date) -> String {
    StoreDates.format(date)
  }
}
