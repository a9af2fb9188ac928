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

/// What a ledger means at one moment: the subscription status, every subscription's state, and
/// when something next changes by itself.
public struct DerivedState: Sendable, Hashable {
  /// The moment the state is for, on the store's clock.
  public var date: Date
  /// `active` with the entitlements of every active subscription and purchase, else `inactive`.
  public var status: SubscriptionStatus
  /// Every subscription and one-time purchase, in the order they were first bought.
  public var subscriptions: [StoreSubscription]
  /// The next renewal, expiry, grace period end… on the clock; nil when nothing is due.
  public var nextEvent: Date?
  /// Subscription groups whose introductory offer this user has used.
  public var usedIntroGroups: Set<String>
  /// What win-back offers' rules read: each group's lapse and paid time (`OfferHistory`).
  public var offerHistory: OfferHistory = .unknownHistory
  /// Transactions so far (purchases, renewals, plan changes, refunds and revocations), runs counted in full.
  public var transactionCount: Int
  /// Lines that do not fit the lines before them; empty for a ledger the store wrote.
  public var issues: [String]

  /// Which introductory offers a purchase now gets: what the store charges and the paywall shows.
  public var introEligibility: IntroOfferEligibility {
    IntroOfferEligibility(usedGroups: usedIntroGroups)
  }

  /// Whether a purchase of `product` now would start its introductory offer (it has one, and
  /// its subscription group's is unused).
  public func isEligibleForIntroOffer(_ product: StoreProduct) -> Bool {
    introEligibility.isEligible(for: product)
  }

  /// The newest subscription whose current product is `productID` (the user's own before a
  /// family-shared one).
  public func subscription(productID: String) -> StoreSubscription? {
    subscriptions.last { $0.productID == productID && $0.ownership == .purchased }
      ?? subscriptions.last { $0.productID == productID }
  }
}

/// The subscription status as a pure function of the ledger, the catalog, the store's rules and
/// the clock. The store derives it the same way after every change and on its renewal timer, so
/// anything it shows can be checked against a replay from scratch.
package enum LedgerDerivation {
  package static func derive(_ entries: [LedgerEntry], catalog: Catalog, rules: StoreRules, at now: Date) -> DerivedState {
    var replay = LedgerReplay(catalog: catalog, rules: rules)
    for entry in entries { replay.apply(entry) }
    replay.advance(to: now)
    return replay.snapshot(at: now)
  }

  /// Every way `entries` is not a ledger the store would have written by `now`: lines out of time
  /// or id order, lines that do not fit those before them, and lifecycle records (renewals,
  /// billing retries, expiries) other than exactly those the actions imply under `rules` (replayed
  /// without the records, the actions must produce the same records, ids included). Empty when
  /// consistent.
  package static func problems(in entries: [LedgerEntry], catalog: Catalog, rules: StoreRules, at now: Date) -> [String] {
    var problems: [String] = []
    for (previous, entry) in zip(entries, entries.dropFirst()) {
      if entry.date < previous.date { problems.append("line \(entry.id) is dated before line \(previous.id)") }
      if entry.id <= previous.id { problems.append("line \(entry.id) does not have a larger id than line \(previous.id)") }
    }
    var replay = LedgerReplay(catalog: catalog, rules: rules)
    for entry in entries { replay.apply(entry) }
    replay.advance(to: now)
    problems += replay.issues

    var actionsOnly = LedgerReplay(catalog: catalog, rules: rules)
    var full: [LedgerEntry] = []
    for entry in entries where !entry.kind.isLifecycleRecord {
      full += actionsOnly.apply(entry)
      full.append(entry)
    }
    full += actionsOnly.advance(to: now)
    // Compared with every run of renewals as one line, so a ledger compacted at any threshold (or
    // not at all, as before version 3) compares equal to the renewals the actions imply.
    let implied = LedgerCompactor.compact(full, threshold: 2).filter(\.kind.isLifecycleRecord)
    let recorded = LedgerCompactor.compact(entries, threshold: 2).filter(\.kind.isLifecycleRecord)
    if recorded != implied {
      let index = zip(recorded, implied).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(recorded.count, implied.count)
      let have = index < recorded.count ? describe(recorded[index]) : "nothing more"
      let want = index < implied.count ? describe(implied[index]) : "nothing more"
      problems.append("lifecycle record \(index + 1): the ledger has \(have), the actions imply \(want)")
    }
    if replay.snapshot(at: now) != actionsOnly.snapshot(at: now) {
      problems.append("the state replayed with the records differs from the state the actions alone imply")
    }
    return problems
  }

  static func describe(_ entry: LedgerEntry) -> String {
    let run = entry.run.map { " (×\($0.count), the last \($0.lastID) at \(StoreDates.format($0.lastDate)))" } ?? ""
    return "\(entry.kind.rawValue) \(entry.id) of \(entry.productID) at \(StoreDates.format(entry.date))\(run)"
  }
}
