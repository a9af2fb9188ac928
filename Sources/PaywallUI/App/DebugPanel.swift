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

/// The QA debug panel (`d`), its state: how far it is scrolled, and what is being typed in it.
/// Its keys (`KeyMap.debugSections`) each ask the app to change the world around it (the clock,
/// the status, the store, faults), make one of the app's calls, or start typing.
package struct DebugPanel: Sendable, Equatable {
  /// What is being typed at the panel's prompt: one thing at a time.
  package enum Typing: Sendable, Equatable {
    /// A duration (`+`), to advance the clock by.
    case duration(String)
    /// A user attribute (`u`), as `key=value`.
    case attribute(String)
    /// A product id (`P`), for the app's `purchase(product)` call.
    case productID(String)
    /// A status (`=`): `active:pro,music`, `inactive`, `unknown`.
    case status(String)
    /// An offer code (`o`), to redeem in the store.
    case offerCode(String)
    /// A call to the SDK (`G`, `l`).
    case appCall(AppCallInput)
  }

  /// The first row shown.
  package var scroll = 0
  /// What is being typed; nil: the panel's keys work.
  package var typing: Typing?

  package init(scroll: Int = 0, typing: Typing? = nil) {
    self.scroll = scroll
    self.typing = typing
  }

  /// A key while the panel is open, read against the app around it (`app`: the catalog, the
  /// status, the store, the size): the panel's own reducer.
  package mutating func reduce(_ key: Key, in app: AppState) -> [OverlayRequest] {
    switch typing {
    case .duration(let input)?: return Self.typeDuration(key, input, &typing)
    case .attribute(let input)?: return Self.typeAttribute(key, input, &typing)
    case .productID(let input)?: return Self.typeProductID(key, input, &typing, catalog: app.project.catalog)
    case .status(let input)?: return Self.typeStatus(key, input, &typing, catalog: app.project.catalog)
    case .offerCode(let input)?: return Self.typeOfferCode(key, input, &typing)
    case .appCall(let input)?: return Self.typeAppCall(key, input, &typing)
    case nil: break
    }
    if let action = KeyMap.scroll.action(for: key) {
      scroll = AppModel.scrolled(scroll, action, page: app.size.height - 6, limit: AppView.debugScrollLimit(app, size: app.size))
      return []
    }
    switch KeyMap.debug.action(for: key) {
    case .world(let action)?:
      return [.effect(.debug(action, announce: true))]
    case .cycleStatus?:
      let all = app.project.catalog.entitlements
      let next: SubscriptionStatus = switch app.status {
      case .unknown: .inactive
      case .inactive: .active(all)
      case .active: .unknown
      }
      return [.effect(.debug(.setStatus(next), announce: true))]
    case .typeStatus?:
      typing = .status("")
    case .relaunch?:
      return [.call(.relaunch)]
    case .typeDuration?:
      typing = .duration("")
    case .typeAttribute?:
      typing = .attribute("")
    case .typeProductID?:
      typing = .productID(app.session.flatMap { session in session.selectedSlot.flatMap { session.paywall.slot(named: $0)?.product.id } } ?? "")
    case .typeOfferCode?:
      typing = .offerCode("")
    case .callRestore?:
      return [.notice("the app called restorePurchases()"), .present(.callRestore)]
    case .toggleLatency?:
      let on = app.store?.faults.contains { $0.hasPrefix("latency") } ?? false
      return [.effect(.debug(.setLatency(seconds: on ? 0 : 2), announce: true))]
    case .toggleBackground?:
      return [.call(.toggleBackground)]
    case .nextTestCard?:
      // On an App Store catalog the store says the cards are Play's.
      let cards = PlayTestCard.allCases
      let next = app.store?.testCard.map { cards[(cards.firstIndex(of: $0)! + 1) % cards.count] } ?? .alwaysApproves
      return [.effect(.debug(.store(.testCard(next)), announce: true))]
    case .toggleAcknowledging?:
      return [.effect(.debug(.store(.acknowledging(!(app.store?.acknowledges ?? true))), announce: true))]
    case .typePresentationResult?:
      typing = .appCall(AppCallInput(.presentationResult))
    case .typeDeepLink?:
      typing = .appCall(AppCallInput(.deepLink))
    case .close?:
      return [.close]
    case nil:
      break
    }
    return []
  }

  /// Typing `key=value` after `u`: enter sets the attribute, esc gives up.
  static func typeAttribute(_ key: Key, _ input: String, _ typing: inout Typing?) -> [OverlayRequest] {
    var input = input
    switch key {
    case .enter:
      typing = nil
      guard let eq = input.firstIndex(of: "="), eq != input.startIndex else {
        return [.notice("\(quoting: input) is not key=value; press u to try again")]
      }
      let name = String(input[..<eq]), value = String(input[input.index(after: eq)...])
      return [.notice("user.\(name) = \(FilterValue(parsing: value))"), .present(.setUserAttributes([name: value]))]
    case .escape:
      typing = nil
    case .backspace:
      if !input.isEmpty { input.removeLast() }
      typing = .attribute(input)
    case .space:
      typing = .attribute(input + " ")
    case .character(let c):
      if input.count < 200 { typing = .attribute(input + String(c)) }
    default:
      break
    }
    return []
  }

  /// Typing a status after `=`, as `--status` and a script's `status` take it: a QA engineer
  /// checks a paywall for a user with some entitlements and not others (`active:pro` without
  /// `music`), which cycling cannot reach. Enter sets it as an app's purchase controller would
  /// (`Superwall.shared.subscriptionStatus = …`); an entitlement no product grants is refused with
  /// a did-you-mean; esc gives up.
  static func typeStatus(_ key: Key, _ input: String, _ typing: inout Typing?, catalog: Catalog) -> [OverlayRequest] {
    switch key {
    case .enter:
      typing = nil
      let granted = catalog.entitlements
      guard let status = SubscriptionStatus(parsing: input, defaultEntitlements: granted) else {
        return [.notice("\(quoting: input) is not a status: active:ENTITLEMENT,…, active, inactive or unknown; press = to try again")]
      }
      let names = granted.map(\.id).sorted()
      if let stranger = status.entitlements.map(\.id).sorted().first(where: { !names.contains($0) }) {
        return [.notice("no product grants \(quoting: stranger)\(Suggestions.hint(for: stranger, in: names)); press = to try again")]
      }
      return [.effect(.debug(.setStatus(status), announce: true))]
    case .escape:
      typing = nil
    case .backspace:
      typing = .status(String(input.dropLast()))
    case .space:
      typing = .status(input + " ")
    case .character(let c) where input.count < 200:
      typing = .status(input + String(c))
    default:
      break
    }
    return []
  }

  /// Typing a product id after `P`: enter makes the app call `purchase(product)` with it (a did-you-mean
  /// when the catalog has no such product), esc gives up.
  static func typeProductID(_ key: Key, _ input: String, _ typing: inout Typing?, catalog: Catalog) -> [OverlayRequest] {
    switch key {
    case .enter:
      typing = nil
      guard let product = catalog.product(id: input) else {
        // A product the catalog defines but does not sell, or another store sells, is told in the
        // log too: its reason (the store, the option that follows it) is longer than the status bar.
        let line = "\(catalog.missingProductLine(input)); press P to try again"
        return [catalog.notSoldReason(input) == nil ? .notice(line) : .tell(line)]
      }
      return [.notice("the app called purchase(\(product.id))"), .present(.callPurchase(product))]
    case .escape:
      typing = nil
    case .backspace:
      typing = .productID(String(input.dropLast()))
    case .character(let c) where input.count < 200:
      typing = .productID(input + String(c))
    default:
      break
    }
    return []
  }

  /// Typing an offer code after `o`: enter redeems it in the store (the store's answer, or why it
  /// refused, shows as the panel's last line), esc gives up. Codes are letters, digits and a few
  /// marks, at most 64 of them (App Store Connect's custom codes are shorter still).
  static func typeOfferCode(_ key: Key, _ input: String, _ typing: inout Typing?) -> [OverlayRequest] {
    switch key {
    case .enter:
      typing = nil
      let code = input.trimmingSpaces()
      guard !code.isEmpty else { return [.notice("no offer code typed; press o to try again")] }
      return [.effect(.debug(.store(.redeem(code: code)), announce: true))]
    case .escape:
      typing = nil
    case .backspace:
      typing = .offerCode(String(input.dropLast()))
    case .character(let c) where input.count < 64 && (c.isLetter || c.isNumber || "-_.".contains(c)):
      typing = .offerCode(input + String(c))
    default:
      break
    }
    return []
  }

  /// Typing a duration after `+`: enter advances the clock by it (a typo stays typed, to fix),
  /// esc gives up.
  static func typeDuration(_ key: Key, _ input: String, _ typing: inout Typing?) -> [OverlayRequest] {
    switch key {
    case .enter:
      let distance: ClockDistance
      switch Duration.parseDistance(input) {
      case .success(let parsed) where parsed != .seconds(0) && parsed != .months(0):
        distance = parsed
      case .failure(.fractionalCalendarUnit):
        return [.notice("\(quoting: input): months (M) and years (y) take whole numbers; use days for the rest (e.g. 45d)")]
      case .failure(.tooLong):
        return [.notice("\(quoting: input) is longer than \(Duration.longestYears)y, the span of dates a ledger holds (1970 to 9999)")]
      default:
        return [.notice("\(quoting: input) is not a duration; use e.g. 90m, 3d, 2w, 1M or 1y")]
      }
      typing = nil
      return [.effect(.debug(.advanceClock(distance), announce: true))]
    case .escape:
      typing = nil
    case .backspace:
      typing = .duration(String(input.dropLast()))
    case .character(let c) where input.count < 12 && (c.isNumber || c.isLetter || c == "."):
      typing = .duration(input + String(c))
    default:
      break
    }
    return []
  }
}

extension ClockDistance {
  /// "1 month", "2 years", "3 days", "90 minutes": how the notice of an advance names it (`1M`
  /// and `730h` read as codes, and a calendar month is no fixed number of hours).
  package var spelledOut: String {
    func count(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
    switch self {
    case .months(let months):
      return months > 0 && months % 12 == 0 ? count(months / 12, "year") : count(months, "month")
    case .seconds(let seconds):
      for (unit, scale) in [("week", 7.0 * 86_400), ("day", 86_400.0), ("hour", 3600.0), ("minute", 60.0), ("second", 1.0)]
      where seconds >= scale && (seconds / scale).rounded() == seconds / scale {
        return count(Int(seconds / scale), unit)
      }
      return TimeRate.spell(seconds)
    }
  }
}
