import PaywallModel

/// The app's one update function: the state and one message in, effects out. Pure, so every flow
/// is testable without a terminal and `play` is the same loop with keys from a script.
public enum AppModel {
  public static func update(_ state: inout AppState, _ message: AppMessage) -> [AppEffect] {
    switch message {
    case .key(let key):
      return handle(key, &state)
    case .open(let id, let selected):
      return open(id, selected: selected, &state)
    case .statusChanged(let status):
      guard status != state.status else { return [] }
      let event = PaywallEvent(.subscriptionStatusDidChange, [("from", .string(state.status.description)),
                                                             ("to", .string(status.description))])
      state.status = status
      return record([.emit(event)], &state) + [.saveStatus(status)]
    case .purchaseFinished(let result):
      guard var session = state.session else { return [] }
      let effects = PaywallFlow.purchaseFinished(result, in: &session, options: state.options)
      return apply(effects, session, &state)
    case .restoreFinished(let result, let status):
      guard var session = state.session else { return [] }
      let effects = PaywallFlow.restoreFinished(result, status: status, in: &session, options: state.options)
      return apply(effects, session, &state)
    case .askRequested(let request):
      state.ask = dialog(for: request, state)
      return []
    case .notice(let text):
      state.notice = text
      state.appendLog("! \(text)")
      return []
    case .controllerProblem(let text):
      state.notice = text
      return record([.emit(PaywallEvent(.controllerError, [("message", .string(text))]))], &state)
    case .userAttributes(let attributes):
      state.userAttributes.merge(attributes) { $1 }
      return []
    case .storeChanged(let panel):
      state.store = panel
      return []
    case .register(let placement, let params):
      return register(placement, params: params, &state)
    case .tick:
      if state.session?.isBusy == true { state.spinnerFrame &+= 1 }
      return []
    case .resized(let size):
      state.size = size
      return []
    case .terminate(let reason):
      state.quitRequested = true
      state.notice = reason
      return [.quit]
    }
  }

  /// Names the SDK tracks itself; registering one is refused.
  static let builtInPlacements: Set<String> = Set(EventName.allCases.map(\.rawValue)).union([
    "app_open", "app_launch", "app_install", "app_close", "session_start", "first_seen", "deepLink_open",
    "user_attributes", "touches_began", "survey_response",
  ])

  /// The SDK's register order, as far as this project defines campaigns: a built-in name is
  /// refused, a paywall already on screen is an error, and a placement with no campaign is
  /// skipped (`placementNotFound`), which runs the feature.
  static func register(_ placement: String, params: [String: String], _ state: inout AppState) -> [AppEffect] {
    func error(_ code: String, _ message: String) -> [AppEffect] {
      state.notice = message
      return record([.emit(PaywallEvent(.handlerOnError, [("placement", .string(placement)), ("code", .string(code)),
                                                         ("message", .string(message))]))], &state)
    }
    if builtInPlacements.contains(placement) {
      return error("isBuiltInEvent", "'\(placement)' is a built-in event name and cannot be registered")
    }
    if let session = state.session, !session.isDismissed {
      return error("paywallAlreadyPresented", "a paywall is already on screen (\(session.id)); close it first")
    }
    let paramList = params.sorted { $0.key < $1.key }.map { ($0.key, JSONOutput.string($0.value)) }
    state.notice = "placement \(placement): no campaign (placementNotFound); the feature ran"
    return record([
      .emit(PaywallEvent(.handlerOnSkip, [("placement", .string(placement)), ("reason", "placementNotFound")] + paramList)),
      .emit(PaywallEvent(.featureRun, [("placement", .string(placement))])),
    ], &state)
  }

  // MARK: - Opening and flow results

  static func open(_ id: String, selected: String?, _ state: inout AppState) -> [AppEffect] {
    guard state.session == nil || state.session?.isDismissed == true,
          let definition = state.project.paywall(id: id) else { return [] }
    let resolved = ResolvedPaywall(definition, catalog: state.project.catalog, isTrialEligible: { state.isTrialEligible($0) })
    let (session, effects) = PaywallFlow.open(resolved, selected: selected)
    state.closed = nil
    state.lastPaywallID = id
    state.focus = PaywallScreenState(paywall: resolved).focus
    return apply(effects, session, &state)
  }

