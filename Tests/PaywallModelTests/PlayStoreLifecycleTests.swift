import Foundation
import Testing
import PaywallModel

/// A Play catalog as the simulated store sees one: each subscription its own group, base plans
/// with no level, a one-time product.
enum PlayTestCatalog {
  static let monthly = StoreProduct(
    id: "pro:monthly", displayName: "Pro", price: Fixture.decimal("9.99"), kind: .autoRenewable,
    subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "pro", entitlements: ["pro"], store: .playStore)
  static let annual = StoreProduct(
    id: "pro:annual", displayName: "Pro", price: Fixture.decimal("59.99"), kind: .autoRenewable,
    subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year), subscriptionGroup: "pro", entitlements: ["pro"], store: .playStore)
  static let lifetime = StoreProduct(
    id: "lifetime", displayName: "Lifetime", price: Fixture.decimal("149.99"), kind: .nonConsumable, entitlements: ["pro"], store: .playStore)

  static var catalog: Catalog {
    var catalog = Catalog(products: [monthly, annual, lifetime], groups: [SubscriptionGroup(id: "pro", name: "Pro", productIDs: ["pro:monthly", "pro:annual"])],
                          file: "play-catalog.json")
    catalog.store = .playStore
    return catalog
  }
}

@Suite struct PlayLedgerTermsTests {
  /// `GPA.` then digits in groups of 4, 4, 4 and 5.
  static func isOrderID(_ text: String) -> Bool {
    guard text.hasPrefix("GPA.") else { return false }
    let groups = text.dropFirst(4).split(separator: "-", omittingEmptySubsequences: false)
    return groups.map(\.count) == [4, 4, 4, 5] && groups.allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
  }

  @Test func aPurchaseHasATokenAndAnOrderIdAndEachRenewalAppendsItsIndex() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.purchaseNow(PlayTestCatalog.monthly) == .purchased)
    let bought = try #require(store.subscription("pro:monthly")?.play)
    #expect(Self.isOrderID(bought.orderID))
    #expect(bought.purchaseToken.contains(".AO-J1O") && bought.purchaseToken.count > 60)
    #expect(bought.linkedPurchaseToken == nil)
    rig.advance(store, by: days(31))
    rig.advance(store, by: days(28))
    let renewed = try #require(store.subscription("pro:monthly")?.play)
    #expect(renewed.purchaseToken == bought.purchaseToken, "a renewal keeps the token")
    #expect(renewed.orderID == bought.orderID + "..1", "the second renewal is ..1")
    let terms = PlayLineTerms.of(store.entries)
    let orders = store.entries.filter { $0.kind == .purchase || $0.kind == .renewal }.map { terms[$0.id]?.orderID }
    #expect(orders == [bought.orderID, bought.orderID + "..0", bought.orderID + "..1"])
  }

  @Test func aReplacementIsANewTokenLinkedToTheOldOne() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(PlayTestCatalog.monthly)
    let old = try #require(store.subscription("pro:monthly")?.play)
    rig.advance(store, by: days(3))
    #expect(store.purchaseNow(PlayTestCatalog.annual) == .purchased)
    let change = try #require(store.entries.last { [.upgrade, .downgrade, .crossgrade].contains($0.kind) })
    let replaced = try #require(store.derived.subscriptions.first?.play)
    #expect(replaced.purchaseToken != old.purchaseToken)
    #expect(replaced.linkedPurchaseToken == old.purchaseToken)
    #expect(replaced.orderID != old.orderID && Self.isOrderID(replaced.orderID))
    let terms = try #require(PlayLineTerms.of(store.entries)[change.id])
    #expect(terms.purchaseToken == replaced.purchaseToken && terms.linkedPurchaseToken == old.purchaseToken)
  }

  @Test func aRunOfRenewalsNamesItsFirstAndLastOrder() {
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    let purchase = LedgerEntry(id: 10, kind: .purchase, date: start, originalID: 10, productID: "pro:monthly")
    let run = LedgerEntry(id: 11, kind: .renewal, date: start.addingTimeInterval(days(31)), originalID: 10, productID: "pro:monthly",
                          run: LedgerEntry.Run(count: 3, lastID: 13, lastDate: start.addingTimeInterval(days(90)), lastExpirationDate: nil))
    let refund = LedgerEntry(id: 14, kind: .refund, date: start.addingTimeInterval(days(91)), originalID: 10, productID: "pro:monthly",
                             revokedID: 13)
    let terms = PlayLineTerms.of([purchase, run, refund])
    let base = PlayPurchase.orderID(10, renewal: nil)
    #expect(terms[11]?.orderID == base + "..0")
    #expect(terms[11]?.lastOrderID == base + "..2")
    #expect(terms[14]?.orderID == base + "..2", "a refund names the order it takes back")
    #expect(terms[14]?.purchaseToken == PlayPurchase.purchaseToken(10))
  }

  @Test func anAppStoreCatalogHasNoneOfIt() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(TestCatalog.monthly)
    #expect(store.kinds() == [.purchase])
    #expect(store.subscription(TestCatalog.monthly.id)?.play == nil)
    #expect(store.perform(.testCard(.slowApproves)).failureMessage?.contains("Google Play's") == true)
    #expect(store.perform(.acknowledging(false)).failureMessage?.contains("not a Play catalog") == true)
    #expect(store.settings.testCard == .alwaysApproves)
  }
}

