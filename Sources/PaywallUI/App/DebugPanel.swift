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

/// The QA debug panel's keys (`KeyMap.debugSections`): each asks the runtime to change the world
/// around the app (the clock, the status, the store, faults), or starts typing a duration or a
/// user attribute.
package enum DebugPanel {
  package static func handle(_ key: Key, _ state: inout AppState, now: Date) -> [AppEffect] {
    if let input = state.debugInput { return typeDuration(key, input, &state) }
    if let input = state.attributeInput { return typeAttribute(key, input, &state, now: now) }
    if let input = state.productInput { return typeProductID(key, input, &state, now: now) }
    if let input = state.statusInput { return typeStatus(key, input, &state) }
    if let input = state.codeInput { return typeOfferCode(key, input, &state) }
    if let input = state.callInput { return typeAppCall(key, input, &state, now: now) }
    switch KeyMap.debug.action(for: key) {
    case .world(let action)?:
      return [.debug(action, announce: true)]
    case .cycleStatus?:
      let all = Set(state.project.catalog.products.flatMap(\.entitlements))
      let next: SubscriptionStatus = switch state.status {
      case .unknown: .inactive
      case .inactive: .active(all)
      case .active: .unknown
      }
      return [.debug(.setStatus(next), announce: true)]
    case .typeStatus?:
      state.statusInput = ""
    case .relaunch?:
      return AppModel.update(&state, .presentation(.relaunch), now: now)
    case .typeDuration?:
      state.debugInput = ""
    case .typeAttribute?:
      state.attributeInput = ""
    case .typeProductID?:
      state.productInput = state.session.flatMap { session in session.selectedSlot.flatMap { session.paywall.slot(named: $0)?.product.id } } ?? ""
    case .typeOfferCode?:
      state.codeInput = ""
    case .callRestore?:
      state.notice = "the app called restorePurchases()"
      return AppModel.present(.callRestore, &state, now: now)
    case .toggleLatency?:
      let on = state.store?.faults.contains { $0.hasPrefix("latency") } ?? false
      return [.debug(.setLatency(seconds: on ? 0 : 2), announce: true)]
    case .toggleBackground?:
      return toggleBackground(&state, now: now)
    case .typePresentationResult?:
      state.callInput = AppCallInput(.presentationResult)
    case .typeDeepLink?:
      state.callInput = AppCallInput(.deepLink)
    case .close?:
      state.showsDebug = false
    case nil:
      break
    }
    return []
  }

  /// Typing `key=value` after `u`: enter sets the attribute, esc gives up.
  package static func typeAttribute(_ key: Key, _ input: String, _ state: inout AppState, now: Date) -> [AppEffect] {
    var input = input
    switch key {
    case .enter:
      state.attributeInput = nil
      guard let eq = input.firstIndex(of: "="), eq != input.startIndex else {
        state.notice = "\(quoting: input) is not key=value; press u to try again"
        return []
      }
      let name = String(input[..<eq]), value = String(input[input.index(after: eq)...])
      state.notice = "user.\(name) = \(FilterValue(parsing: value))"
      return AppModel.present(.setUserAttributes([name: value]), &state, now: now)
    case .escape:
      state.attributeInput = nil
    case .backspace:
      if !input.isEmpty { input.removeLast() }
      state.attributeInput = input
    case .space:
      state.attributeInput = input + " "
    case .character(let c):
      if input.count < 200 { state.attributeInput = input + String(c) }
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
  package static func typeStatus(_ key: Key, _ input: String, _ state: inout AppState) -> [AppEffect] {
    switch key {
    case .enter:
      state.statusInput = nil
      let granted = Set(state.project.catalog.products.flatMap(\.entitlements))
      guard let status = SubscriptionStatus(parsing: input, defaultEntitlements: granted) else {
        state.notice = "\(quoting: input) is not a status: active:ENTITLEMENT,…, active, inactive or unknown; press = to try again"
        return []
      }
      let names = granted.map(\.id).sorted()
      if let stranger = status.entitlements.map(\.id).sorted().first(where: { !names.contains($0) }) {
        state.notice = "no product grants \(quoting: stranger)\(Suggestions.hint(for: stranger, in: names)); press = to try again"
        return []
      }
      return [.debug(.setStatus(status), announce: true)]
    case .escape:
      state.statusInput = nil
    case .backspace:
      state.statusInput = String(input.dropLast())
    case .space:
      state.statusInput = input + " "
    case .character(let c) where input.count < 200:
      state.statusInput = input + String(c)
    default:
      break
    }
    return []
  }

  /// Typing a product id after `P`: enter makes the app call `purchase(product)` with it (a did-you-mean
  /// when the catalog has no such product), esc gives up.
  package static func typeProductID(_ key: Key, _ input: String, _ state: inout AppState, now: Date) -> [AppEffect] {
    switch key {
    case .enter:
      let ids = state.project.catalog.productIDs
      guard let product = state.project.catalog.product(id: input) else {
        state.notice = "no product \(quoting: input) in the catalog\(Suggestions.hint(for: input, in: ids)); press P to try again"
        state.productInput = nil
        return []
      }
      state.productInput = nil
      state.notice = "the app called purchase(\(product.id))"
      return AppModel.present(.callPurchase(product), &state, now: now)
    case .escape:
      state.productInput = nil
    case .backspace:
      state.productInput = String(input.dropLast())
    case .character(let c) where input.count < 200:
      state.productInput = input + String(c)
    default:
      break
    }
    return []
  }

  /// Typing an offer code after `o`: enter redeems it in the store (the store's answer, or why it
  /// refused, shows as the panel's last line), esc gives up. Codes are letters, digits and a few
  /// marks, at most 64 of them (App Store Connect's custom codes are shorter still).
  package static func typeOfferCode(_ key: Key, _ input: String, _ state: inout AppState) -> [AppEffect] {
    switch key {
    case .enter:
      state.codeInput = nil
      let code = input.trimmingSpaces()
      guard !code.isEmpty else {
        state.notice = "no offer code typed; press o to try again"
        return []
      }
      return [.debug(.store(.redeem(code: code)), announce: true)]
    case .escape:
      state.codeInput = nil
    case .backspace:
      state.codeInput = String(input.dropLast())
    case .character(let c) where input.count < 64 && (c.isLetter || c.isNumber || "-_.".contains(c)):
      state.codeInput = input + String(c)
    default:
      break
    }
    return []
  }

  /// Typing a duration after `+`: enter advances the clock by it, esc gives up.
  package static func typeDuration(_ key: Key, _ input: String, _ state: inout AppState) -> [AppEffect] {
    switch key {
    case .enter:
      let distance: ClockDistance
      switch Duration.parseDistance(input) {
      case .success(let parsed) where parsed != .seconds(0) && parsed != .months(0):
        distance = parsed
      case .failure(.fractionalCalendarUnit):
        state.notice = "\(quoting: input): months (M) and years (y) take whole numbers; use days for the rest (e.g. 45d)"
        return []
      case .failure(.tooLong):
        state.notice = "\(quoting: input) is longer than \(Duration.longestYears)y, the span of dates a ledger holds (1970 to 9999)"
        return []
      default:
        state.notice = "\(quoting: input) is not a duration; use e.g. 90m, 3d, 2w, 1M or 1y"
        return []
      }
      state.debugInput = nil
      return [.debug(.advanceClock(distance), announce: true)]
    case .escape:
      state.debugInput = nil
    case .backspace:
      state.debugInput = String(input.dropLast())
    case .character(let c) where input.count < 12 && (c.isNumber || c.isLetter || c == "."):
      state.debugInput = input + String(c)
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