  /// Stores the session and turns flow effects into app effects; a dismissal clears the screen.
  static func apply(_ effects: [FlowEffect], _ session: PaywallSession, _ state: inout AppState) -> [AppEffect] {
    state.session = session
    var out: [AppEffect] = []
    for effect in effects {
      switch effect {
      case .purchase(let product, let slot): out.append(.purchase(product, slot: slot))
      case .restore: out.append(.restore)
      case .emit(let event): out += record([.emit(event)], &state)
      case .dismissed(let result):
        state.closed = (session.id, result)
        state.session = nil
        state.focus = nil
      }
    }
    return out
  }

  static func record(_ effects: [AppEffect], _ state: inout AppState) -> [AppEffect] {
    for case .emit(let event) in effects { state.appendLog(event.description) }
    return effects
  }

  // MARK: - Keys

  static func handle(_ key: Key, _ state: inout AppState) -> [AppEffect] {
    if case .click(let x, let y) = key { return click(x: x, y: y, &state) }
    if state.ask != nil { return handleAsk(key, &state) }
    if state.showsDebug { return handleDebug(key, &state) }
    if state.showsHelp {
      state.showsHelp = false
      return []
    }
    if key == .character("?") {
      state.showsHelp = true
      return []
    }
    if key == .character("l") {
      state.showsLog.toggle()
      return []
    }
    if key == .character("d") {
      state.showsDebug = true
      return []
    }
    guard var session = state.session else { return handleClosed(key, &state) }
    if session.alert != nil {
      guard key == .enter || key == .escape || key == .space else { return [] }
      return act(.dismissAlert, &session, &state)
    }
    guard !session.isBusy else { return [] }
    let slots = session.paywall.slots.map(\.slot)
    let order = PaywallScreenState.focusOrder(of: session.paywall.definition)
    switch key {
    case .character(let c) where c.isWholeNumber:
      guard let n = c.wholeNumberValue, n >= 1, n <= slots.count else { return [] }
      return act(.select(slot: slots[n - 1]), &session, &state)
    case .left, .right:
      guard let current = session.selectedSlot.flatMap(slots.firstIndex(of:)) else { return [] }
      let next = key == .left ? max(0, current - 1) : min(slots.count - 1, current + 1)
      return act(.select(slot: slots[next]), &session, &state)
    case .tab, .down, .backTab, .up:
      guard !order.isEmpty else { return [] }
      let forward = key == .tab || key == .down
      let next: Int
      if let current = state.focus.flatMap(order.firstIndex(of:)) {
        next = forward ? (current + 1) % order.count : (current + order.count - 1) % order.count
      } else {
        next = forward ? 0 : order.count - 1
      }
      state.focus = order[next]
      return []
    case .enter:
      switch state.focus {
      case .products:
        state.focus = PaywallScreenState.firstPurchaseButton(of: session.paywall.definition) ?? state.focus
        return []
      case .button(let index):
        guard case .button(let button) = session.paywall.definition.components[index] else { return [] }
        return activate(button.action, &session, &state)
      case nil:
        return act(.purchase(slot: nil), &session, &state)
      }
    case .space:
      if case .button(let index) = state.focus, case .button(let button) = session.paywall.definition.components[index] {
        return activate(button.action, &session, &state)
      }
      return []
    case .character("r"):
      return act(.restore, &session, &state)
    case .character("q"), .escape:
      return act(.close, &session, &state)
    default:
      return []
    }
  }

  static func activate(_ action: ButtonAction, _ session: inout PaywallSession, _ state: inout AppState) -> [AppEffect] {
    switch action {
    case .purchase(let slot): return act(.purchase(slot: slot), &session, &state)
    case .restore: return act(.restore, &session, &state)
    case .close: return act(.close, &session, &state)
    case .select(let slot): return act(.select(slot: slot), &session, &state)
    case .placement(let name):
      // A placement fired from a paywall: the paywall stays, so only skips can follow.
      let event = PaywallEvent(.handlerOnSkip, [("placement", .string(name)), ("reason", "placementNotFound")])
      state.notice = "placement \(name): no campaign (placementNotFound)"
      return record([.emit(event)], &state)
    }
  }

  static func act(_ action: PaywallAction, _ session: inout PaywallSession, _ state: inout AppState) -> [AppEffect] {
    let effects = PaywallFlow.handle(action, in: &session, options: state.options)
    return apply(effects, session, &state)
  }

