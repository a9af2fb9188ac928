import Foundation
import Testing

/// Helpers for the suites that wait on concurrent work (status observers, purchase controllers,
/// child processes). Nothing here sleeps and then asserts: every wait polls a condition or races
/// the work against a deadline, so a bug fails the test instead of hanging the run.

/// A value shared between tasks and threads, guarded by a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) {
    stored = value
  }

  var value: Value {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  @discardableResult
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&stored)
  }
}

extension Locked where Value: RangeReplaceableCollection {
  func append(_ element: Value.Element) {
    withLock { $0.append(element) }
  }
}

/// A wait's budget, spent only while the waiting task could run. Swift Testing runs the
/// synchronous tests on the cooperative pool (2 threads on 2 cores), and one blocked on tmux or a
/// process holds a thread for seconds: a task of a test that waits with `Task.sleep` then wakes
/// late, and in CI one woke 100 s late. Each wake-up is charged at most `longestStep`, so the
/// budget counts the time the test and the work it waits for had, not the time they were queued
/// behind others; a wait that never succeeds still ends (after `seconds` of running, and the
/// test's time limit bounds the rest).
struct RunnableTime {
  static let longestStep: Duration = .milliseconds(50)
  private var left: Duration
  private var last = ContinuousClock.now

  init(_ seconds: Double) {
    left = .milliseconds(Int(seconds * 1000))
  }

  var isSpent: Bool { left <= .zero }

  /// Charges the time since the last call, at most `longestStep`.
  mutating func tick() {
    let now = ContinuousClock.now
    left -= min(now - last, Self.longestStep)
    last = now
  }
}

/// Polls `condition` every couple of milliseconds until it holds or `seconds` of running time
/// pass (`RunnableTime`). Returns whether it held; the caller `#expect`s the result with its own
/// message.
func eventually(within seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
  var budget = RunnableTime(seconds)
  while !budget.isSpent {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
    budget.tick()
  }
  return condition()
}

/// Awaits `body` for at most `seconds` of running time (`RunnableTime`). Returns its value, or records an issue and
/// returns nil when the deadline passes first. The body runs in its own task, so even one that
/// ignores cancellation (a continuation nobody resumes) cannot keep the test from finishing.
func within<T: Sendable>(_ seconds: Double = 60, _ what: String = "the awaited work",
                         sourceLocation: Testing.SourceLocation = #_sourceLocation,
                         _ body: @escaping @Sendable () async -> T) async -> T? {
  let slot = Locked<CheckedContinuation<T?, Never>?>(nil)
  let tasks = Locked<[Task<Void, Never>]>([])
  let started = ContinuousClock.now
  let result: T? = await withCheckedContinuation { continuation in
    slot.withLock { $0 = continuation }
    let work = Task {
      let value = await body()
      slot.withLock { slot -> CheckedContinuation<T?, Never>? in defer { slot = nil }; return slot }?
        .resume(returning: value)
    }
    let timer = Task {
      var budget = RunnableTime(seconds)
      while !budget.isSpent {
        try? await Task.sleep(for: .milliseconds(20))
        if Task.isCancelled { return }
        budget.tick()
      }
      slot.withLock { slot -> CheckedContinuation<T?, Never>? in defer { slot = nil }; return slot }?
        .resume(returning: nil)
    }
    tasks.withLock { $0 = [work, timer] }
  }
  for task in tasks.value { task.cancel() }
  if result == nil {
    Issue.record("\(what) did not finish within \(seconds) s (waited \(ContinuousClock.now - started))",
                 sourceLocation: sourceLocation)
  }
  return result
}
