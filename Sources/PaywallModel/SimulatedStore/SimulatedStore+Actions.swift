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

/// The QA actions (`StoreAction`) a tester performs on the store, and the ledger lines each adds.
extension SimulatedStore {
  // MARK: - Controls

  /// Performs a QA action; the result says what happened in one line, or why nothing did.
  @discardableResult
  public func perform(_ action: StoreAction) -> Result<String, StoreActionError> {
    change { book, now in Self.perform(action, &book, at: now, catalog: catalog) }
  }

  /// Grants the oldest pending Ask to Buy purchase. Nil when nothing is pending.
  @discardableResult
  public func approve() -> String? {
    try? perform(.approve).get()
  }

  /// Drops the oldest pending Ask to Buy purchase. Nil when nothing is pending.
  @discardableResult
  public func decline() -> String? {
    try? perform(.decline).get()
  }

  /// Refunds the newest live purchase of `productID`: its entitlements end now (on Google Play a
  /// subscription's refund returns its last order's money and leaves it running).
  @discardableResult
  public func refund(productID: String) -> Bool {
    (try? perform(.refund(productID: productID)).get()) != nil
  }

  /// Turns auto-renewal off for the newest live subscription to `productID`: it ends at the end of
  /// the current period.
  @discardableResult
  public func cancel(productID: String) -> Bool {
    (try? perform(.cancel(productID: productID)).get()) != nil
  }

  // MARK: - Actions