  /// With no paywall up: Enter shows the last one again, q or Esc quits.
  static func handleClosed(_ key: Key, _ state: inout AppState) -> [AppEffect] {
    switch key {
    case .enter:
      guard let id = state.lastPaywallID ?? state.project.paywalls.first?.id else { return [] }
      return open(id, selected: nil, &state)
    case .character("q"), .escape:
      state.quitRequested = true
      return [.quit]
    default:
      return []
    }
  }

  // MARK: - Mouse

  /// A click hits what the view drew there: a card selects its product (and takes the focus), a
  /// button is activated; a click anywhere on an alert dismisses it.
  static func click(x: Int, y: Int, _ state: inout AppState) -> [AppEffect] {
    guard state.ask == nil, !state.showsHelp, !state.showsDebug else { return [] }
    guard var session = state.session else { return handleClosed(.enter, &state) }
    if session.alert != nil { return act(.dismissAlert, &session, &state) }
    guard !session.isBusy else { return [] }
    var screen = PaywallScreenState(paywall: session.paywall, selectedSlot: session.selectedSlot, statusText: "")
    screen.focus = state.focus
    let regions = PaywallRenderer.layout(screen, size: AppView.paywallSize(state)).regions
    guard let hit = regions.first(where: { $0.contains(x: x, y: y) }) else { return [] }
    switch hit.target {
    case .slot(let slot):
      state.focus = .products
      return act(.select(slot: slot), &session, &state)
    case .button(let index):
      state.focus = .button(index)
      guard case .button(let button) = session.paywall.definition.components[index] else { return [] }
      return activate(button.action, &session, &state)
    }
  }

  // MARK: - The debug panel

  /// The panel's keys by topic, shown in the panel itself.
  static let debugSections: [(String, [(Character, String)])] = [
    ("clock", [("h", "+1 hour"), ("a", "+1 day"), ("w", "+1 week"), ("m", "+1 month"), (">", "next change"),
               ("+", "type a duration")]),
    ("status", [("s", "cycle unknown → inactive → active (all entitlements)")]),
    ("purchases", [("y", "approve Ask to Buy"), ("n", "decline"), ("i", "interrupt"), ("e", "resume")]),
    ("renewals", [("c", "cancel"), ("f", "refund"), ("v", "revoke"), ("u", "upgrade"), ("o", "downgrade")]),
    ("billing", [("b", "card fails"), ("g", "fix it"), ("p", "raise price"), ("k", "accept"), ("j", "decline")]),
    ("family", [("F", "share a product"), ("R", "stop sharing")]),
    ("faults", [("x", "fail purchase"), ("z", "fail restore"), ("t", "latency"), ("D", "drop reply")]),
  ]

  static var debugKeys: [(Character, String)] { debugSections.flatMap(\.1) }

  static let month: Double = 86_400 * 365 / 12

  static func handleDebug(_ key: Key, _ state: inout AppState) -> [AppEffect] {
    if let input = state.debugInput { return handleDebugInput(key, input, &state) }
    guard case .character(let c) = key else {
      if key == .escape || key == .enter { state.showsDebug = false }
      return []
    }
    switch c {
    case "s":
      let all = Set(state.project.catalog.products.flatMap(\.entitlements))
      let next: SubscriptionStatus = switch state.status {
      case .unknown: .inactive
      case .inactive: .active(all)
      case .active: .unknown
      }
      return [.debug(.setStatus(next))]
    case "h": return [.debug(.advanceClock(seconds: 3600))]
    case "a": return [.debug(.advanceClock(seconds: 86_400))]
    case "w": return [.debug(.advanceClock(seconds: 7 * 86_400))]
    case "m": return [.debug(.advanceClock(seconds: month))]
    case ">": return [.debug(.advanceToNextEvent)]
    case "+":
      state.debugInput = ""
      return []
    case "y": return [.debug(.store(.approve))]
    case "n": return [.debug(.store(.decline))]
    case "i": return [.debug(.store(.interruptNextPurchase))]
    case "e": return [.debug(.store(.resolveInterrupted))]
    case "c": return [.debug(.store(.cancel(productID: nil)))]
    case "f": return [.debug(.store(.refund(productID: nil)))]
    case "v": return [.debug(.store(.revoke(productID: nil)))]
    case "u": return [.debug(.store(.upgrade(productID: nil)))]
    case "o": return [.debug(.store(.downgrade(productID: nil)))]
    case "b": return [.debug(.store(.billingIssue(productID: nil, grace: nil)))]
    case "g": return [.debug(.store(.resolveBilling(productID: nil)))]
    case "p": return [.debug(.store(.priceIncrease(productID: nil, price: nil)))]
    case "k": return [.debug(.store(.acceptPrice(productID: nil)))]
    case "j": return [.debug(.store(.declinePrice(productID: nil)))]
    case "F": return [.debug(.store(.familyShare(productID: nil)))]
    case "R": return [.debug(.store(.familyRevoke(productID: nil)))]
    case "x": return [.debug(.failNextPurchase("Card declined"))]
    case "z": return [.debug(.failNextRestore(.networkError))]
    case "t":
      let on = state.store?.faults.contains { $0.hasPrefix("latency") } ?? false
      return [.debug(.setLatency(seconds: on ? 0 : 2))]
    case "D": return [.debug(.dropNextResponse)]
    case "d", "q":
      state.showsDebug = false
      return []
    default:
      return []
    }
  }

