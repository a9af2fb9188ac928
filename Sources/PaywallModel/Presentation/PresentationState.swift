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

/// One `register(placement:params:handler:feature:)` call, as far as it has got.
public struct Registration: Sendable, Hashable {
  /// Told apart from every other registration of the session (a status timeout names it).
  public var id: Int
  /// The placement registered (`export_pdf`), or for an implicit one its event's name
  /// (`transaction_abandon`).
  public var placement: String
  /// The `params` given to `register`, which audience filters read as `params.NAME`; for an
  /// implicit placement, its event's string parameters.
  public var params: [String: String]
  /// An implicit placement (`transaction_abandon`…) fired by an event, not by `register`: it has
  /// no handler of its own. The paywall it presents answers to the `register` of the paywall it
  /// replaced, and never chains to another paywall.
  public var isImplicit = false
  /// The app's `getPresentationResult(forPlacement:params:)`: evaluated like a register, it
  /// presents nothing and only answers (`SDKCalls.presentationResult`).
  public var asksForResult = false
  /// A deep link's `deepLink_open`: when it goes on it first dismisses the paywall on screen
  /// (`Tracking.swift` `.deepLinkTrigger`), which waits, as the rest, for a known status.
  public var dismissesFirst = false

  /// A registration as `register` makes it; `isImplicit` for one an event fired, `asksForResult`
  /// for `getPresentationResult`.
  public init(id: Int, placement: String, params: [String: String], isImplicit: Bool = false, asksForResult: Bool = false) {
    self.id = id
    self.placement = placement
    self.params = params
    self.isImplicit = isImplicit
    self.asksForResult = asksForResult
  }
}

/// What the last `register` came to, as data: the terminal turns it into words.
public struct RegistrationOutcome: Sendable, Hashable {
  /// Where the registration stands.
  public enum Kind: Sendable, Hashable {
    /// Waiting (up to the status timeout) for a known subscription status.
    case waiting
    /// The handler's `onError`: the feature did not run. `code` is the SDK's error name.
    case failed(code: String, message: String)
    /// The placement is named like a built-in event: the SDK drops it with no callback and no
    /// feature, and only logs an error (`TrackingLogic.checkNotSuperwallEvent`).
    case ignoredBuiltInName
    /// The handler's `onSkip`; the feature ran.
    case skipped(SkipReason)
    /// An audience's rule is in a language the emulator cannot evaluate and the tester has not
    /// said what it decides: nothing ran (`--assume-rule`, or `run`'s dialog, decides it).
    case undecided(PlacementEvaluation.UndecidedRule)
    /// A paywall is on screen for it.
    case presented(paywallID: String)
    /// The paywall closed with `result`; `featureRan` as the SDK decides it from the result and
    /// the paywall's gating. `forNextPaywall`: closed because an implicit placement replaced it.
    case dismissed(paywallID: String, result: PaywallResult, gating: FeatureGating, forNextPaywall: Bool, featureRan: Bool)
  }

  /// The registration's id, so two registrations of one placement are told apart.
  public var registrationID: Int
  /// The placement registered.
  public var placement: String
  /// Where the registration stands.
  public var kind: Kind

  /// An outcome of registration `registrationID` for `placement`.
  public init(registrationID: Int, placement: String, kind: Kind) {
    self.registrationID = registrationID
    self.placement = placement
    self.kind = kind
  }
}

/// The last paywall that closed, and how.
public struct ClosedPaywall: Sendable, Hashable {
  /// The paywall's id.
  public var paywallID: String
  /// How it closed: the SDK's `PaywallResult`.
  public var result: PaywallResult

  /// A paywall that closed with `result`.
  public init(paywallID: String, result: PaywallResult) {
    self.paywallID = paywallID
    self.result = result
  }
}

