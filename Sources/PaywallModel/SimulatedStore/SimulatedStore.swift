import Foundation
import Synchronization

/// A local store in the spirit of Xcode's StoreKit Testing: purchases go into a ledger kept in the
/// state directory, entitlements follow the catalog, and the subscription status is always derived
/// from the ledger and the clock (`LedgerDerivation`), then set in the status store when it changes,
/// as an app's own controller would.
///
/// Subscriptions renew while auto-renewal is on, convert from a free trial or an introductory price
/// to the regular price, move up (now, prorated) or down (at renewal) in their group, fall into
/// billing retry (with or without a grace period) when a renewal fails, expire, and are refunded or
/// revoked; Ask to Buy and interrupted purchases wait. A timer on the clock wakes the store at the
/// next renewal or expiry, so the status changes on time while the app idles.
public final class SimulatedStore: PurchaseController {
  /// Store-wide switches; the `.storekit` file's settings give the defaults.
  public struct Settings: Sendable, Hashable {
    public var askToBuy: Bool
    /// Every purchase fails (`_failTransactionsEnabled`).
    public var failTransactions: Bool
    public var rules: StoreRules

    public init(askToBuy: Bool = false, failTransactions: Bool = false, rules: StoreRules = StoreRules()) {
      self.askToBuy = askToBuy
      self.failTransactions = failTransactions
      self.rules = rules
    }

    /// The defaults a catalog's settings give (`_askToBuyEnabled`, `_billingGracePeriodEnabled`,
    /// `_renewalBillingIssuesEnabled`, `_failTransactionsEnabled`, `_timeRate` for `renewal=` rates).
    public init(catalog settings: StoreSettings) {
      let rate = settings.timeRate.flatMap(TimeRate.init(storeKitValue:))
      self.init(askToBuy: settings.askToBuyEnabled, failTransactions: settings.failTransactionsEnabled,
                rules: StoreRules(renewalInterval: rate?.renewalInterval, gracePeriodEnabled: settings.billingGracePeriodEnabled,
                                  renewalBillingIssues: settings.renewalBillingIssuesEnabled))
    }
  }

  private struct Book {
    var replay: LedgerReplay
    /// The ledger, its long runs of renewals compacted as they grow.
    var ledger: LedgerCompactor
    /// Grows when `start` replaces the ledger, whose count of lines appended starts again.
    var generation = 0
    var pending: [PendingPurchase]
    var derived: DerivedState
    var settings: Settings
    /// The status this store last set, so it only sets it again when the derivation changes it.
    var published: SubscriptionStatus?
    var interruptNext = false
    var warnings: [String] = []
    var unsaved = false
    /// Saves held by `savingOnce` (nested calls count): changes are saved when the last ends.
    var held = 0
    /// Ledger writes so far, failed ones included.
    var writes = 0
    /// The last save failed: the next failure says nothing new, the next success says so.
    var saveFailing = false
    var onWarning: (@Sendable (String) -> Void)?
    var timer: Task<Void, Never>?
    var timerDate: Date?
    var changes = 0
  }

  public let catalog: Catalog
  /// The store's clock: accelerated in an interactive session, the simulated clock in `play`.
  public let clock: any TimeSource
  private let status: SubscriptionStatusStore
  private let file: LedgerFile?
  /// Whether this session saves the ledger (it owns the state directory).
  private let saves: Bool
  private let book: Mutex<Book>
  /// One change at a time, from deriving to saving to setting the status, so they land in order.
  private let serial = Mutex(())

  /// - Parameters:
  ///   - directory: where the ledger lives; nil keeps it in memory only.
  ///   - fresh: start from an empty ledger (the old one is replaced on the first write).
  ///   - writable: false when another session owns the state directory: the ledger is read but
  ///     never written or repaired.
  ///   - askToBuy: overrides the catalog's `_askToBuyEnabled`.
  ///   - settings: overrides every catalog setting (then `askToBuy` still wins when given).
  public convenience init(catalog: Catalog, status: SubscriptionStatusStore, clock: any TimeSource, directory: StateDirectory?,
                          fresh: Bool = false, writable: Bool = true, askToBuy: Bool? = nil, settings: Settings? = nil) {
    self.init(catalog: catalog, status: status, clock: clock, file: directory.map(LedgerFile.init), fresh: fresh, writable: writable,
              askToBuy: askToBuy, settings: settings)
  }

