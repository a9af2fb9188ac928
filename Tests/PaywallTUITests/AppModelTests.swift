import Foundation
import PaywallModel
import PaywallTesting
import Testing
@testable import TerminalCore
@testable import PaywallUI

/// Keys through `AppModel.update`, with no terminal and no controller: the effects it asks for
/// are checked directly.
@Suite("App model")
struct AppModelTests {
  static func opened(_ paywall: String = "onboarding", campaigns: Bool = true) throws -> AppState {
    var state = AppState(project: campaigns ? try Fixtures.demoProject() : try Fixtures.demoProjectWithoutCampaigns())
    _ = AppModel.update(&state, .presentation(.open(paywallID: paywall, selected: nil)))
    return state
  }

  static func events(_ effects: [AppEffect]) -> [String] {
    effects.compactMap { if case .emit(let e) = $0 { e.name.rawValue } else { nil } }
  }

  @Test func numberKeysAndArrowsSelectProducts() throws {
    var state = try Self.opened()
    _ = AppModel.update(&state, .key(.character("2")))
    #expect(state.session?.selectedSlot == "secondary")
    _ = AppModel.update(&state, .key(.right))
    #expect(state.session?.selectedSlot == "tertiary")
    _ = AppModel.update(&state, .key(.right))
    #expect(state.session?.selectedSlot == "tertiary", "no wrap past the last product")
    _ = AppModel.update(&state, .key(.left))
    _ = AppModel.update(&state, .key(.left))
    #expect(state.session?.selectedSlot == "primary")
    _ = AppModel.update(&state, .key(.character("9")))
    #expect(state.session?.selectedSlot == "primary", "no slot 9")
  }

  /// The demo's onboarding paywall shows its free-trial copy whichever product is selected, as the
  /// SDK does (`AddPaywallProducts.swift`); selecting a product without a trial says so in the log, once.
  @Test func trialCopyOverAProductWithoutATrialIsLogged() throws {
    var state = try Self.opened()
    let note = "! free-trial copy shows while 'secondary' (no trial) is selected"
    #expect(!state.log.contains { $0.hasPrefix("! free-trial copy") }, "the annual plan has a trial")
    _ = AppModel.update(&state, .key(.character("2")))
    #expect(state.log.filter { $0.hasPrefix(note) }.count == 1, "\(state.log)")
    _ = AppModel.update(&state, .key(.character("2")))
    #expect(state.log.filter { $0.hasPrefix(note) }.count == 1, "not again for the same selection")
  }

  @Test func enterBuysTheSelectedProductFromTheFirstPurchaseButton() throws {
    var state = try Self.opened()
    _ = AppModel.update(&state, .key(.character("3")))
    let effects = AppModel.update(&state, .key(.enter))
    #expect(Self.events(effects) == ["transaction_start"])
    #expect(effects.contains { if case .purchase(let p, "tertiary") = $0 { p.id == "com.acme.pro.lifetime" } else { false } })
    #expect(AppModel.update(&state, .key(.enter)).isEmpty, "a second press while in flight does nothing")
  }

  @Test func tabWalksTheFocusAndEnterActivatesIt() throws {
    var state = try Self.opened()
    #expect(state.focus == .button(4))
    _ = AppModel.update(&state, .key(.tab))
    #expect(state.focus == .button(5))
    let restore = AppModel.update(&state, .key(.enter))
    #expect(Self.events(restore) == ["restore_start"])
    #expect(restore.contains { if case .restore = $0 { true } else { false } })
  }

  @Test func focusWrapsBothWays() throws {
    var state = try Self.opened()
    _ = AppModel.update(&state, .key(.backTab))
    #expect(state.focus == .products)
    _ = AppModel.update(&state, .key(.up))
    #expect(state.focus == .button(6), "wraps to the last button")
    _ = AppModel.update(&state, .key(.down))
    #expect(state.focus == .products)
    _ = AppModel.update(&state, .key(.enter))
    #expect(state.focus == .button(4), "enter on the picker moves to the purchase button, buying nothing")
  }

