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

/// Decides which ledger lines an action adds, from the replayed state: where a purchase becomes an
/// upgrade, a downgrade or a return to a group, which introductory offer applies, what a refund
/// takes back. Pure: the store applies what it returns.
extension LedgerReplay {
  /// The line a purchase of `product` at `date` adds, or nil when it changes nothing (already
  /// subscribed to it, or a non-consumable already owned).
  mutating func planPurchase(_ product: StoreProduct, at date: Date) -> LedgerEntry? {
    switch product.kind {
    case .consumable:
      return newPurchase(product, at: date, offer: nil)
    case .nonConsumable:
      if subscriptions.contains(where: { $0.productID == product.id && $0.ownership == .purchased && $0.isLive }) { return nil }
      return newPurchase(product, at: date, offer: nil)
    case .nonRenewing:
      if isPlay, product.playPlan?.timeExtension == true, let period = product.subscriptionPeriod,
         let index = subscriptions.lastIndex(where: { playHolds($0, as: product) && $0.ownership == .purchased && $0.state == .subscribed }),
         let end = subscriptions[index].expirationDate {
        // Google Play: buying a prepaid plan again before it ends tops it up by one more period.
        var entry = LedgerEntry(id: takeID(), kind: .topUp, date: date, originalID: subscriptions[index].originalID, productID: subscriptions[index].productID)
        entry.price = product.price
        entry.expirationDate = rules.end(of: period, from: end)
        return entry
      }
      return newPurchase(product, at: date, offer: nil)
    case .autoRenewable:
      let group = Self.groupKey(product)
      if let index = byGroup[group], subscriptions[index].isLive {
        // A live subscriber's promotional or code offer rides on the change (or, for the same
        // product, starts at the next renewal), as StoreKit applies it.
        let offer = product.requestedOffer.flatMap { offerHistory.allows($0, for: product, at: date) ? $0 : nil }
        return planChange(from: index, to: product, at: date, offer: offer)
      }
      var entry: LedgerEntry
      if let requested = product.requestedOffer {
        // An offer the purchase names: the store charges it only when its rules allow it,
        // else the regular price (the card showed the same: `OfferHistory.terms`).
        let terms = offerHistory.terms(of: requested, for: product, at: date)
        entry = newPurchase(product, at: date, offer: terms)
        if terms != nil {
          entry.offerType = LedgerEntry.OfferType(requested.kind)
          entry.offerID = requested.id
        }
      } else {
        let taken = introEligibility.offerTaken(by: product)
        entry = newPurchase(product, at: date, offer: taken.offer)
        // Google Play: which offer the buyer took, for the offers Play gives once per user.
        if let offerID = taken.playOfferID { entry.offerID = offerID }
      }
      // A return to a group keeps its original transaction, as StoreKit does.
      if let index = byGroup[group] { entry.originalID = subscriptions[index].originalID }
      return entry
    }
  }