@Suite struct PlayTestCardTests {
  @Test func theDecliningCardFailsThePurchaseAndBuysNothing() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = store.perform(.testCard(.alwaysDeclines))
    guard case .failed(let error) = store.purchaseNow(PlayTestCatalog.monthly) else {
      Issue.record("the declining card let the purchase through")
      return
    }
    #expect(error.displayMessage.contains("declined"))
    #expect(store.entries.isEmpty && store.pendingPurchases.isEmpty)
    #expect(rig.status.status == .inactive)
  }

  @Test func aSlowCardThatApprovesIsPendingThenPurchasedThreeMinutesLater() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    let start = rig.clock.now
    _ = store.perform(.testCard(.slowApproves))
    #expect(store.purchaseNow(PlayTestCatalog.monthly) == .pending)
    #expect(rig.status.status == .inactive, "a PENDING purchase grants nothing")
    #expect(store.pendingPurchases.map(\.kind) == [.slowApproves])
    #expect(store.nextEvent == start.addingTimeInterval(180))
    #expect(store.nextStatusChange(through: start.addingTimeInterval(days(1))) == start.addingTimeInterval(180))
    rig.advance(store, by: 179)
    #expect(rig.status.status == .inactive)
    rig.advance(store, by: 1)
    #expect(rig.status.status == .active(["pro"]))
    #expect(store.pendingPurchases.isEmpty)
    let purchase = try #require(store.entries.first)
    #expect(purchase.kind == .purchase && purchase.date == start.addingTimeInterval(180))
    // Its acknowledgement window starts when it completes, not when it was asked for.
    #expect(store.kinds() == [.purchase, .acknowledgement])
  }

  @Test func aSlowCardThatDeclinesIsPendingThenDropped() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = store.perform(.testCard(.slowDeclines))
    #expect(store.purchaseNow(PlayTestCatalog.monthly) == .pending)
    rig.advance(store, by: days(1))
    #expect(store.pendingPurchases.isEmpty && store.entries.isEmpty)
    #expect(rig.status.status == .inactive)
    #expect(store.nextEvent == nil)
  }

  @Test func aPendingPurchaseOutlivesTheSessionAndCompletesInTheNext() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let first = rig.makeStore()
    _ = first.perform(.testCard(.slowApproves))
    first.purchaseNow(PlayTestCatalog.annual)
    let second = rig.makeStore()
    #expect(second.pendingPurchases.map(\.kind) == [.slowApproves])
    rig.advance(second, by: 200)
    #expect(second.subscription("pro:annual")?.state == .subscribed)
  }
}

