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

/// A deep link handed to the SDK (`Superwall.handleDeepLink(_:)`), as the SDK reads it: which
/// URL it tracks as `deepLink_open`, what the call returns, and the event's and audiences' params.
///
/// From 4.2.0 (`DeepLinkRouter.swift` `route(url:)`): a web-checkout redeem link
/// (`superwall://…/redeem?code=…`, or `*.superwall.app` / `*.superwallapp.dev` with
/// `/app-link/superwall/redeem`) is redeemed and not tracked; a Superwall universal link
/// (`*.superwall.app/app-link/…`) is tracked mapped to the app's scheme
/// (`https://myapp.superwall.app/app-link/promo?d=1` → `myapp://promo?d=1`, `superwallDeepLinkMappedURL`)
/// and handled; anything else is tracked as given and handled when it is a debugger link
/// (`Debug/DebugManager.swift`: `superwall_debug=true` and a `token`) or a campaign is on
/// `deepLink_open`. Before 4.2 every link is tracked as given, and handled only as a debugger link.
package enum DeepLinks {
  /// What `handleDeepLink` does with one URL.
  package struct Route: Sendable, Hashable {
    /// The URL tracked as `deepLink_open`; nil: none (a redeem link).
    package var tracked: String?
    /// What `handleDeepLink` returns.
    package var handled: Bool
    /// Something the SDK would do that is not emulated here, in words; nil: nothing.
    package var note: String?
    /// The failure `handleDeepLink` returned instead of a Bool (Superwall-Android's `Result`).
    package var failure: String?
  }

  package static func route(_ url: String, sdk: SDKVersion, hasCampaign: Bool) -> Route {
    guard let parsed = URL(string: url) else { return Route(tracked: url, handled: false, note: nil) }
    if sdk.platform == .android {
      // Superwall-Android handles a redeem link (`isAndroidRedeemLink`) or a debugger link
      // (`isAndroidDebuggerLink`). Any other:
      // up to 2.5 `Superwall.instance.handleDeepLink` (`Superwall.kt`) tracks it and returns
      // success(false); 2.6.0 hands the instance call to the static one (`deeplinks/
      // DeepLinkRouter.kt`), which gives the router only its own links: a failure, "Not a
      // superwall link", and nothing tracked; 2.6.2 (here 2.7) tracks every link again, still
      // answering the failure. (From 2.3.0 an app could already call the static one; the
      // instance call, which every 2.x has, is the one followed before 2.6.)
      let redeem = isAndroidRedeemLink(parsed, sdk: sdk)
      let debug = isAndroidDebuggerLink(url)
      if redeem || debug {
        return Route(tracked: url, handled: true, note: redeem ? "a web checkout redeem link: the SDK redeems its code (not emulated)" : debuggerNote)
      }
      guard sdk.isAndroidAtLeast(minor: 6) else { return Route(tracked: url, handled: false, note: nil) }
      let failure = "Not a superwall link"
      guard sdk.isAndroidAtLeast(minor: 7) else {
        return Route(tracked: nil, handled: false, note: "Superwall-Android 2.6.0 and 2.6.1 track only their own links: a failure, \"\(failure)\", and no deepLink_open", failure: failure)
      }
      return Route(tracked: url, handled: false, note: "Superwall-Android returns a failure, \"\(failure)\"", failure: failure)
    }
    guard sdk.hasDeepLinkRouter else {
      let debug = isDebuggerLink(parsed)
      return Route(tracked: url, handled: debug, note: debug ? debuggerNote : nil)
    }
    if isRedeemLink(parsed) {
      return Route(tracked: nil, handled: true, note: "a web checkout redeem link: the SDK redeems its code (not emulated) and tracks no deepLink_open")
    }
    if isSuperwallLink(parsed) {
      return Route(tracked: mapped(parsed), handled: true, note: nil)
    }
    let debug = isDebuggerLink(parsed)
    return Route(tracked: url, handled: debug || hasCampaign, note: debug ? debuggerNote : nil)
  }

  /// Superwall-Android's web checkout redeem link, release by release: none in 2.0; from 2.1.0 a
  /// host of exactly `superwall` and a `code` item (`web/DeepLinkReferrer.kt`); from 2.3.0 any
  /// host containing `superwall` (`deeplinks/DeepLinkRouter.kt` `redeemableCode`); from 2.6.0 a
  /// `codes` item as well. The last path segment is `redeem` throughout. `getQueryParameter`
  /// finds an item written without a value too.
  static func isAndroidRedeemLink(_ parsed: URL, sdk: SDKVersion) -> Bool {
    guard sdk.isAndroidAtLeast(minor: 1), parsed.lastPathComponent == "redeem" else { return false }
    let host = parsed.host ?? ""
    guard sdk.isAndroidAtLeast(minor: 3) ? host.contains("superwall") : host == "superwall" else { return false }
    let names = sdk.isAndroidAtLeast(minor: 6) ? ["code", "codes"] : ["code"]
    let items = URLComponents(url: parsed, resolvingAgainstBaseURL: false)?.queryItems ?? []
    return items.contains { names.contains($0.name) }
  }

  /// Superwall-Android's debugger link (`debug/DebugManager.kt`, `SWDebugManagerLogic.getQueryItemValue`):
  /// the raw query split on `&` and `=` (the last item of a name wins, one without `=` has the
  /// value ""), a `superwall_debug` whose value is `true` in any case (`toBoolean`), and a `token`,
  /// even an empty one.
  static func isAndroidDebuggerLink(_ url: String) -> Bool {
    guard let query = URLComponents(string: url)?.percentEncodedQuery else { return false }
    var items: [Substring: Substring] = [:]
    for item in query.split(separator: "&", omittingEmptySubsequences: false) {
      let parts = item.split(separator: "=", omittingEmptySubsequences: false)
      items[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    guard let flag = items["superwall_debug"], flag.lowercased() == "true" else { return false }
    return items["token"] != nil
  }

  private static let debuggerNote = "a Superwall debugger link (superwall_debug): the debugger is not emulated"

  /// `deepLink_open`'s params (`TrackableSuperwallEvent.swift` `DeepLink`): the URL and its parts
  /// as Foundation's `URL` gives them, an absent part as "".
  package static func eventParams(_ url: String, sdk: SDKVersion = .latest) -> [(String, JSONOutput)] {
    parts(url, sdk: sdk).map { ($0.0, .string($0.1)) }
  }

  /// The link's parts as the SDK names them. Superwall-Android reads them off `java.net.URI`
  /// (`TrackableSuperwallEvent.kt` `DeepLink.extractedParams`): the link as given, and the path's
  /// last part after its last dot as the extension, the whole part when it has none
  /// (`substringAfterLast`: "summer" for `/promo/summer`, where Foundation gives "").
  static func parts(_ url: String, sdk: SDKVersion = .latest) -> [(String, String)] {
    if sdk.platform == .android, let components = URLComponents(string: url) {
      let path = components.path
      let last = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
      let pathExtension = last.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? last
      return [("url", url), ("path", path), ("pathExtension", pathExtension), ("lastPathComponent", last),
              ("host", components.host ?? ""), ("query", components.query ?? ""), ("fragment", components.fragment ?? "")]
    }
    guard let parsed = URL(string: url) else {
      return [("url", url), ("path", ""), ("pathExtension", ""), ("lastPathComponent", ""), ("host", ""), ("query", ""), ("fragment", "")]
    }
    return [("url", parsed.absoluteString), ("path", parsed.path), ("pathExtension", parsed.pathExtension),
            ("lastPathComponent", parsed.lastPathComponent), ("host", parsed.host ?? ""), ("query", parsed.query ?? ""),
            ("fragment", parsed.fragment ?? "")]
  }

  /// The params a `deepLink_open` campaign's audiences read (`DeepLink.audienceFilterParams`): the
  /// event's, then each query item with a name and a value, typed (`true`/`false` in any case, an
  /// integer, a decimal, else text) and written as `FilterValue(parsing:)` reads them back; an item
  /// named like a part (`host`) replaces it on iOS, and of a repeated name the last wins.
  /// Superwall-Android reads the parts over the items (a part wins) and, before 2.5.4, the items
  /// alone (`SDKVersion.deepLinkAudiencesReadTheParts`).
  package static func audienceParams(_ url: String, sdk: SDKVersion = .latest) -> [String: String] {
    var out: [String: String] = [:]
    let parts = sdk.deepLinkAudiencesReadTheParts ? parts(url, sdk: sdk) : []
    if sdk.platform == .android {
      // `extractQueryParameters`: the query split on `&` and `=`, an item with no `=` dropped
      // (with any value of its name before it), an empty value kept, then the parts over them.
      for item in (URLComponents(string: url)?.query ?? "").split(separator: "&", omittingEmptySubsequences: false) {
        let pieces = item.split(separator: "=", omittingEmptySubsequences: false)
        // `associate` keeps the last of a name, then the null ones go: `a=1&a` has no `a`.
        out[String(pieces[0])] = pieces.count > 1 ? typed(String(pieces[1])) : nil
      }
      for (key, value) in parts { out[key] = value }
      return out
    }
    for (key, value) in parts { out[key] = value }
    guard let items = URLComponents(string: url)?.queryItems else { return out }
    for item in items {
      guard !item.name.isEmpty, let value = item.value, !value.isEmpty else { continue }
      out[item.name] = typed(value)
    }
    return out
  }

  /// A query item's value as the SDK types it, in the text our filters parse to that type.
  static func typed(_ value: String) -> String {
    let lower = value.lowercased()
    if lower == "true" || lower == "false" { return lower }
    if let int = Int(value) { return String(int) }
    if let double = Double(value) { return String(double) }
    return value
  }

  /// `redeemableCode`: the web checkout's redeem link.
  static func isRedeemLink(_ url: URL) -> Bool {
    guard code(in: url) != nil, let host = url.host else { return false }
    if host == "superwall" && url.path == "/redeem" { return true }
    return (host.hasSuffix("superwall.app") || host.hasSuffix("superwallapp.dev")) && url.path == "/app-link/superwall/redeem"
  }

  private static func code(in url: URL) -> String? {
    URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?.value
  }

  /// `isSuperwallDeepLink`: a Superwall universal link.
  static func isSuperwallLink(_ url: URL) -> Bool {
    guard let host = url.host, host.hasSuffix(".superwall.app") || host.hasSuffix(".superwallapp.dev") else { return false }
    return url.path.hasPrefix("/app-link/")
  }

  /// `superwallDeepLinkMappedURL`: the app's scheme (the URL's own unless http(s), else the
  /// host's part before `.superwall`), `://`, and everything after `/app-link/`.
  static func mapped(_ url: URL) -> String {
    let text = url.absoluteString
    guard let range = text.range(of: "/app-link/") else { return text }
    let tail = text[range.upperBound...]
    let scheme: String
    if let own = url.scheme, !["http", "https"].contains(own.lowercased()) {
      scheme = own
    } else if let host = url.host, let cut = host.range(of: ".superwall") ?? host.range(of: ".superwallapp") {
      scheme = String(host[..<cut.lowerBound])
    } else {
      scheme = url.host ?? "superwall"
    }
    let mapped = "\(scheme)://\(tail)"
    return URL(string: mapped) == nil ? text : mapped
  }

  /// `DebugManager.outcomeForDeepLink`: `superwall_debug=true` and a `token`.
  static func isDebuggerLink(_ url: URL) -> Bool {
    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    guard let flag = items.first(where: { $0.name == "superwall_debug" })?.value, flag == "true" else { return false }
    return items.contains { $0.name == "token" && $0.value != nil }
  }
}

/// `Superwall.handleDeepLink(url)` (`Superwall.swift`; `DeepLinkRouter.swift` from 4.2.0):
/// `deepLink_open` is tracked (`DeepLinks.route` says which URL), then our
/// `call.handleDeepLink` says what the call returned. Tracking it is an implicit trigger unlike
/// the others: `TrackingLogic.canTriggerPaywall` answers `.deepLinkTrigger` for any deep link,
/// before it looks for a campaign, and `Tracking.swift` then dismisses the paywall on screen as
/// the app's `Superwall.shared.dismiss()` does (`PublicPresentation.swift`: result `declined`,
/// close reason `systemLogic`: no `paywall_decline`; the handler hears it and a non-gated
/// register's feature runs) and presents the placement with no handler (`internallyPresent`): a
/// campaign's paywall, or with none only the log's `paywallPresentationRequest`.
/// With the status unknown it all waits for one, as every implicit trigger does: the paywall on
/// screen stays until a status comes, and if none comes in time nothing closes.
extension Presenter {
  static func deepLink(_ url: String, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let placement = EventName.deepLinkOpen.rawValue
    let hasCampaign = state.project.campaigns.contains { $0.placement == placement }
    let route = DeepLinks.route(url, sdk: state.options.sdk, hasCampaign: hasCampaign)
    var effects: [PresentationEffect] = []
    if let tracked = route.tracked { effects.append(.emit(PaywallEvent(.deepLinkOpen, DeepLinks.eventParams(tracked, sdk: state.options.sdk)))) }
    var answer: [(String, JSONOutput)] = [("url", .string(url)), ("handled", .bool(route.handled))]
    if let failure = route.failure { answer += [("result", "failure"), ("error", .string(failure))] }
    effects.append(.emit(PaywallEvent(.callHandleDeepLink, answer)))
    guard let tracked = route.tracked else { return effects }
    var params = PlacementParams.standard(placement, isSDKEvent: true)
    for (key, value) in DeepLinks.parts(tracked, sdk: state.options.sdk) { params["$" + key] = value }
    params.merge(DeepLinks.audienceParams(tracked, sdk: state.options.sdk)) { _, own in own }
    var registration = Registration(id: state.newRegistrationID(), placement: placement, params: params, isImplicit: true)
    // `internallyHandleImplicitTrigger` waits for the status before anything (`waitForSubsStatusAndConfig`):
    // with none yet the paywall stays until one comes, and on the timeout nothing is dismissed.
    if state.status == .unknown {
      registration.dismissesFirst = true
      // Behind the one that waits, as the SDK chains implicit triggers: it goes on in its turn.
      guard state.waiting == nil else {
        state.queuedRegistrations.append(registration)
        return effects
      }
      state.waiting = registration
      return effects + [.scheduleStatusTimeout(registrationID: registration.id, seconds: PresentationState.statusTimeout)]
    }
    return effects + closeForDeepLink(&state) + evaluate(registration, &state, now: now)
  }

  /// The app's `Superwall.shared.dismiss()` of the paywall on screen: declined, `systemLogic`. A
  /// survey shows only on the user's close or a purchase (`SurveyManager`), never here; the close
  /// still says whether the paywall has one, as `PaywallClose` does.
  static func closeForDeepLink(_ state: inout PresentationState) -> [PresentationEffect] {
    guard var current = state.session, !current.isDismissed else { return [] }
    let registration = state.registration
    let gating = state.inheritedGating ?? state.project.paywall(id: current.id)?.featureGating ?? .nonGated
    current.result = .declined
    var out = willDismiss(registration, paywallID: current.id, result: .declined, forNextPaywall: false, state)
    let close = PaywallFlow.event(.paywallClose, current, extra: [("result", "declined"), ("close_reason", "systemLogic"),
                                                                 ("survey_attached", .bool(!current.paywall.definition.surveys.isEmpty))])
    out.append(.emit(SDKEvents.shaped(close, sdk: state.options.sdk, source: .paywall)))
    state.closed = ClosedPaywall(paywallID: current.id, result: .declined)
    clearScreen(&state)
    out += finish(registration, paywallID: current.id, result: .declined, gating: gating, forNextPaywall: false, &state)
    return out
  }
}
