import Foundation
import PaywallModel
import Synchronization

/// Runs the app: messages go through `AppModel.update` one at a time, effects run as tasks whose
/// results come back as messages. `play` drives it step by step (`send`, then `settle`); the
/// interactive front end drives it from the terminal.
public final class AppRuntime: @unchecked Sendable {
  // `state` is only touched by whoever calls `settle`/`dispatch`: one loop, one owner.
  public private(set) var state: AppState

  public let controller: any PurchaseController
  public let statusStore: SubscriptionStatusStore
  public let clock: any TimeSource
  /// The simulated store behind `controller`, when there is one: the debug panel acts on it.
  public let store: SimulatedStore?
  private let statusCache: StatusCache?
  private let assignmentFile: AssignmentFile?
  private let onEvent: @Sendable (PaywallEvent) -> Void

  private struct Shared {
    var inbox: [AppMessage] = []
    /// Effect tasks started and not yet finished.
    var running = 0
    var wake: CheckedContinuation<Void, Never>?
    var cacheWarningShown = false
  }

  private let shared = Mutex(Shared())

  public init(state: AppState, controller: any PurchaseController, statusStore: SubscriptionStatusStore,
              clock: any TimeSource, statusCache: StatusCache?, store: SimulatedStore? = nil,
              assignmentFile: AssignmentFile? = nil, onEvent: @escaping @Sendable (PaywallEvent) -> Void) {
    var initial = state
    initial.status = statusStore.status
    self.state = initial
    self.controller = controller
    self.store = store
    self.statusStore = statusStore
    self.clock = clock
    self.statusCache = statusCache
    self.assignmentFile = assignmentFile
    self.onEvent = onEvent
    if let ask = askController {
      ask.setRequestHandler { [weak self] request in self?.send(.askRequested(request)) }
    }
    (clock as? SimulatedTimeSource)?.setParkHandler { [weak self] in self?.wakeLoop() }
  }

  /// The ask controller, when that is what drives purchases (possibly behind fault injection).
  private var askController: AskPurchaseController? {
    (controller as? FaultInjectingController)?.inner as? AskPurchaseController ?? controller as? AskPurchaseController
  }

  /// Lets a waiting `settle` look again (an effect parked on the clock: the app may be idle now).
  private func wakeLoop() {
    let waiter = shared.withLock { shared -> CheckedContinuation<Void, Never>? in
      defer { shared.wake = nil }
      return shared.wake
    }
    waiter?.resume()
  }

  /// Queues a message from any thread; the loop handles it on its next step.
  public func send(_ message: AppMessage) {
    let waiter = shared.withLock { shared -> CheckedContinuation<Void, Never>? in
      shared.inbox.append(message)
      defer { shared.wake = nil }
      return shared.wake
    }
    waiter?.resume()
  }

  /// Handles every queued message and every result of the effects they start, until nothing can
  /// happen without input: each running effect is parked on the simulated clock or waiting for the
  /// tester's answer. Deterministic for a given sequence of inputs.
  public func settle() async {
    while true {
      drain()
      if isIdle { return }
      await waitForMessages(orIdle: true)
    }
  }

  /// Handles every queued message now.
  public func drain() {
    // A controller sets the status before it returns, so the change is handled before the
    // result that follows it (as in the SDK: subscriptionStatus_didChange, then transaction_complete).
    syncStatus()
    while let message = shared.withLock({ $0.inbox.isEmpty ? nil : $0.inbox.removeFirst() }) {
      dispatch(message)
      syncStatus()
    }
  }