@Suite struct PlayAcknowledgementTests {
  @Test func theStoreAcknowledgesForTheAppByDefault() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(PlayTestCatalog.lifetime)
    #expect(store.kinds() == [.purchase, .acknowledgement])
    #expect(store.subscription("lifetime")?.play?.acknowledgedAt == rig.clock.now)
    rig.advance(store, by: days(30))
    #expect(rig.status.status == .active(["pro"]))
  }

  @Test func aPurchaseNotAcknowledgedInThreeDaysIsRefundedAndRevoked() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    let start = rig.clock.now
    _ = store.perform(.acknowledging(false))
    store.purchaseNow(PlayTestCatalog.monthly)
    #expect(store.subscription("pro:monthly")?.play?.acknowledgeBy == start.addingTimeInterval(days(3)))
    #expect(store.nextEvent == start.addingTimeInterval(days(3)))
    rig.advance(store, by: days(3) - 1)
    #expect(rig.status.status == .active(["pro"]))
    rig.advance(store, by: 1)
    #expect(rig.status.status == .inactive)
    let refund = try #require(store.entries.last)
    #expect(refund.kind == .unacknowledgedRefund && refund.reason == .notAcknowledged)
    #expect(refund.revokedID == store.entries.first?.id)
    #expect(store.subscription("pro:monthly")?.state == .revoked)
    // The record replays as written.
    let replayed = LedgerDerivation.derive(store.entries, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now)
    #expect(replayed.issues.isEmpty)
    #expect(replayed.subscriptions == store.derived.subscriptions)
  }

  @Test func anAcknowledgementInsideTheWindowKeepsThePurchase() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = store.perform(.acknowledging(false))
    store.purchaseNow(PlayTestCatalog.lifetime)
    rig.advance(store, by: days(2))
    #expect(store.perform(.acknowledge(productID: nil)).failureMessage == nil)
    rig.advance(store, by: days(5))
    #expect(rig.status.status == .active(["pro"]))
    #expect(store.kinds() == [.purchase, .acknowledgement])
    #expect(store.perform(.acknowledge(productID: nil)).failureMessage?.contains("no live subscription") == true)
  }

  @Test func aLicenseTestersWindowOnTheTestTimelineIsThreeMinutes() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore(settings: SimulatedStore.Settings(rules: StoreRules(renewalInterval: 300)))
    _ = store.perform(.acknowledging(false))
    store.purchaseNow(PlayTestCatalog.monthly)
    rig.advance(store, by: 180)
    #expect(store.subscription("pro:monthly")?.state == .revoked)
  }

  @Test func aStartingHistoryWasAcknowledged() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = store.perform(.acknowledging(false))
    try store.start([StartState(entitlement: "pro", state: .subscribed)])
    rig.advance(store, by: days(4))
    #expect(rig.status.status == .active(["pro"]))
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Result where Failure == StoreActionError {
  var failureMessage: String? {
    if case .failure(let error) = self { return error.message }
    return nil
  }
}

@Suite struct PlayGraceAndAccountHoldTests {
  /// The Play test catalog with the monthly plan's grace and hold set as a base plan sets them.
  static func catalog(grace: Int, hold: Int) -> Catalog {
    var monthly = PlayTestCatalog.monthly
    monthly.playPlan = PlayPlanRules(gracePeriodDays: grace, accountHoldDays: hold)
    var catalog = Catalog(products: [monthly, PlayTestCatalog.annual, PlayTestCatalog.lifetime], file: "play-catalog.json")
    catalog.store = .playStore
    return catalog
  }