  /// With the ledger in `file` (tests give one with a smaller size limit), its runs of renewals
  /// kept as one line from `runThreshold` renewals on (`Int.max`: never).
  init(catalog: Catalog, status: SubscriptionStatusStore, clock: any TimeSource, file: LedgerFile?,
       fresh: Bool = false, writable: Bool = true, askToBuy: Bool? = nil, settings: Settings? = nil,
       runThreshold: Int = LedgerCompactor.defaultThreshold) {
    self.catalog = catalog
    self.status = status
    self.clock = clock
    var settings = settings ?? Settings(catalog: catalog.settings)
    if let askToBuy { settings.askToBuy = askToBuy }
    self.file = file
    var contents = LedgerFile.Contents()
    var warnings: [String] = []
    var saves = writable
    if let file, !fresh {
      // A ledger too large to read stays as it is: this session runs in memory.
      if file.oversize != nil { saves = false }
      let (loaded, warning) = file.load(repair: writable)
      contents = loaded
      if let warning { warnings.append(warning) }
    }
    self.saves = saves
    // A new session continues on the store's clock where the last one stopped (the clock of a
    // `play` run starts at a fixed date; an accelerated session ran ahead of the wall clock).
    let resume = [contents.clock, contents.entries.last?.date].compactMap { $0 }.max()
    if let resume, resume > clock.now, let adjustable = clock as? any AdjustableTimeSource {
      adjustable.advance(by: resume.timeIntervalSince(clock.now))
    }
    var replay = LedgerReplay(catalog: catalog, rules: settings.rules)
    for entry in contents.entries { replay.apply(entry) }
    if !replay.issues.isEmpty {
      warnings.append("\(file?.path ?? "the ledger"): \(replay.issues.count) line\(replay.issues.count == 1 ? "" : "s") do not fit the lines before them (first: \(replay.issues[0])); the store goes on with what they say")
    }
    book = Mutex(Book(replay: replay, ledger: LedgerCompactor(threshold: runThreshold, entries: contents.entries), pending: contents.pending,
                      derived: replay.snapshot(at: clock.now), settings: settings, warnings: warnings))
    change(publish: .always) { _, _ in }
  }

  deinit {
    book.withLock { $0.timer?.cancel() }
  }

  // MARK: - PurchaseController

  public func purchase(product: StoreProduct) async -> PurchaseResult {
    purchaseNow(product)
  }

  public func restorePurchases() async -> RestorationResult {
    // The store always answers; whether anything was found shows in the status it sets.
    change(publish: .always) { _, _ in }
    return .restored
  }

  /// A purchase, answered at once: Ask to Buy makes it pending, an armed interruption fails it.
  @discardableResult
  public func purchaseNow(_ product: StoreProduct) -> PurchaseResult {
    change { book, now in Self.purchase(product, &book, at: now) }
  }

  private static func purchase(_ product: StoreProduct, _ book: inout Book, at now: Date) -> PurchaseResult {
    if book.settings.failTransactions { return StoreError.unknown.purchaseResult }
    if book.interruptNext {
      book.interruptNext = false
      book.pending.append(PendingPurchase(kind: .interrupted, productID: product.id, requestDate: now))
      return .failed(PurchaseError("The purchase was interrupted: the buyer has to act first (e.g. accept new terms); it completes when resolved"))
    }
    if book.settings.askToBuy {
      book.pending.append(PendingPurchase(kind: .askToBuy, productID: product.id, requestDate: now))
      return .pending
    }
    _ = buy(product, &book, at: now)
    return .purchased
  }

  // MARK: - Reading

  /// The ledger, oldest line first, long runs of renewals as one line each (`LedgerCompactor`).
  public var entries: [LedgerEntry] { book.withLock { $0.ledger.entries } }
  /// How many times this store has written its ledger (failed writes included): one a change,
  /// one for a whole `savingOnce`. Tests and benchmarks count them.
  public var ledgerWrites: Int { book.withLock { $0.writes } }
  public var pendingPurchases: [PendingPurchase] { book.withLock { $0.pending } }
  public var settings: Settings { book.withLock { $0.settings } }
  /// What the ledger means now (as of the last change or timer).
  public var derived: DerivedState { book.withLock { $0.derived } }
  /// The next renewal, expiry or grace period end, for a loop that steps the clock to it.
  public var nextEvent: Date? { book.withLock { $0.derived.nextEvent } }
  /// Grows with every change, so a view can tell when to look again.
  public var changeCount: Int { book.withLock { $0.changes } }
  public var interruptsNextPurchase: Bool { book.withLock { $0.interruptNext } }

  /// Problems reading or writing the ledger since the last call, for the app to show.
  public func takeWarnings() -> [String] {
    book.withLock { book in
      defer { book.warnings.removeAll() }
      return book.warnings
    }
  }