/// Everything the presenter knows: the project, the status, the paywall on screen and why it is
/// there, the user's assignments and attributes. Data only; `Presenter.update` is the only code
/// that changes it.
public struct PresentationState: Sendable, Equatable {
  /// The paywalls, products, campaigns and options presented from.
  public var project: Project
  /// How paywalls behave around purchases (the SDK's `PaywallOptions`): the project's unless
  /// given.
  public var options: PaywallOptions
  /// The subscription status as the presenter last heard it; `register` waits while it is
  /// `.unknown`.
  public var status: SubscriptionStatus {
    didSet { entitlementHistory.formUnion(status.entitlements) }
  }
  /// Every entitlement an active status has given since launch: the history a custom store
  /// product's trial is decided by (`IntroOfferEligibility`), as the SDK's customer info keeps an
  /// entitlement once held (`latestProductId`) as well as the active ones.
  public var entitlementHistory: Set<Entitlement> = []
  /// The paywall on screen, if any.
  public var session: PaywallSession?
  /// The last paywall that closed, until another opens.
  public var closed: ClosedPaywall?
  /// The `register` the paywall on screen answers to: its handler hears the result and its feature
  /// runs. A paywall an implicit placement opened in place of another keeps the first one's (the
  /// SDK hands the last presentation's state publisher on: `Analytics/Internal Tracking/Tracking.swift`).
  /// Nil when opened directly (`--paywall`, `open`).
  public var registration: Registration?
  /// The implicit placement (an SDK event or a paywall's custom placement), with its parameters,
  /// whose campaign opened the paywall on screen; nil for a paywall `register` or `open` showed.
  /// One opened by `transaction_abandon`, `transaction_fail` or `paywall_decline` never chains
  /// again (`Presenter.mayChain`, `TrackingLogic.canTriggerPaywall`).
  public var presentedBy: Registration?
  /// The feature gating the paywall on screen ends its registration with: for a replacement, the
  /// first paywall's (`PaywallOverrides(featureGatingBehavior:)` in `Tracking.swift`); nil: its own.
  public var inheritedGating: FeatureGating?
  /// A `register` waiting (up to the status timeout) for a known subscription status.
  public var waiting: Registration?
  /// Deep links and registers handed over while `waiting` waits for a status: the SDK chains each
  /// behind the one before (`Tracking.swift` `handleImplicitTrigger` and `PublicPresentation.swift`
  /// `internallyRegister`, both on `previousRegisterTask`), so each goes on in its turn: a deep
  /// link dismissing what the one before presented, a register refused over it.
  public var queuedRegistrations: [Registration] = []
  /// Sticky audience assignments for this user.
  public var assignments: AssignmentBook
  /// Product ids bought this session (`device.activeProducts` while the status is active).
  public var purchasedProducts: [String] = []
  /// Session-wide slot overrides, applied to every paywall presented while set.
  public var overrides: [SlotOverride] = []
  /// User attributes audience filters read as `user.NAME`.
  public var userAttributes: [String: String] = [:]
  /// What the tester decided for audience rules the emulator cannot evaluate: `PLACEMENT#N` → matches.
  public var assumedRules: [String: Bool] = [:]
  /// The registration that stopped at an undecided rule (the last outcome is `.undecided`), so
  /// it can be registered again once the tester has decided.
  public var undecidedRegistration: Registration?
  /// Subscription groups whose introductory offer the store has seen used: their trials are not
  /// offered again. Nil when nothing reports it (every trial is offered).
  public var usedIntroGroups: Set<String>?
  /// What win-back offers' rules read from the store (`OfferHistory`); unknown when nothing
  /// reports it (every offer a slot names is shown, and the controller decides).
  public var offerHistory: OfferHistory = .unknownHistory
  /// What the last registration came to.
  public var outcome: RegistrationOutcome?
  /// The paywall opened last (the home screen's Enter opens it again when there are no placements).
  public var lastPaywallID: String?
  /// Whether a paywall has been presented since launch: the SDK's `presentationItems.last`, kept
  /// when a paywall finishes presenting (`PaywallViewController.presentationDidFinish` →
  /// `storePresentationObjects`) and cleared only by `reset()`. An implicit placement
  /// (`transaction_abandon`, `transaction_fail`, `paywall_decline`) presents nothing without it
  /// (`Analytics/Internal Tracking/Tracking.swift`, `closePaywallThenTriggerPaywall`).
  public var hasPresentedPaywall = false
  /// Whether the app gives the SDK a `PurchaseController` (the SDK's advanced configuration). Only
  /// `Superwall.shared.purchase(product)` and `restorePurchases()` called outside a paywall tell
  /// the two apart: with one they track nothing and show no alert (`TransactionManager.swift`).
  public var hasPurchaseController = true
  /// A `Superwall.shared.purchase(product)` or `restorePurchases()` in flight, called outside a
  /// paywall: the controller's answer goes to it, not to the paywall.
  public var call: SDKCall?
  /// The alert such a call showed over the app (no purchase controller only), until dismissed.
  public var callAlert: PaywallAlert?
  /// Raised by the app while a `q` or a signal waits, so audience evaluation gives up at once;
  /// nil: never interrupted (`play`, the library).
  public var interrupt: EvaluationInterrupt?
  /// Notifications scheduled and not yet delivered, oldest first (the device's pending requests).
  public var pendingNotifications: [ScheduledNotification] = []
  /// The number the next reminder named by number takes (iOS before 4.11).
  package var nextNotificationNumber = 1
  /// Timers still running for reminders a reinstall dropped, by id: each delivers nothing when
  /// it fires (a reminder the new install schedules under the same id has a timer of its own).
  package var droppedReminderTimers: [String: Int] = [:]
  /// Counts changes to `pendingNotifications`, so what keeps them on disk looks at them only
  /// when they changed.
  package var reminderChanges = 0
  /// The store's clock now, where it runs apart from the app's (`run`'s time rate; the runtime
  /// sets it before each message). A trial reminder's time is on it, as the store's clock is
  /// what carries over from session to session. Nil: the app's clock (`HeadlessPresenter`).
  package var storeNow: Date?
  /// Whether the device lets the app post notifications (`--notifications`).
  public var notificationPermission: NotificationPermission = .authorized
  /// The system's notification prompt, or the SDK's alert for a refusal, on screen.
  public var permissionPrompt: PermissionPrompt?
  /// Whether the app is in the background, and since when (`Presenter.background`).
  public var appSession = AppSessionState()
  /// The simulated store's subscriptions, what `device.customerInfo` is built from; nil with
  /// another controller (the status's entitlements stand in).
  public var storeSubscriptions: [StoreSubscription]?
  var nextRegistrationID = 1