  @Test func aFailedRenewalKeepsAccessInGraceThenLosesItInHoldThenExpires() throws {
    let rig = try SimulatedStoreRig(catalog: Self.catalog(grace: 3, hold: 10))
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(try #require(rig.catalog.product(id: "pro:monthly")))
    #expect(store.perform(.billingIssue(productID: nil, grace: nil)).successMessage?.contains("3-day grace period, then a 10-day account hold") == true)
    rig.advance(store, by: days(31))
    #expect(store.subscription("pro:monthly")?.state == .inGracePeriod)
    #expect(rig.status.status == .active(["pro"]))
    rig.advance(store, by: days(3))
    #expect(store.subscription("pro:monthly")?.state == .inBillingRetryPeriod)
    #expect(store.subscription("pro:monthly")?.summary.contains("account hold until") == true)
    #expect(rig.status.status == .inactive)
    rig.advance(store, by: days(10))
    #expect(store.subscription("pro:monthly")?.state == .expired)
    #expect(store.subscription("pro:monthly")?.endReason == .billingError)
  }

  @Test func noGraceGoesStraightToHoldAndNoHoldExpiresAtTheGracesEnd() throws {
    let rig = try SimulatedStoreRig(catalog: Self.catalog(grace: 0, hold: 5))
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(try #require(rig.catalog.product(id: "pro:monthly")))
    _ = store.perform(.billingIssue(productID: nil, grace: nil))
    rig.advance(store, by: days(31))
    #expect(store.subscription("pro:monthly")?.state == .inBillingRetryPeriod)

    let other = try SimulatedStoreRig(catalog: Self.catalog(grace: 7, hold: 0))
    defer { other.remove() }
    let second = other.makeStore()
    second.purchaseNow(try #require(other.catalog.product(id: "pro:monthly")))
    _ = second.perform(.billingIssue(productID: nil, grace: nil))
    other.advance(second, by: days(31))
    #expect(second.subscription("pro:monthly")?.state == .inGracePeriod)
    other.advance(second, by: days(7))
    #expect(second.subscription("pro:monthly")?.state == .expired)
  }

  @Test func recoveredInHoldTheRenewalDateResetsToThatDay() throws {
    let rig = try SimulatedStoreRig(catalog: Self.catalog(grace: 3, hold: 30))
    defer { rig.remove() }
    let store = rig.makeStore()
    let start = rig.clock.now
    store.purchaseNow(try #require(rig.catalog.product(id: "pro:monthly")))
    _ = store.perform(.billingIssue(productID: nil, grace: nil))
    rig.advance(store, by: days(31 + 5))
    _ = store.perform(.resolveBilling(productID: nil))
    let recovered = try #require(store.subscription("pro:monthly"))
    #expect(recovered.state == .subscribed && recovered.periodStart == start.addingTimeInterval(days(36)))
    #expect(recovered.play?.orderID.hasSuffix("..0") == true, "the recovery is the first renewal's charge")
  }

  @Test func theTestTimelineIsOneIntervalOfGraceAndTwoOfHold() throws {
    let rig = try SimulatedStoreRig(catalog: Self.catalog(grace: 7, hold: 30))
    defer { rig.remove() }
    let store = rig.makeStore(settings: SimulatedStore.Settings(rules: StoreRules(renewalInterval: 300)))
    store.purchaseNow(try #require(rig.catalog.product(id: "pro:monthly")))
    _ = store.perform(.billingIssue(productID: nil, grace: nil))
    rig.advance(store, by: 300)
    #expect(store.subscription("pro:monthly")?.gracePeriodEnd == rig.clock.now.addingTimeInterval(300))
    #expect(store.subscription("pro:monthly")?.billingRetryEnd == rig.clock.now.addingTimeInterval(900))
  }

  @Test func aBasePlanWithoutDurationsTakesGooglesDefaults() throws {
    let text = try PlayCatalogProjectTests.example()
    let (catalog, _) = try PlayCatalogProjectTests.catalog(text)
    // The example's monthly plan sets P7D and P30D, its annual P14D and no hold: Google's
    // recommended hold, 60 days less the grace period.
    #expect(catalog?.product(id: "acme_pro:monthly:sw-none")?.playPlan == PlayPlanRules(gracePeriodDays: 7, accountHoldDays: 30))
    #expect(catalog?.product(id: "acme_pro:annual:sw-none")?.playPlan
            == PlayPlanRules(gracePeriodDays: 14, accountHoldDays: 46, replacementMode: .chargeFullPrice))
    let monthlyPlan = [#""billingPeriodDuration": "P1M","#, #"            "gracePeriodDuration": "P7D","#,
                       #"            "accountHoldDuration": "P30D""#].joined(separator: "\n")
    let weekly = text.replacingOccurrences(of: monthlyPlan, with: #""billingPeriodDuration": "P1W""#)
    #expect(weekly != text, "the example's monthly plan is written as this test expects")
    let (changed, diagnostics) = try PlayCatalogProjectTests.catalog(weekly)
    #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
    #expect(changed?.product(id: "acme_pro:monthly:sw-none")?.playPlan == PlayPlanRules(gracePeriodDays: 3, accountHoldDays: 57))
  }

  /// What the API accepts of the two durations (AutoRenewingBasePlanType): in days, a grace period
  /// up to the lesser of 30 days and the billing period, a hold up to 60 days, both together 30 to
  /// 60 days. Outside them, an error at the value, saying what fits.
  @Test func graceAndHoldOutsideWhatPlayAcceptsAreErrors() throws {
    let text = try PlayCatalogProjectTests.example()
    let monthlyPlan = [#""billingPeriodDuration": "P1M","#, #"            "gracePeriodDuration": "P7D","#,
                       #"            "accountHoldDuration": "P30D""#].joined(separator: "\n")
    #expect(text.contains(monthlyPlan), "the example's monthly plan is written as this test expects")
    func errors(grace: String, hold: String) throws -> [String] {
      let changed = text.replacingOccurrences(of: monthlyPlan, with: [#""billingPeriodDuration": "P1M","#,
        #"            "gracePeriodDuration": "\#(grace)","#, #"            "accountHoldDuration": "\#(hold)""#].joined(separator: "\n"))
      return try PlayCatalogProjectTests.catalog(changed).1.filter { $0.severity == .error }.map(\.message)
    }
    #expect(try errors(grace: "P10D", hold: "P90D") == [
      "'accountHoldDuration' may be at most 60 days, found 'P90D'; leave it out for Google's recommended hold (60 days less the grace period)"])
    #expect(try errors(grace: "P14D", hold: "P50D") == [
      "the grace period (14 days) and 'accountHoldDuration' (50) must add up to between 30 and 60 days, found 64; leave the hold out for Google's recommended 46 days"])
    #expect(try errors(grace: "P3D", hold: "P7D") == [
      "the grace period (3 days) and 'accountHoldDuration' (7) must add up to between 30 and 60 days, found 10; leave the hold out for Google's recommended 57 days"])
    #expect(try errors(grace: "P31D", hold: "P20D") == [
      "'gracePeriodDuration' may be at most 30 days (the lesser of 30 days and the billing period 'P1M'), found 'P31D'"])
    #expect(try errors(grace: "P1W", hold: "P30D") == ["'gracePeriodDuration' must be in days, found 'P1W'; write it as days, such as \"P7D\""])
    #expect(try errors(grace: "P0D", hold: "P30D").isEmpty)
    // A daily plan's default grace period is its one day, not more than its period.
    let daily = try PlayCatalogProjectTests.catalog(text.replacingOccurrences(of: monthlyPlan, with: #""billingPeriodDuration": "P1D""#)).0
    #expect(daily?.product(id: "acme_pro:monthly:sw-none")?.playPlan == PlayPlanRules(gracePeriodDays: 1, accountHoldDays: 59))
    #expect(try errors(grace: "P30D", hold: "P30D").isEmpty)
  }

  /// An App Store subscription's billing issue is as before: no grace unless the store's setting says so.
  @Test func anAppStoreCatalogKeepsItsOwnRules() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(TestCatalog.monthly)
    #expect(store.perform(.billingIssue(productID: nil, grace: nil)).successMessage?.contains("without a grace period") == true)
    rig.advance(store, by: days(31))
    #expect(store.subscription(TestCatalog.monthly.id)?.state == .inBillingRetryPeriod)
    #expect(store.subscription(TestCatalog.monthly.id)?.summary.contains("billing retry until") == true)
  }
}

extension Result where Success == String, Failure == StoreActionError {
  var successMessage: String? {
    if case .success(let message) = self { return message }
    return nil
  }
}

@Suite struct PlayPauseTests {
  @Test func aPauseBeginsAtTheRenewalTakesAccessAwayAndRenewsWhenItEnds() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    let start = rig.clock.now
    store.purchaseNow(PlayTestCatalog.monthly)
    #expect(store.perform(.pause(productID: nil, .twoWeeks)).successMessage?.contains("pauses at its renewal") == true)
    #expect(store.perform(.pause(productID: nil, .oneWeek)).failureMessage != nil, "one pause at a time")
    rig.advance(store, by: days(31))
    let paused = try #require(store.subscription("pro:monthly"))
    #expect(paused.state == .paused && paused.pauseUntil == start.addingTimeInterval(days(31 + 14)))
    #expect(rig.status.status == .inactive)
    rig.advance(store, by: days(14))
    let resumed = try #require(store.subscription("pro:monthly"))
    #expect(resumed.state == .subscribed && resumed.periodStart == start.addingTimeInterval(days(45)))
    #expect(resumed.play?.orderID.hasSuffix("..0") == true)
    #expect(rig.status.status == .active(["pro"]))
    #expect(store.kinds() == [.purchase, .acknowledgement, .pause, .paused, .renewal])
    let replayed = LedgerDerivation.derive(store.entries, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now)
    #expect(replayed.issues.isEmpty, "\(replayed.issues)")
    #expect(replayed.subscriptions == store.derived.subscriptions)
  }

  @Test func resumeRenewsAPausedOneNowAndDropsAPauseNotBegun() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(PlayTestCatalog.monthly)
    _ = store.perform(.pause(productID: nil, .threeMonths))
    #expect(store.perform(.resume(productID: nil)).successMessage?.contains("dropped") == true)
    rig.advance(store, by: days(31))
    #expect(store.subscription("pro:monthly")?.state == .subscribed)
    _ = store.perform(.pause(productID: nil, .oneMonth))
    rig.advance(store, by: days(28 + 2))
    #expect(store.subscription("pro:monthly")?.state == .paused)
    #expect(store.perform(.resume(productID: nil)).successMessage?.contains("renews now") == true)
    #expect(store.subscription("pro:monthly")?.state == .subscribed)
    #expect(store.subscription("pro:monthly")?.periodStart == rig.clock.now)
  }

