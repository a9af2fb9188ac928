import Foundation
import Testing
@testable import PaywallModel

/// An in-memory store on a simulated clock, for lifecycle cases.
struct LifecycleRig {
  let clock = SimulatedTimeSource()
  let status = SubscriptionStatusStore()
  let catalog: Catalog
  let store: SimulatedStore

  /// `runThreshold`: the store keeps runs of renewals this long as one line (`Int.max`: never).
  init(catalog: Catalog = LifecycleCatalog.catalog, settings: SimulatedStore.Settings = SimulatedStore.Settings(),
       runThreshold: Int = LedgerCompactor.defaultThreshold, file: LedgerFile? = nil) {
    self.catalog = catalog
    store = SimulatedStore(catalog: catalog, status: status, clock: clock, file: file, settings: settings, runThreshold: runThreshold)
  }

  var start: Date { SimulatedTimeSource.defaultStart }

  func at(days n: Double) -> Date { start.addingTimeInterval(days(n)) }

  func advance(days n: Double) {
    clock.advance(by: days(n))
    store.refreshStatus()
  }

  /// Advances to `days` after the start.
  func advance(toDay n: Double) {
    clock.advance(by: at(days: n).timeIntervalSince(clock.now))
    store.refreshStatus()
  }

  @discardableResult
  func buy(_ product: StoreProduct) -> PurchaseResult { store.purchaseNow(product) }

  @discardableResult
  func perform(_ action: StoreAction, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String? {
    switch store.perform(action) {
    case .success(let message): return message
    case .failure(let error):
      Issue.record("\(action.name) failed: \(error.message)", sourceLocation: sourceLocation)
      return nil
    }
  }

  func subscription(_ product: StoreProduct) -> StoreSubscription? { store.derived.subscription(productID: product.id) }

  /// The store's state equals a replay of its ledger from scratch, and its records are exactly
  /// what its actions imply.
  func expectConsistent(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let now = clock.now
    let fromScratch = LedgerDerivation.derive(store.entries, catalog: catalog, rules: store.settings.rules, at: now)
    #expect(fromScratch == store.derived, "a replay from scratch differs from the store", sourceLocation: sourceLocation)
    let problems = LedgerDerivation.problems(in: store.entries, catalog: catalog, rules: store.settings.rules, at: now)
    #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
  }
}

/// One group with every kind of introductory offer and every level relation, plus extras.
enum LifecycleCatalog {
  static func product(_ id: String, _ price: String, _ period: SubscriptionPeriod.Unit, level: Int, intro: IntroductoryOffer? = nil,
                      group: String = "pro", entitlements: Set<Entitlement> = ["pro"], shareable: Bool = false) -> StoreProduct {
    StoreProduct(id: id, displayName: id, price: Fixture.decimal(price), kind: .autoRenewable,
                 subscriptionPeriod: SubscriptionPeriod(value: 1, unit: period), introductoryOffer: intro,
                 subscriptionGroup: group, groupLevel: level, entitlements: entitlements, familyShareable: shareable)
  }

  static let annual = product("annual", "59.99", .year, level: 1,
                              intro: IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 7, unit: .day)),
                              shareable: true)
  static let annualWinback = product("annual.winback", "59.99", .year, level: 1,
                                     intro: IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(value: 1, unit: .year),
                                                              price: Fixture.decimal("29.99")))
  static let monthlyAnnualLevel = product("monthly.plus", "6.99", .month, level: 1)
  static let monthly = product("monthly", "9.99", .month, level: 2,
                               intro: IntroductoryOffer(paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month),
                                                        periodCount: 3, price: Fixture.decimal("0.99")))
  static let weekly = product("weekly", "4.99", .week, level: 3)
  static let music = product("music", "2.99", .month, level: 1, group: "music", entitlements: ["music"])
  static let lifetime = StoreProduct(id: "lifetime", displayName: "Lifetime", price: Fixture.decimal("149.99"), kind: .nonConsumable,
                                     entitlements: ["pro", "lifetime"])

  static let catalog = Catalog(products: [annual, annualWinback, monthlyAnnualLevel, monthly, weekly, music, lifetime])
}

@Suite struct LedgerDerivationTests {
  typealias C = LifecycleCatalog

