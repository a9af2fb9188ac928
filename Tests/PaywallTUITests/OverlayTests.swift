import Foundation
import PaywallModel
import PaywallTesting
import Testing
@testable import TerminalCore
@testable import PaywallUI

/// What is open over the screen (`AppState.overlay`): which overlay takes a key, what one opened
/// over another leaves behind, and each overlay's own reducer (a key in, what the app must do out).
@Suite("Overlays")
struct OverlayTests {
  static func press(_ keys: [Key], _ state: inout AppState) -> [AppEffect] {
    keys.flatMap { AppModel.update(&state, .key($0), now: Fixtures.now) }
  }

  /// The ask controller's dialog can come up over the debug panel (the panel's `P` makes the app
  /// buy): it takes the keys, and once answered the panel is there again, as it was.
  @Test func anAskOverTheDebugPanelLeavesThePanelOpenOnceAnswered() throws {
    var state = try AppModelTests.opened()
    _ = Self.press([.character("d")], &state)
    let panel = AppView.render(state, size: state.size).text
    let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
    _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 3, question: .purchase(product))), now: Fixtures.now)
    #expect(Self.press([.character("d")], &state).isEmpty, "the ask dialog takes the panel's keys")
    let answer = Self.press([.escape], &state)
    guard case .answerAsk(id: 3, let reply)? = answer.first else {
      Issue.record("esc did not answer the ask: \(answer)")
      return
    }
    #expect(reply.outcome == .cancelled)
    #expect(AppView.render(state, size: state.size).text == panel, "the panel shows again, as it was")
    _ = Self.press([.escape], &state)
    #expect(!AppView.render(state, size: state.size).text.contains(AppView.debugTitle), "the panel has the keys again")
  }

  /// A key that opens another overlay while the help is open only closes the help: the help
  /// takes every key but the scroll keys.
  @Test func theDebugKeyOverTheHelpOnlyClosesTheHelp() throws {
    let opened = try AppModelTests.opened()
    var state = opened
    #expect(Self.press([.character("?"), .character("d")], &state).isEmpty)
    #expect(AppView.render(state, size: state.size).text == AppView.render(opened, size: opened.size).text)
  }

  /// The help opens at its top even when a relaunch (a play script's step) closed the debug
  /// panel while it was scrolled: each overlay keeps its own scroll.
  @Test func theHelpOpensAtItsTopAfterARelaunchClosedAScrolledPanel() throws {
    var state = try AppModelTests.opened()
    _ = AppModel.update(&state, .resized(Size(width: 40, height: 12)), now: Fixtures.now)
    _ = Self.press([.character("d"), .end], &state)
    _ = AppModel.update(&state, .presentation(.relaunch), now: Fixtures.now)
    _ = Self.press([.character("?")], &state)
    let opened = AppView.render(state, size: state.size).text
    _ = Self.press([.home], &state)
    #expect(opened == AppView.render(state, size: state.size).text, "the help opened scrolled:\n\(opened)")
  }

  /// A rule question raised while the ask dialog is up waits under it: the ask keeps the keys until
  /// it is answered, then the question has them.
  @Test func aRuleQuestionRaisedUnderTheAskWaitsForIt() throws {
    var state = try Self.audienceRules()
    let product = try #require(state.project.catalog.products.first)
    _ = AppModel.update(&state, .askRequested(AskPurchaseController.Request(id: 1, question: .purchase(product))), now: Fixtures.now)
    _ = AppModel.update(&state, .presentation(.register(placement: "js_rule", params: [:])), now: Fixtures.now)
    let ask = try #require(state.overlay?.ask)
    let rule = try #require(state.overlay?.rule)
    #expect(state.overlay == .ask(ask, over: .rule(rule, over: nil)))
    #expect(Self.press([.character("n")], &state).isEmpty, "n is no answer to the ask")
    guard case .answerAsk(id: 1, _)? = Self.press([.enter], &state).first else {
      Issue.record("enter did not answer the ask")
      return
    }
    #expect(state.overlay == .rule(rule, over: nil))
    _ = Self.press([.escape], &state)
    #expect(state.overlay == nil)
  }

  static func audienceRules() throws -> AppState {
    let path = Fixtures.repositoryRoot.appendingPathComponent("scenarios/projects/audience-rules").path
    let project = try #require(ProjectLoader.load(path: path).project)
    return AppState(project: project, status: .inactive, assignments: AssignmentBook(userID: "tester"))
  }

  // Each overlay's own reducer: a key in, its own state changed, what the app must do out.

  @Test func theHelpScrollsOrCloses() {
    var scroll = 0
    #expect(Overlay.reduceHelp(&scroll, .down, size: Size(width: 40, height: 12)) == [])
    #expect(scroll == 1)
    #expect(Overlay.reduceHelp(&scroll, .character("d"), size: Size(width: 40, height: 12)) == [.close])
  }

  @Test func theFullLogScrollsClosesOrIgnores() {
    let log = (1...60).map { "event \($0)" }
    let size = Size(width: 80, height: 24)
    var top: Int?
    #expect(Overlay.reduceFullLog(&top, .up, log: log, size: size) == [])
    #expect(top == AppView.fullLogLimit(log, size: size) - 1, "one row up from the end")
    #expect(Overlay.reduceFullLog(&top, .end, log: log, size: size) == [])
    #expect(top == nil, "at the end it follows the newest again")
    #expect(Overlay.reduceFullLog(&top, .character("x"), log: log, size: size) == [])
    #expect(Overlay.reduceFullLog(&top, .character("q"), log: log, size: size) == [.close])
  }

  @Test func theDebugPanelTypesAndAsksTheAppForItsWork() throws {
    let app = try AppModelTests.opened()
    var panel = DebugPanel()
    #expect(panel.reduce(.character("+"), in: app) == [])
    #expect(panel.typing == .duration(""))
    for c in "3d" { #expect(panel.reduce(.character(c), in: app) == []) }
    let advance: [OverlayRequest] = [.effect(.debug(.advanceClock(.seconds(3 * 86_400)), announce: true))]
    #expect(panel.reduce(.enter, in: app) == advance)
    #expect(panel == DebugPanel(), "the prompt is gone, the panel stays")
    #expect(panel.reduce(.character("S"), in: app) == [.notice("the app called restorePurchases()"), .present(.callRestore)])
    #expect(panel.reduce(.character("L"), in: app) == [.call(.relaunch)])
    #expect(panel.reduce(.character("G"), in: app) == [])
    for c in "present_data" { _ = panel.reduce(.character(c), in: app) }
    #expect(panel.reduce(.enter, in: app) == [.call(.getPresentationResult(placement: "present_data", params: [:]))])
    #expect(panel.reduce(.character("d"), in: app) == [.close])
  }

  @Test func theAskDialogAnswersAndCloses() throws {
    let state = try AppModelTests.opened()
    let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
    var dialog = AskDialog(for: AskPurchaseController.Request(id: 9, question: .purchase(product)), state)
    #expect(dialog.reduce(.character("4")) == [])
    #expect(dialog.outcome == .failed)
    let cancelled = AskPurchaseController.Answer(outcome: .cancelled)
    #expect(dialog.reduce(.escape) == [.close, .effect(.answerAsk(id: 9, cancelled))])
  }

  /// A cancel, a pending purchase or a failure grants nothing: the Grant row says so and ticks
  /// nothing, where it used to offer ticks that the answer then dropped. Tab still stops on it, so
  /// recorded keys go where they went.
  @Test func theGrantRowTicksOnlyForAResultThatGrants() throws {
    let state = try AppModelTests.opened()
    let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
    var dialog = AskDialog(for: AskPurchaseController.Request(id: 9, question: .purchase(product)), state)
    #expect(dialog.granted == ["pro"])
    _ = dialog.reduce(.character("4"))
    #expect(dialog.outcome == .failed)
    _ = dialog.reduce(.tab)
    #expect(dialog.row == .entitlements)
    _ = dialog.reduce(.space)
    #expect(dialog.granted == ["pro"], "a failure's Grant row ticks nothing")
    var frame = Frame(width: 80, height: 24)
    AppView.drawAsk(dialog, into: &frame)
    #expect(frame.text.contains("Grant: nothing (failed grants no entitlement)"), "\(frame.text)")
    #expect(!frame.text.contains("[x] pro"), "\(frame.text)")
    _ = dialog.reduce(.tab)
    #expect(dialog.row == .message)
  }

  @Test func theRuleDialogAssumesAndRegistersAgain() throws {
    var state = try Self.audienceRules()
    _ = AppModel.update(&state, .presentation(.register(placement: "js_rule", params: [:])), now: Fixtures.now)
    var dialog = try #require(state.overlay?.rule)
    #expect(dialog.reduce(.right) == [])
    #expect(!dialog.matches)
    #expect(dialog.reduce(.enter) == [
      .close, .assume(rule: "js_rule#0", matches: false), .tell("js_rule#0: assumed to not match for this session"),
      .present(.register(placement: "js_rule", params: [:])),
    ])
    #expect(dialog.reduce(.escape) == [.close, .tell("js_rule#0 left undecided: register did nothing")])
  }

  /// The debug panel opens with no prompt even when a relaunch closed it while a duration was
  /// being typed: what was typed went with the panel.
  @Test func theDebugPanelOpensWithNoPromptAfterARelaunchClosedItWhileTyping() throws {
    var state = try AppModelTests.opened()
    _ = Self.press([.character("d"), .character("+"), .character("3")], &state)
    _ = AppModel.update(&state, .presentation(.relaunch), now: Fixtures.now)
    _ = Self.press([.character("d")], &state)
    let screen = AppView.render(state, size: state.size).text
    #expect(!screen.contains("advance by"), "the panel opened typing:\n\(screen)")
  }
}