  @Test func cancelledWhilePausedItExpiresWhenThePauseEnds() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(PlayTestCatalog.monthly)
    _ = store.perform(.pause(productID: nil, .oneWeek))
    rig.advance(store, by: days(32))
    _ = store.perform(.cancel(productID: nil))
    rig.advance(store, by: days(7))
    #expect(store.subscription("pro:monthly")?.state == .expired)
  }

  @Test func anAppStoreSubscriptionCannotBePaused() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(TestCatalog.monthly)
    #expect(store.perform(.pause(productID: nil, .oneMonth)).failureMessage?.contains("Google Play's") == true)
    #expect(store.kinds() == [.purchase])
  }
}

@Suite struct PlayReplacementModeTests {
  /// Bought the monthly plan (9.99) on day 0, moved to the annual one (59.99) on day 15 of 31 by
  /// `mode`: the change line.
  static func replace(_ mode: PlayReplacementMode?, to target: String = "pro:annual") throws -> (LedgerEntry, SimulatedStore, SimulatedStoreRig) {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    let store = rig.makeStore()
    store.purchaseNow(PlayTestCatalog.monthly)
    rig.advance(store, by: days(15))
    _ = try store.perform(.replace(productID: target, mode: mode)).get()
    let change = try #require(store.entries.last { [.upgrade, .downgrade, .crossgrade].contains($0.kind) })
    return (change, store, rig)
  }

