import Dispatch
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

/// Saves a state file off the app's loop: the newest value waits while a write runs, and is
/// written next; values in between are never written.
package final class StateWriter<Value: Sendable>: @unchecked Sendable {
  private let write: @Sendable (Value) throws(AtomicFile.WriteError) -> Void
  private let queue: DispatchQueue
  private let state = Mutex<(pending: Value?, writing: Bool, failures: Int)>((nil, false, 0))
  /// Told at each failed write, with how many failed before it.
  package var onFailure: (@Sendable (AtomicFile.WriteError, _ earlierFailures: Int) -> Void)?

  package init(_ label: String, write: @escaping @Sendable (Value) throws(AtomicFile.WriteError) -> Void) {
    self.write = write
    queue = DispatchQueue(label: label)
  }

  package func save(_ value: Value) {
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
  package func flush(within seconds: Double = 10) {
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
