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
    let resolved = ResolvedPaywall(definition, catalog: state.project.catalog)
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

  /// The panel's keys, shown in the panel itself.
  static let debugKeys: [(Character, String)] = [
    ("s", "status: cycle unknown → inactive → active (all entitlements)"),
    ("a", "advance the clock by 1 day"),
    ("m", "advance the clock by 1 month"),
    ("y", "approve the pending Ask to Buy purchase"),
    ("n", "decline it"),
    ("f", "refund the latest purchase"),
    ("x", "fail the next purchase (\"Card declined\")"),
  ]

  static func handleDebug(_ key: Key, _ state: inout AppState) -> [AppEffect] {
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
    case "a": return [.debug(.advanceClock(seconds: 86_400))]
    case "m": return [.debug(.advanceClock(seconds: 86_400 * 365 / 12))]
    case "y": return [.debug(.approvePending)]
    case "n": return [.debug(.declinePending)]
    case "f": return [.debug(.refundLatest)]
    case "x": return [.debug(.failNextPurchase("Card declined"))]
    case "d", "q":
      state.showsDebug = false
      return []
    default:
      return []
    }
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