  @Test func qClosesWithDeclineAndEnterReopens() throws {
    var state = try Self.opened(campaigns: false)
    let close = AppModel.update(&state, .key(.character("q")))
    #expect(Self.events(close) == ["paywall_decline", "paywall_close"])
    #expect(state.session == nil)
    #expect(state.closed?.result == .declined)
    let reopen = AppModel.update(&state, .key(.enter))
    #expect(Self.events(reopen) == ["paywall_open"])
    #expect(state.session?.id == "onboarding")
    _ = AppModel.update(&state, .key(.escape))
    let quit = AppModel.update(&state, .key(.character("q")))
    #expect(state.quitRequested)
    #expect(quit.contains { if case .quit = $0 { true } else { false } })
  }

  @Test func alertsTakeTheKeysUntilDismissed() throws {
    var state = try Self.opened()
    _ = AppModel.update(&state, .key(.enter))
    _ = AppModel.update(&state, .presentation(.purchaseFinished(.pending)))
    #expect(state.session?.alert?.title == "Waiting for Approval")
    #expect(AppModel.update(&state, .key(.character("q"))).isEmpty)
    #expect(state.session != nil)
    _ = AppModel.update(&state, .key(.enter))
    #expect(state.session?.alert == nil)
  }

  @Test func statusChangesAreEventsAndAreSaved() throws {
    var state = try Self.opened()
    let effects = AppModel.update(&state, .presentation(.statusChanged(.active(["pro"]))))
    #expect(Self.events(effects) == ["subscriptionStatus_didChange"])
    #expect(effects.contains { if case .saveStatus(.active(["pro"])) = $0 { true } else { false } })
    #expect(AppModel.update(&state, .presentation(.statusChanged(.active(["pro"])))).isEmpty, "no event for the same status")
    #expect(state.log.last == "subscriptionStatus_didChange status=ACTIVE active_entitlement_ids=pro")
  }

