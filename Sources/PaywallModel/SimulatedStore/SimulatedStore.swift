import Foundation
import Synchronization

/// One purchase in the simulated store's ledger.
public struct LedgerTransaction: Sendable, Hashable {
  public var id: String
  public var originalID: String
  public var productID: String
  public var purchaseDate: Date
  /// When auto-renewal was turned off (`cancel`); nil while it renews.
  public var cancelledDate: Date?
  /// When it was refunded or revoked: its entitlements end at once.
  public var revocationDate: Date?
  /// Whether the first period was a free trial.
  public var isTrial: Bool
}

/// A local store in the spirit of Xcode's StoreKit Testing: purchases go into a ledger kept in the
/// state directory, entitlements follow the catalog, and the subscription status is always derived
/// from the ledger and the clock, then set in the status store, as an app's own controller would.
///
/// This first version renews a subscription for as long as auto-renewal is on and ends it at the
/// end of the period in which it was cancelled; Ask to Buy purchases wait for `approve` or
/// `decline`; refunds end entitlements at once. Restore re-derives the status from the ledger.
public final class SimulatedStore: PurchaseController {
  public struct Pending: Sendable, Hashable {
    public var productID: String
    public var requestDate: Date
  }

  private struct State {
    var transactions: [LedgerTransaction]
    var pending: [Pending]
    var nextID: Int
    var warnings: [String] = []
  }

  public let catalog: Catalog
  private let status: SubscriptionStatusStore
  private let clock: any TimeSource
  private let ledger: LedgerFile?
  public let askToBuy: Bool
  private let state: Mutex<State>
  /// Held while a snapshot is taken and written, so the newest state is always the one on disk.
  private let saving = Mutex(())

  /// - Parameters:
  ///   - directory: where the ledger lives; nil keeps it in memory only.
  ///   - fresh: start from an empty ledger (the old one is replaced on the first write).
  public init(catalog: Catalog, status: SubscriptionStatusStore, clock: any TimeSource, directory: StateDirectory?,
              fresh: Bool = false, askToBuy: Bool? = nil) {
    self.catalog = catalog
    self.status = status
    self.clock = clock
    self.askToBuy = askToBuy ?? catalog.settings.askToBuyEnabled
    let ledger = directory.map(LedgerFile.init)
    self.ledger = ledger
    var loaded = LedgerFile.Contents()
    var warnings: [String] = []
    if let ledger, !fresh {
      let (contents, warning) = ledger.load()
      loaded = contents
      if let warning { warnings.append(warning) }
    }
    state = Mutex(State(transactions: loaded.transactions, pending: loaded.pending,
                        nextID: max(loaded.nextID, 1_000_000_001), warnings: warnings))
    refreshStatus()
  }

  // MARK: - PurchaseController

  public func purchase(product: StoreProduct) async -> PurchaseResult {
    let now = clock.now
    if askToBuy {
      state.withLock { $0.pending.append(Pending(productID: product.id, requestDate: now)) }
      save()
      return .pending
    }
    record(product, at: now)
    return .purchased
  }

  public func restorePurchases() async -> RestorationResult {
    // The store always answers; whether anything was found shows in the status it sets.
    refreshStatus()
    return .restored
  }

  // MARK: - Store controls (scripts, the debug panel)

  public var transactions: [LedgerTransaction] { state.withLock { $0.transactions } }

  /// Problems reading or writing the ledger since the last call, for the app to show.
  public func takeWarnings() -> [String] {
    state.withLock { state in
      defer { state.warnings.removeAll() }
      return state.warnings
    }
  }
  public var pendingPurchases: [Pending] { state.withLock { $0.pending } }

  /// Grants the oldest pending Ask to Buy purchase. Nil when nothing is pending.
  @discardableResult
  public func approve() -> String? {
    guard let pending = state.withLock({ $0.pending.isEmpty ? nil : $0.pending.removeFirst() }),
          let product = catalog.product(id: pending.productID) else { return nil }
    record(product, at: clock.now)
    return product.id
  }

  /// Drops the oldest pending Ask to Buy purchase. Nil when nothing is pending.
  @discardableResult
  public func decline() -> String? {
    let pending = state.withLock { $0.pending.isEmpty ? nil : $0.pending.removeFirst() }
    guard let pending else { return nil }
    save()
    refreshStatus()
    return pending.productID
  }

