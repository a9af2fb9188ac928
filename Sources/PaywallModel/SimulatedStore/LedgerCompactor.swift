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

/// Keeps a ledger short however long the store runs: a run of plain renewals of one subscription
/// (the same product at the same price, each at the end of the period before it, with no other
/// line of that subscription in between) becomes one `renewal` line with a `run` once it holds
/// `threshold` renewals; each later renewal of the run only updates that line. Shorter runs stay
/// line by line, so the ledger of an ordinary session reads as before.
///
/// The first renewal of a run keeps all its fields (a trial converting to paid, a downgrade taking
/// effect), so a replay applies it as it is and then gives the subscription the last renewal's
/// id, date and expiration (`LedgerReplay`): the state, the next event and the transaction count
/// are those of the full ledger. Other subscriptions' lines between the renewals keep their place.
///
/// The result depends only on the renewals appended, not on how they were grouped: appending a
/// compacted ledger line by line leaves it as it is, so a session that loads a ledger continues
/// compacting it where the last one stopped.
package struct LedgerCompactor: Sendable {
  /// Runs this long or longer are kept as one line: two years of a monthly plan stay line by line.
  package static let defaultThreshold = 24

  package let threshold: Int
  /// The ledger, compacted.
  package private(set) var entries: [LedgerEntry] = []
  /// Events appended so far (each renewal of a run counted): grows with every append, so it tells
  /// whether the ledger changed even when a renewal only extended a run.
  package private(set) var appended = 0

  /// A subscription's run still open: where its lines are in `entries` (one line once compacted)
  /// and how many renewals they stand for.
  private struct OpenRun: Sendable {
    var positions: [Int]
    var count: Int
  }

  private var open: [UInt64: OpenRun] = [:]
  /// The latest line appended so far (seconds since 1970, and whether it was an action): a renewal
  /// joins a run only when nothing before it is dated after it (or at its instant, an action,
  /// which a replay applies after the events of that instant). A ledger out of time order (edited
  /// by hand) is then kept as it is, since a replay would see its renewals one by one.
  private var horizon: (seconds: Double, action: Bool)?

  package init(threshold: Int = LedgerCompactor.defaultThreshold, entries: [LedgerEntry] = []) {
    self.threshold = max(2, threshold)
    entries.forEach { append($0) }
  }

  /// `entries` with every run of `threshold` or more plain renewals as one line. With a threshold
  /// of 2, every run is one line whatever threshold wrote the ledger: the canonical form two
  /// ledgers are compared in (`LedgerDerivation.problems`).
  package static func compact(_ entries: [LedgerEntry], threshold: Int = defaultThreshold) -> [LedgerEntry] {
    LedgerCompactor(threshold: threshold, entries: entries).entries
  }

  package mutating func append(contentsOf lines: [LedgerEntry]) {
    lines.forEach { append($0) }
  }

  package mutating func append(_ entry: LedgerEntry) {
    appended += entry.occurrences
    let key = entry.originalID
    let seconds = entry.date.timeIntervalSince1970
    let inOrder = horizon.map { $0.seconds < seconds || ($0.seconds == seconds && !$0.action) } ?? true
    let action = !entry.kind.isLifecycleRecord
    if horizon.map({ $0.seconds < seconds || ($0.seconds == seconds && action) }) ?? true { horizon = (seconds, action) }
    guard Self.isPlain(entry) else {
      entries.append(entry)
      open[key] = nil
      return
    }
    guard inOrder, var run = open[key], continues(run, with: entry) else {
      entries.append(entry)
      open[key] = OpenRun(positions: [entries.count - 1], count: entry.occurrences)
      return
    }
    let head = run.positions[0]
    run.count += entry.occurrences
    if entries[head].run != nil || run.count >= threshold {
      entries[head].run = LedgerEntry.Run(count: run.count, lastID: entry.lastID, lastDate: entry.run?.lastDate ?? entry.date,
                                          lastExpirationDate: entry.lastExpirationDate)
      remove(Array(run.positions.dropFirst()))
      run.positions = [head]
    } else {
      entries.append(entry)
      run.positions.append(entries.count - 1)
    }
    open[key] = run
  }

  /// A renewal that can be part of a run: nothing but a new period at a price.
  static func isPlain(_ entry: LedgerEntry) -> Bool {
    entry.kind == .renewal && entry.offer == nil && entry.offerPeriodsLeft == 0 && entry.expirationDate != nil
      && entry.proratedCredit == nil && entry.reason == nil && entry.revokedID == nil && entry.graceUntil == nil
      && entry.retryUntil == nil && entry.grace == nil && entry.accepted == nil && entry.effect == nil
      && (entry.run.map { $0.count >= 2 && $0.lastExpirationDate != nil } ?? true)
  }

  /// The same product, price and ownership as the run's first renewal, starting where its last
  /// period ended (to the millisecond, as the file keeps dates: a date that went through
  /// `timeIntervalSince1970` may be a few ulps off the one it came from).
  private func continues(_ run: OpenRun, with entry: LedgerEntry) -> Bool {
    let first = entries[run.positions[0]]
    let last = entries[run.positions[run.positions.count - 1]]
    guard entry.productID == first.productID, entry.price == first.price, entry.ownership == first.ownership,
          let end = last.lastExpirationDate else { return false }
    return Self.millisecond(entry.date) == Self.millisecond(end)
  }

  static func millisecond(_ date: Date) -> Double {
    (date.timeIntervalSince1970 * 1000).rounded()
  }

  /// Drops the lines at `positions` (ascending), keeping every open run's positions right.
  private mutating func remove(_ positions: [Int]) {
    guard !positions.isEmpty else { return }
    var drop = Set(positions)
    entries = entries.enumerated().compactMap { drop.remove($0.offset) == nil ? $0.element : nil }
    func shifted(_ position: Int) -> Int {
      // How many removed lines were before it (binary search: positions are ascending).
      var low = 0
      var high = positions.count
      while low < high {
        let middle = (low + high) / 2
        if positions[middle] < position { low = middle + 1 } else { high = middle }
      }
      return position - low
    }
    open = open.mapValues { OpenRun(positions: $0.positions.map(shifted), count: $0.count) }
  }
}