  /// Typing a duration after `+`: enter advances the clock by it, esc gives up.
  static func handleDebugInput(_ key: Key, _ input: String, _ state: inout AppState) -> [AppEffect] {
    switch key {
    case .enter:
      guard let seconds = Duration.seconds(parsing: input), seconds > 0 else {
        state.notice = "'\(input)' is not a duration; use e.g. 90m, 3d, 2w, 1M or 1y"
        return []
      }
      state.debugInput = nil
      return [.debug(.advanceClock(seconds: seconds))]
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

  // MARK: - The ask dialog

  static func dialog(for request: AskPurchaseController.Request, _ state: AppState) -> AskDialog {
    let all = Array(Set(state.project.catalog.products.flatMap(\.entitlements))).sorted()
    switch request.question {
    case .purchase(let product):
      return AskDialog(request: request, outcome: .purchased, entitlements: all, granted: product.entitlements)
    case .restore:
      let offered = Set(state.session?.paywall.slots.flatMap(\.product.entitlements) ?? [])
      return AskDialog(request: request, outcome: .restored, entitlements: all, granted: offered)
    }
  }

  static func handleAsk(_ key: Key, _ state: inout AppState) -> [AppEffect] {
    guard var dialog = state.ask else { return [] }
    let outcomes = dialog.outcomes
    let rows: [AskDialog.Row] = dialog.outcome == .failed ? [.outcome, .entitlements, .message] : [.outcome, .entitlements]
    func answer(_ outcome: AskPurchaseController.Outcome) -> [AppEffect] {
      state.ask = nil
      let granted = outcome == .purchased || outcome == .restored ? dialog.granted : []
      let answer = AskPurchaseController.Answer(outcome: outcome, entitlements: granted, message: dialog.message)
      return [.answerAsk(id: dialog.request.id, answer)]
    }
    switch key {
    case .enter:
      return answer(dialog.outcome)
    case .escape:
      return answer(outcomes.contains(.cancelled) ? .cancelled : .failed)
    case .tab, .down:
      dialog.row = rows[((rows.firstIndex(of: dialog.row) ?? 0) + 1) % rows.count]
      dialog.cursor = 0
    case .backTab, .up:
      dialog.row = rows[((rows.firstIndex(of: dialog.row) ?? 0) + rows.count - 1) % rows.count]
      dialog.cursor = 0
    case .left, .right:
      let step = key == .left ? -1 : 1
      if dialog.row == .outcome, let index = outcomes.firstIndex(of: dialog.outcome) {
        dialog.outcome = outcomes[(index + step + outcomes.count) % outcomes.count]
      } else if dialog.row == .entitlements, !dialog.entitlements.isEmpty {
        dialog.cursor = (dialog.cursor + step + dialog.entitlements.count) % dialog.entitlements.count
      }
    case .space where dialog.row == .entitlements && !dialog.entitlements.isEmpty:
      let entitlement = dialog.entitlements[dialog.cursor]
      if dialog.granted.contains(entitlement) { dialog.granted.remove(entitlement) } else { dialog.granted.insert(entitlement) }
    case .backspace where dialog.row == .message:
      if !dialog.message.isEmpty { dialog.message.removeLast() }
    case .space where dialog.row == .message:
      dialog.message.append(" ")
    case .character(let c) where dialog.row == .message:
      if dialog.message.count < 200 { dialog.message.append(c) }
    case .character(let c) where dialog.row == .outcome:
      if let n = c.wholeNumberValue, n >= 1, n <= outcomes.count { dialog.outcome = outcomes[n - 1] }
    default:
      break
    }
    state.ask = dialog
    return []
  }
}
