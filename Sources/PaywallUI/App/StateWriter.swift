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

/// Saves a state file off the app's loop, on a thread of its own (a write blocks on the disk):
/// the newest value waits while a write runs, and is written next; values in between are never
/// written. The thread ends when nothing is pending; the next save starts another.
package final class StateWriter<Value: Sendable>: @unchecked Sendable {
  private let write: @Sendable (Value) throws(AtomicFile.WriteError) -> Void
  private let label: String
  private let state = Mutex<(pending: Value?, writing: Bool, failures: Int)>((nil, false, 0))
  /// Broadcast each time the writing thread ends, for `flush`.
  private let idle = Condition()
  /// Told at each failed write, with how many failed before it.
  package var onFailure: (@Sendable (AtomicFile.WriteError, _ earlierFailures: Int) -> Void)?

  package init(_ label: String, write: @escaping @Sendable (Value) throws(AtomicFile.WriteError) -> Void) {
    self.write = write
    self.label = label
  }

  package func save(_ value: Value) {
    let start = state.withLock { state -> Bool in
      state.pending = value
      defer { state.writing = true }
      return !state.writing
    }
    guard start else { return }
    // A thread the system refuses: written here, on the caller's, rather than never.
    if !DetachedThread.start(label, { self.writePending() }) { writePending() }
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
    // Under `idle`'s lock: a `flush` that saw `writing` is already waiting, never about to.
    idle.lock()
    idle.broadcast()
    idle.unlock()
  }

  /// Returns once every value handed to `save` so far is written (or failed), or after `seconds`
  /// if a write hangs (a stalled disk): the process may then end, rather than never.
  package func flush(within seconds: Double = 10) {
    let deadline = Date().addingTimeInterval(seconds)
    idle.lock()
    defer { idle.unlock() }
    while state.withLock({ $0.writing }) {
      if !idle.wait(until: deadline) && Date() >= deadline { return }
    }
  }
}
