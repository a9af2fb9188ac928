import Foundation
import PaywallModel

/// The ask controller's dialog: the question and the tester's choices so far.
public struct AskDialog: Sendable, Hashable {
  public enum Row: Sendable, Hashable { case outcome, entitlements, message }

  public var request: AskPurchaseController.Request
  public var outcome: AskPurchaseController.Outcome
  /// Every entitlement the catalog knows, in order, and which are ticked.
  public var entitlements: [Entitlement]
  public var granted: Set<Entitlement>
  public var message: String = ""
  public var row: Row = .outcome
  public var cursor = 0

  public var outcomes: [AskPurchaseController.Outcome] {
    switch request.question {
    case .purchase: AskPurchaseController.Outcome.allCases
    case .restore: [.restored, .failed]
    }
  }
}

/// Everything on screen and everything the keys act on. Only `AppModel.update` changes it.
public struct AppState: Sendable {
  public var project: Project
  public var options: PaywallOptions
  public var status: SubscriptionStatus
  /// The paywall on screen, if any.
  public var session: PaywallSession?
  public var focus: FocusTarget?
  /// The last paywall that closed and how, shown until another opens.
  public var closed: (paywall: String, result: PaywallResult)?
  public var ask: AskDialog?
  public var showsHelp = false
  public var showsLog = false
  /// The QA debug panel (`d`).
  public var showsDebug = false
  /// A duration being typed in the debug panel (`+`), to advance the clock by.
  public var debugInput: String?
  /// The simulated store as the debug panel shows it; nil with other controllers.
  public var store: StorePanel?
  /// A user attribute being typed in the debug panel (`u`), as `key=value`.
  public var attributeInput: String?
  /// The terminal's size, for mouse hit-testing (the same layout the view draws).
  public var size = Size(width: 80, height: 24)
  /// The newest events and notices, oldest first, at most `logLimit`.
  public private(set) var log: [String] = []
  public static let logLimit = 500
  /// Controller problems and warnings not yet acknowledged, shown in the status bar.
  public var notice: String?
  public var spinnerFrame = 0
  public var quitRequested = false
  public var userAttributes: [String: String] = [:]
  /// The paywall `enter` reopens from the closed screen.
  public var lastPaywallID: String?
  /// Why the paywall on screen was presented: by `register` (its feature, its gating) or by an
  /// implicit placement. Nil when opened directly (`--paywall`, `open`).
  public var registration: Registration?
  /// A `register` waiting (up to 5 s) for a known subscription status.
  public var waiting: Registration?
  /// Sticky audience assignments for this user.
  public var assignments: AssignmentBook
  /// Product ids bought this session (with `device.activeProducts` while the status is active).
  public var purchasedProducts: [String] = []
  /// Session-wide slot overrides, applied to every paywall presented while set (`override` in play).
  public var overrides: [SlotOverride] = []
  /// The outcome of the last registration, for the home screen: skipped and why, the paywall, the feature.
  public var outcome: [String] = []
  /// The highlighted placement on the home screen.
  public var homeSelection = 0
  private var nextRegistrationID = 1

  public init(project: Project, options: PaywallOptions = PaywallOptions(), status: SubscriptionStatus = .unknown,
              assignments: AssignmentBook = AssignmentBook(userID: "anonymous")) {
    self.project = project
    self.options = options
    self.status = status
    self.assignments = assignments
  }

  mutating func newRegistrationID() -> Int {
    defer { nextRegistrationID += 1 }
    return nextRegistrationID
  }

  /// What audience filters read now.
  var filterContext: FilterContext {
    FilterContext(status: status, activeProducts: status.isActive ? purchasedProducts : [],
                  user: userAttributes.mapValues(FilterValue.init(parsing:)))
  }

  /// Whether a product's free trial may be offered: not in a group whose introductory offer the
  /// simulated store has seen used (a subscriber opening a paywall is not offered a trial).
  public func isTrialEligible(_ product: StoreProduct) -> Bool {
    guard let store else { return true }
    return !store.usedIntroGroups.contains(product.subscriptionGroup ?? product.id)
  }