  /// A presenter with nothing on screen.
  public init(project: Project, options: PaywallOptions? = nil, status: SubscriptionStatus = .unknown,
              assignments: AssignmentBook = AssignmentBook(userID: "anonymous")) {
    self.project = project
    self.options = options ?? project.options
    self.status = status
    self.entitlementHistory = status.entitlements
    self.assignments = assignments
  }

  /// How long `register` waits for a known status before its handler's `onError` (the SDK's
  /// `subscriptionStatusTimeout`, 5 s: `Paywall/Presentation/Internal/Operators/WaitForSubsStatusAndConfig.swift`).
  public static let statusTimeout: Double = 5

  /// Which introductory offers the user may still take, from what the store last said it used
  /// (every offer while nothing did): what the cards, the offer's variables, the free-trial copy
  /// and the purchase event follow.
  public var introEligibility: IntroOfferEligibility {
    var eligibility = IntroOfferEligibility(usedGroups: usedIntroGroups, decidesCustomProductsByEntitlements: options.sdk.hasCustomProducts,
                                            entitlementHistory: status == .unknown ? nil : entitlementHistory)
    if let source = project.catalog.play, let history = offerHistory.play { eligibility.play = PlayBuyer(source: source, history: history) }
    return eligibility
  }

  /// What audience filters read now.
  var filterContext: FilterContext {
    var context = FilterContext(status: status, activeProducts: status.isActive ? purchasedProducts : [],
                                user: userAttributes.mapValues(FilterValue.init(parsing:)))
    context.assumedRules = assumedRules
    context.interrupt = interrupt
    context.fillDevice(sdk: options.sdk, subscriptions: storeSubscriptions, catalog: project.catalog)
    return context
  }

  /// What a dismissal's survey pass reads: the survey key saved for the user, and the user.
  var surveyContext: SurveyContext {
    SurveyContext(savedKey: assignments.surveyAssignmentKey, userID: assignments.userID)
  }

  mutating func newRegistrationID() -> Int {
    defer { nextRegistrationID += 1 }
    return nextRegistrationID
  }
}

