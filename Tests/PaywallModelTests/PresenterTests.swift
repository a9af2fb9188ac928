import Foundation
import Testing
import PaywallModel

/// `register` and what follows it, through `Presenter.update` alone: no terminal, no runtime. The
/// effects it asks for are checked directly, as `PaywallFlowTests` checks the flow's.
@Suite("Presenter")
struct PresenterTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func demoProject(campaigns: Bool = true) throws -> Project {
    let result = ProjectLoader.load(path: Fixture.paywallsDirectory)
    var project = try #require(result.project, "\(result.diagnostics)")
    if !campaigns { project.campaigns = [] }
    return project
  }

  static func home(_ status: SubscriptionStatus = .inactive, campaigns: Bool = true) throws -> PresentationState {
    PresentationState(project: try demoProject(campaigns: campaigns), status: status, assignments: AssignmentBook(userID: "tester"))
  }

  static func events(_ effects: [PresentationEffect]) -> [String] {
    emitted(effects).map(\.name.rawValue)
  }

  static func emitted(_ effects: [PresentationEffect]) -> [PaywallEvent] {
    effects.compactMap { if case .emit(let e) = $0 { e } else { nil } }
  }

  @discardableResult
  static func send(_ action: PresentationAction, _ state: inout PresentationState) -> [PresentationEffect] {
    Presenter.update(&state, action, now: now)
  }

  @Test func registerWithoutCampaignsSkipsAndRunsTheFeature() throws {
    var state = try Self.home(campaigns: false)
    let effects = Self.send(.register(placement: "campaign_trigger", params: ["from": "home"]), &state)
    #expect(Self.events(effects) == ["paywallPresentationRequest", "handler.onSkip", "feature.run"])
    // The SDK drops a built-in name with no callback (`TrackingLogic.checkNotSuperwallEvent`).
    let builtIn = Self.send(.register(placement: "paywall_open", params: [:]), &state)
    #expect(Self.events(builtIn) == [])
    #expect(state.outcome?.kind == .ignoredBuiltInName)
    Self.send(.open(paywallID: "onboarding", selected: nil), &state)
    let busy = Self.send(.register(placement: "x", params: [:]), &state)
    #expect(Self.events(busy) == ["paywallPresentationRequest", "handler.onError"])
    let refusal = try #require(Self.emitted(busy).first)
    #expect(refusal["status"] == "no_presentation" && refusal["status_reason"] == "paywall_already_presented")
  }

  /// The demo with one campaign on `placement`, presenting `paywall` to everyone.
  static func launching(_ placement: String, _ paywall: String = "plans", status: SubscriptionStatus = .inactive) throws -> PresentationState {
    var project = try demoProject()
    project.campaigns.append(Campaign(placement: placement, audiences: [
      Audience(filter: nil, outcome: .paywalls([.init(paywallID: paywall, percent: 100)], holdout: 0)),
    ]))
    return PresentationState(project: project, status: status, assignments: AssignmentBook(userID: "tester"))
  }

  /// A launch tracks the SDK's events in its order (`Storage.recordAppInstall`, then
  /// `AppSessionManager.sessionCouldRefresh`), and a campaign on `app_launch` presents with no
  /// handler and no feature (an implicit trigger). Before, nothing was tracked at launch and such
  /// a campaign was an error ("never fires a campaign").
  @Test func aLaunchTracksTheSDKsEventsAndPresentsALaunchCampaign() throws {
    var state = try Self.launching("app_launch")
    let effects = Self.send(.launch(firstInstall: true), &state)
    #expect(Self.events(effects) == ["app_install", "app_open", "session_start", "user_attributes", "app_launch", "first_seen",
                                     "trigger_fire", "paywallPresentationRequest", "paywall_open"], "\(Self.events(effects))")
    #expect(state.session?.id == "plans")
    #expect(!Self.events(effects).contains { $0.hasPrefix("handler.") || $0 == "feature.run" })
    let install = try #require(Self.emitted(effects).first)
    #expect(install["using_purchase_controller"] == true && install["application_installed_at"] != nil, "\(install)")
    // A later launch is not an install; with the paywall still up, the campaign is refused (logged only).
    let again = Self.send(.launch(firstInstall: false), &state)
    #expect(Self.events(again) == ["app_open", "session_start", "user_attributes", "app_launch", "paywallPresentationRequest"], "\(Self.events(again))")
    #expect(Self.emitted(again).last?["status_reason"] == "paywall_already_presented")
    // A relaunch: the paywall goes with the process (no close event), then the launch presents again.
    let relaunched = Self.send(.relaunch, &state)
    #expect(Self.events(relaunched) == ["app_close", "app_open", "session_start", "user_attributes", "app_launch", "trigger_fire", "paywallPresentationRequest", "paywall_open"],
            "\(Self.events(relaunched))")
  }

  /// `session_start` presents before `app_launch` is tracked as a trigger (the SDK's order); with
  /// no campaign on either, a launch presents nothing; with the status unknown, the trigger waits
  /// for one and a timeout reaches no handler.
  @Test func launchTriggersFollowTheSDKsOrderAndWaitForAStatus() throws {
    var state = try Self.launching("session_start", "onboarding")
    let effects = Self.send(.launch(firstInstall: false), &state)
    #expect(state.session?.id == "onboarding")
    #expect(Self.emitted(effects).first { $0.name == .triggerFire }?["trigger_name"] == "session_start")
    var quiet = try Self.home()
    #expect(Self.events(Self.send(.launch(firstInstall: false), &quiet)) == ["app_open", "session_start", "user_attributes", "app_launch"])
    var unknown = try Self.launching("app_launch", status: .unknown)
    let waits = Self.send(.launch(firstInstall: false), &unknown)
    guard case .scheduleStatusTimeout(let id, _)? = waits.last else {
      Issue.record("expected a wait for the status, got \(waits)")
      return
    }
    #expect(Self.events(Self.send(.statusTimedOut(registrationID: id), &unknown)) == ["paywallPresentationRequest"], "no handler hears it")
  }

  /// `register` drops every name of the SDK's own events, not only those paywall-tui tracks
  /// (`TrackingLogic.checkNotSuperwallEvent` goes through every `SuperwallEventObjc`). Before,
  /// `paywall_page_view` and `app_launch` registered as any placement.
  @Test(arguments: ["paywall_page_view", "app_launch", "customerInfo_didChange", "review_requested"])
  func registerDropsEveryBuiltInName(_ name: String) throws {
    var state = try Self.launching(name == "app_launch" ? "app_launch" : "onboarding")
    #expect(Self.events(Self.send(.register(placement: name, params: [:]), &state)) == [])
    #expect(state.outcome?.kind == .ignoredBuiltInName)
  }

  @Test func anUnknownStatusWaitsThenGoesOnOrFails() throws {
    var state = try Self.home(.unknown)
    let wait = Self.send(.register(placement: "onboarding", params: [:]), &state)
    guard case .scheduleStatusTimeout(let id, 5)? = wait.first else {
      Issue.record("expected a 5 s timeout, got \(wait)")
      return
    }
    let known = Self.send(.statusChanged(.inactive), &state)
    #expect(Self.events(known).contains("paywall_open"))
    #expect(Self.send(.statusTimedOut(registrationID: id), &state).isEmpty, "a timeout after the status came is ignored")

    var late = try Self.home(.unknown)
    guard case .scheduleStatusTimeout(let lateID, _)? = Self.send(.register(placement: "onboarding", params: [:]), &late).first else {
      Issue.record("expected a timeout")
      return
    }
    let failed = Self.send(.statusTimedOut(registrationID: lateID), &late)
    #expect(Self.events(failed) == ["paywallPresentationRequest", "handler.onError"])
    // Issue 17, item 14: the tester is told how to set a status, not only that none came.
    #expect(Self.emitted(failed).last?["message"]?.stringValue?.contains("Set one: --status inactive") == true)
    let timeout = try #require(Self.emitted(failed).first)
    #expect(timeout["status"] == "timeout" && timeout["status_reason"] == "subscriptionStatus_timeout")
    #expect(late.session == nil)
    #expect(Self.events(Self.send(.statusChanged(.inactive), &late)) == ["subscriptionStatus_didChange"], "nothing waits any more")
  }

  /// The win-back an abandoned purchase opens takes over the first `register`: the SDK hands the
  /// last presentation's state publisher on (`Analytics/Internal Tracking/Tracking.swift`), so the
  /// handler hears `onPresent` for the win-back and its result; the win-back never chains again
  /// (`TrackingLogic.canTriggerPaywall`).
  @Test func anAbandonedPurchaseChainsToTheWinBackOnce() throws {
    var state = try Self.home()
    Self.send(.register(placement: "onboarding", params: [:]), &state)
    Self.send(.paywall(.purchase(slot: nil)), &state)
    let abandon = Self.send(.purchaseFinished(.cancelled), &state)
    #expect(Self.events(abandon) == ["transaction_abandon", "handler.onWillDismiss", "paywall_close", "handler.onDismiss",
                                     "trigger_fire", "paywallPresentationRequest", "paywall_open", "handler.onPresent"])
    #expect(state.session?.id == "winback")
    #expect(state.registration?.placement == "onboarding")
    Self.send(.paywall(.purchase(slot: nil)), &state)
    let again = Self.send(.purchaseFinished(.cancelled), &state)
    #expect(Self.events(again) == ["transaction_abandon"], "a paywall shown by an implicit placement never chains")
    Self.send(.paywall(.purchase(slot: nil)), &state)
    let bought = Self.send(.purchaseFinished(.purchased), &state)
    #expect(Self.events(bought).suffix(4) == ["handler.onWillDismiss", "paywall_close", "handler.onDismiss", "feature.run"])
    let dismiss = bought.compactMap { if case .emit(let e) = $0, e.name.rawValue == "handler.onDismiss" { e } else { nil } }.first
    #expect(dismiss?["placement"] == "onboarding" && dismiss?["paywall_id"] == "winback" && dismiss?["result"] == "purchased")
  }

  /// The replacement takes the first paywall's gating (`PaywallOverrides(featureGatingBehavior:)`
  /// in `Tracking.swift`): a non-gated paywall opened from a gated one does not run the feature when
  /// declined, and one opened from a non-gated paywall does.
  @Test(arguments: [("export_pdf", false), ("onboarding", true)])
  func theReplacementKeepsTheFirstPaywallsGating(placement: String, runs: Bool) throws {
    var project = try Self.demoProject()
    project.campaigns = project.campaigns.map { campaign in
      guard campaign.placement == "transaction_abandon" else { return campaign }
      return Campaign(placement: "transaction_abandon", audiences: [Audience(filter: nil, outcome: .paywalls([.init(paywallID: "onboarding", percent: 100)], holdout: 0))])
    }
    var state = PresentationState(project: project, status: .inactive, assignments: AssignmentBook(userID: "tester"))
    Self.send(.register(placement: placement, params: [:]), &state)
    Self.send(.paywall(.purchase(slot: nil)), &state)
    Self.send(.purchaseFinished(.cancelled), &state)
    #expect(state.session?.id == "onboarding")
    #expect(state.registration?.placement == placement)
    let decline = Self.send(.paywall(.close), &state)
    #expect(Self.events(decline).contains("feature.run") == runs)
  }

  /// The app's own `register` while a paywall is up is refused (`CheckNoPaywallAlreadyPresented.swift`).
  @Test func aRegisterOverAPaywallIsRefused() throws {
    var state = try Self.home()
    Self.send(.open(paywallID: "onboarding", selected: nil), &state)
    let refused = Self.send(.register(placement: "export_pdf", params: [:]), &state)
    #expect(Self.events(refused) == ["paywallPresentationRequest", "handler.onError"])
    #expect(Self.emitted(refused).last?["code"]?.stringValue == "paywallAlreadyPresented")
    #expect(state.session?.id == "onboarding")
  }

  /// A paywall's placement button is the SDK's `custom_placement` (`Superwall.swift`
  /// `eventDidOccur(.customPlacement)`), never a register: it is tracked, and only when its
  /// placement's campaign would present a paywall does anything follow (`TrackingLogic
  /// .canTriggerPaywall`): the paywall closes for the next one, which answers to the first register
  /// with the first paywall's gating (`Tracking.swift`). No `onSkip`, no `onError`, no feature.
  @Test func aPlacementButtonChainsOrDoesNothing() throws {
    var state = try Self.home()
    Self.send(.register(placement: "onboarding", params: [:]), &state)
    let nothing = Self.send(.button(.placement("no_campaign")), &state)
    #expect(Self.events(nothing) == ["custom_placement"], "no campaign: tracked, nothing else")
    #expect(Self.emitted(nothing).first?["name"]?.stringValue == "no_campaign")
    #expect(Self.emitted(nothing).first?["paywall_id"]?.stringValue == "onboarding")
    #expect(state.session?.id == "onboarding")

    let chained = Self.send(.button(.placement("export_pdf")), &state)
    #expect(Self.events(chained) == ["custom_placement", "handler.onWillDismiss", "paywall_close", "handler.onDismiss",
                                     "trigger_fire", "paywallPresentationRequest", "paywall_open", "handler.onPresent"])
    #expect(Self.emitted(chained).first { $0.name == .paywallClose }?["close_reason"]?.stringValue == "forNextPaywall")
    #expect(Self.emitted(chained).last?["placement"]?.stringValue == "onboarding", "the first register hears onPresent")
    #expect(state.session?.id == "plans")
    #expect(state.registration?.placement == "onboarding")
    // plans is gated; onboarding, whose gating it inherits, is not: declining runs the feature.
    let declined = Self.send(.paywall(.close), &state)
    #expect(Self.events(declined).last == "feature.run")

    // A paywall opened directly answers to no register: the chain shows the next one, no handler hears it.
    var direct = try Self.home()
    Self.send(.open(paywallID: "onboarding", selected: nil), &direct)
    let unowned = Self.send(.button(.placement("export_pdf")), &direct)
    #expect(Self.events(unowned) == ["custom_placement", "paywall_close", "trigger_fire", "paywallPresentationRequest", "paywall_open"])
    #expect(direct.session?.id == "plans")
  }

  /// `canTriggerPaywall` refuses a chain from a paywall that `transaction_abandon`,
  /// `transaction_fail`, `paywall_decline` or `custom_placement` presented; one a custom placement
  /// named `export_pdf` presented was presented by `export_pdf` (the event's raw name), so it chains.
  @Test func aPlacementButtonOnAnImplicitlyPresentedPaywallDoesNothing() throws {
    var state = try Self.home()
    Self.send(.register(placement: "onboarding", params: [:]), &state)
    Self.send(.button(.placement("export_pdf")), &state)
    #expect(state.session?.id == "plans")
    Self.send(.paywall(.purchase(slot: nil)), &state)
    let abandoned = Self.send(.purchaseFinished(.cancelled), &state)
    #expect(state.session?.id == "winback", "a paywall a custom placement presented chains on transaction_abandon")
    #expect(Self.events(abandoned).last == "handler.onPresent")
    let refused = Self.send(.button(.placement("export_pdf")), &state)
    #expect(Self.events(refused) == ["custom_placement"])
    #expect(state.session?.id == "winback")
  }

  /// An implicit placement's filters read what the SDK gives them (`TrackingLogic.processParameters`
  /// with the event's `audienceFilterParams`): the paywall's `PaywallInfo.audienceFilterParams()`
  /// and, for an abandon, `abandoned_product_id` / `abandoned_product_<attr>`; the event's own
  /// parameters only under `$` (`$product_id`), so `params.product_id` is missing on a device.
  static func abandonCampaign(_ filter: String) throws -> PresentationState {
    var project = try Self.demoProject()
    project.campaigns = project.campaigns.filter { $0.placement != "transaction_abandon" } + [
      Campaign(placement: "transaction_abandon", audiences: [Audience(filter: try AudienceFilter(parsing: filter),
                                                                     outcome: .paywalls([.init(paywallID: "winback", percent: 100)], holdout: 0))])
    ]
    return PresentationState(project: project, status: .inactive, assignments: AssignmentBook(userID: "tester"))
  }

  @Test(arguments: [
    (#"params.abandoned_product_id == "com.acme.pro.annual""#, true),
    (#"params.abandoned_product_period == "year" && params.abandoned_product_raw_price == 59.99"#, true),
    (#"params["$product_id"] == "com.acme.pro.annual" && params["$is_standard_event"] == true"#, true),
    (#"params.event_name == "transaction_abandon" && params.paywall_id == "onboarding" && params.presented_by_event_name == "onboarding""#, true),
    (#"params.feature_gating == "NON_GATED" && params.presented_by == "placement" && params.is_free_trial_available == true"#, true),
    (#"params.paywall_product_ids == "com.acme.pro.annual,com.acme.pro.monthly,com.acme.pro.lifetime" && params.secondary_product_id == "com.acme.pro.monthly""#, true),
    (#"params.product_id == "com.acme.pro.annual""#, false),
    (#"params.slot == "primary""#, false),
  ])
  func anImplicitCampaignFiltersOnTheSDKsParameters(filter: String, presents: Bool) throws {
    var state = try Self.abandonCampaign(filter)
    Self.send(.register(placement: "onboarding", params: [:]), &state)
    Self.send(.paywall(.purchase(slot: nil)), &state)  // the annual plan is selected
    let abandon = Self.send(.purchaseFinished(.cancelled), &state)
    #expect((state.session?.id == "winback") == presents, "\(Self.events(abandon))")
    if presents {
      #expect(Self.events(abandon).suffix(4) == ["trigger_fire", "paywallPresentationRequest", "paywall_open", "handler.onPresent"])
      #expect(state.presentedBy?.params["abandoned_product_id"] == "com.acme.pro.annual")
      #expect(state.registration?.placement == "onboarding", "the win-back answers to the first register")
    } else {
      #expect(Self.events(abandon) == ["transaction_abandon"], "the paywall stays")
    }
  }

  @Test func anImplicitCampaignFiltersOnTheAbandonedProduct() throws {
    var monthly = try Self.abandonCampaign(#"params.abandoned_product_id == "com.acme.pro.annual""#)
    Self.send(.register(placement: "onboarding", params: [:]), &monthly)
    Self.send(.paywall(.select(slot: "secondary")), &monthly)
    Self.send(.paywall(.purchase(slot: nil)), &monthly)
    let kept = Self.send(.purchaseFinished(.cancelled), &monthly)
    #expect(Self.events(kept) == ["transaction_abandon"], "no audience for the monthly plan: the paywall stays")
    #expect(monthly.session?.id == "onboarding")
  }

  /// Every register's params carry `event_name`, `$event_name` and `$is_standard_event` (false);
  /// a param of the app's own named with a `$` is dropped (`TrackingLogic.processParameters`).
  @Test func aRegistersParamsCarryTheSDKsKeys() throws {
    var project = try Self.demoProject()
    let sdkKeys = try AudienceFilter(parsing: #"params.event_name == "export_pdf" && params["$event_name"] == "export_pdf" && params["$is_standard_event"] == false && params.own == "x""#)
    let dollar = try AudienceFilter(parsing: #"params["$own"] == "y""#)
    project.campaigns = [
      Campaign(placement: "export_pdf", audiences: [Audience(filter: sdkKeys, outcome: .paywalls([.init(paywallID: "plans", percent: 100)], holdout: 0))]),
      Campaign(placement: "beta_sync", audiences: [Audience(filter: dollar, outcome: .paywalls([.init(paywallID: "plans", percent: 100)], holdout: 0))]),
    ]
    var state = PresentationState(project: project, status: .inactive, assignments: AssignmentBook(userID: "tester"))
    let dropped = Self.send(.register(placement: "beta_sync", params: ["$own": "y"]), &state)
    #expect(Self.events(dropped).contains("handler.onSkip"), "a $ param never reaches the filter")
    Self.send(.register(placement: "export_pdf", params: ["own": "x", "$own": "y"]), &state)
    #expect(state.session?.id == "plans")
  }

  @Test func statusChangesAreEventsAndAreSaved() throws {
    var state = try Self.home(.unknown)
    let effects = Self.send(.statusChanged(.active(["pro"])), &state)
    #expect(Self.events(effects) == ["subscriptionStatus_didChange"])
    #expect(effects.contains { if case .saveStatus(.active(["pro"])) = $0 { true } else { false } })
    #expect(Self.send(.statusChanged(.active(["pro"])), &state).isEmpty, "no event for the same status")
  }

  // MARK: - Superwall.shared.purchase(product) / restorePurchases() outside a paywall

  /// With the app's purchase controller the SDK returns the result before tracking anything or
  /// alerting (`StoreKit/Transactions/TransactionManager.swift`): UI tests T134/T136 (restore), and
  /// the advanced configuration T130/T131 skip. The result is ours to see: `call.*`.
  @Test func aCallWithAPurchaseControllerTracksNothing() throws {
    var state = try Self.home()
    let monthly = try #require(state.project.catalog.product(id: "com.acme.pro.monthly"))
    let start = Self.send(.callPurchase(monthly), &state)
    #expect(Self.events(start) == [])
    #expect(start.contains(.purchase(monthly, slot: "")))
    let failed = Self.send(.purchaseFinished(.failed(StoreError.networkError)), &state)
    #expect(Self.events(failed) == ["call.purchase"])
    #expect(state.callAlert == nil && state.session == nil)
    #expect(Self.send(.callRestore, &state).contains(.restore))
    let restored = Self.send(.restoreFinished(.restored, status: .inactive), &state)
    #expect(Self.events(restored) == ["call.restorePurchases"])
    #expect(state.callAlert == nil)
  }

  /// Without a purchase controller the SDK tracks the transaction with no paywall and alerts over
  /// the app (T130–T133, T165–T168); a restore with no entitlement still returns `restored`.
  @Test func aCallWithoutAPurchaseControllerTracksAndAlerts() throws {
    var state = try Self.home(campaigns: false)
    state.hasPurchaseController = false
    let monthly = try #require(state.project.catalog.product(id: "com.acme.pro.monthly"))
    #expect(Self.events(Self.send(.callPurchase(monthly), &state)) == ["transaction_start"])
    let bought = Self.send(.purchaseFinished(.purchased), &state)
    #expect(Self.events(bought) == ["transaction_complete", "subscription_start", "call.purchase"])
    Self.send(.callPurchase(monthly), &state)
    #expect(Self.events(Self.send(.purchaseFinished(.failed(StoreError.userCancelled)), &state)) == ["transaction_abandon", "call.purchase"])
    Self.send(.callPurchase(monthly), &state)
    #expect(Self.events(Self.send(.purchaseFinished(.pending), &state)) == ["transaction_fail", "call.purchase"])
    #expect(state.callAlert?.kind == .pendingApproval)
    Self.send(.dismissCallAlert, &state)
    Self.send(.callPurchase(monthly), &state)
    #expect(Self.events(Self.send(.purchaseFinished(.failed(StoreError.networkError)), &state)) == ["transaction_fail", "call.purchase"])
    #expect(state.callAlert?.kind == .purchaseFailed && state.callAlert?.button == "Done")
    Self.send(.dismissCallAlert, &state)
    #expect(Self.events(Self.send(.callRestore, &state)) == ["restore_start"])
    let failed = Self.send(.restoreFinished(.restored, status: .inactive), &state)
    #expect(Self.events(failed) == ["restore_fail", "call.restorePurchases"])
    let returned = failed.compactMap { if case .emit(let e) = $0, e.name == .callRestorePurchases { e } else { nil } }.first
    #expect(returned?["result"] == "restored")
    #expect(state.callAlert?.kind == .restoreFailed)
    Self.send(.dismissCallAlert, &state)
    Self.send(.callRestore, &state)
    #expect(Self.events(Self.send(.restoreFinished(.restored, status: .active(["pro"])), &state))
            == ["restore_complete", "transaction_restore", "call.restorePurchases"])
    #expect(state.callAlert == nil && state.session == nil)
  }

  /// Only the SDK's own event names are refused as placements: ours (`feature.run`, `call.purchase`…)
  /// are ordinary names to the SDK (`TrackingLogic.checkNotSuperwallEvent` reads `SuperwallEvent`).
  @Test(arguments: ["feature.run", "handler.onDismiss", "call.purchase", "controller_error"])
  func ourOwnEventNamesAreOrdinaryPlacements(_ name: String) throws {
    var state = try Self.home(campaigns: false)
    let effects = Self.send(.register(placement: name, params: [:]), &state)
    #expect(Self.events(effects) == ["paywallPresentationRequest", "handler.onSkip", "feature.run"])
    #expect(state.outcome?.kind != .ignoredBuiltInName)
  }

  /// A close in `PaywallViewController.swift`'s order: `dismiss` tracks the decline,
  /// `viewWillDisappear` sends `willDismiss`, `viewDidDisappear` tracks `paywall_close` and sends
  /// `dismissed`, on which the register's sink runs the feature. The handler hears `onWillDismiss`
  /// from SDK 4.9 (`PaywallState.willDismiss`); before, only the delegate did.
  @Test func aCloseGoesDeclineWillDismissCloseDismissFeature() throws {
    var state = try Self.home()
    Self.send(.register(placement: "onboarding", params: [:]), &state)
    #expect(Self.events(Self.send(.paywall(.close), &state))
            == ["paywall_decline", "handler.onWillDismiss", "paywall_close", "handler.onDismiss", "feature.run"])
    Self.send(.register(placement: "export_pdf", params: [:]), &state)
    Self.send(.paywall(.purchase(slot: nil)), &state)
    #expect(Self.events(Self.send(.purchaseFinished(.purchased), &state)).suffix(4)
            == ["handler.onWillDismiss", "paywall_close", "handler.onDismiss", "feature.run"])
    for sdk in ["3", "4.8"] {
      var older = try Self.home()
      older.options.sdk = try SDKVersion.parse(sdk).get()
      Self.send(.register(placement: "onboarding", params: [:]), &older)
      #expect(Self.events(Self.send(.paywall(.close), &older)) == ["paywall_decline", "paywall_close", "handler.onDismiss", "feature.run"],
              "SDK \(sdk)")
    }
  }

  /// A campaign on `transaction_abandon` after a `purchase(product)` call with no purchase
  /// controller presents only once a paywall has been presented: `Tracking.swift` returns early
  /// while `presentationItems.last` is nil.
  @Test func anAbandonedCallPresentsOnlyAfterAPaywallWasShown() throws {
    var state = try Self.home()
    state.hasPurchaseController = false
    let monthly = try #require(state.project.catalog.product(id: "com.acme.pro.monthly"))
    Self.send(.callPurchase(monthly), &state)
    #expect(Self.events(Self.send(.purchaseFinished(.cancelled), &state)) == ["transaction_abandon", "call.purchase"])
    #expect(state.session == nil && !state.hasPresentedPaywall)
    Self.send(.open(paywallID: "onboarding", selected: nil), &state)
    Self.send(.paywall(.close), &state)
    #expect(state.session == nil && state.hasPresentedPaywall)
    Self.send(.callPurchase(monthly), &state)
    let after = Self.send(.purchaseFinished(.failed(StoreError.userCancelled)), &state)
    #expect(Array(Self.events(after).prefix(2)) == ["transaction_abandon", "call.purchase"])
    #expect(state.session?.id == "winback")
    #expect(!Self.events(after).contains("handler.onPresent"), "it answers to no register")
  }

  /// The answer goes to whoever asked: a call's result never reaches a paywall on screen, and
  /// while one purchase runs neither the paywall nor another call starts a second.
  @Test func aCallsResultIsNotThePaywalls() throws {
    var state = try Self.home(campaigns: false)
    let monthly = try #require(state.project.catalog.product(id: "com.acme.pro.monthly"))
    Self.send(.open(paywallID: "onboarding", selected: nil), &state)
    Self.send(.callPurchase(monthly), &state)
    #expect(Self.send(.paywall(.purchase(slot: nil)), &state).isEmpty, "one purchase at a time")
    #expect(Self.send(.callRestore, &state).isEmpty)
    let done = Self.send(.purchaseFinished(.purchased), &state)
    #expect(Self.events(done) == ["call.purchase"])
    #expect(state.session?.isDismissed == false && state.session?.isBusy == false, "the paywall stays, untouched")
    Self.send(.paywall(.purchase(slot: nil)), &state)
    #expect(Self.send(.callPurchase(monthly), &state).isEmpty, "the paywall's purchase is in flight")
    #expect(Self.events(Self.send(.purchaseFinished(.cancelled), &state)) == ["transaction_abandon"])
  }
}
