import Foundation
import Testing
import PaywallModel

/// A simulated store on a simulated clock, with its ledger in a real temporary state directory.
struct SimulatedStoreRig {
  let directory: TemporaryDirectory
  let state: StateDirectory
  let clock: SimulatedTimeSource
  let status: SubscriptionStatusStore
  let catalog: Catalog

  init(catalog: Catalog = TestCatalog.catalog) throws {
    directory = try TemporaryDirectory()
    state = StateDirectory(path: directory.file("state"))
    clock = SimulatedTimeSource()
    status = SubscriptionStatusStore()
    self.catalog = catalog
  }

  func makeStore(fresh: Bool = false, askToBuy: Bool? = nil, status: SubscriptionStatusStore? = nil) -> SimulatedStore {
    SimulatedStore(catalog: catalog, status: status ?? self.status, clock: clock, directory: state, fresh: fresh,
                   askToBuy: askToBuy)
  }

  var ledgerPath: String { state.file("ledger.json") }

  func files() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []).sorted()
  }

  func remove() { directory.remove() }
}

/// Seconds in `days` days.
func days(_ n: Double) -> Double { n * 86_400 }

@Suite struct SimulatedStoreTests {
  @Test func aNewStoreWithAnEmptyLedgerSetsInactive() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(rig.status.status == .inactive)
    #expect(store.transactions.isEmpty)
    #expect(store.pendingPurchases.isEmpty)
    #expect(store.takeWarnings().isEmpty)
  }

  @Test func buyingASubscriptionActivatesItsEntitlements() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    let result = await store.purchase(product: TestCatalog.monthly)
    #expect(result.name == "purchased")
    #expect(rig.status.status == .active(["pro"]))
    #expect(store.transactions.count == 1)
    let transaction = try #require(store.transactions.first)
    #expect(transaction.productID == TestCatalog.monthly.id)
    #expect(transaction.purchaseDate == rig.clock.now)
    #expect(transaction.cancelledDate == nil)
    #expect(transaction.revocationDate == nil)
    #expect(FileManager.default.fileExists(atPath: rig.ledgerPath))
    #expect(store.takeWarnings().isEmpty)
  }

  @Test func entitlementsOfSeveralPurchasesAreUnited() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    _ = await store.purchase(product: TestCatalog.lifetime)
    #expect(rig.status.status == .active(["pro", "lifetime"]))
    #expect(store.refund(productID: TestCatalog.lifetime.id))
    #expect(rig.status.status == .active(["pro"]), "the monthly subscription still grants pro")
  }

  @Test func theLedgerPersistsAcrossStores() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let first = rig.makeStore()
    #expect(await first.purchase(product: TestCatalog.annual).name == "purchased")
    #expect(await first.purchase(product: TestCatalog.lifetime).name == "purchased")
    let original = first.transactions

    // The next launch: a new store and a new status store on the same directory.
    let status = SubscriptionStatusStore()
    let second = rig.makeStore(status: status)
    #expect(status.status == .active(["pro", "lifetime"]))
    #expect(second.transactions == original)
    #expect(second.takeWarnings().isEmpty)

    // New ids continue after the old ones.
    _ = await second.purchase(product: TestCatalog.monthly)
    let ids = second.transactions.map(\.id)
    #expect(Set(ids).count == 3, "ids are unique: \(ids)")
  }

  @Test func theLedgerFileLeavesNoTemporaryFile() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    store.cancel(productID: TestCatalog.monthly.id)
    store.refund(productID: TestCatalog.monthly.id)
    #expect(rig.files() == ["ledger.json"])
  }

  @Test func restoreWithAnEmptyLedgerSucceedsButStaysInactive() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    let result = await store.restorePurchases()
    #expect(result.name == "restored")
    #expect(rig.status.status == .inactive)
  }

  @Test func restoreRederivesTheStatusFromTheLedger() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.lifetime)
    // Someone else (a script, the debug panel) set the status wrongly; restore puts it right.
    rig.status.set(.inactive)
    #expect(await store.restorePurchases().name == "restored")
    #expect(rig.status.status == .active(["pro", "lifetime"]))
  }

  @Test func aRefundEndsTheEntitlementAtOnce() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    rig.clock.advance(by: days(3))
    store.refreshStatus()
    #expect(rig.status.status == .active(["pro"]))
    #expect(store.refund(productID: TestCatalog.monthly.id))
    #expect(rig.status.status == .inactive)
    #expect(store.transactions.first?.revocationDate == rig.clock.now)
    #expect(!store.refund(productID: TestCatalog.monthly.id), "nothing live is left to refund")
    #expect(!store.refund(productID: "com.acme.unknown"))
    // And it stays refunded on the next launch.
    let status = SubscriptionStatusStore()
    _ = rig.makeStore(status: status)
    #expect(status.status == .inactive)
  }

  @Test func aCancelledSubscriptionLastsUntilTheEndOfThePeriod() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    let start = rig.clock.now  // 2026-01-01: a month is 31 days
    _ = await store.purchase(product: TestCatalog.monthly)
    rig.clock.advance(by: days(1))
    #expect(store.cancel(productID: TestCatalog.monthly.id))
    #expect(!store.cancel(productID: TestCatalog.monthly.id), "already cancelled")
    #expect(rig.status.status == .active(["pro"]), "still active after cancelling")

    let transaction = try #require(store.transactions.first)
    let end = try #require(store.expirationDate(of: transaction))
    #expect(end == start.addingTimeInterval(days(31)))

    rig.clock.advance(by: days(29))  // day 30
    store.refreshStatus()
    #expect(rig.status.status == .active(["pro"]))
    rig.clock.advance(by: days(2))  // day 32, past the end
    store.refreshStatus()
    #expect(rig.status.status == .inactive)
  }

  @Test func aCancelInALaterPeriodEndsAtTheEndOfThatPeriod() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.weekly)
    rig.clock.advance(by: days(17))  // in the third week
    store.refreshStatus()
    #expect(rig.status.status == .active(["pro"]), "it renews while auto-renewal is on")
    store.cancel(productID: TestCatalog.weekly.id)
    rig.clock.advance(by: days(3.5))  // day 20.5, still in the third week
    store.refreshStatus()
    #expect(rig.status.status == .active(["pro"]))
    rig.clock.advance(by: days(1))  // day 21.5
    store.refreshStatus()
    #expect(rig.status.status == .inactive)
  }

  @Test func aCancelledTrialEndsWithTheTrial() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.annual)  // 7-day free trial
    #expect(store.transactions.first?.isTrial == true)
    rig.clock.advance(by: days(2))
    store.cancel(productID: TestCatalog.annual.id)
    rig.clock.advance(by: days(4.5))  // day 6.5
    store.refreshStatus()
    #expect(rig.status.status == .active(["pro"]))
    rig.clock.advance(by: days(1))  // day 7.5
    store.refreshStatus()
    #expect(rig.status.status == .inactive)
  }

  @Test func anUncancelledSubscriptionKeepsRenewing() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    rig.clock.advance(by: days(400))
    store.refreshStatus()
    #expect(rig.status.status == .active(["pro"]))
  }

  @Test func aLifetimePurchaseNeverEnds() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(await store.purchase(product: TestCatalog.lifetime).name == "purchased")
    #expect(rig.status.status == .active(["pro", "lifetime"]))
    rig.clock.advance(by: days(3653))  // ten years
    store.refreshStatus()
    #expect(rig.status.status == .active(["pro", "lifetime"]))
    #expect(store.expirationDate(of: try #require(store.transactions.first)) == nil)
    #expect(!store.cancel(productID: "com.acme.unknown"))
  }

  @Test func askToBuyPurchasesWaitForApproval() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore(askToBuy: true)
    #expect(store.askToBuy)
    #expect(await store.purchase(product: TestCatalog.monthly).name == "pending")
    #expect(store.pendingPurchases.map(\.productID) == [TestCatalog.monthly.id])
    #expect(store.pendingPurchases.first?.requestDate == rig.clock.now)
    #expect(store.transactions.isEmpty)
    #expect(rig.status.status == .inactive)

    // The request survives a restart.
    let other = rig.makeStore(askToBuy: true, status: SubscriptionStatusStore())
    #expect(other.pendingPurchases.map(\.productID) == [TestCatalog.monthly.id])

    rig.clock.advance(by: 60)
    #expect(store.approve() == TestCatalog.monthly.id)
    #expect(rig.status.status == .active(["pro"]))
    #expect(store.pendingPurchases.isEmpty)
    #expect(store.transactions.map(\.productID) == [TestCatalog.monthly.id])
    #expect(store.transactions.first?.purchaseDate == rig.clock.now, "bought when approved")
    #expect(store.approve() == nil, "nothing left to approve")
  }

  @Test func aDeclinedAskToBuyPurchaseGrantsNothing() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore(askToBuy: true)
    #expect(await store.purchase(product: TestCatalog.lifetime).name == "pending")
    #expect(store.decline() == TestCatalog.lifetime.id)
    #expect(rig.status.status == .inactive)
    #expect(store.pendingPurchases.isEmpty)
    #expect(store.transactions.isEmpty)
    #expect(store.decline() == nil)
    #expect(store.approve() == nil)
    let other = rig.makeStore(askToBuy: true, status: SubscriptionStatusStore())
    #expect(other.pendingPurchases.isEmpty, "the decline was saved")
  }

  @Test func askToBuyFollowsTheCatalogSettingByDefault() async throws {
    var catalog = TestCatalog.catalog
    catalog.settings.askToBuyEnabled = true
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.askToBuy)
    #expect(await store.purchase(product: TestCatalog.monthly).name == "pending")
    let overridden = rig.makeStore(askToBuy: false, status: SubscriptionStatusStore())
    #expect(!overridden.askToBuy)
  }

  @Test func freshIgnoresTheOldLedger() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let old = rig.makeStore()
    _ = await old.purchase(product: TestCatalog.lifetime)
    _ = await old.purchase(product: TestCatalog.monthly)

    let status = SubscriptionStatusStore()
    let fresh = rig.makeStore(fresh: true, status: status)
    #expect(status.status == .inactive)
    #expect(fresh.transactions.isEmpty)
    #expect(fresh.takeWarnings().isEmpty)

    // The first write replaces the old ledger.
    _ = await fresh.purchase(product: TestCatalog.weekly)
    let next = rig.makeStore(status: SubscriptionStatusStore())
    #expect(next.transactions.map(\.productID) == [TestCatalog.weekly.id])
  }

  @Test func aCorruptLedgerIsMovedAsideWithAWarning() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    try FileManager.default.createDirectory(atPath: rig.state.path, withIntermediateDirectories: true)
    let garbage = Data([0x7B, 0x22, 0xFF, 0x00, 0x13]) + Data("not a ledger at all".utf8)
    #expect(FileManager.default.createFile(atPath: rig.ledgerPath, contents: garbage))

    let store = rig.makeStore()
    #expect(rig.status.status == .inactive)
    #expect(store.transactions.isEmpty)

    let files = rig.files()
    let aside = try #require(files.first { $0.hasPrefix("ledger.json.corrupt-") }, "no aside file in \(files)")
    #expect(!files.contains("ledger.json"), "the corrupt ledger is moved, not left: \(files)")
    #expect(FileManager.default.contents(atPath: rig.state.file(aside)) == garbage, "kept byte for byte")

    let warnings = store.takeWarnings()
    #expect(warnings.count == 1)
    let warning = try #require(warnings.first)
    #expect(warning.contains(rig.state.file(aside)), "the warning names the aside file: \(warning)")
    #expect(warning.contains(rig.ledgerPath))
    #expect(store.takeWarnings().isEmpty, "warnings are taken once")

    // The store works on from an empty ledger.
    _ = await store.purchase(product: TestCatalog.monthly)
    #expect(rig.status.status == .active(["pro"]))
    #expect(rig.files().contains("ledger.json"))
  }

  @Test(arguments: [
    "{\"format\": \"someone-else\", \"version\": 1, \"transactions\": []}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 7, \"transactions\": []}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 1, \"transactions\": [{\"id\": \"1\"}]}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 1, \"transactions\": [{\"id\": \"1\", \"productID\": \"x\", \"purchaseDate\": \"yesterday\"}]}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 1, \"pending\": [{\"productID\": \"x\"}]}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 1, \"transactions\": [",
  ])
  func anUnusableLedgerIsMovedAside(_ text: String) throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    try FileManager.default.createDirectory(atPath: rig.state.path, withIntermediateDirectories: true)
    try text.write(toFile: rig.ledgerPath, atomically: true, encoding: .utf8)
    let store = rig.makeStore()
    #expect(rig.status.status == .inactive)
    #expect(store.transactions.isEmpty)
    let warnings = store.takeWarnings()
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("ledger.json.corrupt-") == true, "\(warnings)")
    #expect(rig.files().contains { $0.hasPrefix("ledger.json.corrupt-") })
  }

  @Test func aFreeTrialIsUsedOncePerGroup() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(TestCatalog.annual.hasFreeTrial)
    _ = await store.purchase(product: TestCatalog.annual)
    _ = await store.purchase(product: TestCatalog.annual)
    _ = await store.purchase(product: TestCatalog.monthly)
    let trials = store.transactions.map(\.isTrial)
    #expect(trials == [true, false, false], "\(trials)")
    // The flag is saved with the ledger.
    let next = rig.makeStore(status: SubscriptionStatusStore())
    #expect(next.transactions.map(\.isTrial) == [true, false, false])
  }

  @Test func aProductWithoutATrialIsNeverATrial() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    _ = await store.purchase(product: TestCatalog.lifetime)
    #expect(store.transactions.map(\.isTrial) == [false, false])
  }

  @Test func worksWithTheBundledCatalog() async throws {
    let catalog = try Catalog.load(path: Fixture.bundled("catalog.json"))
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    let annual = try #require(catalog.product(id: "com.acme.pro.annual"))
    let lifetime = try #require(catalog.product(id: "com.acme.pro.lifetime"))
    #expect(await store.purchase(product: annual).name == "purchased")
    #expect(store.transactions.first?.isTrial == true)
    #expect(rig.status.status == .active(["pro"]))
    #expect(await store.purchase(product: lifetime).name == "purchased")
    #expect(rig.status.status == .active(["pro", "lifetime"]))
    store.refund(productID: lifetime.id)
    store.cancel(productID: annual.id)
    rig.clock.advance(by: days(8))  // past the 7-day trial
    store.refreshStatus()
    #expect(rig.status.status == .inactive)
  }

  @Test func inMemoryWithoutADirectory() async throws {
    let status = SubscriptionStatusStore()
    let store = SimulatedStore(catalog: TestCatalog.catalog, status: status, clock: SimulatedTimeSource(), directory: nil)
    #expect(await store.purchase(product: TestCatalog.lifetime).name == "purchased")
    #expect(status.status == .active(["pro", "lifetime"]))
    #expect(store.takeWarnings().isEmpty)
  }

  /// Purchases from concurrent tasks must all reach the ledger file: each save writes a snapshot
  /// through the same temporary name (`ledger.json.tmp-PID`), outside the store's lock.
  @Test func concurrentPurchasesAllReachTheLedger() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    let count = 40
    await withTaskGroup(of: Void.self) { group in
      for i in 0..<count {
        group.addTask {
          _ = await store.purchase(product: i % 2 == 0 ? TestCatalog.monthly : TestCatalog.weekly)
        }
      }
    }
    #expect(store.transactions.count == count)
    let warnings = store.takeWarnings()
    let failedSaves = warnings.count
    #expect(failedSaves == 0, "\(failedSaves) saves failed, e.g. \(warnings.first ?? "")")
    let next = rig.makeStore(status: SubscriptionStatusStore())
    #expect(next.transactions.count == count, "the saved ledger has \(next.transactions.count) of \(count)")
    #expect(next.takeWarnings().isEmpty)
    #expect(!rig.files().contains { $0.contains(".tmp-") }, "\(rig.files())")
  }
}
