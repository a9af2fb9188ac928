import Foundation
import Testing
import PaywallModel

/// Going to the background and coming back, through `Presenter.update` alone, as the SDK's
/// `AppSessionManager` tracks it: `app_close`, `app_open`, and `session_start` only after more
/// than the session timeout away (`AppSessionLogic.didStartNewSession`, strictly more).
@Suite("App sessions")
struct AppSessionTests {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  static func events(_ effects: [PresentationEffect]) -> [String] {
    effects.compactMap { if case .emit(let e) = $0 { e.name.rawValue } else { nil } }
  }

  /// Away exactly the timeout (3 600 000 ms) is the same session; one millisecond more is a new
  /// one, whose campaign presents; `app_launch` is never tracked on a return.
  @Test func exactlyTheTimeoutAwayIsTheSameSession() throws {
    var state = try PresenterTests.launching("session_start", "onboarding")
    #expect(Self.events(Presenter.update(&state, .launch(firstInstall: false), now: Self.start)).contains("paywall_open"))
    _ = Presenter.update(&state, .paywall(.close), now: Self.start)
    #expect(state.session == nil)
    #expect(Self.events(Presenter.update(&state, .background, now: Self.start)) == ["app_close"])
    #expect(Self.events(Presenter.update(&state, .background, now: Self.start)) == [], "already in the background")
    let back = Presenter.update(&state, .foreground, now: Self.start.addingTimeInterval(3600))
    #expect(Self.events(back) == ["app_open"])
    #expect(Self.events(Presenter.update(&state, .foreground, now: Self.start)) == [], "already in front")
    let left = Self.start.addingTimeInterval(4000)
    _ = Presenter.update(&state, .background, now: left)
    let later = Presenter.update(&state, .foreground, now: left.addingTimeInterval(3600.001))
    #expect(Self.events(later) == ["app_open", "session_start", "user_attributes", "trigger_fire", "paywallPresentationRequest", "paywall_open"],
            "\(Self.events(later))")
    #expect(state.session?.id == "onboarding")
  }

  /// The timeout is the project's (`appSessionTimeoutMs`, from the config's `app_session_timeout_ms`).
  @Test func theTimeoutIsTheProjects() throws {
    var state = try PresenterTests.home()
    state.project.appSessionTimeoutMs = 60_000
    _ = Presenter.update(&state, .launch(firstInstall: false), now: Self.start)
    _ = Presenter.update(&state, .background, now: Self.start)
    #expect(Self.events(Presenter.update(&state, .foreground, now: Self.start.addingTimeInterval(61))) == ["app_open", "session_start", "user_attributes"])
  }

  /// A relaunch from the background has no second `app_close` (the app already resigned active),
  /// and the launch brings the app to the front.
  @Test func aRelaunchFromTheBackgroundClosesOnce() throws {
    var state = try PresenterTests.home()
    _ = Presenter.update(&state, .launch(firstInstall: false), now: Self.start)
    _ = Presenter.update(&state, .background, now: Self.start)
    let relaunched = Self.events(Presenter.update(&state, .relaunch, now: Self.start.addingTimeInterval(10)))
    #expect(relaunched == ["app_open", "session_start", "user_attributes", "app_launch"], "\(relaunched)")
    #expect(state.appSession == AppSessionState())
    #expect(Self.events(Presenter.update(&state, .relaunch, now: Self.start.addingTimeInterval(20))).first == "app_close")
  }

  /// A paywall on screen stays through the background; the new session's campaign is refused.
  @Test func thePaywallStaysThroughTheBackground() throws {
    var state = try PresenterTests.launching("session_start", "onboarding")
    _ = Presenter.update(&state, .launch(firstInstall: false), now: Self.start)
    _ = Presenter.update(&state, .background, now: Self.start)
    let back = Presenter.update(&state, .foreground, now: Self.start.addingTimeInterval(7200))
    #expect(Self.events(back) == ["app_open", "session_start", "user_attributes", "paywallPresentationRequest"], "\(Self.events(back))")
    #expect(state.session?.id == "onboarding" && state.session?.isDismissed == false)
  }
}