  @Test func withTimeProrationCreditsTheUnusedValueAsTime() throws {
    let (change, store, rig) = try Self.replace(.withTimeProration)
    defer { rig.remove() }
    #expect(change.effect == .immediately && change.price == 0)
    #expect(change.proratedCredit == Fixture.decimal("5.16"))
    // 5.16 of a 59.99 year: 31.4 days of the annual plan from now.
    let days = try #require(change.expirationDate).timeIntervalSince(change.date) / 86_400
    #expect(abs(days - 5.16 / 59.99 * 365) < 0.01)
    #expect(store.subscription("pro:annual")?.state == .subscribed)
    #expect(change.kind == .downgrade, "the annual plan costs less a day")
  }

  @Test func chargeFullPriceChargesTheNewPlanAndAddsTheUnusedTime() throws {
    let (change, _, rig) = try Self.replace(.chargeFullPrice)
    defer { rig.remove() }
    #expect(change.price == Fixture.decimal("59.99") && change.effect == .immediately)
    let days = try #require(change.expirationDate).timeIntervalSince(change.date) / 86_400
    #expect(abs(days - (365 + 5.16 / 59.99 * 365)) < 0.01)
  }

  @Test func withoutProrationKeepsTheBillingDateAndChargesNothingNow() throws {
    let (change, store, rig) = try Self.replace(.withoutProration)
    defer { rig.remove() }
    #expect(change.price == 0 && change.effect == .immediately)
    #expect(change.expirationDate == store.entries.first?.expirationDate)
    rig.advance(store, by: days(16))
    let renewal = try #require(store.entries.last { $0.kind == .renewal })
    #expect(renewal.productID == "pro:annual" && renewal.price == Fixture.decimal("59.99"))
  }

