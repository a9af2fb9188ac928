#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel
import TerminalCore

/// A call to the SDK being typed in the debug panel: `G` `getPresentationResult` (`PLACEMENT
/// [key=value…]`), `l` `handleDeepLink` (a URL).
package struct AppCallInput: Sendable, Equatable {
  /// Which call the text is for.
  package enum Call: Sendable, Equatable { case presentationResult, deepLink }
  package var call: Call
  package var text: String

  package init(_ call: Call, text: String = "") {
    self.call = call
    self.text = text
  }

  /// The panel's prompt label, placeholder and footer for it.
  package var prompt: (label: String, placeholder: String, footer: String) {
    switch call {
    case .presentationResult: ("result of  ", "PLACEMENT key=value…", "enter: the app calls getPresentationResult · esc cancels")
    case .deepLink: ("deep link   ", "myapp://promo?discount=20", "enter: the app calls handleDeepLink · esc cancels")
    }
  }
}

/// A call of the app's that the terminal reports on as it makes it (the debug panel's `R`, `B`,
/// `G`, `l`): the app carries it out (`AppModel.perform`), the panel only asks for it.
package enum AppCall: Sendable, Equatable {
  /// The app is killed and launched again.
  case relaunch
  /// The app resigns active, or becomes active again.
  case toggleBackground
  /// `getPresentationResult(forPlacement:params:)`.
  case getPresentationResult(placement: String, params: [String: String])
  /// `handleDeepLink(_:)`, with a URL that has a scheme.
  case handleDeepLink(String)
}

/// The debug panel's typed app calls: `G` and `l`.
extension DebugPanel {
  static func typeAppCall(_ key: Key, _ input: AppCallInput, _ typing: inout Typing?) -> [OverlayRequest] {
    var input = input
    switch key {
    case .enter:
      typing = nil
      return call(input.call, input.text.trimmingSpaces())
    case .escape:
      typing = nil
    case .backspace:
      if !input.text.isEmpty { input.text.removeLast() }
      typing = .appCall(input)
    case .space:
      input.text += " "
      typing = .appCall(input)
    case .character(let c) where input.text.count < 500:
      input.text.append(c)
      typing = .appCall(input)
    default:
      break
    }
    return []
  }

  /// The call typed, or why it is not one.
  private static func call(_ call: AppCallInput.Call, _ text: String) -> [OverlayRequest] {
    switch call {
    case .presentationResult:
      let words = text.split(separator: " ").map(String.init)
      guard let placement = words.first else { return [.notice("no placement typed; press G to try again")] }
      var params: [String: String] = [:]
      for word in words.dropFirst() {
        guard let eq = word.firstIndex(of: "="), eq != word.startIndex else {
          return [.notice("\(quoting: word) is not key=value; press G to try again")]
        }
        params[String(word[..<eq])] = String(word[word.index(after: eq)...])
      }
      return [.call(.getPresentationResult(placement: placement, params: params))]
    case .deepLink:
      guard let url = URL(string: text), url.scheme?.isEmpty == false else {
        return [.notice("\(quoting: text) is not a URL (write its scheme: myapp://…); press l to try again")]
      }
      return [.call(.handleDeepLink(text))]
    }
  }
}

extension AppModel {
  /// Makes one of the app's calls, and says in the status bar what it came to.
  package static func perform(_ call: AppCall, _ state: inout AppState, now: Date) -> [AppEffect] {
    switch call {
    case .relaunch:
      return update(&state, .presentation(.relaunch), now: now)
    case .toggleBackground:
      let going = !state.presentation.appSession.inBackground
      let effects = present(going ? .background : .foreground, &state, now: now)
      state.notice = going ? "the app is in the background; B brings it back" : "the app is in front again"
      return effects
    case .getPresentationResult(let placement, let params):
      let effects = present(.callGetPresentationResult(placement: placement, params: params), &state, now: now)
      state.notice = answerNotice(effects) ?? "getPresentationResult(\(placement)) waits for a subscription status"
      return effects
    case .handleDeepLink(let text):
      // iOS brings the app to the front to open a URL.
      var effects = state.presentation.appSession.inBackground ? present(.foreground, &state, now: now) : []
      let hasCampaign = state.project.campaigns.contains { $0.placement == EventName.deepLinkOpen.rawValue }
      let note = DeepLinks.route(text, sdk: state.presentation.options.sdk, hasCampaign: hasCampaign).note
      effects += present(.deepLink(url: text), &state, now: now)
      state.notice = note ?? "the app called handleDeepLink(\(text))"
      return effects
    }
  }

  /// "getPresentationResult(present_data) → paywall(onboarding)", from the call's answer.
  static func answerNotice(_ effects: [AppEffect]) -> String? {
    for case .emit(let event) in effects where event.name == .callGetPresentationResult {
      let placement = event["placement"]?.stringValue ?? ""
      let result = event["result"]?.stringValue ?? ""
      let paywall = event["paywall_id"]?.stringValue.map { "(\($0))" } ?? ""
      return "getPresentationResult(\(placement)) → \(result)\(paywall)"
    }
    return nil
  }

  /// A key while the app is in the background (the home screen of the device), with nothing open
  /// over it: `B` brings it back, `q` quits.
  package static func handleInBackground(_ key: Key, _ state: inout AppState, now: Date) -> [AppEffect] {
    switch key {
    case .character("B"):
      return perform(.toggleBackground, &state, now: now)
    case .character("q"):
      state.quitRequested = true
      return [.quit]
    default:
      return []
    }
  }
}

/// What the screen shows while the app is in the background: a box over the app's last screen.
package enum BackgroundScreen {
  package static func draw(_ state: AppState, into frame: inout Frame) {
    let since = state.presentation.appSession.lastAppClose.map { " (since \(StoreDates.format($0)), store clock)" } ?? ""
    OverlayBox.box(title: "Home screen", lines: [[("The app is in the background\(since).", .plain)]],
                   footer: "B brings it back · d the debug panel · q quits", into: &frame)
  }
}