  /// Suspends until a message is queued (or, with `orIdle`, until the app may have gone idle).
  public func waitForMessages(orIdle: Bool = false) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = shared.withLock { shared -> Bool in
        if !shared.inbox.isEmpty { return true }
        shared.wake = continuation
        return false
      }
      if ready {
        continuation.resume()
      } else if orIdle && isIdle {
        // A task parked between the idle check and now: look again.
        wakeLoop()
      }
    }
  }

  private func syncStatus() {
    let current = statusStore.status
    if current != state.status { dispatch(.statusChanged(current)) }
  }

  /// Nothing queued, and every running effect waits on the clock or on the tester.
  public var isIdle: Bool {
    let (queued, running) = shared.withLock { ($0.inbox.count, $0.running) }
    guard queued == 0 else { return false }
    let parked = (clock as? SimulatedTimeSource)?.parkedCount ?? 0
    let asking = state.ask != nil ? 1 : 0
    return running <= parked + asking
  }

  /// Runs one message through `update` and starts its effects.
  public func dispatch(_ message: AppMessage) {
    let effects = AppModel.update(&state, message)
    for effect in effects { run(effect) }
  }

  private func run(_ effect: AppEffect) {
    switch effect {
    case .purchase(let product, _):
      start { runtime in .purchaseFinished(await runtime.controller.purchase(product: product)) }
    case .restore:
      start { runtime in
        let result = await runtime.controller.restorePurchases()
        return .restoreFinished(result, status: runtime.statusStore.status)
      }
    case .emit(let event):
      onEvent(event)
    case .saveStatus(let status):
      guard let statusCache else { return }
      do {
        try statusCache.save(status)
      } catch {
        let first = shared.withLock { shared -> Bool in
          defer { shared.cacheWarningShown = true }
          return !shared.cacheWarningShown
        }
        if first { send(.notice("\(error.description); the status is not cached this session")) }
      }
    case .answerAsk(let id, let answer):
      askController?.answer(id, with: answer)
    case .startStatusTimeout(let id, let seconds):
      start { runtime in
        try? await runtime.clock.sleep(seconds: seconds)
        return .registrationTimedOut(id: id)
      }
    case .saveAssignments(let book):
      guard let assignmentFile else { return }
      do {
        try assignmentFile.save(book)
      } catch {
        send(.notice("\(error.description); audience assignments are not kept this session"))
      }
    case .debug(let action):
      perform(action)
    case .quit:
      break
    }
  }

  private func perform(_ action: DebugAction) {
    func needsStore(_ what: String) { send(.notice("\(what) needs the simulated store (--controller simulated)")) }
    switch action {
    case .setStatus(let status):
      statusStore.set(status)
    case .advanceClock(let seconds):
      guard let clock = clock as? any AdjustableTimeSource else { return send(.notice("this clock cannot be advanced")) }
      clock.advance(by: seconds)
      store?.refreshStatus()
      send(.notice("clock advanced \(seconds >= 86_400 * 28 ? "1 month" : "1 day")"))
    case .approvePending:
      guard let store else { return needsStore("approve") }
      send(.notice(store.approve().map { "approved \($0)" } ?? "no pending purchase to approve"))
    case .declinePending:
      guard let store else { return needsStore("decline") }
      send(.notice(store.decline().map { "declined \($0)" } ?? "no pending purchase to decline"))
    case .refundLatest:
      guard let store else { return needsStore("refund") }
      let latest = store.transactions.last { $0.revocationDate == nil }
      if let latest, store.refund(productID: latest.productID) {
        send(.notice("refunded \(latest.productID)"))
      } else {
        send(.notice("nothing to refund"))
      }
    case .failNextPurchase(let message):
      guard let injector = controller as? FaultInjectingController else { return send(.notice("this controller cannot inject failures")) }
      injector.failNextPurchase(message)
      send(.notice("the next purchase fails: \(message)"))
    }
  }

  /// Starts an effect task; its result is queued before it counts as finished, so the loop never
  /// sees an idle moment between the two.
  private func start(_ work: @escaping @Sendable (AppRuntime) async -> AppMessage) {
    shared.withLock { $0.running += 1 }
    Task {
      let message = await work(self)
      let waiter = shared.withLock { shared -> CheckedContinuation<Void, Never>? in
        shared.inbox.append(message)
        shared.running -= 1
        defer { shared.wake = nil }
        return shared.wake
      }
      waiter?.resume()
    }
  }
}