  /// Delivers problems reading or writing the ledger as they happen (those so far at once),
  /// instead of keeping them for `takeWarnings`.
  public func setWarningHandler(_ handler: @escaping @Sendable (String) -> Void) {
    let queued = book.withLock { book -> [String] in
      book.onWarning = handler
      defer { book.warnings.removeAll() }
      return book.warnings
    }
    queued.forEach(handler)
  }

  private func warn(_ message: String) {
    let handler = book.withLock { book -> (@Sendable (String) -> Void)? in
      if book.onWarning == nil { book.warnings.append(message) }
      return book.onWarning
    }
    handler?(message)
  }

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
  public func nextStatusChange(through limit: Date) -> Date? {
    var (replay, status) = book.withLock { ($0.replay, $0.derived.status) }
    while let next = replay.nextEvent, next <= limit {
      // Rounded up, so the store, rounding the clock to the millisecond, sees the event happen.
      let at = Date(timeIntervalSince1970: (next.timeIntervalSince1970 * 1000).rounded(.up) / 1000)
      replay.advance(to: at)
      if replay.status != status { return at }
      status = replay.status
    }
    return nil
  }

  /// Writes the ledger with the clock's time, so the next session continues from here.
  public func checkpoint() {
    change { book, _ in book.unsaved = true }
  }

  /// Runs `body` with the ledger's saves held: each change in it is applied (and its status set)
  /// at once, in memory, and the ledger is written once when `body` ends, if anything changed.
  /// `play` runs each `advance` so: years of renewals are one write, not one per renewal.
  public func savingOnce<T>(_ body: () async throws -> T) async rethrows -> T {
    book.withLock { $0.held += 1 }
    defer { releaseSaves() }
    return try await body()
  }

  private func releaseSaves() {
    let flush = book.withLock { book -> Bool in
      book.held -= 1
      return book.held == 0 && book.unsaved
    }
    if flush { change { _, _ in } }
  }

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

