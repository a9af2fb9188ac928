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

extension LedgerReplay {
  /// The renewal that is due: the product it switches to, the intro price while pay-as-you-go
  /// periods are left, an accepted price increase.
  mutating func renewal(_ index: Int, at time: Date, periodStart: Date) -> LedgerEntry {
    let subscription = subscriptions[index]
    let productID = subscription.renewalProductID ?? subscription.productID
    guard let product = owned(productID), let period = product.subscriptionPeriod else {
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
    } else if subscription.offer == .payAsYouGo, subscription.offerPeriodsLeft > 0, productID == subscription.productID {
      // The offer's periods go on at the price the subscriber bought, whatever the catalog says
      // since: Google Play keeps an offer's subscribers on it when the offer changes or ends, as
      // the App Store keeps an introductory price.
      let terms = terms(of: subscription, in: product)
      entry.offer = .payAsYouGo
      entry.offerType = subscription.offerType
      entry.offerID = subscription.offerID
      entry.offerPeriodsLeft = subscription.offerPeriodsLeft - 1
      if let terms, terms.paymentMode == .payAsYouGo { length = terms.period }
      price = subscription.price ?? terms?.price ?? price
    }
    entry.price = price
    entry.expirationDate = rules.end(of: length, from: periodStart)
    applyRenewal(entry, to: index, replayed: false)
    return entry
  }

  /// The terms the subscription's current offer has in the catalog: its introductory offer, or
  /// the promotional, win-back or code offer it names. On Google Play the offer the buyer took
  /// (its id is on the purchase), which for a returning buyer is not the new customer's.
  func terms(of subscription: StoreSubscription, in product: StoreProduct) -> IntroductoryOffer? {
    switch subscription.offerType {
    case nil, .introductory?:
      if isPlay, let offerID = subscription.offerID, let source = catalog.play {
        return source.offerTerms(product, offerId: offerID)
      }
      return product.introductoryOffer
    default: return subscription.offerID.flatMap(product.offer(id:))?.terms
    }
  }

  /// Counts a transaction's period as paid time in its group (what a win-back offer's
  /// `paidMonths` reads), and notes the end of a win-back offer's period.
  mutating func notePaid(_ entry: LedgerEntry, group: String?) {
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
    var history = OfferHistory(groups: groups, offerEnds: offerEnds, secondsPerMonth: rules.renewalInterval)
    history.play = playHistory
    return history
  }

  mutating func schedule(_ index: Int) {
    let next = subscriptions[index].nextEvent?.timeIntervalSince1970
    guard next != queued[index] else { return }
    versions[index] += 1
    queued[index] = next
    if let next { events.insert(EventQueue.Event(time: next, index: index, version: versions[index])) }
    dropSupersededFirst()
  }

  /// Drops the entries a later `schedule` superseded from the front of the queue, so that its
  /// first entry is the next event (`nextEvent`); superseded entries further back wait.
  mutating func dropSupersededFirst() {
    while let first = events.first, first.version != versions[first.index] { events.removeFirst() }
  }

  // MARK: - Applying lines

  mutating func subscription(_ entry: LedgerEntry) -> Int? {
    guard let index = byOriginalID[entry.originalID] else {
      note(entry, "belongs to subscription \(entry.originalID), which has no purchase before it")
      return nil
    }
    return index
  }

  mutating func note(_ entry: LedgerEntry, _ problem: String) {
    if issues.count < 100 { issues.append("line \(entry.id) (\(entry.kind.rawValue) \(entry.productID)) \(problem)") }
  }

  mutating func applyPurchase(_ entry: LedgerEntry) {
    let product = owned(entry.productID)
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
    var started = fresh
    if isPlay {
      // A consumable is consumed at once, which acknowledges it.
      started.play = PlayPurchase(startID: entry.id, linked: nil, at: entry.date,
                                  window: kind == .consumable ? nil : PlayPurchase.acknowledgementWindow(rules))
    }
    if kind == .autoRenewable { notePaid(entry, group: group) }
    let index: Int
    if let existing = byOriginalID[entry.originalID] {
      // Back to a group after its subscription ended: the same subscription, as StoreKit keeps it.
      if subscriptions[existing].isLive { note(entry, "buys into subscription \(entry.originalID) while it is still live") }
      index = existing
      subscriptions[index] = started
    } else {
      if entry.originalID != entry.id { note(entry, "names original \(entry.originalID), which has no purchase before it") }
      index = subscriptions.count
      subscriptions.append(started)
      queued.append(nil)
      versions.append(0)
      byOriginalID[entry.originalID] = index
    }
    if entry.ownership == .purchased, kind == .autoRenewable, let group {
      byGroup[group] = index
      usedIntroGroups.insert(group)
    }
    if isPlay, entry.offer != nil, let offerID = entry.offerID, let play = product?.play,
       case .subscription(let offer)? = play.selection {
      playOffersTaken.insert("\(play.identifier.productId):\(offer.basePlanId):\(offerID)")
    }
    schedule(index)
  }