  /// The ask controller's question goes with the app's process: a relaunch or a reinstall answers
  /// it as a cancel and closes it, where it stayed up for a key to make the new install active.
  @Test(arguments: [PresentationAction.relaunch, .reinstall(userID: "anonymous")])
  func aRelaunchOrReinstallTakesTheAskDialogWithIt(_ action: PresentationAction) throws {
    var state = try Self.opened()
    let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
    _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 7, question: .purchase(product))))
    #expect(state.overlay?.ask != nil)
    let effects = AppModel.update(&state, .presentation(action))
    #expect(state.overlay?.ask == nil)
    #expect(effects.first == .answerAsk(id: 7, AskPurchaseController.Answer(outcome: .cancelled, message: "the app was killed")), "\(effects)")
    #expect(effects.contains(.processEnded), "the controller's calls in flight end with the process: \(effects)")
    #expect(AppModel.update(&state, .key(.enter)).allSatisfy { if case .answerAsk = $0 { false } else { true } })
  }

  @Test func askDialogChoosesResultEntitlementsAndMessage() throws {
    var state = try Self.opened()
    let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
    _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 7, question: .purchase(product))))
    #expect(state.overlay?.ask?.granted == ["pro"])
    // 4 picks "failed"; then type a message on the message row.
    _ = AppModel.update(&state, .key(.character("4")))
    _ = AppModel.update(&state, .key(.tab))
    _ = AppModel.update(&state, .key(.tab))
    for c in "No card" { _ = AppModel.update(&state, .key(c == " " ? .space : .character(c))) }
    let effects = AppModel.update(&state, .key(.enter))
    guard case .answerAsk(let id, let answer)? = effects.first else {
      Issue.record("no answer: \(effects)")
      return
    }
    #expect(id == 7 && answer.outcome == .failed && answer.message == "No card" && answer.entitlements.isEmpty)
    #expect(state.overlay?.ask == nil)
  }

  /// On the error row the arrows choose a StoreKit error (the cancels first) instead of a message;
  /// typing goes back to a message.
  @Test func askDialogAnswersAStoreKitError() throws {
    var state = try Self.opened()
    let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
    _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 3, question: .purchase(product))))
    for key in [Key.character("4"), .tab, .tab, .right] { _ = AppModel.update(&state, .key(key)) }
    #expect(state.overlay?.ask?.storeError == .userCancelled)
    #expect(FrameText.plain(AppView.render(state, size: Size(width: 80, height: 24))).contains("‹userCancelled›"))
    _ = AppModel.update(&state, .key(.right))
    #expect(state.overlay?.ask?.storeError == .paymentCancelled)
    _ = AppModel.update(&state, .key(.left))
    let effects = AppModel.update(&state, .key(.enter))
    guard case .answerAsk(3, let answer)? = effects.first else {
      Issue.record("no answer: \(effects)")
      return
    }
    #expect(answer.outcome == .failed && answer.error == .userCancelled)
    // Typing a message drops the error.
    _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 4, question: .purchase(product))))
    for key in [Key.character("4"), .tab, .tab, .right, .character("x")] { _ = AppModel.update(&state, .key(key)) }
    guard case .answerAsk(4, let typed)? = AppModel.update(&state, .key(.enter)).first else {
      Issue.record("no answer")
      return
    }
    #expect(typed.error == nil && typed.message == "x")
  }

  /// SDK 4's `PurchaseResult` has no `restored`: the dialog offers it for a purchase on SDK 3 only
  /// (a restore is always restored or failed).
  @Test func theAskDialogOffersRestoredOnlyOnSDK3() throws {
    for (sdk, offered) in [(SDKVersion.latest, false), (.v3, true)] {
      var project = try Fixtures.demoProject()
      project.options.sdk = sdk
      var state = AppState(project: project)
      _ = AppModel.update(&state, .presentation(.open(paywallID: "onboarding", selected: nil)))
      let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
      _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 1, question: .purchase(product))))
      #expect(state.overlay?.ask?.outcomes.contains(.restored) == offered, "SDK \(sdk)")
      _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 2, question: .restore)))
      #expect(state.overlay?.ask?.outcomes == [.restored, .failed])
    }
  }

  @Test func askDialogTogglesEntitlements() throws {
    var state = try Self.opened()
    let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
    _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 1, question: .purchase(product))))
    #expect(state.overlay?.ask?.entitlements == ["lifetime", "pro"])
    _ = AppModel.update(&state, .key(.down))
    _ = AppModel.update(&state, .key(.space))  // tick lifetime
    let effects = AppModel.update(&state, .key(.enter))
    guard case .answerAsk(_, let answer)? = effects.first else {
      Issue.record("no answer")
      return
    }
    #expect(answer.outcome == .purchased && answer.entitlements == ["pro", "lifetime"])
  }

  /// A click lands on what the view drew at that cell: the same layout decides both.
  @Test func clicksSelectCardsAndPressButtons() throws {
    var state = try Self.opened()
    _ = AppModel.update(&state, .resized(Size(width: 80, height: 24)))
    let frame = AppView.render(state, size: state.size)
    let monthlyRow = try #require(frame.lines.firstIndex { $0.contains("○ Monthly") })
    let monthlyColumn = try #require(frame.lines[monthlyRow].range(of: "Monthly")).lowerBound.utf16Offset(in: frame.lines[monthlyRow])
    _ = AppModel.update(&state, .key(.click(x: monthlyColumn, y: monthlyRow)))
    #expect(state.session?.selectedSlot == "secondary")
    #expect(state.focus == .products)
    let restoreRow = try #require(frame.lines.firstIndex { $0.contains("Restore purchases") })
    let restoreColumn = try #require(frame.lines[restoreRow].range(of: "Restore")).lowerBound.utf16Offset(in: frame.lines[restoreRow])
    let effects = AppModel.update(&state, .key(.click(x: restoreColumn, y: restoreRow)))
    #expect(Self.events(effects) == ["restore_start"])
    #expect(AppModel.update(&state, .key(.click(x: 0, y: 0))).isEmpty, "a click on nothing does nothing")
  }

  @Test func theDebugPanelAsksForItsEffects() throws {
    var state = try Self.opened()
    _ = AppModel.update(&state, .key(.character("d")))
    #expect(state.overlay?.debug != nil)
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("x fail purchase"))
    let set = AppModel.update(&state, .key(.character("s")))
    guard case .debug(.setStatus(.inactive), announce: true)? = set.first else {
      Issue.record("expected setStatus(inactive), got \(set)")
      return
    }
    guard case .debug(.failNextPurchase("Card declined"), announce: true)? = AppModel.update(&state, .key(.character("x"))).first else {
      Issue.record("expected failNextPurchase")
      return
    }
    _ = AppModel.update(&state, .key(.escape))
    #expect(state.overlay?.debug == nil)
    #expect(state.session != nil, "esc closed the panel, not the paywall")
  }

  @Test func theClosedScreenWrapsOnNarrowTerminals() throws {
    var state = try Self.opened(campaigns: false)
    _ = AppModel.update(&state, .key(.enter))
    _ = AppModel.update(&state, .presentation(.purchaseFinished(.purchased)))
    let text = AppView.render(state, size: Size(width: 40, height: 12)).text
    #expect(text.contains("purchased(com.acme.pro.annual)"))
    #expect(text.contains("show the paywall again"))
    #expect(!text.contains("…"))
  }

  @Test func noticesAreLoggedAndOnlyControllerProblemsAreEvents() throws {
    var state = try Self.opened()
    #expect(AppModel.update(&state, .notice("clock advanced 1 day")).filter(\.asksTheWorld).isEmpty)
    #expect(state.notice == "clock advanced 1 day" && state.log.last == "! clock advanced 1 day")
    let problem = AppModel.update(&state, .controllerProblem("the controller command exited with status 3"))
    #expect(Self.events(problem) == ["controller_error"])
    // A line of the controller's log: the log pane, and nothing else (no notice, no event).
    state.notice = nil
    let logged = AppModel.update(&state, .controllerLog("purchase com.acme.pro.annual"))
    #expect(logged.isEmpty && state.notice == nil && state.log.last == "controller: purchase com.acme.pro.annual")
  }

  /// Issue 17 (polish): a notice in the status bar never cleared. Each one asks for one timer
  /// (nothing ticks while no notice shows); when it fires, the notice it was set for goes (a newer
  /// one stays); it stays in the log.
  @Test func aNoticeClearsWhenItsTimerFires() throws {
    var state = try Self.opened()
    let effects = AppModel.update(&state, .notice("the next purchase fails: Card declined"))
    let timers = effects.compactMap { if case .expireNotice(let id, let after) = $0 { (id, after) } else { nil } }
    #expect(timers.count == 1 && (timers.first?.1 ?? 0) >= 3, "\(effects)")
    let first = try #require(timers.first).0
    let second = AppModel.update(&state, .notice("latency off")).compactMap { if case .expireNotice(let id, _) = $0 { id } else { nil } }
    _ = AppModel.update(&state, .noticeExpired(id: first))
    #expect(state.notice == "latency off", "an older timer leaves a newer notice")
    _ = AppModel.update(&state, .noticeExpired(id: try #require(second.first)))
    #expect(state.notice == nil)
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).lines[23].contains("status:"))
    #expect(!AppView.render(state, size: Size(width: 80, height: 24)).text.contains("latency off"))
    #expect(state.log.suffix(2) == ["! the next purchase fails: Card declined", "! latency off"], "the log keeps them")
    #expect(AppModel.update(&state, .key(.character("2"))).allSatisfy { if case .expireNotice = $0 { false } else { true } },
            "no notice, no timer")
  }

  /// The SDK drops a placement named like a built-in event with no callback
  /// (`TrackingLogic.checkNotSuperwallEvent`): no event says so, so the status bar and the log do.
  @Test func aBuiltInPlacementNameIsIgnoredAndTheLogSaysSo() throws {
    var state = AppState(project: try Fixtures.demoProject())
    let effects = AppModel.update(&state, .presentation(.register(placement: "paywall_open", params: [:])))
    #expect(Self.events(effects).isEmpty)
    #expect(state.notice?.contains("built-in event name") == true)
    #expect(state.log.last == "! \(state.notice ?? "")")
  }

  @Test func signalsQuitWithTheirReason() throws {
    var state = try Self.opened()
    let effects = AppModel.update(&state, .terminate(Termination(signal: SIGTERM)))
    #expect(state.notice == "terminated (SIGTERM)")
    #expect(state.quitRequested)
    #expect(effects.contains { if case .quit = $0 { true } else { false } })
  }

  /// Found by fuzzing: `case .up, .backTab where …` guarded only `.backTab`, so ↑ (and ↓) on the
  /// home screen of a project without placements divided by zero.
  @Test func arrowsOnAHomeScreenWithoutPlacementsDoNothing() throws {
    var state = try Self.opened(campaigns: false)
    _ = AppModel.update(&state, .key(.character("q")))
    #expect(state.session == nil)
    for key in [Key.up, .down, .tab, .backTab] {
      #expect(AppModel.update(&state, .key(key)).isEmpty)
    }
    #expect(state.homeSelection == 0)
  }

  @Test func theViewShowsSpinnerAlertHelpAndLog() throws {
    var state = try Self.opened()
    _ = AppModel.update(&state, .key(.enter))
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("Purchasing Annual…"))
    _ = AppModel.update(&state, .presentation(.purchaseFinished(.failed(PurchaseError("Card declined")))))
    let alert = AppView.render(state, size: Size(width: 80, height: 24)).text
    #expect(alert.contains("An error occurred") && alert.contains("Card declined"))
    _ = AppModel.update(&state, .key(.enter))
    _ = AppModel.update(&state, .key(.character("?")))
    let help = AppView.render(state, size: Size(width: 80, height: 24)).text
    #expect(help.contains("restore purchases"))
    // Long help lines wrap under themselves instead of being cut.
    #expect(help.contains("purchase button)") && help.contains("screen: quit"))
    #expect(!help.contains("…"))
    _ = AppModel.update(&state, .key(.space))
    _ = AppModel.update(&state, .key(.character("l")))
    let log = AppView.render(state, size: Size(width: 80, height: 24))
    #expect(log.text.contains("transaction_fail"))
    #expect(log.lines[23].contains("status:"), "the status bar stays on the last row")
  }
}