  /// Buying `product` while subscribed to another product of its group: an upgrade to a higher
  /// level (now, prorated), a downgrade to a lower one (at the next renewal), a crossgrade at the
  /// same level (now when the periods match, else at renewal). Buying the current product again
  /// turns auto-renewal back on and cancels a pending change.
  ///
  /// With `offer` (a promotional or code offer the subscriber may take), the same product starts
  /// it at the next renewal; a change that applies now runs its first period on it, one at
  /// renewal starts it then. Apple: an offer for the subscription the customer already has
  /// begins at the next renewal date; for another one in the group, the upgrade, downgrade or
  /// crossgrade rules say when ("Auto-renewable subscriptions", developer.apple.com/app-store/subscriptions).
  mutating func planChange(from index: Int, to product: StoreProduct, at date: Date, offer: SubscriptionOffer? = nil) -> LedgerEntry? {
    let current = subscriptions[index]
    // On Play the same base plan under another spelling (another offer) is the same purchase.
    if current.productID == product.id || playHolds(current, as: product) {
      let offerPending = offer == nil || current.renewalOfferID == offer?.id
      guard !current.autoRenew || current.renewalProductID != nil || !offerPending else { return nil }
      var entry = LedgerEntry(id: takeID(), kind: .autoRenewOn, date: date, originalID: current.originalID, productID: current.productID)
      if let offer {
        entry.offerType = LedgerEntry.OfferType(offer.kind)
        entry.offerID = offer.id
      }
      return entry
    }
    if current.renewalProductID == product.id { return nil }
    if isPlay, let from = owned(current.productID) {
      return playReplacement(of: current, from: from, to: product, at: date)
    }
    let from = owned(current.productID)
    let kind = Self.changeKind(from: from, to: product)
    var entry = LedgerEntry(id: takeID(), kind: kind, date: date, originalID: current.originalID, productID: product.id)
    let immediate = kind == .upgrade || (kind == .crossgrade && from?.subscriptionPeriod == product.subscriptionPeriod)
    entry.effect = immediate ? .immediately : .atRenewal
    if immediate, let period = product.subscriptionPeriod {
      entry.expirationDate = rules.end(of: period, from: date)
      entry.price = product.price
      entry.proratedCredit = Self.unusedPart(of: current, at: date)
    }
    if let offer {
      entry.offerType = LedgerEntry.OfferType(offer.kind)
      entry.offerID = offer.id
      if immediate {
        let terms = offer.terms
        entry.offer = terms.paymentMode
        // The regular price it renews at once the offer ends.
        entry.regularPrice = product.price
        entry.price = terms.price
        entry.offerPeriodsLeft = terms.paymentMode == .payAsYouGo ? terms.periodCount - 1 : 0
        entry.expirationDate = rules.end(of: terms.paymentMode == .payAsYouGo ? terms.period : terms.totalPeriod, from: date)
      }
    }
    return entry
  }

  /// Google Play: the line that replaces `current` (on `from`) with `product` at `date`, by the
  /// replacement mode the purchase names or the plan's default. A replacement is a new purchase
  /// (a new token, `LedgerReplay.applyAction`); upgrade or downgrade by price a day.
  mutating func playReplacement(of current: StoreSubscription, from: StoreProduct, to product: StoreProduct, at date: Date) -> LedgerEntry {
    let mode = Self.replacementMode(for: product)
    let kind = Self.playChangeKind(from: from, to: product, rules: rules)
    var entry = LedgerEntry(id: takeID(), kind: kind, date: date, originalID: current.originalID, productID: product.id)
    entry.replacementMode = mode
    entry.regularPrice = product.price
    guard mode != .deferred, let period = product.subscriptionPeriod else {
      entry.effect = .atRenewal
      return entry
    }
    entry.effect = .immediately
    let end = current.expirationDate ?? date
    let unused = Self.unusedPart(of: current, at: date) ?? 0
    let newLength = rules.end(of: period, from: date).timeIntervalSince(date)
    // The unused value of the old plan as time on the new one, at its price a second.
    let creditSeconds = product.price > 0 ? (Double(unused.description) ?? 0) / (Double(product.price.description) ?? 1) * newLength : 0
    switch mode {
    case .withTimeProration:
      entry.price = 0
      entry.proratedCredit = unused
      entry.expirationDate = date.addingTimeInterval(creditSeconds.rounded())
    case .chargeProratedPrice:
      let rest = end.timeIntervalSince(date)
      entry.price = max(0, (product.price * Decimal(rest / newLength)).rounded(2, .plain) - unused)
      entry.proratedCredit = unused
      entry.expirationDate = end
    case .chargeFullPrice:
      entry.price = product.price
      entry.proratedCredit = unused
      entry.expirationDate = rules.end(of: period, from: date).addingTimeInterval(creditSeconds.rounded())
    case .withoutProration:
      entry.price = 0
      entry.expirationDate = end
    case .deferred:
      break
    }
    return entry
  }

