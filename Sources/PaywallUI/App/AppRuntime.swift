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
import PaywallModel
import Synchronization

/// What the composition root (`AppSession.make`) knows about the world around the app: the
/// runtime is handed it, so nothing is found out by downcasting.
package struct AppWorld: Sendable {
  /// Always the fault injector, around the chosen controller.
  package var controller: FaultInjectingController
  package var statusStore: SubscriptionStatusStore
  /// The app's clock: the status timeout and the presenter's `now` follow it.
  package var clock: any TimeSource
  /// `play`'s clock: it moves only when a step advances it, from deadline to deadline.
  package var simulatedClock: SimulatedTimeSource?
  /// The clocks an `advance` moves (the app's, and the store's when it has its own).
  package var adjustableClocks: [any AdjustableTimeSource] = []
  /// The simulated store, when it is the controller: the debug panel acts on it.
  package var store: SimulatedStore?
  /// The ask controller, when it is the controller: its questions become the dialog.
  package var ask: AskPurchaseController?
  /// How the store's clock runs, for the debug panel ("realtime", "month=30s").
  package var timeRate = "realtime"
  /// Store seconds per wall second (the time rate's): on `play`'s clock, which stands for the
  /// store's, a wall-clock timer of `run` (a notice's) lasts this many times longer.
  package var wallRate = 1.0
  /// The controller is code in the app's process (scripted, ask, one given in code): a relaunch or
  /// a reinstall ends its calls in flight, which then set no status. The simulated store is the
  /// device's and the account's (a purchase confirmed goes through), a command controller's
  /// process is its own.
  package var diesWithTheApp = false

  /// The world of a session: what the composition root (or a test, as one would) found.
  package init(controller: FaultInjectingController, statusStore: SubscriptionStatusStore, clock: any TimeSource,
               simulatedClock: SimulatedTimeSource? = nil, adjustableClocks: [any AdjustableTimeSource] = [],
               store: SimulatedStore? = nil, ask: AskPurchaseController? = nil, timeRate: String = "realtime", wallRate: Double = 1.0) {
    self.controller = controller
    self.statusStore = statusStore
    self.clock = clock
    self.simulatedClock = simulatedClock
    self.adjustableClocks = adjustableClocks
    self.store = store
    self.ask = ask
    self.timeRate = timeRate
    self.wallRate = wallRate
  }

  /// The clock the store's dates are checked in (an advance may not pass the ledger's last date):
  /// the store's when there is one.
  package var storeNow: Date { (store?.clock ?? clock).now }
}

