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
      var effects = record([.emit(event)], &state) + [.saveStatus(status)]
      // A register waiting for a known status goes on the moment there is one.
      if status != .unknown, let waiting = state.waiting {
        state.waiting = nil
        effects += evaluate(waiting, &state)
      }
      return effects
    case .registrationTimedOut(let id):
      guard let waiting = state.waiting, waiting.id == id else { return [] }
      state.waiting = nil
      return registrationError(waiting.placement, code: "subscriptionStatusTimeout",
                               message: "The subscription status was not set within 5 seconds; the feature did not run", &state)
    case .setOverrides(let overrides):
      state.overrides = overrides
      state.notice = overrides.isEmpty ? "overrides cleared" : "overrides: " + overrides.map(\.description).joined(separator: ", ")
      return []
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

  /// `register(placement, params, feature)` in the SDK's order: a built-in name is refused, a
  /// paywall already on screen is an error, an unknown status waits (up to 5 s) for a known one;
  /// then the campaign decides: skip (the feature runs) or present.
  static func register(_ placement: String, params: [String: String], _ state: inout AppState) -> [AppEffect] {
    if PlacementNames.builtIn.contains(placement) {
      return registrationError(placement, code: "isBuiltInEvent",
                               message: "'\(placement)' is a built-in event name and cannot be registered", &state)
    }
    if let session = state.session, !session.isDismissed {
      return registrationError(placement, code: "paywallAlreadyPresented",
                               message: "a paywall is already on screen (\(session.id)); close it first", &state)
    }
    let registration = Registration(id: state.newRegistrationID(), placement: placement, params: params)
    if state.status == .unknown {
      state.waiting = registration
      state.notice = "placement \(placement): waiting up to 5 s for the subscription status"
      state.outcome = ["\(placement): waiting for the subscription status…"]
      return [.startStatusTimeout(id: registration.id, seconds: 5)]
    }
    return evaluate(registration, &state)
  }

  /// What a registration's audience filters read: the app's state and its params.
  static func context(for registration: Registration, _ state: AppState) -> FilterContext {
    var context = state.filterContext
    context.params = registration.params.mapValues(FilterValue.init(parsing:))
    return context
  }

  /// Whether `registration` would present a paywall, without recording an assignment.
  static func wouldPresent(_ registration: Registration, _ state: AppState) -> Bool {
    var book = state.assignments
    let evaluation = PlacementRules.evaluate(registration.placement, project: state.project,
                                             context: context(for: registration, state), book: &book)
    if case .present = evaluation.outcome { return true }
    return false
  }

  static func registrationError(_ placement: String, code: String, message: String, _ state: inout AppState) -> [AppEffect] {
    state.notice = message
    state.outcome = ["\(placement): error (\(code))", message, "the feature did not run"]
    return record([.emit(PaywallEvent(.handlerOnError, [("placement", .string(placement)), ("code", .string(code)),
                                                       ("message", .string(message))]))], &state)
  }

  /// The campaign's decision for a registration with a known status, and what follows from it.
  static func evaluate(_ registration: Registration, _ state: inout AppState) -> [AppEffect] {
    let placement = registration.placement
    let before = state.assignments
    let evaluation = PlacementRules.evaluate(placement, project: state.project, context: context(for: registration, state),
                                             book: &state.assignments)
    var effects: [AppEffect] = state.assignments != before ? [.saveAssignments(state.assignments)] : []
    let paramList = registration.params.sorted { $0.key < $1.key }.map { ($0.key, JSONOutput.string($0.value)) }
    let base: [(String, JSONOutput)] = [("placement", .string(placement))]
    let triggerResult: String = switch evaluation.outcome {
    case .present, .skip(.userIsSubscribed): "paywall"
    case .skip(let reason): reason.rawValue
    }
    var events: [PaywallEvent] = []
    if evaluation.outcome != .skip(.placementNotFound) {
      events.append(PaywallEvent(.triggerFire, base + [("result", .string(triggerResult))] + paramList))
    }
    switch evaluation.outcome {
    case .skip(let reason):
      events.append(PaywallEvent(.paywallPresentationRequest, base + [("status", "noPresentation"),
                                                                      ("status_reason", .string(reason.rawValue))]))
      if registration.isImplicit { return effects + record(events.map { .emit($0) }, &state) }
      events.append(PaywallEvent(.handlerOnSkip, base + [("reason", .string(reason.rawValue))] + paramList))
      events.append(PaywallEvent(.featureRun, base))
      state.notice = "placement \(placement): skipped (\(reason.rawValue)); the feature ran"
      state.outcome = ["\(placement): skipped (\(reason.rawValue))", "feature ran: \(placement)"]
      return effects + record(events.map { .emit($0) }, &state)
    case .present(let paywallID):
      events.append(PaywallEvent(.paywallPresentationRequest, base + [("status", "presentation"), ("paywall_id", .string(paywallID))]))
      effects += record(events.map { .emit($0) }, &state)
      effects += open(paywallID, selected: nil, registration: registration, &state)
      if !registration.isImplicit {
        effects += record([.emit(PaywallEvent(.handlerOnPresent, base + [("paywall_id", .string(paywallID))]))], &state)
      }
      state.outcome = ["\(placement): presented \(paywallID)"]
      return effects
    }
  }

  // MARK: - Opening and flow results

  static func open(_ id: String, selected: String?, registration: Registration? = nil, _ state: inout AppState) -> [AppEffect] {
    guard state.session == nil || state.session?.isDismissed == true,
          var definition = state.project.paywall(id: id) else { return [] }
    if !state.overrides.isEmpty {
      definition = definition.applying(state.overrides, catalog: state.project.catalog).0
    }
    let resolved = ResolvedPaywall(definition, catalog: state.project.catalog, isTrialEligible: { state.isTrialEligible($0) })
    let (session, effects) = PaywallFlow.open(resolved, selected: selected)
    state.closed = nil
    state.lastPaywallID = id
    state.registration = registration
    state.focus = PaywallScreenState(paywall: resolved).focus
    return apply(effects, session, &state)
  }

  /// Stores the session and turns flow effects into app effects; a dismissal clears the screen.
  /// Also where a registration ends: the handler hears the result, the feature runs as the SDK
  /// runs it (after purchased or restored; after declined only when non-gated), and an implicit
  /// placement (`transaction_abandon`, `transaction_fail`, `paywall_decline`) with a campaign
  /// replaces the paywall with its own, once.
  static func apply(_ effects: [FlowEffect], _ session: PaywallSession, _ state: inout AppState) -> [AppEffect] {
    state.session = session
    let registration = state.registration
    var chained: Registration?
    if registration?.isImplicit != true {
      for case .emit(let event) in effects where Campaign.implicitPlacements.contains(event.name.rawValue) {
        let params = Dictionary(event.params.compactMap { key, value in value.stringValue.map { (key, $0) } },
                                uniquingKeysWith: { first, _ in first })
        let candidate = Registration(id: state.newRegistrationID(), placement: event.name.rawValue, params: params, isImplicit: true)
        if wouldPresent(candidate, state) {
          chained = candidate
          break
        }
      }
    }
    var out: [AppEffect] = []
    var dismissed = false
    for effect in effects {
      switch effect {
      case .purchase(let product, let slot): out.append(.purchase(product, slot: slot))
      case .restore: out.append(.restore)
      case .emit(let event):
        out += record([.emit(event)], &state)
        if event.name == .transactionComplete, let id = event["product_id"]?.stringValue, !state.purchasedProducts.contains(id) {
          state.purchasedProducts.append(id)
        }
      case .dismissed(let result):
        dismissed = true
        state.closed = (session.id, result)
        state.session = nil
        state.focus = nil
        out += finishRegistration(registration, paywallID: session.id, result: result, forNextPaywall: chained != nil, &state)
      }
    }
    if let next = chained {
      if !dismissed, var current = state.session {
        // The SDK closes the paywall "for the next paywall": its feature does not run.
        current.result = .declined
        out += record([.emit(PaywallEvent(.paywallClose, [("paywall_id", .string(current.id)),
                                                          ("paywall_name", .string(current.paywall.definition.name)),
                                                          ("result", "declined"), ("close_reason", "forNextPaywall")]))], &state)
        state.closed = (current.id, .declined)
        state.session = nil
        state.focus = nil
        out += finishRegistration(registration, paywallID: current.id, result: .declined, forNextPaywall: true, &state)
      }
      out += evaluate(next, &state)
    }
    return out
  }

  /// The handler's `onDismiss` and the feature, for a paywall that `register` presented.
  static func finishRegistration(_ registration: Registration?, paywallID: String, result: PaywallResult, forNextPaywall: Bool,
                                 _ state: inout AppState) -> [AppEffect] {
    state.registration = nil
    guard let registration, !registration.isImplicit else { return [] }
    let gating = state.project.paywall(id: paywallID)?.featureGating ?? .nonGated
    var params: [(String, JSONOutput)] = [("placement", .string(registration.placement)), ("paywall_id", .string(paywallID)),
                                          ("result", .string(result.name))]
    if forNextPaywall { params.append(("close_reason", "forNextPaywall")) }
    var events = [PaywallEvent(.handlerOnDismiss, params)]
    let runs: Bool = switch result {
    case .purchased, .restored: !forNextPaywall
    case .declined: !forNextPaywall && gating == .nonGated
    }
    var outcome = ["\(registration.placement): \(paywallID) \(result)\(forNextPaywall ? " (for the next paywall)" : "")"]
    if runs {
      events.append(PaywallEvent(.featureRun, [("placement", .string(registration.placement))]))
      outcome.append("feature ran: \(registration.placement)")
    } else {
      outcome.append("feature did not run" + (forNextPaywall ? " (closed for the next paywall)" : " (\(gating == .gated ? "gated" : "non-gated"))"))
    }
    state.outcome = outcome
    return record(events.map { .emit($0) }, &state)
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
      // A placement fired from a paywall while it is up: only a skip can follow (a paywall is
      // already on screen), so the campaign is evaluated for its events and the feature.
      let registration = Registration(id: state.newRegistrationID(), placement: name, params: [:])
      if PlacementNames.builtIn.contains(name) || wouldPresent(registration, state) { return register(name, params: [:], &state) }
      return evaluate(registration, &state)
    }
  }

  static func act(_ action: PaywallAction, _ session: inout PaywallSession, _ state: inout AppState) -> [AppEffect] {
    let effects = PaywallFlow.handle(action, in: &session, options: state.options)
    return apply(effects, session, &state)
  }

  /// With no paywall up, the home screen: ↑↓ choose a placement and Enter registers it (without
  /// campaigns Enter shows the last paywall again); q or Esc quits.
  static func handleClosed(_ key: Key, _ state: inout AppState) -> [AppEffect] {
    let placements = state.project.placements
    switch key {
    // The condition is on each pattern: a `where` after a list only guards the last one.
    case .up where !placements.isEmpty, .backTab where !placements.isEmpty:
      state.homeSelection = (state.homeSelection + placements.count - 1) % placements.count
      return []
    case .down where !placements.isEmpty, .tab where !placements.isEmpty:
      state.homeSelection = (state.homeSelection + 1) % placements.count
      return []
    case .character(let c) where c.isWholeNumber && !placements.isEmpty:
      guard let n = c.wholeNumberValue, n >= 1, n <= placements.count else { return [] }
      state.homeSelection = n - 1
      return register(placements[n - 1], params: [:], &state)
    case .enter:
      if !placements.isEmpty {
        return register(placements[min(state.homeSelection, placements.count - 1)], params: [:], &state)
      }
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
    ("renewals", [("c", "cancel"), ("f", "refund"), ("v", "revoke"), ("U", "upgrade"), ("O", "downgrade")]),
    ("billing", [("b", "card fails"), ("g", "fix it"), ("p", "raise price"), ("k", "accept"), ("j", "decline")]),
    ("family", [("F", "share a product"), ("R", "stop sharing")]),
    ("faults", [("x", "fail purchase"), ("z", "fail restore"), ("t", "latency"), ("D", "drop reply")]),
    ("user", [("u", "set a user attribute (key=value) for audience filters")]),
  ]

  static var debugKeys: [(Character, String)] { debugSections.flatMap(\.1) }

  static let month: Double = 86_400 * 365 / 12

  static func handleDebug(_ key: Key, _ state: inout AppState) -> [AppEffect] {
    if let input = state.debugInput { return handleDebugInput(key, input, &state) }
    if var input = state.attributeInput {
      switch key {
      case .enter:
        state.attributeInput = nil
        guard let eq = input.firstIndex(of: "="), eq != input.startIndex else {
          state.notice = "\(quoting: input) is not key=value; press u to try again"
          return []
        }
        let name = String(input[..<eq]), value = String(input[input.index(after: eq)...])
        state.userAttributes[name] = value
        state.notice = "user.\(name) = \(FilterValue(parsing: value))"
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
    if key == .character("u") {
      state.attributeInput = ""
      return []
    }
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
    case "U": return [.debug(.store(.upgrade(productID: nil)))]
    case "O": return [.debug(.store(.downgrade(productID: nil)))]
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
      let seconds: Double
      switch Duration.parseSeconds(input) {
      case .success(let parsed) where parsed > 0:
        seconds = parsed
      case .failure(.tooLong):
        state.notice = "\(quoting: input) is longer than \(Duration.longestYears)y, the span of dates a ledger holds (1970 to 9999)"
        return []
      default:
        state.notice = "\(quoting: input) is not a duration; use e.g. 90m, 3d, 2w, 1M or 1y"
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