  /// Refunds the newest live transaction of `productID`: its entitlements end now.
  @discardableResult
  public func refund(productID: String) -> Bool {
    let now = clock.now
    let done = state.withLock { state -> Bool in
      guard let index = state.transactions.lastIndex(where: { $0.productID == productID && $0.revocationDate == nil }) else {
        return false
      }
      state.transactions[index].revocationDate = now
      return true
    }
    if done {
      save()
      refreshStatus()
    }
    return done
  }

  /// Turns auto-renewal off for the newest live subscription to `productID`: it ends at the end of
  /// the current period.
  @discardableResult
  public func cancel(productID: String) -> Bool {
    let now = clock.now
    let done = state.withLock { state -> Bool in
      guard let index = state.transactions.lastIndex(where: {
        $0.productID == productID && $0.revocationDate == nil && $0.cancelledDate == nil
      }) else { return false }
      state.transactions[index].cancelledDate = now
      return true
    }
    if done {
      save()
      refreshStatus()
    }
    return done
  }

  /// Re-derives the status from the ledger at the clock's time and sets it (after `advance`).
  public func refreshStatus() {
    status.set(derivedStatus(at: clock.now))
  }

  /// The status the ledger gives at `date`.
  public func derivedStatus(at date: Date) -> SubscriptionStatus {
    let transactions = state.withLock { $0.transactions }
    var entitlements: Set<Entitlement> = []
    for transaction in transactions where isActive(transaction, at: date) {
      if let product = catalog.product(id: transaction.productID) {
        entitlements.formUnion(product.entitlements)
      }
    }
    return .active(entitlements)
  }

  /// When `transaction` stops giving access, or nil while it does not end (renewing or lifetime).
  public func expirationDate(of transaction: LedgerTransaction) -> Date? {
    if let revoked = transaction.revocationDate { return revoked }
    guard let product = catalog.product(id: transaction.productID) else { return transaction.purchaseDate }
    if product.kind == .consumable { return transaction.purchaseDate }
    guard let period = product.subscriptionPeriod else { return nil }
    guard let cancelled = transaction.cancelledDate else {
      // Non-renewing subscriptions end after one period whatever happens.
      return product.kind == .nonRenewing ? period.added(to: transaction.purchaseDate) : nil
    }
    // Ends at the end of the period that was running when auto-renewal was turned off.
    var end = transaction.isTrial ? (product.trialPeriod ?? period).added(to: transaction.purchaseDate)
      : period.added(to: transaction.purchaseDate)
    while end <= cancelled { end = period.added(to: end) }
    return end
  }

  private func isActive(_ transaction: LedgerTransaction, at date: Date) -> Bool {
    guard transaction.purchaseDate <= date else { return false }
    guard let end = expirationDate(of: transaction) else { return true }
    return date < end
  }

  private func record(_ product: StoreProduct, at date: Date) {
    // One introductory offer per subscription group, and none after any earlier subscription in it.
    let usedTrial = product.subscriptionGroup.map { group in
      state.withLock { state in
        state.transactions.contains { catalog.product(id: $0.productID)?.subscriptionGroup == group }
      }
    } ?? false
    state.withLock { state in
      let id = String(state.nextID)
      state.nextID += 1
      state.transactions.append(LedgerTransaction(id: id, originalID: id, productID: product.id, purchaseDate: date,
                                                  isTrial: product.hasFreeTrial && !usedTrial))
    }
    save()
    refreshStatus()
  }

  private func save() {
    guard let ledger else { return }
    saving.withLock { _ in
      let contents = state.withLock { LedgerFile.Contents(transactions: $0.transactions, pending: $0.pending, nextID: $0.nextID) }
      do {
        try ledger.save(contents)
      } catch {
        state.withLock { $0.warnings.append("\(error); the ledger is kept in memory only") }
      }
    }
  }
}

/// The ledger file: `ledger.json` in the state directory, written atomically. A corrupt ledger is
/// set aside as `ledger.json.corrupt-TIMESTAMP` with a warning, never silently dropped.
struct LedgerFile: Sendable {
  struct Contents {
    var transactions: [LedgerTransaction] = []
    var pending: [SimulatedStore.Pending] = []
    var nextID = 1_000_000_001
  }