  /// Refunds the newest live purchase of `productID`: its entitlements end now.
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
      let all = Set(catalog.products.flatMap(\.entitlements)).map(\.id).sorted()
      throw StoreActionError("--start \(excerpt: start.description): no product grants \(quoting: start.entitlement.id)\(Suggestions.hint(for: start.entitlement.id, in: all)) (entitlements: \(all.joined(separator: ", ")))")
    }
    let subscriptions = granting.filter { $0.kind == .autoRenewable }
    switch start.state {
    case .trial:
      guard let product = subscriptions.first(where: \.hasFreeTrial) else {
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

  // MARK: - Changing the book

  private enum Publish { case onChange, always }

  /// Runs `body` on the book with the clock's time: first the ledger catches up with the clock,
  /// after it the lines `body` added may make more events due; then the state is derived again,
  /// saved when the ledger changed, the status set when it changed, and the timer set for the next
  /// event.
  @discardableResult
  private func change<T>(publish: Publish = .onChange, advanceFirst: Bool = true,
                         _ body: (inout Book, Date) -> T) -> T {
    serial.withLock { _ in
      let now = Self.milliseconds(clock.now)
      let (result, save, newStatus, next) = book.withLock { book -> (T, LedgerFile.Contents?, SubscriptionStatus?, Date?) in
        let before = ((book.generation, book.ledger.appended), book.pending, book.interruptNext, book.derived)
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
            save = LedgerFile.Contents(entries: book.ledger.entries, pending: book.pending, clock: now, rules: book.settings.rules)
            book.unsaved = false
            book.writes += 1
          }
        } else {
          book.unsaved = false
        }
        var newStatus: SubscriptionStatus?
        if publish == .always || book.published != book.derived.status {
          newStatus = book.derived.status
          book.published = book.derived.status
        }
        return (result, save, newStatus, book.derived.nextEvent)
      }
      var outcome: String?
      if let save, let file {
        var failure: AtomicFile.WriteError?
        do throws(AtomicFile.WriteError) {
          try file.save(save)
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
      if let newStatus { status.set(newStatus) }
      // Told after the status is published: the app logs the status change first (it checks
      // the status before its queued messages), so the warning lands in the same place in the
      // log whichever moment the app looks.
      if let outcome { warn(outcome) }
      schedule(next)
      return result
    }
  }

  private static func catchUp(_ book: inout Book, to now: Date) {
    guard now >= book.replay.date else { return }
    book.ledger.append(contentsOf: book.replay.advance(to: now))
  }

  private static func append(_ entry: LedgerEntry, to book: inout Book) {
    book.ledger.append(contentsOf: book.replay.apply(entry))
    book.ledger.append(entry)
  }

  /// Dates in the ledger are kept to the millisecond, as the file writes them.
  static func milliseconds(_ date: Date) -> Date {
    Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
  }

  /// Wakes the store at `date` (on the store's clock) to bring the ledger up to it.
  private func schedule(_ date: Date?) {
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

  private func timerFired() {
    book.withLock { $0.timer = nil }
    refreshStatus()
  }

  // MARK: - Actions

  private static func perform(_ action: StoreAction, _ book: inout Book, at now: Date,
                              catalog: Catalog) -> Result<String, StoreActionError> {
    func product(_ id: String) -> Result<StoreProduct, StoreActionError> {
      guard let product = catalog.product(id: id) else {
        return .failure(StoreActionError("no product \(quoting: id) in the catalog\(Suggestions.hint(for: id, in: catalog.productIDs))"))
      }
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
      return product(id).map { product in
        switch purchase(product, &book, at: now) {
        case .purchased: "bought \(id)"
        case .pending: "\(id) is waiting for approval (Ask to Buy)"
        case .failed(let error): "buying \(id) failed: \(error.displayMessage)"
        case let other: "buying \(id): \(other.name)"
        }
      }
    case .approve, .decline:
      guard let index = book.pending.firstIndex(where: { $0.kind == .askToBuy }) else {
        return .failure(StoreActionError("no pending Ask to Buy purchase to \(action.name)"))
      }
      let pending = book.pending.remove(at: index)
      guard action == .approve else { return .success("declined \(pending.productID)") }
      return product(pending.productID).map { product in
        _ = Self.buy(product, &book, at: now)
        return "approved \(pending.productID)"
      }
    case .resolveInterrupted:
      guard let index = book.pending.firstIndex(where: { $0.kind == .interrupted }) else {
        return .failure(StoreActionError("no interrupted purchase to resolve"))
      }
      let pending = book.pending.remove(at: index)
      return product(pending.productID).map { product in
        _ = Self.buy(product, &book, at: now)
        return "completed the interrupted purchase of \(pending.productID)"
      }
    case .interruptNextPurchase:
      book.interruptNext = true
      return .success("the next purchase is interrupted")
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
      let entry = add(refund ? .refund : .revocation, index) {
        $0.revokedID = book.replay.subscriptions[index].transactionID
        $0.reason = refund ? .refunded : .revoked
      }
      return .success("\(refund ? "refunded" : "revoked") \(entry.productID) (transaction \(entry.revokedID ?? 0)): access ends now")
    case .upgrade(let id), .downgrade(let id), .crossgrade(let id):
      // With a product, the subscription in its group; without, the newest one.
      let group = id.flatMap { catalog.product(id: $0) }.map(LedgerReplay.groupKey)
      return live(nil, action.name, { $0.kind == .autoRenewable && (group == nil || $0.group == group) }).flatMap { index -> Result<String, StoreActionError> in
        let current = book.replay.subscriptions[index]
        guard let from = catalog.product(id: current.productID) else {
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
          let when = entry.effect == .immediately ? "now" : "at the next renewal\(ends(index))"
          let credit = entry.proratedCredit.map { "; \($0) credited for the unused period" } ?? ""
          return .success("\(kind.rawValue) from \(from.id) to \(to.id) \(when)\(credit)")
        }
      }
    case .billingIssue(let id, let grace):
      return live(id, "fail billing for", { $0.kind == .autoRenewable }).map { index in
        let entry = add(.billingIssue, index) { $0.grace = grace ?? book.settings.rules.gracePeriodEnabled }
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
        let current = subscription.renewalPrice ?? catalog.product(id: subscription.productID)?.price ?? 0
        var raised = price ?? current * Decimal(string: "1.2")!
        var rounded = Decimal()
        NSDecimalRound(&rounded, &raised, 2, .plain)
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

  /// A purchase the store grants now (a paywall's, an approved one, `buy`): what it became.
  private static func buy(_ product: StoreProduct, _ book: inout Book, at now: Date) -> String {
    guard let entry = book.replay.planPurchase(product, at: now) else { return "already owned" }
    append(entry, to: &book)
    switch entry.kind {
    case .purchase: return entry.offer.map { "a purchase with an introductory offer (\($0.rawValue))" } ?? "a purchase"
    case .upgrade, .downgrade, .crossgrade: return "a\(entry.kind == .upgrade ? "n" : "") \(entry.kind.rawValue) (\(entry.effect?.rawValue ?? ""))"
    case .autoRenewOn: return "auto-renewal back on"
    default: return entry.kind.rawValue
    }
  }
}
