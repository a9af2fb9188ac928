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

/// What the Superwall SDK does between `register(placement:params:handler:feature:)` and the
/// feature running, as one pure reducer: the state and one action in, effects out. `now` is the
/// app's clock (the simulated one in `play`); nothing here reads the wall clock.
///
/// `register` in the SDK's order (`Paywall/Presentation/Internal/InternalPresentation.swift` and
/// its operators in superwall/Superwall-iOS): a built-in name is dropped with no callback
/// (`Paywall/Presentation/PublicPresentation.swift`, `TrackingLogic.checkNotSuperwallEvent`), a paywall already on
/// screen is an error (`CheckNoPaywallAlreadyPresented.swift`), an unknown status waits up to 5 s
/// for a known one (`WaitForSubsStatusAndConfig.swift`); then the campaign decides
/// (`EvaluateRules.swift`): skip (the feature runs) or present. The paywall's purchase, restore and
/// close run in `PaywallFlow`, the presenter's child; what they end in comes back here: the
/// handler's `onWillDismiss` and `onDismiss`, the feature, and implicit placements that replace the
/// paywall and take over its registration.
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
    case .launch(let firstInstall):
      return launch(firstInstall: firstInstall, &state, now: now)
    case .relaunch:
      // Home first (`app_close` as the app resigns active), then the process dies: whatever was
      // on screen goes with it, with no close event.
      clearScreen(&state)
      state.waiting = nil
      state.call = nil
      state.callAlert = nil
      state.outcome = nil
      return [.emit(PaywallEvent(.appClose, []))] + launch(firstInstall: false, &state, now: now)
    case .paywall(let paywallAction):
      guard var session = state.session else { return [] }
      // One purchase or restore at a time: while the app's own call runs, the paywall's wait.
      if state.call != nil, SDKCalls.startsTransaction(paywallAction) { return [] }
      var effects = apply(PaywallFlow.handle(paywallAction, in: &session, options: state.options), session, &state, now: now)
      // A custom store product with no purchase controller fails before any controller is asked,
      // after `transaction_start` (`TransactionManager.purchase(_:purchaseSource:)`).
      if let index = effects.firstIndex(where: { if case .purchase = $0 { true } else { false } }),
         case .purchase(let product, _) = effects[index],
         let refusal = SDKCalls.customProductRefusal(product, state, appsCall: false) {
        effects.remove(at: index)
        effects += update(&state, .purchaseFinished(refusal), now: now)
      }
      return effects
    case .button(let button):
      return press(button, &state, now: now)
    case .purchaseFinished(let result):
      if case .purchase(let product, let offer) = state.call {
        state.call = nil
        return SDKCalls.purchaseFinished(result, product: product, startsOffer: offer != nil, &state, now: now)
      }
      guard var session = state.session else { return [] }
      let triggers = Set(state.project.campaigns.map(\.placement))
      return apply(PaywallFlow.purchaseFinished(result, in: &session, options: state.options, triggers: triggers), session, &state,
                   now: now)
    case .restoreFinished(let result, let status):
      if state.call == .restore {
        state.call = nil
        return SDKCalls.restoreFinished(result, status: status, &state)
      }
      guard var session = state.session else { return [] }
      return apply(PaywallFlow.restoreFinished(result, status: status, in: &session, options: state.options), session, &state, now: now)
    case .statusChanged(let status):
      guard status != state.status else { return [] }
      let event = SDKEvents.statusDidChange(to: status, sdk: state.options.sdk)
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
      let request = SDKEvents.presentationRequest(waiting.placement, .timeout, .subscriptionStatusTimeout, sdk: state.options.sdk)
      // An event's trigger has no handler to hear it: only the log says so.
      if waiting.isImplicit { return [.emit(request)] }
      return [.emit(request)] + fail(waiting, code: "subscriptionStatusTimeout",
                                     message: "The subscription status was not set within 5 seconds; the feature did not run. Set one: --status inactive (or active), 'status' in a script, the controller's setSubscriptionStatus, or 'd' then 's' in the app", &state)
    case .setOverrides(let overrides):
      state.overrides = overrides
      return []
    case .setUserAttributes(let attributes):
      state.userAttributes.merge(attributes) { $1 }
      return []
    case .introOffersUsed(let groups):
      state.usedIntroGroups = groups
      return []
    case .offerHistoryChanged(let history):
      state.offerHistory = history
      return []
    case .callPurchase(let product):
      return SDKCalls.purchase(product, &state, now: now)
    case .callRestore:
      return SDKCalls.restore(&state)
    case .dismissCallAlert:
      state.callAlert = nil
      return []
    }
  }

  // MARK: - register

  static func register(_ placement: String, params: [String: String], _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let registration = Registration(id: state.newRegistrationID(), placement: placement, params: params)
    if PlacementNames.builtIn.contains(placement) {
      // The SDK returns before tracking anything: no handler callback, no feature; only its log
      // says why (`PublicPresentation.swift` `trackAndPresentPaywall`). The outcome tells the tester.
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .ignoredBuiltInName)
      return []
    }
    if let session = state.session, !session.isDismissed {
      // `Operators/CheckNoPaywallAlreadyPresented.swift`, then `LogErrors.swift` tracks the refusal.
      let request = SDKEvents.presentationRequest(placement, .noPresentation, .paywallAlreadyPresented, sdk: state.options.sdk)
      return [.emit(request)] + fail(registration, code: "paywallAlreadyPresented",
                                     message: "a paywall is already on screen (\(session.id)); close it first", &state)
    }
    if state.status == .unknown {
      state.waiting = registration
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .waiting)
      return [.scheduleStatusTimeout(registrationID: registration.id, seconds: PresentationState.statusTimeout)]
    }
    return evaluate(registration, &state, now: now)
  }

  // MARK: - Launch

  /// A launch as the SDK tracks it: `app_install` the first time (`Storage.swift`
  /// `recordAppInstall`), then as the app becomes active `app_open`, `session_start`, `app_launch`
  /// and, the first time, `first_seen` (`AppSessionManager.swift` `sessionCouldRefresh`). Tracking
  /// `app_install`, `session_start` and `app_launch` is each an implicit trigger, run one after the
  /// other (`Tracking.swift` `handleImplicitTrigger`): a campaign on one presents its paywall with
  /// no handler and no feature (`.triggerPaywall`), after the status is known
  /// (`waitForSubsStatusAndConfig`); with a paywall already on screen it is refused and only
  /// logged. A placement with no campaign triggers nothing (`TrackingLogic.canTriggerPaywall`).
  static func launch(firstInstall: Bool, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    var effects: [PresentationEffect] = []
    var fired: [EventName] = []
    if firstInstall {
      effects.append(.emit(PaywallEvent(.appInstall, [("application_installed_at", .string(StoreDates.format(now))),
                                                      ("using_purchase_controller", .bool(state.hasPurchaseController))])))
      fired.append(.appInstall)
    }
    effects.append(.emit(PaywallEvent(.appOpen, [])))
    effects.append(.emit(PaywallEvent(.sessionStart, [])))
    effects.append(.emit(PaywallEvent(.appLaunch, [])))
    fired += [.sessionStart, .appLaunch]
    if firstInstall { effects.append(.emit(PaywallEvent(.firstSeen, []))) }
    for name in fired { effects += implicitTrigger(name.rawValue, &state, now: now) }
    return effects
  }

  /// One SDK event's implicit trigger (`Tracking.swift` `internallyHandleImplicitTrigger`).
  static func implicitTrigger(_ placement: String, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard state.project.campaigns.contains(where: { $0.placement == placement }) else { return [] }
    let registration = Registration(id: state.newRegistrationID(), placement: placement,
                                    params: PlacementParams.standard(placement, isSDKEvent: true), isImplicit: true)
    if let session = state.session, !session.isDismissed {
      return [.emit(SDKEvents.presentationRequest(placement, .noPresentation, .paywallAlreadyPresented, sdk: state.options.sdk))]
    }
    if state.status == .unknown {
      // One waits at a time here; the SDK queues the next behind it, which then finds a paywall
      // on screen or the same status: the first is the one that can present.
      guard state.waiting == nil else { return [] }
      state.waiting = registration
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
  static func context(for registration: Registration, _ state: PresentationState, now: Date) -> FilterContext {
    var context = state.filterContext
    // An implicit placement's params are the SDK's already (`PlacementParams.implicit`); a
    // register's get the keys every placement gets.
    let params = registration.isImplicit ? registration.params : PlacementParams.register(registration.placement, params: registration.params)
    context.params = params.mapValues(FilterValue.init(parsing:))
    context.now = now
    return context
  }

  /// Whether `registration` would present a paywall, without recording an assignment. A rule
  /// the tester has not decided counts as presenting, so `evaluate` stops at it and asks.
  static func wouldPresent(_ registration: Registration, _ state: PresentationState, now: Date) -> Bool {
    var book = state.assignments
    let evaluation = PlacementRules.evaluate(registration.placement, project: state.project,
                                             context: context(for: registration, state, now: now), book: &book)
    if evaluation.undecided != nil { return true }
    // Stopped before it decided: registered as is, it fails with the reason.
    if evaluation.abandoned != nil { return false }
    if case .present = evaluation.outcome { return true }
    return false
  }

  /// What a replacement paywall takes over from the paywall it replaces: its registration (nil for
  /// a paywall opened directly) and its feature gating.
  struct Handover {
    var registration: Registration?
    var gating: FeatureGating
  }

  /// The campaign's decision for a registration with a known status, and what follows from it.
  /// `handover` is given for an implicit placement replacing a paywall.
  static func evaluate(_ registration: Registration, _ state: inout PresentationState, now: Date,
                       handover: Handover? = nil) -> [PresentationEffect] {
    let placement = registration.placement
    let before = state.assignments
    let evaluation = PlacementRules.evaluate(placement, project: state.project, context: context(for: registration, state, now: now),
                                             book: &state.assignments)
    if let undecided = evaluation.undecided {
      // A rule the emulator cannot evaluate and the tester has not decided: nothing happens
      // (no trigger_fire, no callback) until it is decided (`--assume-rule`, or run's dialog).
      state.assignments = before
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .undecided(undecided))
      state.undecidedRegistration = registration
      return []
    }
    if let abandoned = evaluation.abandoned {
      // Over its budget or interrupted: no assignment, no trigger_fire; the handler hears why.
      state.assignments = before
      return fail(registration, code: abandoned.code, message: abandoned.message, &state)
    }
    var effects: [PresentationEffect] = state.assignments != before ? [.saveAssignments(state.assignments)] : []
    // The register's params beside ours; one named like ours (`placement`, `reason`) is written
    // `params.NAME`, so a JSON line never has a key twice.
    let paramList = registration.params.sorted { $0.key < $1.key }.map { key, value in
      (["placement", "reason"].contains(key) ? "params.\(key)" : key, JSONOutput.string(value))
    }
    let base: [(String, JSONOutput)] = [("placement", .string(placement))]
    let sdk = state.options.sdk
    if let fire = SDKEvents.triggerFire(evaluation, sdk: sdk) { effects.append(.emit(fire)) }
    switch evaluation.outcome {
    case .skip(let reason):
      effects.append(.emit(SDKEvents.presentationRequest(placement, .noPresentation, .skipped(reason), sdk: sdk)))
      if registration.isImplicit { return effects }
      effects.append(.emit(PaywallEvent(.handlerOnSkip, base + [("reason", .string(reason.rawValue))] + paramList)))
      effects.append(.emit(PaywallEvent(.featureRun, base)))
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .skipped(reason))
      return effects
    case .present(let paywallID):
      effects.append(.emit(SDKEvents.presentationRequest(placement, .presentation, nil, sdk: sdk)))
      if registration.isImplicit {
        effects += open(paywallID, selected: nil, registration: handover?.registration, presentedBy: registration,
                        gating: handover?.gating, &state, now: now)
      } else {
        effects += open(paywallID, selected: nil, registration: registration, &state, now: now)
      }
      // The handler whose paywall this is hears `onPresent`: a replacement's is the first
      // register's, which receives the new paywall's `presented` state (`PublicPresentation.swift`).
      let owner = registration.isImplicit ? handover?.registration : registration
      if let owner {
        effects.append(.emit(PaywallEvent(.handlerOnPresent, [("placement", .string(owner.placement)), ("paywall_id", .string(paywallID))])))
      }
      let reported = owner ?? registration
      state.outcome = RegistrationOutcome(registrationID: reported.id, placement: reported.placement, kind: .presented(paywallID: paywallID))
      return effects
    }
  }

  /// A paywall button: the flow's actions, or a custom placement (`customPlacement`).
  static func press(_ button: ButtonAction, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let action: PaywallAction
    switch button {
    case .purchase(let slot): action = .purchase(slot: slot)
    case .restore: action = .restore
    case .close: action = .close
    case .select(let slot): action = .select(slot: slot)
    case .placement(let name): return customPlacement(name, &state, now: now)
    }
    return update(&state, .paywall(action), now: now)
  }

  /// A paywall's placement button, as the SDK answers the page's `custom_placement` message
  /// (`Superwall.swift` `eventDidOccur(.customPlacement)`): it tracks a `customPlacement` under the
  /// button's name, never a `register`, so no handler hears a skip or an error and no feature runs.
  /// Tracking it is an implicit trigger (`Tracking.swift`): `TrackingLogic.canTriggerPaywall`
  /// answers `closePaywallThenTriggerPaywall` only when the placement has a campaign, the paywall
  /// on screen may chain, and the result would be a paywall (`.handleImplicitTrigger`); then the
  /// paywall closes for the next one, which answers to the first register with its gating
  /// (`replace`). Otherwise nothing follows.
  static func customPlacement(_ name: String, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard let session = state.session, !session.isDismissed else { return [] }
    let tracked = PresentationEffect.emit(PaywallEvent(.customPlacement, [
      ("paywall_id", .string(session.id)), ("paywall_name", .string(session.paywall.definition.name)), ("name", .string(name)),
    ]))
    guard mayChain(state) else { return [tracked] }
    let params = paywallInfo(state).map { PlacementParams.customPlacement(name, paywall: $0) } ?? [:]
    let candidate = Registration(id: state.newRegistrationID(), placement: name, params: params, isImplicit: true)
    guard wouldPresent(candidate, state, now: now) else { return [tracked] }
    return [tracked] + replace(with: candidate, &state, now: now)
  }

  /// The paywall on screen as the SDK's `PaywallInfo` describes it to audience filters.
  static func paywallInfo(_ state: PresentationState) -> PlacementParams.PaywallInfo? {
    guard let session = state.session else { return nil }
    let gating = state.inheritedGating ?? session.paywall.definition.featureGating
    return PlacementParams.PaywallInfo(paywall: session.paywall, presentedBy: (state.presentedBy ?? state.registration)?.placement,
                                       gating: gating)
  }

  /// Placements whose paywall never presents another in its place: a paywall presented by one of
  /// them ends chains, so two campaigns cannot loop (`TrackingLogic.canTriggerPaywall`,
  /// `notAllowedReferringPlacementNames`). A paywall a custom placement presented was presented by
  /// the button's own name (the event's raw name), so it may chain, as on a device.
  static let chainEnding: Set<String> = ["transaction_abandon", "transaction_fail", "paywall_decline", "custom_placement"]

  /// Whether the paywall on screen may be replaced by an implicit placement's paywall.
  static func mayChain(_ state: PresentationState) -> Bool {
    guard let presentedBy = state.presentedBy else { return true }
    return !chainEnding.contains(presentedBy.placement)
  }

  // MARK: - Opening and the flow's results

  static func open(_ id: String, selected: String?, registration: Registration? = nil, presentedBy: Registration? = nil,
                   gating: FeatureGating? = nil, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard state.session == nil || state.session?.isDismissed == true,
          let resolved = resolve(id, params: registration?.params ?? [:], state, now: now) else { return [] }
    let (session, effects) = PaywallFlow.open(resolved, selected: selected)
    state.closed = nil
    state.lastPaywallID = id
    state.hasPresentedPaywall = true
    state.registration = registration
    state.presentedBy = presentedBy
    state.inheritedGating = gating
    return apply(effects, session, &state, now: now)
  }

  /// Paywall `id` of the project with its products, the session's overrides applied; nil when the
  /// project has no such paywall.
  static func resolve(_ id: String, params: [String: String], _ state: PresentationState, now: Date) -> ResolvedPaywall? {
    guard var definition = state.project.paywall(id: id) else { return nil }
    if !state.overrides.isEmpty {
      definition = definition.applying(state.overrides, catalog: state.project.catalog).0
    }
    // `isSubscribed` and `user.*` as the SDK's template variables read them
    // (`Paywall/View Controller/Web View/Templating/TemplateLogic.swift`, `Models/Variables.swift`).
    return ResolvedPaywall(definition, catalog: state.project.catalog, now: now, eligibility: state.introEligibility,
                           offerHistory: state.offerHistory, isSubscribed: { state.status.isActive && state.purchasedProducts.contains($0.id) },
                           userAttributes: state.userAttributes, params: params)
  }

  /// Stores the session and turns the flow's effects into the presenter's; a dismissal clears the
  /// screen. Also where a registration ends: the handler hears the result, the feature runs as the
  /// SDK runs it (after purchased or restored; after declined only when non-gated), and an implicit
  /// placement (`transaction_abandon`, `transaction_fail`, `paywall_decline`) with a campaign that
  /// presents replaces the paywall with its own, which takes over the registration and its gating
  /// (`Analytics/Internal Tracking/Tracking.swift`: `closePaywallThenTriggerPaywall` passes the last
  /// state publisher and `PaywallOverrides(featureGatingBehavior:)` on). A paywall one of those
  /// placements opened never chains again (`mayChain`).
  static func apply(_ effects: [FlowEffect], _ session: PaywallSession, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    state.session = session
    let registration = state.registration
    let gating = state.inheritedGating ?? state.project.paywall(id: session.id)?.featureGating ?? .nonGated
    let events = effects.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    let chained = mayChain(state) ? implicitCandidate(after: events, from: paywallInfo(state), &state, now: now) : nil
    let closing = effects.lazy.compactMap { effect -> PaywallResult? in if case .dismissed(let result) = effect { result } else { nil } }.first
    var out: [PresentationEffect] = []
    var dismissed = false
    for effect in effects {
      switch effect {
      case .purchase(let product, let slot): out.append(.purchase(product, slot: slot))
      case .restore: out.append(.restore)
      case .emit(var event):
        if event.name == .paywallClose {
          if chained != nil {
            // Declined for the next paywall: the SDK's close reason says so.
            event = PaywallEvent(.paywallClose, event.params.map { $0.0 == "close_reason" ? ($0.0, "forNextPaywall") : $0 })
          }
          if let closing {
            out += willDismiss(registration, paywallID: session.id, result: closing, forNextPaywall: chained != nil, state)
          }
        }
        out.append(.emit(event))
        if event.name == .transactionComplete, let id = event["product_id"]?.stringValue, !state.purchasedProducts.contains(id) {
          state.purchasedProducts.append(id)
        }
      case .dismissed(let result):
        dismissed = true
        state.closed = ClosedPaywall(paywallID: session.id, result: result)
        clearScreen(&state)
        out += finish(registration, paywallID: session.id, result: result, gating: gating, forNextPaywall: chained != nil, &state)
      }
    }
    if let next = chained {
      if !dismissed, state.session != nil { return out + replace(with: next, &state, now: now) }
      out += evaluate(next, &state, now: now, handover: Handover(registration: registration, gating: gating))
    }
    return out
  }

  /// The first implicit placement among `events` (`transaction_abandon`…) whose campaign would
  /// present a paywall, registered with the params the SDK evaluates it with
  /// (`PlacementParams.implicit`: `paywall`'s, nil for the app's own purchase); nil if none.
  static func implicitCandidate(after events: [PaywallEvent], from paywall: PlacementParams.PaywallInfo?,
                                _ state: inout PresentationState, now: Date) -> Registration? {
    for event in events where Campaign.implicitPlacements.contains(event.name.rawValue) {
      let params = PlacementParams.implicit(event, paywall: paywall, catalog: state.project.catalog, now: now)
      let candidate = Registration(id: state.newRegistrationID(), placement: event.name.rawValue, params: params, isImplicit: true)
      if wouldPresent(candidate, state, now: now) { return candidate }
    }
    return nil
  }

  /// Closes the paywall on screen "for the next paywall" (its feature does not run) and presents
  /// `next`, an implicit placement that would present, in its place: the new paywall answers to
  /// the closed one's register, with its feature gating (`Analytics/Internal Tracking/Tracking.swift`
  /// `closePaywallThenTriggerPaywall`).
  static func replace(with next: Registration, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard var current = state.session else { return evaluate(next, &state, now: now) }
    let registration = state.registration
    let gating = state.inheritedGating ?? state.project.paywall(id: current.id)?.featureGating ?? .nonGated
    current.result = .declined
    var out = willDismiss(registration, paywallID: current.id, result: .declined, forNextPaywall: true, state)
    out.append(.emit(PaywallEvent(.paywallClose, [("paywall_id", .string(current.id)),
                                                  ("paywall_name", .string(current.paywall.definition.name)),
                                                  ("result", "declined"), ("close_reason", "forNextPaywall"),
                                                  ("survey_attached", false)])))
    state.closed = ClosedPaywall(paywallID: current.id, result: .declined)
    clearScreen(&state)
    out += finish(registration, paywallID: current.id, result: .declined, gating: gating, forNextPaywall: true, &state)
    return out + evaluate(next, &state, now: now, handover: Handover(registration: registration, gating: gating))
  }

  /// Nothing on screen, and nothing the closed paywall answered to.
  static func clearScreen(_ state: inout PresentationState) {
    state.session = nil
    state.registration = nil
    state.presentedBy = nil
    state.inheritedGating = nil
  }

  /// The handler's `onWillDismiss`, for a paywall that answers to `registration`, before its
  /// `paywall_close`: a close goes `paywall_decline` (a manual one), then `viewWillDisappear` sends
  /// `willDismiss` to the register's state publisher, then `viewDidDisappear` tracks `paywall_close`
  /// and sends `dismissed` (`Paywall/View Controller/PaywallViewController.swift`). From SDK 4.9
  /// (`SDKVersion.hasWillDismissHandler`); before, only the delegate heard it.
  static func willDismiss(_ registration: Registration?, paywallID: String, result: PaywallResult, forNextPaywall: Bool,
                          _ state: PresentationState) -> [PresentationEffect] {
    guard let registration, !registration.isImplicit, state.options.sdk.hasWillDismissHandler else { return [] }
    return [.emit(PaywallEvent(.handlerOnWillDismiss, handlerParams(registration, paywallID: paywallID, result: result,
                                                                      forNextPaywall: forNextPaywall)))]
  }

  static func handlerParams(_ registration: Registration, paywallID: String, result: PaywallResult,
                            forNextPaywall: Bool) -> [(String, JSONOutput)] {
    var params: [(String, JSONOutput)] = [("placement", .string(registration.placement)), ("paywall_id", .string(paywallID)),
                                          ("result", .string(result.name))]
    if forNextPaywall { params.append(("close_reason", "forNextPaywall")) }
    return params
  }

  /// The handler's `onDismiss` and the feature, for a paywall that answers to `registration`, after
  /// its `paywall_close`: the paywall sends `dismissed` to the register's state publisher
  /// (`PaywallViewController.swift` `didDismiss`), and the register's sink in
  /// `Paywall/Presentation/PublicPresentation.swift` runs the feature. `gating` is the paywall's, or
  /// the one it inherited.
  static func finish(_ registration: Registration?, paywallID: String, result: PaywallResult, gating: FeatureGating,
                     forNextPaywall: Bool, _ state: inout PresentationState) -> [PresentationEffect] {
    guard let registration, !registration.isImplicit else { return [] }
    let params = handlerParams(registration, paywallID: paywallID, result: result, forNextPaywall: forNextPaywall)
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
