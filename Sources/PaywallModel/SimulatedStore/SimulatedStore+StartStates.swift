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

/// `--start`: a ledger whose history puts each entitlement in a chosen state now.
extension SimulatedStore {
  /// Replaces the ledger with a history that puts each entitlement in its starting state now.
  public func start(_ states: [StartState]) throws(StoreActionError) {
    var plans: [(StartState, StoreProduct)] = []
    for start in states {
      plans.append((start, try Self.product(for: start, in: catalog)))
    }
    let outcome: StoreActionError? = change(advanceFirst: false) { book, now in
      var replay = LedgerReplay(catalog: catalog, rules: book.settings.rules)
      var lines: [LedgerEntry] = []
      for (start, product) in plans { lines += replay.plan(start, product: product, at: now) }
      // Several starting states interleave in time. Ids are given as lines are applied, after
      // the renewals and expiries that fall due before each, so they follow time order.
      lines.sort { ($0.date, $0.id) < ($1.date, $1.id) }
      book.replay = LedgerReplay(catalog: catalog, rules: book.settings.rules)
      book.ledger = LedgerCompactor(threshold: book.ledger.threshold)
      book.generation += 1
      book.pending = []
      var ids: [UInt64: UInt64] = [:]
      for var line in lines {
        book.ledger.append(contentsOf: book.replay.advance(to: line.date))
        let id = book.replay.takeID()
        ids[line.id] = id
        line.id = id
        line.originalID = ids[line.originalID] ?? line.originalID
        line.revokedID = line.revokedID.flatMap { ids[$0] }
        Self.append(line, to: &book)
        Self.acknowledge(line, &book, always: true)
      }
      return nil
    }
    if let outcome { throw outcome }
  }

  /// The product a starting state is bought with: one that grants the entitlement (with a free
  /// trial for `trial`; an auto-renewable subscription for the billing states).
  static func product(for start: StartState, in catalog: Catalog) throws(StoreActionError) -> StoreProduct {
    let granting = catalog.products.filter { $0.entitlements.contains(start.entitlement) && $0.kind != .consumable }
    guard !granting.isEmpty else {
      let all = catalog.entitlementIDs
      throw StoreActionError("--start \(excerpt: start.description): no product grants \(quoting: start.entitlement.id)\(Suggestions.hint(for: start.entitlement.id, in: all)) (entitlements: \(all.joined(separator: ", ")))")
    }
    let subscriptions = granting.filter { $0.kind == .autoRenewable }
    switch start.state {
    case .trial:
      guard let product = subscriptions.first(where: \.introductoryOfferIsFree) else {
        throw StoreActionError("--start \(excerpt: start.description): no subscription granting \(quoting: start.entitlement.id) has a free trial")
      }
      return product
    case .subscribed, .revoked:
      return subscriptions.first { $0.introductoryOffer == nil } ?? subscriptions.first ?? granting[0]
    case .gracePeriod, .billingRetry, .expired:
      guard let product = subscriptions.first(where: { $0.introductoryOffer == nil }) ?? subscriptions.first else {
        throw StoreActionError("--start \(excerpt: start.description): \(quoting: start.entitlement.id) is only granted by one-time purchases (\(granting.map(\.id).joined(separator: ", "))), which have no \(start.state.rawValue) state")
      }
      return product
    }
  }
}