/// The home screen through `AppModel.update`, on the demo project's campaigns (the register rules
/// themselves are tested beside the presenter, in `PresenterTests`).
@Suite("Registration")
struct RegistrationTests {
  static func events(_ effects: [AppEffect]) -> [String] { AppModelTests.events(effects) }

  static func home(_ status: SubscriptionStatus = .inactive) throws -> AppState {
    AppState(project: try Fixtures.demoProject(), status: status, assignments: AssignmentBook(userID: "tester"))
  }

  /// Issue 18: `run` asks what a rule the emulator cannot evaluate decides; the answer holds for
  /// the session and the placement is registered again. Esc leaves it undecided: nothing ran.
  @Test func anUnsupportedRuleIsAskedInADialog() throws {
    let path = Fixtures.repositoryRoot.appendingPathComponent("scenarios/projects/audience-rules").path
    let project = try #require(ProjectLoader.load(path: path).project)
    var state = AppState(project: project, status: .inactive, assignments: AssignmentBook(userID: "tester"))
    #expect(Self.events(AppModel.update(&state, .presentation(.register(placement: "js_rule", params: [:])))).isEmpty, "nothing ran")
    let question = try #require(state.overlay?.rule)
    #expect(question.rule.key == "js_rule#0")
    let screen = AppView.render(state, size: Size(width: 80, height: 24)).text
    #expect(screen.contains("Undecided rule js_rule#0") && screen.contains("user.plan === 'free'"), "\(screen)")
    _ = AppModel.update(&state, .key(.escape))
    #expect(state.overlay?.rule == nil)
    #expect(state.session == nil)
    _ = AppModel.update(&state, .presentation(.register(placement: "js_rule", params: [:])))
    let effects = AppModel.update(&state, .key(.character("n")))
    #expect(Self.events(effects).contains("paywall_open"))
    #expect(state.session?.id == "plans", "no match: the next audience presents")
    #expect(state.presentation.assumedRules == ["js_rule#0": false], "kept for the session")
  }