  mutating func appendLog(_ line: String) {
    log.append(line)
    if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
  }
}

/// What the debug panel shows of the simulated store: its clock, subscriptions, pending purchases
/// and armed faults, as of the store's last change.
public struct StorePanel: Sendable, Hashable {
  public var clock: Date
  public var timeRate: String
  public var subscriptions: [StoreSubscription]
  public var pending: [PendingPurchase]
  public var nextEvent: Date?
  /// Subscription groups whose introductory offer is used: their trials are not offered again.
  public var usedIntroGroups: Set<String>
  public var faults: [String]

  public init(clock: Date, timeRate: String, subscriptions: [StoreSubscription], pending: [PendingPurchase],
              nextEvent: Date?, usedIntroGroups: Set<String>, faults: [String]) {
    self.clock = clock
    self.timeRate = timeRate
    self.subscriptions = subscriptions
    self.pending = pending
    self.nextEvent = nextEvent
    self.usedIntroGroups = usedIntroGroups
    self.faults = faults
  }
}

/// One `register(placement, params, feature)` call, as far as it has got.
public struct Registration: Sendable, Hashable {
  public var id: Int
  public var placement: String
  public var params: [String: String]
  /// Presented by an implicit placement (`transaction_abandon`…): no handler, no feature, and
  /// it never chains to another paywall.
  public var isImplicit = false

  public init(id: Int, placement: String, params: [String: String], isImplicit: Bool = false) {
    self.id = id
    self.placement = placement
    self.params = params
    self.isImplicit = isImplicit
  }
}

/// What the QA debug panel can do to the world around the app.
public enum DebugAction: Sendable, Hashable {
  case setStatus(SubscriptionStatus)
  case advanceClock(seconds: Double)
  /// Jump the clock to the store's next renewal, expiry or grace period end.
  case advanceToNextEvent
  /// Anything a play script can do to the simulated store.
  case store(StoreAction)
  case failNextPurchase(String)
  case failNextRestore(StoreError)
  /// Every request waits this long (0: no latency).
  case setLatency(seconds: Double)
  case dropNextResponse
}

/// Work `update` asks the runtime to do; results come back as messages.
public enum AppEffect: Sendable {
  case debug(DebugAction)
  case purchase(StoreProduct, slot: String)
  case restore
  case emit(PaywallEvent)
  case saveStatus(SubscriptionStatus)
  case answerAsk(id: Int, AskPurchaseController.Answer)
  /// Send `.registrationTimedOut(id)` after `seconds` of the app's clock.
  case startStatusTimeout(id: Int, seconds: Double)
  case saveAssignments(AssignmentBook)
  case quit
}

/// What reaches `update`: keys, results of effects, and changes from outside.
public enum AppMessage: Sendable {
  var isStatusChange: Bool {
    if case .statusChanged = self { return true }
    return false
  }

  case key(Key)
  case open(paywallID: String, selected: String?)
  case statusChanged(SubscriptionStatus)
  case purchaseFinished(PurchaseResult)
  case restoreFinished(RestorationResult, status: SubscriptionStatus)
  case askRequested(AskPurchaseController.Request)
  /// Something to tell the tester (a warning, what a debug action did): the status bar and the log.
  case notice(String)
  /// The purchase controller misbehaved (a malformed line, a crash, a timeout): also a
  /// `controller_error` event, so `--events` and `play` record it.
  case controllerProblem(String)
  case userAttributes([String: String])
  /// The simulated store changed (or its clock moved while the debug panel is open).
  case storeChanged(StorePanel)
  /// `register(placement:params:)`: present the placement's paywall, or skip and run the feature.
  case register(placement: String, params: [String: String])
  /// A waiting `register` saw no known status in time.
  case registrationTimedOut(id: Int)
  /// Session-wide slot overrides (empty: back to the paywalls as written).
  case setOverrides([SlotOverride])
  case tick
  case resized(Size)
  /// Ctrl-C, SIGTERM, SIGHUP: leave cleanly.
  case terminate(reason: String)
}
