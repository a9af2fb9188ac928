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
    /// Purchases wait for a parent's approval (`approve()` / `decline()`): Ask to Buy.
    public var askToBuy: Bool
    /// Every purchase fails (`_failTransactionsEnabled`).
    public var failTransactions: Bool
    /// How long periods, grace and billing retry last, and whether renewals fail.
    public var rules: StoreRules
    /// Google Play: the replacement mode the app asks for when a purchase replaces another base
    /// plan (nil: the target plan's default).
    public var replacementMode: PlayReplacementMode?
    /// Google Play: the license-test card purchases are paid with (Play catalogs only).
    public var testCard: PlayTestCard = .alwaysApproves
    /// Google Play: the app acknowledges each purchase as it completes, as Superwall's own
    /// purchaser and a RevenueCat-backed controller do. Off, the app "forgets": Play refunds the
    /// purchase when its acknowledgement window closes (Play catalogs only).
    public var acknowledgesPurchases = true
    /// The SDK buying by itself counts a one-time purchase's entitlements in the status it sets.
    /// Off for Superwall-Android before 2.5.8, whose purchaser read subscriptions alone
    /// (`SDKVersion.oneTimePurchasesGrantWithoutController`): a lifetime unlock then leaves the
    /// status as it was, though the store has it.
    public var grantsOneTimePurchases = true

    /// Settings as given; every switch is off by default.
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

  struct Book {
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
    var onChange: (@Sendable () -> Void)?
    var timer: Task<Void, Never>?
    var timerDate: Date?
    var changes = 0
  }

  /// The products the store sells.
  public let catalog: Catalog
  /// The store's clock: accelerated in an interactive session, the simulated clock in `play`.
  public let clock: any TimeSource
  let status: SubscriptionStatusStore
  let file: LedgerFile?
  /// Whether this session saves the ledger (it owns the state directory).
  let saves: Bool
  /// The store that wrote the state directory's ledger, when it is not this catalog's: that
  /// ledger was neither read nor will be written, and the session refuses to start on it
  /// (`AppSession`). Each store keeps its own purchases, as two phones keep two accounts.
  package let foreignLedger: Store?
  let book: Mutex<Book>
  /// One change at a time, from deriving to saving to setting the status, so they land in order;
  /// it holds the ledger's lines as last encoded, for the next save.
  let serial = Mutex(LedgerFile.EncodedLines())

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
    var foreign: Store?
    if let file, !fresh {
      // A ledger too large to read stays as it is: this session runs in memory.
      if file.oversize != nil { saves = false }
      let (loaded, warning) = file.load(repair: writable)
      contents = loaded
      if let warning { warnings.append(warning) }
      if let written = loaded.store, written != catalog.store {
        (foreign, contents, saves, warnings) = (written, LedgerFile.Contents(), false, [])
      }
    }
    self.saves = saves
    foreignLedger = foreign
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

  /// Buys `product` at once (see `purchaseNow(_:)`); the status is set before it returns.
  public func purchase(product: StoreProduct) async -> PurchaseResult {
    purchaseNow(product)
  }

  /// Always `.restored`: the store's ledger is the purchase history, and the status it sets says what was found.
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

  static func purchase(_ product: StoreProduct, _ book: inout Book, at now: Date) -> PurchaseResult {
    if book.settings.failTransactions { return StoreError.unknown.purchaseResult }
    // StoreKit refuses a purchase naming an offer the customer is not eligible for
    // (`Product.PurchaseError.ineligibleForOffer`: a win-back offer for a customer who has not
    // churned, a promotional offer for one who never subscribed in the group, a code outside its
    // eligibility), and one naming an offer the product lacks (`invalidOfferIdentifier`).
    if let requested = product.requestedOffer {
      guard let configured = book.replay.catalog.product(id: product.id)?.offer(id: requested.id), configured.kind == requested.kind else {
        return StoreError.invalidOfferIdentifier.purchaseResult
      }
      if !book.replay.offerHistory.allows(configured, for: product, at: now) {
        return StoreError.ineligibleForOffer.purchaseResult
      }
    }
    var product = product
    if book.replay.isPlay {
      if product.replacementMode == nil { product.replacementMode = book.settings.replacementMode }
      // Play refuses a replacement mode the change does not allow as a bad request (our reading:
      // "only available for subscription upgrade", ReplacementMode.CHARGE_PRORATED_PRICE).
      if let refusal = book.replay.playReplacementRefusal(product, at: now) {
        return .failed(PlayBillingFailure(.developerError, reason: refusal))
      }
      // Refused before any flow begins, an interruption included (which stays armed).
      if let owned = book.replay.playAlreadyOwned(product) ?? book.replay.playPendingPurchase(of: product, among: book.pending) {
        return .failed(PlayBillingFailure(.itemAlreadyOwned, reason: owned))
      }
    }
    if book.interruptNext {
      book.interruptNext = false
      book.pending.append(PendingPurchase(kind: .interrupted, productID: product.id, requestDate: now, offerID: product.requestedOffer?.id))
      return .failed(PurchaseError("The purchase was interrupted: the buyer has to act first (e.g. accept new terms); it completes when resolved"))
    }
    if book.replay.isPlay {
      switch book.settings.testCard {
      case .alwaysApproves: break
      // A declined payment comes back as ERROR (6), as reports of declined cards say
      // (github.com/anjlab/android-inapp-billing-v3/issues/479); Google documents no code of its own.
      case .alwaysDeclines: return .failed(PlayBillingFailure(.error, reason: PlayTestCard.declinedMessage))
      case .slowApproves, .slowDeclines:
        // Play's PENDING purchase: no entitlement until the payment completes ("Handle pending
        // transactions", developer.android.com/google/play/billing/integrate#pending).
        let kind: PendingPurchase.Kind = book.settings.testCard == .slowApproves ? .slowApproves : .slowDeclines
        book.pending.append(PendingPurchase(kind: kind, productID: product.id, requestDate: now, offerID: product.requestedOffer?.id))
        return .pending
      }
    }
    if book.settings.askToBuy {
      book.pending.append(PendingPurchase(kind: .askToBuy, productID: product.id, requestDate: now, offerID: product.requestedOffer?.id))
      return .pending
    }
    buy(product, &book, at: now)
    return .purchased
  }

  // MARK: - Reading

  /// The ledger, oldest line first, long runs of renewals as one line each (`LedgerCompactor`).
  public var entries: [LedgerEntry] { book.withLock { $0.ledger.entries } }
  /// How many times this store has written its ledger (failed writes included): one a change,
  /// one for a whole `savingOnce`. Tests and benchmarks count them.
  package var ledgerWrites: Int { book.withLock { $0.writes } }
  /// Purchases waiting for approval or for the buyer, oldest first.
  public var pendingPurchases: [PendingPurchase] { book.withLock { $0.pending } }
  /// The store's switches now.
  public var settings: Settings { book.withLock { $0.settings } }
  /// What the ledger means now (as of the last change or timer).
  public var derived: DerivedState { book.withLock { $0.derived } }
  /// The next renewal, expiry or grace period end, for a loop that steps the clock to it.
  public var nextEvent: Date? { book.withLock { Self.nextWake($0) } }
  /// Grows with every change, so a view can tell when to look again.
  package var changeCount: Int { book.withLock { $0.changes } }
  /// Whether the next purchase will be interrupted (`StoreAction.interruptNextPurchase`).
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

  /// Calls `handler` after every change of the ledger, the pending purchases or what they mean
  /// (a purchase, a QA action, a renewal as the clock runs), on the thread that made it and before
  /// the status it leads to is set, so an app sees the store first and the status after. `handler`
  /// may read the store but must not change it.
  public func setChangeHandler(_ handler: @escaping @Sendable () -> Void) {
    book.withLock { $0.onChange = handler }
  }

  func warn(_ message: String) {
    let handler = book.withLock { book -> (@Sendable (String) -> Void)? in
      if book.onWarning == nil { book.warnings.append(message) }
      return book.onWarning
    }
    handler?(message)
  }

}
