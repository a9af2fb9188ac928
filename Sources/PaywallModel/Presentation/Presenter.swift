import Foundation

/// What the Superwall SDK does between `register(placement:params:handler:feature:)` and the
/// feature running, as one pure reducer: the state and one action in, effects out. `now` is the
/// app's clock (the simulated one in `play`); nothing here reads the wall clock.
///
/// `register` in the SDK's order (`Paywall/Presentation/Internal/InternalPresentation.swift` and
/// its operators in superwall/Superwall-iOS): a built-in name is refused, a paywall already on
/// screen is an error (`CheckNoPaywallAlreadyPresented.swift`), an unknown status waits up to 5 s
/// for a known one (`WaitForSubsStatusAndConfig.swift`); then the campaign decides
/// (`EvaluateRules.swift`): skip (the feature runs) or present. The paywall's purchase, restore and
/// close run in `PaywallFlow`, the presenter's child; what they end in comes back here: the
/// handler's `onDismiss`, the feature, and implicit placements that replace the paywall.
public enum Presenter {
  /// Applies one action to `state` and returns the work it asks for, in order: events to emit,
  /// a purchase or restore for the controller, the status and assignments to save, a status
  /// timeout to schedule. The caller runs each effect and sends its result back as an action
  /// (`.purchaseFinished`, `.restoreFinished`, `.statusTimedOut`); `HeadlessPresenter` is such a
  /// caller.
  public static func update(_ state: inout PresentationState, _ action: PresentationAction, now: Date) -> [PresentationEffect] {
    switch action {
    case .register(let placement, let params):
      return register(placement, params: params, &state, now: now)
    case .open(let id, let selected):
      return open(id, selected: selected, &state, now: now)
    case .paywall(let paywallAction):
      guard var session = state.session else { return [] }
      return apply(PaywallFlow.handle(paywallAction, in: &session, options: state.options), session, &state, now: now)
    case .button(let button):
      return press(button, &state, now: now)
    case .purchaseFinished(let result):
      guard var session = state.session else { return [] }
      return apply(PaywallFlow.purchaseFinished(result, in: &session, options: state.options), session, &state, now: now)
    case .restoreFinished(let result, let status):
      guard var session = state.session else { return [] }
      return apply(PaywallFlow.restoreFinished(result, status: status, in: &session, options: state.options), session, &state, now: now)
    case .statusChanged(let status):
      guard status != state.status else { return [] }
      let event = PaywallEvent(.subscriptionStatusDidChange, [("from", .string(state.status.description)),
                                                             ("to", .string(status.description))])
      state.status = status
      var effects: [PresentationEffect] = [.emit(event), .saveStatus(status)]
      // A register waiting for a known status goes on the moment there is one.
      if status != .unknown, let waiting = state.waiting {
        state.waiting = nil
        effects += evaluate(waiting, &state, now: now)
      }
      return effects
    case .statusTimedOut(let id):
      guard let waiting = state.waiting, waiting.id == id else { return [] }
      state.waiting = nil
      return fail(waiting, code: "subscriptionStatusTimeout",
                  message: "The subscription status was not set within 5 seconds; the feature did not run", &state)
    case .setOverrides(let overrides):
      state.overrides = overrides
      return []
    case .setUserAttributes(let attributes):
      state.userAttributes.merge(attributes) { $1 }
      return []
    case .introOffersUsed(let groups):
      state.usedIntroGroups = groups
      return []
    }
  }

  // MARK: - register

