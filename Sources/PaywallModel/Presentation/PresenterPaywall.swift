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

extension Presenter {
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
    guard mayChain(state, after: EventName.customPlacement.rawValue) else { return [tracked] }
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

  /// Whether the paywall on screen may be replaced by the paywall of the implicit placement
  /// `event` (a custom placement's backing event is `custom_placement`). On iOS, and on Android
  /// before 2.6.6, a paywall one of `chainEnding` presented never chains. Superwall-Android from
  /// 2.6.6 blocks only the same exit event again (`SDKVersion.chainsOtherExitEvents`), so an
  /// abandon's paywall may still chain on a decline.
  static func mayChain(_ state: PresentationState, after event: String) -> Bool {
    guard let presentedBy = state.presentedBy?.placement, chainEnding.contains(presentedBy) else { return true }
    return state.options.sdk.chainsOtherExitEvents && presentedBy != event
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
    let chained = implicitCandidate(after: events, from: paywallInfo(state), onScreen: true, &state, now: now)
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
            // Declined for the next paywall: the SDK's close reason says so, and its second pass
            // through `dismiss(result:closeReason:)` finds no survey to show, so the close says
            // no `survey_presentation`.
            event = PaywallEvent(.paywallClose, event.params.compactMap {
              $0.0 == "close_reason" ? ($0.0, "forNextPaywall") : $0.0 == "survey_presentation" ? nil : $0
            })
          }
          if let closing {
            out += willDismiss(registration, paywallID: session.id, result: closing, forNextPaywall: chained != nil, state)
          }
        }
        out.append(.emit(SDKEvents.shaped(event, sdk: state.options.sdk, source: .paywall) { userAttributesValue(state) }))
        if event.name == .transactionComplete, let id = event["product_id"]?.stringValue, !state.purchasedProducts.contains(id) {
          state.purchasedProducts.append(id)
        }
      case .scheduleNotifications(let paywallID, let notifications):
        out += NotificationPermissions.request(notifications, paywallID: paywallID, &state, now: now)
      case .saveSurveyKey(let key):
        state.assignments.surveyAssignmentKey = key
        out.append(.saveAssignments(state.assignments))
      case .dismissed(let result):
        dismissed = true
        state.closed = ClosedPaywall(paywallID: session.id, result: result)
        clearScreen(&state)
        out += finish(registration, paywallID: session.id, result: result, gating: gating, forNextPaywall: chained != nil, &state)
      }
    }
    if let next = chained {
      if !dismissed, state.session != nil { return out + replace(with: next, &state, now: now) }
      out += evaluate(next, &state, now: now, handover: Handover(registration: registration, gating: gating, sdk: state.options.sdk))
    }
    return out
  }

  /// The first implicit placement among `events` (`transaction_abandon`…) whose campaign would
  /// present a paywall, registered with the params the SDK evaluates it with
  /// (`PlacementParams.implicit`: `paywall`'s, nil for the app's own purchase); nil if none.
  /// `onScreen`: a paywall is on screen, which the candidate would replace (`mayChain`).
  static func implicitCandidate(after events: [PaywallEvent], from paywall: PlacementParams.PaywallInfo?, onScreen: Bool,
                                _ state: inout PresentationState, now: Date) -> Registration? {
    for event in events where chainingPlacements.contains(event.name.rawValue) {
      if onScreen && !mayChain(state, after: event.name.rawValue) { continue }
      let params = PlacementParams.implicit(event, paywall: paywall, catalog: state.project.catalog, sdk: state.options.sdk, now: now)
      let candidate = Registration(id: state.newRegistrationID(), placement: event.name.rawValue, params: params, isImplicit: true)
      if wouldPresent(candidate, state, now: now) { return candidate }
    }
    return nil
  }

  /// The SDK events a paywall emits that may present another paywall in its place: the implicit
  /// placements and `survey_response` (`SuperwallEvent.canImplicitlyTriggerPaywall`).
  static let chainingPlacements: Set<String> = Set(Campaign.implicitPlacements + [EventName.surveyResponse.rawValue])

  /// A purchase's dismissal held for its trial's reminders, once no prompt holds it
  /// (`NotificationPermissions.holdsDismissal`).
  static func resumeHeldDismissal(_ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard var session = state.session, session.heldDismissal != nil, !NotificationPermissions.holdsDismissal(state) else { return [] }
    return apply(PaywallFlow.resumeHeldDismissal(in: &session, survey: state.surveyContext), session, &state, now: now)
  }

  /// After a survey answer no campaign took over (`replace` cleared the screen when one did): the
  /// dismissal the survey held goes on (`SurveyManager.selectedOption` calls its completion only
  /// for `.dontTriggerPaywall`).
  static func resumeAfterSurvey(_ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard var session = state.session, session.answeredSurvey != nil else { return [] }
    return apply(PaywallFlow.resumeAfterSurvey(in: &session), session, &state, now: now)
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
    let close = PaywallEvent(.paywallClose, [("paywall_id", .string(current.id)), ("paywall_name", .string(current.paywall.definition.name)),
                                             ("result", "declined"), ("close_reason", "forNextPaywall"),
                                             ("survey_attached", .bool(!current.paywall.definition.surveys.isEmpty))])
    out.append(.emit(SDKEvents.shaped(close, sdk: state.options.sdk, source: .paywall)))
    state.closed = ClosedPaywall(paywallID: current.id, result: .declined)
    clearScreen(&state)
    out += finish(registration, paywallID: current.id, result: .declined, gating: gating, forNextPaywall: true, &state)
    return out + evaluate(next, &state, now: now, handover: Handover(registration: registration, gating: gating, sdk: state.options.sdk))
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
