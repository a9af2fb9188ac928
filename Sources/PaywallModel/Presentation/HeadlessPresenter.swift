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
import Synchronization

/// The presenter with a controller and a status store and no terminal: what an app developer's
/// unit test does with the SDK. Register a placement, act on the paywall it presents, and read the
/// events, the state and whether the feature ran:
///
/// ```swift
/// let status = SubscriptionStatusStore(.inactive)
/// let store = SimulatedStore(catalog: project.catalog, status: status, clock: LiveTimeSource(), directory: nil)
/// let app = HeadlessPresenter(project: project, store: store, status: status)
/// await app.register("export_pdf")              // a gated placement: its paywall is presented
/// await app.perform(.purchase(slot: nil))       // buys the selected product
/// #expect(await app.featureRan("export_pdf"))
/// ```
///
/// Each call returns once everything it started has finished: the controller's purchase or
/// restore has answered and its result (and the status it set, first) went through the presenter.
/// A registration waiting for a known status waits on `clock` (5 s) in the background.
public actor HeadlessPresenter {
  /// Everything the presenter knows now.
  public private(set) var state: PresentationState
  /// Every event so far, in the SDK's order.
  public private(set) var events: [PaywallEvent] = []
  private let controller: any PurchaseController
  private let status: SubscriptionStatusStore
  private let clock: any TimeSource
  private let changes = StatusChanges()
  private let subscription: SubscriptionStatusStore.Subscription
  /// The store's used introductory offers, when the controller is the simulated store.
  private let usedIntroGroups: (@Sendable () -> Set<String>)?
  /// The store's history as win-back offers read it, when the controller is the simulated store.
  private let offerHistory: (@Sendable () -> OfferHistory)?

  /// Statuses the store set that the presenter has not seen yet, in the store's order.
  private final class StatusChanges: Sendable {
    let pending = Mutex<[SubscriptionStatus]>([])
  }

  /// A presenter for `project` whose purchases go to `controller`, which sets `status`; audiences
  /// assign `userID` (in memory). `clock` is the presenter's `now` and runs the status timeout.
  public init(project: Project, controller: any PurchaseController, status: SubscriptionStatusStore,
              clock: any TimeSource = LiveTimeSource(), userID: String = "anonymous") {
    self.init(project: project, controller: controller, status: status, clock: clock, userID: userID, usedIntroGroups: nil,
              offerHistory: nil, hasPurchaseController: true)
  }

  private init(project: Project, controller: any PurchaseController, status: SubscriptionStatusStore, clock: any TimeSource,
               userID: String, usedIntroGroups: (@Sendable () -> Set<String>)?,
               offerHistory: (@Sendable () -> OfferHistory)?, hasPurchaseController: Bool) {
    self.offerHistory = offerHistory
    let changes = changes
    // Subscribed before the status is read: a change in between is seen twice (the repeat is
    // ignored), never missed.
    subscription = status.subscribe { value in changes.pending.withLock { $0.append(value) } }
    state = PresentationState(project: project, status: status.status, assignments: AssignmentBook(userID: userID))
    state.hasPurchaseController = hasPurchaseController
    self.controller = controller
    self.status = status
    self.clock = clock
    self.usedIntroGroups = usedIntroGroups
  }

  /// A presenter whose purchases go to the simulated `store`: as in the app, a trial whose group's
  /// introductory offer the store has seen used is not offered again.
  public init(project: Project, store: SimulatedStore, status: SubscriptionStatusStore,
              clock: any TimeSource = LiveTimeSource(), userID: String = "anonymous") {
    self.init(project: project, controller: store, status: status, clock: clock, userID: userID,
              // As in the app: the simulated store is the SDK buying from the store itself, with
              // no purchase controller (`SDKCalls`).
              usedIntroGroups: { store.derived.usedIntroGroups }, offerHistory: { store.derived.offerHistory },
              hasPurchaseController: false)
  }

  /// `Superwall.shared.purchase(product)`, called with no paywall; the events it led to (the last,
  /// `call.purchase`, has the `result` it returned).
  @discardableResult
  public func purchase(_ product: StoreProduct) async -> [PaywallEvent] {
    await send(.callPurchase(product))
  }

  /// `Superwall.shared.restorePurchases()`, called with no paywall; the events it led to (the last,
  /// `call.restorePurchases`, has the `result` it returned).
  @discardableResult
  public func restorePurchases() async -> [PaywallEvent] {
    await send(.callRestore)
  }

  /// Decides an audience rule the emulator cannot evaluate (`PLACEMENT#N`, as `--assume-rule`):
  /// without it, a `register` that reaches the rule does nothing and its outcome is `.undecided`.
  public func assume(rule key: String, matches: Bool) {
    state.assumedRules[key] = matches
  }

  /// `register(placement:params:)`; the events it led to.
  @discardableResult
  public func register(_ placement: String, params: [String: String] = [:]) async -> [PaywallEvent] {
    await send(.register(placement: placement, params: params))
  }

  /// What the user does on the paywall on screen (select, purchase, restore, close); the events.
  @discardableResult
  public func perform(_ action: PaywallAction) async -> [PaywallEvent] {
    await send(.paywall(action))
  }

  /// Whether `placement`'s feature ran, at any time so far.
  public func featureRan(_ placement: String) -> Bool {
    events.contains { $0.name == .featureRun && $0["placement"]?.stringValue == placement }
  }

  /// Any action of the presenter, with what follows from it; the events it led to. With a
  /// controller that never answers (the ask controller with nobody to ask), it waits as long.
  /// Calls are not interleaved by design: one that overlaps another (a status timeout firing
  /// during a purchase) runs between its steps, and both return the events of both.
  @discardableResult
  public func send(_ action: PresentationAction) async -> [PaywallEvent] {
    let first = events.count
    var queue = takeStatusChanges() + [action]
    while !queue.isEmpty {
      if let used = usedIntroGroups?(), used != state.usedIntroGroups {
        _ = Presenter.update(&state, .introOffersUsed(used), now: clock.now)
      }
      if let history = offerHistory?(), history != state.offerHistory {
        _ = Presenter.update(&state, .offerHistoryChanged(history), now: clock.now)
      }
      for effect in Presenter.update(&state, queue.removeFirst(), now: clock.now) {
        switch effect {
        case .emit(let event):
          events.append(event)
        case .purchase(let product, _):
          let result = await controller.purchase(product: product)
          // A controller sets the status before it returns: the change comes first, as in the SDK.
          queue += takeStatusChanges() + [.purchaseFinished(result)]
        case .restore:
          let result = await controller.restorePurchases()
          queue += takeStatusChanges() + [.restoreFinished(result, status: status.status)]
        case .scheduleStatusTimeout(let id, let seconds):
          let clock = clock
          Task {
            try? await clock.sleep(seconds: seconds)
            await self.send(.statusTimedOut(registrationID: id))
          }
        case .scheduleNotification(let id, let seconds):
          let clock = clock
          Task {
            try? await clock.sleep(seconds: seconds)
            await self.send(.notificationDue(id: id))
          }
        case .saveStatus, .saveAssignments:
          break  // kept in memory: nothing is written
        }
      }
      queue = takeStatusChanges() + queue
    }
    return Array(events[first...])
  }

  private func takeStatusChanges() -> [PresentationAction] {
    changes.pending.withLock { pending in
      defer { pending.removeAll() }
      return pending.map(PresentationAction.statusChanged)
    }
  }
}
