import Foundation
import Testing
import PaywallModel

/// The presenter driven with a real controller and no terminal, as an app's unit test would.
@Suite("Headless presenter")
struct HeadlessPresenterTests {
  static func app(_ status: SubscriptionStatus = .inactive, clock: any TimeSource = SimulatedTimeSource())
    throws -> (HeadlessPresenter, SubscriptionStatusStore) {
    let project = try PresenterTests.demoProject()
    let store = SubscriptionStatusStore(status)
    let controller = SimulatedStore(catalog: project.catalog, status: store, clock: clock, directory: nil)
    return (HeadlessPresenter(project: project, controller: controller, status: store, clock: clock, userID: "tester"), store)
  }

  /// A library user decides a rule the emulator cannot evaluate as `--assume-rule` does; until
  /// then `register` does nothing (no event) and says it is undecided, without waiting.
  @Test func anUnsupportedRuleIsDecidedByTheCaller() async throws {
    var project = try PresenterTests.demoProject()
    project.campaigns = [Campaign(placement: "js", audiences: [
      .unsupported(kind: "expression_js", text: "user.plan === 'free'", outcome: .paywalls([.init(paywallID: "plans", percent: 100)], holdout: 0)),
    ])]
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore(.inactive)
    let app = HeadlessPresenter(project: project, controller: SimulatedStore(catalog: project.catalog, status: status, clock: clock, directory: nil),
                                status: status, clock: clock, userID: "tester")
    #expect(await app.register("js").isEmpty)
    guard case .undecided(let rule)? = await app.state.outcome?.kind else { Issue.record("not undecided"); return }
    #expect(rule.key == "js#0")
    await app.assume(rule: "js#0", matches: true)
    #expect(await app.register("js").map(\.name.rawValue).contains("paywall_open"))
  }

  @Test func aGatedPlacementRunsItsFeatureOnlyAfterThePurchase() async throws {
    let (app, status) = try Self.app()
    let presented = await app.register("export_pdf")
    #expect(presented.map(\.name.rawValue) == ["trigger_fire", "paywallPresentationRequest", "paywall_open", "handler.onPresent"])
    #expect(await app.featureRan("export_pdf") == false)
    let bought = await app.perform(.purchase(slot: nil))
    // The controller set the status before it returned: the change comes before the completion.
    #expect(bought.map(\.name.rawValue) == ["transaction_start", "subscriptionStatus_didChange", "transaction_complete",
                                            "freeTrial_start", "handler.onWillDismiss", "paywall_close", "handler.onDismiss",
                                            "feature.run"])
    #expect(await app.featureRan("export_pdf"))
    #expect(status.status == .active(["pro"]))
    #expect(await app.state.session == nil)
  }

  @Test func declineOnAGatedPaywallKeepsTheFeatureOut() async throws {
    let (app, _) = try Self.app()
    await app.register("export_pdf")
    let declined = await app.perform(.close)
    #expect(declined.map(\.name.rawValue) == ["paywall_decline", "handler.onWillDismiss", "paywall_close", "handler.onDismiss"])
    #expect(await app.featureRan("export_pdf") == false)
  }

  /// An app whose status nobody has set yet (the scripted controller sets it only on a purchase).
  static func unknown(clock: SimulatedTimeSource) throws -> (HeadlessPresenter, SubscriptionStatusStore) {
    let project = try PresenterTests.demoProject()
    let status = SubscriptionStatusStore()
    let controller = ScriptedPurchaseController(outcomes: .init(), status: status, clock: clock)
    return (HeadlessPresenter(project: project, controller: controller, status: status, clock: clock), status)
  }

  /// Polls `condition` every millisecond for up to 120 s of real time (other suites' blocking tests can hold the pool for tens of seconds), and once more after the
  /// deadline: on a loaded machine this loop may first wake past it, long after the condition held.
  static func eventually(_ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
      if await condition() { return true }
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return await condition()
  }

  /// An unknown status makes `register` wait on the clock: 5 s later its handler hears the error.
  @Test func anUnknownStatusTimesOutOnTheClock() async throws {
    let clock = SimulatedTimeSource()
    let (app, _) = try Self.unknown(clock: clock)
    #expect(await app.register("onboarding").isEmpty, "it waits")
    #expect(await Self.eventually { clock.parkedCount == 1 }, "the timeout waits on the clock")
    clock.advance(by: 5)
    #expect(await Self.eventually { await app.events.contains { $0.name == .handlerOnError } })
    #expect(await app.events.last?["code"]?.stringValue == "subscriptionStatusTimeout")
  }

  /// A status set from outside (the app's own code) reaches the presenter at the next call, in order.
  @Test func aStatusSetElsewhereLetsAWaitingRegisterGoOn() async throws {
    let (app, status) = try Self.unknown(clock: SimulatedTimeSource())
    await app.register("onboarding")
    status.set(.inactive)
    let next = await app.send(.setUserAttributes([:]))
    #expect(next.map(\.name.rawValue).prefix(2) == ["subscriptionStatus_didChange", "trigger_fire"])
    #expect(await app.state.session?.id == "onboarding")
  }
}

