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
  /// How the store's clock runs, for the debug panel ("realtime", "month=30s").
  public let timeRate: String
  /// Write the status cache and the audience assignments on their own queues, newest first: a
  /// write (an fsync) never holds up a key or the first paint, and a flood of changes is one write
  /// per write's duration, not one each.
  private let statusWriter: StateWriter<SubscriptionStatus>?
  private let assignmentWriter: StateWriter<AssignmentBook>?
  private let onEvent: @Sendable (PaywallEvent) -> Void

  private struct Shared {
    var inbox: [AppMessage] = []
    /// Effect tasks started and not yet finished.
    var running = 0
    var wake: CheckedContinuation<Void, Never>?
    var stateProblemHandler: (@Sendable (String) -> Void)?
    /// What the debug panel last got from the store, to send it again only when it changed.
    var storeSeen: (changes: Int, faults: [String], second: Int)?
  }

  private let shared = Mutex(Shared())

  public init(state: AppState, controller: any PurchaseController, statusStore: SubscriptionStatusStore,
              clock: any TimeSource, statusCache: StatusCache?, store: SimulatedStore? = nil, timeRate: String = "realtime",
              assignmentFile: AssignmentFile? = nil, onEvent: @escaping @Sendable (PaywallEvent) -> Void) {
    var initial = state
    initial.status = statusStore.status
    self.state = initial
    self.controller = controller
    self.store = store
    self.timeRate = timeRate
    self.statusStore = statusStore
    self.clock = clock
    statusWriter = statusCache.map { cache in StateWriter("status-cache-writer") { status throws(AtomicFile.WriteError) in try cache.save(status) } }
    assignmentWriter = assignmentFile.map { file in StateWriter("assignment-writer") { book throws(AtomicFile.WriteError) in try file.save(book) } }
    self.onEvent = onEvent
    if let ask = askController {
      ask.setRequestHandler { [weak self] request in self?.send(.askRequested(request)) }
    }
    (clock as? SimulatedTimeSource)?.setParkHandler { [weak self] in self?.wakeLoop() }
    // A ledger that stops saving (a full disk) is news the moment it happens, not at the next launch.
    store?.setWarningHandler { [weak self] message in self?.reportStateProblem(message) }
    statusWriter?.onFailure = { [weak self] error, earlier in
      guard earlier == 0 else { return }
      self?.reportStateProblem("status not cached: \(error.reason) (\(error.path)); kept in memory, saved again at the next change")
    }
    assignmentWriter?.onFailure = { [weak self] error, _ in
      self?.reportStateProblem("audience assignments not saved: \(error.reason) (\(error.path)); kept in memory, saved again at the next change")
    }
  }

  /// Also hears every problem saving state (`play` prints them; the screen shows them anyway).
  public func setStateProblemHandler(_ handler: @escaping @Sendable (String) -> Void) {
    shared.withLock { $0.stateProblemHandler = handler }
  }

  private func reportStateProblem(_ message: String) {
    send(.notice(message))
    shared.withLock { $0.stateProblemHandler }?(message)
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
      // Only the newest status matters: a controller that sets it a thousand times a second must
      // not queue a thousand messages ahead of the next key (or the Ctrl-C) the person presses.
      if case .statusChanged = message, let queued = shared.inbox.lastIndex(where: \.isStatusChange) {
        shared.inbox.remove(at: queued)
      }
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

  /// Handles the queued messages now: all of them, or with a `budget`, those that fit in it (the
  /// interactive loop draws between batches, so messages that never stop coming cannot starve
  /// the screen).
  public func drain(budget: Duration? = nil) {
    let clock = ContinuousClock()
    let deadline = budget.map { clock.now + $0 }
    // A controller sets the status before it returns, so the change is handled before the
    // result that follows it (as in the SDK: subscriptionStatus_didChange, then transaction_complete).
    syncStore()
    syncStatus()
    while let message = shared.withLock({ $0.inbox.isEmpty ? nil : $0.inbox.removeFirst() }) {
      dispatch(message)
      syncStore()
      syncStatus()
      if let deadline, clock.now >= deadline { return }
    }
  }

  /// Waits for state files still being written (the status cache is written off the loop).
  public func flushState() {
    statusWriter?.flush()
    assignmentWriter?.flush()
  }

  /// Saves the audience assignments off the loop (a new user's id, kept before anything else
  /// happens to it).
  func keepAssignments(_ book: AssignmentBook) {
    assignmentWriter?.save(book)
  }

  /// Hands the debug panel (and trial eligibility) what the store looks like now, when it changed;
  /// while the panel is open, also when its clock moves on to another second.
  private func syncStore() {
    guard let store else { return }
    let faults = (controller as? FaultInjectingController)?.armed.descriptions ?? []
    let now = store.clock.now
    let second = state.showsDebug ? Int(now.timeIntervalSince1970) : 0
    let changes = store.changeCount
    let fresh = shared.withLock { shared -> Bool in
      if let seen = shared.storeSeen, seen.changes == changes, seen.faults == faults, seen.second == second { return false }
      shared.storeSeen = (changes, faults, second)
      return true
    }
    guard fresh else { return }
    let derived = store.derived
    let pending = store.pendingPurchases
    let panel = StorePanel(clock: now, timeRate: timeRate, subscriptions: derived.subscriptions, pending: pending,
                           nextEvent: derived.nextEvent, usedIntroGroups: derived.usedIntroGroups, faults: faults)
    dispatch(.storeChanged(panel))
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
      statusWriter?.save(status)
    case .answerAsk(let id, let answer):
      askController?.answer(id, with: answer)
    case .startStatusTimeout(let id, let seconds):
      start { runtime in
        try? await runtime.clock.sleep(seconds: seconds)
        return .registrationTimedOut(id: id)
      }
    case .saveAssignments(let book):
      assignmentWriter?.save(book)
    case .debug(let action):
      perform(action)
    case .quit:
      break
    }
  }

  private func perform(_ action: DebugAction) {
    switch action {
    case .setStatus(let status):
      statusStore.set(status)
    case .advanceClock(let seconds):
      let end = (store?.clock ?? clock).now.addingTimeInterval(seconds)
      guard end <= LedgerFile.latestDate else {
        return send(.notice("the clock cannot go past \(StoreDates.format(LedgerFile.latestDate)), the last date a ledger holds (it is \(StoreDates.format((store?.clock ?? clock).now)) now)"))
      }
      advance(by: seconds)
      send(.notice("clock advanced \(TimeRate.spell(seconds))"))
    case .advanceToNextEvent:
      guard let store else { return send(.notice("the clock jumps to renewals of the simulated store (--controller simulated)")) }
      guard let next = store.nextEvent else { return send(.notice("nothing is due: no renewal or expiry ahead")) }
      advance(by: max(0, next.timeIntervalSince(store.clock.now)))
      send(.notice("clock advanced to \(StoreDates.format(next)) UTC"))
    case .store(let action):
      guard let store else { return send(.notice("\(action.name) needs the simulated store (--controller simulated)")) }
      switch store.perform(action) {
      case .success(let message): send(.notice(message))
      case .failure(let error): send(.notice(error.message))
      }
    case .failNextPurchase(let message):
      guard let injector else { return send(.notice("this controller cannot inject failures")) }
      injector.failNextPurchase(message)
      send(.notice("the next purchase fails: \(message)"))
    case .failNextRestore(let error):
      guard let injector else { return send(.notice("this controller cannot inject failures")) }
      injector.failNextRestore(with: error)
      send(.notice("the next restore fails: \(error.rawValue)"))
    case .setLatency(let seconds):
      guard let injector else { return send(.notice("this controller cannot inject failures")) }
      injector.setLatency(seconds: seconds)
      send(.notice(seconds > 0 ? "every request now takes \(TimeRate.spell(seconds)) longer" : "latency off"))
    case .dropNextResponse:
      guard let injector else { return send(.notice("this controller cannot inject failures")) }
      injector.dropNextResponse()
      send(.notice("the next response is dropped: the app gives up after \(TimeRate.spell(injector.responseTimeout))"))
    }
  }

  private var injector: FaultInjectingController? { controller as? FaultInjectingController }

  /// Moves the app's clock and the store's (when it has its own, accelerated one), then lets the
  /// store catch up with renewals and expiries that fell due.
  private func advance(by seconds: Double) {
    if let adjustable = clock as? any AdjustableTimeSource { adjustable.advance(by: seconds) }
    if let store, store.clock as AnyObject !== clock as AnyObject, let adjustable = store.clock as? any AdjustableTimeSource {
      adjustable.advance(by: seconds)
    }
    store?.refreshStatus()
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

/// Saves a state file off the app's loop: the newest value waits while a write runs, and is
/// written next; values in between are never written.
final class StateWriter<Value: Sendable>: @unchecked Sendable {
  private let write: @Sendable (Value) throws(AtomicFile.WriteError) -> Void
  private let queue: DispatchQueue
  private let state = Mutex<(pending: Value?, writing: Bool, failures: Int)>((nil, false, 0))
  /// Told at each failed write, with how many failed before it.
  var onFailure: (@Sendable (AtomicFile.WriteError, _ earlierFailures: Int) -> Void)?

  init(_ label: String, write: @escaping @Sendable (Value) throws(AtomicFile.WriteError) -> Void) {
    self.write = write
    queue = DispatchQueue(label: label)
  }

  func save(_ value: Value) {
    let start = state.withLock { state -> Bool in
      state.pending = value
      defer { state.writing = true }
      return !state.writing
    }
    if start { queue.async { self.writePending() } }
  }

  private func writePending() {
    while let value = state.withLock({ state -> Value? in
      defer { state.pending = nil }
      if state.pending == nil { state.writing = false }
      return state.pending
    }) {
      do {
        try write(value)
      } catch {
        let earlier = state.withLock { state -> Int in
          defer { state.failures += 1 }
          return state.failures
        }
        onFailure?(error, earlier)
      }
    }
  }

  /// Returns once every value handed to `save` so far is written (or failed), or after `seconds`
  /// if a write hangs (a stalled disk): the process may then end, rather than never.
  func flush(within seconds: Double = 10) {
    let deadline = DispatchTime.now() + seconds
    func waitForQueue() -> Bool {
      let done = DispatchSemaphore(value: 0)
      queue.async { done.signal() }
      return done.wait(timeout: deadline) == .success
    }
    guard waitForQueue() else { return }
    // A save that raced with the last write started a new one: wait for it too.
    if state.withLock({ $0.writing }) { _ = waitForQueue() }
  }
}