  @Test func deferredStartsTheNewPlanAtTheNextBillingDate() throws {
    let (change, store, rig) = try Self.replace(.deferred)
    defer { rig.remove() }
    #expect(change.effect == .atRenewal && change.replacementMode == .deferred)
    #expect(store.subscription("pro:monthly")?.renewalProductID == "pro:annual")
    #expect(store.subscription("pro:monthly")?.play?.linkedPurchaseToken != nil, "the new token is issued at the change")
    rig.advance(store, by: days(16))
    #expect(store.subscription("pro:annual")?.state == .subscribed)
  }

  @Test func chargeProratedPriceIsForUpgradesOnly() throws {
    let rig = try SimulatedStoreRig(catalog: PlayTestCatalog.catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(PlayTestCatalog.annual)
    rig.advance(store, by: days(100))
    // Annual to monthly costs more a day: an upgrade, charged the difference for the rest of the year.
    let message = try store.perform(.replace(productID: "pro:monthly", mode: .chargeProratedPrice)).get()
    #expect(message.contains("CHARGE_PRORATED_PRICE now"))
    let change = try #require(store.entries.last { $0.kind == .upgrade })
    #expect(change.expirationDate == store.entries.first?.expirationDate, "the billing date is kept")
    #expect((change.price ?? 0) > 0)
    // Back to annual is a downgrade: refused, from the store and from a purchase alike.
    #expect(store.perform(.replace(productID: "pro:annual", mode: .chargeProratedPrice)).failureMessage?.contains("only for an upgrade") == true)
    _ = store.perform(.replacementMode(.chargeProratedPrice))
    guard case .failed = store.purchaseNow(PlayTestCatalog.annual) else {
      Issue.record("a downgrade with CHARGE_PRORATED_PRICE went through")
      return
    }
    #expect(store.subscription("pro:monthly")?.state == .subscribed)
  }

  @Test func withoutAModeThePlansProrationModeDecides() throws {
    var annual = PlayTestCatalog.annual
    annual.playPlan = PlayPlanRules(gracePeriodDays: 7, accountHoldDays: 30, replacementMode: .chargeFullPrice)
    var catalog = Catalog(products: [PlayTestCatalog.monthly, annual], file: "play-catalog.json")
    catalog.store = .playStore
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(PlayTestCatalog.monthly)
    store.purchaseNow(annual)
    #expect(store.entries.last { $0.kind == .downgrade }?.replacementMode == .chargeFullPrice)
    store.purchaseNow(PlayTestCatalog.monthly)
    #expect(store.entries.last { $0.kind == .upgrade }?.replacementMode == .deferred, "no prorationMode: CHARGE_ON_NEXT_BILLING_DATE")
    let replayed = LedgerDerivation.derive(store.entries, catalog: catalog, rules: StoreRules(), at: rig.clock.now)
    #expect(replayed.issues.isEmpty && replayed.subscriptions == store.derived.subscriptions)
  }

  @Test func aReplacementModeSurvivesTheLedgerFile() throws {
    let (_, _, rig) = try Self.replace(.withTimeProration)
    defer { rig.remove() }
    let reopened = rig.makeStore()
    #expect(reopened.entries.contains { $0.replacementMode == .withTimeProration })
  }
}

@Suite struct PlayPrepaidTests {
  static func pass(timeExtension: Bool) -> StoreProduct {
    var pass = StoreProduct(id: "pro:season", displayName: "Season", price: Fixture.decimal("24.99"), kind: .nonRenewing,
                            subscriptionPeriod: SubscriptionPeriod(value: 3, unit: .month), entitlements: ["pro"], store: .playStore)
    pass.playPlan = PlayPlanRules(gracePeriodDays: 0, accountHoldDays: 0)
    pass.playPlan?.timeExtension = timeExtension
    return pass
  }

