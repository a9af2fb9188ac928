import PaywallModel
import Synchronization

/// Runs an async body to completion from synchronous code (the CLI's `run`).
package func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
  let box = Mutex<T?>(nil)
  let done = Semaphore()
  // Detached: the caller may be on the main actor, which this semaphore blocks.
  Task.detached {
    let value = await body()
    box.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  return box.withLock { $0! }
}