/// Runs the app: messages from the inbox go through `AppModel.update` one at a time, and each
/// effect is carried out here; those with a result (a purchase, a timeout, a tick) run as tasks
/// whose results come back through the inbox. `play` drives it step by step (`send`, then
/// `settle`); the interactive loop drains it between frames.
package final class AppRuntime: @unchecked Sendable {
  // `state` is only touched by whoever calls `settle`/`drain`: one loop, one owner.
  package private(set) var state: AppState
  package let world: AppWorld
  package let inbox: AppInbox
  /// Whether the front end animates (the spinner): `play` has nothing to animate and asks no ticks.
  private let animates: Bool
  /// Write the status cache and the audience assignments on their own queues, newest first: a
  /// write (an fsync) never holds up a key or the first paint, and a flood of changes is one write
  /// per write's duration, not one each.
  private let statusWriter: StateWriter<SubscriptionStatus>?
  private let assignmentWriter: StateWriter<AssignmentBook>?
  /// The trial reminders pending on the device, kept in the state directory as they change.
  private let reminders: ReminderKeeper?
  private let onEvent: @Sendable (PaywallEvent) -> Void
  private let stateProblemHandler = Mutex<(@Sendable (String) -> Void)?>(nil)
  /// The status reaches the inbox through this one subscription, in the store's order.
  private var statusSubscription: SubscriptionStatusStore.Subscription?
  /// Advances on `play`'s clock, in order, carried out step by step when the app is next idle.
  var pendingAdvances: [(seconds: Double, report: String, announce: Bool)] = []
  /// When the notice on show goes, on `play`'s clock (as `run`'s wall-clock timer lets it go), so
  /// a replayed recording ends on the screen the session did.
  private var noticeDeadline: (id: Int, at: Date)?
  /// `run --record`: sees every message before it is handled (set before the loop starts).
  package var recorder: (any DispatchObserver)?
  /// The app's process, counted from 0: a relaunch or a reinstall starts the next. A controller's
  /// answer to a call an earlier process made reaches nobody: the app that asked is gone.
  private var process = 0
  /// The controller's calls in flight, cancelled when the process dies (`diesWithTheApp`).
  private let calls = InFlightCalls()

  /// `launchStatus`: the status the app launched with (the cache's) when the controller may since
  /// have set another while the app was built; that one then arrives as a change.
  package init(state: AppState, world: AppWorld, inbox: AppInbox = AppInbox(), launchStatus: SubscriptionStatus? = nil,
       statusCache: StatusCache?, assignmentFile: AssignmentFile? = nil, reminders: ReminderKeeper? = nil, animates: Bool,
       onEvent: @escaping @Sendable (PaywallEvent) -> Void) {
    // Subscribed before the status is read: a change in between is in both (a repeat is ignored),
    // never in neither (a command controller may set it while the app is being built).
    let subscription = world.statusStore.subscribe { [inbox] status in inbox.send(.presentation(.statusChanged(status))) }
    var initial = state
    // Only the interactive loop has keys that must not wait; `play` and `test` never interrupt.
    if animates { initial.presentation.interrupt = inbox.interrupt }
    let current = world.statusStore.status
    initial.presentation.status = launchStatus ?? current
    if let launchStatus, launchStatus != current { inbox.send(.presentation(.statusChanged(current))) }
    self.state = initial
    statusSubscription = subscription
    self.world = world
    self.inbox = inbox
    self.animates = animates
    statusWriter = statusCache.map { cache in StateWriter("status-cache-writer") { status throws(AtomicFile.WriteError) in try cache.save(status) } }
    assignmentWriter = assignmentFile.map { file in StateWriter("assignment-writer") { book throws(AtomicFile.WriteError) in try file.save(book) } }
    self.reminders = reminders
    self.onEvent = onEvent
    world.ask?.setRequestHandler { [inbox] request in inbox.send(.askRequested(request)) }
    world.simulatedClock?.setParkHandler { [inbox] in inbox.wakeWaiter() }
    // The store reaches the inbox when it changes: before the status it leads to.
    world.store?.setChangeHandler { [weak self] in self?.storeChanged() }
    // A ledger that stops saving (a full disk) is news the moment it happens, not at the next launch.
    world.store?.setWarningHandler { [weak self] message in self?.reportStateProblem(message) }
    statusWriter?.onFailure = { [weak self] error, earlier in
      guard earlier == 0 else { return }
      self?.reportStateProblem("status not cached: \(error.reason) (\(error.path)); kept in memory, saved again at the next change")
    }
    assignmentWriter?.onFailure = { [weak self] error, _ in
      self?.reportStateProblem("audience assignments not saved: \(error.reason) (\(error.path)); kept in memory, saved again at the next change")
    }
    reminders?.onFailure = { [weak self] error, _ in
      self?.reportStateProblem("trial reminders not saved: \(error.reason) (\(error.path)); kept in memory, saved again at the next change")
    }
    if let panel = storePanel() { dispatch(.storeChanged(panel)) }
  }

  /// Also hears every problem saving state (`play` prints them; the screen shows them anyway).
  package func setStateProblemHandler(_ handler: @escaping @Sendable (String) -> Void) {
    stateProblemHandler.withLock { $0 = handler }
  }

  private func reportStateProblem(_ message: String) {
    send(.notice(message))
    stateProblemHandler.withLock { $0 }?(message)
  }

  /// Queues a message from any thread; the loop handles it on its next step.
  package func send(_ message: AppMessage) { inbox.send(message) }

  /// The `.quit` effect has run.
  package var isFinished: Bool { inbox.isFinished }

  /// Handles every queued message and every result of the effects they start, until nothing can
  /// happen without input: each running effect is parked on the simulated clock or waiting for the
  /// tester's answer. An `advance` on the simulated clock is carried out here, deadline by
  /// deadline. Deterministic for a given sequence of inputs.
  package func settle() async {
    while true {
      await settleMessages()
      guard !pendingAdvances.isEmpty, let clock = world.simulatedClock else { return }
      let advance = pendingAdvances.removeFirst()
      await stepClock(to: clock.now.addingTimeInterval(advance.seconds))
      // The debug panel shows the store's clock: as `run`'s ticks would, after the move.
      storeChanged()
      send(.worldChanged(WorldReport(advance.report), announce: advance.announce))
    }
  }

  private func settleMessages() async {
    while true {
      drain()
      if isIdle { return }
      // A finished inbox (`q` in a script) does not end `play`: wait for messages all the same.
      await inbox.waitForMessages(evenWhenFinished: false, stillWaiting: { !isIdle })
    }
  }

  /// Moves `play`'s clock from deadline to deadline (a controller's latency, a timeout) and from
  /// one status change of the store to the next (an expiry, a lapse into billing retry), so each
  /// fires in order and is seen; renewals that change nothing are caught up on in one go. The
  /// store's saves are held: the ledger is written once for the whole advance.
  private func stepClock(to end: Date) async {
    guard let clock = world.simulatedClock else { return }
    let steps = { [self] in
      while true {
        var target = end
        if let work = clock.nextWorkDeadline, work < target { target = max(work, clock.now) }
        if let change = world.store?.nextStatusChange(through: target) { target = min(change, target) }
        if let notice = noticeDeadline?.at, notice > clock.now { target = min(notice, target) }
        clock.move(by: max(0, target.timeIntervalSince(clock.now)))
        world.store?.refreshStatus()
        if let notice = noticeDeadline, notice.at <= clock.now {
          noticeDeadline = nil
          send(.noticeExpired(id: notice.id))
        }
        await settleMessages()
        // What is due now wakes one at a time, each settled before the next: the same order
        // every run.
        while clock.wakeNextDue() { await settleMessages() }
        if target >= end { return }
      }
    }
    if let store = world.store { await store.savingOnce(steps) } else { await steps() }
  }

  /// Handles the queued messages now: all of them, or with a `budget`, those that fit in it (the
  /// interactive loop draws between batches, so messages that never stop coming cannot starve
  /// the screen).
  package func drain(budget: Duration? = nil) {
    let clock = ContinuousClock()
    let deadline = budget.map { clock.now + $0 }
    while let message = inbox.take() {
      // What the message's effects send from this thread (the status a debug key sets, the
      // store's change) is handled next, ahead of keys queued before it, as it happened at once.
      inbox.sendingFirst { dispatch(message) }
      if let deadline, clock.now >= deadline { return }
    }
  }

  /// Suspends until a message is queued.
  package func waitForMessages() async { await inbox.waitForMessages() }

  /// Waits for state files still being written (the status cache is written off the loop).
  package func flushState() {
    statusWriter?.flush()
    assignmentWriter?.flush()
    reminders?.flush()
  }

  /// Saves the audience assignments off the loop (a new user's id, kept before anything else
  /// happens to it).
  package func keepAssignments(_ book: AssignmentBook) {
    assignmentWriter?.save(book)
  }

  /// Starts the timers of the reminders an earlier session left pending (`ReminderFile`), each
  /// due when its time comes on the store's clock; those already due are delivered at launch.
  package func startKeptReminders(_ kept: PendingReminders) {
    for reminder in kept.reminders where reminder.fireAt > world.storeNow {
      run(.startNotificationTimer(id: reminder.id, seconds: reminder.fireAt.timeIntervalSince(world.storeNow)))
    }
  }

  /// The store as the debug panel shows it now.
  private func storePanel() -> StorePanel? {
    guard let store = world.store else { return nil }
    let derived = store.derived
    var panel = StorePanel(clock: store.clock.now, timeRate: world.timeRate, subscriptions: derived.subscriptions,
                           pending: store.pendingPurchases, nextEvent: store.nextEvent, usedIntroGroups: derived.usedIntroGroups,
                           faults: world.controller.armed.descriptions)
    panel.offerHistory = derived.offerHistory
    if store.catalog.store == .playStore {
      let settings = store.settings
      panel.testCard = settings.testCard
      panel.acknowledges = settings.acknowledgesPurchases
    }
    return panel
  }

  /// Hands the debug panel (and trial eligibility) what the store looks like now: when the store
  /// changed, and when the armed faults may have (a debug action, a purchase that used one).
  private func storeChanged() {
    if let panel = storePanel() { send(.storeChanged(panel)) }
  }

  /// Nothing queued, and every running effect waits on the clock or on the tester.
  package var isIdle: Bool {
    let (queued, running) = inbox.load
    guard queued == 0 else { return false }
    let parked = world.simulatedClock?.parkedCount ?? 0
    let asking = state.overlay?.ask != nil ? 1 : 0
    return running <= parked + asking
  }

  /// Runs one message through `update` and carries out its effects.
  package func dispatch(_ message: AppMessage) {
    var message = message
    if case .answer(let action, let process) = message {
      guard process == self.process else { return }
      message = .presentation(action)
    }
    recorder?.willDispatch(message)
    state.presentation.storeNow = world.storeNow
    let effects = AppModel.update(&state, message, now: world.clock.now)
    recorder?.didDispatch(message, effects: effects)
    for effect in effects { run(effect) }
    reminders?.sync(state.presentation)
  }

  private func run(_ effect: AppEffect) {
    // The panel shows the armed faults: a purchase or a debug action may use or arm one.
    let faults = world.controller.armed
    switch effect {
    case .purchase(let product, _):
      let android = state.presentation.options.sdk.platform == .android
      call { runtime in
        let result = await runtime.world.controller.purchase(product: product)
        if runtime.world.controller.armed != faults { runtime.storeChanged() }
        // The Android SDK shows Play's answer alone; why the store gave it is ours to say.
        if android, case .failed(let failure as PlayBillingFailure) = result, let reason = failure.reason {
          runtime.send(.notice("Google Play answered \(failure.response.name) (\(failure.response.rawValue)): \(reason)"))
        }
        return .purchaseFinished(result)
      }
    case .restore:
      call { runtime in
        let result = await runtime.world.controller.restorePurchases()
        if runtime.world.controller.armed != faults { runtime.storeChanged() }
        return .restoreFinished(result, status: runtime.world.statusStore.status)
      }
    case .emit(var event):
      // Stamped here, where it leaves the app: the store's clock (`play`'s simulated one, `run`'s
      // wall clock as the time rate and the debug panel move it), the time the ledger shows.
      event.at = world.storeNow
      onEvent(event)
    case .saveStatus(let status):
      statusWriter?.save(status)
    case .answerAsk(let id, let answer):
      world.ask?.answer(id, with: answer)
    case .startStatusTimeout(let id, let seconds):
      start { runtime in
        try? await runtime.world.clock.sleep(seconds: seconds)
        return .presentation(.statusTimedOut(registrationID: id))
      }
    case .startNotificationTimer(let id, let seconds):
      // The store's seconds: in `run` at its time rate (`--time-rate day=1s`), in `play` on the
      // simulated clock, where `advance` stops at the deadline.
      let wall = world.simulatedClock == nil ? seconds / max(world.wallRate, 1e-9) : seconds
      start { runtime in
        try? await runtime.world.clock.sleep(seconds: wall)
        return .presentation(.notificationDue(id: id))
      }
    case .saveAssignments(let book):
      assignmentWriter?.save(book)
    case .debug(let action, let announce):
      let report = perform(action, announce: announce)
      if world.controller.armed != faults { storeChanged() }
      if let report { send(.worldChanged(report, announce: announce)) }
    case .tick(let seconds):
      guard animates else { return }
      let withStore = state.overlay?.debug != nil
      start { runtime in
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        return .tick(store: withStore ? runtime.storePanel() : nil)
      }
    case .expireNotice(let id, let seconds):
      guard animates else {
        if let clock = world.simulatedClock { noticeDeadline = (id, clock.now.addingTimeInterval(seconds * world.wallRate)) }
        return
      }
      start { _ in
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        return .noticeExpired(id: id)
      }
    case .processEnded:
      endProcess()
    case .quit:
      inbox.finish()
    }
  }

  /// Starts a call to the controller, as the current process's: its answer is dropped if the
  /// process has died by the time it is handled.
  private func call(_ work: @escaping @Sendable (AppRuntime) async -> PresentationAction) {
    let process = self.process
    inbox.taskStarted()
    calls.start {
      let action = await work(self)
      self.inbox.taskFinished(with: .answer(action, process: process))
    }
  }

  /// The app's process dies (a relaunch, a reinstall): answers to its calls will be dropped, and
  /// a controller living in it stops where it is (a scripted purchase's latency ends with no status set).
  private func endProcess() {
    process += 1
    guard world.diesWithTheApp else { return }
    for task in calls.takeAll() { task.cancel() }
  }

  /// Starts an effect task; its result is queued before it counts as finished.
  private func start(_ work: @escaping @Sendable (AppRuntime) async -> AppMessage) {
    inbox.taskStarted()
    Task {
      let message = await work(self)
      inbox.taskFinished(with: message)
    }
  }
}