  @Test func aFreeTrialConvertsToPaidOnTheClock() {
    let rig = LifecycleRig()
    rig.buy(C.annual)
    #expect(rig.subscription(C.annual)?.offer == .freeTrial)
    #expect(rig.store.nextEvent == rig.at(days: 7))
    rig.advance(days: 6.9)
    #expect(rig.subscription(C.annual)?.offer == .freeTrial)
    rig.advance(days: 0.2)
    let converted = rig.store.entries.last
    #expect(converted?.kind == .renewal && converted?.date == rig.at(days: 7) && converted?.offer == nil)
    #expect(converted?.price == C.annual.price)
    #expect(rig.subscription(C.annual)?.expirationDate == rig.at(days: 7 + 365), "a full paid year after the trial")
    #expect(rig.status.status == .active(["pro"]))
    rig.expectConsistent()
  }

  @Test func payAsYouGoChargesTheIntroPriceForItsPeriodsThenTheRegularPrice() {
    let rig = LifecycleRig()
    rig.buy(C.monthly)
    rig.advance(days: 130)
    let charges = rig.store.entries.filter { $0.kind == .purchase || $0.kind == .renewal }
    #expect(charges.prefix(5).map(\.price) == ["0.99", "0.99", "0.99", "9.99", "9.99"].map(Fixture.decimal))
    #expect(charges.prefix(4).map(\.offer) == [.payAsYouGo, .payAsYouGo, .payAsYouGo, nil])
    rig.expectConsistent()
  }

  @Test func payUpFrontCoversItsWholePeriodOnce() {
    let rig = LifecycleRig()
    rig.buy(C.annualWinback)
    let first = rig.store.entries[0]
    #expect(first.offer == .payUpFront && first.price == Fixture.decimal("29.99"))
    #expect(first.expirationDate == rig.at(days: 365))
    rig.advance(days: 366)
    #expect(rig.store.entries.last?.price == Fixture.decimal("59.99"))
    #expect(rig.store.entries.last?.offer == nil)
    rig.expectConsistent()
  }

