import Foundation
import PaywallTesting
import Testing
import PaywallModel
@testable import TerminalCore
@testable import PaywallUI

/// The QA debug panel: its keys, the typed duration, what it shows of the store, and the runtime
/// carrying its actions out on a real simulated store.
@Suite struct DebugPanelTests {
  /// The demo project's runtime on the simulated store and clock, with no state directory.
  static func storeRuntime() throws -> (Project, SimulatedTimeSource, SimulatedStore, AppRuntime) {
    let project = try Fixtures.demoProject()
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore()
    let store = SimulatedStore(catalog: project.catalog, status: status, clock: clock, directory: nil)
    let runtime = AppRuntime(state: AppState(project: project), controller: store, statusStore: status, clock: clock,
                             statusCache: nil, store: store) { _ in }
    return (project, clock, store, runtime)
  }

  static func panel() throws -> AppState {
    var state = try AppModelTests.opened()
    _ = AppModel.update(&state, .key(.character("d")))
    return state
  }

  static func action(_ key: Character, _ state: inout AppState) -> DebugAction? {
    guard case .debug(let action, announce: true)? = AppModel.update(&state, .key(.character(key))).first else { return nil }
    return action
  }

  @Test(arguments: [
    (Character("h"), DebugAction.advanceClock(.seconds(3600))),
    ("a", .advanceClock(.seconds(86_400))),
    ("w", .advanceClock(.seconds(7 * 86_400))),
    // A calendar month, as the store's monthly period; it was 365/12 days.
    ("m", .advanceClock(.months(1))),
    (">", .advanceToNextEvent),
    ("y", .store(.approve)),
    ("n", .store(.decline)),
    ("i", .store(.interruptNextPurchase)),
    ("e", .store(.resolveInterrupted)),
    ("c", .store(.cancel(productID: nil))),
    ("f", .store(.refund(productID: nil))),
    ("v", .store(.revoke(productID: nil))),
    ("U", .store(.upgrade(productID: nil))),
    ("O", .store(.downgrade(productID: nil))),
    ("b", .store(.billingIssue(productID: nil, grace: nil))),
    ("g", .store(.resolveBilling(productID: nil))),
    ("p", .store(.priceIncrease(productID: nil, price: nil))),
    ("k", .store(.acceptPrice(productID: nil))),
    ("j", .store(.declinePrice(productID: nil))),
    ("F", .store(.familyShare(productID: nil))),
    ("R", .store(.familyRevoke(productID: nil))),
    ("x", .failNextPurchase("Card declined")),
    ("z", .failNextRestore(.networkError)),
    ("t", .setLatency(seconds: 2)),
    ("D", .dropNextResponse),
  ])
  func everyKeyAsksForItsAction(key: Character, expected: DebugAction) throws {
    var state = try Self.panel()
    #expect(Self.action(key, &state) == expected)
    #expect(state.overlay?.debug != nil, "the panel stays open")
    #expect(KeyMap.debugSections.flatMap(\.bindings).contains { $0.label == String(key) }, "the panel lists \(key)")
  }

  @Test func theKeysAreUniqueAndAllShown() throws {
    let keys = KeyMap.debugSections.flatMap(\.bindings).map(\.label)
    #expect(Set(keys).count == keys.count)
    let text = AppView.render(try Self.panel(), size: Size(width: 80, height: 24)).text
    for topic in KeyMap.debugSections.map(\.topic) where topic != KeyMap.playTopic {
      #expect(text.contains(topic), "the panel shows \(topic)")
    }
    #expect(!text.contains("next test card"), "an App Store project's panel has no Play keys:\n\(text)")
    for phrase in ["+1 month", "card fails", "drop reply", "share a product", "d / esc closes"] {
      #expect(text.contains(phrase), "the panel shows '\(phrase)':\n\(text)")
    }
  }