  /// The mode a purchase of `product` replaces with: the one it names, else its plan's default.
  static func replacementMode(for product: StoreProduct) -> PlayReplacementMode {
    product.replacementMode ?? product.playPlan?.replacementMode ?? .deferred
  }

  /// Why Play refuses to replace `current` with `product` now, if it does: `CHARGE_PRORATED_PRICE`
  /// is for upgrades only.
  func playReplacementRefusal(_ product: StoreProduct, at date: Date) -> String? {
    guard isPlay, product.kind == .autoRenewable, let index = byGroup[Self.groupKey(product)], subscriptions[index].isLive,
          subscriptions[index].productID != product.id, let from = owned(subscriptions[index].productID),
          Self.replacementMode(for: product) == .chargeProratedPrice,
          Self.playChangeKind(from: from, to: product, rules: rules) != .upgrade else { return nil }
    return "Google Play allows CHARGE_PRORATED_PRICE only for an upgrade, and \(product.id) costs no more a day than \(from.id); use another replacement mode"
  }

  /// Upgrade or downgrade by what a day of each plan costs (Play has no levels), else crossgrade.
  static func playChangeKind(from: StoreProduct, to: StoreProduct, rules: StoreRules) -> LedgerEntry.Kind {
    func daily(_ product: StoreProduct) -> Double? {
      guard let period = product.subscriptionPeriod else { return nil }
      return (Double(product.price.description) ?? 1) / Double(max(1, period.approximateDays))
    }
    guard let old = daily(from), let new = daily(to) else { return .crossgrade }
    return new > old + 1e-9 ? .upgrade : new < old - 1e-9 ? .downgrade : .crossgrade
  }

  /// `upgrade`, `downgrade` or `crossgrade` by group level (1 is the highest).
  static func changeKind(from: StoreProduct?, to: StoreProduct) -> LedgerEntry.Kind {
    let old = from?.groupLevel ?? Int.max
    let new = to.groupLevel ?? Int.max
    return new < old ? .upgrade : new > old ? .downgrade : .crossgrade
  }

  /// What the rest of the current period is worth: the refund an upgrade credits.
  static func unusedPart(of subscription: StoreSubscription, at date: Date) -> Decimal? {
    guard let price = subscription.price, price > 0, let end = subscription.expirationDate, end > date,
          subscription.periodStart < end else { return nil }
    let fraction = end.timeIntervalSince(date) / end.timeIntervalSince(subscription.periodStart)
    return (price * Decimal(fraction)).rounded(2, .plain)
  }

  mutating func newPurchase(_ product: StoreProduct, at date: Date, offer: IntroductoryOffer?,
                            ownership: LedgerEntry.Ownership = .purchased) -> LedgerEntry {
    let id = takeID()
    var entry = LedgerEntry(id: id, kind: .purchase, date: date, originalID: id, productID: product.id,
                            price: product.price, ownership: ownership)
    if isPlay, let rental = product.play?.rentalPeriod {
      // Google Play: a rented purchase option is held for its `rentalPeriod` from the purchase,
      // then ends (a purchase option's `rentOption` in the monetization API); it may be rented again after.
      entry.expirationDate = rental.subscriptionPeriod.map { rules.end(of: $0, from: date) }
        ?? date.addingTimeInterval(Double(rental.approximateDays) * 86_400)
      return entry
    }
    guard let period = product.subscriptionPeriod, product.kind.isSubscription else { return entry }
    // The price the subscriber keeps once the offer ends (the App Store keeps it for them).
    if offer != nil { entry.regularPrice = product.price }
    switch offer?.paymentMode {
    case .freeTrial?:
      entry.offer = .freeTrial
      entry.price = 0
      entry.expirationDate = rules.end(of: offer!.totalPeriod, from: date)
    case .payAsYouGo?:
      entry.offer = .payAsYouGo
      entry.price = offer!.price
      entry.offerPeriodsLeft = offer!.periodCount - 1
      entry.expirationDate = rules.end(of: offer!.period, from: date)
    case .payUpFront?:
      entry.offer = .payUpFront
      entry.price = offer!.price
      entry.expirationDate = rules.end(of: offer!.totalPeriod, from: date)
    case nil:
      entry.expirationDate = rules.end(of: period, from: date)
    }
    return entry
  }