  /// The SDK once offered trials on upgrades: a subscriber moving up gets no introductory offer.
  @Test func anUpgradeIsImmediateProratedAndWithoutATrial() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.advance(toDay: 3.5)
    rig.buy(C.annual)  // level 3 to level 1
    let upgrade = try #require(rig.store.entries.last)
    #expect(upgrade.kind == .upgrade && upgrade.effect == .immediately)
    #expect(upgrade.offer == nil && upgrade.price == C.annual.price, "no trial on an upgrade, although annual has one")
    #expect(upgrade.proratedCredit == Fixture.decimal("2.5"), "half of the week's 4.99 comes back (rounded)")
    let subscription = try #require(rig.subscription(C.annual))
    #expect(subscription.originalID == rig.store.entries[0].id, "an upgrade stays in the same subscription")
    #expect(subscription.expirationDate == rig.at(days: 3.5 + 365))
    #expect(rig.store.derived.subscriptions.count == 1)
    rig.advance(days: 30)
    #expect(!rig.store.entries.contains { $0.kind == .renewal }, "the weekly period no longer renews")
    rig.expectConsistent()
  }

  @Test func aDowngradeWaitsForTheNextRenewal() throws {
    let rig = LifecycleRig()
    rig.buy(C.annual)  // trial until day 7, then a paid year
    rig.advance(days: 10)
    let message = try #require(rig.perform(.downgrade(productID: nil)))
    #expect(message.contains("monthly"), "the next level down: \(message)")
    #expect(rig.subscription(C.annual)?.renewalProductID == C.monthly.id)
    rig.advance(toDay: 7 + 364)
    #expect(rig.subscription(C.annual)?.state == .subscribed, "still annual until the year is over")
    rig.advance(toDay: 7 + 366)
    let renewal = try #require(rig.store.entries.last)
    #expect(renewal.kind == .renewal && renewal.productID == C.monthly.id && renewal.date == rig.at(days: 7 + 365))
    #expect(renewal.offer == nil && renewal.price == C.monthly.price, "no intro price after a downgrade either")
    rig.expectConsistent()
  }

  @Test func aCrossgradeIsImmediateWithTheSamePeriodAndAtRenewalOtherwise() throws {
    let rig = LifecycleRig()
    rig.buy(C.annualWinback)
    rig.advance(days: 20)
    rig.buy(C.annual)  // the same level and period: now
    #expect(rig.store.entries.last?.kind == .crossgrade && rig.store.entries.last?.effect == .immediately)
    #expect(rig.subscription(C.annual)?.state == .subscribed)
    rig.buy(C.monthlyAnnualLevel)  // the same level, another period: at renewal
    #expect(rig.store.entries.last?.kind == .crossgrade && rig.store.entries.last?.effect == .atRenewal)
    #expect(rig.subscription(C.annual)?.renewalProductID == C.monthlyAnnualLevel.id)
    #expect(throws: StoreActionError.self) { try rig.store.perform(.upgrade(productID: C.weekly.id)).get() }
    rig.expectConsistent()
  }

  @Test func billingRetryWithGraceStaysActiveThenLapsesThenRecovers() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.perform(.billingIssue(productID: nil, grace: true))
    rig.advance(toDay: 7)
    #expect(rig.subscription(C.weekly)?.state == .inGracePeriod)
    #expect(rig.status.status == .active(["pro"]), "active during the grace period")
    #expect(rig.store.nextEvent == rig.at(days: 13), "a weekly subscription gets 6 days of grace")
    rig.advance(toDay: 13)
    #expect(rig.subscription(C.weekly)?.state == .inBillingRetryPeriod)
    #expect(rig.status.status == .inactive, "inactive in billing retry")
    rig.advance(toDay: 20)
    rig.perform(.resolveBilling(productID: nil))
    #expect(rig.status.status == .active(["pro"]), "active again once resolved")
    let recovery = try #require(rig.store.entries.last)
    #expect(recovery.kind == .renewal && recovery.date == rig.at(days: 20))
    #expect(recovery.expirationDate == rig.at(days: 27), "recovered in retry: the new period starts at recovery")
    rig.advance(days: 8)
    #expect(rig.status.status == .active(["pro"]), "the issue is fixed, later renewals succeed")
    rig.expectConsistent()
  }

  @Test func recoveringDuringGraceKeepsTheRenewalDate() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.perform(.billingIssue(productID: nil, grace: true))
    rig.advance(toDay: 9)
    rig.perform(.resolveBilling(productID: nil))
    let recovery = try #require(rig.store.entries.last)
    #expect(recovery.kind == .renewal && recovery.date == rig.at(days: 9))
    #expect(recovery.expirationDate == rig.at(days: 14), "no paid day was lost: the period runs from day 7")
    rig.expectConsistent()
  }

  @Test func billingRetryWithoutGraceLapsesAtOnceAndExpiresWhenRetryRunsOut() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.perform(.billingIssue(productID: C.weekly.id, grace: false))
    rig.advance(toDay: 7)
    #expect(rig.status.status == .inactive)
    #expect(rig.subscription(C.weekly)?.state == .inBillingRetryPeriod)
    rig.advance(toDay: 7 + 60)
    let expiry = try #require(rig.store.entries.last)
    #expect(expiry.kind == .expiry && expiry.reason == .billingError && expiry.date == rig.at(days: 67))
    #expect(throws: StoreActionError.self) { try rig.store.perform(.resolveBilling(productID: nil)).get() }
    rig.expectConsistent()
  }

  @Test func renewalBillingIssuesFailEveryRenewalUntilResolved() {
    let rig = LifecycleRig(settings: SimulatedStore.Settings(rules: StoreRules(gracePeriodEnabled: true, renewalBillingIssues: true)))
    rig.buy(C.weekly)
    rig.advance(toDay: 7.5)
    #expect(rig.subscription(C.weekly)?.state == .inGracePeriod)
    rig.perform(.resolveBilling(productID: nil))
    #expect(rig.subscription(C.weekly)?.state == .subscribed)
    rig.advance(toDay: 14.5)
    #expect(rig.subscription(C.weekly)?.state == .inGracePeriod, "the setting fails the next renewal too")
    rig.expectConsistent()
  }

  @Test func aRefundEndsAccessAtOnceAndAReturnIsNotATrial() throws {
    let rig = LifecycleRig()
    rig.buy(C.annual)
    rig.advance(days: 2)
    rig.perform(.refund(productID: C.annual.id))
    #expect(rig.status.status == .inactive)
    #expect(rig.subscription(C.annual)?.endReason == .refunded)
    rig.buy(C.annual)
    let back = try #require(rig.store.entries.last)
    #expect(back.kind == .purchase && back.offer == nil && back.originalID == rig.store.entries[0].id)
    #expect(rig.status.status == .active(["pro"]))
    rig.expectConsistent()
  }

  @Test func familySharingGrantsAndItsRevocationTakesAway() throws {
    let rig = LifecycleRig()
    #expect(throws: StoreActionError.self) { try rig.store.perform(.familyShare(productID: C.weekly.id)).get() }
    rig.perform(.familyShare(productID: nil))  // annual is the shareable one
    let shared = try #require(rig.store.derived.subscriptions.first)
    #expect(shared.ownership == .familyShared && shared.productID == C.annual.id && shared.offer == nil)
    #expect(rig.status.status == .active(["pro"]))
    #expect(rig.store.derived.isEligibleForIntroOffer(C.annual), "a family member's subscription leaves this user's trial")
    rig.buy(C.music)
    rig.perform(.familyRevoke(productID: nil))
    #expect(rig.status.status == .active(["music"]))
    #expect(rig.store.derived.subscriptions.first?.endReason == .familySharingRevoked)
    rig.expectConsistent()
  }

  @Test func aPriceIncreaseAcceptedRenewsAtTheNewPrice() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.perform(.priceIncrease(productID: nil, price: Fixture.decimal("5.99")))
    #expect(rig.subscription(C.weekly)?.priceConsent == nil)
    rig.perform(.acceptPrice(productID: nil))
    rig.advance(days: 15)
    let prices = rig.store.entries.filter { $0.kind == .renewal }.map(\.price)
    #expect(prices == [Fixture.decimal("5.99"), Fixture.decimal("5.99")], "the new price sticks")
    rig.expectConsistent()
  }

  /// The catalog with one product's regular price changed, as a developer changes it between runs.
  static func repriced(_ product: StoreProduct, _ price: String) -> Catalog {
    Catalog(products: C.catalog.products.map { $0.id == product.id ? { var p = $0; p.price = Fixture.decimal(price); return p }($0) : $0 })
  }

  /// A subscriber keeps their price when the catalog's rises (App Store Connect lets the developer
  /// preserve it, and raising it for existing subscribers is a price increase, with its notice or
  /// consent: `price-increase`). Before, the next renewal charged the catalog's new price.
  @Test func aHigherCatalogPriceLeavesExistingSubscribersAtTheirs() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.advance(days: 8)
    let later = LedgerDerivation.derive(rig.store.entries, catalog: Self.repriced(C.weekly, "6.99"), rules: rig.store.settings.rules,
                                        at: rig.at(days: 30))
    let subscription = try #require(later.subscription(productID: C.weekly.id))
    #expect(subscription.price == Fixture.decimal("4.99"), "renewed at \(subscription.price.map { "\($0)" } ?? "nil"), not the subscriber's 4.99")
    rig.expectConsistent()
  }

  /// A free trial bought at 59.99 renews at 59.99 after the catalog's price became 69.99: the
  /// regular price of the day of purchase is in the ledger (`regularPrice`).
  @Test func aTrialRenewsAtTheRegularPriceOfTheDayItWasBought() throws {
    let rig = LifecycleRig()
    rig.buy(C.annual)
    #expect(rig.store.entries.last?.regularPrice == Fixture.decimal("59.99"))
    let line = LedgerFile.json(try #require(rig.store.entries.last))
    #expect(line.text.contains("\"regularPrice\":\"59.99\"") || line.text.contains("\"regularPrice\":59.99"), "\(line.text)")
    let later = LedgerDerivation.derive(rig.store.entries, catalog: Self.repriced(C.annual, "69.99"), rules: rig.store.settings.rules,
                                        at: rig.at(days: 10))
    let subscription = try #require(later.subscription(productID: C.annual.id))
    #expect(subscription.offer == nil && subscription.price == Fixture.decimal("59.99"), "\(subscription)")
  }

  /// A lower catalog price reaches existing subscribers at their next renewal by itself ("existing
  /// subscriptions will automatically renew at the lower price": App Store Connect Help).
  @Test func aLowerCatalogPriceRenewsExistingSubscribersAtIt() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    let later = LedgerDerivation.derive(rig.store.entries, catalog: Self.repriced(C.weekly, "3.99"), rules: rig.store.settings.rules,
                                        at: rig.at(days: 8))
    #expect(later.subscription(productID: C.weekly.id)?.price == Fixture.decimal("3.99"))
  }

  /// An accepted increase is the subscriber's price from then on, above the catalog's.
  @Test func anAcceptedIncreaseStaysAboveTheCatalogPrice() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.perform(.priceIncrease(productID: nil, price: Fixture.decimal("5.99")))
    rig.perform(.acceptPrice(productID: nil))
    rig.advance(days: 15)
    let later = LedgerDerivation.derive(rig.store.entries, catalog: C.catalog, rules: rig.store.settings.rules, at: rig.at(days: 30))
    #expect(later.subscription(productID: C.weekly.id)?.price == Fixture.decimal("5.99"))
    rig.expectConsistent()
  }

  @Test(arguments: [true, false])
  func aPriceIncreaseDeclinedOrUnansweredExpiresAtRenewal(declined: Bool) throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.perform(.priceIncrease(productID: nil, price: nil))
    #expect(rig.subscription(C.weekly)?.priceIncrease == Fixture.decimal("5.99"), "20% more by default, rounded")
    if declined { rig.perform(.declinePrice(productID: nil)) }
    rig.advance(toDay: 6.9)
    #expect(rig.status.status == .active(["pro"]))
    rig.advance(toDay: 7)
    let expiry = try #require(rig.store.entries.last)
    #expect(expiry.kind == .expiry && expiry.reason == .didNotConsentToPriceIncrease)
    #expect(rig.status.status == .inactive)
    rig.expectConsistent()
  }

  /// An action at the very instant a renewal falls due sees the renewal first: a cancel then
  /// ends the new period, not the old one. Replays agree, with or without the written records.
  @Test func aCancelAtTheRenewalInstantCancelsTheNewPeriod() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.clock.advance(by: days(7))  // exactly the renewal, not yet seen by the store
    rig.perform(.cancel(productID: nil))
    #expect(rig.store.kinds() == [.purchase, .renewal, .autoRenewOff])
    #expect(rig.subscription(C.weekly)?.expirationDate == rig.at(days: 14))
    rig.advance(days: 7)
    #expect(rig.status.status == .inactive)
    rig.expectConsistent()
  }

  @Test func derivationGivesTheSameStateWithOrWithoutTheWrittenRecords() {
    let rig = LifecycleRig()
    rig.buy(C.monthly)
    rig.buy(C.music)
    rig.advance(days: 45)
    rig.perform(.cancel(productID: C.music.id))
    rig.perform(.billingIssue(productID: C.monthly.id, grace: true))
    rig.advance(days: 200)
    let entries = rig.store.entries
    #expect(entries.contains { $0.kind.isLifecycleRecord })
    let withRecords = LedgerDerivation.derive(entries, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now)
    let actionsOnly = LedgerDerivation.derive(entries.filter { !$0.kind.isLifecycleRecord }, catalog: rig.catalog,
                                              rules: StoreRules(), at: rig.clock.now)
    #expect(withRecords == actionsOnly)
    // Earlier moments too: a replay can look at any time after its last line.
    let last = entries.last!.date
    for offset: Double in [0, 1, 86_400, 86_400 * 40] {
      let when = last.addingTimeInterval(offset)
      #expect(LedgerDerivation.derive(entries, catalog: rig.catalog, rules: StoreRules(), at: when)
        == LedgerDerivation.derive(entries.filter { !$0.kind.isLifecycleRecord }, catalog: rig.catalog, rules: StoreRules(), at: when))
    }
  }

  @Test func fixedRenewalIntervalsRenewEveryPeriodAlike() {
    let rig = LifecycleRig(settings: SimulatedStore.Settings(rules: StoreRules(renewalInterval: 10)))
    rig.buy(C.annual)  // the trial lasts 10 s, and so does each year
    #expect(rig.store.nextEvent == rig.start.addingTimeInterval(10))
    rig.clock.advance(by: 35)
    rig.store.refreshStatus()
    #expect(rig.store.kinds() == [.purchase, .renewal, .renewal, .renewal])
    #expect(rig.store.entries.last?.expirationDate == rig.start.addingTimeInterval(40))
    rig.expectConsistent()
  }

  @Test(arguments: StartState.State.allCases)
  func startingStates(state: StartState.State) throws {
    let rig = LifecycleRig()
    try rig.store.start([StartState(entitlement: "pro", state: state), StartState(entitlement: "music", state: .subscribed)])
    let pro = try #require(rig.store.derived.subscriptions.first { $0.entitlements.contains("pro") })
    let active = rig.status.status.entitlements.contains("pro")
    switch state {
    case .subscribed:
      #expect(pro.state == .subscribed && pro.offer == nil && active)
    case .trial:
      #expect(pro.state == .subscribed && pro.offer == .freeTrial && active)
    case .gracePeriod:
      #expect(pro.state == .inGracePeriod && active)
    case .billingRetry:
      #expect(pro.state == .inBillingRetryPeriod && !active)
    case .expired:
      #expect(pro.state == .expired && !active)
    case .revoked:
      #expect(pro.state == .revoked && !active)
    }
    #expect(rig.status.status.entitlements.contains("music"), "several starting states at once")
    #expect(!rig.store.derived.isEligibleForIntroOffer(C.annual), "the history used the group's offer")
    rig.expectConsistent()
  }

  @Test func startingStatesThatCannotBeMetSaySo() throws {
    let rig = LifecycleRig()
    #expect(throws: StoreActionError.self) { try StartState(parsing: "pro") }
    #expect(throws: StoreActionError.self) { try StartState(parsing: "pro=graceperiodd") }
    #expect(performing: { try rig.store.start([StartState(parsing: "por=trial")]) }, throws: { error in
      (error as? StoreActionError)?.message.contains("did you mean 'pro'") == true
    })
    #expect(performing: { try rig.store.start([StartState(parsing: "lifetime=gracePeriod")]) }, throws: { error in
      (error as? StoreActionError)?.message.contains("one-time purchases") == true
    })
    #expect(performing: { try rig.store.start([StartState(parsing: "music=trial")]) }, throws: { error in
      (error as? StoreActionError)?.message.contains("free trial") == true
    })
    #expect(try StartState(parsing: "pro=GRACEPERIOD").state == .gracePeriod, "states are not case sensitive")
  }

  @Test func aHandEditedLedgerIsReportedLineByLine() {
    let start = SimulatedTimeSource.defaultStart
    let entries = [
      LedgerEntry(id: 5, kind: .purchase, date: start, originalID: 5, productID: "weekly",
                  expirationDate: start.addingTimeInterval(days(7))),
      LedgerEntry(id: 4, kind: .autoRenewOff, date: start.addingTimeInterval(-60), originalID: 5, productID: "weekly"),
      LedgerEntry(id: 6, kind: .renewal, date: start.addingTimeInterval(days(3)), originalID: 5, productID: "weekly",
                  expirationDate: start.addingTimeInterval(days(10))),
      LedgerEntry(id: 7, kind: .refund, date: start.addingTimeInterval(days(4)), originalID: 99, productID: "weekly"),
    ]
    let problems = LedgerDerivation.problems(in: entries, catalog: LifecycleCatalog.catalog, rules: StoreRules(),
                                             at: start.addingTimeInterval(days(20)))
    #expect(problems.contains { $0.contains("line 4") && $0.contains("dated before") })
    #expect(problems.contains { $0.contains("line 4") && $0.contains("larger id") })
    #expect(problems.contains { $0.contains("line 6") && $0.contains("renews when nothing was due") })
    #expect(problems.contains { $0.contains("line 7") && $0.contains("no purchase before it") })
    #expect(problems.contains { $0.contains("lifecycle record 1") })
  }

  @Test func theLedgerFileRoundTripsEveryField() throws {
    let rig = LifecycleRig()
    rig.buy(C.monthly)
    rig.perform(.familyShare(productID: nil))
    rig.advance(days: 10)
    rig.buy(C.annual)
    rig.perform(.billingIssue(productID: nil, grace: true))
    rig.perform(.priceIncrease(productID: nil, price: Fixture.decimal("64.99")))
    rig.perform(.declinePrice(productID: nil))
    rig.perform(.familyRevoke(productID: nil))
    rig.buy(C.music)
    rig.perform(.downgrade(productID: C.monthly.id))  // the annual subscription, though music is newer
    rig.advance(days: 400)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = LedgerFile(directory: StateDirectory(path: directory.path))
    let contents = LedgerFile.Contents(entries: rig.store.entries, pending: [PendingPurchase(kind: .interrupted, productID: "weekly", requestDate: rig.start)],
                                       clock: rig.clock.now, rules: StoreRules(renewalInterval: 10, gracePeriodEnabled: true))
    try file.save(contents)
    #expect(try file.read() == contents)
  }

  /// Years of renewals of three subscriptions whose lines interleave, with actions between them:
  /// the store keeps each long run as one line, and that ledger derives the same status,
  /// subscriptions, next change and transaction count as the full one at every moment.
  @Test func aCompactedLedgerDerivesTheSameAsTheFullOne() throws {
    let full = LifecycleRig(runThreshold: .max)
    let compact = LifecycleRig()
    func both(_ body: (LifecycleRig) -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
      body(full)
      body(compact)
      // The status, every subscription, the next change and the count of transactions, derived
      // from scratch from either ledger.
      let now = full.clock.now
      let whole = LedgerDerivation.derive(full.store.entries, catalog: full.catalog, rules: StoreRules(), at: now)
      let kept = LedgerDerivation.derive(compact.store.entries, catalog: compact.catalog, rules: StoreRules(), at: now)
      #expect(kept == whole, "\(LedgerPropertyTests.difference(kept, whole))", sourceLocation: sourceLocation)
      #expect(compact.store.derived == full.store.derived, sourceLocation: sourceLocation)
    }
    both { $0.buy(C.weekly) }
    both { $0.buy(C.music) }
    both { $0.perform(.familyShare(productID: C.annual.id)) }
    both { $0.advance(days: 3 * 365) }
    both { $0.perform(.priceIncrease(productID: C.weekly.id, price: Fixture.decimal("5.99"))) }
    both { $0.perform(.acceptPrice(productID: C.weekly.id)) }
    both { $0.advance(days: 2 * 365) }
    both { $0.perform(.cancel(productID: C.music.id)) }
    both { $0.advance(days: 400) }
    let entries = compact.store.entries
    #expect(entries.count < 20, "\(entries.count) lines")
    #expect(full.store.entries.count > 380)
    let runs = entries.filter { $0.run != nil }
    #expect(runs.count >= 3, "weekly before and after the price increase, music, the family-shared annual")
    #expect(entries.reduce(0) { $0 + $1.occurrences } == full.store.entries.count)
    #expect(entries == LedgerCompactor.compact(full.store.entries))
    #expect(LedgerDerivation.problems(in: entries, catalog: compact.catalog, rules: StoreRules(), at: compact.clock.now) == [])
    compact.expectConsistent()
  }

  /// `problems` compares a run with the renewals the actions imply: one that claims more renewals,
  /// or ends elsewhere, is reported.
  @Test func aRunThatDoesNotMatchTheActionsIsAProblem() throws {
    let rig = LifecycleRig()
    rig.buy(C.weekly)
    rig.advance(days: 7 * 30 + 1)
    var entries = rig.store.entries
    let index = try #require(entries.firstIndex { $0.run != nil })
    #expect(entries[index].run?.count == 30)
    #expect(LedgerDerivation.problems(in: entries, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now) == [])
    entries[index].run?.count = 31
    let problems = LedgerDerivation.problems(in: entries, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now)
    #expect(problems.contains { $0.contains("lifecycle record 1: the ledger has renewal 2000000002 of weekly at 2026-01-08 00:00:00 (×31") },
            "\(problems)")
    entries[index].run?.count = 30
    entries[index].run?.lastExpirationDate = rig.at(days: 7 * 40)
    #expect(!LedgerDerivation.problems(in: entries, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now).isEmpty)
  }

  /// A run is written as version 3 and reads back the same; a ledger without one is still written
  /// as version 2, and version 2 files (every ledger before runs) read as they always did.
  @Test func runsRoundTripAndOlderLedgersStillLoad() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = LedgerFile(directory: StateDirectory(path: directory.path))
    let rig = LifecycleRig()
    rig.buy(C.monthly)
    rig.advance(days: 3 * 365)
    let contents = LedgerFile.Contents(entries: rig.store.entries, clock: rig.clock.now, rules: StoreRules())
    #expect(contents.entries.contains { $0.run != nil })
    try file.save(contents)
    let text = try String(contentsOfFile: file.path, encoding: .utf8)
    #expect(text.hasPrefix(#"{"format":"paywall-tui.ledger","version":3,"#))
    #expect(text.contains(#""count":33,"lastID":"2000000036","lastDate":1859241600.000,"lastExpirationDate":1861920000.000}"#), "\(text)")
    #expect(try file.read() == contents)

    let plain = LedgerFile.Contents(entries: Array(contents.entries.prefix(1)), clock: rig.start)
    try file.save(plain)
    #expect(try String(contentsOfFile: file.path, encoding: .utf8).hasPrefix(#"{"format":"paywall-tui.ledger","version":2,"#))

    // Written by the paywall-tui before runs: every renewal a line.
    let older = """
      {"format":"paywall-tui.ledger","version":2,"clock":1772323200.000,"rules":{"renewalInterval":null,"gracePeriod":false,"renewalBillingIssues":false},
      "transactions":[
      {"id":"2000000001","type":"purchase","date":1767225600.000,"originalID":"2000000001","productID":"weekly","expirationDate":1767830400.000,"price":"4.99"},
      {"id":"2000000002","type":"renewal","date":1767830400.000,"originalID":"2000000001","productID":"weekly","expirationDate":1768435200.000,"price":"4.99"}],
      "pending":[]}
      """
    try older.write(toFile: file.path, atomically: true, encoding: .utf8)
    let read = try file.read()
    #expect(read.entries.map(\.kind) == [.purchase, .renewal])
    let status = SubscriptionStatusStore()
    let store = SimulatedStore(catalog: rig.catalog, status: status, clock: SimulatedTimeSource(), directory: StateDirectory(path: directory.path))
    #expect(store.takeWarnings().isEmpty)
    #expect(status.status == .active(["pro"]))
    #expect(store.derived.transactionCount == 9, "the purchase and eight weekly renewals to 2026-03-01")

    for bad in [#""count":1,"lastID":"9","lastDate":1767830400"#, #""count":3,"lastDate":1767830400"#, #""count":"3","lastID":"9","lastDate":1"#] {
      let text = #"{"format":"paywall-tui.ledger","version":3,"transactions":[{"id":"2","type":"renewal","date":1,"originalID":"1","productID":"weekly","#
        + bad + "}]}"
      try text.write(toFile: file.path, atomically: true, encoding: .utf8)
      #expect(throws: PurchaseError.self, "\(bad)") { try file.read() }
    }
  }

  /// The writer refuses a ledger larger than the reader reads (the same limit), through the path a
  /// full disk takes: nothing written, said once, kept in memory, saved when it fits again.
  @Test func aLedgerLargerThanTheReaderTakesIsNotWritten() async throws {
    #expect(LedgerFile.maximumBytes == SourceFile.maximumBytes)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let state = StateDirectory(path: directory.path)
    let file = LedgerFile(directory: state, maximumBytes: 1500)
    let status = SubscriptionStatusStore()
    let clock = SimulatedTimeSource()
    let store = SimulatedStore(catalog: LifecycleCatalog.catalog, status: status, clock: clock, file: file)
    store.purchaseNow(C.monthly)
    let small = try #require(FileManager.default.contents(atPath: file.path))
    for _ in 0..<6 {
      store.perform(.cancel(productID: nil))
      store.purchaseNow(C.monthly)  // auto-renewal back on: two lines each time
    }
    let warnings = store.takeWarnings()
    #expect(warnings.count == 1, "said once: \(warnings)")
    #expect(warnings.first?.hasPrefix("ledger not saved: it would be 1") == true, "\(warnings)")
    #expect(warnings.first?.contains("bytes, more than the 1500 bytes a ledger may hold (\(file.path)); it is kept in memory") == true,
            "\(warnings)")
    let onDisk = try #require(FileManager.default.contents(atPath: file.path))
    #expect(onDisk.count <= 1500 && onDisk.count >= small.count, "the last ledger that fitted")
    #expect(store.entries.count == 13 && status.status == .active(["pro"]), "kept in memory")
    _ = try file.read()
  }
}