/// The SDK's verbs and the controller's answers: everything that reaches the presenter.
public enum PresentationAction: Sendable, Equatable {
  /// `register(placement:params:)`: present the placement's paywall, or skip and run the feature.
  case register(placement: String, params: [String: String])
  /// The app launched (`firstInstall`: the first time on this state): the SDK's launch events,
  /// each a chance for a campaign to present (`Presenter.launch`).
  case launch(firstInstall: Bool)
  /// The app was killed and launched again: whatever was on screen is gone, with no event, and
  /// the launch events follow (`firstInstall` false).
  case relaunch
  /// The app was deleted and installed again on the same account: as a relaunch, and the app's
  /// own state starts over (a new user `userID`, its assignments, the install date, pending
  /// reminders, the notification permission never asked; with the app's own purchase controller,
  /// the status cache), then a first launch. The store's purchases stay (`Presenter.reinstall`).
  case reinstall(userID: String)
  /// Open a paywall directly, with no registration (`--paywall`, `open` in a script).
  case open(paywallID: String, selected: String?)
  /// What the user does on the paywall on screen.
  case paywall(PaywallAction)
  /// A button of the paywall on screen, by what it does (a placement button registers).
  case button(ButtonAction)
  case purchaseFinished(PurchaseResult)
  /// `status` is the subscription status once the controller returned.
  case restoreFinished(RestorationResult, status: SubscriptionStatus)
  case statusChanged(SubscriptionStatus)
  /// A waiting registration saw no known status in time.
  case statusTimedOut(registrationID: Int)
  /// Session-wide slot overrides (empty: back to the paywalls as written).
  case setOverrides([SlotOverride])
  /// User attributes, merged over those set before.
  case setUserAttributes([String: String])
  /// The store's used introductory offers changed.
  case introOffersUsed(Set<String>)
  /// The store's history as win-back offers' rules read it changed.
  case offerHistoryChanged(OfferHistory)
  /// The SDK's `Superwall.shared.purchase(product)`, called with no paywall involved; answer with
  /// `.purchaseFinished`. Ignored while another purchase or restore is in flight.
  case callPurchase(StoreProduct)
  /// The SDK's `Superwall.shared.restorePurchases()`, called with no paywall involved; answer with
  /// `.restoreFinished`. Ignored while another purchase or restore is in flight.
  case callRestore
  /// Closes the alert a call showed (`callAlert`).
  case dismissCallAlert
  /// A scheduled notification's time came (`.scheduleNotification`'s answer).
  case notificationDue(id: String)
  /// The app's `Superwall.shared.getPresentationResult(forPlacement:params:)`: the placement
  /// evaluated as a register would be, presenting nothing; the answer is the event
  /// `call.getPresentationResult` (`SDKCalls.presentationResult`).
  case callGetPresentationResult(placement: String, params: [String: String])
  /// The app resigns active (the home screen): `app_close`. Ignored when already in the background.
  case background
  /// The app becomes active again: `app_open`, and `session_start` (with its campaign) after more
  /// than the project's `appSessionTimeoutMs` away. Ignored when in front.
  case foreground
  /// The app's `Superwall.handleDeepLink(url)`: `deepLink_open`, the paywall on screen closed, and
  /// a campaign on it presented (`Presenter.deepLink`).
  case deepLink(url: String)
  /// The simulated store's subscriptions changed (`device.customerInfo` reads them).
  case storeSubscriptionsChanged([StoreSubscription])
  /// The user answers the notification prompt on screen (`permissionPrompt`): `accept` is Allow,
  /// or the denied alert's Open Settings.
  case answerNotificationPrompt(accept: Bool)
  /// The device's notification permission changed in Settings (the script step `notifications`).
  case setNotificationPermission(NotificationPermission)
}

/// A call to the SDK made by the app outside any paywall, in flight.
public enum SDKCall: Sendable, Hashable {
  /// `Superwall.shared.purchase(product)`, with the introductory offer it starts: decided when
  /// the call starts (`IntroOfferEligibility`), before the store records the purchase that uses it.
  case purchase(StoreProduct, introOffer: IntroductoryOffer?)
  /// `Superwall.shared.restorePurchases()`.
  case restore
}

/// Work the presenter asks for; results come back as actions.
public enum PresentationEffect: Sendable, Hashable {
  /// Ask the controller to buy; answer with `.purchaseFinished`.
  case purchase(StoreProduct, slot: String)
  /// Ask the controller to restore; answer with `.restoreFinished`.
  case restore
  /// An event, in the SDK's order.
  case emit(PaywallEvent)
  case saveStatus(SubscriptionStatus)
  case saveAssignments(AssignmentBook)
  /// Answer with `.statusTimedOut(registrationID:)` after `seconds` of the app's clock.
  case scheduleStatusTimeout(registrationID: Int, seconds: Double)
  /// Answer with `.notificationDue(id:)` after `seconds` of the app's clock.
  case scheduleNotification(id: String, seconds: Double)
}