  static func rig(_ pass: StoreProduct) throws -> SimulatedStoreRig {
    var catalog = Catalog(products: [pass], file: "play-catalog.json")
    catalog.store = .playStore
    return try SimulatedStoreRig(catalog: catalog)
  }

  @Test func aTopUpExtendsThePlanByOnePeriodAndItNeverRenews() throws {
    let pass = Self.pass(timeExtension: true)
    let rig = try Self.rig(pass)
    defer { rig.remove() }
    let store = rig.makeStore()
    let start = rig.clock.now
    store.purchaseNow(pass)
    rig.advance(store, by: days(31))
    #expect(store.purchaseNow(pass) == .purchased)
    let topped = try #require(store.subscription("pro:season"))
    #expect(topped.expirationDate == SubscriptionPeriod(value: 3, unit: .month).added(to: SubscriptionPeriod(value: 3, unit: .month).added(to: start)))
    #expect(topped.play?.linkedPurchaseToken == PlayPurchase.purchaseToken(store.entries[0].id))
    #expect(store.kinds() == [.purchase, .acknowledgement, .topUp, .acknowledgement])
    rig.advance(store, by: days(200))
    #expect(store.subscription("pro:season")?.state == .expired && store.subscription("pro:season")?.endReason == .periodEnded)
    #expect(rig.status.status == .inactive)
    let replayed = LedgerDerivation.derive(store.entries, catalog: rig.catalog, rules: StoreRules(), at: rig.clock.now)
    #expect(replayed.issues.isEmpty && replayed.subscriptions == store.derived.subscriptions)
  }

  @Test func withoutTimeExtensionItIsBoughtAgainOnlyOnceItEnds() throws {
    let pass = Self.pass(timeExtension: false)
    let rig = try Self.rig(pass)
    defer { rig.remove() }
    let store = rig.makeStore()
    store.purchaseNow(pass)
    guard case .failed(let error) = store.purchaseNow(pass) else {
      Issue.record("a running prepaid plan without time extension was bought again")
      return
    }
    #expect(error.displayMessage.contains("ITEM_ALREADY_OWNED"))
    rig.advance(store, by: days(100))
    #expect(store.purchaseNow(pass) == .purchased)
    #expect(store.entries.filter { $0.kind == .purchase }.count == 2)
  }
}

/// A rented purchase option (`rentOption`, the example's 30-day `acme_lifetime:rent-30-days`) is
/// held for its rental period, then ends, and may be rented again; the option bought to keep stays.
@Suite struct PlayRentalTests {
  static func catalog() throws -> Catalog {
    try PlayCatalog.load(path: PlayCatalogReaderTests.examplePath).catalog(entitlements: ["acme_lifetime": ["lifetime"]])
  }

  @Test func aRentalEndsAfterItsPeriodAndMayBeRentedAgain() throws {
    let catalog = try Self.catalog()
    let rental = try #require(catalog.product(id: "acme_lifetime:rent-30-days"))
    #expect(rental.play?.rentalPeriod?.text == "P30D")
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.purchaseNow(rental) == .purchased)
    #expect(store.subscription(rental.id)?.expirationDate == rig.clock.now.addingTimeInterval(days(30)))
    rig.advance(store, by: days(29))
    #expect(rig.status.status == .active(["lifetime"]))
    rig.advance(store, by: days(2))
    #expect(store.kinds().contains(.expiry), "\(store.kinds())")
    #expect(rig.status.status == .inactive)
    #expect(store.purchaseNow(rental) == .purchased, "rented again once it ended")
    #expect(rig.status.status == .active(["lifetime"]))
    #expect(store.kinds().filter { $0 == .purchase }.count == 2, "\(store.kinds())")
  }

  @Test func theOptionBoughtToKeepNeverEnds() throws {
    let catalog = try Self.catalog()
    let kept = try #require(catalog.product(id: "acme_lifetime:buy"))
    #expect(kept.play?.rentalPeriod == nil)
    let rig = try SimulatedStoreRig(catalog: catalog)
    defer { rig.remove() }
    let store = rig.makeStore()
    #expect(store.purchaseNow(kept) == .purchased)
    rig.advance(store, by: days(3650))
    #expect(!store.kinds().contains(.expiry), "\(store.kinds())")
    #expect(rig.status.status == .active(["lifetime"]))
  }
}
