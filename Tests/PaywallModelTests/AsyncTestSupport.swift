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

/// Polls `condition` every couple of milliseconds until it holds or `seconds` pass.
/// Returns whether it held; the caller `#expect`s the result with its own message.
func eventually(within seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
  let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
  while ContinuousClock.now < end {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return condition()
}

/// Awaits `body` for at most `seconds` of wall time. Returns its value, or records an issue and
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
      try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
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