  /// A Play catalog's store: the panel shows Play's keys and the card and acknowledgement in
  /// use; C moves to the next license-test card, K toggles the app acknowledging.
  @Test func aPlayCatalogsPanelShowsItsTestCardAndAcknowledgement() throws {
    var state = try Self.panel()
    state.store = StorePanel(clock: Date(timeIntervalSince1970: 0), timeRate: "realtime", subscriptions: [], pending: [],
                             nextEvent: nil, usedIntroGroups: [], faults: [])
    state.store?.testCard = .slowApproves
    state.store?.acknowledges = false
    let text = AppView.render(state, size: Size(width: 80, height: 40)).text
    #expect(text.contains("C next test card"), "\(text)")
    #expect(text.contains("test card slow-approves · the app forgets to acknowledge"), "\(text)")
    #expect(Self.action("C", &state) == .store(.testCard(.slowDeclines)))
    #expect(Self.action("K", &state) == .store(.acknowledging(true)))
    #expect(Self.action("A", &state) == .store(.acknowledge(productID: nil)))
  }

  @Test func aTypedDurationAdvancesTheClock() throws {
    var state = try Self.panel()
    _ = AppModel.update(&state, .key(.character("+")))
    #expect(state.overlay?.debug?.typing == .duration(""))
    for c in "3dx" { _ = AppModel.update(&state, .key(.character(c))) }
    _ = AppModel.update(&state, .key(.backspace))
    #expect(state.overlay?.debug?.typing == .duration("3d"))
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("advance by  3d▏"))
    let effects = AppModel.update(&state, .key(.enter))
    guard case .debug(.advanceClock(let distance), announce: true)? = effects.first else { Issue.record("expected an advance, got \(effects)"); return }
    #expect(distance == .seconds(3 * 86_400))
    #expect(state.overlay?.debug?.typing == nil && state.overlay?.debug != nil)