  mutating func applyRenewal(_ entry: LedgerEntry, to index: Int, replayed: Bool) {
    if replayed {
      // Field by field, not a copy of the whole subscription: once per renewal of a long ledger.
      let state = subscriptions[index].state
      let expected = state == .subscribed ? subscriptions[index].expirationDate
        : state == .paused ? subscriptions[index].pauseUntil : subscriptions[index].resolvedAt
      if !(subscriptions[index].isLive && expected == entry.date) {
        note(entry, "renews when nothing was due (state \(state.rawValue), due \(expected.map(Self.format) ?? "never"))")
      }
    }
    if entry.productID != subscriptions[index].productID {
      subscriptions[index].switchProduct(to: entry.productID, product: owned(entry.productID))
      subscriptions[index].priceRaised = false
    }
    // In place: this runs once per renewal, the bulk of a long ledger.
    Self.renew(&subscriptions[index], with: entry)
    subscriptions[index].play?.renew(count: entry.occurrences)
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

  /// A renewal's period, with `entry`'s product already the subscription's.
  static func renew(_ subscription: inout StoreSubscription, with entry: LedgerEntry) {
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

  mutating func applyExpiry(_ entry: LedgerEntry, to index: Int, replayed: Bool) {
    if replayed, subscriptions[index].nextEvent != entry.date {
      note(entry, "expires when nothing was due")
    }
    end(index, state: .expired, at: entry.date, reason: entry.reason ?? .autoRenewDisabled)
  }

  mutating func applyUnacknowledgedRefund(_ entry: LedgerEntry, to index: Int, replayed: Bool) {
    if replayed, subscriptions[index].play?.acknowledgeBy != entry.date || !subscriptions[index].isLive {
      note(entry, "refunds an unacknowledged purchase that was not due")
    }
    subscriptions[index].play?.acknowledgeBy = nil
    end(index, state: .revoked, at: entry.date, reason: entry.reason ?? .notAcknowledged)
  }

  mutating func applyPaused(_ entry: LedgerEntry, to index: Int, replayed: Bool) {
    if replayed, !(subscriptions[index].state == .subscribed && subscriptions[index].expirationDate == entry.date
                   && subscriptions[index].pauseUntil != nil) {
      note(entry, "pauses a subscription that was not due to pause")
    }
    subscriptions[index].state = .paused
    schedule(index)
  }

  mutating func applyBillingRetry(_ entry: LedgerEntry, to index: Int, replayed: Bool) {
    if replayed, !(subscriptions[index].state == .subscribed && subscriptions[index].expirationDate == entry.date) {
      note(entry, "fails a renewal that was not due")
    }
    subscriptions[index].state = entry.graceUntil == nil ? .inBillingRetryPeriod : .inGracePeriod
    subscriptions[index].gracePeriodEnd = entry.graceUntil
    subscriptions[index].billingRetryEnd = entry.retryUntil ?? entry.date
    subscriptions[index].resolvedAt = nil
    schedule(index)
  }

  mutating func end(_ index: Int, state: StoreSubscription.State, at time: Date, reason: LedgerEntry.Reason) {
    subscriptions[index].state = state
    subscriptions[index].endDate = time
    subscriptions[index].endReason = reason
    subscriptions[index].autoRenew = false
    subscriptions[index].clearRecovery()
    schedule(index)
  }

  mutating func applyAction(_ entry: LedgerEntry, to index: Int) {
    var subscription = subscriptions[index]
    let live = subscription.isLive
    switch entry.kind {
    case .upgrade, .downgrade, .crossgrade:
      guard live else { return note(entry, "changes a subscription that has ended") }
      if isPlay {
        // A replacement is a new purchase on Play: a new token linking the old, to acknowledge again.
        subscription.play = PlayPurchase(startID: entry.id, linked: subscription.play, at: entry.date,
                                         window: PlayPurchase.acknowledgementWindow(rules))
      }
      // An App Store upgrade is always now; a ledger written before `effect` says only its kind.
      if entry.effect == .immediately || (entry.effect == nil && entry.kind == .upgrade) {
        subscription.switchProduct(to: entry.productID, product: owned(entry.productID))
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
    case .topUp:
      guard live, let end = entry.expirationDate else { return note(entry, "tops up a purchase that has ended") }
      subscription.transactionID = entry.id
      subscription.expirationDate = end
      subscription.price = entry.price
      if isPlay {
        // A top-up is a purchase of its own: a new token linking the one it extends.
        subscription.play = PlayPurchase(startID: entry.id, linked: subscription.play, at: entry.date,
                                         window: PlayPurchase.acknowledgementWindow(rules))
      }
    case .pause:
      guard live, subscription.state == .subscribed, let until = entry.expirationDate else {
        return note(entry, "pauses a subscription that is not subscribed")
      }
      subscription.pauseUntil = until
    case .resume:
      guard live else { return note(entry, "resumes a subscription that has ended") }
      // Paused: it resumes (renews) now; a pause not begun is dropped.
      subscription.pauseUntil = subscription.state == .paused ? entry.date : nil
    case .acknowledgement:
      guard live, subscription.play?.isAcknowledged == false else {
        return note(entry, "acknowledges a purchase that is \(live ? "not a Play purchase waiting for it" : "no longer live")")
      }
      subscription.play?.acknowledgedAt = entry.date
      subscription.play?.acknowledgeBy = nil
    case .refundKeepingAccess:
      // Money back, nothing else: the subscription goes on as it was.
      return
    case .purchase, .renewal, .expiry, .billingRetry, .unacknowledgedRefund, .paused:
      return
    }
    subscriptions[index] = subscription
    schedule(index)
  }

  static func format(_ date: Date) -> String {
    StoreDates.format(date)
  }
}