  @Test func theHomeScreenListsPlacementsWithTheirGatingAndRegistersTheChosenOne() throws {
    var state = try Self.home()
    let text = AppView.render(state, size: Size(width: 80, height: 24)).text
    for line in ["onboarding", "export_pdf", "settings_upgrade", "power_user_offer", "beta_sync"] {
      #expect(text.contains(line), "\(text)")
    }
    #expect(!text.contains("transaction_abandon"), "implicit placements are not offered")
    #expect(text.contains("non-gated") && text.contains("gated") && text.contains("holdout"))
    // The list is a block: the gatings stand in one column.
    let rows = text.split(separator: "\n").map(String.init)
    let listed = ["onboarding", "export_pdf", "beta_sync"].compactMap { name in rows.first { $0.contains(" \(name) ") } }
    let gatingColumns = zip(listed, ["non-gated", "gated", "holdout"]).compactMap { row, gating in
      row.range(of: gating).map { row.distance(from: row.startIndex, to: $0.lowerBound) }
    }
    #expect(gatingColumns.count == 3 && Set(gatingColumns).count == 1, "\(listed)")
    _ = AppModel.update(&state, .key(.down))
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("▸ 2 export_pdf"))
    let effects = AppModel.update(&state, .key(.enter))
    #expect(Self.events(effects) == ["trigger_fire", "paywallPresentationRequest", "paywall_open", "handler.onPresent"])
    #expect(state.session?.id == "plans")
    _ = AppModel.update(&state, .key(.character("q")))
    let after = AppView.render(state, size: Size(width: 80, height: 24)).text
    #expect(after.contains("export_pdf: plans declined") && after.contains("feature did not run (gated)"), "\(after)")
    let skipped = AppModel.update(&state, .key(.character("5")))
    #expect(Self.events(skipped) == ["trigger_fire", "paywallPresentationRequest", "handler.onSkip", "feature.run"])
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("beta_sync: skipped (holdout)"))
  }
}

extension RegistrationTests {
  @Test func theDebugPanelSetsUserAttributesThatAudiencesRead() throws {
    var state = try Self.home()
    _ = AppModel.update(&state, .key(.character("d")))
    _ = AppModel.update(&state, .key(.character("u")))
    for c in "should_display=true" { _ = AppModel.update(&state, .key(.character(c))) }
    _ = AppModel.update(&state, .key(.enter))
    _ = AppModel.update(&state, .key(.character("u")))
    for c in "some_value=13" { _ = AppModel.update(&state, .key(.character(c))) }
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("some_value=13"))
    _ = AppModel.update(&state, .key(.enter))
    #expect(state.userAttributes == ["should_display": "true", "some_value": "13"])
    _ = AppModel.update(&state, .key(.escape))
    let effects = AppModel.update(&state, .presentation(.register(placement: "power_user_offer", params: [:])))
    #expect(Self.events(effects).contains("paywall_open"))
    #expect(state.session?.id == "winback")
  }
}
