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

  func makeStore(fresh: Bool = false, askToBuy: Bool? = nil, status: SubscriptionStatusStore? = nil,
                 settings: SimulatedStore.Settings? = nil, clock: SimulatedTimeSource? = nil, writable: Bool = true) -> SimulatedStore {
    SimulatedStore(catalog: catalog, status: status ?? self.status, clock: clock ?? self.clock, directory: state, fresh: fresh,
                   writable: writable, askToBuy: askToBuy, settings: settings)
  }

  /// Moves the clock and lets the store catch up, as `advance` in play does.
  func advance(_ store: SimulatedStore, by seconds: Double) {
    clock.advance(by: seconds)
    store.refreshStatus()
  }

  var ledgerPath: String { state.file("ledger.json") }

  func files() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []).sorted()
  }

  func remove() { directory.remove() }
}

/// Seconds in `days` days.
func days(_ n: Double) -> Double { n * 86_400 }

extension SimulatedStore {
  func kinds() -> [LedgerEntry.Kind] { entries.map(\.kind) }
  func subscription(_ productID: String) -> StoreSubscription? { derived.subscription(productID: productID) }
}

@Suite struct SimulatedStoreTests {
  @Test func aNewStoreWithAnEmptyLedgerSetsInactive() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(rig.status.status == .inactive)
    #expect(store.entries.isEmpty)
    #expect(store.pendingPurchases.isEmpty)
    #expect(store.takeWarnings().isEmpty)
    #expect(store.nextEvent == nil)
  }

  @Test func buyingASubscriptionActivatesItsEntitlements() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    let result = await store.purchase(product: TestCatalog.monthly)
    #expect(result.name == "purchased")
    #expect(rig.status.status == .active(["pro"]))
    let entry = try #require(store.entries.first)
    #expect(store.entries.count == 1)
    #expect(entry.kind == .purchase)
    #expect(entry.productID == TestCatalog.monthly.id)
    #expect(entry.date == rig.clock.now)
    #expect(entry.originalID == entry.id)
    #expect(entry.expirationDate == rig.clock.now.addingTimeInterval(days(31)), "2026-01-01 plus a month")
    #expect(entry.price == TestCatalog.monthly.price)
    #expect(store.nextEvent == entry.expirationDate, "the renewal is the next thing to happen")
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
    let original = first.entries

    // The next launch: a new store and a new status store on the same directory.
    let status = SubscriptionStatusStore()
    let second = rig.makeStore(status: status)
    #expect(status.status == .active(["pro", "lifetime"]))
    #expect(second.entries == original)
    #expect(second.derived == first.derived)
    #expect(second.takeWarnings().isEmpty)

    // New ids continue after the old ones.
    _ = await second.purchase(product: TestCatalog.monthly)
    let ids = second.entries.map(\.id)
    #expect(ids == ids.sorted() && Set(ids).count == ids.count, "ids are unique and growing: \(ids)")
  }

  @Test func theLedgerFileLeavesNoTemporaryFile() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    store.cancel(productID: TestCatalog.monthly.id)
    store.refund(productID: TestCatalog.monthly.id)
    #expect(rig.files() == ["ledger.json", "ledger.json.bak"])
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

  @Test func theStoreOnlySetsTheStatusWhenItsOwnDerivationChanges() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    rig.status.set(.unknown)  // a tester's override
    rig.advance(store, by: days(40))  // a renewal: still active, nothing to tell
    #expect(rig.status.status == .unknown, "a renewal that changes nothing leaves the override alone")
    store.refund(productID: TestCatalog.monthly.id)
    #expect(rig.status.status == .inactive, "a change the store derives is set")
  }

  @Test func aRefundEndsTheEntitlementAtOnce() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    rig.advance(store, by: days(3))
    #expect(rig.status.status == .active(["pro"]))
    #expect(store.refund(productID: TestCatalog.monthly.id))
    #expect(rig.status.status == .inactive)
    let refund = try #require(store.entries.last)
    #expect(refund.kind == .refund && refund.date == rig.clock.now && refund.reason == .refunded)
    #expect(refund.revokedID == store.entries.first?.id, "it takes back the purchase")
    #expect(store.subscription(TestCatalog.monthly.id)?.state == .revoked)
    #expect(store.nextEvent == nil, "a refunded subscription never renews")
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
    rig.advance(store, by: days(1))
    #expect(store.cancel(productID: TestCatalog.monthly.id))
    #expect(!store.cancel(productID: TestCatalog.monthly.id), "already cancelled")
    #expect(rig.status.status == .active(["pro"]), "still active after cancelling")
    let subscription = try #require(store.subscription(TestCatalog.monthly.id))
    #expect(!subscription.autoRenew)
    #expect(subscription.expirationDate == start.addingTimeInterval(days(31)))

    rig.advance(store, by: days(29))  // day 30
    #expect(rig.status.status == .active(["pro"]))
    rig.advance(store, by: days(2))  // day 32, past the end
    #expect(rig.status.status == .inactive)
    let expiry = try #require(store.entries.last)
    #expect(expiry.kind == .expiry && expiry.reason == .autoRenewDisabled)
    #expect(expiry.date == start.addingTimeInterval(days(31)), "it expired at the end of the period, not when the clock was looked at")
  }

  @Test func aCancelInALaterPeriodEndsAtTheEndOfThatPeriod() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.weekly)
    rig.advance(store, by: days(17))  // in the third week
    #expect(rig.status.status == .active(["pro"]), "it renews while auto-renewal is on")
    #expect(store.kinds() == [.purchase, .renewal, .renewal])
    store.cancel(productID: TestCatalog.weekly.id)
    rig.advance(store, by: days(3.5))  // day 20.5, still in the third week
    #expect(rig.status.status == .active(["pro"]))
    rig.advance(store, by: days(1))  // day 21.5
    #expect(rig.status.status == .inactive)
  }

  @Test func aCancelledTrialEndsWithTheTrial() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.annual)  // 7-day free trial
    #expect(store.entries.first?.offer == .freeTrial)
    #expect(store.entries.first?.price == 0)
    rig.advance(store, by: days(2))
    store.cancel(productID: TestCatalog.annual.id)
    rig.advance(store, by: days(4.5))  // day 6.5
    #expect(rig.status.status == .active(["pro"]))
    rig.advance(store, by: days(1))  // day 7.5
    #expect(rig.status.status == .inactive)
    #expect(!store.kinds().contains(.renewal), "a cancelled trial never converts")
  }

  @Test func anUncancelledSubscriptionKeepsRenewing() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    rig.advance(store, by: days(400))
    #expect(rig.status.status == .active(["pro"]))
    let renewals = store.entries.filter { $0.kind == .renewal }
    #expect(renewals.count == 13, "Feb 2026 to Feb 2027")
    #expect(Set(renewals.map(\.originalID)) == [store.entries[0].id], "every renewal keeps the original id")
    #expect(zip(store.entries, store.entries.dropFirst()).allSatisfy { $0.expirationDate == $1.date },
            "each renewal starts where the last period ended")
  }

  @Test func aLifetimePurchaseNeverEnds() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(await store.purchase(product: TestCatalog.lifetime).name == "purchased")
    #expect(rig.status.status == .active(["pro", "lifetime"]))
    rig.advance(store, by: days(3653))  // ten years
    #expect(rig.status.status == .active(["pro", "lifetime"]))
    #expect(store.subscription(TestCatalog.lifetime.id)?.expirationDate == nil)
    #expect(await store.purchase(product: TestCatalog.lifetime).name == "purchased")
    #expect(store.entries.count == 1, "buying an owned non-consumable again adds nothing")
    #expect(!store.cancel(productID: "com.acme.unknown"))
  }

  @Test func askToBuyPurchasesWaitForApproval() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore(askToBuy: true)
    #expect(store.settings.askToBuy)
    #expect(await store.purchase(product: TestCatalog.monthly).name == "pending")
    #expect(store.pendingPurchases.map(\.productID) == [TestCatalog.monthly.id])
    #expect(store.pendingPurchases.first?.requestDate == rig.clock.now)
    #expect(store.entries.isEmpty)
    #expect(rig.status.status == .inactive)

    // The request survives a restart.
    let other = rig.makeStore(askToBuy: true, status: SubscriptionStatusStore())
    #expect(other.pendingPurchases.map(\.productID) == [TestCatalog.monthly.id])

    rig.clock.advance(by: 60)
    #expect(store.approve() != nil)
    #expect(rig.status.status == .active(["pro"]))
    #expect(store.pendingPurchases.isEmpty)
    #expect(store.entries.map(\.productID) == [TestCatalog.monthly.id])
    #expect(store.entries.first?.date == rig.clock.now, "bought when approved")
    #expect(store.approve() == nil, "nothing left to approve")
  }

  @Test func aDeclinedAskToBuyPurchaseGrantsNothing() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore(askToBuy: true)
    #expect(await store.purchase(product: TestCatalog.lifetime).name == "pending")
    #expect(store.decline() != nil)
    #expect(rig.status.status == .inactive)
    #expect(store.pendingPurchases.isEmpty)
    #expect(store.entries.isEmpty)
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
    #expect(store.settings.askToBuy)
    #expect(await store.purchase(product: TestCatalog.monthly).name == "pending")
    let overridden = rig.makeStore(askToBuy: false, status: SubscriptionStatusStore())
    #expect(!overridden.settings.askToBuy)
  }

  @Test func anInterruptedPurchaseFailsThenCompletesWhenResolved() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(throws: Never.self) { try store.perform(.interruptNextPurchase).get() }
    let result = await store.purchase(product: TestCatalog.monthly)
    guard case .failed(let error) = result else { Issue.record("expected a failure, got \(result.name)"); return }
    #expect(error.displayMessage.contains("interrupted"))
    #expect(rig.status.status == .inactive)
    #expect(store.pendingPurchases.map(\.kind) == [.interrupted])
    #expect(await store.purchase(product: TestCatalog.lifetime).name == "purchased", "only the next purchase is interrupted")
    #expect(throws: Never.self) { try store.perform(.resolveInterrupted).get() }
    #expect(rig.status.status == .active(["pro", "lifetime"]), "the interrupted purchase completes and the status follows")
    #expect(throws: StoreActionError.self) { try store.perform(.resolveInterrupted).get() }
  }

  @Test func failTransactionsFailsEveryPurchase() async throws {
    var catalog = TestCatalog.catalog
    catalog.settings.failTransactionsEnabled = true
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    let result = await store.purchase(product: TestCatalog.monthly)
    guard case .failed(let error) = result else { Issue.record("expected a failure, got \(result.name)"); return }
    #expect(error.displayMessage == StoreError.unknown.message)
    #expect(store.entries.isEmpty)
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
    #expect(fresh.entries.isEmpty)
    #expect(fresh.takeWarnings().isEmpty)

    // The first write replaces the old ledger.
    _ = await fresh.purchase(product: TestCatalog.weekly)
    let next = rig.makeStore(status: SubscriptionStatusStore())
    #expect(next.entries.map(\.productID) == [TestCatalog.weekly.id])
  }

  @Test func aCorruptLedgerIsMovedAsideWithAWarning() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    try FileManager.default.createDirectory(atPath: rig.state.path, withIntermediateDirectories: true)
    let garbage = Data([0x7B, 0x22, 0xFF, 0x00, 0x13]) + Data("not a ledger at all".utf8)
    #expect(FileManager.default.createFile(atPath: rig.ledgerPath, contents: garbage))

    let store = rig.makeStore()
    #expect(rig.status.status == .inactive)
    #expect(store.entries.isEmpty)

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
    "{\"format\": \"someone-else\", \"version\": 2, \"transactions\": []}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 7, \"transactions\": []}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 1, \"transactions\": [{\"id\": \"1\", \"productID\": \"x\", \"purchaseDate\": 1}]}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 2, \"transactions\": [{\"id\": \"1\"}]}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 2, \"transactions\": [{\"id\": \"1\", \"type\": \"purchase\", \"productID\": \"x\", \"date\": \"yesterday\"}]}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 2, \"transactions\": [{\"id\": \"1\", \"type\": \"gift\", \"productID\": \"x\", \"date\": 1}]}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 2, \"pending\": [{\"productID\": \"x\"}]}",
    "{\"format\": \"paywall-tui.ledger\", \"version\": 2, \"transactions\": [",
  ])
  func anUnusableLedgerIsMovedAside(_ text: String) throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    try FileManager.default.createDirectory(atPath: rig.state.path, withIntermediateDirectories: true)
    try text.write(toFile: rig.ledgerPath, atomically: true, encoding: .utf8)
    let store = rig.makeStore()
    #expect(rig.status.status == .inactive)
    #expect(store.entries.isEmpty)
    let warnings = store.takeWarnings()
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("ledger.json.corrupt-") == true, "\(warnings)")
    #expect(rig.files().contains { $0.hasPrefix("ledger.json.corrupt-") })
  }

  /// Found by fuzzing: a date such as 1e999 read as infinity and was saved as `inf`, which is not
  /// JSON, so the next launch set the whole ledger aside; a line dated millions of years ahead had
  /// the store replay renewals until then (a hang at launch). Dates outside 1970…9999 are refused
  /// when read, and an infinite renewal interval is dropped, so whatever reads saves readably.
  @Test func aDateOutOfRangeIsRefusedAndWhatReadsSavesReadably() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    try FileManager.default.createDirectory(atPath: rig.state.path, withIntermediateDirectories: true)
    let file = LedgerFile(directory: rig.state)
    let infiniteClock = #"{"format":"paywall-tui.ledger","version":2,"clock":1e999,"transactions":[],"pending":[]}"#
    #expect(FileManager.default.createFile(atPath: rig.ledgerPath, contents: Data(infiniteClock.utf8)))
    #expect(throws: PurchaseError.self) { try file.read() }
    for date in ["1767916767225600", "-1e15", "253402300800"] {
      let farOff = #"{"format":"paywall-tui.ledger","version":2,"transactions":[{"id":"1","type":"purchase","date":"#
        + date + #","originalID":"1","productID":"com.acme.pro.weekly","expirationDate":1767830400}],"pending":[]}"#
      #expect(FileManager.default.createFile(atPath: rig.ledgerPath, contents: Data(farOff.utf8)))
      #expect(throws: PurchaseError.self, "date \(date)") { try file.read() }
    }

    let infiniteInterval = #"{"format":"paywall-tui.ledger","version":2,"rules":{"renewalInterval":1e999},"transactions":[],"pending":[]}"#
    #expect(FileManager.default.createFile(atPath: rig.ledgerPath, contents: Data(infiniteInterval.utf8)))
    let contents = try file.read()
    #expect(contents.rules?.renewalInterval == nil)
    try file.save(contents)
    #expect(try file.read() == contents)
  }

  @Test func aLedgerThatDoesNotAddUpIsReportedButKept() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    // A renewal of a subscription that was never bought: edited by hand.
    let ledger = """
      {"format":"paywall-tui.ledger","version":2,"transactions":[
      {"id":"7","type":"renewal","date":1767225600,"originalID":"3","productID":"com.acme.pro.monthly","expirationDate":1769904000}],
      "pending":[]}
      """
    try FileManager.default.createDirectory(atPath: rig.state.path, withIntermediateDirectories: true)
    try ledger.write(toFile: rig.ledgerPath, atomically: true, encoding: .utf8)
    let store = rig.makeStore()
    let warnings = store.takeWarnings()
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("has no purchase before it") == true, "\(warnings)")
    #expect(store.entries.count == 1, "kept as it is, not dropped")
    #expect(rig.files() == ["ledger.json"])
  }

  @Test func aFreeTrialIsUsedOncePerGroup() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(TestCatalog.annual.hasFreeTrial)
    #expect(store.derived.isEligibleForIntroOffer(TestCatalog.annual))
    _ = await store.purchase(product: TestCatalog.annual)
    #expect(!store.derived.isEligibleForIntroOffer(TestCatalog.annual))
    #expect(!store.derived.isEligibleForIntroOffer(TestCatalog.weekly), "the whole group is used")
    store.cancel(productID: TestCatalog.annual.id)
    rig.advance(store, by: days(8))  // the trial ended
    #expect(rig.status.status == .inactive)
    _ = await store.purchase(product: TestCatalog.annual)  // back to the group
    let back = try #require(store.entries.last)
    #expect(back.kind == .purchase && back.offer == nil && back.price == TestCatalog.annual.price, "no second trial")
    #expect(back.originalID == store.entries[0].id, "a return to a group keeps its original transaction")
    // The flag is saved with the ledger.
    let next = rig.makeStore(status: SubscriptionStatusStore())
    #expect(next.entries.map(\.offer) == store.entries.map(\.offer))
    #expect(!next.derived.isEligibleForIntroOffer(TestCatalog.annual))
  }

  @Test func aProductWithoutATrialIsNeverATrial() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    _ = await store.purchase(product: TestCatalog.lifetime)
    #expect(store.entries.map(\.offer) == [nil, nil])
  }

  @Test func worksWithTheBundledCatalog() async throws {
    let catalog = try Catalog.load(path: Fixture.bundled("catalog.json"))
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    let annual = try #require(catalog.product(id: "com.acme.pro.annual"))
    let lifetime = try #require(catalog.product(id: "com.acme.pro.lifetime"))
    #expect(await store.purchase(product: annual).name == "purchased")
    #expect(store.entries.first?.offer == .freeTrial)
    #expect(rig.status.status == .active(["pro"]))
    #expect(await store.purchase(product: lifetime).name == "purchased")
    #expect(rig.status.status == .active(["pro", "lifetime"]))
    store.refund(productID: lifetime.id)
    store.cancel(productID: annual.id)
    rig.advance(store, by: days(8))  // past the 7-day trial
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
  /// atomically, outside the store's lock.
  @Test func concurrentPurchasesAllReachTheLedger() async throws {
    let coins = StoreProduct(id: "com.acme.coins", displayName: "Coins", price: Fixture.decimal("0.99"), kind: .consumable)
    let rig = try SimulatedStoreRig(catalog: Catalog(products: TestCatalog.catalog.products + [coins]))
    defer { rig.remove() }
    let store = rig.makeStore()
    let count = 40
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<count {
        group.addTask { _ = await store.purchase(product: coins) }
      }
    }
    #expect(store.entries.count == count)
    #expect(rig.status.status == .inactive, "consumables grant nothing")
    let warnings = store.takeWarnings()
    #expect(warnings.isEmpty, "\(warnings.count) saves failed, e.g. \(warnings.first ?? "")")
    let next = rig.makeStore(status: SubscriptionStatusStore())
    #expect(next.entries.count == count, "the saved ledger has \(next.entries.count) of \(count)")
    #expect(next.takeWarnings().isEmpty)
    #expect(!rig.files().contains { $0.contains("tmp-") }, "\(rig.files())")
  }

  @Test func aNewSessionContinuesOnTheStoresClock() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    rig.advance(store, by: days(45))
    store.checkpoint()
    let later = rig.clock.now

    // The next `play` starts its clock at the fixed start date; the store moves it on.
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore()
    let next = rig.makeStore(status: status, clock: clock)
    #expect(clock.now == later)
    #expect(status.status == .active(["pro"]))
    #expect(next.entries == store.entries)
    #expect(next.nextEvent == store.nextEvent)
  }
}

