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

/// The app's one way in: every message (a key, a signal, a controller's answer, a status change, a
/// script's step) is queued here, from any thread, and the runtime takes them in order. It exists
/// before anything that sends to it (the terminal opens while the project loads, a controller
/// process starts before the runtime), so nothing needs a relay that holds messages back.
package final class AppInbox: Sendable {
  private struct Shared {
    package var messages: [AppMessage] = []
    /// Effect tasks started and not yet finished.
    package var running = 0
    /// The waiting loop. Unsafe, not checked: `CheckedContinuation`'s layout is hidden in the
    /// resilient concurrency library, so every send paid a generic metadata lookup to read this
    /// optional, and the first one a conformance scan before the first frame. It is resumed once:
    /// only whoever takes it out under the lock resumes it. One loop waits at a time.
    package var wake: UnsafeContinuation<Void, Never>?
    /// While the loop's thread dispatches a message, what that thread sends goes here, to be
    /// taken before the messages queued earlier.
    package var first: [AppMessage] = []
    package var firstThread: pthread_t?
    /// The `.quit` effect ran: the loop stops.
    package var finished = false
  }

  private let shared = Mutex(Shared())
  /// Raised while a message that must not wait (`q`, Esc, an ending signal) is queued: an
  /// audience evaluation under way gives up, so the loop reaches it at once.
  package let interrupt = EvaluationInterrupt()

  package init() {}

  /// Whether `message` must not wait behind a registration's audience evaluation.
  private static func isUrgent(_ message: AppMessage) -> Bool {
    switch message {
    case .terminate: true
    case .key(let key): key == .escape || key == .character("q")
    default: false
    }
  }

  /// Queues a message. Only the newest status (and store) matters: one that follows another of
  /// its kind in the queue replaces it, so a controller that sets the status a thousand times a
  /// second does not queue a thousand messages ahead of the next key (or the Ctrl-C), and nothing
  /// is reordered.
  package func send(_ message: AppMessage) {
    if Self.isUrgent(message) { interrupt.raise() }
    wake { shared in
      if let thread = shared.firstThread, pthread_equal(thread, pthread_self()) != 0 {
        Self.queue(message, on: &shared.first)
      } else {
        Self.queue(message, on: &shared.messages)
      }
    }
  }

  /// Appends `message`, or replaces the last message when it is of the same newest-only kind.
  private static func queue(_ message: AppMessage, on messages: inout [AppMessage]) {
    if let kind = message.newestOnly, messages.last?.newestOnly == kind {
      messages[messages.count - 1] = message
    } else {
      messages.append(message)
    }
  }

  /// Runs `body` (a dispatch), and puts what this thread sent meanwhile ahead of the queue.
  package func sendingFirst(_ body: () -> Void) {
    shared.withLock { $0.firstThread = pthread_self() }
    body()
    shared.withLock { shared in
      shared.firstThread = nil
      shared.messages.insert(contentsOf: shared.first, at: 0)
      shared.first.removeAll()
    }
  }

  /// The oldest queued message, if any.
  package func take() -> AppMessage? {
    let message = shared.withLock { $0.messages.isEmpty ? nil : $0.messages.removeFirst() }
    if let message, Self.isUrgent(message) { interrupt.lower() }
    return message
  }

  /// (queued messages, running effect tasks).
  package var load: (queued: Int, running: Int) { shared.withLock { ($0.messages.count, $0.running) } }

  package var isFinished: Bool { shared.withLock { $0.finished } }

  package func finish() { wake { $0.finished = true } }

  package func taskStarted() { shared.withLock { $0.running += 1 } }

  /// A task's result: queued before the task counts as finished, so the loop never sees an idle
  /// moment between the two.
  package func taskFinished(with message: AppMessage) {
    wake { shared in
      shared.messages.append(message)
      shared.running -= 1
    }
  }

  /// Suspends until a message is queued (or, `evenWhenFinished`, the inbox is finished; or
  /// `wakeWaiter` is called). `stillWaiting` is checked once the waiter is registered: false
  /// resumes at once.
  package func waitForMessages(evenWhenFinished: Bool = true, stillWaiting: () -> Bool = { true }) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = shared.withLock { shared -> Bool in
        if !shared.messages.isEmpty || (evenWhenFinished && shared.finished) { return true }
        precondition(shared.wake == nil, "two tasks wait on one AppInbox at once")
        shared.wake = continuation
        return false
      }
      if ready {
        continuation.resume()
      } else if !stillWaiting() {
        wakeWaiter()
      }
    }
  }

  /// Lets a waiting `waitForMessages` look again.
  package func wakeWaiter() { wake { _ in } }

  private func wake(_ change: (inout Shared) -> Void) {
    let waiter = shared.withLock { shared -> UnsafeContinuation<Void, Never>? in
      change(&shared)
      defer { shared.wake = nil }
      return shared.wake
    }
    waiter?.resume()
  }
}
