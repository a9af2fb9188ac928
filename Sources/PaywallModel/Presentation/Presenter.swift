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
      return killed(&state) + launch(firstInstall: false, &state, now: now)
    case .reinstall(let userID):
      return reinstall(userID: userID, &state, now: now)
    case .paywall(let paywallAction):
      guard var session = state.session else { return [] }
      // One purchase or restore at a time: while the app's own call runs, the paywall's wait.
      if state.call != nil, SDKCalls.startsTransaction(paywallAction) { return [] }
      var effects = apply(PaywallFlow.handle(paywallAction, in: &session, options: state.options, survey: state.surveyContext),
                          session, &state, now: now)
      effects += resumeAfterSurvey(&state, now: now)
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
    case .purchaseFinished(var result):
      // Superwall-Android's own purchaser answers Purchased for every billing result OK, a
      // PENDING purchase (a slow card) included (`store/AutomaticPurchaseController.kt`
      // `onPurchasesUpdated`): the SDK tracks the purchase while nothing is granted yet.
      if case .pending = result, !state.hasPurchaseController, state.options.sdk.platform == .android { result = .purchased }
      if case .purchase(let product, let offer) = state.call {
        state.call = nil
        return SDKCalls.purchaseFinished(result, product: product, startsOffer: offer != nil, &state, now: now)
      }
      guard var session = state.session else { return [] }
      let triggers = Set(state.project.campaigns.map(\.placement))
      return apply(PaywallFlow.purchaseFinished(result, in: &session, options: state.options, triggers: triggers,
                                                survey: state.surveyContext), session, &state, now: now)
        + resumeHeldDismissal(&state, now: now)
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
        if waiting.dismissesFirst { effects += closeForDeepLink(&state) }
        effects += waiting.asksForResult ? SDKCalls.answerPresentationResult(waiting, &state, now: now) : evaluate(waiting, &state, now: now)
      }
      // Those behind it, each in its turn.
      if status != .unknown {
        while !state.queuedRegistrations.isEmpty {
          effects += proceedQueued(state.queuedRegistrations.removeFirst(), &state, now: now)
        }
      }
      return effects
    case .statusTimedOut(let id):
      guard let waiting = state.waiting, waiting.id == id else { return [] }
      state.waiting = nil
      let request = SDKEvents.presentationRequest(waiting.placement, .timeout, .subscriptionStatusTimeout, sdk: state.options.sdk)
      // The one queued behind it starts waiting now, for as long again.
      var next: [PresentationEffect] = []
      if !state.queuedRegistrations.isEmpty {
        let queued = state.queuedRegistrations.removeFirst()
        state.waiting = queued
        next = [.scheduleStatusTimeout(registrationID: queued.id, seconds: PresentationState.statusTimeout)]
      }
      // An event's trigger has no handler to hear it: only the log says so.
      if waiting.isImplicit { return [.emit(request)] + next }
      if waiting.asksForResult { return [.emit(request), SDKCalls.answered(waiting.placement, "paywallNotAvailable")] + next }
      return [.emit(request)] + fail(waiting, code: "subscriptionStatusTimeout",
                                     message: "The subscription status was not set within 5 seconds; the feature did not run. Set one: --status inactive (or active), 'status' in a script, the controller's setSubscriptionStatus, or 'd' then 's' in the app", &state) + next
    case .setOverrides(let overrides):
      state.overrides = overrides
      return []
    case .setUserAttributes(let attributes):
      var incoming = attributes
      // Superwall-Android's `IdentityLogic.kt` `mergeAttributes`: a `$` key loses its `$`s and
      // keeps its own value (iOS looks the plain key up instead: `userAttributesEvent`).
      if state.options.sdk.platform == .android {
        for (key, value) in attributes where key.hasPrefix("$") && key != "$is_standard_event" && key != "$application_installed_at" {
          incoming[key] = nil
          incoming[key.replacingOccurrences(of: "$", with: "")] = value
        }
      }
      state.userAttributes.merge(incoming) { $1 }
      // `IdentityManager.mergeUserAttributes` tracks every merge.
      return [.emit(userAttributesEvent(state))]
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
    case .notificationDue(let id):
      return TrialReminders.timerFired(id, &state)
    case .callGetPresentationResult(let placement, let params):
      return SDKCalls.presentationResult(placement, params: params, &state, now: now)
    case .background:
      return background(&state, now: now)
    case .foreground:
      return foreground(&state, now: now)
    case .deepLink(let url):
      return deepLink(url, &state, now: now)
    case .storeSubscriptionsChanged(let subscriptions):
      state.storeSubscriptions = subscriptions
      return []
    case .answerNotificationPrompt(let accept):
      let (effects, opensSettings) = NotificationPermissions.answer(accept: accept, &state, now: now)
      // The Settings app comes to the front once the paywall has gone on: the app goes to the background.
      let resumed = effects + resumeHeldDismissal(&state, now: now)
      return opensSettings ? resumed + background(&state, now: now) : resumed
    case .setNotificationPermission(let permission):
      state.notificationPermission = permission
      return []
    }
  }

  // MARK: - register

  static func register(_ placement: String, params: [String: String], _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let registration = Registration(id: state.newRegistrationID(), placement: placement, params: params)
    if PlacementNames.isBuiltIn(placement) {
      // The SDK returns before tracking anything: no handler callback, no feature; only its log
      // says why (`PublicPresentation.swift` `trackAndPresentPaywall`). The outcome tells the tester.
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .ignoredBuiltInName)
      return []
    }
    if let session = state.session, !session.isDismissed { return refused(registration, over: session, &state) }
    if state.status == .unknown {
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: placement, kind: .waiting)
      // Behind the one that waits, in its turn (it used to replace it, whose handler then heard nothing).
      guard state.waiting == nil else {
        state.queuedRegistrations.append(registration)
        return []
      }
      state.waiting = registration
      return [.scheduleStatusTimeout(registrationID: registration.id, seconds: PresentationState.statusTimeout)]
    }
    return evaluate(registration, &state, now: now)
  }

  /// A register over a paywall on screen: `Operators/CheckNoPaywallAlreadyPresented.swift`, then
  /// `LogErrors.swift` tracks the refusal and the handler hears `onError`.
  static func refused(_ registration: Registration, over session: PaywallSession, _ state: inout PresentationState) -> [PresentationEffect] {
    let request = SDKEvents.presentationRequest(registration.placement, .noPresentation, .paywallAlreadyPresented, sdk: state.options.sdk)
    return [.emit(request)] + fail(registration, code: "paywallAlreadyPresented",
                                   message: "a paywall is already on screen (\(session.id)); close it first", &state)
  }

  /// A registration queued behind another goes on, the status known: a deep link dismisses the
  /// paywall on screen first; a register is refused over one, as when it was made.
  static func proceedQueued(_ registration: Registration, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    if registration.dismissesFirst { return closeForDeepLink(&state) + evaluate(registration, &state, now: now) }
    if let session = state.session, !session.isDismissed { return refused(registration, over: session, &state) }
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
  /// Trial reminders that came due while the app was closed are delivered first.
  static func launch(firstInstall: Bool, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    state.appSession = AppSessionState()
    // What the system showed while the app was closed comes first, as it did.
    var effects = TrialReminders.deliverOverdue(&state, now: now)
    var fired: [EventName] = []
    // A new user's book has the date from the start (`AppSession`, so it is written once); a state
    // kept before the date was remembers none: its first launch since stands in.
    if state.assignments.installedAt == nil {
      state.assignments.installedAt = StoreDates.wholeMilliseconds(now)
      effects.append(.saveAssignments(state.assignments))
    }
    if firstInstall {
      let installed = state.assignments.installedAt ?? now
      effects.append(.emit(PaywallEvent(.appInstall, [("application_installed_at", .string(StoreDates.sdkISOString(installed))),
                                                      ("using_purchase_controller", .bool(state.hasPurchaseController))])))
      fired.append(.appInstall)
    }
    effects.append(.emit(PaywallEvent(.appOpen, [])))
    effects.append(.emit(PaywallEvent(.sessionStart, [])))
    effects.append(.emit(userAttributesEvent(state)))
    effects.append(.emit(PaywallEvent(.appLaunch, [])))
    fired += [.sessionStart, .appLaunch]
    if firstInstall { effects.append(.emit(PaywallEvent(.firstSeen, []))) }
    for name in fired { effects += implicitTrigger(name.rawValue, &state, now: now) }
    return effects
  }

  /// The app's process dies: home first (`app_close` as the app resigns active, unless it already
  /// has: from the background), then whatever was on screen goes with it, with no close event.
  static func killed(_ state: inout PresentationState) -> [PresentationEffect] {
    let wasInFront = !state.appSession.inBackground
    clearScreen(&state)
    state.waiting = nil
    state.queuedRegistrations = []
    state.call = nil
    state.callAlert = nil
    // The prompt goes with the process; the device was not asked.
    state.permissionPrompt = nil
    state.outcome = nil
    return wasInFront ? [.emit(PaywallEvent(.appClose, []))] : []
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
    /// The closed paywall's gating, which the replacement keeps on iOS (`PaywallOverrides(featureGatingBehavior:)`);
    /// nil on Android, whose implicit trigger presents with no overrides (`analytics/internal/Tracking.kt`),
    /// so the replacement keeps its own.
    var gating: FeatureGating?

    init(registration: Registration?, gating: FeatureGating, sdk: SDKVersion) {
      self.registration = registration
      self.gating = sdk.platform == .ios ? gating : nil
    }
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

}