  private static func perform(_ action: StoreAction, _ book: inout Book, at now: Date,
                              catalog: Catalog) -> Result<String, StoreActionError> {
    func product(_ id: String) -> Result<StoreProduct, StoreActionError> {
      guard let product = catalog.product(id: id) else { return .failure(StoreActionError(catalog.missingProductLine(id))) }
      return .success(product)
    }
    func live(_ id: String?, _ what: String, ownership: LedgerEntry.Ownership = .purchased,
              _ condition: (StoreSubscription) -> Bool = { _ in true }) -> Result<Int, StoreActionError> {
      if let index = book.replay.find(id, ownership: ownership, { $0.isLive && condition($0) }) { return .success(index) }
      let live = book.replay.subscriptions.filter { $0.isLive && $0.ownership == ownership }.map(\.productID)
      let which = id.map { " of \(excerpt: $0)" } ?? ""
      return .failure(StoreActionError("no live \(ownership == .familyShared ? "family-shared " : "")subscription\(which) to \(what)\(live.isEmpty ? "" : " (live: \(live.joined(separator: ", ")))")"))
    }
    func add(_ kind: LedgerEntry.Kind, _ index: Int, _ edit: (inout LedgerEntry) -> Void = { _ in }) -> LedgerEntry {
      let subscription = book.replay.subscriptions[index]
      var entry = LedgerEntry(id: book.replay.takeID(), kind: kind, date: now, originalID: subscription.originalID,
                              productID: subscription.productID, ownership: subscription.ownership)
      edit(&entry)
      append(entry, to: &book)
      return entry
    }
    func ends(_ index: Int) -> String {
      book.replay.subscriptions[index].expirationDate.map { ", ends \(StoreDates.format($0))" } ?? ""
    }

    switch action {
    case .buy(let id):
      // A buy the store refuses (a declined card, Play's ITEM_ALREADY_OWNED) bought nothing: it
      // fails as any other action that did nothing, so a script's `buy` step that buys nothing
      // fails there, naming the store's answer, instead of passing on to steps that assumed it.
      // An interrupted one fails too, but waits to be resolved: that is what it did.
      return product(id).flatMap { product -> Result<String, StoreActionError> in
        let waiting = book.pending.count
        return switch purchase(product, &book, at: now) {
        case .purchased: .success("bought \(id)")
        case .pending: .success(book.pending.last?.completesAt == nil ? "\(id) is waiting for approval (Ask to Buy)"
          : "\(id) is PENDING: the slow test card \(book.settings.testCard == .slowApproves ? "approves" : "declines") it \(StoreDates.format(book.pending.last!.completesAt!))")
        case .failed(let error) where book.pending.count > waiting: .success("buying \(id) was interrupted: \(error.displayMessage)")
        case .failed(let error): .failure(StoreActionError("buying \(id) failed: \(error.displayMessage)"))
        case let other: .success("buying \(id): \(other.name)")
        }
      }
    case .approve, .decline:
      guard let index = book.pending.firstIndex(where: { $0.kind == .askToBuy }) else {
        return .failure(StoreActionError("no pending Ask to Buy purchase to \(action.name)"))
      }
      let pending = book.pending.remove(at: index)
      guard action == .approve else { return .success("declined \(pending.productID)") }
      return product(pending.productID).flatMap { product in
        Self.buy(Self.withOffer(product, pending), &book, at: now)
          .map { "approved \(pending.productID)" }
          .mapError { StoreActionError("approved \(pending.productID), \($0.message)") }
      }
    case .resolveInterrupted:
      guard let index = book.pending.firstIndex(where: { $0.kind == .interrupted }) else {
        return .failure(StoreActionError("no interrupted purchase to resolve"))
      }
      let pending = book.pending.remove(at: index)
      // Completed by the buyer, the purchase is paid then: on Play with the test card chosen.
      if book.replay.isPlay, book.settings.testCard == .alwaysDeclines {
        return .failure(StoreActionError("the interrupted purchase of \(pending.productID) was not bought: \(PlayTestCard.declinedMessage)"))
      }
      return product(pending.productID).flatMap { product in
        Self.buy(Self.withOffer(product, pending), &book, at: now)
          .map { "completed the interrupted purchase of \(pending.productID)" }
          .mapError { StoreActionError("the interrupted purchase of \(pending.productID) was \($0.message)") }
      }
    case .interruptNextPurchase:
      book.interruptNext = true
      return .success("the next purchase is interrupted")
    case .testCard(let card):
      guard book.replay.isPlay else { return .failure(playOnly("test-card", "Ask to Buy (--ask-to-buy) or 'fail purchase'")) }
      book.settings.testCard = card
      return .success("purchases pay with \(quoting: card.playName)")
    case .acknowledging(let on):
      guard book.replay.isPlay else { return .failure(playOnly("acknowledge \(on ? "on" : "off")", nil)) }
      book.settings.acknowledgesPurchases = on
      let window = TimeRate.spell(PlayPurchase.acknowledgementWindow(book.settings.rules))
      return .success(on ? "the app acknowledges each purchase as it completes"
        : "the app forgets to acknowledge purchases: Play refunds each \(window) after it completes")
    case .replacementMode(let mode):
      guard book.replay.isPlay else { return .failure(playOnly("replacement-mode", "'upgrade', 'downgrade' or 'crossgrade'")) }
      book.settings.replacementMode = mode
      return .success("plan changes replace \(mode.map { "with \($0.rawValue)" } ?? "by the target plan's default (its prorationMode)")")
    case .replace(let id, let mode):
      guard book.replay.isPlay else { return .failure(playOnly("replace", "'upgrade', 'downgrade' or 'crossgrade'")) }
      return product(id).flatMap { target -> Result<String, StoreActionError> in
        guard target.kind == .autoRenewable, let index = book.replay.byGroup[LedgerReplay.groupKey(target)],
              book.replay.subscriptions[index].isLive else {
          return .failure(StoreActionError("no live subscription to replace with \(target.id) (it replaces another base plan of its subscription)"))
        }
        var asked = target
        asked.replacementMode = mode ?? book.settings.replacementMode
        if let refusal = book.replay.playReplacementRefusal(asked, at: now) { return .failure(StoreActionError(refusal)) }
        let from = book.replay.subscriptions[index].productID
        guard let entry = book.replay.planPurchase(asked, at: now), entry.replacementMode != nil else {
          return .failure(StoreActionError("\(target.id) is already \(from == target.id ? "the plan" : "the next renewal") of the subscription"))
        }
        append(entry, to: &book)
        acknowledge(entry, &book)
        let when = entry.effect == .immediately ? "now" : "at the next renewal\(ends(index))"
        return .success("\(from) replaced by \(target.id) with \(entry.replacementMode!.rawValue) \(when)\(entry.price.map { ", charged \($0)" } ?? "")")
      }
    case .pause(let id, let length):
      guard book.replay.isPlay else { return .failure(playOnly("pause", "'cancel'")) }
      let pausable = live(id, "pause", { $0.kind == .autoRenewable && $0.state == .subscribed && $0.autoRenew && $0.pauseUntil == nil })
      // A live purchase of that id that cannot pause says why, not that there is none.
      if case .failure = pausable, let index = book.replay.find(id, { $0.isLive }) {
        let held = book.replay.subscriptions[index]
        let why: String? =
          if held.kind == .consumable || held.kind == .nonConsumable { "it is a one-time product, not a subscription" }
          else if held.kind != .autoRenewable { "it is a prepaid plan, which does not renew: only an auto-renewing plan pauses (from a renewal)" }
          else if let until = held.pauseUntil { "it already pauses until \(StoreDates.format(until)); 'resume' it first" }
          else if !held.autoRenew { "it is cancelled (auto-renewal off), so it has no renewal to pause from; buy it again to resubscribe" }
          else if held.state == .inGracePeriod { "it is in its grace period: fix its billing first ('resolve-billing')" }
          else if held.state != .subscribed { "it is on account hold: fix its billing first ('resolve-billing')" }
          else { nil }
        if let why { return .failure(StoreActionError("\(held.productID) cannot pause: \(why)")) }
      }
      return pausable
        .flatMap { index in
          guard let end = book.replay.subscriptions[index].expirationDate else {
            return .failure(StoreActionError("\(book.replay.subscriptions[index].productID) has no period to pause after"))
          }
          let until = book.replay.rules.end(of: length.period, from: end)
          let entry = add(.pause, index) { $0.expirationDate = until }
          return .success("\(entry.productID) pauses at its renewal \(StoreDates.format(end)) until \(StoreDates.format(until)): no access meanwhile")
        }
    case .resume(let id):
      guard book.replay.isPlay else { return .failure(playOnly("resume", nil)) }
      return live(id, "resume", { $0.pauseUntil != nil }).map { index in
        let paused = book.replay.subscriptions[index].state == .paused
        let entry = add(.resume, index)
        return paused ? "\(entry.productID) resumed: it renews now" : "the pause of \(entry.productID) is dropped: it renews as before"
      }
    case .acknowledge(let id):
      guard book.replay.isPlay else { return .failure(playOnly("acknowledge", nil)) }
      return live(id, "acknowledge", { $0.play?.isAcknowledged == false }).map { index in
        let entry = add(.acknowledgement, index)
        return "acknowledged \(entry.productID) (\(book.replay.subscriptions[index].play?.orderID ?? ""))"
      }
    case .redeem(let code):
      return redeem(code, &book, at: now, catalog: catalog)
    case .cancel(let id):
      return live(id, "cancel", { $0.kind == .autoRenewable && $0.autoRenew }).map { index in
        _ = add(.autoRenewOff, index)
        return "auto-renewal off for \(book.replay.subscriptions[index].productID)\(ends(index))"
      }
    case .refund(let id), .revoke(let id):
      let refund: Bool = if case .refund = action { true } else { false }
      guard let index = book.replay.find(id, { $0.isLive || $0.state == .consumed })
              ?? book.replay.find(id, { $0.state != .revoked }) else {
        return .failure(StoreActionError("nothing \(id.map { "of \(excerpt: $0) " } ?? "")to \(refund ? "refund" : "revoke")"))
      }
      let subscription = book.replay.subscriptions[index]
      if refund, book.replay.isPlay, subscription.kind != .nonConsumable, subscription.kind != .consumable {
        // Google Play refunds a subscription's order and leaves the subscription as it is: it
        // "remains valid until its expiration time and it will continue to recur"
        // (purchases.subscriptions.refund); `revoke` refunds it and ends it now.
        if book.ledger.entries.contains(where: { $0.kind == .refundKeepingAccess && $0.revokedID == subscription.transactionID }) {
          return .failure(StoreActionError("the last order of \(subscription.productID) (transaction \(subscription.transactionID)) is refunded already; revoke ends the subscription"))
        }
        let entry = add(.refundKeepingAccess, index) { $0.revokedID = subscription.transactionID }
        let kept = !subscription.isLive ? "as it is (\(subscription.state.rawValue))"
          : subscription.autoRenew ? "renewing\(subscription.expirationDate.map { ", renews \(StoreDates.format($0))" } ?? "")"
          : "until it ends\(ends(index))"
        return .success("refunded the last order of \(entry.productID) (transaction \(entry.revokedID ?? 0)): Google Play keeps the subscription \(kept); revoke ends it now")
      }
      let entry = add(refund ? .refund : .revocation, index) {
        $0.revokedID = subscription.transactionID
        $0.reason = refund ? .refunded : .revoked
      }
      return .success("\(refund ? "refunded" : "revoked") \(entry.productID) (transaction \(entry.revokedID ?? 0)): access ends now")
    case .upgrade(let id), .downgrade(let id), .crossgrade(let id):
      // With a product, the subscription in its group; without, the newest one.
      let group = id.flatMap { catalog.product(id: $0) }.map(LedgerReplay.groupKey)
      return live(nil, action.name, { $0.kind == .autoRenewable && (group == nil || $0.group == group) }).flatMap { index -> Result<String, StoreActionError> in
        let current = book.replay.subscriptions[index]
        guard let from = book.replay.owned(current.productID) else {
          return .failure(StoreActionError("the catalog no longer has \(current.productID)"))
        }
        let target: Result<StoreProduct, StoreActionError>
        if let id {
          target = product(id)
        } else if let neighbour = book.replay.neighbour(of: from, direction: action.name == "upgrade" ? -1 : action.name == "downgrade" ? 1 : 0) {
          target = .success(neighbour)
        } else {
          let place = action.name == "upgrade" ? "no level above" : action.name == "downgrade" ? "no level below" : "no other product at the level of"
          target = .failure(StoreActionError("\(from.id)'s group has \(place) it"))
        }
        return target.flatMap { to -> Result<String, StoreActionError> in
          guard to.kind == .autoRenewable, LedgerReplay.groupKey(to) == LedgerReplay.groupKey(from) else {
            return .failure(StoreActionError("\(to.id) is not a subscription in \(from.id)'s group"))
          }
          guard to.id != from.id else { return .failure(StoreActionError("already subscribed to \(to.id)")) }
          let kind = LedgerReplay.changeKind(from: from, to: to)
          guard kind.rawValue == action.name else {
            return .failure(StoreActionError("\(from.id) (level \(from.groupLevel ?? 0)) to \(to.id) (level \(to.groupLevel ?? 0)) is a \(kind.rawValue), not a\(action.name == "upgrade" ? "n" : "") \(action.name)"))
          }
          guard let entry = book.replay.planChange(from: index, to: to, at: now) else {
            return .failure(StoreActionError("\(to.id) is already the next renewal of \(from.id)"))
          }
          append(entry, to: &book)
          acknowledge(entry, &book)
          let when = entry.effect == .immediately ? "now" : "at the next renewal\(ends(index))"
          let credit = entry.proratedCredit.map { "; \($0) credited for the unused period" } ?? ""
          return .success("\(kind.rawValue) from \(from.id) to \(to.id) \(when)\(credit)")
        }
      }
    case .billingIssue(let id, let grace):
      return live(id, "fail billing for", { $0.kind == .autoRenewable }).map { index in
        // On Play the base plan says how long the grace period is; `no-grace` skips it.
        let play = book.replay.isPlay ? book.replay.owned(book.replay.subscriptions[index].productID)?.playPlan : nil
        let entry = add(.billingIssue, index) { $0.grace = grace ?? (play != nil || book.settings.rules.gracePeriodEnabled) }
        if let play {
          let grace = entry.grace == true && play.gracePeriodDays > 0 ? "a \(play.gracePeriodDays)-day grace period, then " : ""
          return "billing fails for \(entry.productID) from now: the next renewal enters \(grace)a \(play.accountHoldDays)-day account hold"
        }
        return "billing fails for \(entry.productID) from now: the next renewal enters billing retry \(entry.grace == true ? "with" : "without") a grace period"
      }
    case .resolveBilling(let id):
      return live(id, "resolve billing for", { $0.billingIssue || $0.state == .inGracePeriod || $0.state == .inBillingRetryPeriod })
        .map { index in
          let wasFailing = book.replay.subscriptions[index].state != .subscribed
          let entry = add(.billingResolved, index)
          return "billing resolved for \(entry.productID)\(wasFailing ? ": it renews now" : "")"
        }
    case .familyShare(let id):
      let shared: StoreProduct
      if let id {
        switch product(id) {
        case .failure(let error): return .failure(error)
        case .success(let found):
          guard found.familyShareable else {
            return .failure(StoreActionError("\(id) is not family shareable (set 'familyShareable': true in the catalog)"))
          }
          shared = found
        }
      } else {
        guard let found = catalog.products.first(where: \.familyShareable) else {
          return .failure(StoreActionError("no product in the catalog is family shareable ('familyShareable': true)"))
        }
        shared = found
      }
      if book.replay.find(shared.id, ownership: .familyShared, { $0.isLive }) != nil {
        return .failure(StoreActionError("\(shared.id) is already shared by the family"))
      }
      append(book.replay.newPurchase(shared, at: now, offer: nil, ownership: .familyShared), to: &book)
      return .success("\(shared.id) shared by a family organizer")
    case .familyRevoke(let id):
      return live(id, "stop sharing", ownership: .familyShared).map { index in
        let entry = add(.revocation, index) {
          $0.revokedID = book.replay.subscriptions[index].transactionID
          $0.reason = .familySharingRevoked
        }
        return "family sharing of \(entry.productID) revoked: access ends now"
      }
    case .priceIncrease(let id, let price):
      return live(id, "raise the price of", { $0.kind == .autoRenewable }).flatMap { index in
        let subscription = book.replay.subscriptions[index]
        let current = subscription.renewalPrice ?? book.replay.owned(subscription.productID)?.price ?? 0
        let rounded = (price ?? current * Decimal(string: "1.2")!).rounded(2, .plain)
        guard rounded > current else {
          return .failure(StoreActionError("\(rounded) is not more than the current price \(current)"))
        }
        let entry = add(.priceIncrease, index) { $0.price = rounded }
        return .success("price of \(entry.productID) up from \(current) to \(rounded): the next renewal\(ends(index)) needs consent")
      }
    case .acceptPrice(let id), .declinePrice(let id):
      let accept: Bool = if case .acceptPrice = action { true } else { false }
      return live(id, "answer a price increase for", { $0.priceIncrease != nil && $0.priceConsent == nil }).map { index in
        let entry = add(.priceConsent, index) { $0.accepted = accept }
        return accept ? "price increase for \(entry.productID) accepted" : "price increase for \(entry.productID) declined: it expires\(ends(index).replacingOccurrences(of: ", ends", with: ""))"
      }
    }
  }

  /// A Google Play action asked of an App Store catalog.
  static func playOnly(_ what: String, _ instead: String?) -> StoreActionError {
    StoreActionError("\(quoting: what) is Google Play's, and this catalog is not a Play catalog\(instead.map { "; on the App Store use \($0)" } ?? "")")
  }

  /// A purchase the store grants now (a paywall's, an approved one, `buy`): what it became.
  /// Redeems the offer code `code` as the App Store's redemption sheet does: the code is looked
  /// up as typed, then regardless of case (the App Store takes either); a customer outside the
  /// code's eligibility is refused, as is one who would gain nothing (already on it). The sheet
  /// is the App Store's, not a purchase through the app: no Ask to Buy, no fault armed for the
  /// app's next purchase applies, and the app learns of it from the store's transactions.
  private static func redeem(_ code: String, _ book: inout Book, at now: Date, catalog: Catalog) -> Result<String, StoreActionError> {
    let codes = catalog.products.flatMap { product in product.offers.filter { $0.kind == .code }.map { (product, $0) } }
    guard let match = codes.first(where: { $0.1.id == code })
            ?? codes.first(where: { $0.1.id.lowercased() == code.lowercased() }) else {
      let known = codes.map(\.1.id)
      let list = known.isEmpty ? " (the catalog has no offer codes: `codeOffers` in a .storekit file, {\"type\": \"code\"} offers in catalog.json)"
        : " (codes: \(known.joined(separator: ", ")))"
      return .failure(StoreActionError("no offer code \(quoting: code) in the catalog\(Suggestions.hint(for: code, in: known))\(list)"))
    }
    let (product, offer) = match
    if let refusal = book.replay.offerHistory.refusal(of: offer, for: product, at: now) {
      return .failure(StoreActionError("offer code \(quoting: offer.id) (\(product.id)) \(refusal)"))
    }
    var requested = product
    requested.requestedOffer = offer
    guard let entry = book.replay.planPurchase(requested, at: now) else {
      return .failure(StoreActionError("offer code \(quoting: offer.id) changes nothing: \(product.id) already renews on it"))
    }
    append(entry, to: &book)
    acknowledge(entry, &book)
    let terms = offer.terms
    let what = "\(terms.paymentMode.rawValue) \(terms.paymentMode == .freeTrial ? "" : "at \(terms.price) ")for \(terms.totalPeriod.value) \(terms.totalPeriod.unit.rawValue)\(terms.totalPeriod.value == 1 ? "" : "s")"
    let when = entry.kind == .purchase || entry.effect == .immediately ? "now" : "from the next renewal"
    return .success("redeemed offer code \(offer.id): \(product.id), \(what), \(when)")
  }

  /// `product` asking for the offer `pending` named, so a purchase that waited completes on it
  /// (the planner still applies the offer's rules as they are then).
  static func withOffer(_ product: StoreProduct, _ pending: PendingPurchase) -> StoreProduct {
    var product = product
    product.requestedOffer = pending.offerID.flatMap(product.offer(id:))
    return product
  }

  /// Completes a purchase the store has accepted (at once, or after it waited). Fails, writing
  /// nothing, when Play would no longer sell it.
  @discardableResult
  static func buy(_ product: StoreProduct, _ book: inout Book, at now: Date) -> Result<Void, StoreActionError> {
    // A purchase that waited (a slow card, an approval) completes only if Play would still sell
    // it: what it buys may have been bought meanwhile.
    if let owned = book.replay.playAlreadyOwned(product) { return .failure(StoreActionError("not bought: \(owned)")) }
    // Nothing to plan: what it buys is held already (the App Store's non-consumable bought again).
    guard let entry = book.replay.planPurchase(product, at: now) else { return .success(()) }
    append(entry, to: &book)
    acknowledge(entry, &book)
    return .success(())
  }
}
