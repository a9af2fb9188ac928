import Synchronization

/// The one place the subscription status lives. Any number of observers get an `AsyncStream` that
/// yields the current value first and then every change.
///
/// Each observer has a one-slot mailbox holding the newest value, so a slow observer never makes
/// the store buffer without bound: a burst of changes it has not read collapses into the latest.
/// The mailbox also remembers what it last delivered, so an observer never sees the same value
/// twice in a row, even when a burst goes A → B → A, and always ends on the final value.
public final class SubscriptionStatusStore: Sendable {
  private struct State {
    var status: SubscriptionStatus
    var mailboxes: [Int: StatusMailbox] = [:]
    /// In the order they subscribed, so they hear a change in that order. A list, not a
    /// dictionary: the first subscriber comes before the first frame, and a dictionary keyed by
    /// a type the process has not hashed yet costs the runtime a scan of every conformance record.
    var subscribers: [(id: Int, handler: @Sendable (SubscriptionStatus) -> Void)] = []
    var nextID = 0
  }

  private let state: Mutex<State>

  /// A store holding `initial` (normalized: `active([])` is kept as `inactive`).
  public init(_ initial: SubscriptionStatus = .unknown) {
    state = Mutex(State(status: initial.normalized))
  }

  /// The current status.
  public var status: SubscriptionStatus {
    state.withLock { $0.status }
  }

  /// Sets the status. Returns the change, or nil when the status was already `newValue`.
  @discardableResult
  public func set(_ newValue: SubscriptionStatus) -> (from: SubscriptionStatus, to: SubscriptionStatus)? {
    let value = newValue.normalized
    // Mailboxes are updated under the store's lock, so they see changes in the store's order even
    // when several tasks set at once; only resuming a waiting observer happens outside it.
    let change: (old: SubscriptionStatus, waiters: [UnsafeContinuation<SubscriptionStatus?, Never>])? = state.withLock { state in
      guard state.status != value else { return nil }
      let old = state.status
      state.status = value
      // Subscribers hear it here, under the lock: in the store's order, before `set` returns.
      for subscriber in state.subscribers { subscriber.handler(value) }
      return (old, state.mailboxes.values.compactMap { $0.offer(value) })
    }
    guard let (old, waiters) = change else { return nil }
    for waiter in waiters { waiter.resume(returning: value) }
    return (old, value)
  }

  /// A stream of the status: the current value first, then each change, de-duplicated. One task
  /// iterates a stream at a time; each observer calls `updates()` for a stream of its own.
  public func updates() -> AsyncStream<SubscriptionStatus> {
    let (id, mailbox) = state.withLock { state -> (Int, StatusMailbox) in
      let mailbox = StatusMailbox(state.status)
      let id = state.nextID
      state.nextID += 1
      state.mailboxes[id] = mailbox
      return (id, mailbox)
    }
    let detach: @Sendable () -> Void = { [weak self] in
      mailbox.finish()
      self?.state.withLock { _ = $0.mailboxes.removeValue(forKey: id) }
    }
    // The token lives as long as the stream: an observer that stops iterating and drops the stream
    // is detached as surely as one whose task is cancelled.
    let token = ObserverToken(onRelease: detach)
    return AsyncStream(unfolding: {
      let value = await mailbox.next()
      _ = token  // captured: released with the stream
      return value
    }, onCancel: detach)
  }

  /// Calls `handler` with every change from now on, synchronously on the thread that sets the
  /// status and before `set` returns, so changes arrive in the store's order and ahead of
  /// whatever the setter does next (a controller sets the status, then returns its result).
  /// `handler` must be quick and must not call back into the store. The subscription lasts as
  /// long as the returned token.
  public func subscribe(_ handler: @escaping @Sendable (SubscriptionStatus) -> Void) -> Subscription {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      state.subscribers.append((state.nextID, handler))
      return state.nextID
    }
    return Subscription(ObserverToken { [weak self] in self?.state.withLock { $0.subscribers.removeAll { $0.id == id } } })
  }

  /// Keeps a `subscribe` handler attached; dropping it detaches the handler.
  public struct Subscription: Sendable {
    let token: ObserverToken
    init(_ token: ObserverToken) { self.token = token }
  }

  /// How many observers are attached (for tests and diagnostics).
  package var observerCount: Int {
    state.withLock { $0.mailboxes.count }
  }
}

/// Runs `onRelease` when the last reference to it goes.
final class ObserverToken: Sendable {
  let onRelease: @Sendable () -> Void

  init(onRelease: @escaping @Sendable () -> Void) {
    self.onRelease = onRelease
  }

  deinit {
    onRelease()
  }
}

/// The newest status for one observer, and the one it was last given.
///
/// The waiting observer is held as an `UnsafeContinuation`, not a checked one: that type is frozen
/// (a pointer), where `CheckedContinuation`'s layout is hidden in the resilient concurrency
/// library, so reading or copying that optional cost a generic metadata lookup and value-witness
/// calls on every change offered (more than half of a `set`'s instructions). It is resumed exactly
/// once: a continuation is either resumed at once by `next`, never stored, or stored and later
/// taken out under the lock, and only whoever took it out resumes it. One task reads a stream at
/// a time (as `AsyncStream` asks of its users): a second waiter would overwrite the first and
/// leave it waiting for ever, so it stops the program instead.
final class StatusMailbox: Sendable {
  private struct Slot {
    var latest: SubscriptionStatus
    var delivered: SubscriptionStatus?
    var waiter: UnsafeContinuation<SubscriptionStatus?, Never>?
    var finished = false
  }

  private let slot: Mutex<Slot>

  init(_ initial: SubscriptionStatus) {
    slot = Mutex(Slot(latest: initial))
  }

  /// Stores `value`; returns the waiting observer, to be resumed with `value` outside any lock.
  func offer(_ value: SubscriptionStatus) -> UnsafeContinuation<SubscriptionStatus?, Never>? {
    slot.withLock { slot in
      slot.latest = value
      guard let waiter = slot.waiter, slot.delivered != value else { return nil }
      slot.waiter = nil
      slot.delivered = value
      return waiter
    }
  }

  func finish() {
    let waiter = slot.withLock { slot -> UnsafeContinuation<SubscriptionStatus?, Never>? in
      slot.finished = true
      defer { slot.waiter = nil }
      return slot.waiter
    }
    waiter?.resume(returning: nil)
  }

  /// The next value this observer has not seen, waiting for one if need be; nil once finished.
  func next() async -> SubscriptionStatus? {
    let ready: SubscriptionStatus?? = slot.withLock { slot in
      if slot.finished { return .some(nil) }
      guard slot.delivered != slot.latest else { return nil }
      slot.delivered = slot.latest
      return .some(slot.latest)
    }
    if let ready { return ready }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { continuation in
        let immediate: SubscriptionStatus?? = slot.withLock { slot in
          if slot.finished { return .some(nil) }
          if slot.delivered != slot.latest {
            slot.delivered = slot.latest
            return .some(slot.latest)
          }
          precondition(slot.waiter == nil, "two tasks iterate one SubscriptionStatusStore.updates() stream at once")
          slot.waiter = continuation
          return nil
        }
        if let immediate { continuation.resume(returning: immediate) }
      }
    } onCancel: {
      finish()
    }
  }
}