  static func register(_ placement: String, params: [String: String], _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let registration = Registration(id: state.newRegistrationID(), placement: placement, params: params)
    if PlacementNames.builtIn.contains(placement) {
      return fail(registration, code: "isBuiltInEvent", message: "'\(placement)' is a built-in event name and cannot be registered", &state)
    }
    if let session = state.session, !session.isDismissed {
      return fail(registration, code: "paywallAlreadyPresented",
                  message: "a paywall is already on screen (\(session.id)); close it first", &state)
    }
    if state.status == .unknown {
      state.waiting = registration
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .waiting)
      return [.scheduleStatusTimeout(registrationID: registration.id, seconds: PresentationState.statusTimeout)]
    }
    return evaluate(registration, &state, now: now)
  }

  static func fail(_ registration: Registration, code: String, message: String, _ state: inout PresentationState) -> [PresentationEffect] {
    state.outcome = RegistrationOutcome(registrationID: registration.id, placement: registration.placement,
                                        kind: .failed(code: code, message: message))
    return [.emit(PaywallEvent(.handlerOnError, [("placement", .string(registration.placement)), ("code", .string(code)),
                                                ("message", .string(message))]))]
  }

  /// What a registration's audience filters read: the presenter's state and its params.
  static func context(for registration: Registration, _ state: PresentationState) -> FilterContext {
    var context = state.filterContext
    context.params = registration.params.mapValues(FilterValue.init(parsing:))
    return context
  }

  /// Whether `registration` would present a paywall, without recording an assignment.
  static func wouldPresent(_ registration: Registration, _ state: PresentationState) -> Bool {
    var book = state.assignments
    let evaluation = PlacementRules.evaluate(registration.placement, project: state.project,
                                             context: context(for: registration, state), book: &book)
    if case .present = evaluation.outcome { return true }
    return false
  }

  /// The campaign's decision for a registration with a known status, and what follows from it.
  static func evaluate(_ registration: Registration, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let placement = registration.placement
    let before = state.assignments
    let evaluation = PlacementRules.evaluate(placement, project: state.project, context: context(for: registration, state),
                                             book: &state.assignments)
    var effects: [PresentationEffect] = state.assignments != before ? [.saveAssignments(state.assignments)] : []
    let paramList = registration.params.sorted { $0.key < $1.key }.map { ($0.key, JSONOutput.string($0.value)) }
    let base: [(String, JSONOutput)] = [("placement", .string(placement))]
    let triggerResult: String = switch evaluation.outcome {
    case .present, .skip(.userIsSubscribed): "paywall"
    case .skip(let reason): reason.rawValue
    }
    if evaluation.outcome != .skip(.placementNotFound) {
      effects.append(.emit(PaywallEvent(.triggerFire, base + [("result", .string(triggerResult))] + paramList)))
    }
    switch evaluation.outcome {
    case .skip(let reason):
      effects.append(.emit(PaywallEvent(.paywallPresentationRequest, base + [("status", "noPresentation"),
                                                                            ("status_reason", .string(reason.rawValue))])))
      if registration.isImplicit { return effects }
      effects.append(.emit(PaywallEvent(.handlerOnSkip, base + [("reason", .string(reason.rawValue))] + paramList)))
      effects.append(.emit(PaywallEvent(.featureRun, base)))
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .skipped(reason))
      return effects
    case .present(let paywallID):
      effects.append(.emit(PaywallEvent(.paywallPresentationRequest, base + [("status", "presentation"),
                                                                            ("paywall_id", .string(paywallID))])))
      effects += open(paywallID, selected: nil, registration: registration, &state, now: now)
      if !registration.isImplicit {
        effects.append(.emit(PaywallEvent(.handlerOnPresent, base + [("paywall_id", .string(paywallID))])))
      }
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .presented(paywallID: paywallID))
      return effects
    }
  }

  /// A paywall button: the flow's actions, or a placement fired while the paywall is up. Only a
  /// skip can follow a placement (a paywall is on screen), so its campaign is evaluated for its
  /// events and the feature; one that would present is the SDK's `paywallAlreadyPresented`.
  static func press(_ button: ButtonAction, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let action: PaywallAction
    switch button {
    case .purchase(let slot): action = .purchase(slot: slot)
    case .restore: action = .restore
    case .close: action = .close
    case .select(let slot): action = .select(slot: slot)
    case .placement(let name):
      let registration = Registration(id: state.newRegistrationID(), placement: name, params: [:])
      if PlacementNames.builtIn.contains(name) || wouldPresent(registration, state) {
        return register(name, params: [:], &state, now: now)
      }
      return evaluate(registration, &state, now: now)
    }
    return update(&state, .paywall(action), now: now)
  }

  // MARK: - Opening and the flow's results

  static func open(_ id: String, selected: String?, registration: Registration? = nil, _ state: inout PresentationState,
                   now: Date) -> [PresentationEffect] {
    guard state.session == nil || state.session?.isDismissed == true,
          var definition = state.project.paywall(id: id) else { return [] }
    if !state.overrides.isEmpty {
      definition = definition.applying(state.overrides, catalog: state.project.catalog).0
    }
    let snapshot = state
    // `isSubscribed` and `user.*` as the SDK's template variables read them
    // (`Paywall/View Controller/Web View/Templating/TemplateLogic.swift`, `Models/Variables.swift`).
    let resolved = ResolvedPaywall(definition, catalog: state.project.catalog, now: now, isTrialEligible: { snapshot.isTrialEligible($0) },
                                   isSubscribed: { snapshot.status.isActive && snapshot.purchasedProducts.contains($0.id) },
                                   userAttributes: state.userAttributes, params: registration?.params ?? [:])
    let (session, effects) = PaywallFlow.open(resolved, selected: selected)
    state.closed = nil
    state.lastPaywallID = id
    state.registration = registration
    return apply(effects, session, &state, now: now)
  }

  /// Stores the session and turns the flow's effects into the presenter's; a dismissal clears the
  /// screen. Also where a registration ends: the handler hears the result, the feature runs as the
  /// SDK runs it (after purchased or restored; after declined only when non-gated), and an implicit
  /// placement (`transaction_abandon`, `transaction_fail`, `paywall_decline`) with a campaign
  /// replaces the paywall with its own, once.
  static func apply(_ effects: [FlowEffect], _ session: PaywallSession, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
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
    var out: [PresentationEffect] = []
    var dismissed = false
    for effect in effects {
      switch effect {
      case .purchase(let product, let slot): out.append(.purchase(product, slot: slot))
      case .restore: out.append(.restore)
      case .emit(let event):
        out.append(.emit(event))
        if event.name == .transactionComplete, let id = event["product_id"]?.stringValue, !state.purchasedProducts.contains(id) {
          state.purchasedProducts.append(id)
        }
      case .dismissed(let result):
        dismissed = true
        state.closed = ClosedPaywall(paywallID: session.id, result: result)
        state.session = nil
        out += finish(registration, paywallID: session.id, result: result, forNextPaywall: chained != nil, &state)
      }
    }
    if let next = chained {
      if !dismissed, var current = state.session {
        // The SDK closes the paywall "for the next paywall": its feature does not run.
        current.result = .declined
        out.append(.emit(PaywallEvent(.paywallClose, [("paywall_id", .string(current.id)),
                                                      ("paywall_name", .string(current.paywall.definition.name)),
                                                      ("result", "declined"), ("close_reason", "forNextPaywall")])))
        state.closed = ClosedPaywall(paywallID: current.id, result: .declined)
        state.session = nil
        out += finish(registration, paywallID: current.id, result: .declined, forNextPaywall: true, &state)
      }
      out += evaluate(next, &state, now: now)
    }
    return out
  }

  /// The handler's `onDismiss` and the feature, for a paywall that `register` presented.
  static func finish(_ registration: Registration?, paywallID: String, result: PaywallResult, forNextPaywall: Bool,
                     _ state: inout PresentationState) -> [PresentationEffect] {
    state.registration = nil
    guard let registration, !registration.isImplicit else { return [] }
    let gating = state.project.paywall(id: paywallID)?.featureGating ?? .nonGated
    var params: [(String, JSONOutput)] = [("placement", .string(registration.placement)), ("paywall_id", .string(paywallID)),
                                          ("result", .string(result.name))]
    if forNextPaywall { params.append(("close_reason", "forNextPaywall")) }
    var effects: [PresentationEffect] = [.emit(PaywallEvent(.handlerOnDismiss, params))]
    let runs: Bool = switch result {
    case .purchased, .restored: !forNextPaywall
    case .declined: !forNextPaywall && gating == .nonGated
    }
    if runs { effects.append(.emit(PaywallEvent(.featureRun, [("placement", .string(registration.placement))]))) }
    state.outcome = RegistrationOutcome(registrationID: registration.id, placement: registration.placement,
                                        kind: .dismissed(paywallID: paywallID, result: result, gating: gating,
                                                         forNextPaywall: forNextPaywall, featureRan: runs))
    return effects
  }
}