  // MARK: - Finding what an action acts on

  /// The newest subscription matching `productID` (any product when nil) and `condition`, by
  /// ownership.
  func find(_ productID: String?, ownership: LedgerEntry.Ownership = .purchased,
            _ condition: (StoreSubscription) -> Bool) -> Int? {
    subscriptions.lastIndex { subscription in
      subscription.ownership == ownership && (productID == nil || subscription.productID == productID) && condition(subscription)
    }
  }

  /// The next level up (`direction` -1) or down (+1) from `product` in its group, or (0) another
  /// product at its level.
  func neighbour(of product: StoreProduct, direction: Int) -> StoreProduct? {
    guard let group = product.subscriptionGroup, let level = product.groupLevel else { return nil }
    let candidates = catalog.products.filter {
      $0.kind == .autoRenewable && $0.subscriptionGroup == group && $0.id != product.id
        && $0.groupLevel.map { direction < 0 ? $0 < level : direction > 0 ? $0 > level : $0 == level } == true
    }
    if direction == 0 { return candidates.first }
    return direction < 0 ? candidates.max { ($0.groupLevel ?? 0) < ($1.groupLevel ?? 0) }
      : candidates.min { ($0.groupLevel ?? 0) < ($1.groupLevel ?? 0) }
  }

  // MARK: - Starting states

  /// The lines that put the user in `start.state` at `now`: a purchase in the past and what
  /// followed it. Applied in order (with `advance(to: now)` after) on an empty ledger.
  mutating func plan(_ start: StartState, product: StoreProduct, at now: Date) -> [LedgerEntry] {
    let period = product.subscriptionPeriod ?? SubscriptionPeriod(value: 1, unit: .month)
    let length = rules.renewalInterval ?? Double(period.approximateDays) * 86_400
    func purchase(at date: Date, expiring: Date?, offer: IntroductoryOffer? = nil) -> LedgerEntry {
      var entry = newPurchase(product, at: date, offer: offer)
      if product.kind == .autoRenewable, let expiring { entry.expirationDate = expiring }
      return entry
    }
    func follow(_ kind: LedgerEntry.Kind, _ first: LedgerEntry, at date: Date) -> LedgerEntry {
      LedgerEntry(id: takeID(), kind: kind, date: date, originalID: first.originalID, productID: product.id)
    }
    switch start.state {
    case .subscribed:
      return [purchase(at: now, expiring: nil)]
    case .trial:
      return [purchase(at: now, expiring: nil, offer: product.introductoryOffer)]
    case .gracePeriod, .billingRetry:
      // Bought a period ago with a failing card: the renewal fails now, with a grace period
      // (still active) or straight into billing retry.
      let bought = now.addingTimeInterval(-length)
      let first = purchase(at: bought, expiring: now)
      var issue = follow(.billingIssue, first, at: bought)
      issue.grace = start.state == .gracePeriod
      return [first, issue]
    case .expired:
      let first = purchase(at: now.addingTimeInterval(-length), expiring: now)
      return [first, follow(.autoRenewOff, first, at: first.date)]
    case .revoked:
      let first = purchase(at: now, expiring: nil)
      var revocation = follow(.revocation, first, at: now)
      revocation.revokedID = first.id
      revocation.reason = .revoked
      return [first, revocation]
    }
  }
}

extension LedgerEntry.OfferType {
  /// The ledger's word for a configured offer's kind.
  init(_ kind: SubscriptionOffer.Kind) {
    switch kind {
    case .promotional: self = .promotional
    case .winBack: self = .winBack
    case .code: self = .code
    }
  }
}
