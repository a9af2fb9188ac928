import Foundation
import PaywallModel
import PaywallTesting
import Testing
@testable import TerminalCore
@testable import PaywallUI

/// Whole steps of the two reducers: every change a message makes to the state and every effect
/// it asks for, nothing else (`ReducerTestStore`). The other suites check what a step is for; these
/// check that it does nothing besides.
@Suite("Whole reducer steps")
struct WholeStepTests {
  @Test func tabMovesTheFocusAndNothingElse() throws {
    var store = ReducerTestStore(app: try AppModelTests.opened())
    let order = PaywallScreenState.focusOrder(of: try #require(store.state.session).paywall.definition)
    let current = try #require(store.state.focus.flatMap(order.firstIndex(of:)))
    store.send(.key(.tab)) { $0.focus = order[(current + 1) % order.count] }
    store.send(.key(.backTab)) { $0.focus = order[current] }
  }

  @Test func theHelpOpensAndClosesAndNothingElseMoves() throws {
    var store = ReducerTestStore(app: try AppModelTests.opened())
    store.send(.key(.character("?"))) { $0.overlay = .help(scroll: 0) }
    store.send(.key(.character("x"))) { $0.overlay = nil }
  }

  /// The help takes every key but the scroll keys: `d` over it closes the help and opens nothing.
  @Test func theDebugKeyOverTheHelpClosesTheHelpOnly() throws {
    var store = ReducerTestStore(app: try AppModelTests.opened())
    store.send(.key(.character("?"))) { $0.overlay = .help(scroll: 0) }
    store.send(.key(.character("d"))) { $0.overlay = nil }
    store.send(.key(.character("d"))) { $0.overlay = .debug(DebugPanel()) }
  }

  /// The ask controller's dialog over the debug panel (scrolled, in a small terminal): once
  /// answered, the panel is back as it was.
  @Test func anAskOverTheDebugPanelGivesThePanelBack() throws {
    var small = try AppModelTests.opened()
    small.size = Size(width: 40, height: 12)
    var store = ReducerTestStore(app: small)
    let product = try #require(store.state.project.catalog.product(id: "com.acme.pro.annual"))
    let request = AskPurchaseController.Request(id: 4, question: .purchase(product))
    store.send(.key(.character("d"))) { $0.overlay = .debug(DebugPanel()) }
    store.send(.key(.down)) { $0.overlay = .debug(DebugPanel(scroll: 1)) }
    store.send(.askRequested(request)) { $0.overlay = .ask(AskDialog(for: request, $0), over: .debug(DebugPanel(scroll: 1))) }
    store.send(.key(.escape), effects: [.answerAsk(id: 4, AskPurchaseController.Answer(outcome: .cancelled))]) {
      $0.overlay = .debug(DebugPanel(scroll: 1))
    }
  }

  @Test func aResizeChangesTheSizeOnly() throws {
    var store = ReducerTestStore(app: try AppModelTests.opened())
    store.send(.resized(Size(width: 100, height: 30))) { $0.size = Size(width: 100, height: 30) }
  }

  @Test func anOldNoticesTimerChangesNothing() throws {
    var store = ReducerTestStore(app: try AppModelTests.opened())
    store.send(.noticeExpired(id: store.state.noticeID &+ 1))
  }

  /// The app's scope of the presenter: a presentation action changes the app's state exactly as
  /// the presenter changes its own, and its effects reach the runtime as the app's.
  @Test func aPresentationActionIsThePresentersStep() throws {
    let opened = try AppModelTests.opened()
    var presenter = opened.presentation
    let presenterEffects = Presenter.update(&presenter, .paywall(.select(slot: "secondary")), now: Fixtures.now)
    #expect(presenterEffects.isEmpty, "selecting a product tracks nothing")
    var store = ReducerTestStore(app: opened)
    store.send(.presentation(.paywall(.select(slot: "secondary")))) {
      $0.presentation = presenter
      // What the app adds of its own: the onboarding paywall's trial copy over a plan with none.
      $0.appendLog("! free-trial copy shows while 'secondary' (no trial) is selected: the SDK decides it for the whole paywall, so a device shows it too")
    }
  }

  /// The check itself: a change the step makes and the test does not name fails, naming the field.
  @Test func anUnnamedChangeIsReported() throws {
    var store = ReducerTestStore(app: try AppModelTests.opened())
    withKnownIssue {
      store.send(.resized(Size(width: 90, height: 30)))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("size: expected 80x24, got 90x30")
    }
    withKnownIssue {
      store.send(.key(.character("?")), effects: [.quit]) { $0.overlay = .help(scroll: 0) }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("the effects of .key(?) were [], expected [PaywallUI.AppEffect.quit]")
    }
  }
}