    _ = AppModel.update(&state, .key(.character("+")))
    for c in "soon" { _ = AppModel.update(&state, .key(.character(c))) }
    #expect(AppModel.update(&state, .key(.enter)).filter(\.asksTheWorld).isEmpty)
    #expect(state.notice?.contains("'soon' is not a duration") == true)
    _ = AppModel.update(&state, .key(.escape))
    #expect(state.overlay?.debug?.typing == nil && state.overlay?.debug != nil, "esc leaves the prompt, not the panel")
  }

  /// Issue 16 (a gap left): the app's own `purchase(product)` and `restorePurchases()` calls have
  /// keys in the panel, as `call purchase` / `call restore` in scripts.
  @Test func theAppsCallsHaveKeys() throws {
    var state = try Self.panel()
    _ = AppModel.update(&state, .key(.character("P")))
    #expect(state.overlay?.debug?.typing == .productID("com.acme.pro.annual"), "it starts with the selected product")
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("purchase    com.acme.pro.annual▏"))
    for _ in "annual" { _ = AppModel.update(&state, .key(.backspace)) }
    for c in "montly" { _ = AppModel.update(&state, .key(.character(c))) }
    #expect(AppModel.update(&state, .key(.enter)).filter(\.asksTheWorld).isEmpty, "no call for a product the catalog lacks")
    #expect(state.notice?.contains("did you mean 'com.acme.pro.monthly'?") == true, "\(state.notice ?? "")")
    _ = AppModel.update(&state, .key(.character("P")))
    for _ in "annual" { _ = AppModel.update(&state, .key(.backspace)) }
    for c in "monthly" { _ = AppModel.update(&state, .key(.character(c))) }
    let bought = AppModel.update(&state, .key(.enter))
    #expect(bought.contains { if case .purchase(let product, _) = $0 { product.id == "com.acme.pro.monthly" } else { false } }, "\(bought)")
    #expect(state.overlay?.debug?.typing == nil)
  }

  /// Before: the panel could only cycle unknown → inactive → active with every entitlement, so
  /// "subscribed to pro but not lifetime" could not be set by hand.
  @Test func aTypedStatusSetsThoseEntitlementsOnly() throws {
    var state = try Self.panel()
    _ = AppModel.update(&state, .key(.character("=")))
    #expect(state.overlay?.debug?.typing == .status(""))
    for c in "active:por" { _ = AppModel.update(&state, .key(.character(c))) }
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("status      active:por▏"))
    #expect(AppModel.update(&state, .key(.enter)).filter(\.asksTheWorld).isEmpty, "no status with an entitlement nothing grants")
    #expect(state.notice?.contains("no product grants 'por'; did you mean 'pro'?") == true, "\(state.notice ?? "")")
    _ = AppModel.update(&state, .key(.character("=")))
    for c in "active:pro" { _ = AppModel.update(&state, .key(.character(c))) }
    let effects = AppModel.update(&state, .key(.enter))
    #expect(effects.contains { if case .debug(.setStatus(.active(["pro"])), _) = $0 { true } else { false } }, "\(effects)")
    #expect(state.overlay?.debug?.typing == nil)
    _ = AppModel.update(&state, .key(.character("=")))
    for c in "nope" { _ = AppModel.update(&state, .key(.character(c))) }
    #expect(AppModel.update(&state, .key(.enter)).filter(\.asksTheWorld).isEmpty)
    #expect(state.notice?.contains("'nope' is not a status") == true, "\(state.notice ?? "")")
  }

  /// The panel's `L` relaunches the app: the paywall on screen goes with no close event, and the
  /// launch events follow.
  @Test func relaunchIsAKey() throws {
    var state = try Self.panel()
    let effects = AppModel.update(&state, .key(.character("L")))
    let names = effects.compactMap { if case .emit(let event) = $0 { event.name.rawValue } else { nil } }
    #expect(names == ["app_close", "app_open", "session_start", "user_attributes", "app_launch"], "\(effects)")
    #expect(state.session == nil && state.overlay?.debug == nil)
  }

  /// `o` types an offer code; enter asks the store to redeem it, as `redeem CODE` in a script.
  @Test func anOfferCodeIsTypedAndRedeemed() throws {
    var state = try Self.panel()
    _ = AppModel.update(&state, .key(.character("o")))
    #expect(state.overlay?.debug?.typing == .offerCode(""))
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("redeem      offer code▏"))
    for c in "ACMEFRIENDSx" { _ = AppModel.update(&state, .key(.character(c))) }
    _ = AppModel.update(&state, .key(.backspace))
    let effects = AppModel.update(&state, .key(.enter))
    guard case .debug(.store(.redeem(let code)), announce: true)? = effects.first else { Issue.record("expected a redeem, got \(effects)"); return }
    #expect(code == "ACMEFRIENDS")
    #expect(state.overlay?.debug?.typing == nil && state.overlay?.debug != nil)
    _ = AppModel.update(&state, .key(.character("o")))
    #expect(AppModel.update(&state, .key(.enter)).filter(\.asksTheWorld).isEmpty, "nothing typed, nothing redeemed")
    #expect(state.notice?.contains("no offer code typed") == true)
  }

  @Test func restorePurchasesIsAKey() throws {
    var state = try Self.panel()
    let effects = AppModel.update(&state, .key(.character("S")))
    #expect(effects.contains { if case .restore = $0 { true } else { false } }, "\(effects)")
  }

  /// Found by red-teaming: `9e99y` typed after `+` was taken (the number is finite), and the
  /// notice spelling it out trapped converting it to an integer. Durations longer than the dates
  /// a ledger holds are refused with a notice.
  @Test func aTypedDurationPastTheLedgersDatesIsRefused() throws {
    for typed in ["9e99y", "99999999999y", "1e400y"] {
      var state = try Self.panel()
      _ = AppModel.update(&state, .key(.character("+")))
      for c in typed { _ = AppModel.update(&state, .key(.character(c))) }
      #expect(state.overlay?.debug?.typing == .duration(typed))
      #expect(AppModel.update(&state, .key(.enter)).filter(\.asksTheWorld).isEmpty, "\(typed) is refused")
      #expect(state.notice == "'\(typed)' is longer than 8035y, the span of dates a ledger holds (1970 to 9999)",
              "\(state.notice ?? "no notice")")
    }
  }

  /// A duration that fits but would take the clock past 9999 (whose dates a ledger cannot hold)
  /// is refused by the runtime, which knows the clock: nothing moves, nothing is written.
  @Test func theRuntimeDoesNotMoveTheClockPastTheLedgersDates() async throws {
    let (project, clock, store, runtime) = try Self.storeRuntime()
    store.purchaseNow(try #require(project.catalog.product(id: "com.acme.pro.monthly")))
    runtime.send(.presentation(.open(paywallID: "onboarding", selected: nil)))
    await runtime.settle()
    for key in "d+8000y" { runtime.send(.key(.character(key))) }
    runtime.send(.key(.enter))
    await runtime.settle()
    #expect(runtime.state.notice == "the clock cannot go past 9999-12-31 23:59:59, the last date a ledger holds (it is 2026-01-01 00:00:00 now)",
            "\(runtime.state.notice ?? "no notice")")
    #expect(clock.now == SimulatedTimeSource.defaultStart)
    #expect(store.entries.count == 1)
    for key in "+7000y" { runtime.send(.key(.character(key))) }
    runtime.send(.key(.enter))
    await runtime.settle()
    #expect(runtime.state.notice == "clock advanced 7000 years")
    #expect(store.entries.count == 2 && store.derived.transactionCount > 83_000, "one run of renewals: \(store.derived.transactionCount)")
  }

  /// Issue 17 (polish): `m` said "clock advanced 730h", then "1M"; the notice spells the unit.
  @Test func aMonthIsSpelledAsAMonth() async throws {
    let (_, _, _, runtime) = try Self.storeRuntime()
    runtime.send(.presentation(.open(paywallID: "onboarding", selected: nil)))
    await runtime.settle()
    for key in "dm" { runtime.send(.key(.character(key))) }
    await runtime.settle()
    #expect(runtime.state.notice == "clock advanced 1 month")
    #expect(runtime.state.log.last == "! clock advanced 1 month")
    for key in "+2M" { runtime.send(.key(.character(key))) }
    runtime.send(.key(.enter))
    await runtime.settle()
    #expect(runtime.state.notice == "clock advanced 2 months")
    runtime.send(.key(.character("h")))
    await runtime.settle()
    #expect(runtime.state.notice == "clock advanced 1 hour")
  }

  /// Issue 16, item 9b: `M` and `y` typed after `+` are calendar units, as the store's periods
  /// are, so a month from Jan 1 is Feb 1 (365/12 days stopped on Jan 31 at 10:00).
  @Test func aTypedMonthIsACalendarMonth() throws {
    var state = try Self.panel()
    for (typed, expected) in [("1M", ClockDistance.months(1)), ("2y", .months(24)), ("36h", .seconds(36 * 3600))] {
      _ = AppModel.update(&state, .key(.character("+")))
      for c in typed { _ = AppModel.update(&state, .key(.character(c))) }
      guard case .debug(.advanceClock(let distance), announce: true)? = AppModel.update(&state, .key(.enter)).first else {
        Issue.record("\(typed): expected an advance"); continue
      }
      #expect(distance == expected, "\(typed)")
    }
    _ = AppModel.update(&state, .key(.character("+")))
    for c in "1.5M" { _ = AppModel.update(&state, .key(.character(c))) }
    #expect(AppModel.update(&state, .key(.enter)).filter(\.asksTheWorld).isEmpty)
    #expect(state.notice == "'1.5M': months (M) and years (y) take whole numbers; use days for the rest (e.g. 45d)")
    let start = SimulatedTimeSource.defaultStart
    #expect(StoreDates.format(ClockDistance.months(1).end(from: start)) == "2026-02-01 00:00:00")
    #expect(StoreDates.format(ClockDistance.months(12).end(from: start)) == "2027-01-01 00:00:00")
    let endOfJanuary = start.addingTimeInterval(30 * 86_400)
    #expect(StoreDates.format(ClockDistance.months(1).end(from: endOfJanuary)) == "2026-02-28 00:00:00")
    #expect(ClockDistance.months(1).description == "1M" && ClockDistance.months(24).description == "2y")
  }

  @Test func latencyTogglesOff() throws {
    var state = try Self.panel()
    state.store = StorePanel(clock: Date(), timeRate: "realtime", subscriptions: [], pending: [], nextEvent: nil,
                             usedIntroGroups: [], faults: ["latency 2s"])
    #expect(Self.action("t", &state) == .setLatency(seconds: 0))
  }

  /// A subscriber is not offered the group's trial again: the paywall opens without it.
  @Test func aUsedIntroOfferHidesTheTrialOnTheNextPaywall() throws {
    var state = AppState(project: try Fixtures.demoProject())
    var panel = StorePanel(clock: Date(), timeRate: "realtime", subscriptions: [], pending: [], nextEvent: nil,
                           usedIntroGroups: ["pro"], faults: [])
    _ = AppModel.update(&state, .storeChanged(panel))
    _ = AppModel.update(&state, .presentation(.open(paywallID: "onboarding", selected: nil)))
    #expect(state.session?.paywall.showsFreeTrial == false)
    let text = AppView.render(state, size: Size(width: 80, height: 24)).text
    #expect(!text.contains("Start my free trial") && text.contains("Continue"))
    panel.usedIntroGroups = []
    _ = AppModel.update(&state, .storeChanged(panel))
    state.presentation.session = nil
    _ = AppModel.update(&state, .presentation(.open(paywallID: "onboarding", selected: nil)))
    #expect(state.session?.paywall.showsFreeTrial == true)
  }

  /// The runtime carries the panel's actions out on the store and shows what happened.
  @Test func theRuntimePerformsStoreActionsAndShowsTheStore() async throws {
    let project = try Fixtures.demoProject()
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore()
    let store = SimulatedStore(catalog: project.catalog, status: status, clock: clock, directory: nil)
    let runtime = AppRuntime(state: AppState(project: project), controller: FaultInjectingController(store, clock: clock),
                             statusStore: status, clock: clock, statusCache: nil, store: store, timeRate: "month=30s") { _ in }
    runtime.send(.presentation(.open(paywallID: "onboarding", selected: nil)))
    await runtime.settle()
    runtime.send(.key(.character("d")))
    await runtime.settle()
    store.purchaseNow(try #require(project.catalog.product(id: "com.acme.pro.monthly")))
    runtime.send(.key(.character("c")))
    await runtime.settle()
    #expect(runtime.state.notice?.hasPrefix("auto-renewal off for com.acme.pro.monthly, ends 2026-02-01 00:00:00") == true,
            "\(runtime.state.notice ?? "")")
    runtime.send(.key(.character(">")))
    await runtime.settle()
    #expect(runtime.state.notice == "clock advanced to 2026-02-01 00:00:00 UTC")
    #expect(runtime.state.status == .inactive, "the jump reached the expiry")
    let panel = try #require(runtime.state.store)
    #expect(panel.timeRate == "month=30s" && panel.clock == clock.now)
    #expect(panel.subscriptions.first?.state == .expired)
    let text = AppView.render(runtime.state, size: Size(width: 80, height: 24)).text
    #expect(text.contains("store clock 2026-02-01 00:00:00 UTC (month=30s)"), "\(text)")
    #expect(text.contains("com.acme.pro.monthly  expired 2026-02-01 00:00:00 (autoRenewDisabled)"), "\(text)")
    runtime.send(.key(.character("g")))
    await runtime.settle()
    #expect(runtime.state.notice?.hasPrefix("no live subscription to resolve billing for") == true)
    runtime.send(.key(.character("D")))
    await runtime.settle()
    #expect(runtime.state.store?.faults == ["next response dropped"])
    #expect(AppView.render(runtime.state, size: Size(width: 80, height: 24)).text.contains("armed       next response dropped"))
  }

  /// `P` naming a product only the project's other store sells says which store sells it and how
  /// to follow that store, where it said the catalog had no such product; the line, longer than
  /// the status bar, goes to the log too.
  @Test func typingAnotherStoresProductSaysWhichStoreSellsIt() throws {
    let example = Fixtures.repositoryRoot.appendingPathComponent("Examples/cross-platform").path
    let ios = try #require(ProjectLoader.load(path: example, catalogPath: nil, sdk: SDKChoice(platform: .ios)).project)
    var typing: DebugPanel.Typing? = .productID("acme_pro:annual:sw-auto")
    let told = DebugPanel.typeProductID(.enter, "acme_pro:annual:sw-auto", &typing, catalog: ios.catalog)
    guard case .tell(let line)? = told.first, told.count == 1 else {
      Issue.record("one line for the status bar and the log expected: \(told)")
      return
    }
    #expect(line.hasPrefix("'acme_pro:annual:sw-auto': only Google Play sells it (")
            && line.hasSuffix("--platform android plays that store; press P to try again"), "\(line)")
    #expect(typing == nil)
    // An id no store sells still gets the did-you-mean.
    let typo = DebugPanel.typeProductID(.enter, "com.acme.pro.anual", &typing, catalog: ios.catalog)
    #expect(typo == [OverlayRequest.notice("no product 'com.acme.pro.anual' in the catalog; did you mean 'com.acme.pro.annual'?; press P to try again")])
  }
}

extension AppEffect {
  /// Whether the effect changes something outside the app (not the notice's own timer).
  var asksTheWorld: Bool {
    if case .expireNotice = self { false } else { true }
  }
}