extension HeadlessPresenterTests {
  /// With the simulated store, a trial whose group's introductory offer was used is not offered
  /// again: the next paywall shows its regular copy, as in the app.
  @Test func aUsedTrialIsNotOfferedAgain() async throws {
    let project = try PresenterTests.demoProject()
    let status = SubscriptionStatusStore(.inactive)
    let clock = SimulatedTimeSource()
    let store = SimulatedStore(catalog: project.catalog, status: status, clock: clock, directory: nil)
    let app = HeadlessPresenter(project: project, store: store, status: status, clock: clock)
    await app.send(.open(paywallID: "onboarding", selected: nil))
    #expect(await app.state.session?.paywall.showsFreeTrial == true)
    await app.perform(.purchase(slot: nil))  // the annual plan's trial
    await app.send(.open(paywallID: "onboarding", selected: nil))
    #expect(await app.state.session?.paywall.showsFreeTrial == false)
  }

  /// `purchase(product)` with no paywall: the event says whether the purchase started the
  /// introductory offer the store gave, as eligibility stood when the call started (by the time
  /// the result comes back the store has used the group's offer).
  @Test func anAppsPurchaseOfATrialIsAFreeTrialStartOnlyWhileTheGroupsOfferIsUnused() async throws {
    let project = try PresenterTests.demoProject(campaigns: false)
    let status = SubscriptionStatusStore(.inactive)
    let clock = SimulatedTimeSource()
    let store = SimulatedStore(catalog: project.catalog, status: status, clock: clock, directory: nil)
    let app = HeadlessPresenter(project: project, store: store, status: status, clock: clock)
    let annual = try #require(project.catalog.product(id: "com.acme.pro.annual"))
    let first = await app.purchase(annual).map(\.name.rawValue)
    #expect(store.entries.last?.offer == .freeTrial)
    #expect(first.contains("freeTrial_start") && !first.contains("subscription_start"), "\(first)")
    #expect(store.refund(productID: annual.id))
    let again = await app.purchase(annual).map(\.name.rawValue)
    #expect(store.entries.last?.offer == nil && store.entries.last?.price == annual.price)
    #expect(again.contains("subscription_start") && !again.contains("freeTrial_start"), "\(again)")
  }

  /// `purchase(product)` and `restorePurchases()` with no paywall, as UI tests T130 and T132 run
  /// them in the automatic configuration: the simulated store stands for the SDK's own purchases.
  @Test func purchaseAndRestoreWithNoPaywall() async throws {
    let project = try PresenterTests.demoProject(campaigns: false)
    let status = SubscriptionStatusStore(.inactive)
    let clock = SimulatedTimeSource()
    let store = SimulatedStore(catalog: project.catalog, status: status, clock: clock, directory: nil)
    let app = HeadlessPresenter(project: project, store: store, status: status, clock: clock)
    let monthly = try #require(project.catalog.product(id: "com.acme.pro.monthly"))
    let bought = await app.purchase(monthly)
    #expect(bought.map(\.name.rawValue) == ["transaction_start", "subscriptionStatus_didChange", "transaction_complete",
                                            "subscription_start", "call.purchase"])
    #expect(bought.last?["result"] == "purchased")
    let restored = await app.restorePurchases()
    #expect(restored.map(\.name.rawValue) == ["restore_start", "restore_complete", "transaction_restore", "call.restorePurchases"])
    #expect(await app.state.session == nil)
  }
}
