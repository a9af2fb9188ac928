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
import Synchronization

extension SimulatedStore {
  /// Turns Ask to Buy on or off for later purchases.
  public func setAskToBuy(_ on: Bool) {
    book.withLock { $0.settings.askToBuy = on }
  }

  // MARK: - The clock

  /// Brings the ledger up to the clock (renewals, expiries that fell due) and sets the status if
  /// that changed it: after `advance`, and on the store's own timer.
  public func refreshStatus() {
    change { _, _ in }
  }

  /// The first moment, up to `limit`, at which the store's own events (renewals, expiries, the
  /// end of a grace period) change the status; nil when they leave it as it is until then. A loop
  /// that moves the clock (`play`'s `advance`) goes from one such moment to the next instead of
  /// through every renewal: `refreshStatus` there catches up on everything before it at once.
  /// Moments are on the millisecond, as the store keeps its clock.
  package func nextStatusChange(through limit: Date) -> Date? {
    var (replay, status, pendingDue) = book.withLock { ($0.replay, $0.derived.status, $0.pending.compactMap(\.completesAt).min()) }
    func rounded(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.up) / 1000) }
    while let next = replay.nextEvent, next <= limit {
      // A slow test card's purchase completing first may change the status: stop there.
      if let pendingDue, pendingDue <= next { return rounded(pendingDue) }
      // Rounded up, so the store, rounding the clock to the millisecond, sees the event happen.
      let at = Date(timeIntervalSince1970: (next.timeIntervalSince1970 * 1000).rounded(.up) / 1000)
      replay.advance(to: at)
      if replay.status != status { return at }
      status = replay.status
    }
    if let pendingDue, pendingDue <= limit { return rounded(pendingDue) }
    return nil
  }

  /// The status the SDK sets from `derived`: every active purchase's entitlements, but a
  /// one-time purchase's only where the SDK counts them (`Settings.grantsOneTimePurchases`);
  /// `store` shows it as the next session will see it.
  package static func status(of derived: DerivedState, grantsOneTimePurchases: Bool) -> SubscriptionStatus {
    guard !grantsOneTimePurchases else { return derived.status }
    let renewing = derived.subscriptions.filter { $0.isActive && ($0.kind?.isSubscription ?? true) }
    return .active(renewing.reduce(into: Set<Entitlement>()) { $0.formUnion($1.entitlements) })
  }

  /// Writes the ledger with the clock's time, so the next session continues from here.
  package func checkpoint() {
    change { book, _ in book.unsaved = true }
  }

  /// Runs `body` with the ledger's saves held: each change in it is applied (and its status set)
  /// at once, in memory, and the ledger is written once when `body` ends, if anything changed.
  /// `play` runs each `advance` so: years of renewals are one write, not one per renewal.
  package func savingOnce<T>(_ body: () async throws -> T) async rethrows -> T {
    book.withLock { $0.held += 1 }
    defer { releaseSaves() }
    return try await body()
  }

  func releaseSaves() {
    let flush = book.withLock { book -> Bool in
      book.held -= 1
      return book.held == 0 && book.unsaved
    }
    if flush { change { _, _ in } }
  }

  // MARK: - Changing the book

  enum Publish { case onChange, always }

  /// Runs `body` on the book with the clock's time: first the ledger catches up with the clock,
  /// after it the lines `body` added may make more events due; then the state is derived again,
  /// saved when the ledger changed, the status set when it changed, and the timer set for the next
  /// event.
  @discardableResult
  func change<T>(publish: Publish = .onChange, advanceFirst: Bool = true,
                         _ body: (inout Book, Date) -> T) -> T {
    serial.withLock { encodedLines in
      let now = StoreDates.wholeMilliseconds(clock.now)
      let (result, save, newStatus, next, changed) = book.withLock { book -> (T, LedgerFile.Contents?, SubscriptionStatus?, Date?, (@Sendable () -> Void)?) in
        let before = ((book.generation, book.ledger.appended), book.pending, book.interruptNext, book.derived)
        let changes = book.changes
        if advanceFirst { Self.catchUp(&book, to: now) }
        let result = body(&book, now)
        Self.catchUp(&book, to: now)
        book.derived = book.replay.snapshot(at: now)
        let ledgerChanged = (book.generation, book.ledger.appended) != before.0 || book.pending != before.1
        if ledgerChanged || book.interruptNext != before.2 || book.derived != before.3 { book.changes += 1 }
        var save: LedgerFile.Contents?
        if ledgerChanged || book.unsaved, file != nil, saves {
          if book.held > 0 {
            book.unsaved = true
          } else {
            save = LedgerFile.Contents(entries: book.ledger.entries, pending: book.pending, clock: now, rules: book.settings.rules,
                                       store: catalog.store)
            book.unsaved = false
            book.writes += 1
          }
        } else {
          book.unsaved = false
        }
        var newStatus: SubscriptionStatus?
        let status = Self.status(of: book.derived, grantsOneTimePurchases: book.settings.grantsOneTimePurchases)
        if publish == .always || book.published != status {
          newStatus = status
          book.published = status
        }
        return (result, save, newStatus, Self.nextWake(book), book.changes != changes ? book.onChange : nil)
      }
      var outcome: String?
      if let save, let file {
        var failure: AtomicFile.WriteError?
        do throws(AtomicFile.WriteError) {
          try file.save(save, lines: &encodedLines)
        } catch {
          failure = error
        }
        outcome = book.withLock { book -> String? in
          defer { book.saveFailing = failure != nil }
          switch (failure, book.saveFailing) {
          case (let failure?, false):
            return "ledger not saved: \(failure.reason) (\(file.path)); it is kept in memory and saved whole at the next change"
          case (nil, true): return "ledger saved again: \(file.path) is complete"
          default: return nil
          }
        }
      }
      changed?()
      if let newStatus { status.set(newStatus) }
      // Told after the status is published: the app logs the status change first (it checks
      // the status before its queued messages), so the warning lands in the same place in the
      // log whichever moment the app looks.
      if let outcome { warn(outcome) }
      schedule(next)
      return result
    }
  }

  static func catchUp(_ book: inout Book, to now: Date) {
    guard now >= book.replay.date else { return }
    // Slow test cards' purchases complete in time order among the store's own events.
    while let index = book.pending.indices.filter({ book.pending[$0].completesAt.map { $0 <= now } ?? false })
            .min(by: { book.pending[$0].completesAt! < book.pending[$1].completesAt! }) {
      let pending = book.pending.remove(at: index)
      let at = max(pending.completesAt!, book.replay.date)
      book.ledger.append(contentsOf: book.replay.advance(to: at))
      if pending.kind == .slowApproves, let product = book.replay.owned(pending.productID) {
        buy(withOffer(product, pending), &book, at: at)
      }
    }
    book.ledger.append(contentsOf: book.replay.advance(to: now))
  }

  /// When the store must next wake: its next lifecycle event or a slow card's purchase completing.
  static func nextWake(_ book: Book) -> Date? {
    [book.derived.nextEvent, book.pending.compactMap(\.completesAt).min()].compactMap { $0 }.min()
  }

  /// Google Play: the app acknowledges what `entry` started (a purchase or a replacement, each a
  /// new purchase token), at once, when it does so (`acknowledgesPurchases`) or `always` (a
  /// `--start` history, acknowledged in its past).
  static func acknowledge(_ entry: LedgerEntry, _ book: inout Book, always: Bool = false) {
    guard book.replay.isPlay, always || book.settings.acknowledgesPurchases,
          entry.kind.buysAProduct,
          let index = book.replay.byOriginalID[entry.originalID],
          book.replay.subscriptions[index].play?.isAcknowledged == false, book.replay.subscriptions[index].isLive else { return }
    append(LedgerEntry(id: book.replay.takeID(), kind: .acknowledgement, date: entry.date, originalID: entry.originalID,
                       productID: book.replay.subscriptions[index].productID), to: &book)
  }

  static func append(_ entry: LedgerEntry, to book: inout Book) {
    var entry = entry
    if let reading = book.replay.catalog.play?.reading, entry.kind.buysAProduct {
      // A top-up extends the plan held under its own id, which the release that bought it read:
      // this session's reading of that id would change what the ledger's earlier lines name.
      entry.playIDReading = entry.kind == .topUp ? book.replay.readings[entry.productID] ?? reading : reading
    }
    book.ledger.append(contentsOf: book.replay.apply(entry))
    book.ledger.append(entry)
  }


  /// Wakes the store at `date` (on the store's clock) to bring the ledger up to it.
  func schedule(_ date: Date?) {
    book.withLock { book in
      guard book.timerDate != date || book.timer == nil else { return }
      book.timer?.cancel()
      book.timer = nil
      book.timerDate = date
      guard let date else { return }
      let clock = self.clock
      book.timer = Task { [weak self] in
        do {
          try await clock.sleepInBackground(seconds: max(0.001, date.timeIntervalSince(clock.now)))
        } catch {
          return
        }
        self?.timerFired()
      }
    }
  }

  func timerFired() {
    book.withLock { $0.timer = nil }
    refreshStatus()
  }
}
