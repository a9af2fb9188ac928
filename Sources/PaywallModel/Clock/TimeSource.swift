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

/// Where time comes from: the wall clock when interactive, a simulated one in `play` and tests so
/// latency, renewals and expiries happen when a script says `advance`, in no wall time.
public protocol TimeSource: Sendable {
  /// The current time on this clock.
  var now: Date { get }
  /// Suspends for `seconds` of this source's time. Throws `CancellationError` when cancelled.
  func sleep(seconds: Double) async throws
  /// Like `sleep`, for a timer that waits in the background (the simulated store's next renewal):
  /// `play` does not count it as work in progress, so the app is idle while it waits.
  func sleepInBackground(seconds: Double) async throws
}

extension TimeSource {
  /// Sleeps as `sleep(seconds:)` does; sources that tell work from background timers override it.
  public func sleepInBackground(seconds: Double) async throws {
    try await sleep(seconds: seconds)
  }
}

/// A clock QA can move forward (`advance` in play, the debug panel interactively).
public protocol AdjustableTimeSource: TimeSource {
  /// Moves the clock `seconds` ahead and wakes the sleepers whose time has come.
  func advance(by seconds: Double)
  /// Seconds `advance` has moved it so far (0 for a clock that keeps no count): a recording
  /// (`run --record`) takes it away to tell the clock's own flow from the jumps QA made.
  var advancedSeconds: Double { get }
}

extension AdjustableTimeSource {
  /// No count kept: 0.
  public var advancedSeconds: Double { 0 }
}

/// The wall clock's time, `rate` times as fast, plus whatever QA has advanced it by: an
/// interactive session runs in real time (`rate` 1, starting now); the store's clock in one runs
/// from `start` at `--time-rate` (`month=30s` is about 87,600 times). Sleepers wake on time at
/// that rate, and within 250 ms of wall time when an advance jumps past them. With
/// `SimulatedTimeSource`, the only clocks there are: the wall's and `play`'s.
public final class LiveTimeSource: AdjustableTimeSource {
  /// How many times faster than the wall clock it runs (at least 1e-9).
  public let rate: Double
  private let start: Date
  private let wallStart: Date
  private let offset = Mutex<Double>(0)

  /// The wall clock: now, in real time, not advanced yet.
  public convenience init() {
    self.init(rate: 1)
  }

  /// A clock at `start` now, running `rate` times as fast as the wall clock.
  public init(rate: Double, start: Date = Date()) {
    self.rate = max(rate, 1e-9)
    self.start = start
    self.wallStart = Date()
  }

  /// `start` plus the wall time elapsed times `rate`, plus every advance so far.
  public var now: Date {
    start.addingTimeInterval(Date().timeIntervalSince(wallStart) * rate + offset.withLock { $0 })
  }

  /// Every advance so far, in seconds of this clock.
  public var advancedSeconds: Double { offset.withLock { $0 } }

  /// Moves the clock `seconds` ahead (negative counts as 0); sleepers jumped past wake within 250 ms of wall time.
  public func advance(by seconds: Double) {
    offset.withLock { $0 += max(0, seconds) }
  }

  /// Sleeps until the clock reaches now + `seconds`: `seconds / rate` of wall time, less when advanced.
  public func sleep(seconds: Double) async throws {
    let deadline = now.addingTimeInterval(seconds)
    while true {
      let remaining = deadline.timeIntervalSince(now) / rate
      if remaining <= 0 { return }
      // Re-check at least every 250 ms of wall time so an advance past the deadline is noticed.
      try await Task.sleep(nanoseconds: UInt64(min(remaining, 0.25) * 1e9) + 1)
    }
  }
}

/// A clock that only moves when told to. Sleepers are parked until `advance` passes their
/// deadline, then woken in deadline order; `parkedCount` tells the runtime that they are waiting
/// on time, not working, so the app counts as idle.
public final class SimulatedTimeSource: AdjustableTimeSource {
  private struct Sleeper {
    var id: Int
    var deadline: Date
    var continuation: CheckedContinuation<Void, any Error>
    /// A background timer: it wakes with `advance` like any sleeper, but is not work in progress.
    var background = false
  }

  private struct State {
    var now: Date
    var sleepers: [Sleeper] = []
    var nextID = 0
    var onPark: (@Sendable () -> Void)?
  }

  private let state: Mutex<State>

  /// 2026-01-01T00:00:00Z: a fixed start so `play` runs are reproducible.
  public static let defaultStart = Date(timeIntervalSince1970: 1_767_225_600)

  /// A clock standing at `start` until advanced.
  public init(start: Date = SimulatedTimeSource.defaultStart) {
    state = Mutex(State(now: start))
  }

  /// The clock's time: `start` plus every advance so far.
  public var now: Date { state.withLock { $0.now } }

  /// Sleepers that are work in progress waiting on time (a controller's latency), not background timers.
  public var parkedCount: Int { state.withLock { $0.sleepers.count { !$0.background } } }

  /// Called whenever a sleeper parks, so a loop waiting for the app to go idle can look again.
  public func setParkHandler(_ handler: @escaping @Sendable () -> Void) {
    state.withLock { $0.onPark = handler }
  }

  /// The earliest deadline anyone is waiting for.
  public var nextDeadline: Date? { state.withLock { $0.sleepers.map(\.deadline).min() } }

  /// The earliest deadline of work in progress (a controller's latency, a timeout), leaving out
  /// background timers such as the simulated store's.
  public var nextWorkDeadline: Date? { state.withLock { $0.sleepers.lazy.filter { !$0.background }.map(\.deadline).min() } }

  /// Parks until `advance` reaches now + `seconds`, as work in progress (`parkedCount` counts it).
  public func sleep(seconds: Double) async throws {
    try await park(seconds: seconds, background: false)
  }

  /// Parks until `advance` reaches now + `seconds`, as a background timer (not in `parkedCount`).
  public func sleepInBackground(seconds: Double) async throws {
    try await park(seconds: seconds, background: true)
  }

  private func park(seconds: Double, background: Bool) async throws {
    guard seconds > 0 else { return }
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let (cancelled, onPark) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
          if Task.isCancelled { return (true, nil) }
          state.sleepers.append(Sleeper(id: id, deadline: state.now.addingTimeInterval(seconds), continuation: continuation,
                                        background: background))
          return (false, state.onPark)
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        onPark?()
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward and wakes, in deadline order, everyone whose deadline has come.
  public func advance(by seconds: Double) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.addingTimeInterval(max(0, seconds))
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Moves time forward and wakes nobody: `wakeNextDue` then wakes those whose deadline has come
  /// one at a time, so a runtime can let each finish before the next starts.
  public func move(by seconds: Double) {
    state.withLock { $0.now = $0.now.addingTimeInterval(max(0, seconds)) }
  }

  /// Wakes the first sleeper whose deadline has come, by deadline and then by the order they
  /// went to sleep; false when none is due. Two timers due at one instant (two notifications
  /// scheduled in one second) then fire in the order they were set, every time, where waking
  /// both at once let whichever task ran first be first.
  public func wakeNextDue() -> Bool {
    let next = state.withLock { state -> Sleeper? in
      let now = state.now
      guard let index = state.sleepers.indices.filter({ state.sleepers[$0].deadline <= now })
        .min(by: { (state.sleepers[$0].deadline, state.sleepers[$0].id) < (state.sleepers[$1].deadline, state.sleepers[$1].id) })
      else { return nil }
      return state.sleepers.remove(at: index)
    }
    next?.continuation.resume()
    return next != nil
  }
}