  static let format = "paywall-tui.ledger"
  static let version = 1
  let path: String

  init(directory: StateDirectory) {
    path = directory.file("ledger.json")
  }

  func load() -> (Contents, String?) {
    guard FileManager.default.fileExists(atPath: path) else { return (Contents(), nil) }
    do {
      let root = try SourceFile.parse(path: path).0
      return (try Self.decode(root), nil)
    } catch {
      var aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
      var n = 1
      while FileManager.default.fileExists(atPath: aside) {
        n += 1
        aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))-\(n)"
      }
      let reason = (error as? ValidationFailure)?.diagnostics.first.map { "\($0.location): \($0.message)" } ?? "\(error)"
      do {
        try FileManager.default.moveItem(atPath: path, toPath: aside)
      } catch {
        return (Contents(), "\(path): the ledger is unreadable (\(reason)) and could not be moved aside (\(error.localizedDescription)); the store starts empty and will replace it")
      }
      return (Contents(), "\(path): the ledger is unreadable (\(reason)); it was moved to \(aside) and the store starts empty")
    }
  }

  func save(_ contents: Contents) throws(AtomicFile.WriteError) {
    func date(_ d: Date?) -> JSONOutput { d.map { .number(String(format: "%.3f", $0.timeIntervalSince1970)) } ?? .null }
    let transactions = contents.transactions.map { t -> JSONOutput in
      .object([("id", .string(t.id)), ("originalID", .string(t.originalID)), ("productID", .string(t.productID)),
               ("purchaseDate", date(t.purchaseDate)), ("cancelledDate", date(t.cancelledDate)),
               ("revocationDate", date(t.revocationDate)), ("isTrial", .bool(t.isTrial))])
    }
    let pending = contents.pending.map { p -> JSONOutput in
      .object([("productID", .string(p.productID)), ("requestDate", date(p.requestDate))])
    }
    let root = JSONOutput.object([("format", .string(Self.format)), ("version", .number(String(Self.version))),
                                  ("nextID", .number(String(contents.nextID))),
                                  ("transactions", .array(transactions)), ("pending", .array(pending))])
    try AtomicFile.write(Data((root.text + "\n").utf8), to: path)
  }

  static func decode(_ root: JSONNode) throws(PurchaseError) -> Contents {
    guard root["format"]?.stringValue == format else { throw PurchaseError("not a paywall-tui ledger") }
    guard case .number(let v)? = root["version"]?.value, Int(v) == version else { throw PurchaseError("unsupported ledger version") }
    func date(_ node: JSONNode?) throws(PurchaseError) -> Date? {
      guard let node else { return nil }
      switch node.value {
      case .null: return nil
      case .number(let text):
        guard let seconds = Double(text) else { throw PurchaseError("bad date at \(node.location)") }
        return Date(timeIntervalSince1970: seconds)
      default: throw PurchaseError("bad date at \(node.location)")
      }
    }
    var contents = Contents()
    if case .number(let n)? = root["nextID"]?.value, let next = Int(n) { contents.nextID = next }
    for node in root["transactions"]?.elements ?? [] {
      guard let id = node["id"]?.stringValue, let productID = node["productID"]?.stringValue,
            let purchaseDate = try date(node["purchaseDate"]) else {
        throw PurchaseError("a transaction at \(node.location) lacks its id, productID or purchaseDate")
      }
      var isTrial = false
      if case .bool(let b)? = node["isTrial"]?.value { isTrial = b }
      contents.transactions.append(LedgerTransaction(
        id: id, originalID: node["originalID"]?.stringValue ?? id, productID: productID, purchaseDate: purchaseDate,
        cancelledDate: try date(node["cancelledDate"]), revocationDate: try date(node["revocationDate"]), isTrial: isTrial))
    }
    for node in root["pending"]?.elements ?? [] {
      guard let productID = node["productID"]?.stringValue, let requested = try date(node["requestDate"]) else {
        throw PurchaseError("a pending purchase at \(node.location) lacks its productID or requestDate")
      }
      contents.pending.append(SimulatedStore.Pending(productID: productID, requestDate: requested))
    }
    return contents
  }
}
