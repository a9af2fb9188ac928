import Foundation
import PaywallTesting
import Testing
import PaywallModel
@testable import TerminalCore
@testable import PaywallUI

/// The debug panel's app calls beyond purchases: `B` (the app to the background and back), `G`
/// (`getPresentationResult`, typed) and `l` (`handleDeepLink`, a typed URL).
@Suite struct AppCallKeysTests {
  static func panel() throws -> AppState {
    var state = try DebugPanelTests.panel()
    _ = AppModel.update(&state, .presentation(.statusChanged(.inactive)))
    return state
  }

  static func type(_ text: String, _ state: inout AppState) -> [AppEffect] {
    for c in text { _ = AppModel.update(&state, .key(c == " " ? .space : .character(c))) }
    return AppModel.update(&state, .key(.enter))
  }

  /// `B` sends the app to the background: `app_close`, the device's home screen over the paywall,
  /// the app's keys ignored; `B` again brings it back with `app_open`, and the paywall is still there.
  @Test func backgroundHidesTheAppUntilBroughtBack() throws {
    var state = try Self.panel()
    #expect(AppModelTests.events(AppModel.update(&state, .key(.character("B")))) == ["app_close"])
    _ = AppModel.update(&state, .key(.character("d")))
    #expect(state.overlay?.debug == nil)
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("The app is in the background"))
    #expect(AppModel.update(&state, .key(.enter)).isEmpty, "the paywall's keys do nothing in the background")
    #expect(state.session?.isDismissed == false)
    #expect(AppModelTests.events(AppModel.update(&state, .key(.character("B")))) == ["app_open"])
    #expect(!AppView.render(state, size: Size(width: 80, height: 24)).text.contains("The app is in the background"))
    #expect(state.session?.id == "onboarding")
  }

  /// `G` then `PLACEMENT key=value`: the answer is the notice and the log's event; nothing presents.
  @Test func getPresentationResultAnswersOnTheNoticeLine() throws {
    var state = try Self.panel()
    _ = AppModel.update(&state, .key(.character("G")))
    #expect(AppView.render(state, size: Size(width: 80, height: 24)).text.contains("result of  PLACEMENT key=value…▏"))
    let effects = Self.type("export_pdf source=menu", &state)
    #expect(AppModelTests.events(effects).last == "call.getPresentationResult", "\(AppModelTests.events(effects))")
    #expect(state.notice?.hasPrefix("getPresentationResult(export_pdf) → ") == true, "\(state.notice ?? "")")
    #expect(state.session?.id == "onboarding", "the paywall on screen stays")
  }

  /// `l` then a URL: `deepLink_open`, and the paywall on screen closes (`systemLogic`).
  @Test func aTypedDeepLinkClosesThePaywall() throws {
    var state = try Self.panel()
    _ = AppModel.update(&state, .key(.character("l")))
    let effects = Self.type("myapp://promo?x=1", &state)
    let events = AppModelTests.events(effects)
    #expect(events.starts(with: ["deepLink_open", "call.handleDeepLink"]) && events.contains("paywall_close"), "\(events)")
    #expect(state.session == nil)
    _ = AppModel.update(&state, .key(.character("l")))
    #expect(AppModelTests.events(Self.type("not a url", &state)).isEmpty)
    #expect(state.notice?.contains("is not a URL") == true)
  }
}