/// What a store that runs for a long time writes: a ledger that stays small, always one it reads
/// back, and one too large (from an earlier paywall-tui) never set aside without a word.
extension SimulatedStoreTests {
  /// Found by red-teaming: every renewal was a line of its own, so a long session grew its ledger
  /// without end (about 170 KB a second at `renewal=1ms`) until it passed the 64 MiB the reader
  /// takes. Runs of renewals are kept as one line: a thousand years of a monthly plan is a few
  /// lines, and means exactly what the whole history means.
  @Test func aThousandYearsOfRenewalsKeepTheLedgerSmall() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(TestCatalog.monthly)
    store.purchaseNow(TestCatalog.lifetime)
    for _ in 0..<10 { rig.advance(store, by: days(365 * 100)) }
    #expect(store.entries.count <= 4, "\(store.entries.count) lines")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: rig.ledgerPath)[.size] as? Int)
    #expect(size < 4096, "the ledger is \(size) bytes")
    // The purchases alone, every renewal generated again, give the same state.
    let actions = store.entries.filter { !$0.kind.isLifecycleRecord }
    let whole = LedgerDerivation.derive(actions, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now)
    #expect(store.derived == whole)
    #expect(store.derived.transactionCount == 2 + 12_000 - 8, "1,000 years of 365 days end on 3025-05-04")
    #expect(LedgerDerivation.problems(in: store.entries, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now) == [])
    // The next session reads it back to the same state, and goes on from there.
    let next = rig.makeStore(status: SubscriptionStatusStore())
    #expect(next.takeWarnings().isEmpty)
    #expect(next.derived == store.derived)
    rig.advance(next, by: days(365))
    #expect(next.entries.count == store.entries.count, "the next year extends the run")
  }

  /// At the fastest rate, two subscriptions renewing every millisecond (their lines interleaved):
  /// two minutes of it leave the ledger as long as one minute did.
  @Test func theFastestRateDoesNotGrowTheLedger() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let music = StoreProduct(id: "music", displayName: "Music", price: Fixture.decimal("2.99"), kind: .autoRenewable,
                             subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "music",
                             entitlements: ["music"])
    let catalog = Catalog(products: TestCatalog.catalog.products + [music])
    let store = SimulatedStore(catalog: catalog, status: rig.status, clock: rig.clock, directory: rig.state,
                               settings: SimulatedStore.Settings(rules: StoreRules(renewalInterval: 0.001)))
    store.purchaseNow(TestCatalog.monthly)
    rig.advance(store, by: 0.0005)
    store.purchaseNow(music)
    var lines: [Int] = []
    for second in 1...120 {
      rig.advance(store, by: 1)
      if second == 60 || second == 120 { lines.append(store.entries.count) }
    }
    #expect(lines.count == 2 && lines[0] == lines[1] && lines[0] <= 6, "lines after one and two minutes: \(lines)")
    #expect(store.derived.transactionCount > 239_000)
    #expect(rig.status.status == .active(["pro", "music"]))
    let next = SimulatedStore(catalog: catalog, status: SubscriptionStatusStore(), clock: rig.clock, directory: rig.state,
                              settings: store.settings)
    #expect(next.takeWarnings().isEmpty)
    // The file keeps dates to the millisecond: a period that ended a fraction of one after the
    // clock ends on it when read back, so each subscription may renew once more.
    #expect((0...2).contains(next.derived.transactionCount - store.derived.transactionCount))
    #expect(next.entries.count == store.entries.count)
  }

  /// Found by red-teaming: a ledger over the reader's 64 MiB (which an earlier paywall-tui could
  /// write) was set aside as if damaged and the subscriber silently became inactive. It is now
  /// left exactly as it is, the session runs in memory, and a warning says what to do.
  @Test func aLedgerTooLargeToReadIsLeftAsItIsAndSaidSo() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    try FileManager.default.createDirectory(atPath: rig.state.path, withIntermediateDirectories: true)
    let head = Data(#"{"format":"paywall-tui.ledger","version":2,"transactions":["#.utf8)
    #expect(FileManager.default.createFile(atPath: rig.ledgerPath, contents: head))
    let size: UInt64 = 65 * 1_048_576
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: rig.ledgerPath))
    try handle.truncate(atOffset: size)  // sparse: 65 MiB on paper
    try handle.close()

    let store = rig.makeStore()
    let warnings = store.takeWarnings()
    #expect(warnings.count == 1, "\(warnings)")
    let warning = warnings.first ?? ""
    #expect(warning.hasPrefix("\(rig.ledgerPath) is 65 MiB, more than the 64 MiB a ledger may hold"), "\(warning)")
    #expect(warning.contains("left as it is") && warning.contains("move it away"), "\(warning)")
    #expect(rig.status.status == .inactive)

    // A purchase works, in memory; the file is not replaced, moved or copied.
    _ = await store.purchase(product: TestCatalog.monthly)
    #expect(rig.status.status == .active(["pro"]))
    #expect(rig.files() == ["ledger.json"])
    let attributes = try FileManager.default.attributesOfItem(atPath: rig.ledgerPath)
    #expect((attributes[.size] as? UInt64) == size)
    #expect(FileManager.default.contents(atPath: rig.ledgerPath)?.prefix(head.count) == head)
  }

  /// Found by red-teaming: the store wrote what its reader refuses. A period that ends after
  /// 9999 is not saved (the disk-full path: kept in memory, said once); the file keeps its last
  /// readable contents and the next session loads it without a word.
  @Test func aLedgerThatWouldNotReadBackIsNotWritten() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let lastDate = 253_402_300_799.0  // 9999-12-31 23:59:59, the last date a ledger holds
    let clock = SimulatedTimeSource(start: Date(timeIntervalSince1970: lastDate - days(30)))
    let store = rig.makeStore(clock: clock)
    store.purchaseNow(TestCatalog.lifetime)
    #expect(store.takeWarnings().isEmpty)
    store.purchaseNow(TestCatalog.monthly)  // paid until 10000-01-01
    store.purchaseNow(TestCatalog.monthly)  // nothing new to save: no second warning
    let warnings = store.takeWarnings()
    #expect(warnings.count == 1, "\(warnings)")
    #expect(warnings.first?.hasPrefix("ledger not saved: it would hold the date 10000-01-01") == true, "\(warnings)")
    #expect(warnings.first?.contains("it is kept in memory") == true, "\(warnings)")
    #expect(rig.status.status == .active(["pro", "lifetime"]))
    let saved = try LedgerFile(directory: rig.state).read()
    #expect(saved.entries.map(\.productID) == [TestCatalog.lifetime.id])
    let next = rig.makeStore(status: SubscriptionStatusStore(), clock: clock)
    #expect(next.takeWarnings().isEmpty)
    #expect(next.entries.count == 1)
  }

  /// Found by red-teaming: each renewal rewrote and fsynced the whole ledger (204 fsyncs for 200
  /// years of an annual plan), so a long advance was quadratic. Inside `savingOnce` every change
  /// is applied and published at once, and the ledger is written once, at the end.
  @Test func changesInsideSavingOnceAreWrittenOnce() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(TestCatalog.monthly)
    #expect(store.ledgerWrites == 1)
    let purchase = try #require(FileManager.default.contents(atPath: rig.ledgerPath))
    await store.savingOnce {
      for _ in 0..<100 {
        rig.advance(store, by: days(365))
        #expect(rig.status.status == .active(["pro"]))
      }
      store.perform(.cancel(productID: nil))
      rig.advance(store, by: days(31))
      #expect(rig.status.status == .inactive, "the expiry is published at once")
      #expect(FileManager.default.contents(atPath: rig.ledgerPath) == purchase, "nothing written yet")
    }
    #expect(store.ledgerWrites == 2, "one write for the whole of it")
    let saved = try LedgerFile(directory: rig.state).read()
    #expect(saved.entries == store.entries)
    #expect(saved.entries.map(\.kind) == [.purchase, .renewal, .autoRenewOff, .expiry])
    await store.savingOnce {}
    #expect(store.ledgerWrites == 2, "nothing changed, nothing written")
  }
}
