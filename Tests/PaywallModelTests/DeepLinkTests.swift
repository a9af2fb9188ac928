import Foundation
import Testing
@testable import PaywallModel

/// `Superwall.handleDeepLink(url)`: the URL the SDK tracks, what the call returns, and the params
/// its `deepLink_open` event and audiences get (`DeepLinkRouter.swift`,
/// `TrackableSuperwallEvent.swift` `DeepLink`), and the dismissal any deep link makes.
@Suite("Deep links")
struct DeepLinkTests {
  static func params(_ url: String) -> [String: String] {
    Dictionary(uniqueKeysWithValues: DeepLinks.eventParams(url).map { ($0.0, $0.1.stringValue ?? "") })
  }

  /// Foundation's `URL` parts, the same on Linux and macOS: a link with no path has an empty
  /// path and last component.
  @Test func theEventHasTheURLsParts() {
    #expect(Self.params("myapp://promo/summer.html?discount=20#top") == [
      "url": "myapp://promo/summer.html?discount=20#top", "path": "/summer.html", "pathExtension": "html",
      "lastPathComponent": "summer.html", "host": "promo", "query": "discount=20", "fragment": "top",
    ])
    let bare = Self.params("myapp://promo")
    #expect(bare["path"] == "" && bare["lastPathComponent"] == "" && bare["host"] == "promo" && bare["query"] == "", "\(bare)")
  }

  /// Query items are typed as the SDK types them; an empty value is skipped; a name like a part
  /// replaces it in the audience params (not in the event); the last of a repeated name wins.
  @Test func queryItemsAreTyped() {
    let audience = DeepLinks.audienceParams("myapp://promo?vip=TRUE&n=007&f=1.5&empty=&host=x&t=a&t=b")
    #expect(audience["vip"] == "true" && audience["n"] == "7" && audience["f"] == "1.5", "\(audience)")
    #expect(audience["empty"] == nil && audience["host"] == "x" && audience["t"] == "b", "\(audience)")
    #expect(Self.params("myapp://promo?host=x")["host"] == "promo")
  }

  /// From 4.2.0 a universal link is tracked in the app's scheme and a redeem link not at all;
  /// before, both are tracked as given. The call returns true for a campaign on `deepLink_open`
  /// (4.2+), a universal link, a redeem link and a debugger link.
  @Test func theRouterFollowsTheSDKVersion() {
    let link = "https://myapp.superwall.app/app-link/promo/summer?d=20"
    let routed = DeepLinks.route(link, sdk: SDKVersion(major: 4, minor: 16), hasCampaign: false)
    #expect(routed.tracked == "myapp://promo/summer?d=20" && routed.handled)
    let old = SDKVersion(major: 4, minor: 1)
    #expect(DeepLinks.route(link, sdk: old, hasCampaign: false) == DeepLinks.Route(tracked: link, handled: false, note: nil))
    let redeem = "superwall://superwall/redeem?code=ABC"
    #expect(DeepLinks.route(redeem, sdk: .latest, hasCampaign: false).tracked == nil)
    #expect(DeepLinks.route(redeem, sdk: old, hasCampaign: false).tracked == redeem)
    #expect(DeepLinks.route("myapp://x", sdk: .latest, hasCampaign: true).handled)
    #expect(!DeepLinks.route("myapp://x", sdk: .latest, hasCampaign: false).handled)
    #expect(!DeepLinks.route("myapp://x", sdk: old, hasCampaign: true).handled)
    #expect(DeepLinks.route("myapp://x?superwall_debug=true&token=t", sdk: old, hasCampaign: false).handled)
  }

  /// Any deep link closes the paywall on screen as the app's `dismiss()`: declined, `systemLogic`,
  /// no `paywall_decline`; the non-gated register's feature runs; with no campaign only the
  /// request is logged.
  @Test func aDeepLinkClosesThePaywallOnScreen() throws {
    var state = try PresenterTests.launching("tapped", "onboarding")
    PresenterTests.send(.register(placement: "tapped", params: [:]), &state)
    #expect(state.session?.id == "onboarding")
    let effects = PresenterTests.send(.deepLink(url: "myapp://other"), &state)
    #expect(PresenterTests.events(effects) == ["deepLink_open", "call.handleDeepLink", "handler.onWillDismiss", "paywall_close",
                                               "handler.onDismiss", "feature.run", "paywallPresentationRequest"],
            "\(PresenterTests.events(effects))")
    let close = try #require(PresenterTests.emitted(effects).first { $0.name == .paywallClose })
    #expect(close["close_reason"] == "systemLogic" && close["result"] == "declined")
    #expect(state.session == nil)
  }

  /// With no status yet the SDK waits before it does anything (`Tracking.swift`
  /// `internallyHandleImplicitTrigger`: `waitForSubsStatusAndConfig`, then `.deepLinkTrigger`'s
  /// dismiss): the paywall stays until a status comes, and closes then; when none comes in time
  /// nothing closes. Before, the paywall closed at once.
  @Test func withNoStatusTheDismissalWaitsForOne() throws {
    var state = try PresenterTests.launching("tapped", "onboarding")
    PresenterTests.send(.register(placement: "tapped", params: [:]), &state)
    state.status = .unknown
    let link = PresenterTests.send(.deepLink(url: "myapp://other"), &state)
    #expect(PresenterTests.events(link) == ["deepLink_open", "call.handleDeepLink"], "\(PresenterTests.events(link))")
    #expect(state.session?.id == "onboarding", "the paywall stays while the SDK waits")
    let known = PresenterTests.send(.statusChanged(.inactive), &state)
    #expect(PresenterTests.events(known).contains("paywall_close"), "\(PresenterTests.events(known))")
    #expect(state.session == nil)

    var timingOut = try PresenterTests.launching("tapped", "onboarding")
    PresenterTests.send(.register(placement: "tapped", params: [:]), &timingOut)
    timingOut.status = .unknown
    let waiting = PresenterTests.send(.deepLink(url: "myapp://other"), &timingOut)
    guard case .scheduleStatusTimeout(let id, _)? = waiting.last else {
      Issue.record("no timeout scheduled: \(waiting)")
      return
    }
    let timedOut = PresenterTests.send(.statusTimedOut(registrationID: id), &timingOut)
    #expect(PresenterTests.events(timedOut) == ["paywallPresentationRequest"])
    #expect(timingOut.session?.id == "onboarding", "nothing closes on the timeout")
  }
}
